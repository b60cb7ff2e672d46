//! `.tftest.json` files: HCL's JSON syntax for test files. The JSON is rewritten as the
//! native syntax it stands for (blocks by the test file's schema, strings as templates,
//! `command` / `mode` / `override_during` keywords and `target` / `expect_failures` /
//! `providers` references from their strings) and read by [`super::file`], every range mapped
//! back to the JSON: diagnostics and snippets point into the `.tftest.json` file. Mock data
//! files (`.tfmock.json`) are read the same way.

use super::file::{parse_mapped, parse_mock_mapped, MockProvider, TestFile};
use crate::config::json::{JKind, JProp, JValue};
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use std::ops::Range;

/// Reads one `.tftest.json` file.
pub fn parse(path: &str, text: &str) -> (TestFile, Diagnostics) {
    let native = match rewrite(path, text, Kind::File) {
        Ok(n) => n,
        Err(d) => return (TestFile { path: path.to_string(), ..Default::default() }, d),
    };
    let map = |r: Range<usize>| map_span(&native.spans, r);
    let (file, diags) = parse_mapped(path, &native.text, text, &map);
    let mut all = native.diags;
    all.extend(diags);
    (file, all)
}

/// Reads one `.tfmock.json` file into `m`, as [`super::file::parse_mock_file`] reads a
/// `.tfmock.hcl` one: its root holds what a `mock_provider` block's body holds.
pub fn parse_mock(path: &str, text: &str, m: &mut MockProvider) -> Diagnostics {
    let native = match rewrite(path, text, Kind::MockProvider) {
        Ok(n) => n,
        Err(d) => return d,
    };
    let map = |r: Range<usize>| map_span(&native.spans, r);
    let diags = parse_mock_mapped(path, &native.text, text, &map, m);
    let mut all = native.diags;
    all.extend(diags);
    all
}

/// The native text a JSON file stands for, with where each piece came from.
struct Native {
    text: String,
    spans: Vec<Span>,
    /// What the JSON itself gets wrong (a block that is not an object, ...).
    diags: Diagnostics,
}

/// Rewrites a JSON file whose root is the body of a `root` block; Err: the JSON does not parse.
fn rewrite(path: &str, text: &str, root: Kind) -> Result<Native, Diagnostics> {
    let value = match crate::config::json::parse(text) {
        Ok(v) => v,
        Err(e) => {
            let src = SourceFile::new(path, text);
            let mut d = Diagnostics::new();
            // An object left open at the root leaves no root object either.
            let root_open = e.summary == "Unclosed object" && text.len() - text.trim_start().len() == e.span.start;
            let at = e.span.clone();
            d.push(Diagnostic::error(e.summary, e.detail).with_range(src.range(e.span)));
            if root_open {
                d.push(
                    Diagnostic::error(
                        "Root value must be object",
                        "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
                    )
                    .with_range(src.range(at)),
                );
            }
            return Err(d);
        }
    };
    let mut w = Writer { json: text, out: String::new(), spans: Vec::new(), diags: Diagnostics::new(), path };
    match &value.kind {
        JKind::Object(props) => w.body(props, root),
        _ => w.error(
            "Incorrect JSON value type",
            "A JSON object is required here, setting the arguments for this block.",
            &value.span,
        ),
    }
    Ok(Native { text: w.out, spans: w.spans, diags: w.diags })
}

/// One piece of the native text and the JSON it came from; `exact`: byte for byte the same;
/// `bytes`: the file offset of each native byte (a string rewritten as a native template).
struct Span {
    native: Range<usize>,
    json: Range<usize>,
    exact: bool,
    bytes: Option<Vec<usize>>,
}

