//! `yamlencode`: go-yaml v3's emitter as Terraform's ctyyaml drives it. ctyyaml asks for a
//! double-quoted style on every string and a literal block for strings with a line break; the
//! emitter falls back to double quotes where a block is not allowed (trailing space, a space
//! before a break, tabs or unprintable characters), folds double-quoted text past column 80
//! at a space, writes `...` after a plain root scalar, and indents block sequences inside
//! mappings at the mapping's own level.

use crate::eval::value::{Kind, Value};

const WIDTH: usize = 80;

/// The YAML document for a wholly known value.
pub fn encode(v: &Value) -> String {
    let mut e = Emitter { out: String::new() };
    match &v.kind {
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) if !items.is_empty() => e.block(v, 0, true),
        Kind::Map(_, m) | Kind::Object(m) if !m.is_empty() => e.block(v, 0, true),
        Kind::String(_) | Kind::List(..) | Kind::Set(..) | Kind::Tuple(..) | Kind::Map(..) | Kind::Object(..) => {
            e.scalar(v, 2, true)
        }
        _ => {
            e.scalar(v, 2, true);
            e.out.push_str("\n...");
        }
    }
    if !e.out.ends_with('\n') {
        e.out.push('\n');
    }
    e.out
}

struct Emitter {
    out: String,
}

fn is_block_collection(v: &Value) -> bool {
    match &v.kind {
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => !items.is_empty(),
        Kind::Map(_, m) | Kind::Object(m) => !m.is_empty(),
        _ => false,
    }
}

fn is_map(v: &Value) -> bool {
    matches!(v.kind, Kind::Map(..) | Kind::Object(..))
}

impl Emitter {
    fn column(&self) -> usize {
        self.out.rsplit('\n').next().map_or(0, |l| l.chars().count())
    }

    fn newline_indent(&mut self, indent: usize) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        for _ in 0..indent {
            self.out.push(' ');
        }
    }

    /// A non-empty block mapping or sequence at `indent`; `inline` when the first entry goes
    /// where the cursor is (after `- ` or at the document start).
    fn block(&mut self, v: &Value, indent: usize, inline: bool) {
        match &v.kind {
            Kind::Map(_, m) | Kind::Object(m) => {
                for (i, (k, val)) in m.iter().enumerate() {
                    if i > 0 || !inline {
                        self.newline_indent(indent);
                    }
                    self.double_quoted(k, indent + 2, false);
                    self.out.push(':');
                    if is_block_collection(val) {
                        // Sequences in a mapping are indentless.
                        self.block(val, if is_map(val) { indent + 2 } else { indent }, false);
                    } else {
                        self.out.push(' ');
                        self.scalar(val, indent + 2, false);
                    }
                }
            }
            Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 || !inline {
                        self.newline_indent(indent);
                    }
                    self.out.push_str("- ");
                    if is_block_collection(item) {
                        self.block(item, indent + 2, true);
                    } else {
                        self.scalar(item, indent + 2, false);
                    }
                }
            }
            _ => self.scalar(v, indent + 2, false),
        }
    }

    fn scalar(&mut self, v: &Value, indent: usize, _root: bool) {
        match &v.kind {
            // (yamlencode refuses type values and unknowns before encoding.)
            Kind::Null(_) | Kind::Unknown(_) | Kind::TypeVal(_) => self.out.push_str("null"),
            Kind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Kind::Number(n) => self.out.push_str(&n.to_string()),
            Kind::String(s) => {
                if s.contains('\n') && block_allowed(s) {
                    self.literal(s, indent);
                } else {
                    self.double_quoted(s, indent, true);
                }
            }
            Kind::List(..) | Kind::Set(..) | Kind::Tuple(..) => self.out.push_str("[]"),
            Kind::Map(..) | Kind::Object(..) => self.out.push_str("{}"),
        }
    }

    fn literal(&mut self, s: &str, indent: usize) {
        self.out.push('|');
        let first = s.chars().next();
        if matches!(first, Some(' ' | '\n')) {
            self.out.push('2');
        }
        let bytes = s.as_bytes();
        let n = bytes.len();
        if bytes[n - 1] != b'\n' {
            self.out.push('-');
        } else if n == 1 || bytes[n - 2] == b'\n' {
            self.out.push('+');
        }
        self.out.push('\n');
        let mut at_break = true;
        for c in s.chars() {
            if c == '\n' {
                self.out.push('\n');
                at_break = true;
            } else {
                if at_break {
                    for _ in 0..indent {
                        self.out.push(' ');
                    }
                    at_break = false;
                }
                self.out.push(c);
            }
        }
    }

    fn double_quoted(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.out.push('"');
        let chars: Vec<char> = s.chars().collect();
        let mut column = self.column();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                let esc = match c {
                    '\0' => "\\0".to_string(),
                    '\u{7}' => "\\a".into(),
                    '\u{8}' => "\\b".into(),
                    '\t' => "\\t".into(),
                    '\n' => "\\n".into(),
                    '\u{b}' => "\\v".into(),
                    '\u{c}' => "\\f".into(),
                    '\r' => "\\r".into(),
                    '\u{1b}' => "\\e".into(),
                    '"' => "\\\"".into(),
                    '\\' => "\\\\".into(),
                    '\u{85}' => "\\N".into(),
                    '\u{a0}' => "\\_".into(),
                    '\u{2028}' => "\\L".into(),
                    '\u{2029}' => "\\P".into(),
                    c if (c as u32) <= 0xff => format!("\\x{:02X}", c as u32),
                    c if (c as u32) <= 0xffff => format!("\\u{:04X}", c as u32),
                    c => format!("\\U{:08X}", c as u32),
                };
                column += esc.chars().count();
                self.out.push_str(&esc);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && column > WIDTH && i != 0 && i != chars.len() - 1 {
                    self.out.push('\n');
                    for _ in 0..indent {
                        self.out.push(' ');
                    }
                    column = indent;
                    if chars.get(i + 1) == Some(&' ') {
                        self.out.push('\\');
                        column += 1;
                    }
                } else {
                    self.out.push(' ');
                    column += 1;
                }
                spaces = true;
            } else {
                self.out.push(c);
                column += 1;
                spaces = false;
            }
        }
        self.out.push('"');
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// go-yaml's `is_printable` (which looks at UTF-8 lead bytes: nothing outside the Basic
/// Multilingual Plane counts as printable, so emoji are written `\U0001F600`).
fn printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

/// go-yaml's `analyze_scalar`, for whether a literal block may carry the string.
fn block_allowed(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    let (mut prev_space, mut prev_break) = (false, false);
    let (mut trailing_space, mut space_break, mut special) = (false, false, false);
    for (i, &c) in chars.iter().enumerate() {
        if !printable(c) || c == '\u{feff}' || c == '\t' {
            special = true;
        }
        if c == ' ' {
            if i + 1 == chars.len() {
                trailing_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
    }
    let _ = prev_break;
    !(trailing_space || space_break || special)
}
