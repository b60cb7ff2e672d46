//! The engine scenarios recorded with Terraform (tests/fixtures/engine): reading a step.

#![allow(dead_code)]

use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engine")
}

pub struct Step {
    /// `scenario/stepN`.
    pub name: String,
    pub dir: PathBuf,
    pub files: BTreeMap<String, String>,
    pub env: BTreeMap<String, String>,
    pub input_state: Option<Value>,
}

impl Step {
    pub fn destroy(&self) -> bool {
        self.env.get("DESTROY").map(String::as_str) == Some("1")
    }
    /// `REFRESH=0`: the step was planned with `-refresh=false`.
    pub fn no_refresh(&self) -> bool {
        self.env.get("REFRESH").map(String::as_str) == Some("0")
    }
    /// The plan options the step was recorded with: `DESTROY=1`, `REFRESH=0`, and `PLAN_ARGS`'
    /// `-target=` / `-replace=`.
    pub fn plan_options(&self) -> tfgraph::engine::PlanOptions {
        let mut o = tfgraph::engine::PlanOptions {
            destroy: self.destroy(),
            no_refresh: self.no_refresh(),
            ..Default::default()
        };
        for arg in self.env.get("PLAN_ARGS").map(String::as_str).unwrap_or("").split_whitespace() {
            if let Some(t) = arg.strip_prefix("-target=") {
                o.targets.push(t.to_string());
            } else if let Some(r) = arg.strip_prefix("-replace=") {
                o.replace.push(r.to_string());
            } else {
                panic!("{}: PLAN_ARGS {arg:?} is not read by the tests", self.name);
            }
        }
        o
    }
    pub fn json(&self, file: &str) -> Option<Value> {
        fs::read_to_string(self.dir.join(file)).ok().map(|t| serde_json::from_str(&t).unwrap())
    }
    pub fn text(&self, file: &str) -> Option<String> {
        fs::read_to_string(self.dir.join(file)).ok()
    }
    /// `ops.json`, each wave entry without the ` (provider label L)` the recorder adds for a
    /// configuration with a `label` (the mocks here have no labels; `configure.json` and the JS
    /// replay check which configuration served what).
    pub fn ops(&self) -> Option<Value> {
        let mut ops = self.json("ops.json")?;
        for phase in ["plan", "apply"] {
            for wave in ops[phase]["waves"].as_array_mut().into_iter().flatten() {
                for op in wave.as_array_mut().into_iter().flatten() {
                    if let Some(s) = op.as_str() {
                        let strip = |s: &str| -> Option<String> {
                            let at = s.find(" (provider label ")?;
                            let end = at + s[at..].find(')')? + 1;
                            Some(format!("{}{}", &s[..at], &s[end..]))
                        };
                        if let Some(t) = strip(s) {
                            *op = Value::String(t);
                        }
                    }
                }
                // Sorted within a wave, as the recorder sorts them.
                if let Some(w) = wave.as_array_mut() {
                    w.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                }
            }
        }
        Some(ops)
    }
}

fn read_dir_files(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let rel = if prefix.is_empty() { name } else { format!("{prefix}/{name}") };
        if p.is_dir() {
            read_dir_files(&p, &rel, out);
        } else {
            out.insert(rel, fs::read_to_string(&p).unwrap());
        }
    }
}

fn read_env(path: &Path, out: &mut BTreeMap<String, String>) {
    for line in fs::read_to_string(path).unwrap_or_default().lines() {
        if let Some((k, v)) = line.split_once('=') {
            out.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
}

/// Every recorded step, scenario by scenario, in order.
pub fn steps() -> Vec<Step> {
    let mut out = Vec::new();
    let mut scenarios: Vec<_> =
        fs::read_dir(fixtures()).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    scenarios.sort();
    for sc in scenarios {
        let mut steps: Vec<_> = fs::read_dir(&sc).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        steps.sort();
        for st in steps {
            let mut env = BTreeMap::new();
            read_env(&sc.join("scenario.env"), &mut env);
            read_env(&st.join("step.env"), &mut env);
            let mut files = BTreeMap::new();
            read_dir_files(&st.join("config"), "", &mut files);
            let input_state =
                fs::read_to_string(st.join("input.tfstate")).ok().map(|t| serde_json::from_str(&t).unwrap());
            out.push(Step {
                name: format!(
                    "{}/{}",
                    sc.file_name().unwrap().to_string_lossy(),
                    st.file_name().unwrap().to_string_lossy()
                ),
                dir: st,
                files,
                env,
                input_state,
            });
        }
    }
    out
}

/// The mock provider with a step's knobs.
pub fn mock(step: &Step) -> tfgraph::providers::mock::MockProvider {
    // The scenarios ran with a 300 ms provider delay unless DELAY_MS says otherwise.
    let mut env = step.env.clone();
    if !env.contains_key("DELAY_MS") && !env.contains_key("MOCK_DELAY_MS") {
        env.insert("MOCK_DELAY_MS".into(), "300".into());
    }
    let opts = tfgraph::providers::mock::MockOptions::from_env(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    tfgraph::providers::mock::MockProvider::new(opts)
}

/// A JSON difference, as a path and the two values (first few).
pub fn diff(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    if out.len() > 8 {
        return;
    }
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => diff(&format!("{path}.{k}"), v, w, out),
                    None => out.push(format!("{path}.{k}: missing (want {v})")),
                }
            }
            for k in b.keys() {
                if !a.contains_key(k) {
                    out.push(format!("{path}.{k}: unexpected {}", b[k]));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ if want != got => out.push(format!("{path}: want {want}, got {got}")),
        _ => {}
    }
}
