//! `format` and `formatlist` over plain arguments: cty's verb scanner (its Ragel machine in
//! `format_fsm.rl`, error texts included), Go's quoting and JSON strings, grapheme widths, and
//! the verbs' conversions (numbers are printed by `string_format_num.rs`). Values are the
//! caller's (`string.rs` turns them into [`Arg`]s).

use unicode_segmentation::UnicodeSegmentation;

pub use super::string_format_num::{format_float, format_int, Decimal};

/// One `%...` verb as cty's scanner records it.
#[derive(Debug, Clone, Default)]
pub struct Verb {
    /// The verb's text, e.g. `%-5.2[2]f`.
    pub raw: String,
    /// Byte offset of the `%`.
    pub offset: usize,
    /// 1-based argument number.
    pub arg_num: usize,
    pub mode: char,
    pub zero: bool,
    pub sharp: bool,
    pub plus: bool,
    pub minus: bool,
    pub space: bool,
    pub prec: Option<usize>,
    pub width: Option<usize>,
}

/// What the scanner met: literal text to copy, or a verb to format.
pub enum Piece<'a> {
    Text(&'a str),
    Verb(Verb),
}

/// Scans `format` as cty's machine does, calling `emit` for each piece in order. Errors are
/// cty's texts; `emit`'s errors stop the scan. Returns the highest argument number used.
pub fn scan<'a>(format: &'a str, mut emit: impl FnMut(Piece<'a>) -> Result<(), String>) -> Result<usize, String> {
    let b = format.as_bytes();
    let mut p = 0;
    let mut next_arg = 1;
    let mut highest = 0;
    let mut lit_start = 0;
    while p < b.len() {
        if b[p] != b'%' {
            p += 1;
            continue;
        }
        if p > lit_start {
            emit(Piece::Text(&format[lit_start..p]))?;
        }
        let ts = p;
        p += 1;
        if p < b.len() && b[p] == b'%' {
            emit(Piece::Text("%"))?;
            p += 1;
            lit_start = p;
            continue;
        }
        let mut v = Verb { arg_num: next_arg, offset: ts, ..Verb::default() };
        // flags
        while p < b.len() {
            match b[p] {
                b'0' => v.zero = true,
                b'#' => v.sharp = true,
                b'-' => v.minus = true,
                b'+' => v.plus = true,
                b' ' => v.space = true,
                _ => break,
            }
            p += 1;
        }
        // width: a number without a leading zero
        if p < b.len() && (b'1'..=b'9').contains(&b[p]) {
            let mut w: usize = 0;
            while p < b.len() && b[p].is_ascii_digit() {
                w = w.saturating_mul(10).saturating_add((b[p] - b'0') as usize);
                p += 1;
            }
            v.width = Some(w);
        }
        // precision: '.' digits*
        if p < b.len() && b[p] == b'.' {
            p += 1;
            let mut pr: usize = 0;
            while p < b.len() && b[p].is_ascii_digit() {
                pr = pr.saturating_mul(10).saturating_add((b[p] - b'0') as usize);
                p += 1;
            }
            v.prec = Some(pr);
        }
        // argument index: '[' num ']'
        if p < b.len() && b[p] == b'[' {
            p += 1;
            if p >= b.len() {
                return Err(format!("invalid format string starting at offset {p}"));
            }
            if !(b'1'..=b'9').contains(&b[p]) {
                return Err(unrecognized(format, p));
            }
            let mut n: usize = 0;
            while p < b.len() && b[p].is_ascii_digit() {
                n = n.saturating_mul(10).saturating_add((b[p] - b'0') as usize);
                p += 1;
            }
            if p >= b.len() {
                return Err(format!("invalid format string starting at offset {p}"));
            }
            if b[p] != b']' {
                return Err(unrecognized(format, p));
            }
            p += 1;
            v.arg_num = n;
        }
        if p >= b.len() {
            return Err(format!("invalid format string starting at offset {p}"));
        }
        if !b[p].is_ascii_alphabetic() {
            return Err(unrecognized(format, p));
        }
        v.mode = b[p] as char;
        p += 1;
        v.raw = format[ts..p].to_string();
        highest = highest.max(v.arg_num);
        next_arg = v.arg_num + 1;
        emit(Piece::Verb(v))?;
        lit_start = p;
    }
    if p > lit_start {
        emit(Piece::Text(&format[lit_start..p]))?;
    }
    Ok(highest)
}

fn unrecognized(format: &str, p: usize) -> String {
    let r = format[p..].chars().next().unwrap_or('\u{FFFD}');
    format!("unrecognized format character {} at offset {p}", go_quote_rune(r))
}

