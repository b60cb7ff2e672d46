//! A small JSON parser that keeps byte spans, for Terraform's `.tf.json` syntax.
//!
//! serde_json drops positions, and diagnostics and reference ranges need them, so this parser
//! records the span of every value and property name, and for strings with escapes a map from
//! each byte of the decoded text back to the file. Errors use HCL's JSON parser wording
//! (`hcl/json/parser.go`). Nesting is limited (no stack overflow on hostile input); parsing stops
//! at the first error, as HCL's does.

use std::ops::Range;

/// Deepest JSON nesting accepted.
pub const MAX_JSON_DEPTH: usize = 128;

#[derive(Debug)]
pub struct JValue {
    pub kind: JKind,
    pub span: Range<usize>,
}

#[derive(Debug)]
pub enum JKind {
    Null,
    Bool(bool),
    Number(String),
    String(JStr),
    Array(Vec<JValue>),
    Object(Vec<JProp>),
}

/// A decoded string, with its position in the file.
#[derive(Debug)]
pub struct JStr {
    pub value: String,
    /// Span of the string in the file, quotes included.
    pub span: Range<usize>,
    /// For strings with escapes: the file offset of each byte of `value` (and one past the end).
    map: Option<Vec<u32>>,
}

impl JStr {
    /// The file offset of a byte offset within the decoded value.
    pub fn file_offset(&self, off: usize) -> usize {
        match &self.map {
            Some(map) => map[off.min(map.len() - 1)] as usize,
            None => self.span.start + 1 + off.min(self.value.len()),
        }
    }
}

#[derive(Debug)]
pub struct JProp {
    pub name: JStr,
    pub value: JValue,
}

impl JValue {
    pub fn as_object(&self) -> Option<&[JProp]> {
        match &self.kind {
            JKind::Object(p) => Some(p),
            _ => None,
        }
    }
}

/// HCL's JSON `ContextString`: the path of object keys and array indexes down to the innermost
/// object or array holding byte `offset` (`variable.v.validation[0]`); `None` at the top level.
pub fn context_path(root: &JValue, offset: usize) -> Option<String> {
    let mut path = String::new();
    let mut at = root;
    loop {
        let holds = |v: &JValue| matches!(v.kind, JKind::Object(_) | JKind::Array(_)) && v.span.contains(&offset);
        let next = match &at.kind {
            JKind::Object(props) => props.iter().find(|p| holds(&p.value)).map(|p| {
                path.push('.');
                path.push_str(&p.name.value);
                &p.value
            }),
            JKind::Array(items) => items.iter().enumerate().find(|(_, v)| holds(v)).map(|(i, v)| {
                path.push_str(&format!("[{i}]"));
                v
            }),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => break,
        }
    }
    let path = path.strip_prefix('.').unwrap_or(&path);
    (!path.is_empty()).then(|| path.to_string())
}

/// A parse error: HCL's summary and detail, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub summary: &'static str,
    pub detail: String,
    pub span: Range<usize>,
    /// True when the error is the nesting limit.
    pub too_deep: bool,
}

pub fn parse(text: &str) -> Result<JValue, JsonError> {
    let mut p = Parser { b: text.as_bytes(), text, i: 0, depth: 0 };
    p.ws();
    if p.i >= p.b.len() {
        return Err(p.error(
            "Missing JSON value",
            "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.",
            0..0,
        ));
    }
    let v = p.value()?;
    p.ws();
    if p.i < p.b.len() {
        let at = p.i;
        return Err(p.error(
            "Extraneous data after value",
            "Extra characters appear after the JSON value.",
            at..at + 1,
        ));
    }
    Ok(v)
}

