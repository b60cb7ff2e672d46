//! Why an edge exists.
//!
//! Terraform's edges are bare `BasicEdge(source, target)`: once built, nobody can say which
//! expression, `depends_on` entry or wiring rule made them. Here every edge carries an [`Edge`]
//! with the list of its reasons ([`Why`]), first reason first: several transformers may connect
//! the same pair (a reference *and* module expansion, say), and all of them are kept. The page
//! explains an edge with [`Why::explain`]; JSON consumers switch on [`Why::kind`].

use super::shared::{SharedStr, SharedVec, Span};
use serde::{Serialize, Serializer};
use std::ops::Deref;

/// The payload of one graph edge `from -> to` ("from depends on to").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    /// Every reason for the edge, in the order the transformers found them.
    pub why: Reasons,
}

impl Edge {
    /// An edge with one reason.
    pub fn new(why: Why) -> Self {
        Edge { why: Reasons::One(why) }
    }

    /// Adds a reason unless an equal one is already listed. Returns whether it was added.
    pub fn add(&mut self, why: Why) -> bool {
        if self.why.contains(&why) {
            return false;
        }
        match &mut self.why {
            Reasons::Many(v) => v.push(why),
            one => {
                let Reasons::One(first) = std::mem::replace(one, Reasons::Many(Vec::new())) else { unreachable!() };
                *one = Reasons::Many(vec![first, why]);
            }
        }
        true
    }
}

/// The reasons of one edge, first first: a slice to read. Most edges have exactly one, kept
/// inline (no allocation per edge); a list only once a second reason arrives.
#[derive(Clone, PartialEq, Eq)]
pub enum Reasons {
    One(Why),
    Many(Vec<Why>),
}

impl Deref for Reasons {
    type Target = [Why];
    fn deref(&self) -> &[Why] {
        match self {
            Reasons::One(w) => std::slice::from_ref(w),
            Reasons::Many(v) => v,
        }
    }
}

impl IntoIterator for Reasons {
    type Item = Why;
    type IntoIter = std::vec::IntoIter<Why>;
    fn into_iter(self) -> Self::IntoIter {
        match self {
            Reasons::One(w) => vec![w].into_iter(),
            Reasons::Many(v) => v.into_iter(),
        }
    }
}

impl<'a> IntoIterator for &'a Reasons {
    type Item = &'a Why;
    type IntoIter = std::slice::Iter<'a, Why>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for Reasons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for Reasons {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

/// One reason for an edge. Serialized with a `kind` tag ([`Why::kind`]) and snake_case fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Why {
    /// An expression refers to the target (`ReferenceTransformer`).
    Reference {
        /// The traversal as written, up to its first dynamic step: `aws_instance.web[0].id`.
        traversal: SharedStr,
        /// Where in the referring object: `ami`, `count`, `network_interface.subnet_id`,
        /// `argument "vpc_id"` (module inputs), `validation.condition`, …
        context: SharedStr,
        /// Where the referenced part of the traversal is written.
        range: Span,
    },
    /// A `depends_on` entry names the target.
    DependsOn { traversal: SharedStr, range: Span },
    /// A provider consumer needs this provider configuration (`ProviderTransformer`).
    Provider {
        /// The `provider = …` argument, when written (otherwise implied by the type prefix).
        range: Option<Span>,
        /// How the configuration was found: the requested address, then each step (inherited
        /// from a parent module, passed in through a module's `providers` map).
        via: SharedVec<SharedStr>,
    },
    /// Everything declared in a module waits for the module's count/for_each
    /// (`ModuleExpansionTransformer`); a nested module's expansion waits for its parent's.
    ModuleExpansion,
    /// `module.m (close)` waits for everything in the module and in its nested modules.
    ModuleClose,
    /// `provider[…] (close)` waits for the provider and every object that uses it.
    ProviderClose,
    /// `root` waits for every node nothing else waits for (`CloseRootModuleTransformer`).
    RootClose,
    /// A variable's validation runs after the variable's value is known
    /// (`variableValidationTransformer`).
    VariableValidation,
    /// A check's scoped data source and its expansion wait for the check's report node
    /// (`checkTransformer`).
    CheckReport,
    /// An ephemeral resource is closed after it and after the last objects that use it
    /// (`ephemeralResourceCloseTransformer`).
    EphemeralClose,
    /// A resource instance waits for its resource's expansion (apply graph, `DiffTransformer`;
    /// also the static-instances view).
    InstanceOfResource,
    /// Replace with destroy-before-create: the new object is created after the old one is
    /// destroyed (`DestroyEdgeTransformer`, "creator to its own destroyer").
    ReplaceDestroyFirst,
    /// A destroy waits for the destroy of something that depended on it in the state
    /// (`DestroyEdgeTransformer`: destroy order is the reverse of create order).
    DestroyOrder {
        /// The state dependency behind the edge (`module.a.aws_instance.x`).
        dependency: SharedStr,
    },
    /// A create or update waits for the destroy of something it refers to (the `#destroy`
    /// phase reference of `NodeApplyableResourceInstance.References`).
    DestroyPhase { traversal: SharedStr },
    /// Destroy ordering through a creator (`DestroyEdgeTransformer`): `dependent` had
    /// `dependency` in its state `dependencies`, so a create or update waits for a destroy (or
    /// the other way round).
    StateOrder { dependency: SharedStr, dependent: SharedStr },
    /// An edge reversed by `CBDEdgeTransformer` for create_before_destroy: it used to run the
    /// other way for `original`.
    CbdFlipped { original: Box<Why> },
    /// A provider block's own expression refers to the target (kept apart from
    /// [`Why::Reference`] by consumers that draw provider edges differently).
    ProviderConfigReference { traversal: SharedStr, context: SharedStr, range: Span },
}

