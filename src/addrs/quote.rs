//! Go's `strconv.Quote` (what `%q` prints), which Terraform's DOT output uses for ids, labels
//! and attribute values.
//!
//! Exact for ASCII and for the characters Terraform names contain in practice. For other
//! characters Go consults `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols and
//! U+0020); without Unicode tables here, a non-ASCII character is treated as printable unless it
//! is a control, whitespace, a common format character (U+00AD, U+200B–U+200F, U+2028–U+202E,
//! U+2060–U+206F, U+FEFF, …), private-use or a noncharacter. Unassigned code points, which Go
//! escapes, are kept as they are.

/// `s` as Go's `strconv.Quote(s)` writes it, surrounding quotes included.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s);
    out.push('"');
    out
}

/// `go_quote(s)` without the surrounding quotes (Terraform's `marshalVertex` name).
pub fn go_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

fn push_escaped(out: &mut String, s: &str) {
    use std::fmt::Write;
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ if is_print(c) => out.push(c),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            _ if (c as u32) < 0x20 || c == '\x7f' => write!(out, "\\x{:02x}", c as u32).expect("String write"),
            _ if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32).expect("String write"),
            _ => write!(out, "\\U{:08x}", c as u32).expect("String write"),
        }
    }
}

fn is_print(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(u,
            0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E
            | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F
            | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
        || (u & 0xFFFE) == 0xFFFE
        || (0xFDD0..=0xFDEF).contains(&u))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values are Go's `strconv.Quote` output.
    #[test]
    fn matches_go_quote() {
        let cases = [
            ("", r#""""#),
            ("aws_instance.web (expand)", r#""aws_instance.web (expand)""#),
            (
                r#"provider["registry.terraform.io/hashicorp/aws"]"#,
                r#""provider[\"registry.terraform.io/hashicorp/aws\"]""#,
            ),
            ("a\\b", r#""a\\b""#),
            ("tab\there\nnl\r\x07\x08\x0c\x0b", r#""tab\there\nnl\r\a\b\f\v""#),
            ("\x00\x1f\x7f", r#""\x00\x1f\x7f""#),
            ("it's", r#""it's""#),
            ("héllo wörld ✓ 日本", "\"héllo wörld ✓ 日本\""),
            ("nb\u{a0}sp", r#""nb\u00a0sp""#),
            ("zw\u{200b}sp\u{feff}", r#""zw\u200bsp\ufeff""#),
            ("\u{85}", r#""\u0085""#),
            ("\u{10ffff}", r#""\U0010ffff""#),
            ("😀", "\"😀\""),
        ];
        for (input, want) in cases {
            assert_eq!(go_quote(input), want, "input {input:?}");
        }
        assert_eq!(go_escape(r#"p["x"]"#), r#"p[\"x\"]"#);
    }
}
