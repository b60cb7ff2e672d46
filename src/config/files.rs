//! Which given files form which module, and where a module call's source points.
//!
//! Paths are normalised once (`./`, `//`, `..`, backslashes), grouped by folder, and filtered as
//! Terraform's `parser_config_dir.go` does: only `.tf` and `.tf.json` files directly in a folder,
//! sorted by name, with `override.tf` / `*_override.tf` (and `.tf.json`) set apart.

use std::collections::BTreeMap;

/// Normalise a relative path: backslashes become slashes, empty and `.` segments go, `..` pops.
/// `None` when the path climbs above the top level.
pub fn normalize_path(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Split a normalised path into (folder, file name).
pub fn split_dir(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

/// Join a folder and a relative path, then normalise; `None` when it climbs above the top level.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    if dir.is_empty() {
        normalize_path(rel)
    } else {
        normalize_path(&format!("{dir}/{rel}"))
    }
}

/// Terraform's `IsIgnoredFile`: dotfiles and editor backups/swap files.
fn is_ignored(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

/// Whether a file name is a configuration file, and whether it is an override file.
pub fn config_file_kind(name: &str) -> Option<ConfigFileKind> {
    if is_ignored(name) {
        return None;
    }
    let (stem, json) = if let Some(s) = name.strip_suffix(".tf.json") {
        (s, true)
    } else if let Some(s) = name.strip_suffix(".tf") {
        (s, false)
    } else {
        return None;
    };
    let is_override = stem == "override" || stem.ends_with("_override");
    Some(ConfigFileKind { json, is_override })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigFileKind {
    pub json: bool,
    pub is_override: bool,
}

/// One configuration file of a module folder.
#[derive(Clone, Debug)]
pub struct DirFile<'a> {
    /// The normalised path (`modules/net/main.tf`), used as the diagnostics file name.
    pub path: String,
    pub name: String,
    pub kind: ConfigFileKind,
    pub text: &'a str,
}

/// The given files grouped by folder: only configuration files, sorted by name.
#[derive(Debug, Default)]
pub struct FileTree<'a> {
    pub dirs: BTreeMap<String, Vec<DirFile<'a>>>,
}

impl<'a> FileTree<'a> {
    pub fn new(files: &'a BTreeMap<String, String>) -> Self {
        let mut dirs: BTreeMap<String, Vec<DirFile<'a>>> = BTreeMap::new();
        for (key, text) in files {
            // Most keys of a repository are not configuration files: decide on the raw name first.
            if !(key.ends_with(".tf") || key.ends_with(".tf.json")) {
                continue;
            }
            let Some(path) = normalize_path(key) else { continue };
            let (dir, name) = split_dir(&path);
            let Some(kind) = config_file_kind(name) else { continue };
            dirs.entry(dir.to_string()).or_default().push(DirFile {
                name: name.to_string(),
                path: path.clone(),
                kind,
                text,
            });
        }
        for list in dirs.values_mut() {
            // Terraform reads a folder with os.ReadDir, which sorts by name; primaries first.
            list.sort_by(|a, b| a.name.cmp(&b.name));
            list.dedup_by(|a, b| a.name == b.name);
        }
        FileTree { dirs }
    }

    pub fn files(&self, dir: &str) -> Option<&[DirFile<'a>]> {
        self.dirs.get(dir).map(Vec::as_slice)
    }
}

/// What kind of module source address a `source` string is (`internal/getmodules`,
/// `internal/addrs/module_source.go`).
pub fn classify_source(source: &str) -> &'static str {
    let s = source.trim();
    if ["./", "../", ".\\", "..\\"].iter().any(|p| s.starts_with(p)) || s == "." || s == ".." {
        return "local";
    }
    if let Some((forced, _)) = s.split_once("::") {
        return match forced {
            "git" => "git",
            "hg" => "mercurial",
            "s3" => "s3",
            "gcs" => "gcs",
            "http" | "https" => "http",
            "file" => "other",
            _ => "other",
        };
    }
    if s.starts_with("github.com/") || s.starts_with("git@github.com:") {
        return "github";
    }
    if s.starts_with("bitbucket.org/") {
        return "bitbucket";
    }
    if s.starts_with("git@") || s.starts_with("ssh://") {
        return "git";
    }
    if s.starts_with("http://") || s.starts_with("https://") {
        return "http";
    }
    if s.starts_with("s3://") || s.contains(".amazonaws.com/") {
        return "s3";
    }
    if s.starts_with("gs://") || s.starts_with("www.googleapis.com/storage/") {
        return "gcs";
    }
    if is_registry_address(s) {
        return "registry";
    }
    "other"
}