use crate::addrs::quote::{go_quote, go_quote_rune};

/// Number of grapheme clusters (cty measures widths and precisions in them).
pub fn graphemes(s: &str) -> usize {
    s.graphemes(true).count()
}

/// cty's `formatPadWidth`.
pub fn pad_width(v: &Verb, s: String) -> String {
    let Some(want) = v.width else { return s };
    let have = graphemes(&s);
    if have >= want {
        return s;
    }
    let pad = (if v.zero { "0" } else { " " }).repeat(want - have);
    if v.minus {
        s + &pad
    } else {
        pad + &s
    }
}

/// cty's `%s` precision: the first `prec` grapheme clusters.
pub fn truncate_graphemes(s: &str, prec: usize) -> &str {
    match s.grapheme_indices(true).nth(prec) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// A `format` argument, as far as formatting needs to know it. The caller (which owns the
/// value model) converts values into these; unknown arguments never get here.
#[derive(Debug, Clone)]
pub enum Arg {
    Null,
    Bool(bool),
    /// A number: exact decimal digits, and cty's string form of it (`tostring`).
    Number(Decimal, String),
    String(String),
    /// A collection or structural value: its JSON encoding (what `jsonencode` gives).
    Other(String),
}

/// Where a `format` failure belongs: on an argument (index into all the call's arguments,
/// the format string being 0: "Invalid function argument"), or on the call.
#[derive(Debug, PartialEq, Eq)]
pub enum FormatError {
    Arg(usize, String),
    Call(String),
}

/// The longest result we build (16 MiB; Terraform has no limit).
pub const MAX_RESULT: usize = 16 << 20;

/// The largest width or precision we format (Go's fmt limit).
pub const MAX_WIDTH: usize = 1_000_000;

/// cty's `format` over already-converted arguments.
pub fn format_values(format: &str, args: &[Arg]) -> Result<String, FormatError> {
    let mut out = String::new();
    let highest = scan(format, |piece| match piece {
        Piece::Text(t) => {
            out.push_str(t);
            Ok(())
        }
        Piece::Verb(v) => {
            append_verb(&v, args, &mut out)?;
            if out.len() > MAX_RESULT {
                return Err(format!("the result would be longer than {MAX_RESULT} bytes"));
            }
            Ok(())
        }
    })
    .map_err(FormatError::Call)?;
    if highest < args.len() {
        let first_bad = highest + 1;
        return Err(FormatError::Arg(
            first_bad,
            if highest == 0 {
                "too many arguments; no verbs in format string".to_string()
            } else {
                format!("too many arguments; only {highest} used by format string")
            },
        ));
    }
    Ok(out)
}

fn unsupported(v: &Verb, why: &str) -> String {
    format!("unsupported value for {} at {}: {why}", go_quote(&v.raw), v.offset)
}

fn append_verb(v: &Verb, args: &[Arg], out: &mut String) -> Result<(), String> {
    let Some(arg) = args.get(v.arg_num.wrapping_sub(1)) else {
        return Err(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            go_quote(&v.raw),
            v.offset,
            v.arg_num,
            args.len()
        ));
    };
    // Go's fmt refuses widths and precisions over 1e6 (printing `%!(NOVERB)` and the argument
    // as `%!(EXTRA ...)`), and cty's own string padding would allocate whatever is asked: we
    // stop with an error instead.
    if v.width.is_some_and(|w| w > MAX_WIDTH) || v.prec.is_some_and(|p| p > MAX_WIDTH) {
        return Err(format!(
            "unsupported format verb {} at offset {}: width and precision are limited to {MAX_WIDTH}",
            go_quote(&v.raw),
            v.offset
        ));
    }
    if v.mode != 'v' && matches!(arg, Arg::Null) {
        return Err(unsupported(v, "null value cannot be formatted"));
    }
    match v.mode {
        'v' => {
            let text = match arg {
                Arg::String(s) if !v.sharp => s.clone(),
                Arg::Number(d, _) if !v.sharp => {
                    format_float(&Verb { mode: 'g', prec: None, width: None, ..Verb::default() }, d)
                }
                Arg::String(s) => go_json_string(s),
                Arg::Number(_, s) => s.clone(),
                Arg::Null => "null".to_string(),
                Arg::Bool(b) => b.to_string(),
                Arg::Other(json) => json.clone(),
            };
            out.push_str(&pad_width(v, text));
        }
        't' => {
            let b = match arg {
                Arg::Bool(b) => *b,
                Arg::String(s) if s == "true" => true,
                Arg::String(s) if s == "false" => false,
                Arg::String(_) => return Err(unsupported(v, "a bool is required")),
                _ => return Err(unsupported(v, "bool required")),
            };
            out.push_str(if b { "true" } else { "false" });
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let d = match arg {
                Arg::Number(d, _) => d.clone(),
                Arg::String(s) => parse_cty_number(s).ok_or_else(|| unsupported(v, "a number is required"))?,
                _ => return Err(unsupported(v, "number required")),
            };
            if matches!(v.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                if !d.is_integer() {
                    return Err(unsupported(v, "an integer is required"));
                }
                out.push_str(&format_int(v, &d));
            } else {
                out.push_str(&format_float(v, &d));
            }
        }
        's' | 'q' => {
            let s = match arg {
                Arg::String(s) => s.clone(),
                Arg::Number(_, s) => s.clone(),
                Arg::Bool(b) => b.to_string(),
                _ => return Err(unsupported(v, "string required")),
            };
            let s = match v.prec {
                Some(p) if p > 0 => truncate_graphemes(&s, p).to_string(),
                _ => s,
            };
            let text = if v.mode == 'q' { go_json_string(&s) } else { s };
            out.push_str(&pad_width(v, text));
        }
        m => {
            return Err(format!(
                "unsupported format verb {} in {} at offset {}",
                go_quote_rune(m),
                go_quote(&v.raw),
                v.offset
            ))
        }
    }
    Ok(())
}

