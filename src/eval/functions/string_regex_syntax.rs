//! Go's RE2 pattern syntax, rewritten for the `regex` crates' parser (used by
//! `string_regex_go.rs`).
//!
//! Terraform's `regex`, `regexall` and `replace` compile patterns with Go's `regexp`. The
//! `regex` crates implement the same RE2 family (linear time, no backreferences, no
//! look-around, leftmost-first semantics, the same handling of empty matches after a match),
//! but spells a few things differently. [`translate`] rewrites a Go pattern into an equivalent
//! Rust pattern and reports Go's own syntax errors (`regexp/syntax.Error`: a code and the
//! offending text) for what Go rejects:
//!
//! - Go's Perl classes `\d \w \s` and `\b \B` are ASCII-only; Rust's are Unicode. They become
//!   explicit ASCII classes and `(?-u:\b)`.
//! - `\Q...\E` quotes literal text (Rust has no such syntax): each character is escaped.
//! - In a character class Go treats `[` (outside `[:name:]`), `&&`, `--` and `~~` literally;
//!   Rust reads nested classes and set operations there, so those are escaped.
//! - Escapes Go accepts as literals (any ASCII punctuation) are re-spelled for Rust, where
//!   `\<` and `\>` are word-boundary assertions.
//! - Octal escapes (`\0`, `\12`, `\123`) become `\x{..}`.
//! - Go limits repetition counts to 1000 and rejects nested repetition (`a**`), flags other
//!   than `imsU`, `\1` (backreferences), `\Z`, and look-around (`(?=`).
//! - The `i` flag is not passed on: under it each literal becomes the class of its case orbit
//!   and each class is folded explicitly (`string_regex_fold.rs` says why).

/// A Go `regexp/syntax` error: `code` is Go's `ErrorCode` text, `expr` the offending text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoRegexError {
    pub code: &'static str,
    pub expr: String,
}

pub(super) const MISSING_PAREN: &str = "missing closing )";
pub(super) const UNEXPECTED_PAREN: &str = "unexpected )";
pub(super) const MISSING_BRACKET: &str = "missing closing ]";
pub(super) const INVALID_ESCAPE: &str = "invalid escape sequence";
pub(super) const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
pub(super) const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
pub(super) const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
pub(super) const MISSING_REPEAT_ARG: &str = "missing argument to repetition operator";
pub(super) const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
pub(super) const INVALID_CHAR_RANGE: &str = "invalid character class range";
pub(super) const NESTING_DEPTH: &str = "expression nests too deeply";

/// Go's maximum nesting depth (regexp/syntax maxHeight).
pub(super) const MAX_DEPTH: usize = 1000;

use super::string_regex_fold::{folded_char, folded_class};

pub(super) fn err(code: &'static str, expr: impl Into<String>) -> GoRegexError {
    GoRegexError { code, expr: expr.into() }
}

/// What the previous item was, for repetition checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of the pattern, after `(` or `|`: a repetition operator has no argument.
    Nothing,
    /// An atom that can be repeated.
    Atom,
    /// A repetition operator; holds the byte offset where it started in the Go pattern.
    Repeat(usize),
    /// A repetition operator already made non-greedy by `?`.
    LazyRepeat(usize),
}

/// A translated pattern: Rust pattern text, and each capture group's Go name (`None` for an
/// unnamed group), in group order. Named groups are emitted unnamed (Go allows a name twice;
/// Rust does not), so names live here.
pub struct Translated {
    pub pattern: String,
    pub names: Vec<Option<String>>,
}

/// Rewrites a Go RE2 pattern as a `regex` crate pattern, or returns Go's syntax error.
#[allow(dead_code)] // tests/eval_functions_layers.rs checks the translation through it
pub fn translate(pat: &str) -> Result<String, GoRegexError> {
    translate_with_names(pat).map(|t| t.pattern)
}

