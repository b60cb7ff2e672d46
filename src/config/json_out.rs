//! The loading result as JSON text, written directly: byte for byte what `serde_json` writes for
//! the derived `Serialize` of the model (field order, renames, `null`s, escapes), only faster.
//!
//! `loadConfig` returns this text to JavaScript, where one `JSON.parse` builds the objects. For a
//! large configuration it is tens of megabytes (a reference with its range is ~200 bytes), and
//! the generic serializer spent most of its time on per-key and per-punctuation calls; here each
//! object's keys and punctuation are single literal copies into one buffer, strings without
//! characters to escape are copied whole, and subjects are written without formatting machinery.
//!
//! The derives on the model stay the definition of the shape: `tests/corpus.rs` checks, for
//! every corpus root and fixture, that this writer and `serde_json` produce the same text, so a
//! field added to the model and not here fails there.

use super::model::*;
use crate::addrs::{ModulePath, ResourceMode, Subject};
use crate::diag::{Diagnostic, Diagnostics, Pos, Severity, Snippet, SourceRange};

/// `{"config":…,"diagnostics":[…]}`, the text `loadConfigRaw` returns.
pub fn loaded_json(config: &Config, diagnostics: &Diagnostics) -> String {
    let mut w = Writer { buf: Vec::with_capacity(estimate(config)) };
    w.raw("{\"config\":{\"root\":");
    w.module(&config.root);
    w.raw("},\"diagnostics\":");
    w.seq(&diagnostics.0, Writer::diagnostic);
    w.raw("}");
    debug_assert!(std::str::from_utf8(&w.buf).is_ok());
    // SAFETY: the buffer holds only whole `&str`s, pieces of `&str`s cut before or after an
    // ASCII byte (so at character boundaries), ASCII punctuation and digits, and serde_json's
    // output: valid UTF-8. (Checking it again cost a pass over tens of megabytes.)
    unsafe { String::from_utf8_unchecked(w.buf) }
}

/// A first guess at the text's size, so the buffer rarely grows: references dominate.
fn estimate(config: &Config) -> usize {
    let mut refs = 0;
    for m in config.modules() {
        refs += m.resources.iter().map(|r| 2 * r.references.len() + 4).sum::<usize>();
        refs += m.outputs.iter().map(|o| 2 * o.references.len() + 2).sum::<usize>();
        refs += m.locals.len() + m.variables.len() + m.module_calls.len() * 4;
    }
    4096 + refs * 240
}

struct Writer {
    buf: Vec<u8>,
}

/// serde_json's escape table: 0 = copy the byte; else the character after the backslash
/// (`u` for `\u00XX`).
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Whether any of the eight bytes of `word` is a control character, `"` or `\\` (the bytes
/// serde_json escapes). Bit tricks from "Bit Twiddling Hacks": `x - 0x01…` sets a byte's high
/// bit where the byte was zero (or borrowed), masked by `!x` to rule out bytes ≥ 0x80.
#[inline(always)]
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    control | zero_byte(word ^ (ONES * b'"' as u64)) | zero_byte(word ^ (ONES * b'\\' as u64)) != 0
}

