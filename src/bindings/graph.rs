//! `buildGraph`: load a configuration, build one of Terraform's graphs, and hand JavaScript a
//! handle whose methods query and render it. Mechanical: read the options, call
//! [`config::load`] and [`graph::build`], serialize what is asked for.

use super::{get, read_files, read_load_options, to_js, type_error};
use crate::config::{self, LoadOptions};
use crate::diag::Diagnostics;
use crate::graph::{self, BuildOptions, Built, DotKind, EdgeInfo, Operation, TfGraph, Why};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A built graph, kept in wasm memory; `pkg/index.js` wraps it in the public `Graph` class.
#[wasm_bindgen]
pub struct GraphHandle {
    built: Built,
    load_diagnostics: Diagnostics,
}

/// A JSON-shaped JS value (state, changes) as `serde_json::Value`.
fn json_value(v: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    serde_wasm_bindgen::from_value(v)
        .map_err(|e| type_error(&format!("buildGraph: `options.{what}` must be a JSON object: {e}")))
}

fn read_build_options(options: &JsValue) -> Result<(LoadOptions, BuildOptions, Diagnostics), JsValue> {
    let load = read_load_options(options, "buildGraph")?;
    let mut build = BuildOptions::default();
    let mut diags = Diagnostics::new();
    if let Some(op) = get(options, "operation")? {
        build.operation = match op.as_string().as_deref() {
            Some("plan") => Operation::Plan,
            Some("destroy") => Operation::Destroy,
            Some("apply") => Operation::Apply,
            Some("validate") => Operation::Validate,
            _ => {
                return Err(type_error(
                    "buildGraph: `options.operation` must be \"plan\", \"destroy\", \"apply\" or \"validate\"",
                ))
            }
        };
    }
    if let Some(reduce) = get(options, "reduce")? {
        build.reduce = reduce.as_bool().ok_or_else(|| type_error("buildGraph: `options.reduce` must be a boolean"))?;
    }
    if let Some(trace) = get(options, "traceSteps")? {
        build.trace_steps =
            trace.as_bool().ok_or_else(|| type_error("buildGraph: `options.traceSteps` must be a boolean"))?;
    }
    if let Some(state) = get(options, "state")? {
        let (state, d) = graph::state_json::state_from_value(&json_value(state, "state")?);
        diags.extend(d);
        build.state = Some(state);
    }
    if let Some(changes) = get(options, "changes")? {
        let (changes, d) = graph::changes::changes_from_value(&json_value(changes, "changes")?);
        diags.extend(d);
        build.changes = Some(changes);
    }
    Ok((load, build, diags))
}

/// Raw `buildGraph`: `files` as for `loadConfigRaw`; options `{ root, operation, state, changes,
/// reduce, traceSteps }`. Never throws for problems in the user's input: they are in
/// `loadDiagnostics()` (configuration, state and changes) and `diagnostics()` (the build).
#[wasm_bindgen(js_name = buildGraphRaw)]
pub fn build_graph_raw(files: JsValue, options: JsValue) -> Result<GraphHandle, JsValue> {
    let files = read_files(&files, "buildGraph")?;
    let (load_options, build_options, input_diags) = read_build_options(&options)?;
    let loaded = config::load_from(&files, &load_options)?;
    let mut load_diagnostics = loaded.diagnostics;
    load_diagnostics.extend(input_diags);
    let built = graph::build(&loaded.config, &build_options);
    Ok(GraphHandle { built, load_diagnostics })
}

impl GraphHandle {
    fn require(&self, name: &str) -> Result<(), JsValue> {
        match self.built.graph.find(name) {
            Some(_) => Ok(()),
            None => Err(js_sys::RangeError::new(&format!("the graph has no node named {name:?}")).into()),
        }
    }
}

