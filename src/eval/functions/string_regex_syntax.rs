//! Go's RE2 pattern syntax, read into regex-syntax's `Hir` (compiled by `string_regex_go.rs`).
//!
//! Terraform's `regex`, `regexall` and `replace` compile patterns with Go's `regexp`. The
//! `regex` crates implement the same RE2 family (linear time, no backreferences, no
//! look-around, leftmost-first semantics, the same handling of empty matches after a match),
//! so a Go pattern is translated into their high-level IR ([`translate`]) and Go's own syntax
//! errors (`regexp/syntax.Error`: a code and the offending text) are reported for what Go
//! rejects. The `Hir` is built directly rather than through pattern text so that
//! regex-syntax's parser stays out of the wasm module (bench/RESULTS.md "size6"). Go's meanings:
//!
//! - Go's Perl classes `\d \w \s` and `\b \B` are ASCII-only.
//! - `\Q...\E` quotes literal text, one literal per character (a repetition after it repeats
//!   the last character, as in Go).
//! - In a character class `[` (outside `[:name:]`), `&&`, `--` and `~~` are literal.
//! - Escapes of ASCII punctuation are literals; octal escapes (`\0`, `\12`, `\123`) too.
//! - Go limits repetition counts to 1000 and rejects nested repetition (`a**`), flags other
//!   than `imsU`, `\1` (backreferences), `\Z`, and look-around (`(?=`).
//! - Flags are applied here: `m` picks the line anchors, `s` the dot, `U` swaps greediness,
//!   and under `i` each literal becomes the class of its case orbit and each class is folded
//!   explicitly (`string_regex_fold.rs` says why).

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

use super::string_regex_fold::fold;
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Dot, Hir, HirKind, Look, Repetition};

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
}

/// A translated pattern: the expression, and each capture group's Go name (`None` for an
/// unnamed group), in group order. Groups are built unnamed (Go allows a name twice;
/// regex-automata does not), so names live here.
pub struct Translated {
    pub hir: Hir,
    pub names: Vec<Option<String>>,
}

/// Reads a Go RE2 pattern into regex-syntax's `Hir`, or returns Go's syntax error.
#[allow(dead_code)] // tests check Go's errors through it
pub fn translate(pat: &str) -> Result<Hir, GoRegexError> {
    translate_with_names(pat).map(|t| t.hir)
}

/// The flags in effect (`(?imsU)`).
#[derive(Clone, Copy, Default)]
struct Flags {
    /// `i`: case folding, applied by the translator.
    fold: bool,
    /// `m`: `^` and `$` at line boundaries.
    multi_line: bool,
    /// `s`: `.` matches `\n`.
    dot_nl: bool,
    /// `U`: repetitions lazy unless followed by `?`.
    ungreedy: bool,
}

/// An open group: its finished alternatives, the branch being read, the flags outside it
/// (restored at its `)`), and its capture index if it captures.
struct Group {
    alternatives: Vec<Hir>,
    branch: Vec<Hir>,
    outer: Flags,
    capture: Option<u32>,
}

impl Group {
    fn new(outer: Flags, capture: Option<u32>) -> Group {
        Group { alternatives: Vec::new(), branch: Vec::new(), outer, capture }
    }

    fn finish(mut self) -> Hir {
        let branch = Hir::concat(std::mem::take(&mut self.branch));
        let hir = if self.alternatives.is_empty() {
            branch
        } else {
            self.alternatives.push(branch);
            Hir::alternation(self.alternatives)
        };
        match self.capture {
            Some(index) => Hir::capture(Capture { index, name: None, sub: Box::new(hir) }),
            None => hir,
        }
    }
}

