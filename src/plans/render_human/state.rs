//! A state's human rendering, as `terraform show` prints a state and `terraform test -verbose`
//! prints an apply run's (`jsonformat` `RenderHumanState`): each resource instance's values with
//! no change symbols, then the root module's outputs, from the renderer's state JSON
//! (`root_module`, `outputs`, `provider_schemas`, as `jsonstate.MarshalForRenderer` makes it).

use super::change::{Change, Matcher};
use super::differ::{self, Ty};
use super::renderers::Opts;
use super::{go_q, inferred_block, Schemas};
use serde_json::{json, Value};

/// The state's text; `state` holds `root_module`, `outputs` and `provider_schemas`.
pub fn render_state(state: &Value) -> String {
    let root = state.get("root_module").unwrap_or(&Value::Null);
    let outputs = state.get("outputs").and_then(Value::as_object).filter(|o| !o.is_empty());
    let has_resources = |m: &Value| ["resources", "child_modules"].iter().any(|k| !super::arr(m, k).is_empty());
    if outputs.is_none() && !has_resources(root) {
        return "The state file is empty. No resources are represented.\n".into();
    }
    let opts = Opts { show_unchanged_children: true, hide_diff_action_symbols: true, ..Opts::default() };
    let schemas = Schemas { doc: Some(state) };
    let mut out = String::new();
    module(&mut out, root, &schemas, opts, true);
    if let Some(outputs) = outputs {
        out.push_str("\n\nOutputs:\n\n");
        // A JSON object's keys are sorted already, as Terraform sorts them.
        for (name, o) in outputs {
            let value = o.get("value");
            let sensitive = json!(o.get("sensitive").and_then(Value::as_bool).unwrap_or(false));
            let change =
                json!({"before": value, "after": value, "before_sensitive": sensitive, "after_sensitive": sensitive});
            let c = Change::from_json(&change, Matcher::Always);
            let d = match o.get("type") {
                Some(t) => differ::diff_type(c, &Ty::parse(Some(t))),
                None => differ::diff_output(c),
            };
            out.push_str(&format!("{name} = {}\n", d.render(0, opts)));
        }
    }
    out
}

/// `renderHumanStateModule`: data sources first, then by address and deposed key; an empty line
/// between instances, and between modules.
fn module(out: &mut String, m: &Value, schemas: &Schemas<'_>, opts: Opts, mut first: bool) {
    let s = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut resources: Vec<&Value> = super::arr(m, "resources").iter().collect();
    crate::util::sort::sort_by(&mut resources, |a, b| {
        (s(a, "mode") != "data", s(a, "address"), s(a, "deposed_key")).cmp(&(
            s(b, "mode") != "data",
            s(b, "address"),
            s(b, "deposed_key"),
        ))
    });
    if !resources.is_empty() && !first {
        out.push('\n');
    }
    for r in resources {
        if !first {
            out.push('\n');
        }
        first = false;
        let address = s(r, "address");
        let deposed = s(r, "deposed_key");
        if !deposed.is_empty() {
            out.push_str(&format!("# {address}: (deposed object {deposed})"));
        } else if r.get("tainted").and_then(Value::as_bool) == Some(true) {
            out.push_str(&format!("# {address}: (tainted)"));
        } else {
            out.push_str(&format!("# {address}:"));
        }
        out.push('\n');
        // `structured.FromJsonResource`: a no-op change from the values to themselves.
        let values = r.get("values");
        let sensitive = r.get("sensitive_values");
        let change =
            json!({"before": values, "after": values, "before_sensitive": sensitive, "after_sensitive": sensitive});
        let keyed = json!({"provider_name": r.get("provider_name"), "type": r.get("type"), "mode": r.get("mode"), "change": change});
        let inferred = inferred_block(&keyed);
        let block = schemas.block(&keyed).unwrap_or(&inferred);
        let d = differ::diff_block(Change::from_json(&change, Matcher::Always), block);
        let kind = if s(r, "mode") == "data" { "data" } else { "resource" };
        out.push_str(&format!("{kind} {} {} {}", go_q(&s(r, "type")), go_q(&s(r, "name")), d.render(0, opts)));
        out.push('\n');
    }
    for child in super::arr(m, "child_modules") {
        module(out, child, schemas, opts, first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_state_says_so() {
        let empty = json!({"state_format_version": "1.0", "root_module": {}, "provider_schemas": {}});
        assert_eq!(render_state(&empty), "The state file is empty. No resources are represented.\n");
    }

    #[test]
    fn tainted_and_deposed_objects_are_marked_and_data_sources_come_first() {
        let r = |address: &str, mode: &str, extra: Value| {
            let mut v = json!({"address": address, "mode": mode, "type": "t", "name": address.rsplit('.').next(), "provider_name": "p", "values": {"id": "x"}, "sensitive_values": {}});
            if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
                m.extend(e);
            }
            v
        };
        let state = json!({"root_module": {"resources": [
            r("t.b", "managed", json!({"tainted": true})),
            r("t.a", "managed", json!({"deposed_key": "00000001"})),
            r("data.t.d", "data", json!({})),
        ]}});
        let text = render_state(&state);
        let headers: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
        assert_eq!(headers, ["# data.t.d:", "# t.a: (deposed object 00000001)", "# t.b: (tainted)"]);
        assert!(text.contains("data \"t\" \"d\" {\n    id = \"x\"\n}\n\n# t.a"), "{text}");
    }
}
