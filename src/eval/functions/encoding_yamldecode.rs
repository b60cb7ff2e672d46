//! `yamldecode` as Terraform's go-cty-yaml 1.1 does it (the version in Terraform 1.15 and still
//! on its main branch). go-cty-yaml drives go-yaml v2's parser, a Go port of libyaml; we drive
//! libyaml itself (the `unsafe-libyaml` translation), so the events, their marks and the
//! scanner's and parser's problem texts are libyaml's. Where libyaml 0.2.5 and go-yaml differ
//! we do as go-yaml: only `%YAML 1.1`; no `\/` escape but a `\'` one; a plain scalar in a
//! flow collection ends at `?` (an error there) and keeps a `:` before `,`, `]` or `}`; and
//! go-yaml's "hexdecimal" spelling.
//!
//! On the events go-cty-yaml makes two passes, and so do we: the implied type (plain scalars
//! resolved by YAML 1.2's core rules plus YAML 1.1's yes/no/on/off, quoted and block scalars
//! strings), then the value, converted to that type (so a literal block `|-` holding `true`
//! is the string "true"). Mappings become objects (later keys win; a `<<` key merges one
//! mapping), sequences tuples, anchors and aliases share values, and more than one document
//! is an error. Error texts are go-cty-yaml's, with its positions: a parser problem's 0-based
//! line (a scanner problem's line + 1, column 1), an event's 0-based line and 1-based column,
//! and none at all for an event on the first line.

use crate::eval::convert::convert;
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};
use std::collections::{BTreeMap, HashMap};
use std::mem::MaybeUninit;
use unsafe_libyaml as unsafe_yaml;

const STR_TAG: &str = "tag:yaml.org,2002:str";
const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
const INT_TAG: &str = "tag:yaml.org,2002:int";
const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
const NULL_TAG: &str = "tag:yaml.org,2002:null";
const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
const MAP_TAG: &str = "tag:yaml.org,2002:map";
const SEQ_TAG: &str = "tag:yaml.org,2002:seq";

/// Nesting beyond the evaluator's own depth is refused (ours: go-yaml has no limit), as in
/// `jsondecode`.
const MAX_DEPTH: usize = crate::hcl::MAX_DEPTH;
/// Values produced by aliases beyond this are refused (ours: cty shares aliased values, we
/// copy them, and a few nested aliases can name billions of nodes).
const MAX_ALIAS_NODES: usize = 1_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ev {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias,
    Scalar,
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
}

impl Ev {
    fn name(self) -> &'static str {
        match self {
            Ev::StreamStart => "stream start",
            Ev::StreamEnd => "stream end",
            Ev::DocumentStart => "document start",
            Ev::DocumentEnd => "document end",
            Ev::Alias => "alias",
            Ev::Scalar => "scalar",
            Ev::SequenceStart => "sequence start",
            Ev::SequenceEnd => "sequence end",
            Ev::MappingStart => "mapping start",
            Ev::MappingEnd => "mapping end",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Quoted,
    Block,
}

struct YamlEvent {
    ev: Ev,
    tag: String,
    anchor: String,
    value: String,
    /// go-yaml's `implicit`: a plain scalar without tag, or one tagged `!`.
    implicit: bool,
    style: Style,
    line: u64,
    column: u64,
}

/// The whole event stream up to the parser's first problem (its go-cty-yaml message).
struct Events {
    list: Vec<YamlEvent>,
    error: Option<String>,
}

fn c_str(p: *const u8) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: libyaml's strings are NUL-terminated and live as long as their event.
    let bytes = unsafe { std::ffi::CStr::from_ptr(p as *const std::ffi::c_char) }.to_bytes();
    String::from_utf8_lossy(bytes).into_owned()
}