/// `main.tf:12:29`: a range's file, line and column.
pub fn at(range: &Span) -> String {
    format!("{}:{}:{}", range.filename, range.start.line, range.start.column)
}

impl Why {
    /// A stable snake_case word for the reason, the `kind` of its JSON form.
    pub fn kind(&self) -> &'static str {
        match self {
            Why::Reference { .. } => "reference",
            Why::DependsOn { .. } => "depends_on",
            Why::Provider { .. } => "provider",
            Why::ModuleExpansion => "module_expansion",
            Why::ModuleClose => "module_close",
            Why::ProviderClose => "provider_close",
            Why::RootClose => "root_close",
            Why::VariableValidation => "variable_validation",
            Why::CheckReport => "check_report",
            Why::EphemeralClose => "ephemeral_close",
            Why::InstanceOfResource => "instance_of_resource",
            Why::ReplaceDestroyFirst => "replace_destroy_first",
            Why::DestroyOrder { .. } => "destroy_order",
            Why::DestroyPhase { .. } => "destroy_phase",
            Why::CbdFlipped { .. } => "cbd_flipped",
            Why::StateOrder { .. } => "state_order",
            Why::ProviderConfigReference { .. } => "provider_config_reference",
        }
    }

    /// Where in the source the reason is written, if anywhere.
    pub fn range(&self) -> Option<&Span> {
        match self {
            Why::Reference { range, .. }
            | Why::DependsOn { range, .. }
            | Why::ProviderConfigReference { range, .. } => Some(range),
            Why::Provider { range, .. } => range.as_ref(),
            Why::CbdFlipped { original } => original.range(),
            _ => None,
        }
    }

    /// One sentence for humans, given what the two ends are called (usually their addresses):
    /// `aws_instance.web refers to aws_security_group.sg in vpc_security_group_ids at
    /// main.tf:12:29`.
    pub fn explain(&self, from: &str, to: &str) -> String {
        match self {
            Why::Reference { traversal, context, range } => {
                let what =
                    if *traversal == to || traversal.is_empty() { String::new() } else { format!(" ({traversal})") };
                let ctx = if context.is_empty() { String::new() } else { format!(" in {context}") };
                format!("{from} refers to {to}{what}{ctx} at {}", at(range))
            }
            Why::ProviderConfigReference { traversal, context, range } => {
                let what = if *traversal == to { String::new() } else { format!(" ({traversal})") };
                format!("the provider configuration {from} refers to {to}{what} in {context} at {}", at(range))
            }
            Why::DependsOn { traversal, range } => {
                format!("{from} has {traversal} in depends_on at {}", at(range))
            }
            Why::Provider { range, via } => {
                let how = match range {
                    Some(r) => format!("its provider argument at {}", at(r)),
                    None => "the type name's prefix".to_string(),
                };
                let steps = if via.is_empty() { String::new() } else { format!(" ({})", via.join(", ")) };
                format!("{from} uses the provider configuration {to}, chosen by {how}{steps}")
            }
            Why::ModuleExpansion => {
                format!("{from} is inside a module, and waits for {to} to evaluate its count and for_each")
            }
            Why::ModuleClose => format!("{from} waits for {to}, which belongs to the module it closes"),
            Why::ProviderClose => format!("{from} closes the provider after {to} has used it"),
            Why::RootClose => format!("{from} waits for {to}, which nothing else waits for"),
            Why::VariableValidation => format!("{from} checks the validation rules of {to} once its value is known"),
            Why::CheckReport => format!("{from} waits for {to} to register the check's objects"),
            Why::EphemeralClose => format!("{from} closes the ephemeral resource after {to} is done with it"),
            Why::InstanceOfResource => format!("{from} is an instance of {to}"),
            Why::ReplaceDestroyFirst => format!("{from} replaces an object that {to} destroys first"),
            Why::DestroyOrder { dependency } => {
                format!("{from} is destroyed after {to}, because {to} depended on {dependency} in the state")
            }
            Why::DestroyPhase { traversal } => format!("{from} refers to {traversal}, so it waits for {to}"),
            Why::StateOrder { dependency, dependent } => {
                format!("{from} waits for {to}, because {dependent} depended on {dependency} in the state")
            }
            Why::CbdFlipped { original } => {
                format!("create_before_destroy reversed this edge ({})", original.explain(to, from))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;

    fn range(line: u32, column: u32) -> Span {
        Span {
            filename: "main.tf".into(),
            start: Pos { line, column, byte: 0 },
            end: Pos { line, column: column + 3, byte: 3 },
        }
    }

    #[test]
    fn explanations_name_the_expression_and_place() {
        let w = Why::Reference {
            traversal: "aws_security_group.sg.id".into(),
            context: "vpc_security_group_ids".into(),
            range: range(12, 29),
        };
        assert_eq!(
            w.explain("aws_instance.web", "aws_security_group.sg"),
            "aws_instance.web refers to aws_security_group.sg (aws_security_group.sg.id) in vpc_security_group_ids at main.tf:12:29"
        );
        assert_eq!(w.kind(), "reference");
        let d = Why::DependsOn { traversal: "module.net".into(), range: range(3, 17) };
        assert_eq!(
            d.explain("aws_instance.a", "module.net"),
            "aws_instance.a has module.net in depends_on at main.tf:3:17"
        );
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["kind"], "depends_on");
        assert_eq!(json["range"]["start"]["line"], 3);
    }

    #[test]
    fn edges_keep_every_distinct_reason_first_first() {
        let mut e = Edge::new(Why::ModuleExpansion);
        assert!(!e.add(Why::ModuleExpansion));
        assert!(e.add(Why::RootClose));
        assert_eq!(*e.why, [Why::ModuleExpansion, Why::RootClose]);
    }
}
