//! Absolute resource instance addresses as they appear in state files and plans:
//! `module.net[0].module.sub["a"].aws_subnet.s[2]`, `data.aws_ami.u`, and config resource
//! addresses without keys (`module.net.aws_subnet.s`, what state `dependencies` list).
//!
//! Terraform parses them with `addrs.ParseAbsResourceInstanceStr` and
//! `addrs.ParseConfigResource`; errors here are short sentences that the callers wrap in
//! Terraform-shaped diagnostics.

use super::{go_quote, ModulePath, ResourceAddr, ResourceMode};
use std::fmt;

/// The key of one instance of a `count` (`[0]`) or `for_each` (`["a"]`) resource or module.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstanceKey {
    Int(i64),
    Str(String),
}

/// Serialized as Terraform prints it (`[0]`, `["a"]`), the form node JSON has always used.
impl serde::Serialize for InstanceKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::Str(s) => write!(f, "[{}]", go_quote(s)),
        }
    }
}

/// `module.a[0].aws_instance.web[1]`: a module instance path, a resource, an instance key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceAddr {
    /// Each module call on the path with its instance key.
    pub module: Vec<(String, Option<InstanceKey>)>,
    pub resource: ResourceAddr,
    pub key: Option<InstanceKey>,
}

impl InstanceAddr {
    /// Parses an absolute resource instance address: [`InstanceAddr::scan`], then owned parts.
    pub fn parse(s: &str) -> Result<Self, String> {
        let a = Self::scan(s)?;
        let module = parse_module_instance(a.module)?;
        let bare = match a.mode {
            ResourceMode::Managed => a.resource,
            // `scan` checked the `data.` / `ephemeral.` prefix.
            _ => a.resource.split_once('.').map_or(a.resource, |(_, rest)| rest),
        };
        let (type_name, name) = bare.split_once('.').ok_or("expected a resource type and name")?;
        let resource = ResourceAddr { mode: a.mode, type_name: type_name.into(), name: name.into() };
        Ok(InstanceAddr { module, resource, key: a.key })
    }

    /// Checks an absolute resource instance address and splits it without building it (an
    /// allocation only for a string key).
    pub fn scan(s: &str) -> Result<ScannedAddr<'_>, String> {
        let mut p = Parser { s, pos: 0 };
        let a = p.scan_address()?;
        if p.pos != s.len() {
            return Err(format!("unexpected {:?} after the address", &s[p.pos..]));
        }
        Ok(a)
    }

    /// Parses a config resource address (no instance keys anywhere), as in state `dependencies`.
    pub fn parse_config_resource(s: &str) -> Result<(ModulePath, ResourceAddr), String> {
        let a = Self::parse(s)?;
        if a.key.is_some() || a.module.iter().any(|(_, k)| k.is_some()) {
            return Err("a resource address without instance keys is required here".into());
        }
        Ok((a.module_path(), a.resource))
    }

    /// The module path without keys: `module.a`.
    pub fn module_path(&self) -> ModulePath {
        ModulePath(self.module.iter().map(|(n, _)| n.clone()).collect())
    }

    /// The module instance as Terraform prints it: `module.a[0]`, empty for the root module.
    pub fn module_instance(&self) -> String {
        module_instance_text(&self.module)
    }

    /// The key as Terraform prints it (`[0]`, `["a"]`).
    pub fn key_text(&self) -> Option<String> {
        self.key.as_ref().map(|k| k.to_string())
    }

    /// The containing resource in configuration terms: `module.a.aws_instance.web`.
    pub fn config_resource(&self) -> String {
        config_resource_text(&self.module_path(), &self.resource)
    }
}

/// `module.a.aws_instance.web` from a module path and a resource.
pub fn config_resource_text(module: &ModulePath, resource: &ResourceAddr) -> String {
    if module.is_root() {
        resource.to_string()
    } else {
        format!("{module}.{resource}")
    }
}

/// `module.a[0].module.b` from module steps.
pub fn module_instance_text(module: &[(String, Option<InstanceKey>)]) -> String {
    let mut s = String::new();
    for (i, (name, key)) in module.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str("module.");
        s.push_str(name);
        if let Some(k) = key {
            s.push_str(&k.to_string());
        }
    }
    s
}