fn read_events(src: &str) -> Events {
    let mut input: Vec<u8> = if src.is_empty() { b"\n".to_vec() } else { src.as_bytes().to_vec() };
    // go-yaml takes `\'` in a double-quoted scalar, libyaml does not: where libyaml stops at
    // one, it becomes the equivalent `\x27` and the parse starts again (columns after it on
    // its line move by two).
    // In a flow collection libyaml also refuses a plain scalar's `:` before `,`, `?`, `[`, `]`,
    // `{` or `}`, which go-yaml keeps in the scalar: that `:` becomes a private-use character
    // absent from the input (one character, so no column moves) and is turned back after.
    let colon = (0xe000..0xf900).filter_map(char::from_u32).find(|c| !src.contains(*c)).unwrap_or('\u{f8ff}');
    let mut colon_bytes = [0u8; 4];
    let colon_bytes = colon.encode_utf8(&mut colon_bytes).as_bytes().to_vec();
    let mut replaced_colon = false;
    // Each retry parses again from the start: a few are cheap, thousands are not.
    let mut retries = 0;
    loop {
        retries += 1;
        match read_events_from(&input) {
            (events, Some(_)) if retries > 64 => return events,
            (_, Some((at, Unknown::Escape))) if input.get(at..at + 2) == Some(b"\\'") => {
                input.splice(at..at + 2, b"\\x27".iter().copied());
            }
            (_, Some((at, Unknown::Colon))) if input.get(at) == Some(&b':') => {
                input.splice(at..at + 1, colon_bytes.iter().copied());
                replaced_colon = true;
            }
            (mut events, _) => {
                if replaced_colon {
                    for e in &mut events.list {
                        for s in [&mut e.value, &mut e.anchor, &mut e.tag] {
                            if s.contains(colon) {
                                *s = s.replace(colon, ":");
                            }
                        }
                    }
                }
                return events;
            }
        }
    }
}

/// What libyaml stopped at that go-yaml takes.
enum Unknown {
    Escape,
    Colon,
}

