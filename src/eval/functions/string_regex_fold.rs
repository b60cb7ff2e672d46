//! Go's `(?i)`: simple case folding, done by the translator (`string_regex_syntax.rs`) rather
//! than by regex-syntax, so the package does not carry regex-syntax's case folding table (its
//! `unicode-case` feature: ~18 KB of the gzipped module, bench/RESULTS.md "size3").
//!
//! Go's `regexp` matches a case-insensitive literal or class against the `unicode.SimpleFold`
//! orbit of each of its code points: the code points equal under Unicode's simple case folding.
//! The translator applies no `i` flag; it builds each such literal as the class of its
//! orbit, and each class (after its own negated members were folded and negated, as Go and
//! regex-syntax both do) folded. Go knows Unicode 15.0, so orbits hold only
//! code points Unicode 15.0 assigned (a letter whose case partner came later folds alone).
//!
//! Natively the orbits are regex-syntax's table (Unicode 16.0 today), cut to 15.0 (code points assigned later, and the three foldings 15.1 added between older ones). In
//! WebAssembly the bindings build them once from the JS engine ([`set_host_orbits`]): the code
//! points of the cased blocks ([`CASED_15_0`]) linked by their single-code-point
//! `toLowerCase`/`toUpperCase`, a group that is not simply a letter and its partner split by
//! `/^x$/iu` (the engine's simple case folding).
//! tests/eval_functions_string.rs checks the native orbits against
//! tests/fixtures/eval/case_orbits.json; tests/wasm_node.rs checks the engine's.

use super::string_regex_unicode::UNASSIGNED_15_0;

/// `ranges` (inclusive, any order) with every orbit member of each code point added, as sorted,
/// merged ranges.
pub fn fold(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = ranges.to_vec();
    with_table(|table, orbits| {
        for &(lo, hi) in ranges {
            let start = table.partition_point(|e| e.0 < lo);
            for &(_, orbit) in table[start..].iter().take_while(|e| e.0 <= hi) {
                out.extend(orbits[orbit as usize].iter().map(|&c| (c, c)));
            }
        }
    });
    merge(out)
}