/// [`translate`], keeping the capture groups' names.
pub fn translate_with_names(pat: &str) -> Result<Translated, GoRegexError> {
    let mut names = Vec::new();
    let chars: Vec<(usize, char)> = pat.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|c| c.1);
    let off = |i: usize| chars.get(i).map_or(pat.len(), |c| c.0);
    let mut out = String::with_capacity(pat.len() + 8);
    let mut depth = 0usize;
    let mut prev = Prev::Nothing;
    // Whether `(?i)` is in effect, and its state outside each open group.
    let mut fold = false;
    let mut outer_fold = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let start = i;
        match c {
            '\\' => {
                let (text, next) = escape_outside(&chars, i, pat, fold)?;
                out.push_str(&text);
                // `\b`-like assertions are atoms in Go's parser too (repeatable, pointlessly).
                prev = Prev::Atom;
                i = next;
                continue;
            }
            '[' => {
                let next = class(&chars, i, pat, &mut out, fold)?;
                prev = Prev::Atom;
                i = next;
                continue;
            }
            '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(err(NESTING_DEPTH, pat));
                }
                outer_fold.push(fold);
                if at(i + 1) == Some('?') {
                    i = group_flags(&chars, i, pat, &mut out, &mut depth, &mut names, &mut fold)?;
                    if outer_fold.len() > depth {
                        // `(?i)` opened no group: it changed the enclosing one's flags.
                        outer_fold.pop();
                    }
                } else {
                    out.push('(');
                    names.push(None);
                    i += 1;
                }
                prev = Prev::Nothing;
                continue;
            }
            ')' => {
                if depth == 0 {
                    return Err(err(UNEXPECTED_PAREN, pat));
                }
                depth -= 1;
                fold = outer_fold.pop().unwrap_or(false);
                out.push(')');
                prev = Prev::Atom;
            }
            '|' => {
                out.push('|');
                prev = Prev::Nothing;
            }
            '*' | '+' | '?' => {
                match prev {
                    Prev::Nothing => return Err(err(MISSING_REPEAT_ARG, c.to_string())),
                    Prev::Repeat(p) if c == '?' => {
                        prev = Prev::LazyRepeat(p);
                        out.push('?');
                        i += 1;
                        continue;
                    }
                    Prev::Repeat(p) | Prev::LazyRepeat(p) => {
                        return Err(err(INVALID_REPEAT_OP, &pat[p..off(i + 1)]));
                    }
                    Prev::Atom => {}
                }
                out.push(c);
                prev = Prev::Repeat(off(start));
            }
            '{' => {
                if let Some((min, max, end)) = repeat_braces(&chars, i) {
                    let text = &pat[off(i)..off(end)];
                    match prev {
                        Prev::Nothing => return Err(err(MISSING_REPEAT_ARG, text)),
                        Prev::Repeat(p) | Prev::LazyRepeat(p) => {
                            return Err(err(INVALID_REPEAT_OP, &pat[p..off(end)]));
                        }
                        Prev::Atom => {}
                    }
                    if min > 1000 || max.is_some_and(|m| m > 1000 || m < min) {
                        return Err(err(INVALID_REPEAT_SIZE, text));
                    }
                    out.push_str(text);
                    prev = Prev::Repeat(off(start));
                    i = end;
                    continue;
                }
                // Not a repetition: a literal brace in Go.
                out.push_str("\\{");
                prev = Prev::Atom;
            }
            '}' | ']' => {
                out.push('\\');
                out.push(c);
                prev = Prev::Atom;
            }
            // Rust's verbose-mode `#` and set-operator characters are literals in Go.
            '#' | '&' | '~' | '-' => {
                out.push('\\');
                out.push(c);
                prev = Prev::Atom;
            }
            _ => {
                match fold.then(|| folded_char(c)).flatten() {
                    Some(orbit) => out.push_str(&orbit),
                    None => out.push(c),
                }
                prev = Prev::Atom;
            }
        }
        i += 1;
    }
    if depth > 0 {
        return Err(err(MISSING_PAREN, pat));
    }
    Ok(Translated { pattern: out, names })
}