/// The events of `input`, and where libyaml stopped at something go-yaml takes.
fn read_events_from(input: &[u8]) -> (Events, Option<(usize, Unknown)>) {
    let mut unknown_escape = None;
    let mut list = Vec::new();
    // The open collections: the closing bracket and start mark of a flow one, None for a block one.
    let mut open: Vec<Option<(u8, unsafe_yaml::yaml_mark_t)>> = Vec::new();
    let bom = if input.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let mut error = None;
    // SAFETY: the parser is initialized before use and deleted once; `input` outlives it; each
    // event is read before it is deleted.
    unsafe {
        let mut parser = Box::new(MaybeUninit::<unsafe_yaml::yaml_parser_t>::uninit());
        let p = parser.as_mut_ptr();
        if unsafe_yaml::yaml_parser_initialize(p).fail {
            return (Events { list, error: Some("failed to initialize YAML parser".into()) }, None);
        }
        unsafe_yaml::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
        loop {
            let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
            if unsafe_yaml::yaml_parser_parse(p, event.as_mut_ptr()).fail {
                let pp: &unsafe_yaml::yaml_parser_t = &*p;
                if pp.error == unsafe_yaml::YAML_SCANNER_ERROR {
                    let at = pp.problem_mark.index as usize + if input.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
                    unknown_escape = match c_str(pp.problem as *const u8).as_str() {
                        "found unknown escape character" => Some((at, Unknown::Escape)),
                        "found unexpected ':'" => Some((at, Unknown::Colon)),
                        _ => None,
                    };
                }
                error = Some(parser_error(pp));
                break;
            }
            let e = &*event.as_ptr();
            let ev = match e.type_ {
                unsafe_yaml::YAML_STREAM_START_EVENT => Ev::StreamStart,
                unsafe_yaml::YAML_STREAM_END_EVENT => Ev::StreamEnd,
                unsafe_yaml::YAML_DOCUMENT_START_EVENT => Ev::DocumentStart,
                unsafe_yaml::YAML_DOCUMENT_END_EVENT => Ev::DocumentEnd,
                unsafe_yaml::YAML_ALIAS_EVENT => Ev::Alias,
                unsafe_yaml::YAML_SCALAR_EVENT => Ev::Scalar,
                unsafe_yaml::YAML_SEQUENCE_START_EVENT => Ev::SequenceStart,
                unsafe_yaml::YAML_SEQUENCE_END_EVENT => Ev::SequenceEnd,
                unsafe_yaml::YAML_MAPPING_START_EVENT => Ev::MappingStart,
                _ => Ev::MappingEnd,
            };
            if ev == Ev::DocumentStart {
                // go-yaml accepts `%YAML 1.1` only; libyaml also takes 1.2.
                let v = e.data.document_start.version_directive;
                if !v.is_null() && ((*v).major, (*v).minor) != (1, 1) {
                    let m = e.start_mark;
                    let problem = "found incompatible YAML document";
                    error = Some(if m.line != 0 {
                        format!("on line {}, column {}: {problem}", m.line, m.column + 1)
                    } else {
                        problem.into()
                    });
                    unsafe_yaml::yaml_event_delete(event.as_mut_ptr());
                    break;
                }
            }
            let mut out = YamlEvent {
                ev,
                tag: String::new(),
                anchor: String::new(),
                value: String::new(),
                implicit: false,
                style: Style::Plain,
                line: e.start_mark.line,
                column: e.start_mark.column,
            };
            match ev {
                Ev::Alias => out.anchor = c_str(e.data.alias.anchor),
                Ev::Scalar => {
                    let s = e.data.scalar;
                    out.anchor = c_str(s.anchor);
                    out.tag = c_str(s.tag);
                    let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
                    out.value = String::from_utf8_lossy(bytes).into_owned();
                    out.implicit = s.plain_implicit;
                    if s.style == unsafe_yaml::YAML_DOUBLE_QUOTED_SCALAR_STYLE {
                        let bom = if input.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
                        let (from, to) = (e.start_mark.index as usize + bom, e.end_mark.index as usize + bom);
                        if let Some(at) = slash_escape(input, from, to) {
                            error = Some(scanner_error(input, at, "found unknown escape character"));
                            unsafe_yaml::yaml_event_delete(event.as_mut_ptr());
                            break;
                        }
                    }
                    out.style = match s.style {
                        unsafe_yaml::YAML_SINGLE_QUOTED_SCALAR_STYLE | unsafe_yaml::YAML_DOUBLE_QUOTED_SCALAR_STYLE => {
                            Style::Quoted
                        }
                        unsafe_yaml::YAML_PLAIN_SCALAR_STYLE => Style::Plain,
                        _ => Style::Block,
                    };
                }
                Ev::SequenceStart => {
                    out.anchor = c_str(e.data.sequence_start.anchor);
                    out.tag = c_str(e.data.sequence_start.tag);
                }
                Ev::MappingStart => {
                    out.anchor = c_str(e.data.mapping_start.anchor);
                    out.tag = c_str(e.data.mapping_start.tag);
                }
                _ => {}
            }
            match ev {
                Ev::SequenceStart => open.push(
                    (e.data.sequence_start.style == unsafe_yaml::YAML_FLOW_SEQUENCE_STYLE)
                        .then_some((b']', e.start_mark)),
                ),
                Ev::MappingStart => open.push(
                    (e.data.mapping_start.style == unsafe_yaml::YAML_FLOW_MAPPING_STYLE)
                        .then_some((b'}', e.start_mark)),
                ),
                Ev::SequenceEnd | Ev::MappingEnd => {
                    open.pop();
                }
                _ => {}
            }
            let flow_question = match (ev, open.last()) {
                (Ev::Scalar, Some(Some(flow))) if out.style == Style::Plain => {
                    let (from, to) =
                        (e.start_mark.index as usize + bom, (e.end_mark.index as usize + bom).min(input.len()));
                    input
                        .get(from..to)
                        .and_then(|t| t.iter().skip(1).position(|&b| b == b'?'))
                        .map(|q| (from + 1 + q, *flow))
                }
                _ => None,
            };
            unsafe_yaml::yaml_event_delete(event.as_mut_ptr());
            list.push(out);
            if let Some((q, (close, start))) = flow_question {
                // go-yaml ends a plain scalar at `?` in a flow collection, where `?` then opens a
                // key the collection does not expect; libyaml keeps it in the scalar.
                error = Some(flow_key_error(input, q, close, start));
                break;
            }
            if ev == Ev::StreamEnd {
                break;
            }
        }
        unsafe_yaml::yaml_parser_delete(p);
    }
    (Events { list, error }, unknown_escape)
}