fn map_span(spans: &[Span], r: Range<usize>) -> Range<usize> {
    let at = |pos: usize, end: bool| -> Option<usize> {
        let probe = if end && pos > 0 { pos - 1 } else { pos };
        let s = spans.iter().filter(|s| s.native.contains(&probe)).min_by_key(|s| s.native.len())?;
        if let Some(bytes) = &s.bytes {
            let b = bytes.get(probe - s.native.start).copied().unwrap_or(s.json.start);
            return Some(if end { b + 1 } else { b });
        }
        Some(if s.exact {
            (s.json.start + (pos - s.native.start)).min(s.json.end)
        } else if end {
            s.json.end
        } else {
            s.json.start
        })
    };
    let start = at(r.start, false).unwrap_or(0);
    let end = if r.end > r.start { at(r.end, true).unwrap_or(start) } else { start };
    start..end.max(start)
}

/// Which block a JSON object is the body of (its nested block types and special arguments).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Run,
    /// A `mock_provider` block, or the root of a `.tfmock.json` file.
    MockProvider,
    Variable,
    /// A block whose contents are all arguments.
    Plain,
}

impl Kind {
    /// The nested block types: name, whether labelled, and the kind of their bodies.
    fn block(self, name: &str) -> Option<(bool, Kind)> {
        match (self, name) {
            (Kind::File, "run") => Some((true, Kind::Run)),
            (Kind::File, "mock_provider") => Some((true, Kind::MockProvider)),
            (Kind::File, "provider") => Some((true, Kind::Plain)),
            (Kind::File, "variable") => Some((true, Kind::Variable)),
            (Kind::File, "variables" | "test") => Some((false, Kind::Plain)),
            (Kind::Run, "assert" | "variables" | "plan_options" | "module") => Some((false, Kind::Plain)),
            (Kind::MockProvider, "mock_resource" | "mock_data") => Some((true, Kind::Plain)),
            (Kind::Variable, "validation") => Some((false, Kind::Plain)),
            (Kind::File | Kind::Run | Kind::MockProvider, "override_resource" | "override_data") => {
                Some((false, Kind::Plain))
            }
            // A mock provider cannot override a module (`configs/mock_provider.go`).
            (Kind::File | Kind::Run, "override_module") => Some((false, Kind::Plain)),
            _ => None,
        }
    }
}

/// How an argument's JSON value is read.
enum Arg {
    /// A bare keyword from a string (`"plan"`).
    Keyword,
    /// A reference from a string (`"mock_resource.a"`).
    Reference,
    /// A list of references from strings.
    References,
    /// An object of references (`providers`).
    ReferenceMap,
    /// A type expression from a string (`variable`'s `type`).
    TypeExpr,
    /// Any expression: strings are templates.
    Expr,
}

fn arg_kind(block: Kind, name: &str, in_plan_options: bool) -> Arg {
    match name {
        "command" | "mode" | "override_during" => Arg::Keyword,
        "expect_failures" | "replace" => Arg::References,
        "target" if in_plan_options => Arg::References,
        "target" => Arg::Reference,
        "providers" if block == Kind::Run => Arg::ReferenceMap,
        "type" if block == Kind::Variable => Arg::TypeExpr,
        _ => Arg::Expr,
    }
}

struct Writer<'j> {
    json: &'j str,
    out: String,
    spans: Vec<Span>,
    diags: Diagnostics,
    path: &'j str,
}

