//! Go's `regexp` for `regex`, `regexall` and `replace`: patterns translated by
//! `string_regex_syntax.rs`, matched by `regex-automata`'s PikeVM, results shaped as cty
//! shapes them, `$` templates expanded as Go's `Regexp.Expand`.

use super::string_regex_syntax::translate_with_names;
pub use super::string_regex_syntax::GoRegexError;
use super::string_regex_syntax::{err, INVALID_PERL_OP};

/// What `regex` returns per match, from the pattern's groups (cty's
/// `regexPatternResultType`): the whole match, a tuple of the unnamed groups, or an object of
/// the named groups (attribute names sorted, a repeated name once).
#[derive(Debug, PartialEq, Eq)]
pub enum Shape {
    Whole,
    Tuple(usize),
    Object(Vec<String>),
}

pub fn shape(names: &[Option<String>]) -> Result<Shape, &'static str> {
    let named = names.iter().filter(|n| n.is_some()).count();
    match (named, names.len() - named) {
        (0, 0) => Ok(Shape::Whole),
        (0, unnamed) => Ok(Shape::Tuple(unnamed)),
        (_, 0) => {
            let mut attrs: Vec<String> = names.iter().flatten().cloned().collect();
            attrs.sort();
            attrs.dedup();
            Ok(Shape::Object(attrs))
        }
        _ => Err("invalid regexp pattern: cannot mix both named and unnamed capture groups"),
    }
}

/// Go's message for a pattern `regexp.Compile` rejects, as `regexp` formats it.
pub fn go_compile_message(e: &GoRegexError) -> String {
    format!("error parsing regexp: {}: `{}`", e.code, e.expr)
}

/// The spans of one match: index 0 the whole match, then each group (`None` when the group
/// took no part in the match).
pub type Groups = Vec<Option<(usize, usize)>>;

/// A compiled Go pattern with its groups' names (`names[0]` is group 1).
///
/// Matching runs on `regex-automata`'s PikeVM alone, on the NFA compiled from the translated
/// `Hir`: the NFA the `regex` crate uses, with the same leftmost-first semantics and empty-match iteration, but without the
/// meta engine's other engines (34 KB less gzipped wasm; linear time either way).
#[derive(Clone)]
pub struct GoRegex {
    vm: PikeVM,
    pub names: Vec<Option<String>>,
}

use regex_automata::nfa::thompson::{self, pikevm::PikeVM};

impl GoRegex {
    /// The leftmost-first match, as Go's `FindStringSubmatchIndex`.
    pub fn first(&self, s: &str) -> Option<Groups> {
        let mut cache = self.vm.create_cache();
        let mut caps = self.vm.create_captures();
        self.vm.captures(&mut cache, s, &mut caps);
        caps.is_match().then(|| groups(&caps))
    }

    /// Every non-overlapping match, as Go's `FindAllStringSubmatchIndex(s, -1)` (an empty
    /// match right after a match is skipped, as Go does).
    pub fn all(&self, s: &str) -> Vec<Groups> {
        let mut cache = self.vm.create_cache();
        self.vm.captures_iter(&mut cache, s).map(|c| groups(&c)).collect()
    }
}

fn groups(caps: &regex_automata::util::captures::Captures) -> Groups {
    (0..caps.group_len()).map(|i| caps.get_group(i).map(|sp| (sp.start, sp.end))).collect()
}

/// The text of group `i` of a match in `s`.
pub fn group<'a>(s: &'a str, g: &Groups, i: usize) -> Option<&'a str> {
    g.get(i).copied().flatten().map(|(a, b)| &s[a..b])
}

