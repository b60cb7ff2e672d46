//! Reading `{ nodes, edges }` (the walk's graph, or an expansion's) into a [`Subgraph`] of
//! name ids: types checked, duplicates and unknown names reported as diagnostics, cycles
//! listed; a rejected expansion leaves no names behind.

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

use super::fast::FastJs;
use super::{builtin, tfgraph_error, type_error, Ctx};
use crate::diag::Diagnostics;
use crate::walk::{diagnostics, Dag, DagError, Subgraph};

impl Ctx {
    /// Reads `{ nodes, edges }`, adding its names to the table as children of `parent`.
    /// Bad names or edges are diagnostics (the caller's data); wrong types are a TypeError.
    pub(super) fn read_dag(&self, dag: &JsValue, parent: u32, what: &str) -> Result<Subgraph<u32>, JsValue> {
        if !dag.is_object() {
            return Err(type_error(&format!("{what} must be an object {{ nodes, edges }}")));
        }
        let nodes = Reflect::get(dag, &"nodes".into())?;
        let Some(nodes) = nodes.dyn_ref::<Array>() else {
            return Err(type_error(&format!("{what}.nodes must be an array of strings")));
        };
        let edges = Reflect::get(dag, &"edges".into())?;
        let edges = match edges.dyn_ref::<Array>() {
            Some(a) => a.clone(),
            None if edges.is_undefined() => Array::new(),
            None => return Err(type_error(&format!("{what}.edges must be an array of [from, to] pairs"))),
        };
        let first = self.parents.borrow().len() as u32;
        let ids = self.add_names(nodes, parent, what)?;
        let pairs = match self.resolve_edges(&edges, first) {
            Some(pairs) => pairs,
            None => {
                // Something is off: check edge by edge for a precise message.
                let result = self.check_edges(&edges, first, what);
                self.forget_from(first);
                return Err(result
                    .err()
                    .unwrap_or_else(|| type_error(&format!("{what}.edges must be [from, to] pairs"))));
            }
        };
        match Dag::new(ids.len(), &pairs) {
            Ok(dag) => Ok(Subgraph::new(ids, dag)),
            Err(DagError::Cycles(cycles)) => {
                let names: Vec<Vec<String>> = cycles
                    .iter()
                    .map(|cycle| cycle.iter().map(|&v| self.name(first + v).as_string().unwrap_or_default()).collect())
                    .collect();
                let diags = diagnostics::cycles(names.iter().map(|c| c.iter().map(String::as_str).collect()));
                self.forget_from(first);
                Err(tfgraph_error(&diags))
            }
            Err(DagError::UnknownNode { .. }) => unreachable!("edges were resolved against this dag's names"),
        }
    }

    /// Gives `nodes` the next ids, as children of `parent`: a few calls in all for the top
    /// graph, one or two per node for an expansion (usually small).
    fn add_names(&self, nodes: &Array, parent: u32, what: &str) -> Result<Vec<u32>, JsValue> {
        let first = self.parents.borrow().len() as u32;
        let count = nodes.length();
        let added = FastJs::with(|fast| {
            fast.and_then(|f| f.add_names.call3(&JsValue::NULL, nodes, &self.ids, &first.into()).ok()?.as_f64())
        });
        if let Some(added) = added {
            if first == 0 {
                *self.names.borrow_mut() = nodes.slice(0, count);
            } else {
                let names = self.names.borrow();
                for name in nodes.iter() {
                    names.push(&name);
                }
            }
            self.parents.borrow_mut().resize((first + count) as usize, parent);
            if added < 0.0 {
                self.forget_from(first);
                return Err(type_error(&format!("{what}.nodes must be an array of strings")));
            }
            if added as u32 != count {
                return Err(self.duplicates(nodes, first));
            }
            return Ok((first..first + count).collect());
        }
        // `String.prototype.toString` throws for anything but a string, so this `every` is
        // true exactly when every name is a non-empty string; otherwise look one by one.
        let every = builtin(&["Array", "prototype", "every"]);
        let strings = every.call2(
            nodes,
            &builtin(&["Function", "prototype", "call"]),
            &builtin(&["String", "prototype", "toString"]),
        );
        if !strings.is_ok_and(|all| all.is_truthy()) && nodes.iter().any(|name| !name.is_string()) {
            return Err(type_error(&format!("{what}.nodes must be an array of strings")));
        }
        let before = self.ids.size();
        if first == 0 {
            // Top graph: ids are array indices, so `forEach(Map.prototype.set)` maps them.
            builtin(&["Array", "prototype", "forEach"]).call2(
                nodes,
                &builtin(&["Map", "prototype", "set"]),
                &self.ids,
            )?;
            *self.names.borrow_mut() = nodes.slice(0, count);
        } else {
            let names = self.names.borrow();
            for (i, name) in nodes.iter().enumerate() {
                if !self.ids.has(&name) {
                    self.ids.set(&name, &JsValue::from(first + i as u32));
                }
                names.push(&name);
            }
        }
        self.parents.borrow_mut().resize((first + count) as usize, parent);
        if self.ids.size() - before != count {
            return Err(self.duplicates(nodes, first));
        }
        Ok((first..first + count).collect())
    }