impl Writer<'_> {
    fn error(&mut self, summary: &str, detail: &str, at: &Range<usize>) {
        let src = SourceFile::new(self.path, self.json);
        self.diags.push(Diagnostic::error(summary, detail).with_range(src.range(at.clone())));
    }

    /// Writes `native`, standing for `json`.
    fn put(&mut self, native: &str, json: Range<usize>, exact: bool) {
        let start = self.out.len();
        self.out.push_str(native);
        self.spans.push(Span { native: start..self.out.len(), json, exact, bytes: None });
    }

    /// A JSON string's raw text when HCL reads the same escapes the same way.
    fn raw_string(&self, v: &JValue) -> Option<&str> {
        let raw = &self.json[v.span.clone()];
        (!raw.contains("\\/") && !raw.contains("\\b") && !raw.contains("\\f")).then_some(raw)
    }

    fn body(&mut self, props: &[JProp], kind: Kind) {
        self.body_in(props, kind, false)
    }

    fn body_in(&mut self, props: &[JProp], kind: Kind, plan_options: bool) {
        for p in props {
            let name = p.name.value.as_str();
            if name == "//" {
                continue;
            }
            match kind.block(name) {
                Some((labelled, inner)) => self.blocks(p, labelled, inner),
                None => {
                    self.put(name, p.name.span.clone(), false);
                    self.out.push_str(" = ");
                    let arg = arg_kind(kind, name, plan_options);
                    self.value(&p.value, &arg);
                    self.out.push('\n');
                }
            }
        }
    }

    /// The blocks of one block type: an object (one block) or an array of them; labelled
    /// types nest one object level per label.
    fn blocks(&mut self, p: &JProp, labelled: bool, inner: Kind) {
        let bodies: Vec<&JValue> = match &p.value.kind {
            JKind::Array(items) if !labelled => items.iter().collect(),
            _ => vec![&p.value],
        };
        for b in bodies {
            if labelled {
                let Some(labels) = b.as_object() else {
                    self.error(
                        "Incorrect JSON value type",
                        "A JSON object is required here, whose keys are block labels.",
                        &b.span,
                    );
                    continue;
                };
                for l in labels {
                    let items: Vec<&JValue> = match &l.value.kind {
                        JKind::Array(items) => items.iter().collect(),
                        _ => vec![&l.value],
                    };
                    for body in items {
                        self.put(&p.name.value, l.name.span.clone(), false);
                        self.out.push(' ');
                        let label = format!("{:?}", l.name.value);
                        self.put(&label, l.name.span.clone(), false);
                        self.open_body(body, inner, &p.name.value);
                    }
                }
            } else {
                self.put(&p.name.value, p.name.span.clone(), false);
                self.open_body(b, inner, &p.name.value);
            }
        }
    }

    fn open_body(&mut self, body: &JValue, kind: Kind, block_name: &str) {
        self.out.push_str(" {\n");
        match body.as_object() {
            Some(props) => self.body_in(props, kind, block_name == "plan_options"),
            None => self.error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                &body.span,
            ),
        }
        self.out.push_str("}\n");
    }

    /// A string's contents as bare native text (a keyword, a reference, a type).
    fn bare(&mut self, v: &JValue) {
        match &v.kind {
            JKind::String(s) => {
                let exact = self.raw_string(v).is_some_and(|r| !r.contains('\\'));
                let inner = s.span.start + 1..s.span.end.saturating_sub(1);
                self.put(&s.value.clone(), inner, exact);
            }
            // Not a string: the expression it is, which the reader then refuses as HCL's JSON
            // syntax does ("A single static variable reference is required", ...).
            _ => self.expr(v),
        }
    }

    fn value(&mut self, v: &JValue, arg: &Arg) {
        match arg {
            Arg::Keyword | Arg::Reference | Arg::TypeExpr => self.bare(v),
            Arg::References => match &v.kind {
                JKind::Array(items) => {
                    let start = self.out.len();
                    self.out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.bare(item);
                    }
                    self.out.push(']');
                    self.spans.push(Span {
                        native: start..self.out.len(),
                        json: v.span.clone(),
                        exact: false,
                        bytes: None,
                    });
                }
                _ => self.expr(v),
            },
            Arg::ReferenceMap => match &v.kind {
                JKind::Object(props) => {
                    let start = self.out.len();
                    self.out.push_str("{\n");
                    for p in props {
                        let exact = !self.json[p.name.span.clone()].contains('\\');
                        let inner = p.name.span.start + 1..p.name.span.end.saturating_sub(1);
                        self.put(&p.name.value, inner, exact);
                        self.out.push_str(" = ");
                        self.bare(&p.value);
                        self.out.push('\n');
                    }
                    self.out.push('}');
                    self.spans.push(Span {
                        native: start..self.out.len(),
                        json: v.span.clone(),
                        exact: false,
                        bytes: None,
                    });
                }
                _ => self.expr(v),
            },
            Arg::Expr => self.expr(v),
        }
    }

    /// Any JSON value as the native expression HCL's JSON syntax reads it as.
    fn expr(&mut self, v: &JValue) {
        match &v.kind {
            JKind::Null => self.put("null", v.span.clone(), false),
            JKind::Bool(b) => self.put(if *b { "true" } else { "false" }, v.span.clone(), false),
            JKind::Number(n) => self.put(&n.clone(), v.span.clone(), true),
            JKind::String(s) => {
                let (quoted, bytes) = template(s);
                let start = self.out.len();
                self.out.push_str(&quoted);
                self.spans.push(Span {
                    native: start..self.out.len(),
                    json: v.span.clone(),
                    exact: false,
                    bytes: Some(bytes),
                });
            }
            JKind::Array(items) => {
                let start = self.out.len();
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(item);
                }
                self.out.push(']');
                self.spans.push(Span {
                    native: start..self.out.len(),
                    json: v.span.clone(),
                    exact: false,
                    bytes: None,
                });
            }
            JKind::Object(props) => {
                let start = self.out.len();
                self.out.push_str("{\n");
                for p in props {
                    let quoted = quote(&p.name.value);
                    self.put(&quoted, p.name.span.clone(), false);
                    self.out.push_str(" = ");
                    self.expr(&p.value);
                    self.out.push('\n');
                }
                self.out.push('}');
                self.spans.push(Span {
                    native: start..self.out.len(),
                    json: v.span.clone(),
                    exact: false,
                    bytes: None,
                });
            }
        }
    }
}