struct Parser<'t> {
    b: &'t [u8],
    text: &'t str,
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, summary: &'static str, detail: impl Into<String>, span: Range<usize>) -> JsonError {
        JsonError { summary, detail: detail.into(), span, too_deep: false }
    }

    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<JValue, JsonError> {
        let start = self.i;
        let Some(&c) = self.b.get(self.i) else {
            return Err(self.error("Missing value", "The JSON data ends prematurely.", start..start));
        };
        match c {
            b'{' | b'[' => {
                if self.depth >= MAX_JSON_DEPTH {
                    let mut e = self.error(
                        "Expression too deeply nested",
                        format!("This expression nests more than {MAX_JSON_DEPTH} levels deep, which is more than this tool supports."),
                        start..start + 1,
                    );
                    e.too_deep = true;
                    return Err(e);
                }
                self.depth += 1;
                let r = if c == b'{' { self.object() } else { self.array() };
                self.depth -= 1;
                r
            }
            b'"' => {
                let s = self.string()?;
                let span = s.span.clone();
                Ok(JValue { kind: JKind::String(s), span })
            }
            b'-' | b'0'..=b'9' => self.number(),
            c if c.is_ascii_alphabetic() => self.keyword(),
            _ => {
                let end = self.char_end(start);
                Err(self.error(
                    "Invalid start of value",
                    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.",
                    start..end,
                ))
            }
        }
    }

    fn char_end(&self, at: usize) -> usize {
        let mut end = (at + 1).min(self.b.len());
        while end < self.b.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        end
    }

    fn object(&mut self) -> Result<JValue, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut props = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(JValue { kind: JKind::Object(props), span: open..self.i });
        }
        loop {
            self.ws();
            match self.b.get(self.i) {
                None => {
                    return Err(self.error(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open..open + 1,
                    ))
                }
                Some(b'"') => {}
                Some(_) => {
                    let at = self.i;
                    let end = self.char_end(at);
                    return Err(self.error(
                        "Invalid object property name",
                        "A JSON object property name must be a string",
                        at..end,
                    ));
                }
            }
            let name = self.string()?;
            self.ws();
            match self.b.get(self.i) {
                Some(b':') => self.i += 1,
                Some(b'=') => {
                    let at = self.i;
                    return Err(self.error(
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                        at..at + 1,
                    ));
                }
                None => {
                    return Err(self.error(
                        "Missing object value",
                        "A JSON object attribute must have a value, introduced by a colon.",
                        name.span.clone(),
                    ))
                }
                Some(_) => {
                    let at = self.i;
                    let end = self.char_end(at);
                    return Err(self.error(
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                        at..end,
                    ));
                }
            }
            self.ws();
            let value = self.value()?;
            props.push(JProp { name, value });
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        return Err(self.error(
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in an object.",
                            comma..comma + 1,
                        ));
                    }
                }
                Some(b'}') => {
                    self.i += 1;
                    return Ok(JValue { kind: JKind::Object(props), span: open..self.i });
                }
                Some(b']') => {
                    let at = self.i;
                    return Err(self.error(
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                        at..at + 1,
                    ));
                }
                None => {
                    return Err(self.error(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open..open + 1,
                    ))
                }
                Some(_) => {
                    let at = self.i;
                    let end = self.char_end(at);
                    return Err(self.error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                        at..end,
                    ));
                }
            }
        }
    }

    fn array(&mut self) -> Result<JValue, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(JValue { kind: JKind::Array(items), span: open..self.i });
        }
        loop {
            self.ws();
            if self.i >= self.b.len() {
                return Err(self.error(
                    "Unclosed object",
                    "No closing bracket was found for this JSON array.",
                    open..open + 1,
                ));
            }
            items.push(self.value()?);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        return Err(self.error(
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an array.",
                            comma..comma + 1,
                        ));
                    }
                }
                Some(b']') => {
                    self.i += 1;
                    return Ok(JValue { kind: JKind::Array(items), span: open..self.i });
                }
                Some(b':') => {
                    let at = self.i;
                    return Err(self.error(
                        "Invalid array value",
                        "A colon is not used to introduce values in a JSON array.",
                        at..at + 1,
                    ));
                }
                Some(b'}') => {
                    let at = self.i;
                    return Err(self.error(
                        "Mismatched brackets",
                        "A JSON array must be closed with a bracket, not a brace.",
                        at..at + 1,
                    ));
                }
                None => {
                    return Err(self.error(
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                        open..open + 1,
                    ))
                }
                Some(_) => {
                    let at = self.i;
                    let end = self.char_end(at);
                    return Err(self.error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each value in an array.",
                        at..end,
                    ));
                }
            }
        }
    }

    fn string(&mut self) -> Result<JStr, JsonError> {
        let open = self.i;
        self.i += 1;
        let content_start = self.i;
        // Fast path: no escapes.
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    let value = self.text[content_start..self.i].to_string();
                    self.i += 1;
                    return Ok(JStr { value, span: open..self.i, map: None });
                }
                b'\\' => break,
                c if c < 0x20 => return Err(self.bad_string(open)),
                _ => self.i += 1,
            }
        }
        if self.i >= self.b.len() {
            return Err(self.bad_string(open));
        }
        // Slow path: decode escapes and keep the offset map.
        let mut value = self.text[content_start..self.i].to_string();
        let mut map: Vec<u32> = (content_start..self.i).map(|o| o as u32).collect();
        while self.i < self.b.len() {
            let at = self.i;
            match self.b[at] {
                b'"' => {
                    map.push(at as u32);
                    self.i += 1;
                    return Ok(JStr { value, span: open..self.i, map: Some(map) });
                }
                b'\\' => {
                    let Some(&e) = self.b.get(at + 1) else { return Err(self.bad_string(open)) };
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let (ch, len) = self.unicode_escape(at).ok_or_else(|| self.bad_string(open))?;
                            push_char(&mut value, &mut map, ch, at);
                            self.i = at + len;
                            continue;
                        }
                        _ => return Err(self.bad_string(open)),
                    };
                    push_char(&mut value, &mut map, ch, at);
                    self.i = at + 2;
                }
                c if c < 0x20 => return Err(self.bad_string(open)),
                _ => {
                    let end = self.char_end(at);
                    value.push_str(&self.text[at..end]);
                    map.extend((at..end).map(|o| o as u32));
                    self.i = end;
                }
            }
        }
        Err(self.bad_string(open))
    }

    /// `\uXXXX`, with surrogate pairs; returns the char and the escape's length in bytes.
    fn unicode_escape(&self, at: usize) -> Option<(char, usize)> {
        let hex = |from: usize| -> Option<u32> {
            let s = self.text.get(from..from + 4)?;
            u32::from_str_radix(s, 16).ok()
        };
        let hi = hex(at + 2)?;
        if (0xD800..0xDC00).contains(&hi) {
            if self.b.get(at + 6) == Some(&b'\\') && self.b.get(at + 7) == Some(&b'u') {
                let lo = hex(at + 8)?;
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return Some((char::from_u32(c)?, 12));
                }
            }
            return Some(('\u{FFFD}', 6));
        }
        Some((char::from_u32(hi).unwrap_or('\u{FFFD}'), 6))
    }

    fn bad_string(&self, open: usize) -> JsonError {
        let end = self.i.min(self.b.len()).max(open + 1);
        let mut end = end;
        while end < self.b.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        self.error("Invalid JSON string", "There is a syntax error in the given JSON string.", open..end)
    }

    fn number(&mut self) -> Result<JValue, JsonError> {
        let start = self.i;
        let b = self.b;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = |i: &mut usize| {
            let s = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            *i > s
        };
        let mut ok = digits(&mut i);
        if ok && b.get(i) == Some(&b'.') {
            i += 1;
            ok = digits(&mut i);
        }
        if ok && matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            ok = digits(&mut i);
        }
        // A number runs into letters or more digits: still part of the bad token.
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
            ok = false;
            i += 1;
        }
        self.i = i;
        if !ok {
            return Err(self.error(
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                start..i,
            ));
        }
        Ok(JValue { kind: JKind::Number(self.text[start..i].to_string()), span: start..i })
    }

    fn keyword(&mut self) -> Result<JValue, JsonError> {
        let start = self.i;
        let mut i = start;
        while i < self.b.len() && (self.b[i].is_ascii_alphanumeric() || self.b[i] == b'_') {
            i += 1;
        }
        self.i = i;
        let word = &self.text[start..i];
        let kind = match word {
            "true" => JKind::Bool(true),
            "false" => JKind::Bool(false),
            "null" => JKind::Null,
            "undefined" | "NaN" | "Infinity" => {
                return Err(self.error(
                    "Invalid JSON keyword",
                    format!("The JavaScript identifier {word:?} cannot be used in JSON."),
                    start..i,
                ));
            }
            _ => {
                let dym = match word.to_ascii_lowercase().as_str() {
                    "true" | "t" | "yes" => " Did you mean \"true\"?",
                    "false" | "f" | "no" => " Did you mean \"false\"?",
                    "null" | "nil" | "none" => " Did you mean \"null\"?",
                    _ => "",
                };
                return Err(self.error(
                    "Invalid JSON keyword",
                    format!("{word:?} is not a valid JSON keyword.{dym}"),
                    start..i,
                ));
            }
        };
        Ok(JValue { kind, span: start..i })
    }
}

