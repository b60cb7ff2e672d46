//! The JS report: names by id in bulk, failures with their errors, and the `times` map.

use js_sys::{Array, Map, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::fast::FastJs;
use super::{builtin, Ctx};
use crate::walk::{Failure, WalkReport};

impl Ctx {
    /// The names of `ids`, in one call: `Array.from(ids, Array.prototype.at, names)`.
    pub(super) fn names_of(&self, ids: &[u32]) -> Array {
        let from = builtin(&["Array", "from"]);
        let array = builtin(&["Array"]);
        let ids = js_sys::Uint32Array::from(ids);
        let at = builtin(&["Array", "prototype", "at"]);
        match from.call3(&array, &ids, &at, &self.names.borrow()) {
            Ok(names) => names.unchecked_into(),
            Err(_) => ids.to_vec().iter().map(|&id| self.name(id)).collect(),
        }
    }
}

pub(super) fn build_report(ctx: &Ctx, report: WalkReport<u32, JsValue>) -> JsValue {
    let names = |ids: &[u32]| ctx.names_of(ids);
    let failed = Array::new();
    for (id, failure) in report.failed {
        let error = match failure {
            Failure::Visit(error) => error,
            Failure::Expansion { failed } => {
                let name = ctx.name(id).as_string().unwrap_or_default();
                let s = if failed == 1 { "" } else { "s" };
                js_sys::Error::new(&format!("{failed} node{s} of the expansion of {name:?} failed")).into()
            }
        };
        let entry = Object::new();
        let _ = Reflect::set(&entry, &"node".into(), &ctx.name(id));
        let _ = Reflect::set(&entry, &"error".into(), &error);
        failed.push(&entry);
    }
    let times = FastJs::with(|fast| {
        let f = fast?;
        let ids: Vec<u32> = report.timings.iter().map(|t| t.node).collect();
        let start: Vec<f64> = report.timings.iter().map(|t| t.start).collect();
        let end: Vec<f64> = report.timings.iter().map(|t| t.end).collect();
        let args: Array = [
            JsValue::from(ctx.names.borrow().clone()),
            JsValue::from(js_sys::Uint32Array::from(&ids[..])),
            JsValue::from(js_sys::Float64Array::from(&start[..])),
            JsValue::from(js_sys::Float64Array::from(&end[..])),
        ]
        .into_iter()
        .collect();
        f.times_map.apply(&JsValue::NULL, &args).ok()
    })
    .unwrap_or_else(|| {
        let times = Map::new();
        let (start, end) = (JsValue::from("start"), JsValue::from("end"));
        for t in &report.timings {
            let entry = Object::new();
            let _ = Reflect::set(&entry, &start, &t.start.into());
            let _ = Reflect::set(&entry, &end, &t.end.into());
            times.set(&ctx.name(t.node), &entry);
        }
        times.into()
    });
    let out = Object::new();
    let _ = Reflect::set(&out, &"completed".into(), &names(&report.completed));
    let _ = Reflect::set(&out, &"failed".into(), &failed);
    let _ = Reflect::set(&out, &"skipped".into(), &names(&report.skipped));
    let _ = Reflect::set(&out, &"cancelled".into(), &names(&report.cancelled));
    let _ = Reflect::set(&out, &"maxConcurrency".into(), &(report.max_concurrency as f64).into());
    let _ = Reflect::set(&out, &"times".into(), &times);
    out.into()
}
