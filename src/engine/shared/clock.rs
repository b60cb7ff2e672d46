//! The walks' virtual clock. [`VirtualClock`] runs a future (the apply walk) on virtual time:
//! sleeps end when the clock reaches them, and the clock jumps to the next sleep's end whenever
//! nothing else can move, so a walk of mock operations with delays takes no real time.
//! [`schedule`]: the plan's operations with durations and predecessors, run at most
//! `parallelism` at a time, each started as soon as its predecessors finish (in list order
//! when more are ready than slots). [`group`]: starts grouped in waves (a new wave when one
//! starts more than half the provider's delay after the wave's first, as the fixtures group them).

use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// Virtual time in milliseconds, and the sleeps waiting on it.
#[derive(Default)]
pub struct VirtualClock {
    now: Cell<u64>,
    /// (end, sleep id), earliest first.
    ends: RefCell<BinaryHeap<Reverse<(u64, u64)>>>,
    wakers: RefCell<HashMap<u64, Waker>>,
    next_id: Cell<u64>,
}

/// A future ready once the clock reaches `end`.
pub struct Sleep<'c> {
    clock: &'c VirtualClock,
    end: u64,
    id: Option<u64>,
}

impl Future for Sleep<'_> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let clock = this.clock;
        if clock.now.get() >= this.end {
            if let Some(id) = this.id.take() {
                clock.wakers.borrow_mut().remove(&id);
            }
            return Poll::Ready(());
        }
        let id = *this.id.get_or_insert_with(|| {
            let id = clock.next_id.get();
            clock.next_id.set(id + 1);
            clock.ends.borrow_mut().push(Reverse((this.end, id)));
            id
        });
        clock.wakers.borrow_mut().insert(id, cx.waker().clone());
        Poll::Pending
    }
}

/// Set when the future run by [`VirtualClock::run`] is woken.
struct Woken(AtomicBool);

impl Wake for Woken {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl VirtualClock {
    /// The time now, in milliseconds since the clock started.
    pub fn now(&self) -> u64 {
        self.now.get()
    }

    /// Sleeps `ms` milliseconds of virtual time (no time at all when 0).
    pub fn sleep(&self, ms: u64) -> Sleep<'_> {
        Sleep { clock: self, end: self.now.get() + ms, id: None }
    }

    /// Runs `future` to its end: polled while anything wakes it, and when nothing does, the
    /// clock moves to the earliest sleep's end and wakes every sleep ending then.
    ///
    /// # Panics
    /// If the future waits for something other than this clock (nothing would ever wake it).
    pub fn run<F: Future>(&self, future: F) -> F::Output {
        let woken = Arc::new(Woken(AtomicBool::new(false)));
        let waker = Waker::from(woken.clone());
        let mut cx = Context::from_waker(&waker);
        let mut future = pin!(future);
        loop {
            woken.0.store(false, Ordering::SeqCst);
            if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
            if woken.0.load(Ordering::SeqCst) {
                continue;
            }
            let Some(Reverse((end, _))) = self.ends.borrow().peek().copied() else {
                panic!("a future on the virtual clock waits for something that is not the clock");
            };
            self.now.set(end);
            let mut due = Vec::new();
            {
                let mut ends = self.ends.borrow_mut();
                while ends.peek().is_some_and(|Reverse((e, _))| *e == end) {
                    let Reverse((_, id)) = ends.pop().unwrap_or(Reverse((end, u64::MAX)));
                    due.push(id);
                }
            }
            for id in due {
                if let Some(w) = self.wakers.borrow_mut().remove(&id) {
                    w.wake();
                }
            }
        }
    }
}

/// `(waves, max_concurrency)` for `items` (label, duration) with `preds` (indices).
pub fn schedule(
    items: &[(String, u64)],
    preds: &[Vec<usize>],
    parallelism: usize,
    delay: u64,
) -> (Vec<Vec<String>>, usize) {
    let n = items.len();
    let mut done = vec![false; n];
    let mut started = vec![false; n];
    let mut running: Vec<(u64, usize)> = Vec::new();
    let mut now = 0;
    let mut starts = Vec::new();
    let mut max = 0;
    loop {
        for i in 0..n {
            if running.len() >= parallelism.max(1) {
                break;
            }
            if !started[i] && preds[i].iter().all(|&p| done[p]) {
                started[i] = true;
                running.push((now + items[i].1, i));
                starts.push((now, items[i].0.clone()));
                max = max.max(running.len());
            }
        }
        let Some(t) = running.iter().map(|r| r.0).min() else { break };
        now = t;
        running.retain(|&(end, i)| {
            if end == t {
                done[i] = true;
                false
            } else {
                true
            }
        });
    }
    (group(&starts, delay), max)
}

/// Starts grouped in waves, each sorted.
pub fn group(starts: &[(u64, String)], delay: u64) -> Vec<Vec<String>> {
    let mut waves: Vec<(u64, Vec<String>)> = Vec::new();
    for (t, label) in starts {
        match waves.last_mut() {
            Some((t0, w)) if *t <= *t0 + delay / 2 => w.push(label.clone()),
            _ => waves.push((*t, vec![label.clone()])),
        }
    }
    waves
        .into_iter()
        .map(|(_, mut w)| {
            w.sort();
            w
        })
        .collect()
}
