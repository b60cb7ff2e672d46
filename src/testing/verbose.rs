//! `terraform test -verbose`: after each run's status, the plan a plan run made or the state an
//! apply run left, as Terraform's test view prints them (`command/views/test.go`: the human
//! plan or state between empty lines, and a `test_plan` / `test_state` JSON line made by
//! `jsonplan.MarshalForRenderer` / `jsonstate.MarshalForRenderer`).

use serde_json::{json, Map, Value as Json};

/// What `-verbose` shows of one run.
#[derive(Clone, Debug)]
pub enum Verbose {
    /// A plan run's plan: `terraform plan`'s text and the renderer's plan JSON.
    Plan { text: String, json: Json },
    /// An apply run's state: `terraform show`'s text and the renderer's state JSON.
    State { text: String, json: Json },
}

impl Verbose {
    /// A plan run's plan from `terraform plan`'s `text`, the full plan JSON
    /// (`terraform show -json`) and the providers' `schemas`.
    pub fn plan(text: String, full: &Json, schemas: &Json) -> Verbose {
        let mut out = Map::new();
        out.insert("plan_format_version".into(), full.get("format_version").cloned().unwrap_or(json!("1.2")));
        // What the renderer reads of a plan, and nothing else (MarshalForRenderer).
        for key in ["output_changes", "resource_changes", "resource_drift", "relevant_attributes"] {
            if let Some(v) = full.get(key).filter(|v| !is_empty(v)) {
                out.insert(key.into(), v.clone());
            }
        }
        with_schemas(&mut out, schemas);
        Verbose::Plan { text, json: Json::Object(out) }
    }

    /// An apply run's state from its `jsonstate` values (`outputs`, `root_module`) and the
    /// providers' `schemas`; its text is rendered from the same JSON, as Terraform renders it.
    pub fn state(values: &Json, schemas: &Json) -> Verbose {
        let mut out = Map::new();
        out.insert("state_format_version".into(), json!("1.0"));
        out.insert("root_module".into(), values.get("root_module").cloned().unwrap_or(json!({})));
        if let Some(o) = values.get("outputs") {
            out.insert("outputs".into(), o.clone());
        }
        with_schemas(&mut out, schemas);
        let json = Json::Object(out);
        Verbose::State { text: crate::plans::render_human::render_state(&json), json }
    }

    /// The human text, between the empty lines Terraform prints around it (a plan's text
    /// starts with its own).
    pub fn text(&self) -> String {
        match self {
            Verbose::Plan { text, .. } => format!("{text}\n"),
            Verbose::State { text, .. } => format!("\n{text}\n"),
        }
    }

    /// The `-json` line's `@message`, key and object.
    pub fn json_line(&self) -> (&'static str, &'static str, &Json) {
        match self {
            Verbose::Plan { json, .. } => ("-verbose flag enabled, printing plan", "test_plan", json),
            Verbose::State { json, .. } => ("-verbose flag enabled, printing state", "test_state", json),
        }
    }
}

fn with_schemas(out: &mut Map<String, Json>, schemas: &Json) {
    out.insert("provider_format_version".into(), json!("1.0"));
    out.insert("provider_schemas".into(), schemas.get("provider_schemas").cloned().unwrap_or(json!({})));
}

fn is_empty(v: &Json) -> bool {
    match v {
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        Json::Null => true,
        _ => false,
    }
}
