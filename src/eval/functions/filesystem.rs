//! The filesystem functions (Terraform's "Filesystem Functions") over the loaded files: tfgraph
//! never reads a disk, so `file("x")` reads the file `x` of the loaded tree, relative to the
//! root module's directory (Terraform's working directory: hence `"${path.module}/x"` in
//! modules), with Terraform's results and error texts (`internal/lang/funcs/filesystem.go`,
//! and `crypto.go` for the file hashes). `templatefile` is the evaluator's
//! (`eval/expr/template_funcs.rs`).
//!
//! Paths are Terraform's: relative to the working directory (where the root module is), and
//! shown so in errors; an absolute path under the working directory the caller gave
//! ([`FuncContext::cwd`]) reads the loaded file it names, so `"${path.cwd}/x"` works as in
//! Terraform, and `abspath("x")` joins it to that directory.
//!
//! Deliberate differences, for want of a machine: there is no home directory, so
//! `pathexpand("~/x")` is an unknown string (real configurations call it to tell the OS apart;
//! an unknown lets the rest evaluate), as is `abspath("x")` when no working directory was
//! given; reading a file under `~` is an error.

use super::crypto::{hash_bytes, hex, Hash};
use super::encoding::base64_encode;
use super::{FuncContext, FuncError, Function, Param, Registry, Returns};
use crate::eval::types::Type;
use crate::eval::value::Value;

/// The filesystem functions that a `templatestring` template may not call (Terraform's
/// `filesystemFunctions`).
pub const FILESYSTEM_FUNCTIONS: [&str; 11] = [
    "file",
    "fileexists",
    "fileset",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "templatefile",
];

const NO_HOME: &str = "tfgraph has no home directory: it reads only the loaded configuration files";

/// What Terraform shows of a path in an error: the path, or `(sensitive value)`.
fn shown(path: &str, sensitive: bool) -> String {
    if sensitive {
        "(sensitive value)".to_string()
    } else {
        crate::dag::go_quote(path)
    }
}

/// Whether `path` is a directory of the loaded tree (some file lies under it).
fn is_dir(ctx: &FuncContext<'_>, path: &str) -> bool {
    let prefix = if path == "." { String::new() } else { format!("{path}/") };
    ctx.files.paths().iter().any(|p| p.strip_prefix("./").unwrap_or(p).starts_with(&prefix))
}

/// Go's `homedir.Expand` without a home: only paths that need none pass.
fn expand_home(path: &str) -> Result<&str, String> {
    match path.strip_prefix('~') {
        None => Ok(path),
        Some(rest) if rest.is_empty() || rest.starts_with('/') || rest.starts_with('\\') => Err(NO_HOME.to_string()),
        Some(_) => Err("cannot expand user-specific home dir".to_string()),
    }
}

/// Go's `filepath.Clean` (slash-separated): `.` and `..` resolved, separators collapsed.
pub fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&p) if p != ".." => {
                    parts.pop();
                }
                _ if rooted => {}
                _ => parts.push(".."),
            },
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    }
}

/// Go's `filepath.Join(dir, path)` for a relative `path`, `Clean(path)` for an absolute one.
pub fn resolve(dir: &str, path: &str) -> String {
    if path.starts_with('/') {
        clean(path)
    } else {
        clean(&format!("{dir}/{path}"))
    }
}

/// Go's `filepath.Rel(base, target)` for two slash-separated relative paths (`""` is `.`).
pub fn relative(base: &str, target: &str) -> String {
    let base = clean(base);
    let target = clean(target);
    let parts = |p: &str| -> Vec<String> {
        if p == "." {
            Vec::new()
        } else {
            p.split('/').map(str::to_string).collect()
        }
    };
    let (b, t) = (parts(&base), parts(&target));
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); b.len() - common];
    out.extend(t[common..].iter().cloned());
    if out.is_empty() {
        ".".to_string()
    } else {
        out.join("/")
    }
}

/// Where a path argument points: `.0` as Terraform names it (Go's `filepath.Clean` of the
/// path joined to the working directory's `.`, so relative to it; an absolute path as is), `.1`
/// the key of the loaded files it reads (relative paths from the root module's folder
/// `ctx.base_dir`; absolute ones only under the working directory [`FuncContext::cwd`]).
pub fn locate(ctx: &FuncContext<'_>, path: &str) -> (String, String) {
    let named = clean(path);
    if !named.starts_with('/') {
        return (named.clone(), resolve(ctx.base_dir, &named));
    }
    let under = ctx.cwd.map(clean).and_then(|cwd| {
        if named == cwd {
            Some(".".to_string())
        } else {
            let prefix = if cwd == "/" { cwd } else { format!("{cwd}/") };
            named.strip_prefix(&prefix).map(str::to_string)
        }
    });
    // Outside the working directory (or with none given) an absolute path names no loaded file.
    let key = under.map_or_else(|| named.clone(), |rel| resolve(ctx.base_dir, &rel));
    (named, key)
}

