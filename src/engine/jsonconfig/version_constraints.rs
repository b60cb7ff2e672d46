//! Provider version constraints in Terraform's canonical form
//! (`providerreqs.VersionConstraintsString`): every term of every constraint string,
//! deduplicated, omitted version parts written as zeros, sorted by version and then by operator
//! (`>`, `>=`, `=`, `~> x.y.z`, `~> x.y`, `<=`, `<`, `!=`), joined with `, `.

/// One term: the operator's rank in Terraform's order, the version, and how `~>` is written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Term {
    rank: u8,
    op: &'static str,
    nums: [u64; 3],
    pre: String,
    meta: String,
}

fn parse(term: &str) -> Option<Term> {
    let t = term.trim();
    let (op, rest) = [">=", "<=", "~>", "!=", ">", "<", "="]
        .iter()
        .find_map(|op| t.strip_prefix(op).map(|r| (*op, r)))
        .unwrap_or(("=", t));
    let rest = rest.trim().trim_start_matches('v');
    let (rest, meta) = rest.split_once('+').unwrap_or((rest, ""));
    let (core, pre) = rest.split_once('-').unwrap_or((rest, ""));
    let parts: Vec<&str> = core.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut nums = [0u64; 3];
    for (i, p) in parts.iter().enumerate() {
        nums[i] = p.parse().ok()?;
    }
    // `~> 1` and `~> 1.2` allow minor updates (written with two parts); `~> 1.2.3` patch ones.
    let (rank, op) = match op {
        ">" => (1, ">"),
        ">=" => (2, ">="),
        "=" => (3, ""),
        "~>" if parts.len() == 3 => (4, "~>"),
        "~>" => (5, "~>2"),
        "<=" => (6, "<="),
        "<" => (7, "<"),
        _ => (8, "!="),
    };
    Some(Term { rank, op, nums, pre: pre.to_string(), meta: meta.to_string() })
}

fn write(t: &Term) -> String {
    let version = if t.op == "~>2" {
        format!("{}.{}", t.nums[0], t.nums[1])
    } else {
        format!("{}.{}.{}", t.nums[0], t.nums[1], t.nums[2])
    };
    let op = match t.op {
        "~>2" => "~> ",
        "" => "",
        o => return format!("{o} {version}{}{}", suffix('-', &t.pre), suffix('+', &t.meta)),
    };
    format!("{op}{version}{}{}", suffix('-', &t.pre), suffix('+', &t.meta))
}

fn suffix(c: char, s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("{c}{s}")
    }
}

/// The canonical form of the constraint strings `given` (terms that do not parse are left out,
/// as Terraform refuses them earlier).
pub fn canonical(given: &[String]) -> String {
    let mut terms: Vec<Term> = Vec::new();
    for t in given.iter().flat_map(|g| g.split(',')).filter_map(parse) {
        if !terms.contains(&t) {
            terms.push(t);
        }
    }
    // A prerelease sorts before its release.
    let key = |t: &Term| (t.nums, t.pre.is_empty(), t.pre.clone(), t.meta.clone(), t.rank);
    crate::util::sort::sort_by_key(&mut terms, key);
    terms.iter().map(write).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn canonical_forms() {
        let cases: &[(&[&str], &str)] = &[
            (&[], ""),
            (&["~> 1.2"], "~> 1.2"),
            (&["~> 1"], "~> 1.0"),
            (&["~> 1.2.0"], "~> 1.2.0"),
            (&[">= 2"], ">= 2.0.0"),
            (&["1.0"], "1.0.0"),
            (&["< 3.0, >= 2.1"], ">= 2.1.0, < 3.0.0"),
            (&[">= 2.0", ">= 2.0.0"], ">= 2.0.0"),
            (&["!= 1.5.0", "> 1.0"], "> 1.0.0, != 1.5.0"),
            (&["= 1.0.0-beta"], "1.0.0-beta"),
        ];
        for (given, want) in cases {
            let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
            assert_eq!(canonical(&given), *want, "{given:?}");
        }
    }
}
