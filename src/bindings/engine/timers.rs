//! Time for the engine's walks in the package: `performance.now()`, real timers.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Milliseconds since `since` (a `performance.now()` reading; 0: the reading itself).
pub fn elapsed_ms(since: f64) -> f64 {
    performance_now() - since
}

/// Resolves after `ms` milliseconds (`setTimeout`).
pub async fn sleep(ms: u64) {
    let promise = Promise::new(&mut |resolve, _| {
        let set_timeout =
            Reflect::get(&js_sys::global(), &"setTimeout".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
        match set_timeout {
            Some(f) => {
                let _ = f.call2(&JsValue::UNDEFINED, &resolve, &(ms as f64).into());
            }
            None => {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Gives the event loop a turn (a macrotask), so a page keeps drawing.
pub async fn turn() {
    let _ = JsFuture::from(crate::bindings::walk::macrotask()).await;
}
