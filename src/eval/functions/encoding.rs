//! The encoding functions (Terraform's "Encoding Functions"): `base64encode`,
//! `base64decode`, `urlencode`, `jsonencode`, `jsondecode` (with Go's encoding/json error
//! texts), `csvdecode` (Go's encoding/csv rules) and `yamlencode` (go-yaml v3's emitter as
//! ctyyaml drives it: every string double-quoted, multi-line ones literal; in
//! `encoding_yaml.rs`).
//!
//! `textencodebase64`/`textdecodebase64` (in `encoding_text.rs`) know the Unicode encodings,
//! US-ASCII, ISO-8859-1 and windows-1252 by their IANA names and aliases; the other encodings of Go's
//! x/text (Shift_JIS, GBK, ...) get an error saying tfgraph lacks them.
//!
//! `base64gzip` (in `encoding_gzip.rs`) reproduces Go's gzip/deflate output byte for byte.
//! `yamldecode` (in `encoding_yamldecode.rs`) is go-cty-yaml's decoder over libyaml's parser.

use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::number::Number;
use crate::eval::render::to_json_text;
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Go's `base64.StdEncoding.EncodeToString`.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { B64[((n >> (18 - 6 * i)) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// Go's `base64.StdEncoding.DecodeString`, with its `CorruptInputError` offset: strict
/// padding, `\r` and `\n` skipped anywhere.
pub fn base64_decode_go(src: &[u8]) -> Result<Vec<u8>, usize> {
    let val = |c: u8| B64.iter().position(|&x| x == c).map(|p| p as u32);
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    loop {
        let mut dbuf = [0u32; 4];
        let mut dlen = 4;
        let mut j = 0;
        let mut trailing: Option<usize> = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = val(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src[si] != b'=' {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            dlen = j;
            break;
        }
        let v = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3];
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..dlen - 1]);
        if let Some(at) = trailing {
            return Err(at);
        }
        if dlen < 4 {
            return Ok(out);
        }
    }
}

/// [`base64_decode_go`] without the offset.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    base64_decode_go(text.as_bytes()).ok()
}

fn str_fn(name: &'static str, returns: Type, imp: super::ImplFn) -> Function {
    Function {
        name,
        params: vec![Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Type(returns),
        imp,
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

pub(super) fn register(r: &mut Registry) {
    r.add(str_fn("base64encode", Type::String, |_, a, _| Ok(Value::string(base64_encode(text(&a[0]).as_bytes())))));
    r.add(str_fn("base64decode", Type::String, |_, a, _| {
        let s = text(&a[0]);
        let bytes = base64_decode(s)
            .ok_or_else(|| FuncError::Other(format!("failed to decode base64 data {}", crate::dag::go_quote(s))))?;
        String::from_utf8(bytes)
            .map(Value::string)
            .map_err(|_| FuncError::Other("the result of decoding the provided string is not valid UTF-8".into()))
    }));
    r.add(str_fn("base64gzip", Type::String, |_, a, _| {
        Ok(Value::string(base64_encode(&super::encoding_gzip::gzip(text(&a[0]).as_bytes()))))
    }));
    r.add(str_fn("urlencode", Type::String, |_, a, _| Ok(Value::string(query_escape(text(&a[0]))))));
    r.add(Function {
        name: "jsonencode",
        params: vec![Param::new("val", Type::Dynamic).dynamic().null()],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let v = &a[0];
            if v.is_null() {
                return Ok(Value::string("null"));
            }
            if v.has_type_value() {
                return Err(FuncError::Other(TYPE_NOT_ENCODABLE.into()));
            }
            // cty's JSONEncodeFunc: a value with unknowns anywhere in it encodes to an unknown
            // string (Terraform refines its prefix; we do not track refinements).
            if !v.is_wholly_known() {
                return Ok(Value::unknown(Type::String));
            }
            // cty's JSON marshaller refuses infinities (JSON has no such number).
            if crate::eval::render::has_infinity(v) {
                return Err(FuncError::Other("cannot serialize infinity as JSON".into()));
            }
            Ok(to_json_text(v).map(Value::string).unwrap_or_else(|| Value::unknown(Type::String)))
        },
    });
    r.add(Function {
        name: "jsondecode",
        params: vec![Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].as_str() {
            Some(s) => json_decode(s).map(|v| v.ty()).map_err(FuncError::Other),
            None => Ok(Type::Dynamic),
        }),
        imp: |_, a, _| json_decode(text(&a[0])).map_err(FuncError::Other),
    });
    r.add(Function {
        name: "csvdecode",
        params: vec![Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].as_str() {
            Some(s) => csv_decode(s).map(|v| v.ty()).map_err(FuncError::Other),
            None => Ok(Type::Dynamic),
        }),
        imp: |_, a, _| csv_decode(text(&a[0])).map_err(FuncError::Other),
    });
    r.add(Function {
        name: "yamldecode",
        params: vec![Param::new("src", Type::String)],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].as_str() {
            Some(s) => super::encoding_yamldecode::decode(s).map(|(t, _)| t).map_err(FuncError::Other),
            None => Ok(Type::Dynamic),
        }),
        imp: |_, a, _| super::encoding_yamldecode::decode(text(&a[0])).map(|(_, v)| v).map_err(FuncError::Other),
    });
    r.add(Function {
        name: "yamlencode",
        params: vec![Param::new("value", Type::Dynamic).dynamic().null()],
        variadic: None,
        returns: Returns::Type(Type::String),
        // cty-yaml's Impl: unknowns anywhere make the result unknown (cty's Call only looks
        // at the top level).
        imp: |_, a, _| {
            if a[0].has_type_value() {
                return Err(FuncError::Other(TYPE_NOT_ENCODABLE.into()));
            }
            Ok(if a[0].is_wholly_known() {
                Value::string(super::encoding_yaml::encode(&a[0]))
            } else {
                Value::unknown(Type::String)
            })
        },
    });
    super::encoding_text::register(r);
}