/// `{n}`, `{n,}` or `{n,m}` starting at `i`: (min, max, index after `}`). Go reads anything
/// else (`{`, `{a}`, `{,3}`) as literal text.
fn repeat_braces(chars: &[(usize, char)], i: usize) -> Option<(u32, Option<u32>, usize)> {
    let mut j = i + 1;
    let num = |j: &mut usize| -> Option<u32> {
        let s = *j;
        let mut v: u32 = 0;
        while let Some(&(_, d)) = chars.get(*j) {
            let Some(dv) = d.to_digit(10) else { break };
            // Go caps at 1e8 while parsing; anything over 1000 is an error anyway.
            v = v.saturating_mul(10).saturating_add(dv).min(100_000_000);
            *j += 1;
        }
        (*j > s).then_some(v)
    };
    let min = num(&mut j)?;
    let max = match chars.get(j)?.1 {
        '}' => Some(min),
        ',' => {
            j += 1;
            if chars.get(j)?.1 == '}' {
                None
            } else {
                Some(num(&mut j)?)
            }
        }
        _ => return None,
    };
    if chars.get(j)?.1 != '}' {
        return None;
    }
    Some((min, max, j + 1))
}

/// `(?` at `i`: flags `(?i)`, `(?i:...)`, named groups `(?P<n>...)` / `(?<n>...)`. The flags
/// are written without `i`, whose state goes to `fold`.
fn group_flags(
    chars: &[(usize, char)],
    i: usize,
    pat: &str,
    out: &mut String,
    depth: &mut usize,
    names: &mut Vec<Option<String>>,
    fold: &mut bool,
) -> Result<usize, GoRegexError> {
    let off = |k: usize| chars.get(k).map_or(pat.len(), |c| c.0);
    let at = |k: usize| chars.get(k).map(|c| c.1);
    // Named capture.
    let name_start = match (at(i + 2), at(i + 3)) {
        (Some('P'), Some('<')) => Some(i + 4),
        (Some('<'), _) => Some(i + 3),
        _ => None,
    };
    if let Some(ns) = name_start {
        let Some(close) = (ns..chars.len()).find(|&k| chars[k].1 == '>') else {
            return Err(err(INVALID_NAMED_CAPTURE, &pat[off(i)..]));
        };
        let name = &pat[off(ns)..off(close)];
        if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
            return Err(err(INVALID_NAMED_CAPTURE, &pat[off(i)..off(close + 1)]));
        }
        out.push('(');
        names.push(Some(name.to_string()));
        return Ok(close + 1);
    }
    // Flags: [imsU]*(-[imsU]*)? followed by `)` or `:`.
    let mut k = i + 2;
    let mut seen_minus = false;
    let mut flag_after_minus = false;
    loop {
        match at(k) {
            Some('i' | 'm' | 's' | 'U') => flag_after_minus = true,
            Some('-') if !seen_minus => {
                seen_minus = true;
                flag_after_minus = false;
            }
            Some(':') | Some(')') => {
                // Go rejects a `-` with no flag after it: `(?-)`, `(?i-:`.
                if seen_minus && !flag_after_minus {
                    break;
                }
                let close = at(k) == Some(')');
                let flags = &pat[off(i + 2)..off(k)];
                let (on, off_flags) = flags.split_once('-').unwrap_or((flags, ""));
                if on.contains('i') {
                    *fold = true;
                }
                if off_flags.contains('i') {
                    *fold = false;
                }
                let (on, off_flags) = (on.replace('i', ""), off_flags.replace('i', ""));
                let kept = if off_flags.is_empty() { on } else { format!("{on}-{off_flags}") };
                if close {
                    // `(?i)` opens no group.
                    *depth -= 1;
                    if !kept.is_empty() {
                        out.push_str(&format!("(?{kept})"));
                    }
                } else {
                    out.push_str(&format!("(?{kept}:"));
                }
                return Ok(k + 1);
            }
            _ => break,
        }
        k += 1;
    }
    Err(err(INVALID_PERL_OP, &pat[off(i)..off(k + 1).min(pat.len())]))
}

