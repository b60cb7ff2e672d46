//! The apply walk against every scenario step recorded with Terraform 1.11.4
//! (tests/fixtures/engine): our plan of the step, applied with the mock provider on a virtual
//! clock (the step's parallelism and delays), gives the recorded state (`state.tfstate`) and
//! the recorded provider operations (`ops.json`: count, maximum concurrency, waves).
//!
//! Steps not reached yet are listed in `GAPS` with the reason; the test fails when a listed
//! step starts passing as when an unlisted one fails.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::{json, Value};
use support::engine_fixtures::{diff, mock, steps, Step};
use support::session::{apply_by, plan_by};
use tfgraph::engine::PlanOptions;

/// Steps whose apply.txt does not match yet (state and operations still checked), and why.
const TEXT_GAPS: &[(&str, &str)] = &[];

/// Steps whose apply does not match yet, and why.
const GAPS: &[(&str, &str)] = &[];

fn normalise_state(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.remove("terraform_version");
        m.insert("lineage".into(), json!("00000000-0000-0000-0000-000000000000"));
        // Terraform writes check_results in Go map order (addrs.Map), which varies by run, and
        // so are each one's objects.
        if let Some(Value::Array(list)) = m.get_mut("check_results") {
            list.sort_by_key(|c| c["config_addr"].as_str().unwrap_or("").to_string());
            for c in list.iter_mut() {
                if let Some(Value::Array(objects)) = c.get_mut("objects") {
                    objects.sort_by_key(|o| o["object_addr"].as_str().unwrap_or("").to_string());
                }
            }
        }
    }
    v
}

/// Waves compared as Terraform's are stable: where parallelism limits a fan-out, which
/// instances start first is not, so only the wave sizes and the operations are compared.
fn normalise_ops(v: &Value, limited: bool) -> Value {
    let waves = v["waves"].as_array().cloned().unwrap_or_default();
    if !limited {
        return json!({"ops": v["ops"], "max_concurrency": v["max_concurrency"], "waves": waves});
    }
    let sizes: Vec<usize> = waves.iter().map(|w| w.as_array().map_or(0, Vec::len)).collect();
    let mut all: Vec<String> = waves
        .iter()
        .flat_map(|w| w.as_array().cloned().unwrap_or_default())
        .filter_map(|s| s.as_str().map(String::from))
        .collect();
    all.sort();
    json!({"ops": v["ops"], "max_concurrency": v["max_concurrency"], "sizes": sizes, "all": all})
}

fn check(step: &Step) -> Option<Vec<String>> {
    let want_state = step.json("state.tfstate")?;
    let loaded = tfgraph::load(&step.files, &Default::default());
    let provider = mock(step);
    let planned = plan_by(&step.files, &loaded.config, step.input_state.as_ref(), &provider, &step.plan_options());
    let p = &planned.plan;
    let mut problems = Vec::new();
    if p.diagnostics.has_errors() {
        // A refused plan applies nothing: the state stays as it was.
        if step.input_state.as_ref().map(|s| normalise_state(s.clone())) != Some(normalise_state(want_state.clone())) {
            problems.push("the plan was refused but Terraform applied".into());
        }
        return Some(problems);
    }
    let parallelism = step.env.get("PARALLELISM").and_then(|s| s.parse().ok()).unwrap_or(10);
    let r = apply_by(&planned, &provider, parallelism);
    let (want_state, got_state) = (normalise_state(want_state), normalise_state(r.state.clone()));
    diff("state", &want_state, &got_state, &mut problems);
    if let Some(ops) = step.ops() {
        let got = json!({"ops": r.waves.iter().map(Vec::len).sum::<usize>(), "max_concurrency": r.max_concurrency, "waves": r.waves});
        let limited = parallelism < 10;
        diff("ops.apply", &normalise_ops(&ops["apply"], limited), &normalise_ops(&got, limited), &mut problems);
    }
    let text_gap = TEXT_GAPS.iter().any(|(n, _)| *n == step.name);
    let mut text_problems = Vec::new();
    if let Some(want) = step.text("apply.txt") {
        let got = tfgraph::engine::render::progress::render(&r);
        let (wp, wt) = split_apply_text(&want);
        let (gp, gt) = split_apply_text(&got);
        if wp != gp {
            text_problems.push(format!(
                "apply.txt progress lines differ:\n--- want\n{}\n--- got\n{}",
                wp.join("\n"),
                gp.join("\n")
            ));
        }
        if wt != gt {
            text_problems.push(format!("apply.txt summary differs:\n--- want\n{wt}--- got\n{gt}"));
        }
    }
    match (text_gap, text_problems.is_empty()) {
        (true, true) => problems.push("apply.txt matches now; remove the step from TEXT_GAPS".into()),
        (true, false) => {}
        (false, _) => problems.extend(text_problems),
    }
    Some(problems)
}

/// apply.txt as (progress lines sorted, with deposed keys renumbered by first appearance;
/// the rest). Concurrent operations print in no stable order, so lines compare as a set.
fn split_apply_text(text: &str) -> (Vec<String>, String) {
    let (progress, rest) = match text.find("\n\n") {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text.trim_end_matches('\n'), ""),
    };
    let mut keys: Vec<String> = Vec::new();
    let mut lines: Vec<String> = progress
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| match l.find("(deposed object ") {
            Some(i) => {
                let k = l[i + 16..i + 24].to_string();
                if !keys.contains(&k) {
                    keys.push(k.clone());
                }
                let n = keys.iter().position(|x| x == &k).unwrap_or(0) + 1;
                format!("{}{:08}{}", &l[..i + 16], n, &l[i + 24..])
            }
            None => l.to_string(),
        })
        .collect();
    lines.sort();
    (lines, rest.to_string())
}

