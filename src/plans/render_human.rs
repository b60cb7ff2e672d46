//! A plan's human rendering: the text `terraform show -no-color PLANFILE` prints (the body of
//! `terraform plan`'s output), from the plan in `terraform show -json` form and the providers'
//! schemas in `terraform providers schema -json` form. A port of Terraform's
//! `internal/command/jsonformat` (plan.go, diff.go, differ/, computed/renderers/), without colour;
//! `state` renders a state the same way (state.go).
//!
//! The plan JSON alone does not say which attributes are nested blocks or what type an attribute
//! has; Terraform's renderer reads that from the schemas. Without a schema for a resource type,
//! every attribute is rendered as a value of unknown type (as Terraform renders outputs).

mod change;
mod differ;
mod renderers;
mod state;

pub use change::Action;
pub use state::render_state;

use change::{Change, Matcher};
use renderers::{action_symbol, attr_name, Diff, Opts};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The planning mode, which changes the "no changes" texts and the drift section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlanMode {
    #[default]
    Normal,
    Destroy,
    RefreshOnly,
}

/// How to render: Terraform's defaults are mode Normal, 78 columns (stdout not a terminal).
#[derive(Clone, Debug)]
pub struct RenderOptions {
    pub mode: PlanMode,
    /// The plan is incomplete because planning failed (`plans.Errored`).
    pub errored: bool,
    /// The plan is not applyable (`plans.NoChanges`); only matters with detected drift.
    pub no_changes: bool,
    /// Width for word wrapping (`terminal.Streams.Stdout.Columns()`).
    pub columns: usize,
    /// `TF_IN_AUTOMATION`: drops the `terraform apply -refresh-only` suggestion.
    pub running_in_automation: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            mode: PlanMode::Normal,
            errored: false,
            no_changes: false,
            columns: 78,
            running_in_automation: false,
        }
    }
}

impl RenderOptions {
    /// Options read from the plan JSON itself: `errored`, and (format 1.2) `applyable` / a
    /// destroy plan recognised by every change being a delete is not guessed: pass the mode.
    pub fn from_plan(plan: &Value) -> Self {
        RenderOptions {
            errored: plan.get("errored").and_then(Value::as_bool).unwrap_or(false),
            ..RenderOptions::default()
        }
    }
}