/// Whether Go's `\p{...}` knows the name: `Any`, a general category, or a script of Go's
/// Unicode 15 tables, spelled exactly (Rust's matching is looser: `greek` works there).
fn go_unicode_class(name: &str) -> bool {
    const CATEGORIES: &[&str] = &[
        "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs",
    ];
    const SCRIPTS: &[&str] = &[
        "Adlam",
        "Ahom",
        "Anatolian_Hieroglyphs",
        "Arabic",
        "Armenian",
        "Avestan",
        "Balinese",
        "Bamum",
        "Bassa_Vah",
        "Batak",
        "Bengali",
        "Bhaiksuki",
        "Bopomofo",
        "Brahmi",
        "Braille",
        "Buginese",
        "Buhid",
        "Canadian_Aboriginal",
        "Carian",
        "Caucasian_Albanian",
        "Chakma",
        "Cham",
        "Cherokee",
        "Chorasmian",
        "Common",
        "Coptic",
        "Cuneiform",
        "Cypriot",
        "Cypro_Minoan",
        "Cyrillic",
        "Deseret",
        "Devanagari",
        "Dives_Akuru",
        "Dogra",
        "Duployan",
        "Egyptian_Hieroglyphs",
        "Elbasan",
        "Elymaic",
        "Ethiopic",
        "Georgian",
        "Glagolitic",
        "Gothic",
        "Grantha",
        "Greek",
        "Gujarati",
        "Gunjala_Gondi",
        "Gurmukhi",
        "Han",
        "Hangul",
        "Hanifi_Rohingya",
        "Hanunoo",
        "Hatran",
        "Hebrew",
        "Hiragana",
        "Imperial_Aramaic",
        "Inherited",
        "Inscriptional_Pahlavi",
        "Inscriptional_Parthian",
        "Javanese",
        "Kaithi",
        "Kannada",
        "Katakana",
        "Kawi",
        "Kayah_Li",
        "Kharoshthi",
        "Khitan_Small_Script",
        "Khmer",
        "Khojki",
        "Khudawadi",
        "Lao",
        "Latin",
        "Lepcha",
        "Limbu",
        "Linear_A",
        "Linear_B",
        "Lisu",
        "Lycian",
        "Lydian",
        "Mahajani",
        "Makasar",
        "Malayalam",
        "Mandaic",
        "Manichaean",
        "Marchen",
        "Masaram_Gondi",
        "Medefaidrin",
        "Meetei_Mayek",
        "Mende_Kikakui",
        "Meroitic_Cursive",
        "Meroitic_Hieroglyphs",
        "Miao",
        "Modi",
        "Mongolian",
        "Mro",
        "Multani",
        "Myanmar",
        "Nabataean",
        "Nag_Mundari",
        "Nandinagari",
        "New_Tai_Lue",
        "Newa",
        "Nko",
        "Nushu",
        "Nyiakeng_Puachue_Hmong",
        "Ogham",
        "Ol_Chiki",
        "Old_Hungarian",
        "Old_Italic",
        "Old_North_Arabian",
        "Old_Permic",
        "Old_Persian",
        "Old_Sogdian",
        "Old_South_Arabian",
        "Old_Turkic",
        "Old_Uyghur",
        "Oriya",
        "Osage",
        "Osmanya",
        "Pahawh_Hmong",
        "Palmyrene",
        "Pau_Cin_Hau",
        "Phags_Pa",
        "Phoenician",
        "Psalter_Pahlavi",
        "Rejang",
        "Runic",
        "Samaritan",
        "Saurashtra",
        "Sharada",
        "Shavian",
        "Siddham",
        "SignWriting",
        "Sinhala",
        "Sogdian",
        "Sora_Sompeng",
        "Soyombo",
        "Sundanese",
        "Syloti_Nagri",
        "Syriac",
        "Tagalog",
        "Tagbanwa",
        "Tai_Le",
        "Tai_Tham",
        "Tai_Viet",
        "Takri",
        "Tamil",
        "Tangsa",
        "Tangut",
        "Telugu",
        "Thaana",
        "Thai",
        "Tibetan",
        "Tifinagh",
        "Tirhuta",
        "Toto",
        "Ugaritic",
        "Vai",
        "Vithkuqi",
        "Wancho",
        "Warang_Citi",
        "Yezidi",
        "Yi",
        "Zanabazar_Square",
    ];
    name == "Any" || CATEGORIES.contains(&name) || SCRIPTS.contains(&name)
}

/// Go's ASCII Perl classes, as Rust class bodies.
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    match c {
        'd' => Some(("0-9", false)),
        'D' => Some(("0-9", true)),
        's' => Some(("\\t\\n\\x0C\\r ", false)),
        'S' => Some(("\\t\\n\\x0C\\r ", true)),
        'w' => Some(("0-9A-Za-z_", false)),
        'W' => Some(("0-9A-Za-z_", true)),
        _ => None,
    }
}

