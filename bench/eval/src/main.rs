//! `cargo run --release --manifest-path bench/eval/Cargo.toml`: tfgraph's evaluator and
//! hcl-rs's `eval`, side by side in one run, on the expressions both can evaluate:
//!
//! - **corpus**: every variable default, local and output expression of every module of every
//!   root of `../shared/corpus` (or `$TFGRAPH_CORPUS`) that both evaluate without error in a
//!   scope with no names (hcl-rs has no Terraform scope), each parsed and evaluated;
//! - **generated**: 20,000 function-heavy expressions (string functions in templates, `for`
//!   expressions, conditionals, arithmetic), with `upper`, `lower` and `length` declared to
//!   hcl-rs as it asks (it has no built-in functions).
//!
//! Prints the time of each, per expression, and the ratio. hcl-rs has no unknown values, no
//! sensitive marks and no 512-bit numbers: the comparison favours it.

use hcl::eval::{Context, Evaluate, FuncArgs, FuncDef, ParamType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tfgraph::diag::Pos;
use tfgraph::eval::functions::{NoFilesystem, Registry};
use tfgraph::eval::module_scope::{eval_text, Inputs};
use tfgraph::eval::scope::EmptyScope;

fn hcl_context() -> Context<'static> {
    fn s(args: &FuncArgs) -> String {
        args[0].as_str().unwrap_or_default().to_string()
    }
    let mut ctx = Context::new();
    ctx.declare_func("upper", FuncDef::builder().param(ParamType::String).build(|a| Ok(s(&a).to_uppercase().into())));
    ctx.declare_func("lower", FuncDef::builder().param(ParamType::String).build(|a| Ok(s(&a).to_lowercase().into())));
    ctx.declare_func(
        "length",
        FuncDef::builder().param(ParamType::Any).build(|a| {
            Ok(match &a[0] {
                hcl::Value::String(s) => s.chars().count().into(),
                hcl::Value::Array(v) => v.len().into(),
                hcl::Value::Object(m) => m.len().into(),
                _ => return Err("bad argument".into()),
            })
        }),
    );
    ctx
}

fn hcl_eval(ctx: &Context<'_>, src: &str) -> bool {
    match src.parse::<hcl::Expression>() {
        Ok(e) => e.evaluate(ctx).is_ok(),
        Err(_) => false,
    }
}

fn ours(inputs: &Inputs<'_>, src: &str) -> bool {
    eval_text(&EmptyScope, inputs, "<bench>", src, Pos { line: 1, column: 1, byte: 0 }).is_ok()
}

fn corpus_expressions() -> Vec<String> {
    let corpus = std::env::var("TFGRAPH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let Ok(index) = std::fs::read_to_string(corpus.join("INDEX.tsv")) else {
        eprintln!("no corpus at {}", corpus.display());
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut header = true;
    let mut roots: Vec<String> = Vec::new();
    for line in index.lines() {
        if header {
            header = false;
            continue;
        }
        if let Some(root) = line.split('\t').next() {
            roots.push(root.to_string());
        }
    }
    let mut repos: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for root in roots {
        let (repo, sub) = root.split_once('/').unwrap_or((&root, ""));
        let files = repos.entry(repo.to_string()).or_insert_with(|| read_tree(&corpus.join(repo)));
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: sub.to_string() });
        for m in loaded.config.modules() {
            for v in &m.variables {
                out.extend(v.default.iter().map(|d| d.source.clone()));
            }
            out.extend(m.locals.iter().map(|l| l.expr.source.clone()));
            out.extend(m.outputs.iter().map(|o| o.value.source.clone()));
        }
    }
    out.retain(|e| !e.trim_start().starts_with('{') || !e.contains('"') || true);
    out
}

fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.insert(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned(), text);
                }
            }
        }
    }
    out
}

fn generated(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 5 {
            0 => format!("upper(\"name-{i}\") == \"NAME-{i}\" ? length(\"abc{i}\") * 2 : 0"),
            1 => format!("[for s in [\"a{i}\", \"b\", \"c\"] : \"${{upper(s)}}-${{length(s)}}\"]"),
            2 => format!("{{ for k in [\"x\", \"y\", \"z{i}\"] : k => lower(upper(k)) }}"),
            3 => format!("\"${{lower(\"A{i}\")}}/${{upper(\"b\")}}/${{length([1, 2, {i}])}}\""),
            _ => format!("length([for n in [1, 2, 3, {i}] : n * {i} + 1 if n > 1]) + {i} % 7"),
        })
        .collect()
}

fn time(label: &str, runs: usize, exprs: &[String], mut f: impl FnMut(&str) -> bool) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let mut ok = 0;
        for e in exprs {
            ok += f(e) as usize;
        }
        assert_eq!(ok, exprs.len(), "{label}: some expressions failed");
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let funcs = Registry::builtin();
    let vars = BTreeMap::new();
    let inputs = Inputs { unset_variables_unknown: true, ..Inputs::new(&vars, &NoFilesystem, &funcs) };
    let ctx = hcl_context();
    let mut corpus = corpus_expressions();
    let total = corpus.len();
    corpus.retain(|e| ours(&inputs, e) && hcl_eval(&ctx, e));
    let generated = generated(20_000);
    assert!(generated.iter().all(|e| ours(&inputs, e) && hcl_eval(&ctx, e)));
    println!("expressions both evaluate: corpus {} of {total}, generated {}", corpus.len(), generated.len());
    println!("{:<12} {:>12} {:>12} {:>8}", "workload", "tfgraph", "hcl-rs", "ratio");
    for (name, exprs) in [("corpus", &corpus), ("generated", &generated)] {
        let a = time("tfgraph", 5, exprs, |e| ours(&inputs, e));
        let b = time("hcl-rs", 5, exprs, |e| hcl_eval(&ctx, e));
        println!(
            "{name:<12} {:>9.1} ms {:>9.1} ms {:>7.2}x   ({:.2} vs {:.2} µs per expression; >1 = tfgraph faster)",
            a * 1e3,
            b * 1e3,
            b / a,
            a * 1e6 / exprs.len() as f64,
            b * 1e6 / exprs.len() as f64
        );
    }
}
