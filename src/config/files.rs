//! Which given files form which module, and where a module call's source points.
//!
//! The loader sees the files through a [`FileSource`]: every path up front, a file's contents
//! only when its folder is loaded.
//!
//! Paths are normalised once (`./`, `//`, `..`, backslashes), grouped by folder, and filtered as
//! Terraform's `parser_config_dir.go` does: only `.tf` and `.tf.json` files directly in a folder,
//! sorted by name, with `override.tf` / `*_override.tf` (and `.tf.json`) set apart.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

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

/// Where the loader reads the given files from.
///
/// Loading asks for every path once, up front, to group the configuration files by folder;
/// it asks for a file's contents only when it loads that file's folder (and for the module
/// manifest). A caller who passes a whole repository therefore pays for the folders of the
/// modules actually loaded, not for every file.
///
/// Implemented for the in-memory map [`MapFiles`] (what [`load`](super::load) takes) and, in
/// `src/bindings`, for a JavaScript object whose properties are read one by one.
pub trait FileSource {
    /// Why a file's contents could not be read. Loading stops at the first one and returns it.
    type Error;

    /// Every path, in the caller's order. Files are then named by their index in this list.
    fn paths(&self) -> Vec<&str>;

    /// The contents of the file at `index` of [`paths`](Self::paths).
    fn read(&self, index: usize) -> Result<Cow<'_, str>, Self::Error>;
}

/// The in-memory map of path → contents as a [`FileSource`]: reading never fails.
pub struct MapFiles<'a> {
    entries: Vec<(&'a str, &'a str)>,
}

impl<'a> MapFiles<'a> {
    pub fn new(files: &'a BTreeMap<String, String>) -> Self {
        MapFiles { entries: files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect() }
    }
}

impl FileSource for MapFiles<'_> {
    type Error = std::convert::Infallible;

    fn paths(&self) -> Vec<&str> {
        self.entries.iter().map(|&(k, _)| k).collect()
    }

    fn read(&self, index: usize) -> Result<Cow<'_, str>, Self::Error> {
        Ok(Cow::Borrowed(self.entries[index].1))
    }
}

/// One configuration file of a module folder.
#[derive(Clone, Debug)]
pub struct DirFile<'p> {
    /// The normalised path (`modules/net/main.tf`), used as the diagnostics file name.
    pub path: Cow<'p, str>,
    /// Where the file name starts in `path`.
    name_at: usize,
    /// The path as given: of two given paths that normalise alike, the smaller one is loaded.
    given: &'p str,
    pub kind: ConfigFileKind,
    /// The file's index in [`FileSource::paths`], to read its contents.
    pub index: usize,
}

impl DirFile<'_> {
    pub fn name(&self) -> &str {
        &self.path[self.name_at..]
    }
}

/// The given paths grouped by folder: only configuration files, sorted by name; plus where a
/// module manifest could be. Built from the paths alone: no contents are read.
#[derive(Debug, Default)]
pub struct FileTree<'p> {
    dirs: HashMap<Cow<'p, str>, Vec<DirFile<'p>>>,
    /// Every path whose file name is `modules.json`: (normalised path, given path, index).
    manifests: Vec<(Cow<'p, str>, &'p str, usize)>,
}