#[test]
fn every_recorded_apply() {
    let mut failures = Vec::new();
    let (mut passed, mut total) = (0, 0);
    for step in &steps() {
        let Some(problems) = check(step) else { continue };
        total += 1;
        let gap = GAPS.iter().find(|(n, _)| *n == step.name);
        match (problems.is_empty(), gap) {
            (true, None) => passed += 1,
            (true, Some(_)) => failures.push(format!("{}: passes now; remove it from GAPS", step.name)),
            (false, None) => failures.push(format!("{}:\n  {}", step.name, problems.join("\n  "))),
            (false, Some(_)) => {}
        }
    }
    eprintln!("{passed} of {total} steps apply as Terraform did ({} known gaps)", GAPS.len());
    assert!(total >= 35, "expected the recorded steps, found {total}");
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

/// Every recorded configuration planned and applied against every recorded state (most
/// pairs unrelated: orphans, type changes, moves without objects, failures injected by
/// another step's knobs): never a panic, and an apply result always a state v4 object.
#[test]
fn every_configuration_against_every_state_without_panicking() {
    let steps = steps();
    let states: Vec<Option<Value>> =
        std::iter::once(None).chain(steps.iter().filter_map(|s| s.json("state.tfstate")).map(Some)).collect();
    let mut applied = 0;
    for step in &steps {
        let loaded = tfgraph::load(&step.files, &Default::default());
        let provider = mock(step);
        for (i, state) in states.iter().enumerate() {
            // Destroy plans against every other state keep the test quick.
            for destroy in [false, true] {
                if destroy && i % 2 == 1 {
                    continue;
                }
                let planned = plan_by(
                    &step.files,
                    &loaded.config,
                    state.as_ref(),
                    &provider,
                    &PlanOptions { destroy, ..Default::default() },
                );
                let p = &planned.plan;
                let _ = tfgraph::engine::render::plan_json::to_json(p, &provider);
                if p.diagnostics.has_errors() {
                    continue;
                }
                let r = apply_by(&planned, &provider, 10);
                assert_eq!(r.state["version"], 4, "{}", step.name);
                let _ = tfgraph::engine::render::progress::render(&r);
                applied += 1;
            }
        }
    }
    assert!(applied > 800, "only {applied} pairs applied");
}

/// The API shape (the engine's session, as `plan()` / `apply()` run it): a plan applied from a
/// request gives the recorded state; a saved plan applied to a state that changed since is
/// refused as Terraform's `backend/local` refuses it: another lineage, then another serial.
#[test]
fn api_request_plans_applies_and_refuses_a_stale_plan() {
    let step = steps().into_iter().find(|s| s.name == "create-change-destroy/step3").unwrap();
    let loaded = tfgraph::load(&step.files, &Default::default());
    let request = json!({"state": step.input_state, "mock": {"delayMs": 300}, "apply": true});
    let out = support::session::run(&step.files, &loaded.config, loaded.diagnostics.clone(), &request);
    assert_eq!(out["changes"][0]["actions"], json!(["update"]));
    assert_eq!(out["planText"].as_str(), step.text("plan.txt").as_deref());
    let want = normalise_state(step.json("state.tfstate").unwrap());
    assert_eq!(normalise_state(out["apply"]["state"].clone()), want);
    assert_eq!(out["apply"]["report"]["maxConcurrency"], 1);
    // The same plan applied to the state it was made from, given: applied.
    let planned = support::session::plan(&step.files, &loaded.config, loaded.diagnostics.clone(), &request);
    let now = step.input_state.clone().unwrap();
    let same = support::session::apply(&planned, &json!({"state": now}));
    assert_eq!(normalise_state(same["state"].clone()), want);
    // ... to that state written once more since (its serial advanced): stale.
    let mut written = now.clone();
    written["serial"] = json!(written["serial"].as_u64().unwrap() + 1);
    let refused = support::session::apply(&planned, &json!({"state": written}));
    assert_eq!(refused["diagnostics"][0]["summary"], "Saved plan is stale");
    assert_eq!(refused["state"], written, "a refused apply leaves the state as it is");
    // ... to another state's lineage: not this state's plan.
    let mut other = now;
    other["lineage"] = json!("another-lineage");
    let refused = support::session::apply(&planned, &json!({"state": other}));
    assert_eq!(refused["diagnostics"][0]["summary"], "Saved plan does not match the given state");
}

/// The native driver reports what a failure skips, as the package's driver does: one skip
/// event per operation behind it, when the failure ends, and no start for it.
#[test]
fn native_apply_reports_skipped_operations() {
    use tfgraph::engine::apply::OpEventKind;
    let step = steps().into_iter().find(|s| s.name == "failure-and-recovery/step1").unwrap();
    let loaded = tfgraph::load(&step.files, &Default::default());
    let provider = mock(&step);
    let planned = plan_by(&step.files, &loaded.config, None, &provider, &step.plan_options());
    let r = apply_by(&planned, &provider, 10);
    let skipped: Vec<&str> =
        r.events.iter().filter(|e| e.kind == OpEventKind::Skip).map(|e| e.address.as_str()).collect();
    assert_eq!(skipped, ["mock_resource.after_broken"]);
    let failed = r.events.iter().find(|e| e.kind == OpEventKind::Fail).unwrap();
    assert_eq!(failed.address, "mock_resource.broken");
    let skip = r.events.iter().find(|e| e.kind == OpEventKind::Skip).unwrap();
    assert!(
        skip.at_ms >= failed.at_ms,
        "skipped at {} ms, before the failure ended at {} ms",
        skip.at_ms,
        failed.at_ms
    );
    assert!(!r.events.iter().any(|e| e.kind == OpEventKind::Start && e.address == "mock_resource.after_broken"));
}
