//! The text side of `format` and `formatlist`: cty's verb scanner (its Ragel machine in
//! `format_fsm.rl`, error texts included) and Go's `fmt` for the arbitrary-precision numbers
//! cty hands it (`*big.Float` for `%e %E %f %g %G`, `*big.Int` for `%b %d %o %x %X`), written
//! over exact decimal digits. Values and conversions are the caller's (`string.rs`).

use unicode_segmentation::UnicodeSegmentation;

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
pub fn scan<'a>(
    format: &'a str,
    mut emit: impl FnMut(Piece<'a>) -> Result<(), String>,
) -> Result<usize, String> {
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

/// Go's `%q` for a rune: `'x'`, with Go's escapes.
pub fn go_quote_rune(r: char) -> String {
    match r {
        '\'' => "'\\''".to_string(),
        '\\' => "'\\\\'".to_string(),
        '\n' => "'\\n'".to_string(),
        '\t' => "'\\t'".to_string(),
        '\r' => "'\\r'".to_string(),
        '\x07' => "'\\a'".to_string(),
        '\x08' => "'\\b'".to_string(),
        '\x0C' => "'\\f'".to_string(),
        '\x0B' => "'\\v'".to_string(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("'\\x{:02x}'", c as u32),
        c => format!("'{c}'"),
    }
}

/// Go's `%q` for a string (`strconv.Quote`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '\x0B' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) >= 0x80 && !is_go_printable(c) => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint` for non-ASCII: controls, unassigned
/// surrogates and format characters are not printable.
fn is_go_printable(c: char) -> bool {
    !(c.is_control()
        || matches!(c as u32, 0x00AD | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB))
}

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

/// An exact decimal: `0.d1d2d3... × 10^exp`, digits without leading or trailing zeros
/// (empty for zero), like Go's `big.decimal`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    pub neg: bool,
    pub inf: bool,
    pub digits: Vec<u8>,
    pub exp: i64,
}

impl Decimal {
    /// Parses a plain or exponent decimal (`-12.5`, `1e+21`, `+Inf`).
    pub fn parse(s: &str) -> Option<Decimal> {
        let (neg, body) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
            return Some(Decimal { neg, inf: true, digits: vec![], exp: 0 });
        }
        let (mant, e) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
            None => (body, 0),
        };
        let (int, frac) = match mant.find('.') {
            Some(i) => (&mant[..i], &mant[i + 1..]),
            None => (mant, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let mut digits = Vec::with_capacity(int.len() + frac.len());
        for c in int.bytes().chain(frac.bytes()) {
            if !c.is_ascii_digit() {
                return None;
            }
            digits.push(c - b'0');
        }
        let mut exp = int.len() as i64 + e;
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..lead);
        exp -= lead as i64;
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            exp = 0;
        }
        Some(Decimal { neg, inf: false, digits, exp })
    }

    /// Plain decimal text without exponent (Go's `Text('f', -1)`, how cty turns a number
    /// into a string).
    pub fn to_plain(&self) -> String {
        if self.inf {
            return if self.neg { "-Inf" } else { "+Inf" }.to_string();
        }
        let frac = (self.digits.len() as i64 - self.exp).max(0) as usize;
        let body = self.fmt_f(frac);
        if self.neg && !self.is_zero() {
            format!("-{body}")
        } else {
            body
        }
    }

    pub fn is_zero(&self) -> bool {
        !self.inf && self.digits.is_empty()
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        !self.inf && (self.digits.is_empty() || self.exp >= self.digits.len() as i64)
    }

    /// Rounds to `n` significant digits, half to even (Go's `decimal.round`), and trims.
    fn round_sig(&mut self, n: i64) {
        if n < 0 || n as usize >= self.digits.len() {
            return;
        }
        let n = n as usize;
        let up = match self.digits[n].cmp(&5) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                if self.digits[n + 1..].iter().any(|&d| d != 0) {
                    true
                } else {
                    n > 0 && self.digits[n - 1] % 2 == 1
                }
            }
        };
        self.digits.truncate(n);
        if up {
            let mut i = n;
            loop {
                if i == 0 {
                    self.digits.insert(0, 1);
                    self.exp += 1;
                    break;
                }
                i -= 1;
                if self.digits[i] == 9 {
                    self.digits[i] = 0;
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }

    fn digit(&self, i: i64) -> u8 {
        if i < 0 {
            b'0'
        } else {
            self.digits.get(i as usize).map_or(b'0', |d| b'0' + d)
        }
    }

    /// Go's `%e` body (no sign) with `prec` digits after the point.
    fn fmt_e(&self, upper: bool, prec: usize) -> String {
        let mut s = String::new();
        s.push(if self.digits.is_empty() { '0' } else { self.digit(0) as char });
        if prec > 0 {
            s.push('.');
            for i in 1..=prec as i64 {
                s.push(self.digit(i) as char);
            }
        }
        s.push(if upper { 'E' } else { 'e' });
        let exp = if self.digits.is_empty() { 0 } else { self.exp - 1 };
        s.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            s.push('0');
        }
        s.push_str(&a.to_string());
        s
    }

    /// Go's `%f` body (no sign) with `prec` digits after the point.
    fn fmt_f(&self, prec: usize) -> String {
        let mut s = String::new();
        if self.exp > 0 {
            for i in 0..self.exp {
                s.push(self.digit(i) as char);
            }
        } else {
            s.push('0');
        }
        if prec > 0 {
            s.push('.');
            for i in 0..prec as i64 {
                s.push(self.digit(self.exp + i) as char);
            }
        }
        s
    }
}