/// Renders `plan` (the `terraform show -json` document of a saved plan) as `terraform show`
/// prints it. `schemas` is a `terraform providers schema -json` document (or `None`).
pub fn render_plan(plan: &Value, schemas: Option<&Value>, opts: &RenderOptions) -> String {
    let mut out = String::new();
    let columns = opts.columns;
    let schemas = Schemas { doc: schemas };

    // Drift: resource_drift filtered by relevant_attributes (all of it in refresh-only mode).
    let relevant: Vec<(&str, &Value)> = arr(plan, "relevant_attributes")
        .iter()
        .filter_map(|r| Some((r.get("resource").and_then(Value::as_str).unwrap_or(""), r.get("attribute")?)))
        .collect();
    // Schemas made up from the values for resource types with none (owned here, borrowed by the diffs).
    let inferred = |key| -> Vec<Value> {
        arr(plan, key)
            .iter()
            .map(|rc| if schemas.block(rc).is_none() { inferred_block(rc) } else { Value::Null })
            .collect()
    };
    let drift_inferred = inferred("resource_drift");
    let change_inferred = inferred("resource_changes");
    let mut drift = Vec::new();
    for (i, rc) in arr(plan, "resource_drift").iter().enumerate() {
        let matcher = if opts.mode == PlanMode::RefreshOnly {
            Matcher::Always
        } else {
            let address = rc.get("address").and_then(Value::as_str).unwrap_or("");
            let paths: Vec<&[Value]> = relevant
                .iter()
                .filter(|(res, _)| res.is_empty() || *res == address)
                .filter_map(|(_, attr)| attr.as_array().map(Vec::as_slice))
                .collect();
            if paths.is_empty() {
                continue;
            }
            Matcher::Paths { paths, propagate: true }
        };
        drift.push(ResourceDiff::new(rc, matcher, schemas.block(rc).unwrap_or(&drift_inferred[i])));
    }
    let changes: Vec<ResourceDiff> = arr(plan, "resource_changes")
        .iter()
        .zip(&change_inferred)
        .map(|(rc, inferred)| ResourceDiff::new(rc, Matcher::Always, schemas.block(rc).unwrap_or(inferred)))
        .collect();
    let mut outputs: BTreeMap<String, Diff> = BTreeMap::new();
    if let Some(m) = plan.get("output_changes").and_then(Value::as_object) {
        for (k, oc) in m {
            outputs.insert(k.clone(), differ::diff_output(Change::from_json(oc, Matcher::Always)));
        }
    }
    let diffs_empty = changes.iter().all(|c| c.diff.action == Action::NoOp && !c.moved())
        && outputs.values().all(|o| o.action == Action::NoOp);

    let have_refresh_changes = render_drift(&mut out, &drift, diffs_empty, opts);

    // Changes per action (a few at most: a `Vec` rather than one more B-tree type).
    let mut counts: Vec<(Action, usize)> = Vec::new();
    let mut will_print_resource_changes = false;
    let mut importing = 0;
    let mut shown: Vec<&ResourceDiff> = Vec::new();
    for c in &changes {
        if c.action == Action::NoOp && !c.moved() && !c.importing() {
            continue;
        }
        if c.action == Action::Delete && c.mode() != "managed" {
            continue;
        }
        shown.push(c);
        if c.importing() {
            importing += 1;
        }
        if c.action != Action::NoOp {
            will_print_resource_changes = true;
            match counts.iter_mut().find(|(a, _)| *a == c.action) {
                Some((_, n)) => *n += 1,
                None => counts.push((c.action, 1)),
            }
        }
    }
    let count = |a: Action| counts.iter().find(|(b, _)| *b == a).map_or(0, |&(_, n)| n);

    let mut rendered_outputs = Vec::new();
    let width = outputs.keys().map(|k| attr_name(k).len()).max().unwrap_or(0);
    for (k, o) in &outputs {
        if o.action != Action::NoOp {
            rendered_outputs.push(format!(
                "{} {:<width$} = {}",
                action_symbol(o.action),
                attr_name(k),
                o.render(0, Opts::default()),
                width = width
            ));
        }
    }
    let rendered_outputs = rendered_outputs.join("\n");
    let rule = format!("\n{}", "─".repeat(columns.saturating_sub(1)));

    if shown.is_empty() && rendered_outputs.is_empty() {
        if opts.errored {
            if have_refresh_changes {
                out.push_str(&rule);
                out.push('\n');
            }
            out.push_str("\nPlanning failed. Terraform encountered an error while generating this plan.\n\n");
        } else {
            match opts.mode {
                PlanMode::RefreshOnly => {
                    if have_refresh_changes {
                        return out;
                    }
                    out.push_str("\nNo changes. Your infrastructure still matches the configuration.\n\n");
                    println(&mut out, &word_wrap("Terraform has checked that the real remote objects still match the result of your most recent changes, and found no differences.", columns));
                }
                PlanMode::Destroy => {
                    if have_refresh_changes {
                        out.push_str(&rule);
                        out.push('\n');
                    }
                    out.push_str("\nNo changes. No objects need to be destroyed.\n\n");
                    println(&mut out, &word_wrap("Either you have not created any objects yet or the existing objects were already deleted outside of Terraform.", columns));
                }
                PlanMode::Normal => {
                    if have_refresh_changes {
                        out.push_str(&rule);
                        out.push('\n');
                    }
                    out.push_str("\nNo changes. Your infrastructure matches the configuration.\n\n");
                    if have_refresh_changes {
                        if !opts.no_changes {
                            println(&mut out, &word_wrap("Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.", columns));
                        } else {
                            let suggestion =
                                if opts.running_in_automation { "." } else { ":\n  terraform apply -refresh-only" };
                            println(&mut out, &word_wrap(&format!("Your configuration already matches the changes detected above. If you'd like to update the Terraform state to match, create and apply a refresh-only plan{suggestion}"), columns));
                        }
                        return out;
                    }
                    println(&mut out, &word_wrap("Terraform has compared your real infrastructure against your configuration and found no differences, so no changes are needed.", columns));
                }
            }
        }
    }

    if have_refresh_changes {
        out.push_str(&rule);
        out.push('\n');
    }

    if will_print_resource_changes {
        println(&mut out, &word_wrap("\nTerraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", columns));
        for (a, text) in [
            (Action::Create, "  + create"),
            (Action::Update, "  ~ update in-place"),
            (Action::Delete, "  - destroy"),
            (Action::DeleteThenCreate, "-/+ destroy and then create replacement"),
            (Action::CreateThenDelete, "+/- create replacement and then destroy"),
            (Action::Read, " <= read (data resources)"),
        ] {
            if count(a) > 0 {
                println(&mut out, text);
            }
        }
    }

    if !shown.is_empty() {
        if opts.errored {
            out.push_str("\nTerraform planned the following actions, but then encountered a problem:\n");
        } else {
            out.push_str("\nTerraform will perform the following actions:\n");
        }
        for c in &shown {
            out.push('\n');
            out.push_str(&c.render_human(Cause::Change));
            out.push('\n');
        }
        out.push_str("\nPlan: ");
        if importing > 0 {
            let _ = write!(out, "{importing} to import, ");
        }
        let _ = writeln!(
            out,
            "{} to add, {} to change, {} to destroy.",
            count(Action::Create)
                + count(Action::DeleteThenCreate)
                + count(Action::CreateThenDelete)
                + count(Action::CreateThenForget),
            count(Action::Update),
            count(Action::Delete) + count(Action::DeleteThenCreate) + count(Action::CreateThenDelete)
        );
    }

    if !rendered_outputs.is_empty() {
        out.push_str("\nChanges to Outputs:\n");
        out.push_str(&rendered_outputs);
        out.push('\n');
        if counts.is_empty() {
            println(&mut out, &word_wrap("\nYou can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.", columns));
        }
    }
    out
}