/// Where a double-quoted scalar in `input[from..to]` escapes `/`: libyaml takes `\/` (YAML
/// 1.2), go-yaml's scanner does not.
fn slash_escape(input: &[u8], from: usize, to: usize) -> Option<usize> {
    let text = input.get(from..to.min(input.len()))?;
    let mut i = text.iter().position(|&b| b == b'"')? + 1;
    while i < text.len() {
        match text[i] {
            b'"' => return None,
            b'\\' if text.get(i + 1) == Some(&b'/') => return Some(from + i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// A scanner problem at byte `at`, placed as go-cty-yaml places them: the next line, column 1,
/// and no place at all on the first line.
fn scanner_error(input: &[u8], at: usize, problem: &str) -> String {
    let line = input[..at].iter().filter(|&&b| b == b'\n').count();
    if line == 0 {
        problem.to_string()
    } else {
        format!("on line {}, column 1: {problem}", line + 1)
    }
}

/// go-yaml's parser error at a `?` (byte `q`) that ends a plain scalar in a flow collection
/// started at `start` and closed by `close`, placed as go-cty-yaml places parser errors.
fn flow_key_error(input: &[u8], q: usize, close: u8, start: unsafe_yaml::yaml_mark_t) -> String {
    let problem = format!("did not find expected ',' or '{}'", close as char);
    let line = input[..q].iter().filter(|&&b| b == b'\n').count();
    let line_start = input[..q].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&input[line_start..q]).chars().count();
    if line != 0 {
        format!("on line {line}, column {}: {problem}", column + 1)
    } else if start.line != 0 {
        format!("on line {}, column {}: {problem}", start.line, start.column + 1)
    } else {
        problem
    }
}

/// go-cty-yaml's `parserError`.
fn parser_error(p: &unsafe_yaml::yaml_parser_t) -> String {
    let mut problem =
        if p.problem.is_null() { "invalid YAML syntax".to_string() } else { c_str(p.problem as *const u8) };
    if problem == "did not find expected hexadecimal number" {
        // go-yaml's spelling.
        problem = "did not find expected hexdecimal number".into();
    }
    if p.problem_mark.line != 0 {
        let (line, column) = if p.error == unsafe_yaml::YAML_SCANNER_ERROR {
            (p.problem_mark.line + 1, 0)
        } else {
            (p.problem_mark.line, p.problem_mark.column)
        };
        format!("on line {line}, column {}: {problem}", column + 1)
    } else if p.context_mark.line != 0 {
        format!("on line {}, column {}: {problem}", p.context_mark.line, p.context_mark.column + 1)
    } else {
        problem
    }
}

/// go-cty-yaml's `parseEventErrorf`: no position for an event on the first line.
fn at(e: &YamlEvent, msg: impl Into<String>) -> String {
    let msg = msg.into();
    if e.line == 0 {
        msg
    } else {
        format!("on line {}, column {}: {msg}", e.line, e.column + 1)
    }
}

use crate::addrs::go_quote;

/// The implied type and the value of a YAML document, as `yamldecode` returns them.
pub fn decode(src: &str) -> Result<(Type, Value), String> {
    let events = read_events(src);
    let ty = YamlReader::new(&events).document(|w| w.implied_type())?;
    let v = YamlReader::new(&events).document(|w| w.value())?;
    let v = convert(&v, &ty)?;
    Ok((ty, v))
}

struct YamlReader<'a> {
    events: &'a Events,
    next: usize,
    depth: usize,
    pending: HashMap<String, usize>,
    types: HashMap<String, Type>,
    values: HashMap<String, Value>,
    alias_nodes: usize,
}

impl<'a> YamlReader<'a> {
    fn new(events: &'a Events) -> YamlReader<'a> {
        YamlReader {
            events,
            next: 0,
            depth: 0,
            pending: HashMap::new(),
            types: HashMap::new(),
            values: HashMap::new(),
            alias_nodes: 0,
        }
    }

    fn event(&mut self) -> Result<&'a YamlEvent, String> {
        let events: &'a Events = self.events;
        match events.list.get(self.next) {
            Some(e) => {
                self.next += 1;
                Ok(e)
            }
            None => Err(events.error.clone().unwrap_or_else(|| "invalid YAML syntax".into())),
        }
    }

    fn document<T>(mut self, body: impl FnOnce(&mut Self) -> Result<T, String>) -> Result<T, String> {
        let e = self.event()?;
        if e.ev != Ev::StreamStart {
            return Err(at(e, "missing stream start token"));
        }
        let e = self.event()?;
        if e.ev != Ev::DocumentStart {
            return Err(at(e, "missing start of document"));
        }
        let out = body(&mut self)?;
        let e = self.event()?;
        if e.ev == Ev::DocumentStart {
            return Err(at(e, "only a single document is allowed"));
        }
        if e.ev != Ev::DocumentEnd {
            return Err(at(e, format!("unexpected extra content ({}) after value", e.ev.name())));
        }
        let e = self.event()?;
        if e.ev != Ev::StreamEnd {
            return Err(at(e, "unexpected extra content after value"));
        }
        Ok(out)
    }

    fn begin_anchor(&mut self, name: &str) {
        if !name.is_empty() {
            *self.pending.entry(name.to_string()).or_default() += 1;
        }
    }

    fn end_anchor(&mut self, name: &str) {
        if name.is_empty() {
            return;
        }
        if let Some(n) = self.pending.get_mut(name) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(name);
            }
        }
    }

    fn check_alias(&self, e: &YamlEvent, known: bool) -> Result<(), String> {
        if self.pending.contains_key(&e.anchor) {
            return Err(at(
                e,
                format!("cannot refer to anchor {} from inside its own definition", go_quote(&e.anchor)),
            ));
        }
        if !known {
            return Err(at(e, format!("reference to undefined anchor {}", go_quote(&e.anchor))));
        }
        Ok(())
    }

    fn count_alias(&mut self, e: &YamlEvent, nodes: usize) -> Result<(), String> {
        self.alias_nodes += nodes;
        if self.alias_nodes > MAX_ALIAS_NODES {
            return Err(at(e, format!("aliases in the YAML document expand to more than {MAX_ALIAS_NODES} values, which is more than tfgraph supports")));
        }
        Ok(())
    }

    fn nest(&mut self, e: &YamlEvent) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(at(
                e,
                format!(
                    "the YAML document nests more than {MAX_DEPTH} levels deep, which is more than tfgraph supports"
                ),
            ));
        }
        Ok(())
    }

    fn implied_type(&mut self) -> Result<Type, String> {
        let e = self.event()?;
        self.implied_type_of(e)
    }

    fn implied_type_of(&mut self, e: &'a YamlEvent) -> Result<Type, String> {
        match e.ev {
            Ev::Scalar => {
                self.begin_anchor(&e.anchor);
                let ty = if e.tag.is_empty() && !e.implicit {
                    Type::String
                } else {
                    resolve_scalar(&e.tag, &e.value, e.style).map_err(|m| at(e, m))?.ty()
                };
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.types.insert(e.anchor.clone(), ty.clone());
                }
                Ok(ty)
            }
            Ev::Alias => {
                let ty = self.types.get(&e.anchor);
                self.check_alias(e, ty.is_some())?;
                let ty = ty.cloned().unwrap_or(Type::Dynamic);
                self.count_alias(e, type_nodes(&ty))?;
                Ok(ty)
            }
            Ev::MappingStart => {
                if !e.tag.is_empty() && e.tag != MAP_TAG {
                    return Err(at(e, format!("can't interpret mapping as {}", e.tag)));
                }
                self.nest(e)?;
                self.begin_anchor(&e.anchor);
                let mut attrs = BTreeMap::new();
                loop {
                    let k = self.event()?;
                    if k.ev == Ev::MappingEnd {
                        break;
                    }
                    if is_merge_key(k) {
                        match self.implied_type()? {
                            Type::Object(m) => attrs.extend(m),
                            t => return Err(at(k, format!("cannot merge {} into mapping", t.friendly_name()))),
                        }
                        continue;
                    }
                    let key = self.key(k)?;
                    let vt = self.implied_type()?;
                    attrs.insert(key, vt);
                }
                let ty = Type::Object(attrs);
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.types.insert(e.anchor.clone(), ty.clone());
                }
                self.depth -= 1;
                Ok(ty)
            }
            Ev::SequenceStart => {
                if !e.tag.is_empty() && e.tag != SEQ_TAG {
                    return Err(at(e, format!("can't interpret sequence as {}", e.tag)));
                }
                self.nest(e)?;
                self.begin_anchor(&e.anchor);
                let mut items = Vec::new();
                loop {
                    let n = self.event()?;
                    if n.ev == Ev::SequenceEnd {
                        break;
                    }
                    items.push(self.implied_type_of(n)?);
                }
                let ty = Type::Tuple(items);
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.types.insert(e.anchor.clone(), ty.clone());
                }
                self.depth -= 1;
                Ok(ty)
            }
            _ => Err(self.unexpected(e)),
        }
    }

    fn unexpected(&self, e: &YamlEvent) -> String {
        match e.ev {
            Ev::DocumentStart => at(e, "only a single document is allowed"),
            Ev::StreamEnd => at(e, "expecting value but found end of stream"),
            ev => at(e, format!("unexpected parser event {}", ev.name())),
        }
    }

    /// A mapping key: a scalar whose value converts to a known, non-null string.
    fn key(&self, k: &YamlEvent) -> Result<String, String> {
        if k.ev != Ev::Scalar {
            return Err(at(k, "only strings are allowed as mapping keys"));
        }
        let kv = resolve_scalar(&k.tag, &k.value, k.style)?;
        let kv = convert(&kv, &Type::String).map_err(|_| at(k, "only strings are allowed as mapping keys"))?;
        match kv.as_str() {
            Some(s) => Ok(s.to_string()),
            None => Err(at(k, "mapping key cannot be null")),
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        let e = self.event()?;
        self.value_of(e)
    }

    fn value_of(&mut self, e: &'a YamlEvent) -> Result<Value, String> {
        match e.ev {
            Ev::Scalar => {
                self.begin_anchor(&e.anchor);
                let v = resolve_scalar(&e.tag, &e.value, e.style).map_err(|m| at(e, m))?;
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.values.insert(e.anchor.clone(), v.clone());
                }
                Ok(v)
            }
            Ev::Alias => {
                let v = self.values.get(&e.anchor).cloned();
                self.check_alias(e, v.is_some())?;
                let v = v.unwrap_or_else(|| Value::null(Type::Dynamic));
                self.count_alias(e, node_count(&v))?;
                Ok(v)
            }
            Ev::MappingStart => {
                if !e.tag.is_empty() && e.tag != MAP_TAG {
                    return Err(at(e, format!("can't interpret mapping as {}", e.tag)));
                }
                self.nest(e)?;
                self.begin_anchor(&e.anchor);
                let mut attrs = BTreeMap::new();
                loop {
                    let k = self.event()?;
                    if k.ev == Ev::MappingEnd {
                        break;
                    }
                    if is_merge_key(k) {
                        let v = self.value()?;
                        match v.kind {
                            Kind::Object(m) | Kind::Map(_, m) => attrs.extend(m),
                            _ => return Err(at(k, format!("cannot merge {} into mapping", v.ty().friendly_name()))),
                        }
                        continue;
                    }
                    let key = self.key(k)?;
                    let v = self.value()?;
                    attrs.insert(key, v);
                }
                let v = Value::object(attrs);
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.values.insert(e.anchor.clone(), v.clone());
                }
                self.depth -= 1;
                Ok(v)
            }
            Ev::SequenceStart => {
                if !e.tag.is_empty() && e.tag != SEQ_TAG {
                    return Err(at(e, format!("can't interpret sequence as {}", e.tag)));
                }
                self.nest(e)?;
                self.begin_anchor(&e.anchor);
                let mut items = Vec::new();
                loop {
                    let n = self.event()?;
                    if n.ev == Ev::SequenceEnd {
                        break;
                    }
                    items.push(self.value_of(n)?);
                }
                let v = Value::tuple(items);
                self.end_anchor(&e.anchor);
                if !e.anchor.is_empty() {
                    self.values.insert(e.anchor.clone(), v.clone());
                }
                self.depth -= 1;
                Ok(v)
            }
            _ => Err(self.unexpected(e)),
        }
    }
}