/// Compiles a Go pattern. Patterns that pass Go's syntax but whose program would exceed 8 MiB
/// report Go's "expression too large".
///
/// The last few patterns compiled are kept (a clone shares the compiled program): a `for`
/// expression calling `regex` per element, or a `\p{..}` class (whose ranges are long class
/// text in the package), compiles once.
pub fn compile(pat: &str) -> Result<GoRegex, GoRegexError> {
    use std::cell::RefCell;
    const KEEP: usize = 16;
    thread_local! {
        static RECENT: RefCell<Vec<(String, GoRegex)>> = const { RefCell::new(Vec::new()) };
    }
    if let Some(hit) = RECENT.with(|r| {
        let mut r = r.borrow_mut();
        let i = r.iter().position(|(p, _)| p == pat)?;
        let entry = r.remove(i);
        let re = entry.1.clone();
        r.insert(0, entry);
        Some(re)
    }) {
        return Ok(hit);
    }
    let re = compile_uncached(pat)?;
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        r.truncate(KEEP - 1);
        r.insert(0, (pat.to_string(), re.clone()));
    });
    Ok(re)
}

fn compile_uncached(pat: &str) -> Result<GoRegex, GoRegexError> {
    let t = translate_with_names(pat)?;
    let names = t.names;
    thompson::Compiler::new()
        .configure(thompson::Config::new().nfa_size_limit(Some(8 << 20)))
        .build_from_hir(&t.hir)
        .and_then(PikeVM::new_from_nfa)
        .map(|vm| GoRegex { vm, names })
        .map_err(
            |e| {
                if e.size_limit().is_some() {
                    err("expression too large", pat)
                } else {
                    err(INVALID_PERL_OP, pat)
                }
            },
        )
}

/// Go's `Regexp.Expand` template for `replace`: `$1`, `${1}`, `$name`, `${name}`, `$$`; a
/// name refers to the first group of that name that matched; a malformed `$` is literal.
pub fn expand(template: &str, s: &str, caps: &Groups, names: &[Option<String>], out: &mut String) {
    let mut rest = template;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.as_bytes().get(1) == Some(&b'$') {
            out.push('$');
            rest = &rest[2..];
            continue;
        }
        let is_name = |c: char| c == '_' || c.is_alphanumeric();
        let (name, after) = if rest.as_bytes().get(1) == Some(&b'{') {
            match rest[2..].find('}') {
                Some(end) if end > 0 && rest[2..2 + end].chars().all(is_name) => (&rest[2..2 + end], &rest[3 + end..]),
                _ => ("", rest),
            }
        } else {
            let len = rest[1..].find(|c: char| !is_name(c)).unwrap_or(rest.len() - 1);
            (&rest[1..1 + len], &rest[1 + len..])
        };
        if name.is_empty() {
            out.push('$');
            rest = &rest[1..];
            continue;
        }
        rest = after;
        if name.bytes().all(|b| b.is_ascii_digit()) {
            if let Some(m) = name.parse::<usize>().ok().and_then(|n| group(s, caps, n)) {
                out.push_str(m);
            }
            continue;
        }
        for (i, n) in names.iter().enumerate() {
            if n.as_deref() == Some(name) {
                if let Some(m) = group(s, caps, i + 1) {
                    out.push_str(m);
                    break;
                }
            }
        }
    }
    out.push_str(rest);
}

/// Terraform's `replace`: `substr` wrapped in slashes is a Go pattern (its `$` references
/// expanded as Go does), anything else is replaced literally. The result is limited to
/// `limit` bytes (Terraform has no limit; we error rather than allocate without bound).
pub fn replace(s: &str, substr: &str, replacement: &str, limit: usize) -> Result<String, String> {
    let too_long = || format!("the result would be longer than {limit} bytes");
    if substr.len() > 1 && substr.starts_with('/') && substr.ends_with('/') {
        let g = compile(&substr[1..substr.len() - 1]).map_err(|e| go_compile_message(&e))?;
        let mut out = String::new();
        let mut last = 0;
        for caps in g.all(s) {
            let (start, end) = caps[0].unwrap();
            out.push_str(&s[last..start]);
            expand(replacement, s, &caps, &g.names, &mut out);
            last = end;
            if out.len() > limit {
                return Err(too_long());
            }
        }
        out.push_str(&s[last..]);
        return if out.len() > limit { Err(too_long()) } else { Ok(out) };
    }
    // Go's strings.Replace: an empty substr inserts between every rune and at both ends.
    let count = if substr.is_empty() { s.chars().count() + 1 } else { s.matches(substr).count() };
    let size = s.len() as u128 + count as u128 * replacement.len() as u128;
    if size > limit as u128 {
        return Err(too_long());
    }
    Ok(s.replace(substr, replacement))
}

