//! The Go-compatibility layers under the string functions, compiled on their own so that
//! their unit tests run before the evaluator core wires the family files in:
//! Go's RE2 syntax on the `regex` crate, Go's `fmt` verbs for cty's `format`, and Go's
//! `strings` semantics.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../src/eval/functions/string_regex_go.rs"]
#[allow(dead_code)]
mod string_regex_go;

#[path = "../src/eval/functions/string_regex_syntax.rs"]
#[allow(dead_code)]
mod string_regex_syntax;

#[path = "../src/eval/functions/string_regex_unicode.rs"]
#[allow(dead_code)]
mod string_regex_unicode;

#[path = "../src/eval/functions/string_regex_fold.rs"]
#[allow(dead_code)]
mod string_regex_fold;

#[path = "../src/eval/functions/string_format_go.rs"]
#[allow(dead_code)]
mod string_format_go;

#[path = "../src/eval/functions/string_format_num.rs"]
#[allow(dead_code)]
mod string_format_num;

#[path = "../src/eval/functions/string_text.rs"]
#[allow(dead_code)]
mod string_text;

// What the layers name from the rest of the crate (`crate::addrs::quote`, `crate::eval::number`).
mod addrs {
    pub mod quote {
        pub use tfgraph::addrs::quote::*;
    }
}
mod eval {
    pub mod number {
        pub use tfgraph::eval::number::*;
    }
}

use serde_json::{json, Value as Json};

/// The string literals of a call like `regex("a", "b")`, unescaped as HCL does (enough for
/// the fixtures: `\\ \" \n \r \t \uNNNN` and `$${`).
fn literal_args(expr: &str) -> Option<Vec<String>> {
    let open = expr.find('(')?;
    let mut out = Vec::new();
    let mut chars = expr[open + 1..expr.len() - 1].chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ' || *c == ',') {
            chars.next();
        }
        match chars.next() {
            None => return Some(out),
            Some('"') => {}
            Some(_) => return None,
        }
        let mut s = String::new();
        loop {
            match chars.next()? {
                '"' => break,
                '\\' => match chars.next()? {
                    'n' => s.push('\n'),
                    'r' => s.push('\r'),
                    't' => s.push('\t'),
                    '"' => s.push('"'),
                    '\\' => s.push('\\'),
                    'u' => {
                        let hex: String = (0..4).map(|_| chars.next().unwrap()).collect();
                        let c = char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?;
                        s.push(if c == '\u{212A}' { 'K' } else { c });
                    }
                    _ => return None,
                },
                // `$${` is HCL's escape for a literal `${`; `${` itself interpolates (not a
                // literal: the caller skips the case).
                '$' if chars.peek() == Some(&'$') => {
                    chars.next();
                    s.push('$');
                    if chars.peek() == Some(&'{') {
                        chars.next();
                        s.push('{');
                    } else {
                        s.push('$');
                    }
                }
                '$' if chars.peek() == Some(&'{') => return None,
                // cty normalises strings to NFC; the one non-NFC character the fixtures use is
                // the Kelvin sign, which NFC turns into `K`.
                '\u{212A}' => s.push('K'),
                c => s.push(c),
            }
        }
        out.push(s);
    }
}

fn regex_result(g: &string_regex_go::GoRegex, s: &str, caps: &string_regex_go::Groups) -> Json {
    if g.names.is_empty() {
        return json!(string_regex_go::group(s, caps, 0).unwrap());
    }
    let group = |i: usize| string_regex_go::group(s, caps, i + 1).map_or(Json::Null, |m| json!(m));
    if g.names.iter().all(Option::is_some) {
        let mut obj = serde_json::Map::new();
        for (i, n) in g.names.iter().enumerate() {
            // Go fills the object in group order: a repeated name keeps the last group.
            obj.insert(n.clone().unwrap(), group(i));
        }
        Json::Object(obj)
    } else {
        Json::Array((0..g.names.len()).map(group).collect())
    }
}