fn println(out: &mut String, s: &str) {
    out.push_str(s);
    out.push('\n');
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// `format.WordWrap`: lines starting with a space stay whole; others wrap at `width - 1`
/// columns on spaces (go-wordwrap's greedy algorithm).
pub fn word_wrap(s: &str, width: usize) -> String {
    if width <= 1 {
        return s.to_string();
    }
    let limit = width - 1;
    let mut out = String::new();
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.starts_with(' ') {
            out.push_str(line);
            continue;
        }
        let mut current = 0usize;
        let mut first = true;
        for word in line.split(' ') {
            let wl = word.chars().count();
            if first {
                out.push_str(word);
                current = wl;
                first = false;
            } else if current + 1 + wl > limit {
                out.push('\n');
                out.push_str(word);
                current = wl;
            } else {
                out.push(' ');
                out.push_str(word);
                current += 1 + wl;
            }
        }
    }
    out
}

struct Schemas<'a> {
    doc: Option<&'a Value>,
}

impl<'a> Schemas<'a> {
    fn block(&self, rc: &Value) -> Option<&'a Value> {
        let provider = rc.get("provider_name").and_then(Value::as_str)?;
        let ty = rc.get("type").and_then(Value::as_str)?;
        let kind = if rc.get("mode").and_then(Value::as_str) == Some("data") {
            "data_source_schemas"
        } else {
            "resource_schemas"
        };
        self.doc?.get("provider_schemas")?.get(provider)?.get(kind)?.get(ty)?.get("block")
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Cause {
    Change,
    Drift,
}

struct ResourceDiff<'a> {
    rc: &'a Value,
    action: Action,
    diff: Diff<'a>,
}

/// A schema made up from the values: every top-level key an attribute of unknown type.
fn inferred_block(rc: &Value) -> Value {
    let mut attrs = Map::new();
    if let Some(ch) = rc.get("change") {
        for side in ["before", "after", "after_unknown"] {
            if let Some(m) = ch.get(side).and_then(Value::as_object) {
                for k in m.keys() {
                    attrs.insert(k.clone(), serde_json::json!({ "type": "dynamic" }));
                }
            }
        }
    }
    serde_json::json!({ "attributes": attrs })
}