/// A `type()` result (console only) has no JSON or YAML form.
const TYPE_NOT_ENCODABLE: &str = "the result of the console-only \"type\" function cannot be encoded";

/// Go's `url.QueryEscape`.
fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// cty's `jsondecode`: the value of the implied type, with Go's encoding/json error texts.
pub fn json_decode(s: &str) -> Result<Value, String> {
    let mut p = JsonParser { b: s.as_bytes(), i: 0, depth: 0 };
    p.ws();
    if p.i >= p.b.len() {
        return Err("EOF".into());
    }
    let v = p.value()?;
    p.ws();
    if p.i < p.b.len() {
        return Err("extraneous data after JSON object".into());
    }
    Ok(v)
}

struct JsonParser<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Go's "invalid character 'x' ..." with Go's quoting of the character.
    fn bad(&self, context: &str) -> String {
        let c = std::str::from_utf8(&self.b[self.i..]).ok().and_then(|s| s.chars().next()).unwrap_or('\u{fffd}');
        let shown = match c {
            '\'' => "'\\''".to_string(),
            '"' => "'\"'".to_string(),
            c if (c as u32) < 0x20 => format!("{:?}", c).replace("\\u{", "\\x").replace('}', ""),
            c => format!("'{c}'"),
        };
        if context.is_empty() {
            format!("invalid character {shown}")
        } else {
            format!("invalid character {shown} {context}")
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        let Some(c) = self.peek() else { return Err("EOF".into()) };
        self.depth += 1;
        // Go stops at 10000 levels ("exceeded max depth"); values that deep would overflow
        // the evaluator's recursion, so we stop where its parser does.
        if self.depth > crate::hcl::MAX_DEPTH {
            return Err(format!(
                "JSON nests more than {} levels deep, which is more than tfgraph supports",
                crate::hcl::MAX_DEPTH
            ));
        }
        let v = match c {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(Value::string),
            b't' => self.literal("true", Value::bool(true)),
            b'f' => self.literal("false", Value::bool(false)),
            b'n' => self.literal("null", Value::null(Type::Dynamic)),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(self.bad("looking for beginning of value")),
        };
        self.depth -= 1;
        v
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
        for (k, &w) in word.as_bytes().iter().enumerate() {
            match self.peek() {
                None => return Err("unexpected EOF".into()),
                Some(c) if c == w => self.i += 1,
                Some(_) => return Err(self.bad(&format!("in literal {word} (expecting '{}')", w as char))),
            }
            let _ = k;
        }
        Ok(v)
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.i += 1;
            }
            p.i - s
        };
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            None => return Err("unexpected EOF".into()),
            _ => return Err(self.bad("in numeric literal")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if digits(self) == 0 {
                return Err(if self.i >= self.b.len() {
                    "unexpected EOF".into()
                } else {
                    self.bad("after decimal point in numeric literal")
                });
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(if self.i >= self.b.len() {
                    "unexpected EOF".into()
                } else {
                    self.bad("in exponent of numeric literal")
                });
            }
        }
        let t = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("0");
        Ok(Value::number(Number::parse(t).unwrap_or_else(Number::zero)))
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else { return Err("unexpected EOF".into()) };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else { return Err("unexpected EOF".into()) };
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp) && self.b[self.i..].starts_with(b"\\u") {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    self.i = save;
                                }
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.bad("in string escape code"));
                        }
                    }
                }
                c if c < 0x20 => return Err(self.bad("in string literal")),
                c => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0;
        for _ in 0..4 {
            let Some(c) = self.peek() else { return Err("unexpected EOF".into()) };
            let d = (c as char).to_digit(16).ok_or_else(|| self.bad("in \\u hexadecimal character escape"))?;
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    fn array(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::tuple(items));
        }
        loop {
            items.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::tuple(items));
                }
                None => return Err("EOF".into()),
                Some(_) => return Err(self.bad("after array element")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut attrs = BTreeMap::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Value::object(attrs));
        }
        let mut first = true;
        loop {
            self.ws();
            match self.peek() {
                Some(b'"') => {}
                None => return Err("EOF".into()),
                // Go's decoder names no context right after `{` (tokenObjectStart).
                Some(_) => return Err(self.bad(if first { "" } else { "looking for beginning of object key string" })),
            }
            first = false;
            let k = self.string()?;
            self.ws();
            match self.peek() {
                Some(b':') => self.i += 1,
                None => return Err("EOF".into()),
                Some(_) => return Err(self.bad("after object key")),
            }
            let v = self.value()?;
            attrs.insert(k, v);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::object(attrs));
                }
                None => return Err("EOF".into()),
                Some(_) => return Err(self.bad("after object key:value pair")),
            }
        }
    }
}

