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

use core::arch::wasm32::memory_size;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static AHEAD: AtomicBool = AtomicBool::new(false);

/// Runs `f` with the memory grown ahead.
pub fn growing_ahead<R>(f: impl FnOnce() -> R) -> R {
    let was = AHEAD.swap(true, Relaxed);
    let out = f();
    AHEAD.store(was, Relaxed);
    out
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
        self.after(before);
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        let p = System.alloc_zeroed(layout);
        self.after(before);
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout)
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let before = memory_size(0);
        let q = System.realloc(p, layout, size);
        self.after(before);
        q
    }
}

#[global_allocator]
static GLOBAL: Heap = Heap;
