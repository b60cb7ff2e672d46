//! `options` of `walk`, and the `AbortSignal` listener.

use js_sys::{Function, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;

use super::{tfgraph_error, type_error, DEFAULT_YIELD_EVERY};
use crate::walk::{self as core, diagnostics, CancelToken};

pub(super) struct Options {
    pub parallelism: usize,
    pub signal: Option<JsValue>,
    pub on_event: Option<Function>,
    pub yield_every: usize,
}

pub(super) fn read_options(options: &JsValue) -> Result<Options, JsValue> {
    let mut out = Options {
        parallelism: core::DEFAULT_PARALLELISM,
        signal: None,
        on_event: None,
        yield_every: DEFAULT_YIELD_EVERY,
    };
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(type_error("`options` must be an object"));
    }
    let get = |key: &str| Reflect::get(options, &key.into());
    let parallelism = get("parallelism")?;
    if !parallelism.is_undefined() {
        let Some(value) = parallelism.as_f64() else {
            return Err(type_error("`options.parallelism` must be a number"));
        };
        out.parallelism = diagnostics::check_parallelism(value).map_err(|d| tfgraph_error(&d.into()))?;
    }
    let signal = get("signal")?;
    if !signal.is_undefined() && !signal.is_null() {
        if !Reflect::get(&signal, &"addEventListener".into())?.is_function() {
            return Err(type_error("`options.signal` must be an AbortSignal"));
        }
        out.signal = Some(signal);
    }
    let on_event = get("onEvent")?;
    if !on_event.is_undefined() && !on_event.is_null() {
        out.on_event = Some(on_event.dyn_into().map_err(|_| type_error("`options.onEvent` must be a function"))?);
    }
    let yield_every = get("yieldEvery")?;
    if !yield_every.is_undefined() {
        match yield_every.as_f64() {
            Some(n) if n >= 1.0 && n.fract() == 0.0 => out.yield_every = n as usize,
            _ => return Err(type_error("`options.yieldEvery` must be a whole number >= 1")),
        }
    }
    Ok(out)
}

/// Listens for `abort` on a signal for as long as it lives.
pub(crate) struct AbortListener {
    signal: JsValue,
    closure: Closure<dyn FnMut()>,
}

impl AbortListener {
    pub fn new(signal: JsValue, token: CancelToken) -> Result<AbortListener, JsValue> {
        if Reflect::get(&signal, &"aborted".into())?.is_truthy() {
            token.cancel();
        }
        let closure = Closure::<dyn FnMut()>::new(move || token.cancel());
        let add: Function = Reflect::get(&signal, &"addEventListener".into())?.unchecked_into();
        add.call2(&signal, &"abort".into(), closure.as_ref())?;
        Ok(AbortListener { signal, closure })
    }
}

impl Drop for AbortListener {
    fn drop(&mut self) {
        if let Ok(remove) = Reflect::get(&self.signal, &"removeEventListener".into()) {
            if let Some(remove) = remove.dyn_ref::<Function>() {
                let _ = remove.call2(&self.signal, &"abort".into(), self.closure.as_ref());
            }
        }
    }
}