#[wasm_bindgen]
impl GraphHandle {
    /// Diagnostics of loading the configuration and reading state/changes.
    #[wasm_bindgen(js_name = loadDiagnostics)]
    pub fn load_diagnostics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.load_diagnostics)
    }

    /// Diagnostics of the build (missing provider configurations, one error per cycle).
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.built.diagnostics)
    }

    /// Each transformer that ran: name, reason, counts, and the graph text when traced.
    pub fn steps(&self) -> Result<JsValue, JsValue> {
        to_js(&self.built.steps)
    }

    /// Every node as JSON text (`JSON.parse` is far cheaper than building 100,000 objects
    /// across the boundary).
    pub fn nodes(&self) -> Result<String, JsValue> {
        json_text(&self.built.graph.nodes())
    }

    /// Every edge as JSON text, each reason with its sentence (`text`).
    pub fn edges(&self) -> Result<String, JsValue> {
        json_text(&explained(&self.built.graph, &self.built.graph.edges()))
    }

    /// Edges removed by transitive reduction, with their reasons (the dependency still holds).
    #[wasm_bindgen(js_name = impliedEdges)]
    pub fn implied_edges(&self) -> Result<String, JsValue> {
        json_text(&explained(&self.built.graph, &self.built.graph.implied_edges()))
    }

    /// Terraform's `Graph.String()`.
    #[wasm_bindgen(js_name = toText)]
    pub fn to_text(&self) -> String {
        self.built.graph.to_string()
    }

    #[wasm_bindgen(js_name = toDot)]
    pub fn to_dot(&self, resources: bool, draw_cycles: bool) -> String {
        let kind = if resources { DotKind::Resources } else { DotKind::Full };
        self.built.graph.to_dot(kind, draw_cycles)
    }

    #[wasm_bindgen(js_name = toMermaid)]
    pub fn to_mermaid(&self, resources: bool, draw_cycles: bool) -> String {
        if resources {
            self.built.graph.to_resource_mermaid()
        } else {
            self.built.graph.to_mermaid(draw_cycles)
        }
    }

    pub fn dependencies(&self, name: &str) -> Result<JsValue, JsValue> {
        self.require(name)?;
        to_js(&self.built.graph.dependencies(name))
    }

    pub fn dependents(&self, name: &str) -> Result<JsValue, JsValue> {
        self.require(name)?;
        to_js(&self.built.graph.dependents(name))
    }

    pub fn ancestors(&self, name: &str) -> Result<JsValue, JsValue> {
        self.require(name)?;
        to_js(&self.built.graph.ancestors(name))
    }

    pub fn descendants(&self, name: &str) -> Result<JsValue, JsValue> {
        self.require(name)?;
        to_js(&self.built.graph.descendants(name))
    }

    /// Why `from` depends on `to`, one sentence per reason (empty when there is no such edge).
    pub fn explain(&self, from: &str, to: &str) -> Result<JsValue, JsValue> {
        self.require(from)?;
        self.require(to)?;
        to_js(&self.built.graph.explain(from, to))
    }

    pub fn cycles(&self) -> Result<JsValue, JsValue> {
        to_js(&self.built.graph.cycles())
    }
}

fn json_text<T: Serialize + ?Sized>(value: &T) -> Result<String, JsValue> {
    serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()).into())
}

/// One reason of an edge as JavaScript sees it: the tagged [`Why`] plus its sentence.
#[derive(Serialize)]
struct WhyOut<'a> {
    #[serde(flatten)]
    why: &'a Why,
    text: String,
}

#[derive(Serialize)]
struct EdgeOut<'a> {
    from: &'a str,
    to: &'a str,
    why: Vec<WhyOut<'a>>,
}

/// Sentences name nodes as [`TfGraph::explain`] does (by address, `root` by name).
fn explained<'a>(graph: &TfGraph, edges: &'a [EdgeInfo]) -> Vec<EdgeOut<'a>> {
    let label = |name: &str| graph.find(name).map_or_else(|| name.to_string(), |id| graph.label(id));
    edges
        .iter()
        .map(|e| {
            let (from, to) = (label(&e.from), label(&e.to));
            EdgeOut {
                from: &e.from,
                to: &e.to,
                why: e.why.iter().map(|w| WhyOut { why: w, text: w.explain(&from, &to) }).collect(),
            }
        })
        .collect()
}
