//! Planned changes, the input of the apply graph: every way of writing them converts here to
//! [`Changes`], in one place.
//!
//! Accepted shapes:
//! * **A map from instance address to Terraform's action list** (the JSON spelling of
//!   `plans.Action`, as in `terraform show -json`'s `change.actions`):
//!   ```json
//!   { "aws_instance.web[0]": ["delete", "create"],
//!     "module.a.aws_s3_bucket.b": ["create", "delete"],
//!     "aws_instance.old (deposed 1a2b3c4d)": ["delete"],
//!     "aws_instance.kept": ["forget"] }
//!   ```
//!   The lists are `terraform show -json`'s (`jsonplan.actionsToJSON` / `UnmarshalActions` in
//!   `internal/command/jsonplan/plan.go`), `["forget"]` and `["create", "forget"]` included.
//!   A deposed object is named like Terraform's plan node for it, `ADDRESS (deposed KEY)`
//!   (`NodePlanDeposedResourceInstanceObject`); `(deposed object KEY)`, the wording of
//!   Terraform's plan output, is accepted too.
//! * **A plan as `terraform show -json` prints it**: an object with `resource_changes[]`, each
//!   with `address`, optional `deposed` and `change.actions`.
//!
//! Deposed keys that apply will *allocate* (a `["create", "delete"]` replace deposes the current
//! object under a fresh key, Terraform `states.NewDeposedKey`) are random in Terraform; here
//! [`preallocated_deposed_key`] derives them from the address, so graphs are reproducible.

use super::diagnostics as diag;
use super::{Action, Changes, ResourceChange};
use crate::addrs::InstanceAddr;
use crate::diag::Diagnostics;
use serde_json::Value;
use std::collections::HashSet;

/// Parses an action list (`["delete", "create"]`).
pub fn parse_actions(v: &Value) -> Result<Action, String> {
    let words: Option<Vec<&str>> =
        v.as_array().map(|a| a.iter().map(|w| w.as_str()).collect::<Option<Vec<_>>>()).unwrap_or(None);
    let Some(words) = words else {
        return Err(format!("the actions must be a list of strings such as [\"create\"], not {v}"));
    };
    Action::from_words(&words).ok_or_else(|| {
        format!(
            "{v} is not an action list Terraform plans: one of [\"no-op\"], [\"create\"], [\"read\"], [\"update\"], [\"delete\", \"create\"], [\"create\", \"delete\"], [\"delete\"], [\"forget\"], [\"create\", \"forget\"]"
        )
    })
}

/// Splits `ADDRESS (deposed KEY)` into the address and key.
fn split_deposed(s: &str) -> Result<(&str, Option<String>), String> {
    let Some(open) = s.find(" (") else { return Ok((s, None)) };
    let inner = s[open + 2..].strip_suffix(')').ok_or("unbalanced parenthesis")?;
    let key = inner
        .strip_prefix("deposed object ")
        .or_else(|| inner.strip_prefix("deposed "))
        .ok_or_else(|| format!("\"({inner})\" is not a deposed object key; write \"ADDRESS (deposed KEY)\""))?;
    check_deposed_key(key)?;
    Ok((&s[..open], Some(key.to_string())))
}

fn check_deposed_key(key: &str) -> Result<(), String> {
    if key.len() == 8 && key.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(format!("deposed key {key:?} is not 8 hexadecimal digits"))
    }
}

fn change(address: &str, deposed: Option<String>, action: Action) -> Result<ResourceChange, String> {
    let a = InstanceAddr::parse(address)?;
    Ok(ResourceChange {
        module: a.module_instance(),
        resource: a.resource.to_string(),
        key: a.key_text(),
        deposed,
        action,
    })
}

/// Converts changes JSON (either accepted shape) to [`Changes`]. Entries that cannot be read
/// are reported (`Invalid planned change`) and left out.
pub fn changes_from_value(v: &Value) -> (Changes, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut out = Changes::default();
    let Some(obj) = v.as_object() else {
        diags.push(diag::not_an_object());
        return (out, diags);
    };
    let mut bad = |what: &str, e: String| diags.push(diag::unreadable_change(what, &e));
    if let Some(rcs) = obj.get("resource_changes") {
        for rc in rcs.as_array().map(Vec::as_slice).unwrap_or(&[]) {
            let address = rc.get("address").and_then(Value::as_str).unwrap_or_default();
            let deposed = rc.get("deposed").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
            let parsed = parse_actions(rc.pointer("/change/actions").unwrap_or(&Value::Null))
                .and_then(|a| deposed.as_deref().map(check_deposed_key).unwrap_or(Ok(())).map(|_| a))
                .and_then(|a| change(address, deposed.clone(), a));
            match parsed {
                Ok(c) => out.resources.push(c),
                Err(e) => bad(address, e),
            }
        }
    } else {
        for (key, actions) in obj {
            let parsed =
                split_deposed(key).and_then(|(addr, dk)| parse_actions(actions).and_then(|a| change(addr, dk, a)));
            match parsed {
                Ok(c) => out.resources.push(c),
                Err(e) => bad(key, e),
            }
        }
    }
    (out, diags)
}