/// The module instance part of an instance address as Terraform prints it (`module.a[0]` of
/// `module.a[0].aws_instance.web[1]`, empty in the root module), `None` if it does not parse:
/// what `InstanceAddr::parse(s)?.module_instance()` gives. Without instance keys in the
/// module part the printed form is the text itself, which is returned borrowed; otherwise the
/// address is parsed and printed again (keys have more than one spelling).
pub fn module_instance_of_address(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    let a = InstanceAddr::scan(s).ok()?;
    Some(match a.module_keys {
        false => std::borrow::Cow::Borrowed(a.module),
        true => std::borrow::Cow::Owned(module_instance_text(&parse_module_instance(a.module).ok()?)),
    })
}

/// An instance address checked and split without copying its parts
/// ([`InstanceAddr::scan`]). Its parts read as the parsed address prints them, except the
/// module part when it has instance keys (`[01]` prints `[1]`) and the key (see `key`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScannedAddr<'a> {
    /// The module instance part as written (`module.a[0].module.b`), empty in the root module.
    pub module: &'a str,
    /// Whether `module` has instance keys (then parse it for its printed form).
    pub module_keys: bool,
    pub mode: ResourceMode,
    /// The resource address as written, without its key: `data.aws_ami.u`; what
    /// `ResourceAddr`'s `Display` prints.
    pub resource: &'a str,
    pub key: Option<InstanceKey>,
}

/// Parses a module instance address (`module.a[0].module.b`, empty for the root module), as in
/// a state resource's `module`.
pub fn parse_module_instance(s: &str) -> Result<Vec<(String, Option<InstanceKey>)>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let mut p = Parser { s, pos: 0 };
    let mut out = Vec::new();
    loop {
        p.expect_word("module")?;
        p.expect('.')?;
        let name = p.ident()?.to_string();
        let key = p.opt_key()?;
        out.push((name, key));
        if p.pos == s.len() {
            return Ok(out);
        }
        p.expect('.')?;
    }
}

impl fmt::Display for InstanceAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_empty() {
            write!(f, "{}.", self.module_instance())?;
        }
        write!(f, "{}", self.resource)?;
        if let Some(k) = &self.key {
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        let s: &'a str = self.s;
        &s[self.pos..]
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.rest().starts_with(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(format!("expected {c:?} at byte {}", self.pos))
        }
    }

    fn expect_word(&mut self, w: &str) -> Result<(), String> {
        let save = self.pos;
        let id = self.ident()?;
        if id == w {
            Ok(())
        } else {
            self.pos = save;
            Err(format!("expected {w:?} at byte {}", self.pos))
        }
    }

    fn ident(&mut self) -> Result<&'a str, String> {
        let r = self.rest();
        let len = r
            .char_indices()
            .find(|&(i, c)| !(c.is_alphanumeric() || c == '_' || (i > 0 && c == '-')))
            .map(|(i, _)| i)
            .unwrap_or(r.len());
        if len == 0 || r.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(format!("expected a name at byte {}", self.pos));
        }
        self.pos += len;
        Ok(&r[..len])
    }

    /// An absolute resource instance address, split where its parts are.
    fn scan_address(&mut self) -> Result<ScannedAddr<'a>, String> {
        let (mut end, mut keys) = (0, false);
        loop {
            let save = self.pos;
            let first = self.ident()?;
            let mode = match first {
                "module" => {
                    self.expect('.')?;
                    self.ident()?;
                    keys |= self.opt_key()?.is_some();
                    end = self.pos;
                    self.expect('.')?;
                    continue;
                }
                "data" => ResourceMode::Data,
                "ephemeral" => ResourceMode::Ephemeral,
                _ => {
                    self.pos = save;
                    ResourceMode::Managed
                }
            };
            let start = if mode == ResourceMode::Managed { self.pos } else { save };
            if mode != ResourceMode::Managed {
                self.expect('.')?;
            }
            self.ident()?;
            self.expect('.')?;
            self.ident()?;
            let resource = &self.s[start..self.pos];
            let key = self.opt_key()?;
            return Ok(ScannedAddr { module: &self.s[..end], module_keys: keys, mode, resource, key });
        }
    }

    fn opt_key(&mut self) -> Result<Option<InstanceKey>, String> {
        if !self.rest().starts_with('[') {
            return Ok(None);
        }
        self.pos += 1;
        let key = if self.rest().starts_with('"') {
            InstanceKey::Str(self.string()?)
        } else {
            let r = self.rest();
            let len = r.find(|c: char| !(c.is_ascii_digit() || c == '-')).unwrap_or(r.len());
            let n: i64 = r[..len].parse().map_err(|_| format!("invalid instance key at byte {}", self.pos))?;
            self.pos += len;
            InstanceKey::Int(n)
        };
        self.expect(']')?;
        Ok(Some(key))
    }

    /// A Go/HCL quoted string with the escapes `quote` writes.
    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, c @ ('"' | '\\'))) => out.push(c),
                    _ => return Err("unsupported escape in a string key".into()),
                },
                c => out.push(c),
            }
        }
        Err("unterminated string key".into())
    }
}

