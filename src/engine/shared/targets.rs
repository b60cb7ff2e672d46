//! `-target` and `-replace` addresses: parsed as Terraform's `addrs.ParseTarget` and
//! `addrs.ParseAbsResourceInstance` read them, and matched as its `TargetContains` does.
//!
//! A target names a module instance (`module.a`, `module.a[0]`), a resource (`module.a.x.y`)
//! or one resource instance (`x.y[1]`). The plan keeps what a target names and everything it
//! depends on (a destroy plan's walk keeps, in its own graph, what depends on it:
//! `PlanGraph::targeted_objects`); within a resource a target names directly, only the
//! instances the target contains are planned.

use super::order::Walkable;
use crate::addrs::{InstanceAddr, InstanceKey, ResourceAddr, ResourceMode};
use crate::diag::{Diagnostic, Diagnostics};
use std::collections::BTreeSet;

type ModuleSteps = Vec<(String, Option<InstanceKey>)>;

/// One `-target` address.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A module instance (`module.a`: every instance when the last step has no key).
    Module(ModuleSteps),
    /// A resource (`key` `None`) or one of its instances.
    Resource { module: ModuleSteps, resource: ResourceAddr, key: Option<InstanceKey> },
}

/// Parses `-target` addresses; a malformed one is Terraform's "Invalid target address".
pub fn parse_targets(raw: &[String], diags: &mut Diagnostics) -> Vec<Target> {
    let mut out = Vec::new();
    for r in raw {
        match parse_target(r) {
            Ok(t) => out.push(t),
            Err(e) => diags.push(Diagnostic::error(format!("Invalid target {}", crate::addrs::go_quote(r)), e)),
        }
    }
    out
}

fn parse_target(s: &str) -> Result<Target, String> {
    if let Ok(module) = crate::addrs::parse_module_instance(s) {
        if !module.is_empty() {
            return Ok(Target::Module(module));
        }
    }
    let a = InstanceAddr::parse(s).map_err(|_| address_error(s, false))?;
    Ok(Target::Resource { module: a.module, resource: a.resource, key: a.key })
}

/// Why `s` is not a target (`replace`: not a resource instance), in Terraform's words
/// (`addrs.ParseTarget`, `addrs.ParseAbsResourceInstance`).
pub fn address_error(s: &str, replace: bool) -> String {
    const BRACKETS: &str = "Index brackets must contain either a literal number or a literal string.";
    let mut rest = s;
    loop {
        if rest == "module" || rest == "module." {
            return "Prefix \"module.\" must be followed by a module name.".into();
        }
        let Some(after) = rest.strip_prefix("module.") else { break };
        let end = after.find(['.', '[']).unwrap_or(after.len());
        let mut next = &after[end..];
        if next.starts_with('[') {
            match next.find(']') {
                Some(close) => next = &next[close + 1..],
                None => return BRACKETS.into(),
            }
        }
        if next.is_empty() && replace {
            return "A resource instance address is required here. The module path must be followed by a resource instance specification.".into();
        }
        rest = next.strip_prefix('.').unwrap_or(next);
    }
    let rest = rest.strip_prefix("data.").or_else(|| rest.strip_prefix("ephemeral.")).unwrap_or(rest);
    let (head, key) = match rest.find('[') {
        Some(i) => (&rest[..i], Some(&rest[i..])),
        None => (rest, None),
    };
    let steps = head.split('.').count();
    if steps < 2 {
        "Resource specification must include a resource type and name.".into()
    } else if steps > 2 {
        if replace {
            "Resource instance key must be given in square brackets."
        } else {
            "Unexpected extra operators after address."
        }
        .into()
    } else if key.is_some() {
        BRACKETS.into()
    } else {
        "Invalid address.".into()
    }
}

/// The `-target` and `-replace` errors of `options` (Terraform refuses them before planning).
pub fn check_options(options: &super::plan::PlanOptions) -> Diagnostics {
    let mut d = Diagnostics::new();
    parse_targets(&options.targets, &mut d);
    let replace = parse_replace(&options.replace, &mut d);
    if !replace.is_empty() && options.destroy {
        d.push(Diagnostic::error(
            "Unsupported plan mode",
            "Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.",
        ));
    }
    d
}

/// Parses `-replace` addresses: managed resource instances only, as `plan -replace` requires.
pub fn parse_replace(raw: &[String], diags: &mut Diagnostics) -> Vec<InstanceAddr> {
    let mut out = Vec::new();
    for r in raw {
        let summary = format!("Invalid force-replace address {}", crate::addrs::go_quote(r));
        match InstanceAddr::parse(r) {
            Ok(a) if a.resource.mode != ResourceMode::Managed => {
                diags.push(Diagnostic::error(
                    summary,
                    "Only managed resources can be used with the -replace=... option.",
                ));
            }
            Ok(a) => out.push(a),
            Err(_) => diags.push(Diagnostic::error(summary, address_error(r, true))),
        }
    }
    out
}