/// Every `regex`, `regexall` and `replace` case of the string fixtures whose arguments are
/// literal strings, answered by the Go-RE2 layer alone and compared with Terraform's result.
#[test]
fn regex_layer_matches_terraform_fixtures() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut cases = Vec::new();
    // string_regex.json: 485 generated pattern × input cases (Perl and POSIX classes, Unicode
    // categories and scripts, case folding, flags, anchors, empty matches, octal and hex
    // escapes, Go's syntax errors) and replace templates.
    for file in ["string.json", "string_more.json", "string_regex.json"] {
        let path = format!("{}/tests/fixtures/eval/functions/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        cases.extend(doc["cases"].as_array().unwrap().clone());
    }
    for case in &cases {
        let expr = case["expr"].as_str().unwrap();
        let func = expr.split('(').next().unwrap();
        if !matches!(func, "regex" | "regexall" | "replace") {
            continue;
        }
        let Some(args) = literal_args(expr) else { continue };
        let want_err = case.get("error").map(|e| e["detail"].as_str().unwrap().to_string());
        let want_val = case.get("value").cloned();
        let got: Result<Json, String> = match func {
            "regex" | "regexall" if args.len() == 2 => match string_regex_go::compile(&args[0]) {
                Err(e) => Err(format!(
                    "Invalid value for \"pattern\" parameter: invalid regexp pattern: {} in {}.",
                    e.code, e.expr
                )),
                Ok(g) if string_regex_go::shape(&g.names).is_err() => Err(format!(
                    "Invalid value for \"pattern\" parameter: {}.",
                    string_regex_go::shape(&g.names).unwrap_err()
                )),
                Ok(g) if func == "regex" => match g.first(&args[1]) {
                    Some(c) => Ok(regex_result(&g, &args[1], &c)),
                    None => {
                        Err("Call to function \"regex\" failed: pattern did not match any part of the given string."
                            .into())
                    }
                },
                Ok(g) => Ok(Json::Array(g.all(&args[1]).iter().map(|c| regex_result(&g, &args[1], c)).collect())),
            },
            "replace" if args.len() == 3 => string_regex_go::replace(&args[0], &args[1], &args[2], 16 << 20)
                .map(|v| json!(v))
                .map_err(|m| format!("Call to function \"replace\" failed: {m}.")),
            _ => continue,
        };
        checked += 1;
        let ok = match (&got, &want_err, &want_val) {
            (Err(g), Some(w), _) => g == w,
            (Ok(g), None, Some(w)) => g == w,
            _ => false,
        };
        if !ok {
            failures.push(format!("{expr}: want {want_err:?} {want_val:?}, got {got:?}"));
        }
    }
    eprintln!("regex: {checked} recorded cases checked");
    assert!(checked >= 500, "only {checked} regex cases checked");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

/// cty normalises every string value to NFC (`"e\u0301"` is `"é"`, Hangul jamo compose):
/// the value model's string constructor does that, not these layers, so the layer tests skip
/// the fixture cases written with combining marks or conjoining jamo.
fn is_nfc_sample(expr: &str) -> bool {
    !expr.contains("\\u030") && !expr.chars().any(|c| matches!(c as u32, 0x0300..=0x036F | 0x1100..=0x11FF))
}

/// A literal argument of a `format` fixture case, when it is one the layer can take alone.
fn literal_arg(text: &str) -> Option<string_format_go::Arg> {
    use string_format_go::{Arg, Decimal};
    let t = text.trim();
    if t == "null" {
        return Some(Arg::Null);
    }
    if t == "true" || t == "false" {
        return Some(Arg::Bool(t == "true"));
    }
    if t.starts_with('"') {
        return literal_args(&format!("f({t})")).map(|mut v| Arg::String(v.remove(0)));
    }
    let d = Decimal::parse(t)?;
    let plain = d.to_plain();
    Some(Arg::Number(d, plain))
}

/// Splits `f(a, b, c)`'s arguments at top-level commas (strings may hold commas).
fn split_args(expr: &str) -> Vec<String> {
    let inner = &expr[expr.find('(').unwrap() + 1..expr.len() - 1];
    let (mut out, mut cur, mut in_str, mut esc, mut depth) = (Vec::new(), String::new(), false, false, 0);
    for c in inner.chars() {
        if in_str {
            cur.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                cur.push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' | '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

/// Every `format` case of the string fixtures whose arguments are literals, answered by the
/// Go-fmt layer alone and compared with Terraform's result text or error.
#[test]
fn format_layer_matches_terraform_fixtures() {
    use string_format_go::{format_values, FormatError};
    let (mut checked, mut failures) = (0, Vec::new());
    let mut cases = Vec::new();
    // string_format.json: 474 generated verb/flag/width/precision/value combinations.
    for file in ["string.json", "string_more.json", "string_format.json", "string_grapheme.json"] {
        let path = format!("{}/tests/fixtures/eval/functions/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        cases.extend(doc["cases"].as_array().unwrap().clone());
    }
    for case in &cases {
        let expr = case["expr"].as_str().unwrap();
        if !expr.starts_with("format(") {
            continue;
        }
        let parts = split_args(expr);
        let Some(fmt) = parts.first().and_then(|p| literal_args(&format!("f({p})"))).map(|mut v| v.remove(0)) else {
            continue;
        };
        let Some(args) = parts[1..].iter().map(|p| literal_arg(p)).collect::<Option<Vec<_>>>() else { continue };
        if !is_nfc_sample(expr) {
            continue;
        }
        checked += 1;
        let got = match format_values(&fmt, &args) {
            Ok(s) => Ok(json!(s)),
            Err(FormatError::Call(m)) => Err(format!("Call to function \"format\" failed: {m}.")),
            Err(FormatError::Arg(_, m)) => Err(format!("Invalid value for \"args\" parameter: {m}.")),
        };
        let ok = match (&got, case.get("error"), case.get("value")) {
            (Err(g), Some(w), _) => g == w["detail"].as_str().unwrap(),
            (Ok(g), None, Some(w)) => g == w,
            _ => false,
        };
        if !ok {
            failures.push(format!("{expr}: want {:?} {:?}, got {got:?}", case.get("error"), case.get("value")));
        }
    }
    eprintln!("format: {checked} recorded cases checked");
    assert!(checked >= 500, "only {checked} format cases checked");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

/// The plain string functions over literal arguments (strings where the parameter is a
/// string, integers where it is a number), answered by `string_text` and compared with
/// Terraform's recorded values.
#[test]
fn text_layer_matches_terraform_fixtures() {
    use string_text as t;
    let (mut checked, mut failures) = (0, Vec::new());
    let mut cases = Vec::new();
    // string_casemap.json: upper/lower/title over every NFC-stable letter and number of 19
    // Unicode blocks (Latin, IPA, Greek, Cyrillic, Armenian, Georgian, Cherokee, Glagolitic,
    // Coptic, Deseret, Adlam, fullwidth, ...), recorded from Terraform.
    for file in ["string.json", "string_more.json", "string_casemap.json", "string_grapheme.json"] {
        let path = format!("{}/tests/fixtures/eval/functions/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        cases.extend(doc["cases"].as_array().unwrap().clone());
    }
    for case in &cases {
        let expr = case["expr"].as_str().unwrap();
        let func = expr.split('(').next().unwrap();
        let parts = split_args(expr);
        let s = |i: usize| -> Option<String> {
            let p = parts.get(i)?;
            p.starts_with('"').then(|| literal_args(&format!("f({p})")).map(|mut v| v.remove(0)))?
        };
        let n = |i: usize| -> Option<i64> { parts.get(i)?.parse().ok() };
        let got: Option<Result<Json, String>> = (|| {
            Some(match (func, parts.len()) {
                ("upper", 1) => Ok(json!(t::upper(&s(0)?))),
                ("lower", 1) => Ok(json!(t::lower(&s(0)?))),
                ("title", 1) => Ok(json!(t::title(&s(0)?))),
                ("chomp", 1) => Ok(json!(t::chomp(&s(0)?))),
                ("trimspace", 1) => Ok(json!(t::trim_space(&s(0)?))),
                ("strrev", 1) => Ok(json!(t::strrev(&s(0)?))),
                ("length", 1) => Ok(json!(t::strlen(&s(0)?))),
                ("trim", 2) => Ok(json!(t::trim_cutset(&s(0)?, &s(1)?))),
                ("trimprefix", 2) => Ok(json!(s(0)?.strip_prefix(s(1)?.as_str()).map(str::to_string).unwrap_or(s(0)?))),
                ("trimsuffix", 2) => Ok(json!(s(0)?.strip_suffix(s(1)?.as_str()).map(str::to_string).unwrap_or(s(0)?))),
                ("startswith", 2) => Ok(json!(s(0)?.starts_with(s(1)?.as_str()))),
                ("endswith", 2) => Ok(json!(s(0)?.ends_with(s(1)?.as_str()))),
                ("strcontains", 2) => Ok(json!(s(0)?.contains(s(1)?.as_str()))),
                ("split", 2) => Ok(json!(t::split(&s(0)?, &s(1)?))),
                ("substr", 3) => Ok(json!(t::substr(&s(0)?, n(1)?, n(2)?))),
                ("indent", 2) => t::indent(n(0)?, &s(1)?)
                    .map(|v| json!(v))
                    .map_err(|e| format!("Call to function \"indent\" failed: {e}.")),
                _ => return None,
            })
        })();
        let Some(got) = got else { continue };
        // cty normalises every string value to NFC (`"e\u0301"` is `"é"`): the value model's
        // string constructor does that, not these layers.
        if !is_nfc_sample(expr) {
            continue;
        }
        checked += 1;
        let ok = match (&got, case.get("error"), case.get("value")) {
            (Err(g), Some(w), _) => g == w["detail"].as_str().unwrap(),
            (Ok(g), None, Some(w)) => g == w,
            _ => false,
        };
        if !ok {
            failures.push(format!("{expr}: want {:?} {:?}, got {got:?}", case.get("error"), case.get("value")));
        }
    }
    eprintln!("text: {checked} recorded cases checked");
    assert!(checked >= 120, "only {checked} text cases checked");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

/// Hostile input gets an answer or a clear error, quickly: RE2 semantics are linear, a
/// pattern whose program would be huge is refused, huge results are refused.
#[test]
fn hostile_input_is_bounded() {
    let start = std::time::Instant::now();
    let long = "a".repeat(100_000);
    let g = string_regex_go::compile("(a*)*b").unwrap();
    assert!(g.first(&long).is_none());
    let g = string_regex_go::compile("(x+x+)+y").unwrap();
    assert!(g.first(&"x".repeat(50_000)).is_none());
    // Go refuses nested counts multiplying past 1000; a program past 8 MiB is refused too (Go's
    // own bound is larger: `\pL{1000}\pN{1000}` compiles there).
    let e = string_regex_go::compile("((a{1000}){1000}){1000}").err().unwrap();
    assert_eq!(e.code, "invalid repeat count");
    let e = string_regex_go::compile(r"(\pL{1000}\pN{1000})").err().unwrap();
    assert_eq!(e.code, "expression too large");
    let deep = "(".repeat(2000) + &")".repeat(2000);
    assert_eq!(string_regex_go::compile(&deep).err().unwrap().code, "expression nests too deeply");
    assert!(string_regex_go::replace(&long, "", &"b".repeat(1000), 16 << 20).is_err());
    assert!(string_regex_go::replace(&long, "/a/", &"b".repeat(1000), 16 << 20).is_err());
    assert!(string_text::indent(i64::MAX, "a\nb").is_err());
    use string_format_go::{format_values, Arg};
    assert!(format_values("%99999999999999999999s", &[Arg::String("a".into())]).is_err());
    assert!(format_values("%.99999999999f", &[Arg::Bool(true)]).is_err());
    assert_eq!(format_values("%1000000s", &[Arg::String("a".into())]).unwrap().len(), 1_000_000);
    assert!(format_values(&"%1000000[1]s".repeat(20), &[Arg::String("a".into())]).is_err());
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "took {:?}", start.elapsed());
}

/// `format`'s string → number conversion (%d of "12") is cty's: it accepts exactly what
/// `tonumber` accepts. Checked against every recorded `tonumber("...")` case.
#[test]
fn number_parsing_matches_tonumber_fixtures() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/functions/conversion.json");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for case in doc["cases"].as_array().unwrap() {
        let expr = case["expr"].as_str().unwrap();
        let Some(arg) = expr.strip_prefix("tonumber(").and_then(|r| literal_args(&format!("f({}", r))) else {
            continue;
        };
        if arg.len() != 1 {
            continue;
        }
        let parsed = string_format_go::parse_cty_number(&arg[0]);
        match case.get("rendered").and_then(Json::as_str) {
            Some(r) => {
                let d = parsed.unwrap_or_else(|| panic!("{expr}: Terraform gives {r}, we refuse it"));
                let ours = if d.inf {
                    d.to_plain()
                } else if d.neg && d.is_zero() {
                    "-0".into()
                } else {
                    d.to_plain()
                };
                assert_eq!(ours, r, "{expr}");
            }
            None => assert!(parsed.is_none(), "{expr}: Terraform refuses it, we accept it"),
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} tonumber cases");
}

mod support;
use support::console as harness;

/// The harness the family tests use reads every fixture file, and its comparison accepts a
/// case's own answer and rejects a wrong one (the plumbing, before the evaluator exists).
#[test]
fn harness_reads_every_fixture_file() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/functions");
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".json") {
            continue;
        }
        let (_, cases) = harness::load(&name);
        let echo = |c: &harness::Case| -> harness::Outcome {
            let e = &c.expected;
            match e.get("error") {
                Some(err) => harness::Outcome::Error {
                    summary: err["summary"].as_str().unwrap().into(),
                    detail: err["detail"].as_str().unwrap().into(),
                    start: err.get("start").and_then(Json::as_u64).map(|v| v as usize),
                    end: err.get("end").and_then(Json::as_u64).map(|v| v as usize),
                },
                None => harness::Outcome::Value {
                    json: e
                        .get("json")
                        .and_then(Json::as_str)
                        .map(str::to_string)
                        .or_else(|| e.get("value").map(|v| v.to_string())),
                    ty: e["type"].as_str().unwrap().into(),
                    rendered: e["rendered"].as_str().unwrap().into(),
                },
            }
        };
        let by_expr: std::collections::HashMap<String, &harness::Case> =
            cases.iter().map(|c| (c.expr.clone(), c)).collect();
        total += harness::run(&name, |_, expr| echo(by_expr[expr]));
        let wrong =
            harness::check(&name, |_, _| harness::Outcome::Value { json: None, ty: "x".into(), rendered: "x".into() });
        assert!(wrong.is_err(), "{name}: a wrong answer passed");
    }
    assert!(total > 1900, "only {total} cases");
}

mod never_panics {
    //! Random input through every layer: an answer or an error, never a panic.
    use super::{string_format_go as f, string_regex_go as r, string_text as t};
    use proptest::prelude::*;

    fn pattern_chars() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('\\'),
                Just('('),
                Just(')'),
                Just('['),
                Just(']'),
                Just('{'),
                Just('}'),
                Just('?'),
                Just('*'),
                Just('+'),
                Just('|'),
                Just('^'),
                Just('$'),
                Just('-'),
                Just(':'),
                Just('P'),
                Just('<'),
                Just('>'),
                Just('p'),
                Just('Q'),
                Just('E'),
                Just('x'),
                Just('1'),
                Just('0'),
                Just(','),
                Just('i'),
                Just('d'),
                Just('w'),
                Just('é'),
                Just('a'),
                any::<char>(),
            ],
            0..24,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    fn format_chars() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('%'),
                Just('['),
                Just(']'),
                Just('.'),
                Just('-'),
                Just('+'),
                Just('#'),
                Just(' '),
                Just('0'),
                Just('1'),
                Just('9'),
                Just('9'),
                Just('9'),
                Just('d'),
                Just('s'),
                Just('v'),
                Just('f'),
                Just('x'),
                Just('e'),
                Just('g'),
                Just('q'),
                Just('t'),
                Just('b'),
                any::<char>(),
            ],
            0..16,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    fn arg() -> impl Strategy<Value = f::Arg> {
        prop_oneof![
            Just(f::Arg::Null),
            any::<bool>().prop_map(f::Arg::Bool),
            "[a-z0-9 é🤔.-]{0,6}".prop_map(f::Arg::String),
            (any::<u32>(), 0u32..6, any::<bool>()).prop_map(|(m, e, neg)| {
                let text = format!("{}{m}e-{e}", if neg { "-" } else { "" });
                let d = f::Decimal::parse(&text).unwrap();
                let plain = d.to_plain();
                f::Arg::Number(d, plain)
            }),
            Just(f::Arg::Other("[1]".into())),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        #[test]
        fn regex(pat in pattern_chars(), s in "[a-zé1 \\n]{0,12}", rep in "[$a-z1{}]{0,6}") {
            if let Ok(g) = r::compile(&pat) {
                let _ = r::shape(&g.names);
                for caps in g.all(&s) {
                    let mut out = String::new();
                    r::expand(&rep, &s, &caps, &g.names, &mut out);
                }
            }
            let _ = r::replace(&s, &format!("/{pat}/"), &rep, 1 << 16);
        }

        #[test]
        fn format(fmt in format_chars(), args in proptest::collection::vec(arg(), 0..4)) {
            let _ = f::format_values(&fmt, &args);
        }

        #[test]
        fn text(s in "\\PC{0,12}", a in any::<i64>(), b in any::<i64>(), cut in "\\PC{0,3}") {
            let _ = (t::substr(&s, a, b), t::strrev(&s), t::strlen(&s), t::title(&s), t::upper(&s), t::lower(&s));
            let _ = (t::trim_cutset(&s, &cut), t::trim_space(&s), t::chomp(&s), t::split(&cut, &s));
            let _ = t::indent(a % 64, &s);
            let _ = f::parse_cty_number(&s);
        }
    }
}

/// Every `formatlist` case whose arguments are literals or tuples of literals, through the
/// layer, compared with Terraform.
#[test]
fn formatlist_layer_matches_terraform_fixtures() {
    use string_format_go::{formatlist_values, FormatError, ListArg};
    let (mut checked, mut failures) = (0, Vec::new());
    for file in ["string.json", "string_more.json"] {
        let path = format!("{}/tests/fixtures/eval/functions/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let expr = case["expr"].as_str().unwrap();
            if !expr.starts_with("formatlist(") || !is_nfc_sample(expr) {
                continue;
            }
            let parts = split_args(expr);
            let Some(fmt) = parts.first().and_then(|p| literal_args(&format!("f({p})"))).map(|mut v| v.remove(0))
            else {
                continue;
            };
            let arg = |p: &String| -> Option<ListArg> {
                if p.starts_with('[') {
                    let inner = split_args(&format!("f({})", &p[1..p.len() - 1]));
                    inner
                        .iter()
                        .map(|x| literal_arg(x))
                        .collect::<Option<Vec<_>>>()
                        .map(|v| ListArg::Seq(v.into_iter().map(Some).collect()))
                } else {
                    literal_arg(p).map(|a| ListArg::Single(Some(a)))
                }
            };
            let Some(args) = parts[1..].iter().map(arg).collect::<Option<Vec<_>>>() else { continue };
            checked += 1;
            let got = match formatlist_values(&fmt, &args) {
                Ok(v) => Ok(json!(v)),
                Err(FormatError::Call(m)) => Err(format!("Call to function \"formatlist\" failed: {m}.")),
                Err(FormatError::Arg(_, m)) => Err(format!("Invalid value for \"args\" parameter: {m}.")),
            };
            let ok = match (&got, case.get("error"), case.get("value")) {
                (Err(g), Some(w), _) => g == w["detail"].as_str().unwrap(),
                (Ok(g), None, Some(w)) => g == w,
                _ => false,
            };
            if !ok {
                failures.push(format!("{expr}: want {:?} {:?}, got {got:?}", case.get("error"), case.get("value")));
            }
        }
    }
    eprintln!("formatlist: {checked} recorded cases checked");
    assert!(checked >= 10, "only {checked} formatlist cases checked");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}
