//! `buildGraph`: load a configuration, build one of Terraform's graphs, and hand JavaScript a
//! handle whose methods query and render it. Mechanical: read the options, call
//! [`config::load`] and [`graph::build`], serialize what is asked for.

use super::{get, read_files, read_load_options, to_js, type_error};
use crate::config::{self, LoadOptions};
use crate::diag::Diagnostics;
use crate::graph::{self, BuildOptions, Built, DotKind, EdgeInfo, Operation, PlanMode, TfGraph, Walk, Why};
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// A built graph, kept in wasm memory; `pkg/index.js` wraps it in the public `Graph` class.
#[wasm_bindgen]
pub struct GraphHandle {
    built: Built,
    load_diagnostics: Diagnostics,
}

/// A JSON-shaped JS value (state, changes) as `serde_json::Value`.
fn json_value(v: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    let bad = |e: String| type_error(&format!("buildGraph: `options.{what}` must be a JSON object or JSON text: {e}"));
    let text = js_sys::JSON::stringify(&v).map_err(|e| bad(js_sys::Error::from(e).message().into()))?;
    let text = text.as_string().ok_or_else(|| bad("it has no JSON form".into()))?;
    serde_json::from_str(&text).map_err(|e| bad(e.to_string()))
}

/// State or changes: JSON text (what `pkg/index.js` passes: `JSON.stringify` in the engine
/// and one parse here is several times cheaper than converting an object property by property
/// across the boundary), or a JSON-shaped object.
enum JsonInput {
    Text(String),
    Value(serde_json::Value),
}

fn json_input(v: JsValue, what: &str) -> Result<JsonInput, JsValue> {
    match v.as_string() {
        Some(text) => Ok(JsonInput::Text(text)),
        None => json_value(v, what).map(JsonInput::Value),
    }
}

/// Makes sure the wasm heap has about `bytes` free, growing it in one step for what is missing.
///
/// Every `memory.grow` costs V8 (Node 20) 1–2 ms once the memory passes ~64 MB, and starts a
/// full garbage collection of the JS heap; dlmalloc grows 64 KiB at a time, so a build of
/// 100,000 resources (hundreds of MB) made thousands of grows and spent more time growing than
/// building (bench/graph/RESULTS.md). Here the free memory dlmalloc already has is counted by
/// taking it in 1 MiB pieces until a piece needs the memory to grow; the rest is allocated as
/// one block (one grow); then everything is freed. The memory stays in dlmalloc (wasm memory
/// never shrinks), where the work finds it without growing. Counting first means a second
/// build of the same size reuses the first one's memory instead of growing again; pages that
/// are never used are never committed, so a generous estimate costs address space, not RSS.
pub(crate) fn reserve_heap(bytes: usize) {
    use core::arch::wasm32::memory_size;
    use std::alloc::{alloc, dealloc, Layout};
    const PIECE: usize = 1 << 20;
    let piece = Layout::from_size_align(PIECE, 16).expect("a valid layout");
    let mut held: Vec<*mut u8> = Vec::with_capacity(bytes / PIECE + 1);
    let mut have = 0;
    // SAFETY (all blocks below): non-zero sizes; each block is freed unread, with its layout.
    // black_box: the optimiser removes allocations nothing reads.
    unsafe {
        while have < bytes {
            let before = memory_size(0);
            let p = std::hint::black_box(alloc(piece));
            if p.is_null() {
                break;
            }
            held.push(p);
            have += PIECE;
            if memory_size(0) != before {
                break; // dlmalloc had no free piece left: grow for the rest at once
            }
        }
        // Near wasm32's 4 GiB limit the rest may not fit: then as much as does.
        let mut rest = bytes.saturating_sub(have);
        while rest >= PIECE {
            let Ok(layout) = Layout::from_size_align(rest, 16) else { break };
            let p = std::hint::black_box(alloc(layout));
            if !p.is_null() {
                dealloc(p, layout);
                break;
            }
            rest /= 2;
        }
        for p in held {
            dealloc(p, piece);
        }
    }
}

/// Peak bytes (wasm32) a build allocates, from the size of its input, on the generous side (a
/// shortfall is paid in `memory.grow`s at the build's peak, transitive reduction). Measured
/// with `ALLOCS=1` of bench/graph: 2.3–2.6 KB per node at the peak natively, a little less in
/// wasm32. Nodes are about one per configuration object (plan), plus one or two per planned
/// change (apply), or one per state object (plan-destroy, which adds no resource blocks).
fn expected_build_bytes(config: &config::Config, options: &BuildOptions) -> usize {
    const PER_NODE: usize = 3 << 10;
    let (mut resources, mut others) = (0, 0);
    let mut stack = vec![&config.root];
    while let Some(m) = stack.pop() {
        resources += m.resources.len();
        others += m.variables.len() + m.locals.len() + m.outputs.len() + 2 * m.module_calls.len();
        stack.extend(m.module_calls.iter().filter_map(|c| c.module.as_deref()));
    }
    let objects = options.state.as_ref().map_or(0, |s| s.resources.len());
    let changes = options.changes.as_ref().map_or(0, |c| c.resources.len());
    let nodes = match options.walk() {
        Walk::Plan | Walk::Validate => resources + others + objects / 4,
        Walk::Apply | Walk::Destroy => resources + others + changes + changes / 2,
        Walk::PlanDestroy => objects + others,
    };
    nodes.saturating_mul(PER_NODE)
}

