//! The permit pool (Terraform's `parallelSem`) and the cancellation flag.
//!
//! Both are single-threaded (`Rc`, `Cell`): the walker runs on one thread, the browser's or
//! Node's event loop in wasm and a test executor natively. A walk and every subgraph walk
//! inside it share one [`Limiter`], so `parallelism` bounds all visits in flight at once.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::Waker;

/// A counting semaphore whose permits are taken without waiting ([`Limiter::try_acquire`]).
/// A caller that gets none leaves its waker and is woken when any permit comes back.
#[derive(Clone)]
pub struct Limiter {
    inner: Rc<LimiterInner>,
}

struct LimiterInner {
    available: Cell<usize>,
    capacity: usize,
    /// The most permits ever out at once.
    max_in_use: Cell<usize>,
    waiters: RefCell<Vec<Waker>>,
}

/// One slot of the pool, given back on drop.
pub struct Permit {
    inner: Rc<LimiterInner>,
}

impl Limiter {
    /// A pool of `capacity` permits (at least one).
    pub fn new(capacity: usize) -> Limiter {
        assert!(capacity >= 1, "a limiter needs at least one permit");
        Limiter {
            inner: Rc::new(LimiterInner {
                available: Cell::new(capacity),
                capacity,
                max_in_use: Cell::new(0),
                waiters: RefCell::new(Vec::new()),
            }),
        }
    }

    /// Takes a permit if one is free; otherwise remembers `waker` (once) for the next release.
    pub fn try_acquire(&self, waker: &Waker) -> Option<Permit> {
        let inner = &self.inner;
        let available = inner.available.get();
        if available == 0 {
            let mut waiters = inner.waiters.borrow_mut();
            if !waiters.iter().any(|w| w.will_wake(waker)) {
                waiters.push(waker.clone());
            }
            return None;
        }
        inner.available.set(available - 1);
        let in_use = inner.capacity - available + 1;
        if in_use > inner.max_in_use.get() {
            inner.max_in_use.set(in_use);
        }
        Some(Permit { inner: inner.clone() })
    }

    pub fn capacity(&self) -> usize {
        self.inner.capacity
    }

    pub fn in_use(&self) -> usize {
        self.inner.capacity - self.inner.available.get()
    }

    pub fn max_in_use(&self) -> usize {
        self.inner.max_in_use.get()
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.inner.available.set(self.inner.available.get() + 1);
        // Wake every waiter: each re-checks, and one that loses the race registers again.
        // Waiters are walk levels (a walk and its running subgraph walks), so the list is short.
        let waiters = std::mem::take(&mut *self.inner.waiters.borrow_mut());
        for w in waiters {
            w.wake();
        }
    }
}

/// A shared "stop starting new nodes" flag; the JS bindings set it from an `AbortSignal`.
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Rc<CancelInner>,
}

#[derive(Default)]
struct CancelInner {
    cancelled: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Cancels: walks using this token start nothing more, and are woken to say so.
    pub fn cancel(&self) {
        if self.inner.cancelled.replace(true) {
            return;
        }
        for w in std::mem::take(&mut *self.inner.wakers.borrow_mut()) {
            w.wake();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.get()
    }

    /// Asks to be woken by [`CancelToken::cancel`]; a waker already registered is not added twice.
    pub(crate) fn register(&self, waker: &Waker) {
        let mut wakers = self.inner.wakers.borrow_mut();
        if !wakers.iter().any(|w| w.will_wake(waker)) {
            wakers.push(waker.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn permits_are_counted_and_waiters_woken_once_per_release() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(count.clone());
        let limiter = Limiter::new(2);
        let a = limiter.try_acquire(&waker).unwrap();
        let b = limiter.try_acquire(&waker).unwrap();
        assert!(limiter.try_acquire(&waker).is_none());
        assert!(limiter.try_acquire(&waker).is_none()); // registered once, not twice
        assert_eq!((limiter.in_use(), limiter.max_in_use()), (2, 2));
        drop(a);
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        drop(b);
        assert_eq!(count.0.load(Ordering::SeqCst), 1); // nobody was waiting any more
        assert_eq!((limiter.in_use(), limiter.max_in_use()), (0, 2));
    }
}