/// A `formatlist` argument: a list, set or tuple is iterated, anything else repeats. `None`
/// is a value that is not wholly known: the rows it takes part in are unknown.
#[derive(Debug, Clone)]
pub enum ListArg {
    Single(Option<Arg>),
    Seq(Vec<Option<Arg>>),
}

/// cty's `formatlist` over converted arguments (whose sequences have known lengths; the
/// caller makes the whole result unknown otherwise): one string per row, `None` for a row
/// with an unknown argument.
pub fn formatlist_values(format: &str, args: &[ListArg]) -> Result<Vec<Option<String>>, FormatError> {
    if args.is_empty() {
        return format_values(format, &[]).map(|s| vec![Some(s)]);
    }
    let mut len: Option<(usize, usize)> = None; // (length, argument index)
    for (i, a) in args.iter().enumerate() {
        if let ListArg::Seq(v) = a {
            match len {
                None => len = Some((v.len(), i)),
                Some((l, j)) if l != v.len() => {
                    return Err(FormatError::Arg(
                        i + 1,
                        format!(
                            "argument {} has length {}, which is inconsistent with argument {} of length {l}",
                            i + 1,
                            v.len(),
                            j + 1
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
    }
    let n = len.map_or(1, |(l, _)| l);
    let mut out = Vec::with_capacity(n);
    let mut total = 0;
    for it in 0..n {
        let row: Option<Vec<Arg>> = args
            .iter()
            .map(|a| match a {
                ListArg::Single(v) => v.clone(),
                ListArg::Seq(v) => v[it].clone(),
            })
            .collect();
        let Some(row) = row else {
            out.push(None);
            continue;
        };
        let s = format_values(format, &row).map_err(|e| {
            let m = match e {
                FormatError::Arg(_, m) | FormatError::Call(m) => m,
            };
            FormatError::Call(format!("error on format iteration {it}: {m}"))
        })?;
        total += s.len();
        if total > MAX_RESULT {
            return Err(FormatError::Call(format!("the result would be longer than {MAX_RESULT} bytes")));
        }
        out.push(Some(s));
    }
    Ok(out)
}

/// cty's string → number conversion (`ParseNumberVal`): a decimal with optional sign,
/// fraction and exponent, or an infinity.
pub fn parse_cty_number(s: &str) -> Option<Decimal> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let ok = !body.is_empty()
        && (body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") || {
            let (mant, exp) = match body.find(['e', 'E']) {
                Some(i) => (&body[..i], Some(&body[i + 1..])),
                None => (body, None),
            };
            let digits = mant.bytes().filter(u8::is_ascii_digit).count();
            mant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && mant.bytes().filter(|&b| b == b'.').count() <= 1
                && digits > 0
                && exp.is_none_or(|e| {
                    let e = e.strip_prefix(['+', '-']).unwrap_or(e);
                    !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
                })
        });
    if ok {
        Decimal::parse(s)
    } else {
        None
    }
}

/// Go's `encoding/json` for a string (as cty's JSON marshalling does): HTML-sensitive
/// characters and U+2028/U+2029 escaped.
pub fn go_json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
