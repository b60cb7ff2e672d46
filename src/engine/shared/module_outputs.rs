//! The outputs of module instances below the root that a plan records as changes: Terraform's
//! `NodeApplyableOutput.setValue` records every output of every module instance, and one of a
//! child module (no prior value to compare with) is a change unless its value is null (one
//! whose node failed or was skipped sets none); an
//! overridden instance's are its override's, and nothing below it has any. Only
//! `relevant_attributes` reads them; the plan JSON shows root outputs only.

use super::order::instance_addr;
use super::scope::{module_keys, with_scope};
use crate::config::model::Module;
use crate::eval::module_scope::{ModuleKey, ModuleScope};

/// (module instance address, output name) for each non-null output below the root.
pub fn changed(root: &Module, scope: &ModuleScope<'_>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // Evaluating again reports nothing new: the walk already reported these diagnostics.
    let kept = std::mem::take(&mut *scope.diagnostics.borrow_mut());
    // At most limits.moduleInstances instances (past it the plan has stopped with an error).
    let mut budget = crate::eval::limits::current().module_instances;
    visit(root, scope, &mut Vec::new(), &mut Vec::new(), &mut out, &mut budget);
    *scope.diagnostics.borrow_mut() = kept;
    out
}

fn visit(
    m: &Module,
    scope: &ModuleScope<'_>,
    path: &mut Vec<String>,
    keys: &mut Vec<Option<ModuleKey>>,
    out: &mut Vec<(String, String)>,
    budget: &mut usize,
) {
    for call in &m.module_calls {
        let Some(child) = call.module.as_deref() else { continue };
        let instances: Vec<Option<ModuleKey>> = if call.count.is_some() || call.for_each.is_some() {
            module_keys(scope, path, keys, &call.name).unwrap_or_default().into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        for k in instances {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            path.push(call.name.clone());
            keys.push(k);
            let addr = instance_addr(path, keys);
            let overridden = scope.inputs().overrides.is_some_and(|o| o.outputs(&addr).is_some());
            // Only the outputs whose nodes set a value (not one that failed or was skipped).
            let names: Vec<String> = with_scope(scope, path, keys, &mut |s| {
                child
                    .outputs
                    .iter()
                    .filter(|o| overridden || s.output_settled(&o.name))
                    .filter(|o| s.output(&o.name).is_some_and(|v| !v.is_null()))
                    .map(|o| o.name.clone())
                    .collect()
            })
            .unwrap_or_default();
            out.extend(names.into_iter().map(|n| (addr.clone(), n)));
            // An overridden instance has its override's outputs and nothing inside it runs
            // (Terraform expands no module call in it), so no output below it changes.
            if scope.inputs().overrides.is_none_or(|o| o.outputs(&addr).is_none()) {
                visit(child, scope, path, keys, out, budget);
            }
            path.pop();
            keys.pop();
        }
    }
}
