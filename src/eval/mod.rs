//! Stage 2 of the pipeline: Terraform's expression language. Values, unknowns and sensitive
//! marks as cty has them, type constraints and conversion, every expression form of HCL's
//! native syntax, the built-in functions, and the scope of a loaded module.
//!
//! It knows no graph, no state format beyond reading resource attributes, and no providers:
//! names reach it through a [`Scope`].
//!
//! | module | what |
//! | --- | --- |
//! | `number` | cty's 512-bit binary floats and their printing |
//! | `types`, `value` | cty's types and values |
//! | `convert`, `typeexpr` | conversion, unification, `variable` type constraints |
//! | `expr` | the evaluator over `crate::hcl::ast` |
//! | `functions/` | the call machinery and the built-in functions, one file per family |
//! | `scope`, `module_scope` | the [`Scope`] trait and the scope of a loaded module |
//! | `repetition` | `count` and `for_each` values shaped into instances |
//! | `render`, `json` | console text, `jsonencode` JSON and the API form; values from JSON |

pub mod convert;
pub mod expr;
pub mod functions;
pub mod json;
pub mod limits;
pub mod module_overrides;
pub mod module_scope;
pub mod number;
pub mod render;
pub mod repetition;
pub mod scope;
pub mod snippet_values;
pub mod typeexpr;
pub mod types;
pub mod validate;
pub mod value;
pub mod value_json;

pub use number::Number;
pub use scope::Scope;
pub use types::Type;
pub use value::{Kind, Value};

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics, Pos};
use functions::{Filesystem, Registry};
use std::collections::BTreeMap;

/// Options for [`evaluate`] (the API's `evaluate(files, expression, options)`).
#[derive(Default)]
pub struct EvalOptions {
    /// Input variable values, as `-var` gives them (JSON values).
    pub variables: BTreeMap<String, serde_json::Value>,
    /// A state v4 object: resource attributes come from it (unknown without one).
    pub state: Option<serde_json::Value>,
    /// The module to evaluate in: `""` or `"module.a.module.b"`.
    pub module: String,
}

/// The result of [`evaluate`].
pub struct Evaluated {
    /// `None` when the expression could not be evaluated (see `diagnostics`).
    pub value: Option<Value>,
    pub diagnostics: Diagnostics,
}

/// The files a configuration was loaded from, for the filesystem functions.
pub struct MapFilesystem<'a>(pub &'a BTreeMap<String, String>);

impl Filesystem for MapFilesystem<'_> {
    fn read(&self, path: &str) -> Option<&[u8]> {
        let p = path.strip_prefix("./").unwrap_or(path);
        self.0.get(p).map(|s| s.as_bytes())
    }
    fn paths(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// Evaluates `expression` in a module of `config`, as `terraform console` does.
pub fn evaluate(
    files: &BTreeMap<String, String>,
    config: &Config,
    expression: &str,
    options: &EvalOptions,
) -> Evaluated {
    let funcs = Registry::builtin();
    let file_source = MapFilesystem(files);
    let inputs = module_scope::Inputs {
        state: options.state.as_ref(),
        ..module_scope::Inputs::of(config, &options.variables, &file_source, &funcs)
    };
    let root_files = module_scope::root_files(files, &config.root.dir);
    let scope = module_scope::ModuleScope::root(config, &inputs, &root_files);
    scope.check_variables();
    let mut diagnostics = Diagnostics::new();
    let calls = match module_path(&options.module) {
        Ok(calls) => calls,
        Err(d) => {
            diagnostics.push(d);
            return Evaluated { value: None, diagnostics };
        }
    };
    // The console's own expression may call `type()`; locals and outputs it reads may not.
    let console_funcs = Registry::console();
    let console_inputs = module_scope::Inputs { funcs: &console_funcs, ..inputs };
    let result = eval_in_module(&scope, &console_inputs, &calls, expression, &mut diagnostics);
    let result = result.and_then(|v| {
        if !matches!(v.kind, value::Kind::TypeVal(_)) && v.has_type_value() {
            return Err(Box::new(Diagnostic::error(
                "Invalid use of type function",
                "The console-only \"type\" function cannot be used as part of an expression.",
            )));
        }
        Ok(v)
    });
    diagnostics.extend(std::mem::take(&mut *scope.diagnostics.borrow_mut()));
    match result {
        Ok(v) => Evaluated { value: Some(v), diagnostics },
        Err(d) => {
            diagnostics.push(*d);
            Evaluated { value: None, diagnostics }
        }
    }
}

/// The module calls of an `options.module` address: `""` is the root, `module.a.module.b`
/// goes through call `a` then `b`.
fn module_path(address: &str) -> Result<Vec<&str>, Diagnostic> {
    if address.is_empty() {
        return Ok(Vec::new());
    }
    let invalid = |why: &str| {
        Diagnostic::error("Invalid module address", format!("{} is not a module address: {why}. Write \"module.NAME\" steps, as in \"module.network.module.subnets\".", crate::dag::go_quote(address)))
    };
    let parts: Vec<&str> = address.split('.').collect();
    if parts.len() % 2 != 0 {
        return Err(invalid("it must alternate \"module\" and call names"));
    }
    let mut calls = Vec::new();
    for pair in parts.chunks(2) {
        if pair[0] != "module" || pair[1].is_empty() {
            return Err(invalid("it must alternate \"module\" and call names"));
        }
        if pair[1].contains('[') {
            return Err(Diagnostic::error(
                "Module instance scope not supported",
                format!("Evaluating in an instance of a module with count or for_each ({}) is not supported: count.index and each.key have no value there.", crate::dag::go_quote(address)),
            ));
        }
        calls.push(pair[1]);
    }
    Ok(calls)
}

/// Evaluates `expression` in the scope `calls` lead to from `scope`, collecting what each
/// module scope on the way reports.
fn eval_in_module(
    scope: &module_scope::ModuleScope<'_>,
    inputs: &module_scope::Inputs<'_>,
    calls: &[&str],
    expression: &str,
    diagnostics: &mut Diagnostics,
) -> Result<Value, Box<Diagnostic>> {
    let Some((first, rest)) = calls.split_first() else {
        return module_scope::eval_text(
            scope,
            inputs,
            "<console-input>",
            expression,
            Pos { line: 1, column: 1, byte: 0 },
        );
    };
    let child = match scope.child_scope(first) {
        Ok(Some(child)) => child,
        Ok(None) => {
            return Err(Box::new(Diagnostic::error(
                "Module scope not available",
                format!("module.{first} is not loaded or is expanded with count or for_each, so tfgraph cannot evaluate in its scope."),
            )))
        }
        Err(e) => return Err(Box::new(Diagnostic::error(e.summary, e.detail))),
    };
    child.check_variables();
    let result = eval_in_module(&child, inputs, rest, expression, diagnostics);
    diagnostics.extend(std::mem::take(&mut *child.diagnostics.borrow_mut()));
    result
}
