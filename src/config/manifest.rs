//! Terraform's module manifest, `.terraform/modules/modules.json`: where `terraform init`
//! installed each non-local module call, and the checks Terraform makes before loading one.
//!
//! Sources: `internal/modsdir/manifest.go` (file format, keys, normalising old source strings
//! on read), `internal/configs/configload/loader_load.go` (`moduleWalkerLoad`: key lookup,
//! "Module source has changed", "Module version requirements have changed", the missing cache
//! folder), `internal/addrs/module_source.go` and `internal/getmodules/moduleaddrs` (the
//! canonical `String()` of a source address), `hashicorp/go-version` (constraints).

use super::files::join;
use super::json::{self, JKind, JValue};
use crate::diag::{Diagnostic, SourceFile};
use std::collections::HashMap;

/// Where the manifest lives, relative to the root module's folder (`modsdir.ManifestSnapshotFilename`).
pub const MANIFEST_PATH: &str = ".terraform/modules/modules.json";

/// One installed module (`modsdir.Record`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub key: String,
    /// The source address, in Terraform's canonical form.
    pub source: String,
    pub version: Option<Version>,
    /// The module's folder within the given files (`Dir` joined to the root module's folder);
    /// `None` when `Dir` is absolute or climbs above the given files.
    pub dir: Option<String>,
    /// `Dir` as written.
    pub dir_raw: String,
}

/// The manifest: records by key (`modsdir.Manifest`).
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub records: HashMap<String, Record>,
}

/// Parse a manifest file named `name` (for diagnostics) whose `Dir`s are relative to `root_dir`.
pub fn read(name: &str, text: &str, root_dir: &str) -> Result<Manifest, Diagnostic> {
    let sf = SourceFile::new(name, text);
    let fail = |detail: String, span: std::ops::Range<usize>| -> Diagnostic {
        let mods_dir = split_parent(name);
        Diagnostic::error(
            "Failed to read modules manifest file",
            format!("Error reading manifest for {mods_dir}: {detail}."),
        )
        .with_range(sf.range(span))
    };
    // An empty file is tolerated as an empty manifest (`ReadManifestSnapshot`).
    if text.is_empty() {
        return Ok(Manifest::default());
    }
    let root = json::parse(text).map_err(|e| {
        fail(format!("error unmarshalling snapshot: {}", e.detail.trim_end_matches('.')), e.span.clone())
    })?;
    let mut manifest = Manifest::default();
    // encoding/json: a top-level null is an empty value; any other non-object is a type error;
    // field names match case-insensitively; unknown fields are ignored.
    let props = match &root.kind {
        JKind::Null => return Ok(manifest),
        JKind::Object(p) => p,
        _ => return Err(fail(format!("error unmarshalling snapshot: json: cannot unmarshal {} into Go value of type modsdir.manifestSnapshotFile", go_kind(&root)), root.span.clone())),
    };
    let Some(modules) = field(props, "Modules") else { return Ok(manifest) };
    let list = match &modules.kind {
        JKind::Null => return Ok(manifest),
        JKind::Array(items) => items,
        _ => return Err(fail(type_error(modules, "Modules", "[]modsdir.Record"), modules.span.clone())),
    };
    for item in list {
        let rprops = match &item.kind {
            JKind::Null => continue,
            JKind::Object(p) => p,
            _ => return Err(fail(type_error(item, "Modules", "modsdir.Record"), item.span.clone())),
        };
        let mut strings = [String::new(), String::new(), String::new(), String::new()];
        for (i, f) in ["Key", "Source", "Version", "Dir"].iter().enumerate() {
            match field(rprops, f).map(|v| &v.kind) {
                None | Some(JKind::Null) => {}
                Some(JKind::String(s)) => strings[i] = s.value.clone(),
                Some(_) => {
                    let v = field(rprops, f).unwrap();
                    return Err(fail(type_error(v, &format!("Modules.{f}"), "string"), v.span.clone()));
                }
            }
        }
        let [key, source, version_str, dir_raw] = strings;
        let version = if version_str.is_empty() {
            None
        } else {
            match Version::parse(&version_str) {
                Some(v) => Some(v),
                None => {
                    let at = field(rprops, "Version").map_or(item.span.clone(), |v| v.span.clone());
                    return Err(fail(
                        format!("invalid version {version_str:?} for {key}: Malformed version: {version_str}"),
                        at,
                    ));
                }
            }
        };
        if manifest.records.contains_key(&key) {
            return Err(fail(format!("snapshot file contains two records for path {key}"), item.span.clone()));
        }
        // Old manifests hold the source as written; Terraform normalises it on read.
        let source = if source.is_empty() { source } else { canonical_source(&source) };
        let dir = if dir_raw.starts_with('/') || dir_raw.starts_with('\\') || dir_raw.get(1..2) == Some(":") {
            None
        } else {
            join(root_dir, &dir_raw)
        };
        manifest.records.insert(key.clone(), Record { key, source, version, dir, dir_raw });
    }
    Ok(manifest)
}

