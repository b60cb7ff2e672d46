//! The wasm walk tests, run in Node (`tests/wasm_walk_node.rs`) and in a browser
//! (`tests/wasm_walk_browser.rs`) through the exported JS `walk`, over real JS promises.

use crate::support::walk_cases::{self as cases, check, check_invariants, gen_case, Case, Graph};
use crate::support::walk_wasm::*;
use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn graph(names: &[&str], edges: &[(&str, &str)], failing: &[&str]) -> Graph {
    let index = |n: &str| names.iter().position(|&m| m == n).unwrap() as u32;
    Graph {
        names: names.iter().map(|s| s.to_string()).collect(),
        edges: edges.iter().map(|&(f, t)| (index(f), index(t))).collect(),
        latency: vec![3; names.len()],
        fails: names.iter().map(|n| failing.contains(n)).collect(),
        expand: vec![None; names.len()],
    }
}

fn started(run: &JsRun) -> Vec<&str> {
    run.observed.events.iter().filter(|e| e.0 == "start").map(|e| e.1.as_str()).collect()
}

#[track_caller]
fn ok(case: &Case, r: Result<(), String>) {
    if let Err(e) = r {
        panic!("seed {}: {e}", case.seed);
    }
}

#[wasm_bindgen_test]
async fn random_dags_match_the_oracle_as_natively() {
    // The same seeds as the native property test's first cases, checked against the same oracle.
    for seed in 0..40 {
        let case = gen_case(seed, 40, false);
        let run = run_case_js(&case, None).await.unwrap();
        ok(&case, check(&case, &run.observed));
    }
    for seed in 1000..1030 {
        let case = gen_case(seed, 25, true);
        let run = run_case_js(&case, None).await.unwrap();
        ok(&case, check(&case, &run.observed));
    }
}

#[wasm_bindgen_test]
async fn random_aborts_place_every_node_and_start_nothing_after() {
    for seed in 3000..3030 {
        let case = gen_case(seed, 30, seed % 2 == 0);
        let after = 1 + (seed as usize % 6);
        let run = run_case_js(&case, Some(after)).await.unwrap();
        ok(&case, check_invariants(&case, &run.observed));
        let starts = started(&run).len();
        assert!(starts <= after, "seed {seed}: {starts} visits started, abort came at the {after}th");
        for name in &case.graph.names {
            let o = &run.observed;
            assert!(
                o.completed.contains(name)
                    || o.failed.contains(name)
                    || o.skipped.contains(name)
                    || o.cancelled.contains(name),
                "seed {seed}: {name} is in no list"
            );
        }
    }
}

#[wasm_bindgen_test]
async fn chain_whose_second_visit_fails_visits_only_one_and_two() {
    let case = Case {
        seed: 0,
        parallelism: 10,
        graph: graph(&["1", "2", "3", "4"], &[("2", "1"), ("3", "2"), ("4", "3")], &["2"]),
    };
    let run = run_case_js(&case, None).await.unwrap();
    assert_eq!(started(&run), ["1", "2"]);
    assert_eq!(run.observed.skipped, ["3", "4"]);
    let failed = Array::from(&get(&run.report, "failed")).get(0);
    assert_eq!(get(&failed, "node"), "2");
    let error: js_sys::Error = get(&failed, "error").unchecked_into();
    assert_eq!(error.message(), "2 failed");
    check(&case, &run.observed).unwrap();
}

#[wasm_bindgen_test]
async fn diamond_and_independent_branches() {
    let diamond =
        graph(&["top", "l", "r", "bottom"], &[("top", "l"), ("top", "r"), ("l", "bottom"), ("r", "bottom")], &[]);
    let run = run_case_js(&Case { seed: 0, parallelism: 10, graph: diamond.clone() }, None).await.unwrap();
    assert_eq!(started(&run), ["bottom", "l", "r", "top"]);
    assert_eq!(run.observed.max_concurrency, 2);
    let branches = graph(&["a1", "a2", "b1", "b2"], &[("a2", "a1"), ("b2", "b1")], &["a1"]);
    let case = Case { seed: 0, parallelism: 10, graph: branches };
    let run = run_case_js(&case, None).await.unwrap();
    assert_eq!(run.observed.completed, ["b1", "b2"]);
    assert_eq!(run.observed.skipped, ["a2"]);
    // times: a Map with start <= end for every visited node.
    let times: js_sys::Map = get(&run.report, "times").unchecked_into();
    assert_eq!(times.size(), 3);
    let b2 = times.get(&"b2".into());
    assert!(get(&b2, "start").as_f64().unwrap() <= get(&b2, "end").as_f64().unwrap());
}

