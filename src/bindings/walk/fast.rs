//! Plain JS loops for the walk's bulk conversions, compiled once with `Function`.
//!
//! Reading 100,000 names and 200,000 edges, or building the `times` map, costs one or more
//! wasm↔JS calls per item when done from Rust, and built-ins driven by built-in callbacks
//! (`flat`, `map(Map.prototype.get)`) are not much better: V8 calls those callbacks through
//! its slow generic path. A JS loop does it in one pass. wasm-bindgen's JS snippets are not
//! usable with every output target, so the loops are compiled at run time; where a content
//! security policy forbids that (`'unsafe-eval'`), [`FastJs::get`] is `None` and the callers
//! fall back to the built-in paths, which give the same results.

use std::cell::Cell;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;

/// `resolveEdges(edges, ids, first, end)`: a Float64Array of `[from, to]` local indices, or
/// null if any edge is not a pair of names with ids in `first..end`.
const RESOLVE_EDGES: &str = "
    const n = edges.length, out = new Float64Array(2 * n);
    for (let i = 0, j = 0; i < n; i++) {
        const e = edges[i];
        if (!Array.isArray(e) || e.length !== 2) return null;
        const a = ids.get(e[0]), b = ids.get(e[1]);
        if (!(a >= first && a < end && b >= first && b < end)) return null;
        out[j++] = a - first;
        out[j++] = b - first;
    }
    return out;";

/// `addNames(nodes, ids, first)`: maps each new name to `first + index`; returns how many
/// were new, or -1 if some name is not a string.
const ADD_NAMES: &str = "
    let added = 0;
    for (let i = 0; i < nodes.length; i++) {
        const name = nodes[i];
        if (typeof name !== 'string') return -1;
        if (!ids.has(name)) { ids.set(name, first + i); added++; }
    }
    return added;";

/// `timesMap(names, ids, start, end)`: `Map(name -> { start, end })`.
const TIMES_MAP: &str = "
    const times = new Map();
    for (let i = 0; i < ids.length; i++) times.set(names[ids[i]], { start: start[i], end: end[i] });
    return times;";

pub(super) struct FastJs {
    pub add_names: Function,
    pub resolve_edges: Function,
    pub times_map: Function,
}

thread_local! {
    static FAST: Option<FastJs> = FastJs::compile();
    static DISABLED: Cell<bool> = const { Cell::new(false) };
}

impl FastJs {
    fn compile() -> Option<FastJs> {
        let compile = |args: &[&str], body: &str| -> Option<Function> {
            let ctor: Function = super::builtin(&["Function"]);
            let params: Array = args.iter().map(|a| JsValue::from(*a)).chain([JsValue::from(body)]).collect();
            Reflect::construct(&ctor, &params).ok().map(JsCast::unchecked_into)
        };
        Some(FastJs {
            add_names: compile(&["nodes", "ids", "first"], ADD_NAMES)?,
            resolve_edges: compile(&["edges", "ids", "first", "end"], RESOLVE_EDGES)?,
            times_map: compile(&["names", "ids", "start", "end"], TIMES_MAP)?,
        })
    }

    /// Runs `f` with the compiled loops, or with `None` where they are unavailable.
    pub fn with<R>(f: impl FnOnce(Option<&FastJs>) -> R) -> R {
        if DISABLED.with(Cell::get) {
            return f(None);
        }
        FAST.with(|fast| f(fast.as_ref()))
    }
}

/// Tests only: make this thread use the built-in fallbacks, as under a strict CSP.
#[doc(hidden)]
pub fn use_fallbacks_for_tests(on: bool) {
    DISABLED.with(|d| d.set(on));
}