fn node_count(v: &Value) -> usize {
    match &v.kind {
        Kind::Tuple(items) | Kind::List(_, items) => 1 + items.iter().map(node_count).sum::<usize>(),
        Kind::Object(m) | Kind::Map(_, m) => 1 + m.values().map(node_count).sum::<usize>(),
        _ => 1,
    }
}

/// go-cty-yaml 1.1 resolves an untagged `<<`, quoted or not, to its merge marker: a mapping
/// key that merges the mapping after it, a plain string anywhere else.
fn type_nodes(t: &Type) -> usize {
    match t {
        Type::Tuple(items) => 1 + items.iter().map(type_nodes).sum::<usize>(),
        Type::Object(m) => 1 + m.values().map(type_nodes).sum::<usize>(),
        _ => 1,
    }
}

fn is_merge_key(e: &YamlEvent) -> bool {
    e.ev == Ev::Scalar && e.tag.is_empty() && e.value == "<<"
}

fn resolvable(tag: &str) -> bool {
    matches!(tag, "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG | BINARY_TAG)
}

/// The special plain scalars (go-cty-yaml's resolve map), with whether each is a bool.
fn special(src: &str) -> Option<(Value, bool)> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => (Value::bool(true), true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Value::bool(false), true)
        }
        "" | "~" | "null" | "Null" | "NULL" => (Value::null(Type::Dynamic), false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => (Value::number(Number::Inf { neg: false }), false),
        "-.inf" | "-.Inf" | "-.INF" => (Value::number(Number::Inf { neg: true }), false),
        _ => return None,
    })
}