impl<'a> ResourceDiff<'a> {
    fn new(rc: &'a Value, relevant: Matcher<'a>, block: &'a Value) -> Self {
        let null = &Value::Null;
        let ch = rc.get("change").unwrap_or(null);
        let action = Action::from_json(arr(ch, "actions")).unwrap_or(Action::NoOp);
        let diff = differ::diff_block(Change::from_json(ch, relevant), block);
        ResourceDiff { rc, action, diff }
    }
    fn s(&self, key: &str) -> &'a str {
        self.rc.get(key).and_then(Value::as_str).unwrap_or("")
    }
    fn mode(&self) -> &'a str {
        self.s("mode")
    }
    fn moved(&self) -> bool {
        let prev = self.s("previous_address");
        !prev.is_empty() && prev != self.s("address")
    }
    fn importing(&self) -> bool {
        self.rc.get("change").and_then(|c| c.get("importing")).is_some_and(|v| !v.is_null())
    }

    fn render_human(&self, cause: Cause) -> String {
        let mut buf = self.comment(cause);
        let opts = Opts { show_unchanged_children: self.importing(), ..Opts::default() };
        let mode = if self.mode() == "managed" { "resource" } else { "data" };
        let _ =
            write!(buf, "{} {} {} {}", action_symbol(self.action), mode, go_q(self.s("type")), go_q(self.s("name")),);
        buf.push(' ');
        buf.push_str(&self.diff.render(0, opts));
        buf
    }

    /// `resourceChangeComment`.
    fn comment(&self, cause: Cause) -> String {
        let rc = self.rc;
        let address = self.s("address");
        let deposed = self.s("deposed");
        let disp =
            if deposed.is_empty() { address.to_string() } else { format!("{address} (deposed object {deposed})") };
        let reason = self.s("action_reason");
        let prev = self.s("previous_address");
        let importing = rc.get("change").and_then(|c| c.get("importing")).filter(|v| !v.is_null());
        let mut printed_moved = false;
        let mut printed_imported = false;
        let mut buf = String::new();
        match self.action {
            Action::Create => {
                let _ = write!(buf, "  # {disp} will be created");
            }
            Action::Read => {
                let _ = write!(buf, "  # {disp} will be read during apply");
                match reason {
                    "read_because_config_unknown" => buf.push_str("\n  # (config refers to values not yet known)"),
                    "read_because_dependency_pending" => {
                        buf.push_str("\n  # (depends on a resource or a module with changes pending)")
                    }
                    "read_because_check_nested" => {
                        buf.push_str("\n  # (config will be reloaded to verify a check block)")
                    }
                    _ => {}
                }
            }
            Action::Update => match cause {
                Cause::Change => {
                    let _ = write!(buf, "  # {disp} will be updated in-place");
                }
                Cause::Drift => {
                    let _ = write!(buf, "  # {disp} has changed");
                }
            },
            Action::CreateThenDelete | Action::DeleteThenCreate => match reason {
                "replace_because_tainted" => {
                    let _ = write!(buf, "  # {disp} is tainted, so must be replaced");
                }
                "replace_by_request" => {
                    let _ = write!(buf, "  # {disp} will be replaced, as requested");
                }
                "replace_by_triggers" => {
                    let _ = write!(buf, "  # {disp} will be replaced due to changes in replace_triggered_by");
                }
                _ => {
                    let _ = write!(buf, "  # {disp} must be replaced");
                }
            },
            Action::CreateThenForget => {
                let _ = write!(buf, " # {disp} must be replaced, but the existing object will not be destroyed");
                buf.push_str("\n # (destroy = false is set in the configuration)");
            }
            Action::Forget => {
                if !deposed.is_empty() {
                    let _ = write!(buf, " # {disp} will be removed from Terraform state, but will not be destroyed");
                    buf.push_str("\n # (left over from a partially-failed replacement of this instance)");
                } else {
                    let _ = write!(buf, " # {disp} will no longer be managed by Terraform, but will not be destroyed");
                }
                buf.push_str("\n # (destroy = false is set in the configuration)");
            }
            Action::Delete => {
                match cause {
                    Cause::Change => {
                        let _ = write!(buf, "  # {disp} will be destroyed");
                    }
                    Cause::Drift => {
                        let _ = write!(buf, "  # {disp} has been deleted");
                    }
                }
                let index = rc.get("index").filter(|v| !v.is_null());
                match reason {
                    "delete_because_no_resource_config" => {
                        let _ = write!(
                            buf,
                            "\n  # (because {}.{} is not in configuration)",
                            self.s("type"),
                            self.s("name")
                        );
                    }
                    "delete_because_no_move_target" => {
                        let _ =
                            write!(buf, "\n  # (because {prev} was moved to {address}, which is not in configuration)");
                    }
                    "delete_because_no_module" => {
                        let _ = write!(buf, "\n  # (because {} is not in configuration)", self.s("module_address"));
                    }
                    "delete_because_wrong_repetition" => match index {
                        None => buf.push_str("\n  # (because resource uses count or for_each)"),
                        Some(Value::Number(_)) => buf.push_str("\n  # (because resource does not use count)"),
                        Some(Value::String(_)) => buf.push_str("\n  # (because resource does not use for_each)"),
                        _ => {}
                    },
                    "delete_because_count_index" => {
                        let _ = write!(buf, "\n  # (because index [{}] is out of range for count)", raw(index));
                    }
                    "delete_because_each_key" => {
                        let _ = write!(buf, "\n  # (because key [{}] is not in for_each map)", raw(index));
                    }
                    _ => {}
                }
                if !deposed.is_empty() {
                    buf.push_str("\n  # (left over from a partially-failed replacement of this instance)");
                }
            }
            Action::NoOp => {
                if !prev.is_empty() && prev != address {
                    let _ = write!(buf, "  # {prev} has moved to {disp}");
                    printed_moved = true;
                } else if importing.is_some() {
                    let _ = write!(buf, "  # {disp} will be imported");
                    let generated =
                        rc.get("change").and_then(|c| c.get("generated_config")).and_then(Value::as_str).unwrap_or("");
                    if !generated.is_empty() {
                        buf.push_str("\n  # (config will be generated)");
                    }
                    printed_imported = true;
                } else {
                    let _ = write!(buf, "{disp} has an action the plan renderer doesn't support (this is a bug)");
                }
            }
        }
        buf.push('\n');
        if !prev.is_empty() && prev != address && !printed_moved {
            let _ = writeln!(buf, "  # (moved from {prev})");
        }
        if let Some(imp) = importing {
            if !printed_imported {
                match imp.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                    Some(id) => {
                        let _ = writeln!(buf, "  # (imported from \"{id}\")");
                    }
                    None => buf.push_str("  # (will be imported first)\n"),
                }
            }
            if matches!(self.action, Action::CreateThenDelete | Action::DeleteThenCreate) {
                buf.push_str("  # Warning: this will destroy the imported resource\n");
            }
        }
        buf
    }
}