/// Whether module steps `target` contain the module instance `module` (a last target step
/// without a key contains every instance of that call).
fn module_contains(target: &[(String, Option<InstanceKey>)], module: &[(String, Option<InstanceKey>)]) -> bool {
    if module.len() < target.len() {
        return false;
    }
    for (i, (name, key)) in target.iter().enumerate() {
        let (other_name, other_key) = &module[i];
        if name != other_name {
            return false;
        }
        if i == target.len() - 1 && key.is_none() {
            return true;
        }
        if key != other_key {
            return false;
        }
    }
    true
}

impl Target {
    /// Whether this target names the configuration resource `resource` in the module at
    /// `path` (call names): instance keys aside, as the plan graph's resource nodes match.
    pub fn names_resource(&self, path: &[String], resource: &ResourceAddr) -> bool {
        fn names(steps: &ModuleSteps) -> Vec<&str> {
            steps.iter().map(|(n, _)| n.as_str()).collect()
        }
        match self {
            Target::Module(m) => path.len() >= m.len() && names(m).iter().zip(path).all(|(a, b)| *a == b.as_str()),
            Target::Resource { module, resource: r, .. } => {
                r == resource
                    && names(module).len() == path.len()
                    && names(module).iter().zip(path).all(|(a, b)| *a == b.as_str())
            }
        }
    }

    /// Whether this target contains one resource instance.
    pub fn contains_instance(
        &self,
        module: &[(String, Option<InstanceKey>)],
        resource: &ResourceAddr,
        key: &Option<InstanceKey>,
    ) -> bool {
        match self {
            Target::Module(m) => module_contains(m, module),
            Target::Resource { module: m, resource: r, key: k } => {
                m.as_slice() == module && r == resource && (k.is_none() || k == key)
            }
        }
    }
}

/// The `-target` addresses of one plan.
#[derive(Clone, Debug, Default)]
pub struct Targets(pub Vec<Target>);

impl Targets {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a target names this configuration resource.
    pub fn names_resource(&self, path: &[String], resource: &ResourceAddr) -> bool {
        self.0.iter().any(|t| t.names_resource(path, resource))
    }

    /// Whether a target contains the instance at `module` (state form: `module.a[0]`),
    /// `resource` and `key`.
    pub fn contains(&self, module: &str, resource: &ResourceAddr, key: &Option<InstanceKey>) -> bool {
        let steps = crate::addrs::parse_module_instance(module).unwrap_or_default();
        self.0.iter().any(|t| t.contains_instance(&steps, resource, key))
    }
}

/// What a targeted plan walks (`TargetsTransformer`), per resource of the walk.
pub struct Selection {
    /// Whether a target names the resource (then only the instances it contains are planned).
    pub names: Vec<bool>,
    /// The configuration resources planned: the named ones and their dependencies.
    pub kept: BTreeSet<String>,
}