/// Go's `big.Float.Format` for verbs `e E f g G` (cty passes the verb text through to
/// `fmt.Sprintf`, minus any `[n]`): flags `+ - space 0`, width and precision.
pub fn format_float(v: &Verb, x: &Decimal) -> String {
    let mode = v.mode;
    let mut d = x.clone();
    let body = if d.inf {
        "Inf".to_string()
    } else {
        let shortest = v.prec.is_none();
        match mode {
            'e' | 'E' => {
                let p = v.prec.unwrap_or(6);
                d.round_sig(1 + p as i64);
                d.fmt_e(mode == 'E', p)
            }
            'f' => {
                let p = v.prec.unwrap_or(6);
                d.round_sig(d.exp + p as i64);
                d.fmt_f(p)
            }
            _ => {
                // g, G
                let mut prec = match v.prec {
                    None => d.digits.len() as i64,
                    Some(0) => 1,
                    Some(p) => p as i64,
                };
                if !shortest {
                    d.round_sig(prec);
                }
                let len = d.digits.len() as i64;
                let mut eprec = prec;
                if eprec > len && len >= d.exp {
                    eprec = len;
                }
                if shortest {
                    eprec = 6;
                }
                let exp = d.exp - 1;
                if d.digits.is_empty() || !(exp < -4 || exp >= eprec) {
                    if prec > d.exp {
                        prec = len;
                    }
                    d.fmt_f((prec - d.exp).max(0) as usize)
                } else {
                    if prec > len {
                        prec = len;
                    }
                    d.fmt_e(mode == 'G', (prec - 1).max(0) as usize)
                }
            }
        }
    };
    let sign = if x.neg {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    // big.Float's Format pads with zeros when asked even if '-' is given too (unlike
    // big.Int's, where '-' wins).
    if v.zero && !x.inf {
        let width = v.width.unwrap_or(0);
        let len = sign.len() + body.len();
        if len < width {
            return format!("{sign}{}{body}", "0".repeat(width - len));
        }
    }
    pad_number(v, sign, "", &body, false)
}

/// Go's `big.Int.Format` for `b d o x X` (flags `# + - space 0`, width, precision).
pub fn format_int(v: &Verb, x: &Decimal) -> String {
    let digits = int_digits(x, match v.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    });
    let mut digits = if v.mode == 'X' { digits.to_ascii_uppercase() } else { digits };
    let prefix = if v.sharp {
        match v.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let sign = if x.neg && !x.is_zero() {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    // Precision: minimum digits; a zero value with precision 0 prints nothing at all (no
    // sign, no padding: big.Int's Format returns early).
    if let Some(p) = v.prec {
        if x.is_zero() && p == 0 {
            return String::new();
        } else if digits.len() < p {
            digits = "0".repeat(p - digits.len()) + &digits;
        }
        return pad_number(v, sign, prefix, &digits, false);
    }
    pad_number(v, sign, prefix, &digits, v.zero)
}

fn pad_number(v: &Verb, sign: &str, prefix: &str, body: &str, zero: bool) -> String {
    let len = sign.len() + prefix.len() + body.len();
    let width = v.width.unwrap_or(0);
    if len >= width {
        return format!("{sign}{prefix}{body}");
    }
    let pad = width - len;
    if v.minus {
        format!("{sign}{prefix}{body}{}", " ".repeat(pad))
    } else if zero {
        format!("{sign}{prefix}{}{body}", "0".repeat(pad))
    } else {
        format!("{}{sign}{prefix}{body}", " ".repeat(pad))
    }
}

/// The magnitude of an integer decimal in `base`, lowercase.
fn int_digits(x: &Decimal, base: u32) -> String {
    if x.digits.is_empty() {
        return "0".to_string();
    }
    // Decimal digits of the integer, most significant first.
    let mut dec: Vec<u8> = (0..x.exp).map(|i| x.digit(i) - b'0').collect();
    if base == 10 {
        return dec.iter().map(|d| (b'0' + d) as char).collect();
    }
    let mut out = Vec::new();
    while !dec.is_empty() {
        let mut rem = 0u32;
        let mut next = Vec::with_capacity(dec.len());
        for &d in &dec {
            let cur = rem * 10 + d as u32;
            let q = cur / base;
            rem = cur % base;
            if !(next.is_empty() && q == 0) {
                next.push(q as u8);
            }
        }
        out.push(std::char::from_digit(rem, base).unwrap());
        dec = next;
    }
    out.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verb(f: &str) -> Verb {
        let mut got = None;
        scan(f, |p| {
            if let Piece::Verb(v) = p {
                got = Some(v);
            }
            Ok(())
        })
        .unwrap();
        got.unwrap()
    }
    fn ff(f: &str, n: &str) -> String {
        format_float(&verb(f), &Decimal::parse(n).unwrap())
    }
    fn fi(f: &str, n: &str) -> String {
        format_int(&verb(f), &Decimal::parse(n).unwrap())
    }

    #[test]
    fn floats_as_go_prints_them() {
        assert_eq!(ff("%5.2f", "3.14159"), " 3.14");
        assert_eq!(ff("%e", "1234.5678"), "1.234568e+03");
        assert_eq!(ff("%E", "1234.5678"), "1.234568E+03");
        assert_eq!(ff("%g", "1234.5678"), "1234.5678");
        assert_eq!(ff("%G", "0.000012345"), "1.2345E-05");
        assert_eq!(ff("%f", "0.1"), "0.100000");
        assert_eq!(ff("%.0f", "0.5"), "0");
        assert_eq!(ff("%.0f", "1.5"), "2");
        assert_eq!(ff("%.0f", "2.5"), "2");
        assert_eq!(ff("%g", "100000000"), "1e+08");
        assert_eq!(ff("%g", "1e21"), "1e+21");
        assert_eq!(ff("%.2f", "1e100"), format!("1{}.00", "0".repeat(100)));
        assert_eq!(ff("%+08.3f", "-3.14159"), "-003.142");
        assert_eq!(ff("%f", "0"), "0.000000");
        assert_eq!(ff("%g", "0"), "0");
        assert_eq!(ff("%.3g", "1234.5678"), "1.23e+03");
        assert_eq!(ff("%-8.1f", "2.25"), "2.2     ");
    }

    #[test]
    fn ints_as_go_prints_them() {
        assert_eq!(fi("%x", "255"), "ff");
        assert_eq!(fi("%X", "255"), "FF");
        assert_eq!(fi("%o", "8"), "10");
        assert_eq!(fi("%b", "5"), "101");
        assert_eq!(fi("%#x", "255"), "0xff");
        assert_eq!(fi("%#o", "8"), "010");
        assert_eq!(fi("%x", "-255"), "-ff");
        assert_eq!(fi("%+d", "5"), "+5");
        assert_eq!(fi("% d", "5"), " 5");
        assert_eq!(fi("%05d", "5"), "00005");
        assert_eq!(fi("%-4d", "7"), "7   ");
        assert_eq!(fi("%d", "12345678901234567890123"), "12345678901234567890123");
        assert_eq!(fi("%x", "18446744073709551616"), "10000000000000000");
    }

    #[test]
    fn scanner_errors() {
        let e = |f: &str| scan(f, |_| Ok(())).unwrap_err();
        assert_eq!(e("%"), "invalid format string starting at offset 1");
        assert_eq!(e("%5"), "invalid format string starting at offset 2");
        assert_eq!(e("%*d"), "unrecognized format character '*' at offset 1");
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

/// A `formatlist` argument: a list, set or tuple is iterated, anything else repeats.
#[derive(Debug, Clone)]
pub enum ListArg {
    Single(Arg),
    Seq(Vec<Arg>),
}

/// cty's `formatlist` over already-converted arguments (wholly known ones; the caller turns
/// unknown ones into unknown results first).
pub fn formatlist_values(format: &str, args: &[ListArg]) -> Result<Vec<String>, FormatError> {
    if args.is_empty() {
        return format_values(format, &[]).map(|s| vec![s]);
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
        let row: Vec<Arg> = args
            .iter()
            .map(|a| match a {
                ListArg::Single(v) => v.clone(),
                ListArg::Seq(v) => v[it].clone(),
            })
            .collect();
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
        out.push(s);
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