/// Go's `fmt.Sprintf("%s", json.RawMessage)`: the index exactly as the plan JSON spells it.
fn raw(v: Option<&Value>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// `"%s"` around a name (`resource "type" "name"`), not Go's %q: Terraform writes `\"%s\"`.
fn go_q(s: &str) -> String {
    format!("\"{s}\"")
}

fn render_drift(out: &mut String, drift: &[ResourceDiff], diffs_empty: bool, opts: &RenderOptions) -> bool {
    let shown: Vec<&ResourceDiff> = if opts.mode == PlanMode::RefreshOnly {
        drift.iter().collect()
    } else {
        drift.iter().filter(|d| d.diff.action != Action::NoOp).collect()
    };
    if shown.is_empty() {
        return false;
    }
    if diffs_empty && opts.mode != PlanMode::RefreshOnly {
        return false;
    }
    out.push_str("\nNote: Objects have changed outside of Terraform\n");
    out.push('\n');
    out.push_str(&word_wrap(
        "Terraform detected the following changes made outside of Terraform since the last \"terraform apply\" which may have affected this plan:\n",
        opts.columns,
    ));
    for d in shown {
        out.push('\n');
        // Drift is rendered with the diff's own action, as Terraform's renderHumanDiff does
        // with the change's action list.
        out.push_str(&d.render_human(Cause::Drift));
        out.push('\n');
    }
    let tail = if opts.mode == PlanMode::RefreshOnly {
        "\n\nThis is a refresh-only plan, so Terraform will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the Terraform state without changing any remote objects."
    } else {
        "\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes."
    };
    println(out, &word_wrap(tail, opts.columns));
    true
}