fn split_parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..i],
        None => ".",
    }
}

/// encoding/json matches a field name case-insensitively, preferring an exact match.
fn field<'a>(props: &'a [json::JProp], name: &str) -> Option<&'a JValue> {
    props
        .iter()
        .rev()
        .find(|p| p.name.value == name)
        .or_else(|| props.iter().rev().find(|p| p.name.value.eq_ignore_ascii_case(name)))
        .map(|p| &p.value)
}

fn go_kind(v: &JValue) -> &'static str {
    match &v.kind {
        JKind::Null => "null",
        JKind::Bool(_) => "bool",
        JKind::Number(_) => "number",
        JKind::String(_) => "string",
        JKind::Array(_) => "array",
        JKind::Object(_) => "object",
    }
}

fn type_error(v: &JValue, field: &str, go_type: &str) -> String {
    format!("error unmarshalling snapshot: json: cannot unmarshal {} into Go struct field manifestSnapshotFile.{field} of type {go_type}", go_kind(v))
}

// ---- source addresses ---------------------------------------------------------------------

/// The canonical string of a module source address (`addrs.ModuleSource.String()` after
/// `moduleaddrs.ParseModuleSource`): local paths cleaned with a `./` prefix; registry
/// addresses with their host (`registry.terraform.io/` by default) and `//subdir`; remote
/// addresses with go-getter's shorthands expanded and `//subdir` before the query string.
pub fn canonical_source(raw: &str) -> String {
    let raw = raw.trim();
    if ["./", "../", ".\\", "..\\"].iter().any(|p| raw.starts_with(p)) {
        return clean_local(&raw.replace('\\', "/"));
    }
    if let Some(r) = canonical_registry(raw) {
        return r;
    }
    canonical_remote(raw)
}

fn clean_local(raw: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in raw.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let clean = if parts.is_empty() { ".".to_string() } else { parts.join("/") };
    if clean.starts_with("../") || clean == ".." {
        clean
    } else {
        format!("./{clean}")
    }
}

/// `[host/]namespace/name/target[//subdir]` (`tfaddr.ParseModuleSource`).
fn canonical_registry(raw: &str) -> Option<String> {
    let (pkg, subdir) = match raw.find("//") {
        Some(i) => (&raw[..i], Some(&raw[i + 2..])),
        None => (raw, None),
    };
    if pkg.contains(['?', ':']) {
        return None;
    }
    let parts: Vec<&str> = pkg.split('/').collect();
    let name_ok = |p: &str| {
        !p.is_empty()
            && p.len() <= 64
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && p.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
    };
    let (host, rest) = match parts.as_slice() {
        [ns, name, target] => ("registry.terraform.io".to_string(), [*ns, *name, *target]),
        [host, ns, name, target] if host.contains('.') => (host.to_ascii_lowercase(), [*ns, *name, *target]),
        _ => return None,
    };
    // tfaddr refuses the well-known remote hosts, which go-getter handles instead.
    if matches!(host.as_str(), "github.com" | "bitbucket.org" | "gitlab.com") {
        return None;
    }
    if !rest.iter().all(|p| name_ok(p)) {
        return None;
    }
    let mut out = format!("{host}/{}/{}/{}", rest[0], rest[1], rest[2]);
    if let Some(s) = subdir.filter(|s| !s.is_empty()) {
        out.push_str("//");
        out.push_str(s.trim_matches('/'));
    }
    Some(out)
}