impl Writer {
    /// Append bytes. Inlined into every caller: most appends are short literals (a key with its
    /// punctuation), for which a call per append cost more than the copy.
    #[inline(always)]
    fn bytes(&mut self, b: &[u8]) {
        if self.buf.capacity() - self.buf.len() < b.len() {
            self.grow(b.len());
        }
        let len = self.buf.len();
        // SAFETY: the capacity check above leaves room for `b.len()` more bytes after `len`,
        // `b` cannot overlap the buffer's spare capacity, and every byte up to the new length
        // is initialised by the copy.
        unsafe {
            std::ptr::copy_nonoverlapping(b.as_ptr(), self.buf.as_mut_ptr().add(len), b.len());
            self.buf.set_len(len + b.len());
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        self.buf.reserve(additional.max(self.buf.capacity() / 2));
    }

    #[inline(always)]
    fn raw(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// The characters of `s`, escaped, without quotes. Strings rarely hold a character to
    /// escape, so runs without one are found eight bytes at a time and copied whole.
    fn escaped(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            if i + 8 <= bytes.len() {
                let word = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
                if !needs_escape(word) {
                    i += 8;
                    continue;
                }
            }
            let b = bytes[i];
            let e = ESCAPE[b as usize];
            if e != 0 {
                self.bytes(&bytes[start..i]);
                if e == b'u' {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    self.bytes(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]]);
                } else {
                    self.bytes(&[b'\\', e]);
                }
                start = i + 1;
            }
            i += 1;
        }
        self.bytes(&bytes[start..]);
    }

    fn string(&mut self, s: &str) {
        self.bytes(b"\"");
        self.escaped(s);
        self.bytes(b"\"");
    }

    fn opt_string(&mut self, s: &Option<String>) {
        match s {
            Some(s) => self.string(s),
            None => self.raw("null"),
        }
    }

    fn u32(&mut self, n: u32) {
        // The formatter serde_json uses: two digits per step.
        self.raw(itoa::Buffer::new().format(n));
    }

    fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    fn opt_bool(&mut self, b: Option<bool>) {
        match b {
            Some(b) => self.bool(b),
            None => self.raw("null"),
        }
    }

    fn seq<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.bytes(b"[");
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.bytes(b",");
            }
            item(self, x);
        }
        self.bytes(b"]");
    }

    fn opt<T>(&mut self, value: &Option<T>, write: impl FnOnce(&mut Self, &T)) {
        match value {
            Some(v) => write(self, v),
            None => self.raw("null"),
        }
    }

    fn strings(&mut self, items: &[String]) {
        self.seq(items, |w, s| w.string(s));
    }

    // ---- diag.rs ------------------------------------------------------------------------

    fn pos(&mut self, p: &Pos) {
        self.raw("{\"line\":");
        self.u32(p.line);
        self.raw(",\"column\":");
        self.u32(p.column);
        self.raw(",\"byte\":");
        self.u32(p.byte);
        self.raw("}");
    }

    fn range(&mut self, r: &SourceRange) {
        self.raw("{\"filename\":");
        self.string(&r.filename);
        self.raw(",\"start\":");
        self.pos(&r.start);
        self.raw(",\"end\":");
        self.pos(&r.end);
        self.raw("}");
    }

    fn diagnostic(&mut self, d: &Diagnostic) {
        self.raw(match d.severity {
            Severity::Error => "{\"severity\":\"error\",\"summary\":",
            Severity::Warning => "{\"severity\":\"warning\",\"summary\":",
        });
        self.string(&d.summary);
        self.raw(",\"detail\":");
        self.string(&d.detail);
        if let Some(a) = &d.address {
            self.raw(",\"address\":");
            self.string(a);
        }
        if let Some(r) = &d.range {
            self.raw(",\"range\":");
            self.range(r);
        }
        if let Some(s) = &d.snippet {
            self.raw(",\"snippet\":");
            self.snippet(s);
        }
        self.raw("}");
    }

    fn snippet(&mut self, s: &Snippet) {
        self.raw("{\"context\":");
        self.opt_string(&s.context);
        self.raw(",\"code\":");
        self.string(&s.code);
        self.raw(",\"start_line\":");
        self.u32(s.start_line);
        self.raw(",\"highlight_start_offset\":");
        self.u32(s.highlight_start_offset);
        self.raw(",\"highlight_end_offset\":");
        self.u32(s.highlight_end_offset);
        self.raw(",\"values\":");
        // Always empty while loading; any value is written as serde_json writes it.
        match serde_json::to_vec(&s.values) {
            Ok(v) => self.bytes(&v),
            Err(_) => self.raw("[]"),
        }
        self.raw("}");
    }

    // ---- addrs.rs -----------------------------------------------------------------------

    fn module_path(&mut self, p: &ModulePath) {
        self.strings(&p.0);
    }

    fn mode(&mut self, m: ResourceMode) {
        self.raw(match m {
            ResourceMode::Managed => "\"managed\"",
            ResourceMode::Data => "\"data\"",
            ResourceMode::Ephemeral => "\"ephemeral\"",
        });
    }

    /// `Subject`'s `Display` text as a string. Escaping works character by character, so the
    /// pieces can be escaped one by one.
    fn subject(&mut self, s: &Subject) {
        self.bytes(b"\"");
        match s {
            Subject::Resource(r) => {
                self.raw(r.mode.prefix());
                self.escaped(&r.type_name);
                self.raw(".");
                self.escaped(&r.name);
            }
            Subject::ModuleCall(m) => {
                self.raw("module.");
                self.escaped(m);
            }
            Subject::ModuleCallOutput { call, key: None, output } => {
                self.raw("module.");
                self.escaped(call);
                self.raw(".");
                self.escaped(output);
            }
            Subject::InputVariable(v) => {
                self.raw("var.");
                self.escaped(v);
            }
            Subject::LocalValue(l) => {
                self.raw("local.");
                self.escaped(l);
            }
            keyed => self.escaped(&keyed.to_string()),
        }
        self.bytes(b"\"");
    }

    // ---- model.rs -----------------------------------------------------------------------

    fn module(&mut self, m: &Module) {
        self.raw("{\"path\":");
        self.module_path(&m.path);
        self.raw(",\"address\":");
        self.string(&m.address);
        self.raw(",\"dir\":");
        self.string(&m.dir);
        self.raw(",\"files\":");
        self.strings(&m.files);
        self.raw(",\"resources\":");
        self.seq(&m.resources, Self::resource);
        self.raw(",\"providers\":");
        self.seq(&m.providers, Self::provider_config);
        self.raw(",\"module_calls\":");
        self.seq(&m.module_calls, Self::module_call);
        self.raw(",\"variables\":");
        self.seq(&m.variables, Self::variable);
        self.raw(",\"locals\":");
        self.seq(&m.locals, Self::local);
        self.raw(",\"outputs\":");
        self.seq(&m.outputs, Self::output);
        self.raw(",\"required_providers\":");
        self.seq(&m.required_providers, Self::required_provider);
        self.raw(",\"required_version\":");
        self.opt_string(&m.required_version);
        self.raw(",\"moved\":");
        self.seq(&m.moved, Self::moved);
        self.raw(",\"imports\":");
        self.seq(&m.imports, Self::import);
        self.raw(",\"removed\":");
        self.seq(&m.removed, Self::removed);
        self.raw(",\"checks\":");
        self.seq(&m.checks, Self::check);
        self.raw("}");
    }

    fn expr(&mut self, e: &Expr) {
        self.raw("{\"source\":");
        self.string(&e.source);
        self.raw(",\"range\":");
        self.range(&e.range);
        self.raw(",\"references\":");
        self.references(&e.references);
        self.raw("}");
    }

    fn opt_expr(&mut self, e: &Option<Expr>) {
        self.opt(e, Self::expr);
    }

    fn references(&mut self, refs: &[Reference]) {
        self.seq(refs, Self::reference);
    }

    fn reference(&mut self, r: &Reference) {
        self.raw("{\"subject\":");
        self.subject(&r.subject);
        self.raw(",\"kind\":");
        self.string(r.kind);
        self.raw(",\"traversal\":");
        self.string(&r.traversal);
        self.raw(",\"range\":");
        self.range(&r.range);
        self.raw(",\"in\":");
        self.string(&r.context);
        self.raw("}");
    }

    fn resource(&mut self, r: &Resource) {
        self.raw("{\"address\":");
        self.string(&r.address);
        self.raw(",\"mode\":");
        self.mode(r.mode);
        self.raw(",\"type\":");
        self.string(&r.type_name);
        self.raw(",\"name\":");
        self.string(&r.name);
        self.raw(",\"provider\":");
        self.provider_ref(&r.provider);
        self.raw(",\"count\":");
        self.opt_expr(&r.count);
        self.raw(",\"for_each\":");
        self.opt_expr(&r.for_each);
        self.raw(",\"depends_on\":");
        self.references(&r.depends_on);
        self.raw(",\"lifecycle\":");
        self.lifecycle(&r.lifecycle);
        self.raw(",\"provisioners\":");
        self.seq(&r.provisioners, Self::provisioner);
        self.raw(",\"connection\":");
        self.opt(&r.connection, Self::block_refs);
        self.raw(",\"references\":");
        self.references(&r.references);
        self.raw(",\"range\":");
        self.range(&r.range);
        self.raw("}");
    }

    fn provider_ref(&mut self, p: &ProviderRef) {
        self.raw("{\"local_name\":");
        self.string(&p.local_name);
        self.raw(",\"alias\":");
        self.opt_string(&p.alias);
        self.raw(",\"fqn\":");
        self.string(&p.fqn);
        self.raw(",\"implied\":");
        self.bool(p.implied);
        self.raw(",\"range\":");
        self.opt(&p.range, Self::range);
        self.raw("}");
    }

    fn lifecycle(&mut self, l: &Lifecycle) {
        self.raw("{\"create_before_destroy\":");
        self.opt_bool(l.create_before_destroy);
        self.raw(",\"prevent_destroy\":");
        self.opt_bool(l.prevent_destroy);
        self.raw(",\"ignore_changes\":");
        match &l.ignore_changes {
            IgnoreChanges::None => self.raw("[]"),
            IgnoreChanges::All => self.raw("\"all\""),
            IgnoreChanges::Attributes(a) => self.strings(a),
        }
        self.raw(",\"replace_triggered_by\":");
        self.seq(&l.replace_triggered_by, Self::expr);
        self.raw(",\"preconditions\":");
        self.seq(&l.preconditions, Self::condition);
        self.raw(",\"postconditions\":");
        self.seq(&l.postconditions, Self::condition);
        self.raw("}");
    }

    fn condition(&mut self, c: &Condition) {
        self.raw("{\"condition\":");
        self.expr(&c.condition);
        self.raw(",\"error_message\":");
        self.opt_expr(&c.error_message);
        self.raw(",\"range\":");
        self.range(&c.range);
        self.raw("}");
    }

    fn provisioner(&mut self, p: &Provisioner) {
        self.raw("{\"type\":");
        self.string(&p.type_name);
        self.raw(match p.when {
            ProvisionerWhen::Create => ",\"when\":\"create\",\"on_failure\":",
            ProvisionerWhen::Destroy => ",\"when\":\"destroy\",\"on_failure\":",
        });
        self.string(&p.on_failure);
        self.raw(",\"connection\":");
        self.opt(&p.connection, Self::block_refs);
        self.raw(",\"references\":");
        self.references(&p.references);
        self.raw(",\"range\":");
        self.range(&p.range);
        self.raw("}");
    }

    fn block_refs(&mut self, b: &BlockRefs) {
        self.raw("{\"references\":");
        self.references(&b.references);
        self.raw(",\"range\":");
        self.range(&b.range);
        self.raw("}");
    }

    fn provider_config(&mut self, p: &ProviderConfig) {
        self.raw("{\"name\":");
        self.string(&p.name);
        self.raw(",\"alias\":");
        self.opt_string(&p.alias);
        self.raw(",\"fqn\":");
        self.string(&p.fqn);
        self.raw(",\"address\":");
        self.string(&p.address);
        self.raw(",\"references\":");
        self.references(&p.references);
        self.raw(",\"range\":");
        self.range(&p.range);
        self.raw("}");
    }

    fn module_call(&mut self, c: &ModuleCall) {
        self.raw("{\"name\":");
        self.string(&c.name);
        self.raw(",\"address\":");
        self.string(&c.address);
        self.raw(",\"source\":");
        self.string(&c.source);
        self.raw(",\"source_kind\":");
        self.string(&c.source_kind);
        self.raw(",\"version\":");
        self.opt_string(&c.version);
        self.raw(",\"count\":");
        self.opt_expr(&c.count);
        self.raw(",\"for_each\":");
        self.opt_expr(&c.for_each);
        self.raw(",\"depends_on\":");
        self.references(&c.depends_on);
        self.raw(",\"providers\":");
        self.seq(&c.providers, Self::passed_provider);
        self.raw(",\"arguments\":");
        self.seq(&c.arguments, Self::argument);
        self.raw(",\"references\":");
        self.references(&c.references);
        self.raw(",\"module\":");
        self.opt(&c.module, |w, m| w.module(m));
        self.raw(",\"range\":");
        self.range(&c.range);
        self.raw("}");
    }

    fn passed_provider(&mut self, p: &PassedProvider) {
        self.raw("{\"in_child\":");
        self.string(&p.in_child);
        self.raw(",\"in_parent\":");
        self.string(&p.in_parent);
        self.raw(",\"range\":");
        self.range(&p.range);
        self.raw("}");
    }

    fn argument(&mut self, a: &Argument) {
        self.raw("{\"name\":");
        self.string(&a.name);
        self.raw(",\"expr\":");
        self.expr(&a.expr);
        self.raw("}");
    }

    fn variable(&mut self, v: &Variable) {
        self.raw("{\"name\":");
        self.string(&v.name);
        self.raw(",\"type\":");
        self.opt_string(&v.type_expr);
        self.raw(",\"default\":");
        self.opt_expr(&v.default);
        self.raw(",\"description\":");
        self.opt_string(&v.description);
        self.raw(",\"sensitive\":");
        self.bool(v.sensitive);
        self.raw(",\"nullable\":");
        self.bool(v.nullable);
        self.raw(",\"ephemeral\":");
        self.bool(v.ephemeral);
        self.raw(",\"validations\":");
        self.seq(&v.validations, Self::condition);
        self.raw(",\"range\":");
        self.range(&v.range);
        self.raw("}");
    }

    fn local(&mut self, l: &Local) {
        self.raw("{\"name\":");
        self.string(&l.name);
        self.raw(",\"expr\":");
        self.expr(&l.expr);
        self.raw(",\"range\":");
        self.range(&l.range);
        self.raw("}");
    }

    fn output(&mut self, o: &Output) {
        self.raw("{\"name\":");
        self.string(&o.name);
        self.raw(",\"value\":");
        self.expr(&o.value);
        self.raw(",\"depends_on\":");
        self.references(&o.depends_on);
        self.raw(",\"sensitive\":");
        self.bool(o.sensitive);
        self.raw(",\"ephemeral\":");
        self.bool(o.ephemeral);
        self.raw(",\"description\":");
        self.opt_string(&o.description);
        self.raw(",\"preconditions\":");
        self.seq(&o.preconditions, Self::condition);
        self.raw(",\"references\":");
        self.references(&o.references);
        self.raw(",\"range\":");
        self.range(&o.range);
        self.raw("}");
    }

    fn required_provider(&mut self, r: &RequiredProvider) {
        self.raw("{\"name\":");
        self.string(&r.name);
        self.raw(",\"source\":");
        self.opt_string(&r.source);
        self.raw(",\"fqn\":");
        self.string(&r.fqn);
        self.raw(",\"version\":");
        self.opt_string(&r.version);
        self.raw(",\"configuration_aliases\":");
        self.strings(&r.configuration_aliases);
        self.raw(",\"range\":");
        self.range(&r.range);
        self.raw("}");
    }

    fn moved(&mut self, m: &Moved) {
        self.raw("{\"from\":");
        self.string(&m.from);
        self.raw(",\"to\":");
        self.string(&m.to);
        self.raw(",\"range\":");
        self.range(&m.range);
        self.raw("}");
    }

    fn import(&mut self, i: &Import) {
        self.raw("{\"to\":");
        self.string(&i.to);
        self.raw(",\"id\":");
        self.opt_expr(&i.id);
        self.raw(",\"for_each\":");
        self.opt_expr(&i.for_each);
        self.raw(",\"provider\":");
        self.opt_string(&i.provider);
        self.raw(",\"references\":");
        self.references(&i.references);
        self.raw(",\"range\":");
        self.range(&i.range);
        self.raw("}");
    }

    fn removed(&mut self, r: &Removed) {
        self.raw("{\"from\":");
        self.string(&r.from);
        self.raw(",\"destroy\":");
        self.bool(r.destroy);
        self.raw(",\"provisioners\":");
        self.seq(&r.provisioners, Self::provisioner);
        self.raw(",\"range\":");
        self.range(&r.range);
        self.raw("}");
    }

    fn check(&mut self, c: &Check) {
        self.raw("{\"name\":");
        self.string(&c.name);
        self.raw(",\"data\":");
        self.opt(&c.data, Self::resource);
        self.raw(",\"asserts\":");
        self.seq(&c.asserts, Self::condition);
        self.raw(",\"references\":");
        self.references(&c.references);
        self.raw(",\"range\":");
        self.range(&c.range);
        self.raw("}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;

    #[track_caller]
    fn same_as_serde(config: &Config, diagnostics: &Diagnostics) {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            config: &'a Config,
            diagnostics: &'a Diagnostics,
        }
        let want = serde_json::to_string(&Out { config, diagnostics }).unwrap();
        assert_eq!(loaded_json(config, diagnostics), want);
    }

    #[test]
    fn strings_escape_as_serde_json_does() {
        let tricky: String = (0u8..0x80).map(char::from).chain("é\u{2028}🦀\"\\".chars()).collect();
        let f = SourceFile::new(tricky.clone(), "x");
        let mut d = Diagnostic::error(tricky.clone(), "detail\twith\ttabs").with_range(f.range(0..1)).with_address(tricky.clone());
        d.snippet = Some(f.snippet(d.range.as_ref().unwrap(), Some(tricky.clone())));
        let root = Module { address: tricky.clone(), files: vec![tricky.clone(), String::new()], ..Module::default() };
        same_as_serde(&Config { root }, &Diagnostics(vec![d, Diagnostic::warning("w", "")]));
    }

    #[test]
    fn escapes_found_at_every_offset() {
        for special in (0u8..0x20).chain([b'"', b'\\', b'a', 0x7f]).map(char::from).chain(['é', '\u{80}', '€']) {
            for len in 0..20 {
                for at in 0..len {
                    let s: String = (0..len).map(|i| if i == at { special } else { 'x' }).collect();
                    let mut w = Writer { buf: Vec::new() };
                    w.string(&s);
                    assert_eq!(String::from_utf8(w.buf).unwrap(), serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn every_subject_form_is_its_display_text() {
        use crate::addrs::{InstanceKey, ResourceAddr};
        let addr = |mode| ResourceAddr { mode, type_name: "aws_\"x".into(), name: "n\\1".into() };
        let subjects = [
            Subject::Resource(addr(ResourceMode::Managed)),
            Subject::Resource(addr(ResourceMode::Data)),
            Subject::Resource(addr(ResourceMode::Ephemeral)),
            Subject::ResourceInstance(addr(ResourceMode::Managed), InstanceKey::Str("k\"\n".into())),
            Subject::ResourceInstance(addr(ResourceMode::Data), InstanceKey::Int(-3)),
            Subject::ModuleCall("net".into()),
            Subject::ModuleCallInstance("net".into(), InstanceKey::Int(0)),
            Subject::ModuleCallOutput { call: "net".into(), key: None, output: "id".into() },
            Subject::ModuleCallOutput { call: "net".into(), key: Some(InstanceKey::Str("a".into())), output: "id".into() },
            Subject::InputVariable("région".into()),
            Subject::LocalValue("tags".into()),
        ];
        for s in subjects {
            let mut w = Writer { buf: Vec::new() };
            w.subject(&s);
            assert_eq!(String::from_utf8(w.buf).unwrap(), serde_json::to_string(&s).unwrap());
        }
    }

    #[test]
    fn numbers_and_empty_things() {
        for n in [0, 7, 10, 99, 100, 4_294_967_295] {
            let mut w = Writer { buf: Vec::new() };
            w.u32(n);
            assert_eq!(String::from_utf8(w.buf).unwrap(), n.to_string());
        }
        same_as_serde(&Config { root: Module::default() }, &Diagnostics::new());
    }
}