/// The bytes of the loaded file at `path` (relative to the working directory), or Terraform's error.
pub fn read_file<'a>(ctx: &FuncContext<'a>, given: &str, sensitive: bool) -> Result<&'a [u8], String> {
    let path = expand_home(given).map_err(|e| format!("failed to expand ~: {e}"))?;
    let (named, key) = locate(ctx, path);
    ctx.files.read(&key).ok_or_else(|| {
        if is_dir(ctx, &key) {
            // Go's error for reading a directory.
            return format!("failed to read file: read {named}: is a directory");
        }
        // The path as given, not as opened (Terraform 1.11 and 1.15 alike).
        format!(
            "no file exists at {}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource",
            shown(given, sensitive)
        )
    })
}

fn path_fn(name: &'static str, returns: Type, imp: super::ImplFn) -> Function {
    Function {
        name,
        params: vec![Param::new("path", Type::String).marked()],
        variadic: None,
        returns: Returns::Type(returns),
        imp,
    }
}

/// `file`/`filebase64`'s shared body: the path argument (marks kept) read as bytes.
fn read_arg<'a>(ctx: &FuncContext<'a>, v: &Value) -> Result<(&'a [u8], bool), FuncError> {
    let sensitive = v.has_sensitive();
    let path = v.unmark_deep().0.as_str().unwrap_or_default().to_string();
    read_file(ctx, &path, sensitive).map(|b| (b, sensitive)).map_err(|m| FuncError::Arg(0, m))
}

/// The file hashes: Terraform opens the file itself (not through `file`), so its errors are
/// Go's `os.Open` / `io.Copy` texts on the call.
fn file_hash(ctx: &FuncContext<'_>, v: &Value, hash: Hash, base64: bool) -> Result<Value, FuncError> {
    let sensitive = v.has_sensitive();
    let path = v.unmark_deep().0.as_str().unwrap_or_default().to_string();
    let path = expand_home(&path).map_err(|e| FuncError::Other(format!("failed to expand ~: {e}")))?;
    let (named, key) = locate(ctx, path);
    let Some(bytes) = ctx.files.read(&key) else {
        return Err(FuncError::Other(if is_dir(ctx, &key) {
            format!("read {named}: is a directory")
        } else {
            format!("open {named}: no such file or directory")
        }));
    };
    let digest = hash_bytes(hash, bytes);
    let text = if base64 { base64_encode(&digest) } else { hex(&digest) };
    Ok(Value::string(text).mark(sensitive))
}

