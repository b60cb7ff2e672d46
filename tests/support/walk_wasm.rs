//! wasm test support: runs a [`cases::Case`] through the exported JS `walk` with real JS
//! promises (visits resolve after microtask and macrotask turns), and reads the report back
//! into an [`Observed`] for the same checks the native tests use.
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::walk_cases::{all_graphs, Case, Graph, Observed};

pub fn set(obj: &JsValue, key: &str, value: &JsValue) {
    Reflect::set(obj, &key.into(), value).unwrap();
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap()
}

pub fn strings(value: &JsValue) -> Vec<String> {
    Array::from(value).iter().map(|v| v.as_string().unwrap()).collect()
}

/// `{ nodes, edges }` for a graph given by names and index edges.
pub fn js_dag(names: &[String], edges: &[(u32, u32)]) -> JsValue {
    let obj = Object::new();
    set(&obj, "nodes", &names.iter().map(|n| JsValue::from(n.as_str())).collect::<Array>());
    let e: Array = edges
        .iter()
        .map(|&(f, t)| -> JsValue {
            Array::of2(&names[f as usize].as_str().into(), &names[t as usize].as_str().into()).into()
        })
        .collect();
    set(&obj, "edges", &e);
    obj.into()
}

pub fn graph_dag(g: &Graph) -> JsValue {
    js_dag(&g.names, &g.edges)
}

/// A promise resolved on the next macrotask (`setTimeout(0)`).
pub fn macrotask() -> JsFuture {
    JsFuture::from(Promise::new(&mut |resolve, _| {
        let set_timeout: Function = get(&js_sys::global(), "setTimeout").unchecked_into();
        set_timeout.call2(&JsValue::UNDEFINED, &resolve, &0.into()).unwrap();
    }))
}

pub fn microtask() -> JsFuture {
    JsFuture::from(Promise::resolve(&JsValue::UNDEFINED))
}

/// Awaits `ticks` event-loop turns; every seventh is a macrotask, the rest microtasks.
pub async fn turns(ticks: u32, salt: u32) {
    for i in 0..ticks {
        if (i + salt) % 7 == 0 {
            macrotask().await.unwrap();
        } else {
            microtask().await.unwrap();
        }
    }
}

pub struct JsRun {
    pub observed: Observed,
    pub report: JsValue,
}

/// Walks `case` through the JS API. Each visit returns a promise that settles after a few
/// turns derived from its latency, rejecting if it fails and resolving to `{ expand }` if
/// it expands. `abort_after`: abort once that many visits have started.
pub async fn run_case_js(case: &Case, abort_after: Option<usize>) -> Result<JsRun, JsValue> {
    let mut specs: HashMap<String, (u32, bool, Option<Graph>)> = HashMap::new();
    for (_, g) in all_graphs(case) {
        for i in 0..g.names.len() {
            specs.insert(g.names[i].clone(), (g.latency[i], g.fails[i], g.expand[i].clone()));
        }
    }
    let active = Rc::new(Cell::new(0usize));
    let max_active = Rc::new(Cell::new(0usize));
    let started = Rc::new(Cell::new(0usize));
    let controller = web_abort_controller();
    let signal = get(&controller, "signal");
    let (a, m, s, c) = (active.clone(), max_active.clone(), started.clone(), controller.clone());
    let visit = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(move |node: JsValue, _parent: JsValue| {
        let name = node.as_string().unwrap();
        let (latency, fails, expand) = specs[&name].clone();
        a.set(a.get() + 1);
        m.set(m.get().max(a.get()));
        s.set(s.get() + 1);
        if abort_after == Some(s.get()) {
            let abort: Function = get(&c, "abort").unchecked_into();
            abort.call0(&c).unwrap();
        }
        let a = a.clone();
        future_to_promise(async move {
            turns(latency % 5, latency).await;
            a.set(a.get() - 1);
            if fails {
                return Err(js_sys::Error::new(&format!("{name} failed")).into());
            }
            Ok(match expand {
                Some(sub) => {
                    let obj = Object::new();
                    set(&obj, "expand", &graph_dag(&sub));
                    obj.into()
                }
                None => JsValue::UNDEFINED,
            })
        })
        .into()
    });
    let events = Rc::new(RefCell::new(Vec::new()));
    let ev = events.clone();
    let on_event = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        let kind = get(&e, "type").as_string().unwrap();
        ev.borrow_mut().push((kind, get(&e, "node").as_string().unwrap(), get(&e, "time").as_f64().unwrap()));
    });
    let options = Object::new();
    set(&options, "parallelism", &(case.parallelism as f64).into());
    set(&options, "onEvent", on_event.as_ref());
    set(&options, "signal", &signal);
    set(&options, "yieldEvery", &7.into());
    let promise = call_walk(graph_dag(&case.graph), visit.as_ref().clone(), options.into());
    let report = JsFuture::from(promise).await?;
    let observed = Observed {
        completed: strings(&get(&report, "completed")),
        failed: Array::from(&get(&report, "failed")).iter().map(|f| get(&f, "node").as_string().unwrap()).collect(),
        skipped: strings(&get(&report, "skipped")),
        cancelled: strings(&get(&report, "cancelled")),
        events: events.borrow().clone(),
        max_concurrency: get(&report, "maxConcurrency").as_f64().unwrap() as usize,
        max_active: max_active.get(),
    };
    Ok(JsRun { observed, report })
}

/// `new AbortController()`.
pub fn web_abort_controller() -> JsValue {
    let ctor: Function = get(&js_sys::global(), "AbortController").unchecked_into();
    Reflect::construct(&ctor, &Array::new()).unwrap()
}

/// Calls `walk` and returns the rejection, panicking if it resolved.
pub async fn rejection(dag: JsValue, visit: &JsValue, options: JsValue) -> JsValue {
    match JsFuture::from(call_walk(dag, visit.clone(), options)).await {
        Ok(report) => panic!("expected a rejection, got {report:?}"),
        Err(e) => e,
    }
}

/// A visit that counts calls and resolves at once (a non-promise value).
pub type JsVisit = Closure<dyn FnMut(JsValue) -> JsValue>;

pub fn counting_visit() -> (JsVisit, Rc<Cell<usize>>) {
    let count = Rc::new(Cell::new(0));
    let c = count.clone();
    (
        Closure::new(move |_node: JsValue| {
            c.set(c.get() + 1);
            JsValue::UNDEFINED
        }),
        count,
    )
}

/// The export, as JS calls it: `walk(dag, visit, options)`.
pub fn call_walk(dag: JsValue, visit: JsValue, options: JsValue) -> Promise {
    tfgraph::bindings::walk::walk_js(dag, visit, Some(options))
}