/// YAML 1.2's core schema integers: decimal with an optional sign, `0o` octal, `0x` hex.
fn is_int_literal(s: &str) -> bool {
    let digits = |t: &str, f: fn(&u8) -> bool| !t.is_empty() && t.as_bytes().iter().all(f);
    if let Some(t) = s.strip_prefix("0o") {
        return digits(t, |b| (b'0'..=b'7').contains(b));
    }
    if let Some(t) = s.strip_prefix("0x") {
        return digits(t, u8::is_ascii_hexdigit);
    }
    digits(s.strip_prefix(['-', '+']).unwrap_or(s), u8::is_ascii_digit)
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// go-cty-yaml's `resolveScalar`.
fn resolve_scalar(tag: &str, src: &str, style: Style) -> Result<Value, String> {
    if !resolvable(tag) {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let mut tag = tag;
    let hint = match src.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    };
    if hint != 0 && tag != STR_TAG && tag != BINARY_TAG {
        if style == Style::Quoted {
            return Ok(Value::string(src));
        }
        if let Some((v, _)) = special(src) {
            return Ok(v);
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            b'.' => {
                if let Some(n) = go_parse_float(src) {
                    return Ok(Value::number(n));
                }
            }
            b'D' | b'S' => {
                if tag.is_empty() || tag == TIMESTAMP_TAG {
                    if let Some(t) = parse_timestamp(src) {
                        return Ok(Value::string(t));
                    }
                }
                if is_int_literal(src) {
                    tag = INT_TAG;
                } else if is_float_literal(src) {
                    tag = FLOAT_TAG;
                }
            }
            _ => {}
        }
    }
    match tag {
        STR_TAG | BINARY_TAG => {
            if tag == BINARY_TAG && super::encoding::base64_decode_go(src.as_bytes()).is_err() {
                return Err(format!("cannot parse {} as {tag}: not valid base64", go_quote(src)));
            }
            Ok(Value::string(src))
        }
        BOOL_TAG => match special(src) {
            Some((v, true)) => Ok(v),
            _ => Err(format!("cannot parse {} as {tag}", go_quote(src))),
        },
        FLOAT_TAG | INT_TAG => {
            let plain = src.replace('_', "");
            go_parse_float(&plain)
                .or_else(|| go_parse_int(&plain))
                .map(Value::number)
                .ok_or_else(|| format!("cannot parse {} as {tag}", go_quote(src)))
        }
        TIMESTAMP_TAG => {
            parse_timestamp(src).map(Value::string).ok_or_else(|| format!("cannot parse {} as {tag}", go_quote(src)))
        }
        NULL_TAG => Ok(Value::null(Type::Dynamic)),
        _ => Ok(Value::string(src)),
    }
}

/// cty's `ParseNumberVal`: Go's `big.ParseFloat(s, 10, 512, ToNearestEven)`, which also takes
/// `Inf`/`inf` with a sign and no underscores.
fn go_parse_float(s: &str) -> Option<Number> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty() || body.contains('_') || body.starts_with(['+', '-']) {
        return None;
    }
    if body.eq_ignore_ascii_case("infinity") {
        return None;
    }
    if body == "Inf" || body == "inf" {
        return Some(Number::Inf { neg: s.starts_with('-') });
    }
    if !body.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    Number::parse(s)
}

