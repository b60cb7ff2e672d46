//! The text operations behind the string functions, as Go's `strings` package and cty's
//! grapheme-aware helpers do them. Pure `&str` work; `string.rs` wraps them as functions.

use unicode_segmentation::UnicodeSegmentation;

/// The longest string a function may build (16 MiB): Terraform has no limit and would try to
/// allocate whatever `indent(1e9, ...)` asks for; we answer with an error instead.
pub const MAX_RESULT_BYTES: usize = 16 << 20;

/// Go's `unicode.ToUpper` per rune (simple case mapping: `ß` stays `ß`).
pub fn upper(s: &str) -> String {
    s.chars().map(simple_upper).collect()
}

/// Go's `unicode.ToLower` per rune (no final-sigma rule: `ΣΑΣ` → `σασ`).
pub fn lower(s: &str) -> String {
    s.chars().map(simple_lower).collect()
}

fn simple_upper(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    match c {
        // Title-case digraphs upper-case to their capital form.
        'ǅ' => 'Ǆ',
        'ǈ' => 'Ǉ',
        'ǋ' => 'Ǌ',
        'ǲ' => 'Ǳ',
        _ => {
            let mut it = c.to_uppercase();
            let u = match (it.next(), it.next()) {
                (Some(u), None) => u,
                // A full mapping of several characters: Go uses the simple mapping, which only
                // Greek letters with ypogegrammeni have (ᾀ → ᾈ); others keep the rune (ß).
                _ => match c as u32 {
                    0x1F80..=0x1FAF if c as u32 & 0xF < 8 => char::from_u32(c as u32 + 8).unwrap(),
                    0x1FB3 | 0x1FC3 | 0x1FF3 => char::from_u32(c as u32 + 9).unwrap(),
                    _ => c,
                },
            };
            if unicode_16_case_pair(c) || unicode_16_case_pair(u) {
                c
            } else {
                u
            }
        }
    }
}

/// Case pairs Unicode 16 added: Rust's tables have them, Go's (Unicode 15, in the Go that
/// builds Terraform 1.15) do not, so Go leaves these characters alone.
fn unicode_16_case_pair(c: char) -> bool {
    matches!(
        c as u32,
        0x1C89 | 0x1C8A | 0xA7CB | 0xA7CC | 0xA7CD | 0xA7D2 | 0xA7D4 | 0xA7DA | 0xA7DB | 0xA7DC
            | 0x10D50..=0x10D65 | 0x10D70..=0x10D85
    )
}

fn simple_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut it = c.to_lowercase();
    let l = match (it.next(), it.next()) {
        (Some(l), None) => l,
        // Only U+0130 (İ) lower-cases to several characters; Go maps it to `i`.
        (Some(l), Some(_)) => l,
        _ => c,
    };
    if unicode_16_case_pair(c) || unicode_16_case_pair(l) {
        c
    } else {
        l
    }
}

/// Go's `unicode.ToTitle` per rune: upper case, except the four digraphs that have a
/// distinct title-case form.
fn simple_title(c: char) -> char {
    match c {
        'Ǆ' | 'ǅ' | 'ǆ' => 'ǅ',
        'Ǉ' | 'ǈ' | 'ǉ' => 'ǈ',
        'Ǌ' | 'ǋ' | 'ǌ' => 'ǋ',
        'Ǳ' | 'ǲ' | 'ǳ' => 'ǲ',
        // Georgian Mkhedruli is its own title case (its upper case is Mtavruli).
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => c,
        _ => simple_upper(c),
    }
}

/// Go's `strings.Title` word separators.
fn is_separator(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphanumeric() || c == '_');
    }
    if c.is_alphabetic() || c.is_numeric() {
        return false;
    }
    c.is_whitespace()
}

/// Go's `strings.Title`: the first letter of each word in title case.
pub fn title(s: &str) -> String {
    let mut prev = ' ';
    s.chars()
        .map(|c| {
            let out = if is_separator(prev) { simple_title(c) } else { c };
            prev = c;
            out
        })
        .collect()
}

/// Go's `unicode.IsSpace`.
pub fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0B' | '\x0C' | '\r' | ' ' | '\u{85}' | '\u{A0}')
        || (!c.is_ascii() && c != '\u{85}' && c != '\u{A0}' && is_unicode_white_space(c))
}

fn is_unicode_white_space(c: char) -> bool {
    matches!(c, '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// Go's `strings.TrimSpace`.
pub fn trim_space(s: &str) -> &str {
    s.trim_matches(is_go_space)
}

/// Go's `strings.Trim(s, cutset)`: every leading and trailing rune in `cutset`.
pub fn trim_cutset<'a>(s: &'a str, cutset: &str) -> &'a str {
    if cutset.is_empty() {
        return s;
    }
    s.trim_matches(|c| cutset.contains(c))
}