impl Selection {
    /// `closure[i]`: every resource `resources[i]` depends on, transitively.
    pub fn of(targets: &Targets, resources: &[Walkable<'_>], closure: &[BTreeSet<String>]) -> Selection {
        if targets.is_empty() {
            let all = crate::util::sort::btree_set(resources.iter().map(|w| w.config_address.clone()));
            return Selection { names: vec![false; resources.len()], kept: all };
        }
        let names: Vec<bool> = resources.iter().map(|w| targets.names_resource(&w.path, &w.resource.addr())).collect();
        let mut kept = BTreeSet::new();
        for (i, w) in resources.iter().enumerate().filter(|(i, _)| names[*i]) {
            kept.insert(w.config_address.clone());
            kept.extend(closure[i].iter().cloned());
        }
        Selection { names, kept }
    }
}

/// A targeted plan's checkable objects that it does not evaluate: their status is unknown and
/// they list no instances. A resource it does not plan (not in `kept`), an output it does not
/// keep (`output_kept`: the graph's answer, `TargetsTransformer`), and every `check` block (no
/// target names one; Terraform 1.11.4 leaves even a check that reads only targeted resources
/// unknown).
pub fn leave_out_checks(
    checks: &mut [super::checks::CheckResult],
    kept: &BTreeSet<String>,
    output_kept: &dyn Fn(&str) -> bool,
) {
    use super::checks::{Kind2, Status};
    for c in checks {
        let left_out = match &c.kind {
            Kind2::Resource { .. } => !kept.contains(&c.config_addr),
            Kind2::Check { .. } => true,
            Kind2::Output { name } => c.config_addr.starts_with("output.") && !output_kept(name),
            // Module variables' validations and module outputs: as their nodes found them.
            Kind2::Variable { .. } => false,
        };
        if left_out {
            c.status = Status::Unknown;
            c.objects = None;
        }
    }
}

/// Terraform's warning on every targeted plan.
pub fn targeting_warning() -> Diagnostic {
    Diagnostic::warning(
        "Resource targeting is in effect",
        "You are creating a plan with the -target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message.",
    )
}

/// Terraform's warning when a plan made with `-target` is applied.
pub fn applied_incomplete_warning() -> Diagnostic {
    Diagnostic::warning(
        "Applied changes may be incomplete",
        "The plan was created with the -target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    terraform plan\n\nNote that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message.",
    )
}

/// What an apply of `plan` reports before it starts: the warning for a plan made with `-target`.
pub fn apply_diagnostics(plan: &super::plan::Plan) -> Diagnostics {
    let mut d = Diagnostics::new();
    if !plan.targets.is_empty() {
        d.push(applied_incomplete_warning());
    }
    d
}

/// `-replace=ADDR` without an instance key, for a resource whose instances all have keys (or
/// that has none): Terraform's warning listing the addresses that would have matched.
pub fn incomplete_replace_warning(requested: &str, instances: &[String]) -> Diagnostic {
    let detail = match instances {
        [] => format!("Your force-replace request for {requested} doesn't match any resource instances because this resource doesn't have any instances."),
        [one] => format!("Your force-replace request for {requested} doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:\n  -replace={}", crate::addrs::go_quote(one)),
        many => format!(
            "Your force-replace request for {requested} doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:{}",
            many.iter().map(|a| format!("\n  -replace={}", crate::addrs::go_quote(a))).collect::<String>()
        ),
    };
    Diagnostic::warning("Incompletely-matched force-replace resource instance", detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Target {
        parse_target(s).unwrap()
    }
    fn res(s: &str) -> ResourceAddr {
        InstanceAddr::parse(s).unwrap().resource
    }

    #[test]
    fn module_targets_contain_every_instance_below_them() {
        let m = crate::addrs::parse_module_instance("module.m[1].module.n").unwrap();
        assert!(t("module.m").contains_instance(&m, &res("x.y"), &None));
        assert!(t("module.m[1]").contains_instance(&m, &res("x.y"), &None));
        assert!(!t("module.m[0]").contains_instance(&m, &res("x.y"), &None));
        assert!(t("module.m").names_resource(&["m".into(), "n".into()], &res("x.y")));
        assert!(!t("module.m").names_resource(&[], &res("x.y")));
    }

    #[test]
    fn resource_targets_name_the_resource_and_contain_their_instances() {
        let root = Vec::new();
        assert!(t("x.y").contains_instance(&root, &res("x.y"), &Some(InstanceKey::Int(3))));
        assert!(t("x.y[3]").contains_instance(&root, &res("x.y"), &Some(InstanceKey::Int(3))));
        assert!(!t("x.y[2]").contains_instance(&root, &res("x.y"), &Some(InstanceKey::Int(3))));
        assert!(t("x.y[2]").names_resource(&[], &res("x.y")));
        assert!(!t("data.x.y").names_resource(&[], &res("x.y")));
    }

    #[test]
    fn malformed_addresses_are_terraforms_errors() {
        let mut d = Diagnostics::new();
        parse_targets(&["x".into()], &mut d);
        parse_replace(&["data.x.y".into()], &mut d);
        let s: Vec<String> = d.iter().map(|d| d.summary.clone()).collect();
        assert_eq!(s, ["Invalid target \"x\"", "Invalid force-replace address \"data.x.y\""]);
        // Terraform 1.11.4's details for these (`terraform plan -target=... -replace=...`).
        for (target, detail) in [
            ("nope", "Resource specification must include a resource type and name."),
            ("a.b.c.d", "Unexpected extra operators after address."),
            ("module", "Prefix \"module.\" must be followed by a module name."),
            ("data.x", "Resource specification must include a resource type and name."),
            ("a.b[", "Index brackets must contain either a literal number or a literal string."),
        ] {
            assert_eq!(address_error(target, false), detail, "{target}");
        }
        for (replace, detail) in [
            ("nope", "Resource specification must include a resource type and name."),
            ("module.m", "A resource instance address is required here. The module path must be followed by a resource instance specification."),
            ("a.b.c", "Resource instance key must be given in square brackets."),
        ] {
            assert_eq!(address_error(replace, true), detail, "{replace}");
        }
    }
}