/// A remote (go-getter) address: split `//subdir`, expand the GitHub / git-over-SSH
/// shorthands, and put the subdir back before the query (`ModuleSourceRemote.String`).
fn canonical_remote(raw: &str) -> String {
    // SplitPackageSubdir: the first `//` after the scheme's `://`.
    let (forced, rest) = match raw.find("::") {
        Some(i) if !raw[..i].contains('/') => (Some(&raw[..i]), &raw[i + 2..]),
        _ => (None, raw),
    };
    let scheme_end = rest.find("://").map_or(0, |i| i + 3);
    let (mut pkg, mut query) = (rest.to_string(), String::new());
    if let Some(q) = pkg.find('?') {
        query = pkg[q..].to_string();
        pkg.truncate(q);
    }
    let mut subdir = String::new();
    if let Some(i) = pkg[scheme_end..].find("//") {
        let at = scheme_end + i;
        subdir = pkg[at + 2..].trim_matches('/').to_string();
        pkg.truncate(at);
    }
    let mut forced = forced.map(str::to_string);
    if forced.is_none() {
        if let Some(p) = pkg.strip_prefix("github.com/") {
            let parts: Vec<&str> = p.split('/').collect();
            if parts.len() >= 2 {
                let repo = parts[1].trim_end_matches(".git");
                let more = parts[2..].join("/");
                pkg = format!("https://github.com/{}/{repo}.git", parts[0]);
                forced = Some("git".into());
                if !more.is_empty() {
                    subdir = if subdir.is_empty() { more } else { format!("{more}/{subdir}") };
                }
            }
        } else if let Some(p) = pkg.strip_prefix("git@") {
            if let Some((host, path)) = p.split_once(':') {
                pkg = format!("ssh://git@{host}/{path}");
                forced = Some("git".into());
            }
        }
    }
    let base = match forced {
        Some(f) => format!("{f}::{pkg}"),
        None => pkg,
    };
    if subdir.is_empty() {
        format!("{base}{query}")
    } else {
        format!("{base}//{subdir}{query}")
    }
}

// ---- versions (hashicorp/go-version) -------------------------------------------------------

/// A version number: numeric segments (at least three, zero-padded), how many were written,
/// and the pre-release label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    segments: Vec<u64>,
    written: usize,
    pre: String,
}

impl Version {
    /// `version.NewVersion`: an optional `v`, dot-separated numbers, `-pre`, `+metadata`.
    pub fn parse(s: &str) -> Option<Version> {
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let (t, _meta) = t.split_once('+').map_or((t, ""), |(a, b)| (a, b));
        let (nums, pre) = t.split_once('-').map_or((t, ""), |(a, b)| (a, b));
        if nums.is_empty() {
            return None;
        }
        let mut segments = Vec::new();
        for n in nums.split('.') {
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            segments.push(n.parse().ok()?);
        }
        if t.contains('-') && pre.is_empty() {
            return None;
        }
        let written = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Some(Version { segments, written, pre: pre.to_string() })
    }

    fn cmp(&self, other: &Version) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        let n = self.segments.len().max(other.segments.len());
        for i in 0..n {
            let (a, b) = (self.segments.get(i).copied().unwrap_or(0), other.segments.get(i).copied().unwrap_or(0));
            if a != b {
                return a.cmp(&b);
            }
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Equal,
            (true, false) => Greater,
            (false, true) => Less,
            (false, false) => cmp_pre(&self.pre, &other.pre),
        }
    }
}

impl std::fmt::Display for Version {
    /// `Version.String()`: the segments as written, then the pre-release.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let segs: Vec<String> = self.segments.iter().map(u64::to_string).collect();
        write!(f, "{}", segs.join("."))?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        Ok(())
    }
}