/// Sorted, overlapping or touching ranges joined.
fn merge(mut v: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    v.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(v.len());
    for (lo, hi) in v {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// Every orbit of two or more code points, each sorted, ordered by its first code point.
pub fn orbits() -> Vec<Vec<u32>> {
    with_table(|_, orbits| orbits.to_vec())
}

/// The blocks that hold every code point of Unicode 15.0 with a case partner (the package asks
/// the JS engine about these only; a test checks that they hold every orbit).
pub const CASED_15_0: &[(u32, u32)] = &[
    (0x41, 0x29E),
    (0x345, 0x586),
    (0x10A0, 0x10FF),
    (0x13A0, 0x13FD),
    (0x1C80, 0x1CBF),
    (0x1D79, 0x1FFC),
    (0x2126, 0x2184),
    (0x24B6, 0x24E9),
    (0x2C00, 0x2D2D),
    (0xA640, 0xA69B),
    (0xA722, 0xA7F6),
    (0xAB53, 0xABBF),
    (0xFB05, 0xFB06),
    (0xFF21, 0xFF5A),
    (0x10400, 0x105BC),
    (0x10C80, 0x10CF2),
    (0x118A0, 0x118DF),
    (0x16E40, 0x16E7F),
    (0x1E900, 0x1E943),
];

/// Whether Unicode 15.0 had assigned `c` (surrogates count as assigned).
pub fn assigned_15_0(c: u32) -> bool {
    let i = UNASSIGNED_15_0.partition_point(|r| r.1 < c);
    UNASSIGNED_15_0.get(i).is_none_or(|r| c < r.0)
}

/// Simple case foldings Unicode 15.1 added between code points 15.0 had (ΐ and ΰ with their
/// oxia twins, the ſt and st ligatures): Go's 15.0 does not fold them (`regexall("(?i)\ufb05",
/// "\ufb06")` is empty in Terraform), regex-syntax's 16.0 table does.
const FOLDED_AFTER_15_0: [[u32; 2]; 3] = [[0x390, 0x1FD3], [0x3B0, 0x1FE3], [0xFB05, 0xFB06]];

/// The orbits ordered, with a `(code point, orbit)` index sorted by code point.
fn index(mut orbits: Vec<Vec<u32>>) -> (Vec<(u32, u32)>, Vec<Vec<u32>>) {
    for o in &mut orbits {
        o.retain(|&c| assigned_15_0(c));
        o.sort_unstable();
        o.dedup();
    }
    orbits.retain(|o| o.len() > 1 && !FOLDED_AFTER_15_0.iter().any(|p| p[..] == o[..]));
    orbits.sort_unstable();
    let mut table: Vec<(u32, u32)> =
        orbits.iter().enumerate().flat_map(|(i, o)| o.iter().map(move |&c| (c, i as u32))).collect();
    table.sort_unstable();
    (table, orbits)
}

type Table = (Vec<(u32, u32)>, Vec<Vec<u32>>);

fn with_table<R>(f: impl FnOnce(&[(u32, u32)], &[Vec<u32>]) -> R) -> R {
    thread_local! {
        static TABLE: std::cell::OnceCell<Table> = const { std::cell::OnceCell::new() };
    }
    TABLE.with(|t| {
        let (table, orbits) = t.get_or_init(|| index(platform_orbits()));
        f(table, orbits)
    })
}

/// regex-syntax's simple case folding, one orbit per code point that has partners.
#[cfg(not(target_arch = "wasm32"))]
fn platform_orbits() -> Vec<Vec<u32>> {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        if seen.contains(&(c as u32)) {
            continue;
        }
        let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
        class.case_fold_simple();
        let orbit: Vec<u32> = class.iter().flat_map(|r| r.start() as u32..=r.end() as u32).collect();
        if orbit.len() > 1 {
            seen.extend(orbit.iter().copied());
            out.push(orbit);
        }
    }
    out
}

/// The host's orbits (WebAssembly only): see the module's text.
#[cfg(target_arch = "wasm32")]
pub type HostOrbits = fn() -> Vec<Vec<u32>>;

#[cfg(target_arch = "wasm32")]
static HOST: std::sync::OnceLock<HostOrbits> = std::sync::OnceLock::new();

/// Installs the host's orbit source (WebAssembly only). Without one `(?i)` folds nothing.
#[cfg(target_arch = "wasm32")]
pub fn set_host_orbits(host: HostOrbits) {
    let _ = HOST.set(host);
}

#[cfg(target_arch = "wasm32")]
fn platform_orbits() -> Vec<Vec<u32>> {
    HOST.get().map(|h| h()).unwrap_or_default()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn kelvin_sigma_and_the_15_0_cut() {
        let f = |c: char| fold(&[(c as u32, c as u32)]);
        assert_eq!(f('k'), vec![(0x4B, 0x4B), (0x6B, 0x6B), (0x212A, 0x212A)]);
        assert_eq!(f('σ'), vec![(0x3A3, 0x3A3), (0x3C2, 0x3C3)]);
        // U+A7CB, Ɤ's capital, came in Unicode 16.0: Go's ɤ folds alone, and so does U+A7CB.
        assert_eq!(f('\u{264}'), vec![(0x264, 0x264)]);
        assert_eq!(f('\u{A7CB}'), vec![(0xA7CB, 0xA7CB)]);
        assert_eq!(f('\u{FB05}'), vec![(0xFB05, 0xFB05)]);
        assert_eq!(fold(&[(0x41, 0x5A)]), vec![(0x41, 0x5A), (0x61, 0x7A), (0x17F, 0x17F), (0x212A, 0x212A)]);
        assert!(assigned_15_0(0x41) && assigned_15_0(0xD800) && !assigned_15_0(0xA7CB));
    }

    #[test]
    fn the_cased_blocks_hold_every_orbit() {
        for c in orbits().into_iter().flatten() {
            assert!(CASED_15_0.iter().any(|&(lo, hi)| lo <= c && c <= hi), "U+{c:X}");
        }
    }

    /// The translator's folding against regex-syntax's own `(?i)` (what the translator handed
    /// it before), pattern by pattern, over every code point in an orbit and a sample of the
    /// others, leaving out those whose orbit Unicode 16.0 changed (there regex-syntax's tables
    /// differ from Go's 15.0, which the translator follows).
    #[test]
    fn translated_folding_is_regex_syntax_folding() {
        use regex_automata::nfa::thompson::pikevm::PikeVM;
        // (Go pattern, the same in regex-syntax's syntax with `(?i)` left to it.)
        let cases = [
            ("(?i)k", "(?i)k"),
            ("(?i)[^k]", "(?i)[^k]"),
            ("(?i)[a-z]", "(?i)[a-z]"),
            ("(?i)[^a-z]", "(?i)[^a-z]"),
            ("(?i)[^\\x{0}-\\x{40}]", "(?i)[^\\x{0}-\\x{40}]"),
            ("(?i)\\w", "(?i)[0-9A-Za-z_]"),
            ("(?i)\\W", "(?i)[^0-9A-Za-z_]"),
            ("(?i)[\\W]", "(?i)[[^0-9A-Za-z_]]"),
            ("(?i)[^\\W]", "(?i)[^[^0-9A-Za-z_]]"),
            ("(?i)[\\Wk]", "(?i)[[^0-9A-Za-z_]k]"),
            ("(?i)[[:^alpha:]]", "(?i)[[:^alpha:]]"),
            ("(?i)[^[:upper:]]", "(?i)[^[:upper:]]"),
            ("(?i)[[:word:]]", "(?i)[[:word:]]"),
            ("(?i)\\p{Lu}", "(?i)\\p{Lu}"),
            ("(?i)\\P{Ll}", "(?i)\\P{Ll}"),
            ("(?i)[\\P{Ll}]", "(?i)[\\P{Ll}]"),
            ("(?i)[^\\p{Lt}x]", "(?i)[^\\p{Lt}x]"),
            ("(?i)\\pL", "(?i)\\pL"),
            ("(?i)[\\x{212A}]", "(?i)[\\x{212A}]"),
            ("(?i)\\x{3C2}", "(?i)\\x{3C2}"),
            ("(?i)\\Qk\\E", "(?i)k"),
            ("(?i)\\123", "(?i)S"),
            ("(?i)[\\Qǅ\\E]", "(?i)[ǅ]"),
            ("(?i:k)", "(?i:k)"),
            ("(?i)(?-i:k)", "k"),
            ("(?i)(k)", "(?i)(k)"),
            ("(?i)(?s-i)k", "k"),
            ("((?i)k)|s", "((?i)k)|s"),
            ("(?i:(?-i)k)|s", "k|s"),
            ("(?is:k.)", "(?is:k.)"),
            ("(?i-s:k)", "(?i:k)"),
        ];
        // Unicode 16.0's orbit of `c` is its 15.0 orbit.
        let all = orbits();
        let stable = |c: u32| {
            let Some(ch) = char::from_u32(c) else { return false };
            let mut class = regex_syntax::hir::ClassUnicode::new([regex_syntax::hir::ClassUnicodeRange::new(ch, ch)]);
            class.case_fold_simple();
            let n16 = class.iter().map(|r| r.end() as usize - r.start() as usize + 1).sum::<usize>();
            n16 == all.iter().find(|o| o.contains(&c)).map_or(1, |o| o.len())
        };
        // Every orbit member, the first code points and a sample of the rest of planes 0 and 1.
        let mut chars: Vec<char> = all
            .iter()
            .flatten()
            .copied()
            .chain(0..0x250)
            .chain((0x250..0x20000).step_by(61))
            .filter(|&c| assigned_15_0(c) && stable(c))
            .filter_map(char::from_u32)
            .collect();
        chars.sort_unstable();
        chars.dedup();
        for (go, rust) in cases {
            let ours = super::super::string_regex_go::compile(&format!("^(?:{go})$")).unwrap();
            let theirs = PikeVM::new(&format!("^(?:{rust})$")).unwrap();
            let mut cache = theirs.create_cache();
            for &c in &chars {
                let text = c.to_string();
                assert_eq!(
                    ours.first(&text).is_some(),
                    theirs.is_match(&mut cache, text.as_str()),
                    "{go} on U+{:X}",
                    c as u32
                );
            }
        }
        // Two-character texts: the flag's scope.
        let ours = |p: &str, t: &str| {
            super::super::string_regex_go::compile(&format!("^(?:{p})$")).unwrap().first(t).is_some()
        };
        assert!(ours("(?i)(?-i:k)K", "kk"));
        assert!(!ours("(?i)(?-i:k)K", "Kk"));
        assert!(ours("a(?i)b|C", "c"));
        assert!(!ours("a(?i)b|C", "Ab"));
        assert!(ours("(a(?i)b)C", "aBC"));
        assert!(!ours("(a(?i)b)C", "aBc"));
    }
}