/// A single character as Rust pattern text, escaped if Rust gives it a meaning.
fn push_literal(out: &mut String, c: char) {
    if regex_meta(c) {
        out.push('\\');
    }
    out.push(c);
}

fn regex_meta(c: char) -> bool {
    matches!(
        c,
        '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$' | '#' | '&' | '-' | '~'
    )
}

/// What an escape means, shared between classes and the outside.
enum Escape {
    /// A single character (a literal, a control escape, hex or octal).
    Char(char),
    /// A Perl class letter (`d`, `W`, ...).
    Perl(char),
    /// `\p...`/`\P...`: the class name (without `^`) and whether it is negated
    /// (`string_regex_unicode.rs`).
    Unicode(String, bool),
    /// `\A`, `\z`, `\b`, `\B`.
    Assertion(char),
    /// `\Q...\E`: the quoted text.
    Quote(String),
}

/// Reads the escape at `i` (a backslash); returns it and the index after it.
fn read_escape(chars: &[(usize, char)], i: usize, pat: &str) -> Result<(Escape, usize), GoRegexError> {
    let off = |k: usize| chars.get(k).map_or(pat.len(), |c| c.0);
    let at = |k: usize| chars.get(k).map(|c| c.1);
    let Some(c) = at(i + 1) else {
        // Go: trailing backslash.
        return Err(err("trailing backslash at end of expression", ""));
    };
    let bad = |end: usize| Err(err(INVALID_ESCAPE, &pat[off(i)..off(end)]));
    Ok(match c {
        '1'..='7' if !at(i + 2).is_some_and(|d| d.is_ascii_digit()) => return bad(i + 2),
        '0'..='7' => {
            // Up to three octal digits in all.
            let mut v = 0u32;
            let mut k = i + 1;
            while k < i + 4 && at(k).is_some_and(|d| ('0'..='7').contains(&d)) {
                v = v * 8 + at(k).unwrap().to_digit(8).unwrap();
                k += 1;
            }
            (Escape::Char(char::from_u32(v).unwrap_or('\0')), k)
        }
        'x' => match at(i + 2) {
            Some('{') => {
                let Some(close) = (i + 3..chars.len()).find(|&k| chars[k].1 == '}') else {
                    return bad(chars.len());
                };
                let hex = &pat[off(i + 3)..off(close)];
                match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) if !hex.is_empty() && hex.len() <= 8 => (Escape::Char(ch), close + 1),
                    _ => return bad(close + 1),
                }
            }
            Some(h1) if h1.is_ascii_hexdigit() => match at(i + 3) {
                Some(h2) if h2.is_ascii_hexdigit() => {
                    let v = h1.to_digit(16).unwrap() * 16 + h2.to_digit(16).unwrap();
                    (Escape::Char(char::from_u32(v).unwrap()), i + 4)
                }
                _ => return bad((i + 4).min(chars.len())),
            },
            _ => return bad((i + 3).min(chars.len())),
        },
        'a' => (Escape::Char('\x07'), i + 2),
        'f' => (Escape::Char('\x0C'), i + 2),
        't' => (Escape::Char('\t'), i + 2),
        'n' => (Escape::Char('\n'), i + 2),
        'r' => (Escape::Char('\r'), i + 2),
        'v' => (Escape::Char('\x0B'), i + 2),
        'A' | 'z' | 'b' | 'B' => (Escape::Assertion(c), i + 2),
        'd' | 'D' | 's' | 'S' | 'w' | 'W' => (Escape::Perl(c), i + 2),
        'p' | 'P' => {
            let (name, end) = match at(i + 2) {
                Some('{') => match (i + 3..chars.len()).find(|&k| chars[k].1 == '}') {
                    Some(close) => (&pat[off(i + 3)..off(close)], close + 1),
                    None => return Err(err(INVALID_CHAR_RANGE, &pat[off(i)..])),
                },
                Some(_) => (&pat[off(i + 2)..off(i + 3)], i + 3),
                None => return Err(err(INVALID_CHAR_RANGE, &pat[off(i)..])),
            };
            let text = &pat[off(i)..off(end)];
            let bare = name.strip_prefix('^').unwrap_or(name);
            if !go_unicode_class(bare) {
                return Err(err(INVALID_CHAR_RANGE, text));
            }
            let negated = (c == 'P') != (bare.len() < name.len());
            (Escape::Unicode(bare.to_string(), negated), end)
        }
        'Q' => {
            let body_start = off(i + 2);
            match pat[body_start..].find("\\E") {
                Some(p) => {
                    let end_byte = body_start + p + 2;
                    let end = chars.iter().position(|c| c.0 == end_byte).unwrap_or(chars.len());
                    (Escape::Quote(pat[body_start..body_start + p].to_string()), end)
                }
                None => (Escape::Quote(pat[body_start..].to_string()), chars.len()),
            }
        }
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => (Escape::Char(c), i + 2),
        _ => return bad(i + 2),
    })
}