#[wasm_bindgen_test]
async fn expansion_at_parallelism_one_finishes_with_parents_after_children() {
    let mut g = graph(&["web", "lb"], &[("lb", "web")], &[]);
    g.expand[0] = Some(graph(&["web[0]", "web[1]", "web[2]"], &[("web[2]", "web[0]")], &[]));
    let case = Case { seed: 0, parallelism: 1, graph: g };
    let run = run_case_js(&case, None).await.unwrap();
    assert_eq!(started(&run), ["web", "web[0]", "web[1]", "web[2]", "lb"]);
    assert_eq!(run.observed.completed, ["web[0]", "web[1]", "web[2]", "web", "lb"]);
    assert_eq!(run.observed.max_concurrency, 1);
    check(&case, &run.observed).unwrap();
}

#[wasm_bindgen_test]
async fn expansion_events_name_their_parent() {
    let parents = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let p = parents.clone();
    let on_event = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        if get(&e, "type") == "start" {
            p.borrow_mut().push((get(&e, "node").as_string().unwrap(), get(&e, "parent").as_string()));
        }
    });
    let visit = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|node: JsValue, parent: JsValue| {
        if node == "m" {
            let obj = Object::new();
            set(&obj, "expand", &js_dag(&["m[0]".into()], &[]));
            return obj.into();
        }
        assert_eq!(parent.as_string().as_deref(), Some("m"), "visit gets the parent's name");
        JsValue::UNDEFINED
    });
    let options = Object::new();
    set(&options, "onEvent", on_event.as_ref());
    let report =
        JsFuture::from(call_walk(js_dag(&["m".into()], &[]), visit.as_ref().clone(), options.into())).await.unwrap();
    assert_eq!(strings(&get(&report, "completed")), ["m[0]", "m"]);
    assert_eq!(*parents.borrow(), [("m".to_string(), None), ("m[0]".to_string(), Some("m".to_string()))]);
}