    /// The error for a `nodes` list with duplicates (of each other or of earlier nodes of
    /// the walk); also forgets the names added from it.
    fn duplicates(&self, nodes: &Array, first: u32) -> JsValue {
        {
            let mut diags = Diagnostics::new();
            let mut seen = std::collections::HashSet::new();
            for name in nodes.iter() {
                let text = name.as_string().unwrap_or_default();
                // Ids below `first` belong to nodes walked before this dag.
                let earlier = self.ids.get(&name).as_f64().is_some_and(|id| (id as u32) < first);
                if earlier || !seen.insert(text.clone()) {
                    diags.push(diagnostics::duplicate_node(&text));
                }
            }
            self.forget_from(first);
            tfgraph_error(&diags)
        }
    }

    /// Resolves every edge in three calls (`flat`, `map(Map.prototype.get)`, one copy into
    /// Rust) instead of several calls per edge. `None` when any edge is not a pair of names
    /// of this dag; [`Ctx::check_edges`] then says which.
    fn resolve_edges(&self, edges: &Array, first: u32) -> Option<Vec<(u32, u32)>> {
        let count = edges.length() as usize;
        if count == 0 {
            return Some(Vec::new());
        }
        let end = self.parents.borrow().len() as f64;
        let compiled = FastJs::with(|fast| {
            let f = fast?;
            let args: Array =
                [JsValue::from(edges), JsValue::from(self.ids.clone()), first.into(), end.into()].into_iter().collect();
            Some(f.resolve_edges.apply(&JsValue::NULL, &args).ok().filter(|r| !r.is_null()).map(|r| {
                let flat = js_sys::Float64Array::from(r).to_vec();
                flat.chunks_exact(2).map(|p| (p[0] as u32, p[1] as u32)).collect::<Vec<_>>()
            }))
        });
        if let Some(result) = compiled {
            return result;
        }
        let all_arrays = builtin(&["Array", "prototype", "every"])
            .call2(edges, &builtin(&["Array", "isArray"]), &JsValue::UNDEFINED)
            .ok()?;
        let flat = edges.flat(1);
        if !all_arrays.is_truthy() || flat.length() as usize != 2 * count {
            return None;
        }
        let ids = builtin(&["Array", "prototype", "map"])
            .call2(&flat, &builtin(&["Map", "prototype", "get"]), &self.ids)
            .ok()?;
        let ids = js_sys::Float64Array::new(&ids).to_vec();
        let mut pairs = Vec::with_capacity(count);
        for pair in ids.chunks_exact(2) {
            // NaN (an unknown name) fails both comparisons.
            if !(pair[0] >= first as f64 && pair[0] < end && pair[1] >= first as f64 && pair[1] < end) {
                return None;
            }
            pairs.push((pair[0] as u32 - first, pair[1] as u32 - first));
        }
        Some(pairs)
    }

    /// The slow path of [`Ctx::resolve_edges`]: the first wrong shape as a TypeError, else
    /// every edge naming a node outside this dag as a diagnostic.
    fn check_edges(&self, edges: &Array, first: u32, what: &str) -> Result<(), JsValue> {
        let mut diags = Diagnostics::new();
        for edge in edges.iter() {
            let pair = edge.dyn_ref::<Array>().filter(|p| p.length() == 2);
            let Some((from, to)) = pair.map(|p| (p.get(0), p.get(1))).filter(|(f, t)| f.is_string() && t.is_string())
            else {
                return Err(type_error(&format!("{what}.edges must be an array of [from, to] string pairs")));
            };
            // An id outside this dag's range (an earlier node of the walk) is unknown here too.
            let local = |name: &JsValue| self.ids.get(name).as_f64().map(|id| id as u32).filter(|&id| id >= first);
            if let (f, None) | (f @ None, _) = (local(&from), local(&to)) {
                let (from, to) = (from.as_string().unwrap_or_default(), to.as_string().unwrap_or_default());
                let unknown = if f.is_none() { &from } else { &to };
                diags.push(diagnostics::unknown_node(&from, &to, unknown));
            }
        }
        if diags.has_errors() {
            return Err(tfgraph_error(&diags));
        }
        Ok(())
    }

    /// Drops names added since `first` (a rejected expansion leaves no trace).
    fn forget_from(&self, first: u32) {
        let names = self.names.borrow();
        for id in first..names.length() {
            let name = names.get(id);
            if self.ids.get(&name).as_f64().is_some_and(|v| v as u32 >= first) {
                self.ids.delete(&name);
            }
        }
        names.set_length(first);
        self.parents.borrow_mut().truncate(first as usize);
    }
}
