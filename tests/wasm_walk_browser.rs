//! The JS `walk` export in a browser: `wasm-pack test --headless --chrome`. The same suite as
//! in Node, plus the browser-only promise: a long walk never freezes the page.
#![cfg(target_arch = "wasm32")]

mod support;
use support::walk_cases as cases;
use support::walk_wasm as wasm;
#[path = "support/walk_wasm_suite.rs"]
pub mod suite;

use js_sys::{Array, Function};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_100k_node_chain_and_fan_out_walk_in_the_browser() {
    suite::large_walks(100_000).await;
}

#[wasm_bindgen_test]
async fn a_long_walk_lets_timers_run_while_it_goes() {
    // 100,000 synchronous visits would otherwise run in one go. A setTimeout(0) armed before
    // the walk must fire while visits are still being made.
    let n = 100_000;
    let visited = Rc::new(Cell::new(0usize));
    let seen_by_timer = Rc::new(Cell::new(usize::MAX));
    let (v, s) = (visited.clone(), seen_by_timer.clone());
    let visit = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |_n: JsValue| {
        v.set(v.get() + 1);
        JsValue::UNDEFINED
    });
    let v2 = visited.clone();
    let timer = Closure::<dyn FnMut()>::new(move || s.set(v2.get()));
    let set_timeout: Function = wasm::get(&js_sys::global(), "setTimeout").unchecked_into();
    set_timeout.call2(&JsValue::UNDEFINED, timer.as_ref(), &0.into()).unwrap();
    let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    let report = JsFuture::from(wasm::call_walk(
        wasm::js_dag(&names, &cases::chain(n)),
        visit.as_ref().clone(),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(Array::from(&wasm::get(&report, "completed")).length() as usize, n);
    let at = seen_by_timer.get();
    assert!(at < n, "the timer only ran after the walk (saw {at} of {n} visits)");
}