/// [`translate`], keeping the capture groups' names.
pub fn translate_with_names(pat: &str) -> Result<Translated, GoRegexError> {
    let mut names = Vec::new();
    let chars: Vec<(usize, char)> = pat.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|c| c.1);
    let off = |i: usize| chars.get(i).map_or(pat.len(), |c| c.0);
    let mut flags = Flags::default();
    // The open groups, the whole pattern first.
    let mut stack = vec![Group::new(flags, None)];
    let mut prev = Prev::Nothing;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let start = i;
        let top = stack.last_mut().unwrap();
        match c {
            '\\' => {
                let before = top.branch.len();
                let next = escape_outside(&chars, i, pat, flags.fold, &mut top.branch)?;
                // `\b`-like assertions are atoms in Go's parser too (repeatable, pointlessly).
                // An empty `\Q\E` adds nothing: a repetition after it repeats what came before
                // (Go then forgets a repetition just read: `a*\Q\E*` is `(a*)*`).
                if top.branch.len() > before || prev != Prev::Nothing {
                    prev = Prev::Atom;
                }
                i = next;
                continue;
            }
            '[' => {
                let (hir, next) = class(&chars, i, pat, flags.fold)?;
                top.branch.push(hir);
                prev = Prev::Atom;
                i = next;
                continue;
            }
            '(' => {
                if stack.len() > MAX_DEPTH {
                    return Err(err(NESTING_DEPTH, pat));
                }
                if at(i + 1) == Some('?') {
                    let outer = flags;
                    let (opened, next) = group_flags(&chars, i, pat, &mut flags)?;
                    match opened {
                        Opened::Named(name) => {
                            names.push(Some(name));
                            stack.push(Group::new(outer, Some(names.len() as u32)));
                        }
                        Opened::NonCapturing => stack.push(Group::new(outer, None)),
                        // `(?i)` opens no group: it changed the enclosing one's flags.
                        Opened::Nothing => {}
                    }
                    i = next;
                } else {
                    names.push(None);
                    stack.push(Group::new(flags, Some(names.len() as u32)));
                    i += 1;
                }
                prev = Prev::Nothing;
                continue;
            }
            ')' => {
                if stack.len() == 1 {
                    return Err(err(UNEXPECTED_PAREN, pat));
                }
                let group = stack.pop().unwrap();
                flags = group.outer;
                stack.last_mut().unwrap().branch.push(group.finish());
                prev = Prev::Atom;
            }
            '|' => {
                let branch = Hir::concat(std::mem::take(&mut top.branch));
                top.alternatives.push(branch);
                prev = Prev::Nothing;
            }
            '*' | '+' | '?' | '{' => {
                let (min, max, end) = match c {
                    '*' => (0, None, i + 1),
                    '+' => (1, None, i + 1),
                    '?' => (0, Some(1), i + 1),
                    _ => match repeat_braces(&chars, i) {
                        Some(r) => r,
                        None => {
                            // Not a repetition: a literal brace in Go.
                            top.branch.push(literal('{', flags.fold));
                            prev = Prev::Atom;
                            i += 1;
                            continue;
                        }
                    },
                };
                // Go checks the counts first, then (with a `?` after taken in) the argument.
                if c == '{' && (min > 1000 || max.is_some_and(|m| m > 1000 || m < min)) {
                    return Err(err(INVALID_REPEAT_SIZE, &pat[off(i)..off(end)]));
                }
                // A `?` right after makes it non-greedy (greedy under `U`).
                let lazy = at(end) == Some('?');
                let end = if lazy { end + 1 } else { end };
                match prev {
                    Prev::Nothing => return Err(err(MISSING_REPEAT_ARG, &pat[off(i)..off(end)])),
                    Prev::Repeat(p) => return Err(err(INVALID_REPEAT_OP, &pat[p..off(end)])),
                    Prev::Atom => {}
                }
                let Some(sub) = top.branch.pop() else {
                    return Err(err(MISSING_REPEAT_ARG, &pat[off(i)..off(end)]));
                };
                // Go also refuses counted repetitions whose counts, nested, multiply past 1000.
                if c == '{'
                    && (min >= 2 || max.is_some_and(|m| m >= 2))
                    && !repeat_is_valid(&sub, 1000 / max.unwrap_or(min))
                {
                    return Err(err(INVALID_REPEAT_SIZE, &pat[off(i)..off(end)]));
                }
                let greedy = lazy == flags.ungreedy;
                top.branch.push(Hir::repetition(Repetition { min, max, greedy, sub: Box::new(sub) }));
                prev = Prev::Repeat(off(start));
                i = end;
                continue;
            }
            '.' => {
                top.branch.push(Hir::dot(if flags.dot_nl { Dot::AnyChar } else { Dot::AnyCharExceptLF }));
                prev = Prev::Atom;
            }
            '^' => {
                top.branch.push(Hir::look(if flags.multi_line { Look::StartLF } else { Look::Start }));
                prev = Prev::Atom;
            }
            '$' => {
                top.branch.push(Hir::look(if flags.multi_line { Look::EndLF } else { Look::End }));
                prev = Prev::Atom;
            }
            _ => {
                top.branch.push(literal(c, flags.fold));
                prev = Prev::Atom;
            }
        }
        i += 1;
    }
    if stack.len() > 1 {
        return Err(err(MISSING_PAREN, pat));
    }
    Ok(Translated { hir: stack.pop().unwrap().finish(), names })
}

/// Go's `repeatIsValid`: along every path in `hir`, the repetitions' counts (the maximum, else
/// the minimum) fit in `n` divided by the ones above them.
fn repeat_is_valid(hir: &Hir, n: u32) -> bool {
    match hir.kind() {
        HirKind::Repetition(r) => {
            let m = r.max.unwrap_or(r.min);
            if m > n {
                return false;
            }
            repeat_is_valid(&r.sub, n.checked_div(m).unwrap_or(n))
        }
        HirKind::Capture(c) => repeat_is_valid(&c.sub, n),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().all(|h| repeat_is_valid(h, n)),
        _ => true,
    }
}