/// `[hostname/]namespace/name/provider[//subdir]` (`getmodules/moduleaddrs`, `tfaddr.ParseModuleSource`).
fn is_registry_address(s: &str) -> bool {
    let base = s.split("//").next().unwrap_or(s);
    let base = base.split('?').next().unwrap_or(base);
    let parts: Vec<&str> = base.split('/').collect();
    let name_ok = |p: &str| {
        !p.is_empty()
            && p.len() <= 64
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && p.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
    };
    match parts.as_slice() {
        [ns, name, provider] => name_ok(ns) && name_ok(name) && name_ok(provider),
        [host, ns, name, provider] => {
            host.contains('.') && name_ok(ns) && name_ok(name) && name_ok(provider)
        }
        _ => false,
    }
}

/// Where a module call's source is found. Kept in one function so a later loader can add
/// `.terraform/modules/modules.json` lookups for registry and remote sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A folder within the given files.
    Local(String),
    /// A local source that climbs above the top level of the given files.
    Outside,
    /// Not a local path: the module would have to be installed.
    NotInstalled,
}

/// Resolve `source`, written in a module in folder `caller_dir`.
pub fn resolve_module_source(caller_dir: &str, source: &str, kind: &str) -> Resolution {
    if kind != "local" {
        return Resolution::NotInstalled;
    }
    match join(caller_dir, source) {
        Some(dir) => Resolution::Local(dir),
        None => Resolution::Outside,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_paths() {
        let cases = [
            ("main.tf", Some("main.tf")),
            ("./main.tf", Some("main.tf")),
            ("a//b/./c.tf", Some("a/b/c.tf")),
            ("a/../b.tf", Some("b.tf")),
            ("a\\b\\c.tf", Some("a/b/c.tf")),
            ("../x.tf", None),
            ("a/../../x.tf", None),
            ("", Some("")),
        ];
        for (input, want) in cases {
            assert_eq!(normalize_path(input).as_deref(), want, "{input}");
        }
    }

    #[test]
    fn file_kinds() {
        let cases = [
            ("main.tf", Some((false, false))),
            ("main.tf.json", Some((true, false))),
            ("override.tf", Some((false, true))),
            ("x_override.tf.json", Some((true, true))),
            ("xoverride.tf", Some((false, false))),
            ("a.tftest.hcl", None),
            ("a.tfvars", None),
            (".hidden.tf", None),
            ("main.tf~", None),
            ("#main.tf#", None),
            ("README.md", None),
        ];
        for (name, want) in cases {
            assert_eq!(config_file_kind(name).map(|k| (k.json, k.is_override)), want, "{name}");
        }
    }

    #[test]
    fn classifies_sources() {
        let cases = [
            ("./net", "local"),
            ("../../modules/x", "local"),
            ("terraform-aws-modules/vpc/aws", "registry"),
            ("registry.terraform.io/hashicorp/consul/aws", "registry"),
            ("app.terraform.io/org/name/aws//sub", "registry"),
            ("git::https://example.com/x.git", "git"),
            ("git@github.com:org/repo.git", "github"),
            ("github.com/hashicorp/example", "github"),
            ("bitbucket.org/hashicorp/x", "bitbucket"),
            ("https://example.com/x.zip", "http"),
            ("s3::https://s3.amazonaws.com/b/x.zip", "s3"),
            ("gcs::https://www.googleapis.com/storage/v1/b/x.zip", "gcs"),
            ("hg::http://example.com/repo", "mercurial"),
            ("/abs/path", "other"),
        ];
        for (source, want) in cases {
            assert_eq!(classify_source(source), want, "{source}");
        }
    }

    #[test]
    fn resolves_local_sources() {
        assert_eq!(resolve_module_source("envs/prod", "../../modules/net", "local"), Resolution::Local("modules/net".into()));
        assert_eq!(resolve_module_source("", "./a/", "local"), Resolution::Local("a".into()));
        assert_eq!(resolve_module_source("", "../x", "local"), Resolution::Outside);
        assert_eq!(resolve_module_source("", "x/y/z", "registry"), Resolution::NotInstalled);
    }
}