/// Peak bytes of reading state JSON text of `len` bytes: the tree of the parts graphs read
/// (`parse_state` skips attributes and output values, which are most of a real state) and the
/// state made from it. About 3 bytes per byte of text on states that are all addresses (the
/// generated ones of bench/graph); capped, since real states are mostly skipped attributes.
fn expected_json_bytes(len: usize) -> usize {
    len.saturating_mul(4).min(len.saturating_add(64 << 20))
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
    if let Some(mode) = get(options, "mode")? {
        build.mode = match mode.as_string().as_deref() {
            Some("normal") => PlanMode::Normal,
            Some("destroy") => PlanMode::Destroy,
            _ => return Err(type_error("buildGraph: `options.mode` must be \"normal\" or \"destroy\"")),
        };
        if build.mode == PlanMode::Destroy && build.operation == Operation::Validate {
            return Err(type_error(
                "buildGraph: `options.mode` \"destroy\" has no meaning for the \"validate\" operation",
            ));
        }
    }
    if let Some(reduce) = get(options, "reduce")? {
        build.reduce = reduce.as_bool().ok_or_else(|| type_error("buildGraph: `options.reduce` must be a boolean"))?;
    }
    if let Some(trace) = get(options, "traceSteps")? {
        build.trace_steps =
            trace.as_bool().ok_or_else(|| type_error("buildGraph: `options.traceSteps` must be a boolean"))?;
    }
    if let Some(state) = get(options, "state")? {
        let (state, d) = match json_input(state, "state")? {
            JsonInput::Text(text) => {
                reserve_heap(expected_json_bytes(text.len()));
                crate::state::parse_state(&text)
            }
            JsonInput::Value(v) => crate::state::state_from_value(&v),
        };
        diags.extend(d);
        build.state = Some(state);
    }
    if let Some(changes) = get(options, "changes")? {
        let (changes, d) = match json_input(changes, "changes")? {
            JsonInput::Text(text) => crate::plans::parse_changes(&text),
            JsonInput::Value(v) => crate::plans::changes_from_value(&v),
        };
        diags.extend(d);
        build.changes = Some(changes);
    }
    Ok((load, build, diags))
}

/// Raw `buildGraph`: `files` as for `loadConfigRaw`; options `{ root, operation, mode, state,
/// changes, reduce, traceSteps }`. Never throws for problems in the user's input: they are in
/// `loadDiagnostics()` (configuration, state and changes) and `diagnostics()` (the build).
#[wasm_bindgen(js_name = buildGraphRaw)]
pub fn build_graph_raw(files: JsValue, options: JsValue) -> Result<GraphHandle, JsValue> {
    crate::util::clock::install(performance_now_micros);
    let files = read_files(&files, "buildGraph")?;
    let (load_options, build_options, input_diags) = read_build_options(&options)?;
    // The graph reads no syntax tree (a `count` or `for_each` literal is parsed from its text);
    // validate's walk does (`self`, `count`, `each` out of place, undeclared module outputs).
    let cwd = super::boundary::read_cwd(&options, "buildGraph")?;
    let mut loaded = if build_options.operation == Operation::Validate {
        config::load_from(&files, &load_options)?
    } else {
        config::load_model_from(&files, &load_options)?
    };
    loaded.config.cwd = cwd;
    let mut load_diagnostics = loaded.diagnostics;
    load_diagnostics.extend(input_diags);
    reserve_heap(expected_build_bytes(&loaded.config, &build_options));
    let mut built = graph::build(&loaded.config, &build_options);
    // `terraform validate` shows the loader's warnings with snippets, as every diagnostic.
    if build_options.operation == Operation::Validate && !load_diagnostics.is_empty() {
        let sources = cited_files(&files, &load_diagnostics)?;
        load_diagnostics =
            crate::engine::shared::snippets::with_sources(load_diagnostics, &crate::eval::MapFilesystem(&sources));
    }
    // `terraform validate` also reports references to undeclared names, with snippets.
    if build_options.operation == Operation::Validate && !load_diagnostics.has_errors() {
        let undeclared = config::static_refs::check(&loaded.config);
        if !undeclared.is_empty() {
            let sources = cited_files(&files, &undeclared)?;
            built.diagnostics.extend(crate::engine::shared::snippets::with_sources(
                undeclared,
                &crate::eval::MapFilesystem(&sources),
            ));
        }
    }
    Ok(GraphHandle { built, load_diagnostics })
}

/// The files `diags` point into, read from the JavaScript object.
fn cited_files(files: &super::files::JsFiles, diags: &Diagnostics) -> Result<BTreeMap<String, String>, JsValue> {
    use crate::config::FileSource;
    let paths = files.paths();
    let mut out = BTreeMap::new();
    for name in diags.iter().filter_map(|d| d.range.as_ref()).map(|r| r.filename.as_str()) {
        if out.contains_key(name) {
            continue;
        }
        if let Some(i) = paths.iter().position(|p| *p == name) {
            out.insert(name.to_string(), files.read(i)?.into_owned());
        }
    }
    Ok(out)
}

/// The host's `performance.now()` in microseconds, for the transformer steps' timings (`None`
/// where the host has no `performance`).
fn performance_now_micros() -> Option<f64> {
    let perf = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok()?;
    let now = js_sys::Reflect::get(&perf, &"now".into()).ok()?;
    let now: js_sys::Function = wasm_bindgen::JsCast::dyn_into(now).ok()?;
    now.call0(&perf).ok()?.as_f64().map(|ms| ms * 1e3)
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
