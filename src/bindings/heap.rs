//! Wasm memory grown ahead while the engine plans.
//!
//! dlmalloc grows wasm memory 64 KiB at a time, and in Node 20 every `memory.grow` past a few
//! tens of MB costs a millisecond or two and a full garbage collection (bench/graph/RESULTS.md).
//! An apply knows its size from the plan and grows once (`graph::reserve_heap`); a plan does
//! not know how many instances its expansion makes until it has made them. So while a plan
//! runs, each time dlmalloc has to grow the memory, it is grown once more by half its size
//! (allocated and freed at once: dlmalloc keeps it for what follows). The number of grows is
//! then logarithmic in the plan's size instead of linear. Off outside [`growing_ahead`]:
//! loading and the other exports grow as before. Near wasm32's 4 GiB limit the extra block
//! fails to allocate and is skipped; only the block asked for counts.

//!
//! When an allocation fails anyway (wasm32's memory ends at 4 GiB), and when Rust panics (the
//! release build aborts, a trap), the module writes down what happened in
//! [`crate::eval::limits::LastWords`] before it stops, without allocating: `pkg/api.js` reads it
//! from the stopped instance's memory for the diagnostic it rejects the call with.

use crate::eval::limits::{Fixed, LAST_WORDS};
use core::arch::wasm32::memory_size;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use wasm_bindgen::prelude::wasm_bindgen;

static AHEAD: AtomicBool = AtomicBool::new(false);

/// Runs `f` with the memory grown ahead.
pub fn growing_ahead<R>(f: impl FnOnce() -> R) -> R {
    let was = AHEAD.swap(true, Relaxed);
    let out = f();
    AHEAD.store(was, Relaxed);
    out
}

/// Where the last words are in memory (pkg/api.js reads them after a trap), and the panic hook
/// that writes a panic's message there. Called once by the package as each instance starts.
#[wasm_bindgen(js_name = lastWords)]
pub fn last_words() -> *const u8 {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message =
            payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str));
        write_what(|out| {
            use std::fmt::Write;
            let _ = write!(out, "panicked: {}", message.unwrap_or("Box<dyn Any>"));
            if let Some(l) = info.location() {
                let _ = write!(out, " at {}:{}", l.file(), l.line());
            }
        });
    }));
    LAST_WORDS.0.get() as *const u8
}

/// Writes the `what` of the last words.
fn write_what(f: impl FnOnce(&mut Fixed<'_>)) {
    // SAFETY: one thread; nothing else holds a reference into the last words while this runs.
    let w = unsafe { &mut *LAST_WORDS.0.get() };
    let mut out = Fixed { buf: &mut w.what, len: 0 };
    f(&mut out);
    w.what_len = out.len as u32;
}

/// Notes an allocation that failed: the module aborts right after.
fn failed(size: usize) {
    write_what(|out| {
        use std::fmt::Write;
        let _ = write!(out, "allocation of {size} bytes failed with {} MiB of memory in use", memory_size(0) / 16);
    });
}

struct Heap;

impl Heap {
    /// After an allocation: when it grew the memory, grow by half the memory more.
    fn after(&self, pages_before: usize) {
        if !AHEAD.load(Relaxed) || memory_size(0) == pages_before {
            return;
        }
        AHEAD.store(false, Relaxed); // the block below must not grow ahead itself
        if let Ok(layout) = Layout::from_size_align(memory_size(0) * 65536 / 2, 16) {
            // SAFETY: a non-zero size; the block is freed unread with its own layout.
            // black_box: the optimiser removes allocations nothing reads.
            unsafe {
                let p = std::hint::black_box(System.alloc(layout));
                if !p.is_null() {
                    System.dealloc(p, layout);
                }
            }
        }
        AHEAD.store(true, Relaxed);
    }
}

// SAFETY: every call is System's (dlmalloc); `after` only allocates and frees a block of its own.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        let p = System.alloc(layout);
        if p.is_null() {
            failed(layout.size());
        }
        self.after(before);
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            failed(layout.size());
        }
        self.after(before);
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout)
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let before = memory_size(0);
        let q = System.realloc(p, layout, size);
        if q.is_null() {
            failed(size);
        }
        self.after(before);
        q
    }
}

#[global_allocator]
static GLOBAL: Heap = Heap;
