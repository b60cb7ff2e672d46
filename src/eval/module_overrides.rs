//! `terraform test`'s `override_module` blocks as the engine takes them (Terraform's
//! `mocking.Overrides` for modules): a module instance overridden has the given outputs (null
//! for an output left out, known at plan) and nothing else of it is evaluated or planned: its
//! variables, locals, resources, checks and the module calls inside it.

use super::value::{Kind, Value};
use crate::addrs::{parse_module_instance, InstanceKey};

/// One step of a module instance address: the call's name and the instance's key.
type Step = (String, Option<InstanceKey>);

/// The module overrides of a plan (and of the apply of that plan).
#[derive(Clone, Debug, Default)]
pub struct ModuleOverrides {
    /// Each target (a module call, `module.a.module.b`, or one instance of it, `module.a[0]`)
    /// with its `outputs` object (null when not given), the first of a target winning.
    targets: Vec<(Vec<Step>, Value)>,
}

impl ModuleOverrides {
    /// Overrides `target` (a module instance address) with `outputs`. A target that is not a
    /// module instance address is never matched.
    pub fn push(&mut self, target: &str, outputs: Value) {
        if let Ok(steps) = parse_module_instance(target) {
            if !steps.is_empty() {
                self.targets.push((steps, outputs));
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The outputs object given for module instance `instance` (state form, `module.a[0]`):
    /// its own override, else for a keyed instance its call's (Terraform's `GetModuleOverride`).
    pub fn outputs(&self, instance: &str) -> Option<&Value> {
        if self.targets.is_empty() {
            return None;
        }
        let steps = parse_module_instance(instance).ok()?;
        self.outputs_of(&steps)
    }

    fn outputs_of(&self, steps: &[Step]) -> Option<&Value> {
        let (last, parent) = steps.split_last()?;
        let exact = self.targets.iter().find(|(t, _)| t == steps);
        let call = || {
            last.1.as_ref()?;
            self.targets.iter().find(|(t, _)| {
                t.len() == steps.len() && t[..parent.len()] == *parent && t[parent.len()] == (last.0.clone(), None)
            })
        };
        exact.or_else(call).map(|(_, v)| v)
    }

    /// Whether module instance `instance` is overridden, itself or through a module it is in
    /// (Terraform's `IsOverridden`): none of its resources are planned.
    pub fn covers(&self, instance: &str) -> bool {
        if self.targets.is_empty() {
            return false;
        }
        let Ok(steps) = parse_module_instance(instance) else { return false };
        (1..=steps.len()).any(|n| self.outputs_of(&steps[..n]).is_some())
    }

    /// Output `name` of an overridden module instance given its override's `outputs`: the
    /// value of that name, else null.
    pub fn output(outputs: &Value, name: &str) -> Value {
        match &outputs.kind {
            Kind::Object(m) | Kind::Map(_, m) => m.get(name).cloned(),
            _ => None,
        }
        .unwrap_or_else(|| Value::null(super::types::Type::Dynamic))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(v: &str) -> Value {
        Value::object([("value".to_string(), Value::string(v))].into_iter().collect())
    }

    #[test]
    fn an_instance_override_beats_its_calls_and_covers_what_is_inside() {
        let mut o = ModuleOverrides::default();
        o.push("module.many", outputs("all"));
        o.push("module.many[0]", outputs("zero"));
        o.push("module.a.module.b", outputs("b"));
        let value = |i: &str| o.outputs(i).map(|v| ModuleOverrides::output(v, "value"));
        assert_eq!(value("module.many[0]"), Some(Value::string("zero")));
        assert_eq!(value("module.many[1]"), Some(Value::string("all")));
        assert_eq!(value("module.a.module.b"), Some(Value::string("b")));
        assert_eq!(value("module.a[0].module.b"), None);
        assert_eq!(value("module.other"), None);
        assert!(o.covers("module.many[1].module.inner"));
        assert!(o.covers("module.a.module.b[\"x\"]"));
        assert!(!o.covers("module.a"));
        assert_eq!(o.outputs("module.many[0]").map(|v| ModuleOverrides::output(v, "gone").is_null()), Some(true));
    }
}
