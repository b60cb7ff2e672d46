//! The walk's virtual clock: operations with durations and predecessors, run at most
//! `parallelism` at a time, each started as soon as its predecessors finish (in list order
//! when more are ready than slots); starts grouped in waves (a new wave when one starts more
//! than half the provider's delay after the wave's first, as the fixtures group them).

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