/// cty's `csvdecode`: a list of objects, one attribute per header column, over Go's
/// encoding/csv reader (quotes, `""`, CRLF, blank lines skipped, equal field counts).
pub fn csv_decode(s: &str) -> Result<Value, String> {
    let records = csv_records(s)?;
    let mut it = records.into_iter();
    let Some((_, header)) = it.next() else { return Err("missing header line".into()) };
    let mut seen = std::collections::BTreeSet::new();
    for h in &header {
        if !seen.insert(h.clone()) {
            return Err(format!("duplicate column name {}", crate::dag::go_quote(h)));
        }
    }
    let ety = Type::Object(crate::util::sort::btree_map(header.iter().map(|h| (h.clone(), Type::String))));
    let mut rows = Vec::new();
    for (line, rec) in it {
        if rec.len() != header.len() {
            return Err(format!("CSV parse error on line {line}: wrong number of fields"));
        }
        rows.push(Value::object(crate::util::sort::btree_map(
            header.iter().cloned().zip(rec.into_iter().map(Value::string)),
        )));
    }
    Ok(Value::list(ety, rows))
}

/// Go's `csv.Reader.ReadAll` (comma `,`, no comments, strict quotes): each record with the
/// line it starts on.
fn csv_records(s: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        // Blank lines are skipped.
        if b[i] == b'\n' {
            i += 1;
            line += 1;
            continue;
        }
        if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
            line += 1;
            continue;
        }
        let start_line = line;
        let mut fields = Vec::new();
        loop {
            let mut field: Vec<u8> = Vec::new();
            if b.get(i) == Some(&b'"') {
                i += 1;
                loop {
                    match b.get(i) {
                        None => {
                            return Err(format!(
                                "CSV parse error on line {line}: extraneous or missing \" in quoted-field"
                            ))
                        }
                        Some(b'"') => {
                            if b.get(i + 1) == Some(&b'"') {
                                field.push(b'"');
                                i += 2;
                            } else {
                                i += 1;
                                break;
                            }
                        }
                        Some(&c) => {
                            if c == b'\n' {
                                line += 1;
                            }
                            if c == b'\r' && b.get(i + 1) == Some(&b'\n') {
                                i += 1;
                                continue;
                            }
                            field.push(c);
                            i += 1;
                        }
                    }
                }
                match b.get(i) {
                    None | Some(b',') | Some(b'\n') => {}
                    Some(b'\r') if matches!(b.get(i + 1), None | Some(b'\n')) => {}
                    Some(_) => {
                        return Err(format!("CSV parse error on line {line}: extraneous or missing \" in quoted-field"))
                    }
                }
            } else {
                while let Some(&c) = b.get(i) {
                    if c == b',' || c == b'\n' || (c == b'\r' && matches!(b.get(i + 1), None | Some(b'\n'))) {
                        break;
                    }
                    if c == b'"' {
                        return Err(format!("CSV parse error on line {line}: bare \" in non-quoted-field"));
                    }
                    field.push(c);
                    i += 1;
                }
            }
            fields.push(String::from_utf8_lossy(&field).into_owned());
            match b.get(i) {
                Some(b',') => i += 1,
                Some(b'\r') => {
                    i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                    line += 1;
                    break;
                }
                Some(b'\n') => {
                    i += 1;
                    line += 1;
                    break;
                }
                _ => break,
            }
        }
        out.push((start_line, fields));
    }
    Ok(out)
}