impl<'p> FileTree<'p> {
    pub fn new(paths: &[&'p str]) -> Self {
        let mut tree = FileTree::default();
        for (index, &given) in paths.iter().enumerate() {
            // Most paths of a repository are not configuration files: decide on the raw name first.
            let config = given.ends_with(".tf") || given.ends_with(".tf.json");
            if !config && !given.ends_with("modules.json") {
                continue;
            }
            let Some(path) = normalize_cow(given) else { continue };
            if !config {
                tree.manifests.push((path, given, index));
                continue;
            }
            let name_at = path.rfind('/').map_or(0, |i| i + 1);
            let Some(kind) = config_file_kind(&path[name_at..]) else { continue };
            let dir = match &path {
                Cow::Borrowed(p) => Cow::Borrowed(&p[..name_at.saturating_sub(1)]),
                Cow::Owned(p) => Cow::Owned(p[..name_at.saturating_sub(1)].to_string()),
            };
            tree.dirs.entry(dir).or_default().push(DirFile { path, name_at, given, kind, index });
        }
        for list in tree.dirs.values_mut() {
            // Terraform reads a folder with os.ReadDir, which sorts by name.
            crate::util::sort::sort_by(list, |a, b| a.name().cmp(b.name()).then_with(|| a.given.cmp(b.given)));
            list.dedup_by(|a, b| a.name() == b.name());
        }
        tree
    }

    /// The configuration files of folder `dir` (normalised), sorted by name; `None` when it has none.
    pub fn files(&self, dir: &str) -> Option<&[DirFile<'p>]> {
        self.dirs.get(dir).map(Vec::as_slice)
    }

    /// The given file whose normalised path is `path` and whose file name is `modules.json`, as
    /// its index in [`FileSource::paths`]. Of several given paths that normalise alike, the one
    /// written exactly as `path`, else the smallest.
    pub fn manifest(&self, path: &str) -> Option<usize> {
        self.manifests
            .iter()
            .filter(|(p, _, _)| p == path)
            .min_by(|a, b| (a.1 != path).cmp(&(b.1 != path)).then_with(|| a.1.cmp(b.1)))
            .map(|&(_, _, index)| index)
    }
}

/// [`normalize_path`] without a copy for the common case of a path already in normal form.
fn normalize_cow(path: &str) -> Option<Cow<'_, str>> {
    let normal = !path.is_empty() && !path.contains('\\') && path.split('/').all(|s| !matches!(s, "" | "." | ".."));
    if normal {
        Some(Cow::Borrowed(path))
    } else {
        normalize_path(path).map(Cow::Owned)
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
        [host, ns, name, provider] => host.contains('.') && name_ok(ns) && name_ok(name) && name_ok(provider),
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
    fn normal_paths_are_not_copied() {
        assert!(matches!(normalize_cow("modules/net/main.tf"), Some(Cow::Borrowed(_))));
        for (input, want) in [
            ("./main.tf", Some("main.tf")),
            ("a//b.tf", Some("a/b.tf")),
            ("a\\b.tf", Some("a/b.tf")),
            ("a/", Some("a")),
            ("", Some("")),
            ("../x.tf", None),
        ] {
            let got = normalize_cow(input);
            assert!(!matches!(got, Some(Cow::Borrowed(_))), "{input}");
            assert_eq!(got.as_deref(), want, "{input}");
        }
    }

    #[test]
    fn tree_groups_config_files_by_folder() {
        let paths = [
            "b.tf",
            "./a.tf",
            "a.tf",
            "README.md",
            "x/.hidden.tf",
            "x/override.tf",
            "x\\main.tf.json",
            "x/y/z.tf",
            ".terraform/modules/modules.json",
            "../outside.tf",
        ];
        let tree = FileTree::new(&paths);
        let names = |dir: &str| -> Vec<(String, usize)> {
            tree.files(dir).unwrap().iter().map(|f| (f.path.to_string(), f.index)).collect()
        };
        // Sorted by name; of `./a.tf` and `a.tf` (same file), the smaller given path.
        assert_eq!(names(""), [("a.tf".to_string(), 1), ("b.tf".to_string(), 0)]);
        assert_eq!(names("x"), [("x/main.tf.json".to_string(), 6), ("x/override.tf".to_string(), 5)]);
        assert_eq!(tree.files("x").unwrap()[1].name(), "override.tf");
        assert!(tree.files("x").unwrap()[1].kind.is_override);
        assert_eq!(names("x/y"), [("x/y/z.tf".to_string(), 7)]);
        assert!(tree.files("y").is_none());
        assert_eq!(tree.manifest(".terraform/modules/modules.json"), Some(8));
        assert_eq!(tree.manifest("envs/.terraform/modules/modules.json"), None);
    }

    #[test]
    fn manifest_prefers_the_exact_path() {
        let paths = [
            "./.terraform/modules/modules.json",
            ".terraform/modules/modules.json",
            "./.terraform//modules/modules.json",
        ];
        assert_eq!(FileTree::new(&paths).manifest(".terraform/modules/modules.json"), Some(1));
        // Otherwise the smallest, as the first in a sorted map.
        let paths = ["./.terraform/modules/modules.json", "./.terraform//modules/modules.json"];
        assert_eq!(FileTree::new(&paths).manifest(".terraform/modules/modules.json"), Some(1));
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
        assert_eq!(
            resolve_module_source("envs/prod", "../../modules/net", "local"),
            Resolution::Local("modules/net".into())
        );
        assert_eq!(resolve_module_source("", "./a/", "local"), Resolution::Local("a".into()));
        assert_eq!(resolve_module_source("", "../x", "local"), Resolution::Outside);
        assert_eq!(resolve_module_source("", "x/y/z", "registry"), Resolution::NotInstalled);
    }
}