fn cmp_pre(a: &str, b: &str) -> std::cmp::Ordering {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..pa.len().max(pb.len()) {
        let o = match (pa.get(i), pb.get(i)) {
            (Some(x), Some(y)) => match (x.parse::<u64>(), y.parse::<u64>()) {
                (Ok(m), Ok(n)) => m.cmp(&n),
                (Ok(_), Err(_)) => std::cmp::Ordering::Less,
                (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
                _ => x.cmp(y),
            },
            (Some(_), None) => std::cmp::Ordering::Greater,
            (None, Some(_)) => std::cmp::Ordering::Less,
            (None, None) => std::cmp::Ordering::Equal,
        };
        if o.is_ne() {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// `version.Constraints`: comma-separated `op version` terms, all of which must hold.
/// `None` when the constraint string does not parse (reported elsewhere, not checked here).
pub fn constraint_allows(constraint: &str, v: &Version) -> Option<bool> {
    let mut all = true;
    for term in constraint.split(',') {
        let term = term.trim();
        let (op, rest) = ["~>", ">=", "<=", "!=", "=", ">", "<"]
            .iter()
            .find_map(|op| term.strip_prefix(op).map(|r| (*op, r)))
            .unwrap_or(("=", term));
        let c = Version::parse(rest)?;
        let ord = v.cmp(&c);
        // A constraint without a pre-release never matches a pre-release version; one with a
        // pre-release only matches pre-releases of the same segments (`prereleaseCheck`).
        let pre_ok = match (c.pre.is_empty(), v.pre.is_empty()) {
            (true, false) => false,
            (false, false) => v.segments == c.segments,
            _ => true,
        };
        let ok = match op {
            "=" => ord.is_eq(),
            "!=" => !ord.is_eq(),
            ">" => pre_ok && ord.is_gt(),
            "<" => pre_ok && ord.is_lt(),
            ">=" => pre_ok && ord.is_ge(),
            "<=" => pre_ok && ord.is_le(),
            _ => {
                // `~>`: at least c, same leading segments, last written segment may grow.
                let cs = c.written;
                pre_ok
                    && (c.pre.is_empty() || !v.pre.is_empty())
                    && !ord.is_lt()
                    && cs <= v.written.max(3)
                    && (0..cs.saturating_sub(1)).all(|i| v.segments[i] == c.segments[i])
                    && c.segments[cs - 1] <= v.segments[cs - 1]
            }
        };
        all &= ok;
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_sources() {
        let cases = [
            ("terraform-aws-modules/vpc/aws", "registry.terraform.io/terraform-aws-modules/vpc/aws"),
            (
                "registry.terraform.io/terraform-aws-modules/vpc/aws",
                "registry.terraform.io/terraform-aws-modules/vpc/aws",
            ),
            ("Registry.Terraform.io/a/b/c//modules/x", "registry.terraform.io/a/b/c//modules/x"),
            ("app.terraform.io/org/name/aws//sub", "app.terraform.io/org/name/aws//sub"),
            ("git::https://example.com/x.git?ref=v1", "git::https://example.com/x.git?ref=v1"),
            ("git::https://example.com/x.git//sub?ref=v1", "git::https://example.com/x.git//sub?ref=v1"),
            ("github.com/hashicorp/example", "git::https://github.com/hashicorp/example.git"),
            ("github.com/hashicorp/example//sub?ref=v2", "git::https://github.com/hashicorp/example.git//sub?ref=v2"),
            ("git@github.com:org/repo.git", "git::ssh://git@github.com/org/repo.git"),
            ("./a/../b/", "./b"),
            ("../../x", "../../x"),
        ];
        for (raw, want) in cases {
            assert_eq!(canonical_source(raw), want, "{raw}");
        }
    }

    #[test]
    fn constraints() {
        let v = |s: &str| Version::parse(s).unwrap();
        let cases = [
            ("5.8.1", "~> 5.0", true),
            ("6.0.0", "~> 5.0", false),
            ("5.8.1", "~> 5.8.0", true),
            ("5.9.0", "~> 5.8.0", false),
            ("5.8.1", ">= 5.0, < 6.0", true),
            ("5.8.1", "5.8.1", true),
            ("5.8.1", "= 5.8.0", false),
            ("5.8.1", "!= 5.8.1", false),
            ("6.0.0-beta1", ">= 5.0", false),
            ("6.0.0-beta1", ">= 6.0.0-beta0", true),
            ("v1.2.0", "~> 1", true),
        ];
        for (ver, c, want) in cases {
            assert_eq!(constraint_allows(c, &v(ver)), Some(want), "{ver} {c}");
        }
        assert_eq!(constraint_allows("nonsense", &v("1.0.0")), None);
        assert_eq!(v("1.2").to_string(), "1.2.0");
    }
}