fn push_char(value: &mut String, map: &mut Vec<u32>, ch: char, at: usize) {
    let before = value.len();
    value.push(ch);
    map.extend(std::iter::repeat_n(at as u32, value.len() - before));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_spans() {
        let text = r#"{"a": [1, true, null], "b\n": "x\"y"}"#;
        let v = parse(text).unwrap();
        let props = v.as_object().unwrap();
        assert_eq!(props[0].name.value, "a");
        assert_eq!(&text[props[0].value.span.clone()], "[1, true, null]");
        assert_eq!(props[1].name.value, "b\n");
        let JKind::String(s) = &props[1].value.kind else { panic!() };
        assert_eq!(s.value, "x\"y");
        // 'y' (decoded offset 2) sits after the two-byte escape.
        assert_eq!(&text[s.file_offset(2)..s.file_offset(3)], "y");
        assert_eq!(s.file_offset(3), s.span.end - 1);
    }

    #[test]
    fn errors_use_hcl_wording() {
        let cases = [
            ("", "Missing JSON value"),
            ("{", "Unclosed object"),
            ("{\"a\" = 1}", "Missing property value colon"),
            ("{\"a\": 1,}", "Trailing comma in object"),
            ("[1,]", "Trailing comma in array"),
            ("{\"a\": 1]", "Mismatched braces"),
            ("[1}", "Mismatched brackets"),
            ("{a: 1}", "Invalid object property name"),
            ("[01x]", "Invalid JSON number"),
            ("\"abc", "Invalid JSON string"),
            ("nul", "Invalid JSON keyword"),
            ("{} x", "Extraneous data after value"),
            ("{\"a\": 1 \"b\": 2}", "Missing attribute seperator comma"),
            ("@", "Invalid start of value"),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap_err().summary, want, "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let e = parse(&text).unwrap_err();
        assert!(e.too_deep);
        let text = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(&text).is_ok());
    }
}