fn escape_outside(chars: &[(usize, char)], i: usize, pat: &str, fold: bool) -> Result<(String, usize), GoRegexError> {
    let (esc, next) = read_escape(chars, i, pat)?;
    let mut out = String::new();
    // Under `(?i)`: a literal's orbit, a class folded before it is negated.
    let orbit = |c: char| fold.then(|| folded_char(c)).flatten();
    let folded = |positive: &str, negated: bool| fold.then(|| folded_class(positive, negated)).flatten();
    match esc {
        Escape::Char(c) => match orbit(c) {
            Some(o) => out.push_str(&o),
            None => push_char_escaped(&mut out, c),
        },
        Escape::Perl(c) => {
            let (body, neg) = perl_class(c).unwrap();
            match folded(&format!("[{body}]"), neg) {
                Some(f) => out.push_str(&f),
                None => {
                    out.push('[');
                    if neg {
                        out.push('^');
                    }
                    out.push_str(body);
                    out.push(']');
                }
            }
        }
        Escape::Unicode(name, negated) => match folded(&unicode_class(&name, false), negated) {
            Some(f) => out.push_str(&f),
            None => out.push_str(&unicode_class(&name, negated)),
        },
        Escape::Assertion('A') => out.push_str("\\A"),
        Escape::Assertion('z') => out.push_str("\\z"),
        Escape::Assertion(c) => {
            out.push_str("(?-u:\\");
            out.push(c);
            out.push(')');
        }
        Escape::Quote(s) => {
            // Go quotes as a group of literals; keep it one atom for a following repetition.
            let lit = |out: &mut String, c: char| match orbit(c) {
                Some(o) => out.push_str(&o),
                None => push_literal(out, c),
            };
            if s.chars().count() == 1 {
                lit(&mut out, s.chars().next().unwrap());
            } else {
                out.push_str("(?:");
                for c in s.chars() {
                    lit(&mut out, c);
                }
                out.push(')');
            }
        }
    }
    Ok((out, next))
}

/// Characters as escapes Rust reads the same way (controls spelled in hex).
fn push_char_escaped(out: &mut String, c: char) {
    if c.is_control() || c == ' ' {
        out.push_str(&format!("\\x{{{:X}}}", c as u32));
    } else {
        push_literal(out, c);
    }
}