/// A key as printed, for error messages: `[0]`, `["a"]`.
pub fn show_key(k: &InstanceKey) -> String {
    k.to_string()
}

/// The `[...]` of an address, outermost only: (where each opens, where it closes).
pub fn index_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut depth, mut open, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for (i, c) in s.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push((open, i));
                }
            }
            _ => {}
        }
    }
    out
}

/// The configuration resource an `import` block's `to` names (`module.m.x.y` of
/// `module.m[each.key].x.y[each.value]`): its index expressions left out, as Terraform's
/// `ToResource`. `None`: not a resource address.
pub fn import_to_resource(to: &str) -> Option<String> {
    let mut out = String::with_capacity(to.len());
    let mut from = 0;
    for (open, close) in index_spans(to) {
        out.push_str(&to[from..open]);
        from = close + 1;
    }
    out.push_str(&to[from..]);
    InstanceAddr::parse(&out).ok().map(|a| a.config_resource())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "aws_instance.web",
            "aws_instance.web[0]",
            "data.aws_ami.u[\"a.b]\"]",
            "module.a[0].module.b[\"x\"].aws_subnet.s[2]",
            "module.a.ephemeral.random_password.p",
        ] {
            assert_eq!(InstanceAddr::parse(s).unwrap().to_string(), s);
        }
        let a = InstanceAddr::parse("module.a[0].aws_instance.web[1]").unwrap();
        assert_eq!(a.config_resource(), "module.a.aws_instance.web");
        assert_eq!(a.module_instance(), "module.a[0]");
        for s in [
            "aws_instance.web",
            "module.a.module.b.data.x.y[\"k\"]",
            "module.a[01].x.y",
            "module.a[\"k\"].x.y[2]",
            "x.y z",
            "module.a",
            "ephemeral.e.f[-1]",
        ] {
            let parsed = InstanceAddr::parse(s);
            let want = parsed.as_ref().ok().map(|a| a.module_instance());
            assert_eq!(module_instance_of_address(s).map(|c| c.into_owned()), want, "{s}");
            let scanned = InstanceAddr::scan(s);
            assert_eq!(scanned.is_ok(), parsed.is_ok(), "{s}");
            if let (Ok(a), Ok(p)) = (scanned, parsed) {
                assert_eq!(
                    (a.mode, a.resource, a.key),
                    (p.resource.mode, p.resource.to_string().as_str(), p.key),
                    "{s}"
                );
            }
        }
    }

    #[test]
    fn rejects_malformed() {
        for s in [
            "",
            "aws_instance",
            "aws_instance.",
            "module.a",
            "aws_instance.web[",
            "aws_instance.web[x]",
            "a.b c",
            "1a.b",
        ] {
            assert!(InstanceAddr::parse(s).is_err(), "{s}");
        }
        assert!(InstanceAddr::parse_config_resource("aws_instance.web[0]").is_err());
        assert!(InstanceAddr::parse_config_resource("module.a.aws_instance.web").is_ok());
        assert_eq!(parse_module_instance("module.a[1].module.b").unwrap().len(), 2);
        assert!(parse_module_instance("module").is_err());
    }
}