pub(super) fn register(r: &mut Registry) {
    r.add(path_fn("filemd5", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Md5, false)));
    r.add(path_fn("filesha1", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Sha1, false)));
    r.add(path_fn("filesha256", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Sha256, false)));
    r.add(path_fn("filesha512", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Sha512, false)));
    r.add(path_fn("filebase64sha256", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Sha256, true)));
    r.add(path_fn("filebase64sha512", Type::String, |ctx, a, _| file_hash(ctx, &a[0], Hash::Sha512, true)));
    r.add(path_fn("file", Type::String, |ctx, a, _| {
        let (bytes, sensitive) = read_arg(ctx, &a[0])?;
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Value::string(text).mark(sensitive)),
            Err(_) => {
                let path = a[0].unmark_deep().0.as_str().unwrap_or_default().to_string();
                Err(FuncError::Other(format!(
                    "contents of {} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
                    shown(&path, sensitive)
                )))
            }
        }
    }));
    r.add(path_fn("filebase64", Type::String, |ctx, a, _| {
        let (bytes, sensitive) = read_arg(ctx, &a[0])?;
        Ok(Value::string(base64_encode(bytes)).mark(sensitive))
    }));
    r.add(path_fn("fileexists", Type::Bool, |ctx, a, _| {
        let sensitive = a[0].has_sensitive();
        let path = a[0].unmark_deep().0.as_str().unwrap_or_default().to_string();
        let path = expand_home(&path).map_err(|e| FuncError::Other(format!("failed to expand ~: {e}")))?;
        let (named, key) = locate(ctx, path);
        if ctx.files.read(&key).is_some() {
            return Ok(Value::bool(true).mark(sensitive));
        }
        // A directory of the loaded tree: Terraform's error (on "path", index 1 as Terraform
        // numbers it, so it lands on the call).
        if is_dir(ctx, &key) {
            return Err(FuncError::Other(format!("{} is a directory, not a file", shown(&named, sensitive))));
        }
        Ok(Value::bool(false).mark(sensitive))
    }));
    r.add(Function {
        name: "fileset",
        params: vec![Param::new("path", Type::String).marked(), Param::new("pattern", Type::String).marked()],
        variadic: None,
        returns: Returns::Type(Type::set(Type::String)),
        imp: |ctx, a, _| {
            let sensitive = a[0].has_sensitive() || a[1].has_sensitive();
            let path = a[0].unmark_deep().0.as_str().unwrap_or_default().to_string();
            let pattern = a[1].unmark_deep().0.as_str().unwrap_or_default().to_string();
            let (named, base) = locate(ctx, &path);
            let full = clean(&format!("{base}/{pattern}"));
            let glob = Glob::parse(&full).map_err(|e| {
                let named = clean(&format!("{named}/{pattern}"));
                FuncError::Other(format!("failed to glob pattern {}: {e}", shown(&named, sensitive)))
            })?;
            let mut out = Vec::new();
            for p in ctx.files.paths() {
                let p = p.strip_prefix("./").unwrap_or(p);
                if glob.matches(p) {
                    let rel = if base == "." { p } else { p.strip_prefix(&format!("{base}/")).unwrap_or(p) };
                    out.push(Value::string(rel));
                }
            }
            Ok(Value::set(Type::String, out).mark(sensitive))
        },
    });
    r.add(Function {
        name: "basename",
        params: vec![Param::new("path", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| Ok(Value::string(basename(a[0].as_str().unwrap_or_default()))),
    });
    r.add(Function {
        name: "dirname",
        params: vec![Param::new("path", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| Ok(Value::string(dirname(a[0].as_str().unwrap_or_default()))),
    });
    r.add(Function {
        name: "pathexpand",
        params: vec![Param::new("path", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| match expand_home(a[0].as_str().unwrap_or_default()) {
            Ok(p) => Ok(Value::string(p)),
            Err(e) if e == NO_HOME => Ok(Value::unknown(Type::String)),
            Err(e) => Err(FuncError::Other(e)),
        },
    });
    r.add(Function {
        name: "abspath",
        params: vec![Param::new("path", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |ctx, a, _| {
            let p = a[0].as_str().unwrap_or_default();
            Ok(match ctx.cwd {
                _ if p.starts_with('/') => Value::string(clean(p)),
                Some(cwd) => Value::string(clean(&format!("{cwd}/{p}"))),
                None => Value::unknown(Type::String),
            })
        },
    });
}

/// Go's `filepath.Base`.
fn basename(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let t = p.trim_end_matches('/');
    if t.is_empty() {
        return "/".into();
    }
    t.rsplit('/').next().unwrap_or(t).to_string()
}

/// Go's `filepath.Dir`.
fn dirname(p: &str) -> String {
    match p.rfind('/') {
        Some(i) => clean(&p[..=i]),
        None => ".".into(),
    }
}

/// A `doublestar` (v1) glob over slash-separated paths: `**` as a whole segment matches any
/// number of segments, `*` any run within a segment, `?` one character, `[...]` a class
/// (`[!...]`/`[^...]` negated, ranges), `{a,b}` alternatives, `\` escapes.
struct Glob {
    segments: Vec<String>,
}

impl Glob {
    fn parse(pattern: &str) -> Result<Glob, String> {
        let segments: Vec<String> = pattern.split('/').map(str::to_string).collect();
        for s in &segments {
            if s != "**" {
                // Validate by matching against the empty string: a malformed class or brace
                // is Go's ErrBadPattern.
                match_segment(s, "")?;
            }
        }
        Ok(Glob { segments })
    }

    fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        match_segments(&self.segments, &parts)
    }
}

fn match_segments(pat: &[String], parts: &[&str]) -> bool {
    match pat.split_first() {
        None => parts.is_empty(),
        Some((p, rest)) if p == "**" => (0..=parts.len()).any(|k| match_segments(rest, &parts[k..])),
        Some((p, rest)) => match parts.split_first() {
            Some((first, tail)) => match_segment(p, first).unwrap_or(false) && match_segments(rest, tail),
            None => false,
        },
    }
}

const BAD: &str = "syntax error in pattern";

/// One path segment against one pattern segment (no `/` in either).
fn match_segment(pat: &str, name: &str) -> Result<bool, String> {
    // Braces expand into alternatives first.
    if let Some(open) = find_unescaped(pat, '{') {
        let close = matching_brace(pat, open).ok_or_else(|| BAD.to_string())?;
        let (pre, body, post) = (&pat[..open], &pat[open + 1..close], &pat[close + 1..]);
        let mut any = false;
        for alt in split_alternatives(body) {
            any |= match_segment(&format!("{pre}{alt}{post}"), name)?;
        }
        return Ok(any);
    }
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_chars(&p, &n)
}

fn match_chars(p: &[char], n: &[char]) -> Result<bool, String> {
    // Iterative wildcard matching with one backtrack point for `*`.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    loop {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ni));
                    pi += 1;
                    continue;
                }
                '?' if ni < n.len() => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                '[' => {
                    let (ok, len) = class(&p[pi..], n.get(ni).copied())?;
                    if ok && ni < n.len() {
                        pi += len;
                        ni += 1;
                        continue;
                    }
                }
                '\\' => {
                    let c = *p.get(pi + 1).ok_or_else(|| BAD.to_string())?;
                    if n.get(ni) == Some(&c) {
                        pi += 2;
                        ni += 1;
                        continue;
                    }
                }
                c if n.get(ni) == Some(&c) => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                _ => {}
            }
        } else if ni == n.len() {
            return Ok(true);
        }
        match star {
            Some((sp, sn)) if sn < n.len() => {
                star = Some((sp, sn + 1));
                pi = sp + 1;
                ni = sn + 1;
            }
            _ => {
                // Finish scanning the pattern for syntax errors before answering no.
                check_rest(&p[pi.min(p.len())..])?;
                return Ok(false);
            }
        }
    }
}

fn check_rest(p: &[char]) -> Result<(), String> {
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '[' => i += class(&p[i..], None)?.1,
            '\\' if i + 1 >= p.len() => return Err(BAD.into()),
            '\\' => i += 2,
            _ => i += 1,
        }
    }
    Ok(())
}