/// One character: itself, or under `(?i)` the class of its case orbit.
fn literal(c: char, fold_case: bool) -> Hir {
    let cp = c as u32;
    if fold_case {
        let orbit = fold(&[(cp, cp)]);
        if orbit != [(cp, cp)] {
            return Hir::class(Class::Unicode(to_class(&orbit)));
        }
    }
    Hir::literal(c.to_string().into_bytes())
}

/// Inclusive code point ranges as a class (surrogates, which no string holds, left out).
fn to_class(ranges: &[(u32, u32)]) -> ClassUnicode {
    let char_at = |c: u32| char::from_u32(c);
    ClassUnicode::new(ranges.iter().filter_map(|&(lo, hi)| {
        let lo = if (0xD800..=0xDFFF).contains(&lo) { 0xE000 } else { lo };
        let hi = if (0xD800..=0xDFFF).contains(&hi) { 0xD7FF } else { hi };
        (lo <= hi).then_some(())?;
        Some(ClassUnicodeRange::new(char_at(lo)?, char_at(hi)?))
    }))
}

fn ranges_of(class: &ClassUnicode) -> Vec<(u32, u32)> {
    class.iter().map(|r| (r.start() as u32, r.end() as u32)).collect()
}

/// A class's ranges (`positive`), negated if `negated`; under `(?i)` folded before they are
/// negated (as Go's parser does).
fn member(positive: Vec<(u32, u32)>, negated: bool, fold_case: bool) -> Vec<(u32, u32)> {
    let positive = if fold_case { fold(&positive) } else { positive };
    if !negated {
        return positive;
    }
    let mut class = to_class(&positive);
    class.negate();
    ranges_of(&class)
}

/// What `(?...` opened.
enum Opened {
    /// A named capture group.
    Named(String),
    /// `(?flags:`.
    NonCapturing,
    /// `(?flags)`: no group.
    Nothing,
}

/// `(?` at `i`: flags `(?i)`, `(?i:...)`, named groups `(?P<n>...)` / `(?<n>...)`. Applies
/// the flags to `flags`; returns what was opened and the index after it.
fn group_flags(
    chars: &[(usize, char)],
    i: usize,
    pat: &str,
    flags: &mut Flags,
) -> Result<(Opened, usize), GoRegexError> {
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
        return Ok((Opened::Named(name.to_string()), close + 1));
    }
    // Flags: [imsU]*(-[imsU]*)? followed by `)` or `:`.
    let mut k = i + 2;
    let mut seen_minus = false;
    let mut flag_after_minus = false;
    let mut set = *flags;
    loop {
        match at(k) {
            Some(f @ ('i' | 'm' | 's' | 'U')) => {
                flag_after_minus = true;
                let on = !seen_minus;
                match f {
                    'i' => set.fold = on,
                    'm' => set.multi_line = on,
                    's' => set.dot_nl = on,
                    _ => set.ungreedy = on,
                }
            }
            Some('-') if !seen_minus => {
                seen_minus = true;
                flag_after_minus = false;
            }
            Some(':') | Some(')') => {
                // Go rejects a `-` with no flag after it: `(?-)`, `(?i-:`.
                if seen_minus && !flag_after_minus {
                    break;
                }
                *flags = set;
                let opened = if at(k) == Some(')') { Opened::Nothing } else { Opened::NonCapturing };
                return Ok((opened, k + 1));
            }
            _ => break,
        }
        k += 1;
    }
    Err(err(INVALID_PERL_OP, &pat[off(i)..off(k + 1).min(pat.len())]))
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

/// Go's ASCII Perl classes: the positive ranges and whether the letter negates them.
fn perl_class(c: char) -> Option<(&'static [(u32, u32)], bool)> {
    const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
    const SPACE: &[(u32, u32)] = &[(0x9, 0xA), (0xC, 0xD), (0x20, 0x20)];
    const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
    match c {
        'd' => Some((DIGIT, false)),
        'D' => Some((DIGIT, true)),
        's' => Some((SPACE, false)),
        'S' => Some((SPACE, true)),
        'w' => Some((WORD, false)),
        'W' => Some((WORD, true)),
        _ => None,
    }
}

