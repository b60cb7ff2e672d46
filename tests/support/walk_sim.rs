//! A deterministic single-task executor with virtual time, for native walker tests.
//!
//! `block_on` polls the walk until it is pending with nothing woken, then jumps the clock to
//! the earliest timer and wakes every timer due then. So a test's timing is exact and
//! repeatable, and a walk that can never finish (a deadlock) panics instead of hanging.
#![allow(dead_code)]

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

#[derive(Default)]
struct Clock {
    now: u64,
    next_id: u64,
    timers: BinaryHeap<Reverse<(u64, u64)>>,
    wakers: HashMap<u64, Waker>,
}

thread_local! {
    static CLOCK: RefCell<Clock> = RefCell::new(Clock::default());
}

/// Virtual milliseconds since the last `block_on` began.
pub fn now() -> f64 {
    CLOCK.with(|c| c.borrow().now as f64)
}

/// Completes `ms` virtual milliseconds after its first poll.
pub fn sleep(ms: u64) -> Sleep {
    Sleep { ms, timer: None }
}

pub struct Sleep {
    ms: u64,
    timer: Option<(u64, u64)>, // (deadline, id)
}

impl Future for Sleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        CLOCK.with(|c| {
            let mut c = c.borrow_mut();
            let (deadline, id) = match self.timer {
                Some(t) => t,
                None => {
                    let t = (c.now + self.ms, c.next_id);
                    c.next_id += 1;
                    c.timers.push(Reverse(t));
                    self.timer = Some(t);
                    t
                }
            };
            if c.now >= deadline {
                c.wakers.remove(&id);
                Poll::Ready(())
            } else {
                c.wakers.insert(id, cx.waker().clone());
                Poll::Pending
            }
        })
    }
}

struct Flag(AtomicBool);
impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs `future` to completion in virtual time (the clock restarts at 0).
///
/// # Panics
/// If the future is pending, nothing woke it, and no timer is left: it can never finish.
pub fn block_on<F: Future>(future: F) -> F::Output {
    CLOCK.with(|c| *c.borrow_mut() = Clock::default());
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        if flag.0.swap(false, Ordering::SeqCst) {
            continue;
        }
        // Nothing runnable: advance the clock to the next timer and wake all due then.
        let due: Vec<Waker> = CLOCK.with(|c| {
            let mut c = c.borrow_mut();
            let Some(&Reverse((t, _))) = c.timers.peek() else {
                panic!("the walk stalled at t={}: pending, nothing woken, no timers left", c.now);
            };
            c.now = c.now.max(t);
            let mut due = Vec::new();
            while let Some(&Reverse((t, id))) = c.timers.peek() {
                if t > c.now {
                    break;
                }
                c.timers.pop();
                due.extend(c.wakers.remove(&id));
            }
            due
        });
        for w in due {
            w.wake();
        }
        flag.0.store(false, Ordering::SeqCst);
        // A woken timer's waker is a sub-waker of the walk, which wakes our flag; poll again.
    }
}

/// Pending once (waking itself), then ready: stands in for "yield to the event loop".
pub fn yield_once() -> Pin<Box<dyn Future<Output = ()>>> {
    let mut yielded = false;
    Box::pin(std::future::poll_fn(move |cx| {
        if yielded {
            Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }))
}
