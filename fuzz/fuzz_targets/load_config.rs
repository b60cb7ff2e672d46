//! Fuzz target: configuration loading must never panic (nor overflow the stack), and every range
//! it reports must lie inside its file (`../invariants.rs`).
//!
//! Input: one mode byte, then text (lossy UTF-8). A NUL in the text splits it into the root
//! module's file and a local module's file; the root always also gets a small file calling that
//! module, so the module loader runs too. Modes: `.tf` root at the top level; `.tf.json`;
//! root in a subfolder (`env/`, module at `../modules/m`); both syntaxes side by side.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::config::{load, LoadOptions};

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (main, module) = match text.split_once('\0') {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (text.into_owned(), None),
    };
    let mut files = BTreeMap::new();
    let mut root = String::new();
    match mode % 4 {
        0 => {
            files.insert("main.tf".to_string(), main);
            if let Some(m) = module {
                files.insert("modules/m/main.tf".to_string(), m);
                files.insert("call.tf".to_string(), "module \"m\" {\n  source = \"./modules/m\"\n}\n".to_string());
            }
        }
        1 => {
            files.insert("main.tf.json".to_string(), main);
            if let Some(m) = module {
                files.insert("modules/m/main.tf.json".to_string(), m);
                files.insert("call.tf.json".to_string(), r#"{"module": {"m": {"source": "./modules/m"}}}"#.to_string());
            }
        }
        2 => {
            root = "env".to_string();
            files.insert("env/main.tf".to_string(), main);
            if let Some(m) = module {
                files.insert("modules/m/variables.tf".to_string(), m);
                files.insert(
                    "env/call.tf".to_string(),
                    "module \"m\" {\n  source = \"../modules/m\"\n  count  = 2\n}\n".to_string(),
                );
            }
        }
        _ => {
            files.insert("a.tf".to_string(), main.clone());
            files.insert("b.tf.json".to_string(), module.unwrap_or(main));
        }
    }
    let loaded = load(&files, &LoadOptions { root });
    if let Err(problem) = invariants::check(&files, &loaded) {
        panic!("invariant broken: {problem}\nfiles: {files:#?}");
    }
});