/// Go's POSIX classes (`[:alpha:]`), ASCII.
fn posix_class(name: &str) -> Option<&'static [(u32, u32)]> {
    Some(match name {
        "alnum" => &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        "alpha" => &[(0x41, 0x5A), (0x61, 0x7A)],
        "ascii" => &[(0x0, 0x7F)],
        "blank" => &[(0x9, 0x9), (0x20, 0x20)],
        "cntrl" => &[(0x0, 0x1F), (0x7F, 0x7F)],
        "digit" => &[(0x30, 0x39)],
        "graph" => &[(0x21, 0x7E)],
        "lower" => &[(0x61, 0x7A)],
        "print" => &[(0x20, 0x7E)],
        "punct" => &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        "space" => &[(0x9, 0xD), (0x20, 0x20)],
        "upper" => &[(0x41, 0x5A)],
        "word" => &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
        "xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    })
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

/// The escape at `i` outside a class, pushed onto `branch`; returns the index after it.
fn escape_outside(
    chars: &[(usize, char)],
    i: usize,
    pat: &str,
    fold_case: bool,
    branch: &mut Vec<Hir>,
) -> Result<usize, GoRegexError> {
    let (esc, next) = read_escape(chars, i, pat)?;
    let class = |ranges: Vec<(u32, u32)>| Hir::class(Class::Unicode(to_class(&ranges)));
    match esc {
        Escape::Char(c) => branch.push(literal(c, fold_case)),
        Escape::Perl(c) => {
            let (positive, negated) = perl_class(c).unwrap();
            branch.push(class(member(positive.to_vec(), negated, fold_case)));
        }
        Escape::Unicode(name, negated) => branch.push(class(member(unicode_class(&name), negated, fold_case))),
        Escape::Assertion(c) => branch.push(Hir::look(match c {
            'A' => Look::Start,
            'z' => Look::End,
            'b' => Look::WordAscii,
            _ => Look::WordAsciiNegate,
        })),
        // Go pushes the quoted characters one by one: a repetition after takes the last.
        Escape::Quote(s) => branch.extend(s.chars().map(|c| literal(c, fold_case))),
    }
    Ok(next)
}

/// A character class starting at `i` (`[`); returns it and the index after `]`. Under
/// `(?i)` its negated members are folded before they are negated, then the whole folded
/// before it is (as Go's parser does).
fn class(chars: &[(usize, char)], i: usize, pat: &str, fold_case: bool) -> Result<(Hir, usize), GoRegexError> {
    let off = |k: usize| chars.get(k).map_or(pat.len(), |c| c.0);
    let at = |k: usize| chars.get(k).map(|c| c.1);
    let missing = || err(MISSING_BRACKET, &pat[off(i)..]);
    // The class's members, between `[` (or `[^`) and `]`.
    let mut ranges: Vec<(u32, u32)> = Vec::new();
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
            let whole = Hir::class(Class::Unicode(to_class(&member(ranges, negated, fold_case))));
            return Ok((whole, k + 1));
        }
        first = false;
        // POSIX class `[:alpha:]` / `[:^alpha:]`.
        if c == '[' && at(k + 1) == Some(':') {
            if let Some(end) = pat[off(k + 2)..].find(":]") {
                let name_end_byte = off(k + 2) + end;
                let text = &pat[off(k)..name_end_byte + 2];
                let name = text[2..text.len() - 2].trim_start_matches('^');
                let Some(positive) = posix_class(name) else {
                    return Err(err(INVALID_CHAR_RANGE, text));
                };
                ranges.extend(member(positive.to_vec(), text.starts_with("[:^"), fold_case));
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
            ranges.push((lo as u32, hi as u32));
            k = next;
            continue;
        }
        if c == '\\' {
            let (esc, next) = read_escape(chars, k, pat)?;
            match esc {
                Escape::Char(ch) => {
                    ranges.push((ch as u32, ch as u32));
                    last = Some((ch, k));
                }
                Escape::Perl(p) => {
                    let (positive, neg) = perl_class(p).unwrap();
                    ranges.extend(member(positive.to_vec(), neg, fold_case && neg));
                    last = None;
                }
                Escape::Unicode(name, neg) => {
                    ranges.extend(member(unicode_class(&name), neg, fold_case && neg));
                    last = None;
                }
                Escape::Quote(s) => {
                    ranges.extend(s.chars().map(|ch| (ch as u32, ch as u32)));
                    last = s.chars().last().map(|ch| (ch, k));
                }
                Escape::Assertion(_) => {
                    return Err(err(INVALID_ESCAPE, &pat[off(k)..off(next)]));
                }
            }
            k = next;
            continue;
        }
        ranges.push((c as u32, c as u32));
        last = Some((c, k));
        k += 1;
    }
}

/// Go's `\p{name}` (without `^`): its code point ranges (`string_regex_unicode.rs`).
fn unicode_class(name: &str) -> Vec<(u32, u32)> {
    super::string_regex_unicode::class_ranges(name)
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