/// A `[...]` class at the start of `p`: whether `c` is in it, and the class's length.
fn class(p: &[char], c: Option<char>) -> Result<(bool, usize), String> {
    let mut i = 1;
    let negated = matches!(p.get(1), Some('!') | Some('^'));
    if negated {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    loop {
        let Some(&ch) = p.get(i) else { return Err(BAD.into()) };
        if ch == ']' && !first {
            i += 1;
            break;
        }
        first = false;
        let lo = if ch == '\\' {
            i += 1;
            *p.get(i).ok_or_else(|| BAD.to_string())?
        } else {
            ch
        };
        i += 1;
        let mut hi = lo;
        if p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|&x| x != ']') {
            hi = p[i + 1];
            if hi == '\\' {
                hi = *p.get(i + 2).ok_or_else(|| BAD.to_string())?;
                i += 1;
            }
            i += 2;
        }
        if let Some(c) = c {
            hit |= lo <= c && c <= hi;
        }
    }
    Ok((hit != negated, i))
}

fn find_unescaped(s: &str, target: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == target {
            return Some(i);
        }
    }
    None
}

fn matching_brace(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut escaped = false;
    for (i, c) in s[open..].char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

fn split_alternatives(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut escaped) = (0, 0, false);
    for (i, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&body[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_clean_and_join_as_go_does() {
        assert_eq!(clean("a//b/./c/.."), "a/b");
        assert_eq!(clean("../a/../.."), "../..");
        assert_eq!(clean("/../a"), "/a");
        assert_eq!(clean(""), ".");
        assert_eq!(resolve(".", "x.txt"), "x.txt");
        assert_eq!(resolve("modules/a", "../b/x"), "modules/b/x");
        assert_eq!(basename("a/b/"), "b");
        assert_eq!(basename(""), ".");
        assert_eq!(dirname("a/b/c"), "a/b");
        assert_eq!(dirname("c"), ".");
        assert_eq!(dirname("/c"), "/");
        assert_eq!(relative(".", "modules/a"), "modules/a");
        assert_eq!(relative("examples/x", "examples/x"), ".");
        assert_eq!(relative("examples/x", "modules/a"), "../../modules/a");
        assert_eq!(relative("", ""), ".");
    }

    #[test]
    fn doublestar_globs() {
        let g = |p: &str, s: &str| Glob::parse(p).unwrap().matches(s);
        assert!(g("files/*.txt", "files/a.txt"));
        assert!(!g("files/*.txt", "files/sub/a.txt"));
        assert!(g("files/**/*.txt", "files/a.txt"));
        assert!(g("files/**/*.txt", "files/sub/deep/a.txt"));
        assert!(g("files/{a,b}.txt", "files/b.txt"));
        assert!(g("files/[a-c]?.txt", "files/bx.txt"));
        assert!(!g("files/[!a-c]?.txt", "files/bx.txt"));
        assert!(g("**", "any/thing"));
        assert!(Glob::parse("files/[a").is_err());
        assert!(Glob::parse("files/{a").is_err());
    }
}