/// cty's `chomp`: removes the trailing run matched by `(?:\r\n?|\n)*\z`, which is every
/// trailing `\r` and `\n` in any order.
pub fn chomp(s: &str) -> &str {
    s.trim_end_matches(['\r', '\n'])
}

/// cty's `indent`: `spaces` spaces after every newline. Errors are Go's panic message and our
/// size limit.
pub fn indent(spaces: i64, s: &str) -> Result<String, String> {
    if spaces < 0 {
        return Err("strings: negative Repeat count".to_string());
    }
    let newlines = s.bytes().filter(|&b| b == b'\n').count();
    let extra = (spaces as u128) * (newlines as u128);
    if s.len() as u128 + extra > MAX_RESULT_BYTES as u128 {
        return Err(format!("the result would be longer than {MAX_RESULT_BYTES} bytes"));
    }
    let pad = " ".repeat(spaces as usize);
    Ok(s.replace('\n', &format!("\n{pad}")))
}

/// cty's `strrev`: grapheme clusters in reverse order.
pub fn strrev(s: &str) -> String {
    s.graphemes(true).rev().collect()
}

/// Number of grapheme clusters (`length` of a string).
pub fn strlen(s: &str) -> usize {
    s.graphemes(true).count()
}

/// cty's `substr`, counting grapheme clusters, with its quirks (a negative offset counts from
/// the end; a negative length means "to the end"; an offset past the end gives "").
pub fn substr(s: &str, offset: i64, length: i64) -> String {
    let mut offset = offset;
    if offset < 0 {
        offset += strlen(s) as i64;
    } else if length == 0 {
        return String::new();
    }
    let bounds: Vec<usize> = s.grapheme_indices(true).map(|(i, _)| i).chain([s.len()]).collect();
    let clusters = bounds.len() - 1;
    // cty's loop: skip `offset` clusters (a negative result behaves as zero).
    let start = if offset > 0 {
        if offset as usize >= clusters {
            // cty returns "" once it runs off the end before reaching the offset, and also
            // when the offset lands exactly on the end.
            return String::new();
        }
        bounds[offset as usize]
    } else {
        0
    };
    let sub = &s[start..];
    if length < 0 {
        return sub.to_string();
    }
    // cty's loop breaks on `pos == length` only after consuming a cluster, so a zero length
    // that got here (with a negative offset) takes the whole rest.
    let mut end = 0;
    for (pos, (i, g)) in sub.grapheme_indices(true).enumerate() {
        end = i + g.len();
        if pos as i64 + 1 == length {
            break;
        }
    }
    sub[..end].to_string()
}

/// Go's `strings.Split(s, sep)` (an empty separator splits into UTF-8 sequences).
pub fn split<'a>(sep: &str, s: &'a str) -> Vec<&'a str> {
    if sep.is_empty() {
        return s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()]).collect();
    }
    s.split(sep).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_case_mapping() {
        assert_eq!(upper("ßtraße"), "ßTRAßE");
        assert_eq!(upper("ǆ"), "Ǆ");
        assert_eq!(lower("ΣΑΣ"), "σασ");
        assert_eq!(lower("ÁÉÍ"), "áéí");
        assert_eq!(title("hello world"), "Hello World");
        assert_eq!(title("élan vital-test a.b"), "Élan Vital-Test A.B");
        assert_eq!(title("hello_world"), "Hello_world");
        assert_eq!(title("o'neil"), "O'Neil");
        assert_eq!(title("HELLO wORLD"), "HELLO WORLD");
    }

    #[test]
    fn trims() {
        assert_eq!(trim_space("\u{a0} x \u{3000}"), "x");
        assert_eq!(trim_cutset("?!hello?!", "!?"), "hello");
        assert_eq!(trim_cutset("foobar", "far"), "oob");
        assert_eq!(chomp("hello\r\n\n"), "hello");
    }

    #[test]
    fn substr_as_cty() {
        assert_eq!(substr("hello world", 1, 4), "ello");
        assert_eq!(substr("🤔🤷", 0, 1), "🤔");
        assert_eq!(substr("hello world", -5, -1), "world");
        assert_eq!(substr("hello world", 7, 100), "orld");
        assert_eq!(substr("hello", 10, 1), "");
        assert_eq!(substr("hello", -10, 2), "he");
        assert_eq!(substr("hello", 1, -2), "ello");
        assert_eq!(substr("hello", 5, 1), "");
        assert_eq!(substr("hello", 4, -1), "o");
        assert_eq!(substr("hello", 0, 0), "");
        assert_eq!(substr("", 0, 1), "");
    }

    #[test]
    fn misc() {
        assert_eq!(strrev("😀ab"), "ba😀");
        assert_eq!(split("", "abc"), vec!["a", "b", "c"]);
        assert_eq!(split(",", ""), vec![""]);
        assert_eq!(indent(2, "a\n\nb").unwrap(), "a\n  \n  b");
        assert!(indent(-1, "a").is_err());
        assert!(indent(100_000_000, "a\nb").is_err());
    }
}
