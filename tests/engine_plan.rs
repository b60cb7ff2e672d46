//! The plan walk against every scenario step recorded with Terraform 1.11.4
//! (tests/fixtures/engine): the plan's JSON (`terraform show -json`, format 1.2) section by
//! section, the plan's text (`terraform show`), and the errors of refused plans.
//!
//! Steps not reached yet are listed in `GAPS` with the reason; the test fails when a listed
//! step starts passing (remove it from the list) as when an unlisted one fails.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use support::engine_fixtures::{diff, mock, steps, Step};
use support::session::plan_by;
use tfgraph::engine::render::plan_json::to_json;
use tfgraph::plans::render_human::{render_plan, PlanMode, RenderOptions};

/// What differs between any two runs of Terraform, left out of the comparison everywhere.
const NOT_COMPARED: &[&str] = &["timestamp", "terraform_version"];

/// Steps whose plan does not match yet, and why.
const GAPS: &[(&str, &str)] = &[];

fn normalise(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        for k in NOT_COMPARED {
            m.remove(*k);
        }
        if let Some(Value::Object(ps)) = m.get_mut("prior_state") {
            ps.remove("terraform_version");
        }
        // Terraform's order of relevant_attributes changes from run to run (its sort compares
        // the unsorted slice): compare them as a set.
        if let Some(Value::Array(ra)) = m.get_mut("relevant_attributes") {
            ra.sort_by_key(|a| a.to_string());
        }
    }
    v
}

/// What is wrong with our plan of `step` (empty: it matches).
fn check(step: &Step) -> Vec<String> {
    let loaded = tfgraph::load(&step.files, &Default::default());
    let provider = mock(step);
    let options = step.plan_options();
    // A configuration that does not load is not planned (Terraform stops at init).
    let p = if loaded.diagnostics.has_errors() {
        tfgraph::engine::Plan { diagnostics: loaded.diagnostics.clone(), ..Default::default() }
    } else {
        plan_by(&step.files, &loaded.config, step.input_state.as_ref(), &provider, &options).plan
    };
    let mut problems = Vec::new();
    let errors: Vec<String> = p.diagnostics.errors().map(|d| d.summary.clone()).collect();
    let got = to_json(&p, &provider);
    match step.json("plan.json") {
        Some(want) => {
            diff("plan", &normalise(want.clone()), &normalise(got.clone()), &mut problems);
            let schemas: Value = serde_json::from_str(
                &std::fs::read_to_string(support::engine_fixtures::fixtures().join("mock-provider-schemas.json"))
                    .unwrap(),
            )
            .unwrap();
            let mut opts = RenderOptions::from_plan(&got);
            if step.destroy() {
                opts.mode = PlanMode::Destroy;
            }
            let text = render_plan(&got, Some(&schemas), &opts);
            if Some(&text) != step.text("plan.txt").as_ref() && problems.is_empty() {
                problems.push(format!("plan.txt differs:\n{text}"));
            }
        }
        None => {
            // A refused plan: Terraform's errors (errors.txt) name ours.
            let recorded = step.text("errors.txt").unwrap_or_default();
            if errors.is_empty() {
                problems.push("the plan succeeded; Terraform refused it".into());
            }
            for e in &errors {
                if !recorded.contains(&format!("Error: {}", e.split(": ").next().unwrap_or(e))) {
                    problems.push(format!("error {e:?} is not among Terraform's"));
                }
            }
        }
    }
    // The plan's provider operations (refresh and data reads): count, concurrency, waves.
    if let Some(ops) = step.ops() {
        let parallelism = step.env.get("PARALLELISM").and_then(|s| s.parse().ok()).unwrap_or(10);
        let (waves, max) = p.op_waves(&provider, parallelism);
        let got = serde_json::json!({"ops": waves.iter().map(Vec::len).sum::<usize>(), "max_concurrency": max, "waves": waves});
        diff("ops.plan", &ops["plan"], &got, &mut problems);
    }
    let want_errored = step.json("plan.json").and_then(|j| j.get("errored").and_then(Value::as_bool)).unwrap_or(true);
    // A complete plan refused for its apply graph's cycle: saved not errored, yet an error.
    let refused = step.text("errors.txt").is_some_and(|t| t.contains("=== plan "));
    if !want_errored && !errors.is_empty() && !refused {
        problems.push(format!("unexpected errors: {errors:?}"));
    }
    problems
}

#[test]
fn every_recorded_plan() {
    let steps = steps();
    assert!(steps.len() >= 40, "expected the recorded steps, found {}", steps.len());
    let mut failures = Vec::new();
    let mut passed = 0;
    for step in &steps {
        let problems = check(step);
        let gap = GAPS.iter().find(|(n, _)| *n == step.name);
        match (problems.is_empty(), gap) {
            (true, None) => passed += 1,
            (true, Some(_)) => failures.push(format!("{}: passes now; remove it from GAPS", step.name)),
            (false, None) => failures.push(format!("{}:\n  {}", step.name, problems.join("\n  "))),
            (false, Some(_)) => {}
        }
    }
    eprintln!("{passed} of {} steps plan as Terraform did ({} known gaps)", steps.len(), GAPS.len());
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

/// `-replace` of a tainted object: Terraform plans a tainted object as a create first, so its
/// reason stays `replace_because_tainted` (terraform 1.11.4, `terraform taint` then
/// `plan -replace=mock_resource.a`, checked by hand).
#[test]
fn replacing_a_tainted_object_keeps_the_tainted_reason() {
    let step = steps().into_iter().find(|s| s.name == "replace-by-request/step2").expect("the recorded step");
    let mut state = step.input_state.clone().expect("a prior state");
    for r in state["resources"].as_array_mut().unwrap() {
        if r["name"] == "c" {
            r["instances"][1]["status"] = "tainted".into();
        }
    }
    let loaded = tfgraph::load(&step.files, &Default::default());
    let options = tfgraph::engine::PlanOptions {
        replace: vec!["mock_resource.c[1]".into(), "mock_resource.a".into()],
        ..Default::default()
    };
    let p = plan_by(&step.files, &loaded.config, Some(&state), &mock(&step), &options).plan;
    let reason = |a: &str| p.changes.iter().find(|c| c.address() == a).and_then(|c| c.reason);
    assert_eq!(reason("mock_resource.c[1]"), Some("replace_because_tainted"));
    assert_eq!(reason("mock_resource.a"), Some("replace_by_request"));
}