/// Parses changes JSON text. See [`changes_from_value`].
pub fn parse_changes(text: &str) -> (Changes, Diagnostics) {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => changes_from_value(&v),
        Err(e) => {
            let mut d = Diagnostics::new();
            d.push(diag::not_json(e));
            (Changes::default(), d)
        }
    }
}

/// The instance address of a change: `module.a[0].aws_instance.web[1]`.
pub fn change_address(c: &ResourceChange) -> String {
    let mut s = String::new();
    if !c.module.is_empty() {
        s.push_str(&c.module);
        s.push('.');
    }
    s.push_str(&c.resource);
    if let Some(k) = &c.key {
        s.push_str(k);
    }
    s
}

/// The deposed key a `CreateThenDelete` of `address` deposes its current object under.
/// Terraform draws a random one (`states.NewDeposedKey`, or `FindUnusedDeposedKey` against
/// the state); here it is the 32-bit FNV-1a hash of the address in 8 hex digits, moved on by
/// one until it is not among `used` (the instance's deposed keys already in the state).
pub fn preallocated_deposed_key(address: &str, used: &HashSet<String>) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in address.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    loop {
        let k = format!("{h:08x}");
        if !used.contains(&k) {
            return k;
        }
        h = h.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the same changes given as an address → actions map and as a plan's
    /// `resource_changes`, checks both agree, and returns them sorted by address.
    fn read_both(map: &str, plan: &str) -> Vec<ResourceChange> {
        let (a, d1) = parse_changes(map);
        let (b, d2) = parse_changes(plan);
        assert!(d1.is_empty() && d2.is_empty(), "{d1:?} {d2:?}");
        let mut a = a.resources;
        let mut b = b.resources;
        crate::util::sort::sort_by_key(&mut a, change_address);
        crate::util::sort::sort_by_key(&mut b, change_address);
        assert_eq!(a, b);
        a
    }

    #[test]
    fn both_shapes_read_the_same() {
        let a = read_both(
            r#"{"aws_instance.web[0]": ["delete","create"], "module.a[1].x.y": ["create","delete"], "x.z (deposed 0000abcd)": ["delete"]}"#,
            r#"{"format_version":"1.2","resource_changes":[
              {"address":"aws_instance.web[0]","change":{"actions":["delete","create"]}},
              {"address":"module.a[1].x.y","change":{"actions":["create","delete"]}},
              {"address":"x.z","deposed":"0000abcd","change":{"actions":["delete"]}}]}"#,
        );
        assert_eq!(a[1].module, "module.a[1]");
        assert_eq!(a[2].deposed.as_deref(), Some("0000abcd"));
    }

    #[test]
    fn forget_actions_read_in_both_shapes() {
        // jsonplan's actionsToJSON: Forget is ["forget"], CreateThenForget ["create", "forget"].
        let a = read_both(
            r#"{"a.b": ["forget"], "a.c": ["create", "forget"], "a.d (deposed 0000abcd)": ["forget"]}"#,
            r#"{"resource_changes":[{"address":"a.b","change":{"actions":["forget"]}},
              {"address":"a.c","change":{"actions":["create","forget"]}},
              {"address":"a.d","deposed":"0000abcd","change":{"actions":["forget"]}}]}"#,
        );
        let actions: Vec<Action> = a.iter().map(|c| c.action).collect();
        assert_eq!(actions, [Action::Forget, Action::CreateThenForget, Action::Forget]);
    }

    #[test]
    fn bad_entries_are_reported() {
        for (text, want) in [
            (r#"{"a.b": ["destroy"]}"#, "is not an action list"),
            (r#"{"a.b": "create"}"#, "must be a list of strings"),
            (r#"{"a": ["create"]}"#, "cannot be read"),
            (r#"{"a.b (deposed xyz)": ["delete"]}"#, "not 8 hexadecimal"),
            (r#"{"a.b (tainted)": ["delete"]}"#, "is not a deposed object key"),
            ("[1]", "must be an object"),
            ("{", "could not be parsed"),
        ] {
            let (_, d) = parse_changes(text);
            assert!(
                d.iter().any(|d| d.summary == "Invalid planned change" && d.detail.contains(want)),
                "{text}: {d:?}"
            );
        }
    }

    #[test]
    fn deposed_keys_are_stable_and_avoid_used_ones() {
        let k = preallocated_deposed_key("aws_instance.a", &HashSet::new());
        assert_eq!(k.len(), 8);
        assert_eq!(k, preallocated_deposed_key("aws_instance.a", &HashSet::new()));
        let k2 = preallocated_deposed_key("aws_instance.a", &HashSet::from([k.clone()]));
        assert_ne!(k, k2);
    }
}
