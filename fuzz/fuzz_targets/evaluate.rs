//! Fuzz target: evaluating an expression must never panic, overflow the stack or hang, and an
//! error must come with a diagnostic whose range lies inside the expression or the files.
//!
//! Input: lossy UTF-8 text. Up to the first NUL it is the body of a `locals` block (so the
//! expression can reach locals, variables with defaults and a module's outputs); after it, the
//! expression. Without a NUL the whole input is the expression.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::eval::{evaluate, EvalOptions};

const PRELUDE: &str = "variable \"v\" {\n  default = { a = [1, 2], b = \"x\" }\n}\nvariable \"s\" {\n  default   = \"secret\"\n  sensitive = true\n}\nresource \"aws_instance\" \"web\" {\n  count = 2\n}\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (locals, expr) = match text.split_once('\0') {
        Some((l, e)) => (l.to_string(), e.to_string()),
        None => (String::new(), text.into_owned()),
    };
    let main = format!("{PRELUDE}locals {{\n{locals}\n}}\n");
    let files = BTreeMap::from([("main.tf".to_string(), main.clone())]);
    let loaded = tfgraph::config::load(&files, &Default::default());
    if loaded.diagnostics.has_errors() {
        return;
    }
    let out = evaluate(&files, &loaded.config, &expr, &EvalOptions::default());
    if out.value.is_none() {
        assert!(out.diagnostics.has_errors(), "no value and no error for {expr:?}");
    }
    for d in out.diagnostics.iter() {
        let Some(r) = &d.range else { continue };
        let len = if r.filename == "<console-input>" { expr.len() + 1 } else { main.len() + 1 };
        assert!(
            r.start.byte as usize <= len && r.end.byte as usize <= len && r.start.byte <= r.end.byte,
            "range {r:?} outside {:?}",
            r.filename
        );
        assert!(r.start.line >= 1 && r.start.column >= 1, "range {r:?}");
    }
});
