//! Awaiting many visit promises cheaply.
//!
//! `JsFuture` makes two fresh closures per promise (each a JS function registered for
//! finalization). A walk awaits one promise per node, so instead it makes two closures once,
//! and per promise binds them to a slot number (`Function.prototype.bind`, a plain JS
//! object) and calls `then`. Settling writes the slot and wakes the waiting future.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use js_sys::{Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;

#[derive(Default)]
struct Slot {
    result: Option<Result<JsValue, JsValue>>,
    waker: Option<Waker>,
    /// Its future was dropped: free the slot when the promise settles.
    abandoned: bool,
    in_use: bool,
}

#[derive(Default)]
struct Slots {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Slots {
    fn settle(&mut self, slot: u32, result: Result<JsValue, JsValue>) {
        let Some(s) = self.slots.get_mut(slot as usize).filter(|s| s.in_use) else { return };
        if s.abandoned {
            *s = Slot::default();
            self.free.push(slot);
            return;
        }
        s.result = Some(result);
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }
}

/// The shared callbacks and slots of one walk.
pub(super) struct PromiseTable {
    slots: Rc<RefCell<Slots>>,
    on_fulfilled: Closure<dyn FnMut(u32, JsValue)>,
    on_rejected: Closure<dyn FnMut(u32, JsValue)>,
    then: Function,
}

impl PromiseTable {
    pub fn new() -> PromiseTable {
        let slots = Rc::new(RefCell::new(Slots::default()));
        let (a, b) = (slots.clone(), slots.clone());
        PromiseTable {
            slots,
            on_fulfilled: Closure::new(move |slot: u32, value: JsValue| a.borrow_mut().settle(slot, Ok(value))),
            on_rejected: Closure::new(move |slot: u32, error: JsValue| b.borrow_mut().settle(slot, Err(error))),
            then: super::builtin(&["Promise", "prototype", "then"]),
        }
    }

    /// Starts awaiting `promise`.
    pub fn watch(&self, promise: &Promise) -> Result<PromiseFuture, JsValue> {
        let slot = {
            let mut slots = self.slots.borrow_mut();
            let slot = match slots.free.pop() {
                Some(slot) => slot,
                None => {
                    slots.slots.push(Slot::default());
                    slots.slots.len() as u32 - 1
                }
            };
            slots.slots[slot as usize].in_use = true;
            slot
        };
        let id = JsValue::from(slot);
        let fulfilled = self.on_fulfilled.as_ref().unchecked_ref::<Function>().bind1(&JsValue::NULL, &id);
        let rejected = self.on_rejected.as_ref().unchecked_ref::<Function>().bind1(&JsValue::NULL, &id);
        self.then.call2(promise, &fulfilled, &rejected)?;
        Ok(PromiseFuture { slots: self.slots.clone(), slot, done: false })
    }
}

/// Resolves to the promise's value, or its rejection as `Err`.
pub(super) struct PromiseFuture {
    slots: Rc<RefCell<Slots>>,
    slot: u32,
    done: bool,
}

impl Future for PromiseFuture {
    type Output = Result<JsValue, JsValue>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let slot = self.slot;
        let mut slots = self.slots.borrow_mut();
        let s = &mut slots.slots[slot as usize];
        match s.result.take() {
            Some(result) => {
                *s = Slot::default();
                slots.free.push(slot);
                drop(slots);
                self.done = true;
                Poll::Ready(result)
            }
            None => {
                if !s.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    s.waker = Some(cx.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for PromiseFuture {
    fn drop(&mut self) {
        if !self.done {
            let mut slots = self.slots.borrow_mut();
            let s = &mut slots.slots[self.slot as usize];
            if s.result.is_some() {
                *s = Slot::default();
                slots.free.push(self.slot);
            } else {
                s.abandoned = true;
                s.waker = None;
            }
        }
    }
}
