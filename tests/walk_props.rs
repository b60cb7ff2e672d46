//! Property tests over random DAGs with random latencies and failures (seeded, so a failure
//! names the seed to replay; `tests/wasm_walk_node.rs` checks the same seeds in wasm).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::HashMap;
use support::walk_cases::{check, check_invariants, gen_case, Case, Observed};
use support::walk_native::{ideal_makespan, run_case};

#[track_caller]
fn assert_ok(case: &Case, result: Result<(), String>) {
    if let Err(e) = result {
        panic!("seed {} (parallelism {}, {} nodes): {e}", case.seed, case.parallelism, case.graph.names.len());
    }
}

/// In virtual time a work-conserving scheduler never lets a ready node wait while a permit is
/// free: if node v became ready at r and started at s > r, all permits were busy throughout
/// [r, s). (Only for walks without expansions, whose permit spans equal their timings.)
fn check_work_conserving(case: &Case, obs: &Observed, spans: &HashMap<String, (f64, f64)>) -> Result<(), String> {
    let g = &case.graph;
    let busy_at = |t: f64| spans.values().filter(|&&(s, e)| s <= t && t < e).count();
    for (v, name) in g.names.iter().enumerate() {
        let Some(&(start, _)) = spans.get(name) else { continue };
        let ready = g
            .edges
            .iter()
            .filter(|&&(f, _)| f as usize == v)
            .map(|&(_, t)| spans[&g.names[t as usize]].1)
            .fold(0.0, f64::max);
        if start < ready {
            return Err(format!("{name} started at {start}, before it was ready at {ready}"));
        }
        if start > ready {
            let mut probes = vec![ready];
            probes.extend(spans.values().map(|&(_, e)| e).filter(|&e| e > ready && e < start));
            if let Some(t) = probes.into_iter().find(|&t| busy_at(t) < case.parallelism) {
                return Err(format!(
                    "{name} was ready at {ready} but waited until {start} while a permit was free at {t}"
                ));
            }
        }
    }
    let _ = obs;
    Ok(())
}

#[test]
fn random_dags_keep_order_limit_and_skip_exactly_the_dependents_of_failures() {
    for seed in 0..400 {
        let case = gen_case(seed, 60, false);
        let run = run_case(&case, None, 0);
        assert_ok(&case, check(&case, &run.observed));
        let spans: HashMap<String, (f64, f64)> =
            run.report.timings.iter().map(|t| (t.node.clone(), (t.start, t.end))).collect();
        assert_ok(&case, check_work_conserving(&case, &run.observed, &spans));
        assert_eq!(run.observed.max_active, run.report.max_concurrency, "seed {seed}");
    }
}

#[test]
fn random_dags_with_expansions_nest_and_share_the_limit() {
    for seed in 1000..1300 {
        let case = gen_case(seed, 30, true);
        let run = run_case(&case, None, 0);
        assert_ok(&case, check(&case, &run.observed));
        assert_eq!(run.observed.max_active, run.report.max_concurrency, "seed {seed}");
    }
}

#[test]
fn yielding_every_few_steps_gives_the_same_walk() {
    // With one graph, a pause only delays the same sequence. With expansions, a paused level
    // lets its parent or a sibling take the next permit first, so only the outcome is fixed.
    for seed in 2000..2200 {
        let expand = seed % 2 == 1;
        let case = gen_case(seed, 40, expand);
        let plain = run_case(&case, None, 0);
        let yielding = run_case(&case, None, 1 + (seed as usize % 5));
        assert_ok(&case, check(&case, &yielding.observed));
        if !expand {
            assert_eq!(plain.observed.events, yielding.observed.events, "seed {seed}");
        }
    }
}

#[test]
fn random_cancellations_start_nothing_afterwards_and_place_every_node() {
    for seed in 3000..3300 {
        let case = gen_case(seed, 40, seed % 2 == 0);
        let at = seed % 60;
        let run = run_case(&case, Some(at), 0);
        assert_ok(&case, check_invariants(&case, &run.observed));
        let obs = &run.observed;
        if let Some(late) = obs.events.iter().find(|e| e.0 == "start" && e.2 > at as f64) {
            panic!("seed {seed}: {} started at {} after the cancel at {at}", late.1, late.2);
        }
        // Visits in flight at the cancel settle as they would have: started => settled.
        for e in obs.events.iter().filter(|e| e.0 == "start") {
            assert!(
                obs.events.iter().any(|f| f.1 == e.1 && f.0 != "start"),
                "seed {seed}: {} started and never settled",
                e.1
            );
        }
        // Without a cancel the same walk would have placed the same top-level nodes.
        let full = run_case(&case, None, 0);
        let count = |o: &Observed| o.completed.len() + o.failed.len() + o.skipped.len() + o.cancelled.len();
        assert!(count(obs) <= count(&full.observed), "seed {seed}");
        for name in &case.graph.names {
            let placed = obs.completed.contains(name)
                || obs.failed.contains(name)
                || obs.skipped.contains(name)
                || obs.cancelled.contains(name);
            assert!(placed, "seed {seed}: {name} is in no list of the report");
        }
    }
}

#[test]
fn latency_bound_makespan_matches_the_greedy_list_schedule_on_average() {
    // Same DAG, same latencies: the walk is within 2% of the offline greedy schedule in total
    // (individual DAGs can differ either way through tie-breaks among simultaneous finishes).
    let (mut ours, mut ideal) = (0u64, 0u64);
    for seed in 4000..4100 {
        let mut case = gen_case(seed, 200, false);
        case.graph.fails.iter_mut().for_each(|f| *f = false);
        let run = run_case(&case, None, 0);
        let g = &case.graph;
        ours += run.report.timings.iter().map(|t| t.end as u64).max().unwrap_or(0);
        ideal += ideal_makespan(g.names.len(), &g.edges, &g.latency, case.parallelism);
    }
    assert!(ours as f64 <= ideal as f64 * 1.02, "walk {ours} vs greedy {ideal}");
}
