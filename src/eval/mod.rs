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
//! | `render`, `json` | console text, `jsonencode` JSON and the API form; values from JSON |

pub mod convert;
pub mod expr;
pub mod functions;
pub mod json;
pub mod module_scope;
pub mod number;
pub mod render;
pub mod scope;
pub mod typeexpr;
pub mod types;
pub mod value;

pub use number::Number;
pub use scope::Scope;
pub use types::Type;
pub use value::{Kind, Value};

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics, Pos};
use functions::{FileSource, Registry};
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
pub struct MapFiles<'a>(pub &'a BTreeMap<String, String>);

impl FileSource for MapFiles<'_> {
    fn read(&self, path: &str) -> Option<&[u8]> {
        let p = path.strip_prefix("./").unwrap_or(path);
        self.0.get(p).map(|s| s.as_bytes())
    }
    fn paths(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// Evaluates `expression` in a module of `config`, as `terraform console` does.
pub fn evaluate(files: &BTreeMap<String, String>, config: &Config, expression: &str, options: &EvalOptions) -> Evaluated {
    let funcs = Registry::builtin();
    let file_source = MapFiles(files);
    let inputs = module_scope::Inputs {
        variables: &options.variables,
        state: options.state.as_ref(),
        files: &file_source,
        funcs: &funcs,
        planning: false,
        unset_variables_unknown: false,
    };
    let root_dir = config.root.dir.clone();
    let root_files: Vec<(String, String)> = files
        .iter()
        .filter_map(|(p, t)| {
            let rel = if root_dir.is_empty() { Some(p.as_str()) } else { p.strip_prefix(&format!("{root_dir}/")) };
            rel.map(|r| (r.to_string(), t.clone()))
        })
        .collect();
    let scope = module_scope::ModuleScope::root(config, &inputs, &root_files);
    scope.check_variables();
    let mut diagnostics = Diagnostics::new();
    if !options.module.is_empty() {
        diagnostics.push(Diagnostic::error(
            "Unsupported module scope",
            format!("Evaluating in {} is not supported yet: only the root module's scope is.", options.module),
        ));
        return Evaluated { value: None, diagnostics };
    }
    // The console's own expression may call `type()`; locals and outputs it reads may not.
    let console_funcs = Registry::console();
    let console_inputs = module_scope::Inputs { funcs: &console_funcs, ..inputs };
    let result = module_scope::eval_text(&scope, &console_inputs, scope.module_dir(), "<console-input>", expression, Pos { line: 1, column: 1, byte: 0 });
    let result = result.and_then(|v| {
        if !matches!(v.kind, value::Kind::TypeVal(_)) && contains_type(&v) {
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

/// Whether a value holds a type from `type()` anywhere inside.
fn contains_type(v: &Value) -> bool {
    match &v.kind {
        value::Kind::TypeVal(_) => true,
        value::Kind::List(_, x) | value::Kind::Set(_, x) | value::Kind::Tuple(x) => x.iter().any(contains_type),
        value::Kind::Map(_, m) | value::Kind::Object(m) => m.values().any(contains_type),
        _ => false,
    }
}