#[cfg(test)]
mod tests {
    use super::super::string_regex_syntax::*;
    use super::*;

    fn m(p: &str, s: &str) -> Option<String> {
        compile(p).unwrap().first(s).map(|g| group(s, &g, 0).unwrap().to_string())
    }

    #[test]
    fn ascii_perl_classes() {
        assert_eq!(m(r"\d+", "x٣12"), Some("12".into()));
        assert_eq!(m(r"\w+", "éab"), Some("ab".into()));
        assert_eq!(m(r"[\d]+", "x٣12"), Some("12".into()));
        assert_eq!(m(r"[^\D]+", "x12"), Some("12".into()));
        assert_eq!(m(r"\bfoo\b", "a foo b"), Some("foo".into()));
    }

    #[test]
    fn go_literals() {
        assert_eq!(m(r"\Qa.b\E", "xa.b"), Some("a.b".into()));
        assert_eq!(m(r"[[a]+", "x[a["), Some("[a[".into()));
        assert_eq!(m(r"a&&b~~c--d", "a&&b~~c--d"), Some("a&&b~~c--d".into()));
        assert_eq!(m(r"[a&&b]+", "&&"), Some("&&".into()));
        assert_eq!(m(r"x{", "x{"), Some("x{".into()));
        assert_eq!(m(r"\<\>", "<>"), Some("<>".into()));
        assert_eq!(m(r"\101", "A"), Some("A".into()));
        assert_eq!(m(r"[[:alpha:]]+", "12ab"), Some("ab".into()));
        assert_eq!(m(r"a{2}", "aaa"), Some("aa".into()));
        assert_eq!(m(r"(?i)ABC", "xabc"), Some("abc".into()));
        assert_eq!(m(r"a#b", "a#b"), Some("a#b".into()));
    }

    #[test]
    fn go_errors() {
        let e = |p: &str| translate(p).unwrap_err();
        assert_eq!(e("("), err(MISSING_PAREN, "("));
        assert_eq!(e("a)"), err(UNEXPECTED_PAREN, "a)"));
        assert_eq!(e("a{1001}"), err(INVALID_REPEAT_SIZE, "{1001}"));
        assert_eq!(e("(a{100}){11}"), err(INVALID_REPEAT_SIZE, "{11}"));
        assert_eq!(e("(a{100}|b){2,11}?"), err(INVALID_REPEAT_SIZE, "{2,11}?"));
        assert!(translate("((a{10})*){100}").is_ok());
        assert_eq!(e("*?"), err(MISSING_REPEAT_ARG, "*?"));
        assert_eq!(e("a**?"), err(INVALID_REPEAT_OP, "**?"));
        assert_eq!(e("a++"), err(INVALID_REPEAT_OP, "++"));
        assert_eq!(e("a**"), err(INVALID_REPEAT_OP, "**"));
        assert_eq!(e("(?=a)"), err(INVALID_PERL_OP, "(?="));
        assert_eq!(e(r"\1"), err(INVALID_ESCAPE, r"\1"));
        assert_eq!(e(r"\Z"), err(INVALID_ESCAPE, r"\Z"));
        assert_eq!(e("*"), err(MISSING_REPEAT_ARG, "*"));
        assert_eq!(e("[a"), err(MISSING_BRACKET, "[a"));
        assert_eq!(e("[z-a]"), err(INVALID_CHAR_RANGE, "z-a"));
        assert!(translate("a+?").is_ok());
        assert!(translate("(?:a)(?)(?i-s:b)").is_ok());
        assert_eq!(e("(?i-)"), err(INVALID_PERL_OP, "(?i-)"));
    }

    #[test]
    fn names_and_expand() {
        let g = compile("(?P<n>a)(?P<n>b)|(c)").unwrap();
        assert_eq!(g.names, vec![Some("n".to_string()), Some("n".to_string()), None]);
        let caps = g.first("ab").unwrap();
        let mut out = String::new();
        expand("[$n|${2}|$$|$3|$]", "ab", &caps, &g.names, &mut out);
        assert_eq!(out, "[a|b|$||$]");
    }
}