/// Go's `strconv.ParseInt(s, 0, 64)` then `ParseUint(s, 0, 64)`: base prefixes `0x`, `0o`,
/// `0b`, a leading `0` for octal, underscores between digits only with a prefix.
fn go_parse_int(s: &str) -> Option<Number> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let m = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if m > 1 << 63 {
            return None;
        }
        Some(Number::from_i64((m as i128).wrapping_neg() as i64))
    } else {
        Some(Number::from_u64(m))
    }
}

/// go-cty-yaml's `parseTimestamp`: Go's `time.Parse` with `2006-1-2T15:4:5.999999999Z07:00`
/// (also with a lower-case `t`), `2006-1-2 15:4:5.999999999` and `2006-1-2`, formatted as
/// RFC 3339 (whole seconds).
fn parse_timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    let mut i = 5;
    // 1 or 2 digits, as Go's non-padded layout elements read them.
    let num = |i: &mut usize| -> Option<u32> {
        let start = *i;
        while *i < b.len() && *i - start < 2 && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == start {
            return None;
        }
        s[start..*i].parse().ok()
    };
    let year: i64 = s[..4].parse().ok()?;
    let month = num(&mut i)?;
    if b.get(i) != Some(&b'-') {
        return None;
    }
    i += 1;
    let day = num(&mut i)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize - 1];
    if day < 1 || day > days {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    if i == b.len() {
        return Some(format!("{date}T00:00:00Z"));
    }
    let zoned = match b[i] {
        b'T' | b't' => true,
        b' ' => false,
        _ => return None,
    };
    i += 1;
    let hour = num(&mut i)?;
    if b.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    let min = num(&mut i)?;
    if b.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    let sec = num(&mut i)?;
    if hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    // Fractional seconds: a '.' (or ',') and digits.
    if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    let time = format!("{hour:02}:{min:02}:{sec:02}");
    if !zoned {
        return (i == b.len()).then(|| format!("{date}T{time}Z"));
    }
    match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => Some(format!("{date}T{time}Z")),
        Some(&sign @ (b'+' | b'-')) => {
            let z = &s[i + 1..];
            let zb = z.as_bytes();
            if zb.len() != 5 || zb[2] != b':' || !zb[..2].iter().chain(&zb[3..]).all(u8::is_ascii_digit) {
                return None;
            }
            let (zh, zm): (u32, u32) = (z[..2].parse().ok()?, z[3..].parse().ok()?);
            if zh > 24 || zm > 60 {
                return None;
            }
            if zh == 0 && zm == 0 {
                return Some(format!("{date}T{time}Z"));
            }
            Some(format!("{date}T{time}{}{z}", sign as char))
        }
        _ => None,
    }
}