/// A character class starting at `i` (`[`); writes the Rust class, returns the index after `]`.
/// Under `(?i)` (`fold`) the class is written folded: its negated members folded before
/// they are negated, then the whole folded before it is (as Go's parser and regex-syntax do).
fn class(chars: &[(usize, char)], i: usize, pat: &str, out: &mut String, fold: bool) -> Result<usize, GoRegexError> {
    let whole = out;
    // The class's members, between `[` (or `[^`) and `]`.
    let out = &mut String::new();
    let folded = |positive: &str| fold.then(|| folded_class(positive, true)).flatten();
    let off = |k: usize| chars.get(k).map_or(pat.len(), |c| c.0);
    let at = |k: usize| chars.get(k).map(|c| c.1);
    let missing = || err(MISSING_BRACKET, &pat[off(i)..]);
    let mut k = i + 1;
    let negated = at(k) == Some('^');
    if negated {
        k += 1;
    }
    let mut first = true;
    // The last single character read, for ranges: (char, index where it began).
    let mut last: Option<(char, usize)> = None;
    loop {
        let Some(c) = at(k) else { return Err(missing()) };
        if c == ']' && !first {
            let body = format!("[{out}]");
            match fold.then(|| folded_class(&body, negated)).flatten() {
                Some(f) => whole.push_str(&f),
                None => {
                    whole.push('[');
                    if negated {
                        whole.push('^');
                    }
                    whole.push_str(&body[1..]);
                }
            }
            return Ok(k + 1);
        }
        first = false;
        // POSIX class `[:alpha:]` / `[:^alpha:]`.
        if c == '[' && at(k + 1) == Some(':') {
            if let Some(end) = pat[off(k + 2)..].find(":]") {
                let name_end_byte = off(k + 2) + end;
                let text = &pat[off(k)..name_end_byte + 2];
                let name = text[2..text.len() - 2].trim_start_matches('^');
                const NAMES: [&str; 14] = [
                    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
                    "upper", "word", "xdigit",
                ];
                if !NAMES.contains(&name) {
                    return Err(err(INVALID_CHAR_RANGE, text));
                }
                match text.starts_with("[:^").then(|| folded(&format!("[[:{name}:]]"))).flatten() {
                    Some(f) => out.push_str(&f),
                    None => out.push_str(text),
                }
                k = chars.iter().position(|ch| ch.0 == name_end_byte + 2).unwrap_or(chars.len());
                last = None;
                continue;
            }
        }
        // A range `a-b`.
        if c == '-' && last.is_some() && at(k + 1).is_some_and(|n| n != ']') {
            let (lo, lo_at) = last.take().unwrap();
            let (hi, next) = class_char(chars, k + 1, pat)?;
            let Some(hi) = hi else {
                return Err(err(INVALID_CHAR_RANGE, &pat[off(lo_at)..off(next)]));
            };
            if hi < lo {
                return Err(err(INVALID_CHAR_RANGE, &pat[off(lo_at)..off(next)]));
            }
            out.push('-');
            push_class_char(out, hi);
            k = next;
            continue;
        }
        if c == '\\' {
            let (esc, next) = read_escape(chars, k, pat)?;
            match esc {
                Escape::Char(ch) => {
                    push_class_char(out, ch);
                    last = Some((ch, k));
                }
                Escape::Perl(p) => {
                    let (body, neg) = perl_class(p).unwrap();
                    match neg.then(|| folded(&format!("[{body}]"))).flatten() {
                        Some(f) => out.push_str(&f),
                        None if neg => {
                            out.push_str("[^");
                            out.push_str(body);
                            out.push(']');
                        }
                        None => out.push_str(body),
                    }
                    last = None;
                }
                Escape::Unicode(name, neg) => {
                    match neg.then(|| folded(&unicode_class(&name, false))).flatten() {
                        Some(f) => out.push_str(&f),
                        None => out.push_str(&unicode_class(&name, neg)),
                    }
                    last = None;
                }
                Escape::Quote(s) => {
                    for ch in s.chars() {
                        push_class_char(out, ch);
                    }
                    last = s.chars().last().map(|ch| (ch, k));
                }
                Escape::Assertion(_) => {
                    return Err(err(INVALID_ESCAPE, &pat[off(k)..off(next)]));
                }
            }
            k = next;
            continue;
        }
        push_class_char(out, c);
        last = Some((c, k));
        k += 1;
    }
}

/// Go's `\p{name}` (`\P{name}` when `negated`) as a bracketed class.
fn unicode_class(name: &str, negated: bool) -> String {
    super::string_regex_unicode::class_text(name, negated)
}

/// One class member at `k` for the upper end of a range: the character (None if it is a class).
fn class_char(chars: &[(usize, char)], k: usize, pat: &str) -> Result<(Option<char>, usize), GoRegexError> {
    match chars.get(k).map(|c| c.1) {
        Some('\\') => match read_escape(chars, k, pat)? {
            (Escape::Char(c), next) => Ok((Some(c), next)),
            (_, next) => Ok((None, next)),
        },
        Some(c) => Ok((Some(c), k + 1)),
        None => Err(err(MISSING_BRACKET, "")),
    }
}

fn push_class_char(out: &mut String, c: char) {
    if c.is_control() || c == ' ' {
        out.push_str(&format!("\\x{{{:X}}}", c as u32));
    } else if matches!(c, '[' | ']' | '\\' | '^' | '-' | '&' | '~') {
        out.push('\\');
        out.push(c);
    } else {
        out.push(c);
    }
}