/// A JSON string as a native template: its literal parts escaped, its `${…}` and `%{…}`
/// sequences as written; with the file offset of each byte written.
fn template(s: &crate::config::json::JStr) -> (String, Vec<usize>) {
    let v = &s.value;
    let mut out = String::from("\"");
    let mut bytes = vec![s.span.start];
    let push = |out: &mut String, bytes: &mut Vec<usize>, text: &str, at: usize| {
        out.push_str(text);
        bytes.extend(std::iter::repeat_n(at, text.len()));
    };
    let b = v.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    let mut in_str = false;
    while i < b.len() {
        let c = v[i..].chars().next().unwrap_or(' ');
        let len = c.len_utf8();
        let at = s.file_offset(i);
        if depth == 0 {
            let two = v.get(i..i + 3).unwrap_or("");
            if two == "$${" || two == "%%{" {
                push(&mut out, &mut bytes, two, at);
                i += 3;
                continue;
            }
            if matches!(v.get(i..i + 2), Some("${") | Some("%{")) {
                push(&mut out, &mut bytes, &v[i..i + 2], at);
                depth = 1;
                i += 2;
                continue;
            }
            let text = match c {
                '"' => "\\\"".to_string(),
                '\\' => "\\\\".to_string(),
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                c => c.to_string(),
            };
            push(&mut out, &mut bytes, &text, at);
            i += len;
            continue;
        }
        // Inside an interpolation: as written, keeping count of braces outside strings.
        if in_str {
            if c == '\\' && i + 1 < b.len() {
                let n = v[i + 1..].chars().next().map(char::len_utf8).unwrap_or(1);
                push(&mut out, &mut bytes, &v[i..i + 1 + n], at);
                i += 1 + n;
                continue;
            }
            if c == '"' {
                in_str = false;
            }
        } else {
            match c {
                '"' => in_str = true,
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        push(&mut out, &mut bytes, &v[i..i + len], at);
        i += len;
    }
    out.push('"');
    bytes.push(s.span.end.saturating_sub(1));
    (out, bytes)
}

/// A native string literal of `s` (templates inside kept).
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