#[wasm_bindgen_test]
async fn a_bad_expansion_fails_its_node_with_diagnostics() {
    let visit = Closure::<dyn FnMut(JsValue) -> JsValue>::new(|node: JsValue| {
        if node == "a" {
            let obj = Object::new();
            // "b" is already a node of the walk: names are unique across the walk.
            set(&obj, "expand", &js_dag(&["b".into(), "a[0]".into()], &[]));
            return obj.into();
        }
        JsValue::UNDEFINED
    });
    let report = JsFuture::from(call_walk(
        js_dag(&["a".into(), "b".into(), "c".into()], &[(2, 0)]),
        visit.as_ref().clone(),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(strings(&get(&report, "completed")), ["b"]);
    assert_eq!(strings(&get(&report, "skipped")), ["c"]);
    let error = get(&Array::from(&get(&report, "failed")).get(0), "error");
    assert_eq!(get(&error, "name"), "TfgraphError");
    let diag = Array::from(&get(&error, "diagnostics")).get(0);
    assert_eq!(get(&diag, "summary"), "Duplicate node name");
}

#[wasm_bindgen_test]
async fn an_abort_mid_walk_cancels_the_rest() {
    // r1..r4 at parallelism 2: abort when the second visit starts; both settle, r3/r4 never run.
    let g = graph(&["r1", "r2", "r3", "r4"], &[], &[]);
    let case = Case { seed: 0, parallelism: 2, graph: g };
    let run = run_case_js(&case, Some(2)).await.unwrap();
    assert_eq!(started(&run), ["r1", "r2"]);
    assert_eq!(run.observed.completed, ["r1", "r2"]);
    assert_eq!(run.observed.cancelled, ["r3", "r4"]);
    // Cancel events come at the abort, before the visits in flight finish.
    let kinds: Vec<&str> = run.observed.events.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(kinds, ["start", "start", "cancel", "cancel", "finish", "finish"]);
}

#[wasm_bindgen_test]
async fn bad_input_rejects_before_any_visit() {
    let (visit, count) = counting_visit();
    let visit: JsValue = visit.as_ref().clone();
    let dag = || js_dag(&["a".into(), "b".into()], &[(0, 1)]);
    for (p, detail) in [
        (0.0, "The parallelism must be a positive value. Not 0."),
        (-2.0, "The parallelism must be a positive value. Not -2."),
        (2.5, "The parallelism must be a positive whole number. Not 2.5."),
    ] {
        let options = Object::new();
        set(&options, "parallelism", &p.into());
        let e = rejection(dag(), &visit, options.into()).await;
        assert_eq!(get(&e, "name"), "TfgraphError");
        let d = Array::from(&get(&e, "diagnostics")).get(0);
        assert_eq!(get(&d, "summary"), "Invalid parallelism value");
        assert_eq!(get(&d, "detail").as_string().unwrap(), detail);
    }
    let unknown = Object::new();
    set(&unknown, "nodes", &Array::of1(&"a".into()));
    set(&unknown, "edges", &Array::of1(&Array::of2(&"a".into(), &"ghost".into())));
    let e = rejection(unknown.into(), &visit, JsValue::UNDEFINED).await;
    assert_eq!(get(&Array::from(&get(&e, "diagnostics")).get(0), "summary"), "Edge to an unknown node");
    let e = rejection(js_dag(&["a".into(), "a".into()], &[]), &visit, JsValue::UNDEFINED).await;
    assert_eq!(get(&Array::from(&get(&e, "diagnostics")).get(0), "summary"), "Duplicate node name");
    let names: Vec<String> = ["b", "a", "c", "ok"].map(String::from).to_vec();
    let e = rejection(js_dag(&names, &[(0, 2), (2, 1), (1, 0), (3, 1)]), &visit, JsValue::UNDEFINED).await;
    assert_eq!(js_sys::Error::from(e).message(), "Cycle:\n  a\n  b\n  c");
    let e = rejection(JsValue::from("nope"), &visit, JsValue::UNDEFINED).await;
    assert!(e.is_instance_of::<js_sys::TypeError>());
    let e = rejection(dag(), &JsValue::from(3), JsValue::UNDEFINED).await;
    assert!(e.is_instance_of::<js_sys::TypeError>());
    assert_eq!(count.get(), 0, "nothing was visited");
}

#[wasm_bindgen_test]
async fn synchronous_values_throws_and_thenables_all_work() {
    let visit = Closure::<dyn FnMut(JsValue) -> Result<JsValue, JsValue>>::new(|node: JsValue| {
        match node.as_string().unwrap().as_str() {
            "throws" => Err(js_sys::Error::new("thrown").into()),
            "thenable" => {
                let then = js_sys::Function::new_with_args("resolve", "resolve(42)");
                let obj = Object::new();
                set(&obj, "then", &then);
                Ok(obj.into())
            }
            _ => Ok(JsValue::from(7)),
        }
    });
    let names: Vec<String> = ["plain", "throws", "thenable", "after"].map(String::from).to_vec();
    let report =
        JsFuture::from(call_walk(js_dag(&names, &[(3, 1)]), visit.as_ref().clone(), JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(strings(&get(&report, "completed")), ["plain", "thenable"]);
    assert_eq!(strings(&get(&report, "skipped")), ["after"]);
    let error: js_sys::Error = get(&Array::from(&get(&report, "failed")).get(0), "error").unchecked_into();
    assert_eq!(error.message(), "thrown");
}

#[wasm_bindgen_test]
async fn a_throwing_listener_cancels_and_rejects_with_its_error() {
    let (visit, count) = counting_visit();
    let on_event = Closure::<dyn FnMut(JsValue) -> Result<(), JsValue>>::new(|e: JsValue| {
        if get(&e, "type") == "finish" {
            return Err(JsValue::from("listener broke"));
        }
        Ok(())
    });
    let options = Object::new();
    set(&options, "onEvent", on_event.as_ref());
    set(&options, "parallelism", &1.into());
    let names: Vec<String> = (0..5).map(|i| format!("n{i}")).collect();
    let e = rejection(js_dag(&names, &cases::chain(5)), visit.as_ref(), options.into()).await;
    assert_eq!(e, "listener broke");
    assert_eq!(count.get(), 1, "nothing starts after the listener threw");
}

/// A large chain and fan-out, over real promises: nothing recursive per node in wasm either.
pub async fn large_walks(n: usize) {
    let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    let visit =
        Closure::<dyn FnMut(JsValue) -> JsValue>::new(|_node: JsValue| Promise::resolve(&JsValue::UNDEFINED).into());
    let chain = JsFuture::from(call_walk(js_dag(&names, &cases::chain(n)), visit.as_ref().clone(), JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(Array::from(&get(&chain, "completed")).length() as usize, n);
    let fan: Vec<(u32, u32)> = (1..n as u32).map(|i| (i, 0)).collect();
    let fan =
        JsFuture::from(call_walk(js_dag(&names, &fan), visit.as_ref().clone(), JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(Array::from(&get(&fan, "completed")).length() as usize, n);
    assert_eq!(get(&fan, "maxConcurrency"), 10);
}

use js_sys::Promise;

#[wasm_bindgen_test]
async fn without_compiled_loops_the_results_are_the_same() {
    // As under a content security policy without 'unsafe-eval': the built-in fallbacks read
    // names and edges and build `times`.
    tfgraph::bindings::walk::use_fallbacks_for_tests(true);
    for seed in 0..10 {
        let case = gen_case(seed, 30, seed % 2 == 1);
        let run = run_case_js(&case, None).await.unwrap();
        ok(&case, check(&case, &run.observed));
        let times: js_sys::Map = get(&run.report, "times").unchecked_into();
        assert_eq!(times.size() as usize, run.observed.completed.len() + run.observed.failed.len(), "seed {seed}");
    }
    let (visit, count) = counting_visit();
    let e = rejection(js_dag(&["a".into(), "a".into()], &[]), visit.as_ref(), JsValue::UNDEFINED).await;
    assert_eq!(get(&Array::from(&get(&e, "diagnostics")).get(0), "summary"), "Duplicate node name");
    let e = rejection(js_dag(&["a".into()], &[(0, 0)]), visit.as_ref(), JsValue::UNDEFINED).await;
    assert_eq!(js_sys::Error::from(e).message(), "Self reference: a");
    assert_eq!(count.get(), 0);
    tfgraph::bindings::walk::use_fallbacks_for_tests(false);
}
