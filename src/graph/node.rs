//! The vertices of Terraform's graphs: one closed enum of node kinds for every operation.
//!
//! Terraform has a Go type per node (`nodeExpandPlannableResource`, `NodeApplyableProvider`,
//! `nodeCloseModule`, …, 54 `node_*.go` files) and 36 `GraphNode…` interfaces saying what each
//! can do. Here a node is a [`Node`] whose [`NodeKind`] is one variant of a closed enum, and each
//! capability is one method with one `match`, so "which nodes can be referenced?" is answered by
//! reading [`Node::referenceable_keys`]:
//!
//! | capability | Terraform interface | method |
//! |---|---|---|
//! | vertex name | `Name()` | [`Node::name`] |
//! | module it lives in | `GraphNodeModulePath` | [`Node::module`] |
//! | keys others reach it by | `GraphNodeReferenceable` | [`Node::referenceable_keys`] |
//! | what it refers to | `GraphNodeReferencer` | [`Node::references`] (needs the config) |
//! | which provider it needs | `GraphNodeProviderConsumer` | [`Node::provider_request`] |
//! | is a provider configuration | `GraphNodeProvider` | [`Node::provider_addr`] |
//! | destroys something | `GraphNodeDestroyer` | [`Node::is_destroyer`] |
//! | DOT node line | `GraphNodeDotter` | [`Node::dot_attrs`] |
//!
//! Every kind of every operation is here (plan, validate, plan-destroy, apply), so the apply
//! and destroy graphs add transformers, not node types. A node links to its configuration object
//! by index ([`ConfigRef`], into [`BuildContext`](super::transform::BuildContext)), never by
//! copy.

pub use super::config_ref::ConfigRef;
use super::context::BuildContext;
use super::shared::{SharedStr, Span};
use crate::addrs::{provider_config_text, InstanceKey, ModulePath, ResourceMode};
use crate::config::Reference;
use crate::dag::DotAttrs;
use serde::{Serialize, Serializer};
use std::fmt::Write;
use std::sync::Arc;

/// What kind of vertex this is. Names follow Terraform 1.15's `Name()` methods (see
/// [`Node::name`]); the Go type each variant stands for is given on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NodeKind {
    /// `nodeExpandPlannableResource` / `nodeExpandApplyableResource`: one per `resource`,
    /// `data` or `ephemeral` block; evaluates count/for_each. `aws_instance.web (expand)`.
    ResourceExpand { mode: ResourceMode },
    /// `NodeValidatableResource` (validate walk): `aws_instance.web`.
    ResourceValidate { mode: ResourceMode },
    /// `NodePlannableResourceInstance` / `NodeApplyableResourceInstance`: one instance,
    /// `aws_instance.web[0]` (no key: `aws_instance.web`).
    ResourceInstance { mode: ResourceMode, key: Option<InstanceKey> },
    /// `NodeDestroyResourceInstance` (apply) or `NodePlanDestroyableResourceInstance`
    /// (plan-destroy): `aws_instance.web[0] (destroy)`.
    ResourceInstanceDestroy {
        #[serde(skip_serializing)]
        mode: ResourceMode,
        key: Option<InstanceKey>,
    },
    /// `NodeDestroyDeposedResourceInstanceObject`: `aws_instance.web (destroy deposed 1a2b3c4d)`.
    ResourceInstanceDestroyDeposed {
        #[serde(skip_serializing)]
        mode: ResourceMode,
        key: Option<InstanceKey>,
        deposed: String,
    },
    /// `NodeForgetResourceInstance` (apply, a `forget` change: a `removed` block with
    /// `lifecycle { destroy = false }`): removes the object from the state without destroying
    /// it, `aws_instance.web[0] (forget)`.
    ResourceInstanceForget { mode: ResourceMode, key: Option<InstanceKey> },
    /// `NodeForgetDeposedResourceInstanceObject`: forgets a deposed object,
    /// `aws_instance.web (forget deposed 1a2b3c4d)`.
    ResourceInstanceForgetDeposed {
        #[serde(skip_serializing)]
        mode: ResourceMode,
        key: Option<InstanceKey>,
        deposed: String,
    },
    /// `NodePlannableResourceInstanceOrphan`: a state-only instance, `aws_instance.web[2] (orphan)`.
    ResourceInstanceOrphan { mode: ResourceMode, key: Option<InstanceKey> },
    /// `NodePlanDeposedResourceInstanceObject`: `aws_instance.web (deposed 1a2b3c4d)`.
    ResourceInstanceDeposed {
        #[serde(skip_serializing)]
        mode: ResourceMode,
        key: Option<InstanceKey>,
        deposed: String,
    },
    /// `NodeApplyableProvider`: `provider["registry.terraform.io/hashicorp/aws"].west`.
    Provider { fqn: String, alias: Option<String> },
    /// `graphNodeProxyProvider`: a `providers = { … }` entry, removed once resolved:
    /// `module.m.provider["…"] (proxy)`. `target` is the parent's provider address it stands for.
    ProviderProxy { fqn: String, alias: Option<String>, target: String },
    /// `graphNodeCloseProvider`: `provider["…"] (close)`.
    ProviderClose { fqn: String, alias: Option<String> },
    /// `NodeRootVariable`: `var.region`.
    RootVariable,
    /// `nodeExpandModuleVariable`: `module.m.var.x (expand)`.
    ModuleVariable,
    /// `nodeVariableValidation`: `var.x (validation)`, `module.m.var.x (validation)`.
    VariableValidation,
    /// `nodeExpandLocal`: `local.x (expand)`.
    Local,
    /// `nodeExpandOutput`: `output.o (expand)`, `module.m.output.o (expand)`.
    Output,
    /// `NodeDestroyableOutput`: a root output in the state but no longer in the configuration,
    /// `output.o (destroy)` (`OrphanOutputTransformer`).
    OutputDestroy,
    /// `nodeExpandModule` (`nodeValidateModule` in validate): `module.m (expand)`.
    ModuleExpand,
    /// `nodeCloseModule` for a module call: `module.m (close)`.
    ModuleClose,
    /// `nodeCloseModule` for the root module: `root`.
    Root,
    /// `nodeExpandCheck`: `check.c (expand)`.
    CheckExpand,
    /// `nodeReportCheck` (plan and import only): `check.c (report)`.
    CheckReport,
    /// `nodeEphemeralResourceClose`: `ephemeral.x.y (close)`.
    EphemeralClose,
}

/// Which module a referenceable key is in: the node's own, or the one that calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyScope {
    Own,
    Caller,
}

/// A referenceable key: the node's address itself (shared) or one made for the purpose.
pub(crate) enum RefKey {
    Shared(SharedStr),
    Owned(String),
}

impl std::fmt::Display for RefKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl RefKey {
    pub fn as_str(&self) -> &str {
        match self {
            RefKey::Shared(s) => s,
            RefKey::Owned(s) => s,
        }
    }
}

/// What a provider consumer asks for (Terraform `ProvidedBy()`): a configuration in its own
/// module, found by walking up for unaliased ones unless `exact`. Made for every resource
/// node, so its parts are shared (interned by the build): making one allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderRequest {
    pub fqn: SharedStr,
    pub alias: Option<SharedStr>,
    /// The module whose configuration is asked for.
    pub module: Arc<ModulePath>,
    /// No inheritance from parent modules (state-only objects name their exact provider).
    pub exact: bool,
    /// Where the `provider = …` argument is written, if it is.
    pub range: Option<Span>,
}

impl ProviderRequest {
    /// Terraform's `AbsProviderConfig.String()` of what is asked for.
    pub fn address(&self) -> String {
        provider_config_text(&self.module, &self.fqn, self.alias.as_deref())
    }
}

fn module_path<S: Serializer>(p: &Arc<ModulePath>, s: S) -> Result<S::Ok, S::Error> {
    p.serialize(s)
}

/// One vertex: its kind, where it lives, what it stands for.
///
/// The strings and the module path are shared ([`SharedStr`], `Arc`): a build interns them, so
/// the many nodes of one module, resource or provider hold one copy each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Node {
    pub kind: NodeKind,
    /// The module the object is declared in (for module calls: the called module's path).
    #[serde(serialize_with = "module_path")]
    pub module: Arc<ModulePath>,
    /// The object's address inside its module, without suffix: `aws_instance.web`,
    /// `data.aws_ami.u`, `var.x`, `local.x`, `output.o`, `check.c`,
    /// `provider["registry.terraform.io/hashicorp/aws"].west`; empty for module and root nodes.
    pub addr: SharedStr,
    /// Where the object is declared.
    pub range: Option<Span>,
    /// The configuration object, when there is one.
    #[serde(skip)]
    pub config: Option<ConfigRef>,
    /// The provider configuration this node was connected to (set by the provider transformer,
    /// Terraform `SetProvider`): a provider node's address.
    pub resolved_provider: Option<SharedStr>,
    /// For objects in one *instance* of a module (apply-graph instances): the module instance as
    /// Terraform prints it, `module.m[0]`. Replaces [`Node::module`] in the name, and keeps
    /// references between different instances of the same module apart.
    pub module_instance: Option<SharedStr>,
    /// For state-only objects (orphans, deposed, destroy): the exact provider from state.
    pub state_provider: Option<SharedStr>,
    /// What the state-driven steps recorded on a resource node: attached state, planned
    /// action, dependencies, forced create_before_destroy ([`super::facts`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Box<super::facts::ResourceFacts>>,
}

impl Node {
    /// A node with no config link, provider or module instance.
    pub fn new(
        kind: NodeKind,
        module: impl Into<Arc<ModulePath>>,
        addr: impl Into<SharedStr>,
        range: Option<Span>,
    ) -> Self {
        Node {
            kind,
            module: module.into(),
            addr: addr.into(),
            range,
            config: None,
            resolved_provider: None,
            module_instance: None,
            state_provider: None,
            facts: None,
        }
    }

    /// Links the node to its configuration object.
    pub fn with_config(mut self, config: ConfigRef) -> Self {
        self.config = Some(config);
        self
    }

    /// Writes the module prefix of names and addresses: `module.a.` (or `module.a[0].`), or
    /// nothing.
    fn write_prefix(&self, out: &mut String) {
        match &self.module_instance {
            Some(mi) if !mi.is_empty() => {
                out.push_str(mi);
                out.push('.');
            }
            Some(_) => {}
            None => {
                for name in &self.module.0 {
                    out.push_str("module.");
                    out.push_str(name);
                    out.push('.');
                }
            }
        }
    }

    /// Terraform's vertex name (`Name()`), exactly as `String()`, DOT and cycle errors print it.
    /// One allocation: a name is made for every node of every graph.
    pub fn name(&self) -> String {
        let a = self.addr.as_str();
        let mut s = String::with_capacity(self.module.0.iter().map(|m| m.len() + 8).sum::<usize>() + a.len() + 24);
        let key = |s: &mut String, k: &Option<InstanceKey>| {
            if let Some(k) = k {
                let _ = write!(s, "{k}");
            }
        };
        match &self.kind {
            NodeKind::RootVariable => s.push_str(a),
            NodeKind::ModuleExpand => {
                let _ = write!(s, "{} (expand)", self.module);
            }
            NodeKind::ModuleClose => {
                let _ = write!(s, "{} (close)", self.module);
            }
            NodeKind::Root => s.push_str("root"),
            NodeKind::OutputDestroy => {
                s.push_str(a);
                s.push_str(" (destroy)");
            }
            kind => {
                self.write_prefix(&mut s);
                s.push_str(a);
                match kind {
                    NodeKind::ResourceExpand { .. }
                    | NodeKind::ModuleVariable
                    | NodeKind::Local
                    | NodeKind::Output
                    | NodeKind::CheckExpand => s.push_str(" (expand)"),
                    NodeKind::ResourceValidate { .. } | NodeKind::Provider { .. } => {}
                    NodeKind::ResourceInstance { key: k, .. } => key(&mut s, k),
                    NodeKind::ResourceInstanceDestroy { key: k, .. } => {
                        key(&mut s, k);
                        s.push_str(" (destroy)");
                    }
                    NodeKind::ResourceInstanceDestroyDeposed { key: k, deposed, .. } => {
                        key(&mut s, k);
                        let _ = write!(s, " (destroy deposed {deposed})");
                    }
                    NodeKind::ResourceInstanceForget { key: k, .. } => {
                        key(&mut s, k);
                        s.push_str(" (forget)");
                    }
                    NodeKind::ResourceInstanceForgetDeposed { key: k, deposed, .. } => {
                        key(&mut s, k);
                        let _ = write!(s, " (forget deposed {deposed})");
                    }
                    NodeKind::ResourceInstanceOrphan { key: k, .. } => {
                        key(&mut s, k);
                        s.push_str(" (orphan)");
                    }
                    NodeKind::ResourceInstanceDeposed { key: k, deposed, .. } => {
                        key(&mut s, k);
                        let _ = write!(s, " (deposed {deposed})");
                    }
                    NodeKind::ProviderProxy { .. } => s.push_str(" (proxy)"),
                    NodeKind::ProviderClose { .. } | NodeKind::EphemeralClose => s.push_str(" (close)"),
                    NodeKind::VariableValidation => s.push_str(" (validation)"),
                    NodeKind::CheckReport => s.push_str(" (report)"),
                    NodeKind::RootVariable
                    | NodeKind::ModuleExpand
                    | NodeKind::ModuleClose
                    | NodeKind::Root
                    | NodeKind::OutputDestroy => unreachable!("handled above"),
                }
            }
        }
        s
    }

    /// The absolute address of the object, without Terraform's suffixes:
    /// `module.a.aws_instance.web[0]`, `module.a.provider["…"]`, `module.a` for module nodes,
    /// empty for `root`.
    pub fn address(&self) -> String {
        let key = match &self.kind {
            NodeKind::ResourceInstance { key, .. }
            | NodeKind::ResourceInstanceDestroy { key, .. }
            | NodeKind::ResourceInstanceDestroyDeposed { key, .. }
            | NodeKind::ResourceInstanceForget { key, .. }
            | NodeKind::ResourceInstanceForgetDeposed { key, .. }
            | NodeKind::ResourceInstanceOrphan { key, .. }
            | NodeKind::ResourceInstanceDeposed { key, .. } => key.as_ref(),
            _ => None,
        };
        match &self.kind {
            NodeKind::ModuleExpand | NodeKind::ModuleClose => self.module.to_string(),
            NodeKind::Root => String::new(),
            _ => {
                let mut s = String::with_capacity(self.addr.len() + 40);
                self.write_prefix(&mut s);
                s.push_str(&self.addr);
                if let Some(k) = key {
                    let _ = write!(s, "{k}");
                }
                s
            }
        }
    }

    /// A short stable word for the kind, for JSON consumers and the page (`resource`,
    /// `resource_instance`, `provider`, `module_close`, …).
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::ResourceExpand { .. } => "resource",
            NodeKind::ResourceValidate { .. } => "resource_validate",
            NodeKind::ResourceInstance { .. } => "resource_instance",
            NodeKind::ResourceInstanceDestroy { .. } => "resource_instance_destroy",
            NodeKind::ResourceInstanceDestroyDeposed { .. } => "resource_instance_destroy_deposed",
            NodeKind::ResourceInstanceForget { .. } => "resource_instance_forget",
            NodeKind::ResourceInstanceForgetDeposed { .. } => "resource_instance_forget_deposed",
            NodeKind::ResourceInstanceOrphan { .. } => "resource_instance_orphan",
            NodeKind::ResourceInstanceDeposed { .. } => "resource_instance_deposed",
            NodeKind::Provider { .. } => "provider",
            NodeKind::ProviderProxy { .. } => "provider_proxy",
            NodeKind::ProviderClose { .. } => "provider_close",
            NodeKind::RootVariable => "root_variable",
            NodeKind::ModuleVariable => "module_variable",
            NodeKind::VariableValidation => "variable_validation",
            NodeKind::Local => "local",
            NodeKind::Output => "output",
            NodeKind::ModuleExpand => "module_expand",
            NodeKind::ModuleClose => "module_close",
            NodeKind::Root => "root",
            NodeKind::CheckExpand => "check",
            NodeKind::CheckReport => "check_report",
            NodeKind::EphemeralClose => "ephemeral_close",
            NodeKind::OutputDestroy => "output_destroy",
        }
    }

    /// Terraform's Go type for `StringWithNodeTypes()` in the plan graph.
    pub fn go_type(&self) -> &'static str {
        match &self.kind {
            NodeKind::ResourceExpand { .. } => "*terraform.nodeExpandPlannableResource",
            NodeKind::ResourceValidate { .. } => "*terraform.NodeValidatableResource",
            NodeKind::ResourceInstance { .. } => "*terraform.NodeApplyableResourceInstance",
            NodeKind::ResourceInstanceDestroy { .. } => "*terraform.NodeDestroyResourceInstance",
            NodeKind::ResourceInstanceDestroyDeposed { .. } => "*terraform.NodeDestroyDeposedResourceInstanceObject",
            NodeKind::ResourceInstanceForget { .. } => "*terraform.NodeForgetResourceInstance",
            NodeKind::ResourceInstanceForgetDeposed { .. } => "*terraform.NodeForgetDeposedResourceInstanceObject",
            NodeKind::ResourceInstanceOrphan { .. } => "*terraform.NodePlannableResourceInstanceOrphan",
            NodeKind::ResourceInstanceDeposed { .. } => "*terraform.NodePlanDeposedResourceInstanceObject",
            NodeKind::Provider { .. } => "*terraform.NodeApplyableProvider",
            NodeKind::ProviderProxy { .. } => "*terraform.graphNodeProxyProvider",
            NodeKind::ProviderClose { .. } => "*terraform.graphNodeCloseProvider",
            NodeKind::RootVariable => "*terraform.NodeRootVariable",
            NodeKind::ModuleVariable => "*terraform.nodeExpandModuleVariable",
            NodeKind::VariableValidation => "*terraform.nodeVariableValidation",
            NodeKind::Local => "*terraform.nodeExpandLocal",
            NodeKind::Output => "*terraform.nodeExpandOutput",
            NodeKind::ModuleExpand => "*terraform.nodeExpandModule",
            NodeKind::ModuleClose | NodeKind::Root => "*terraform.nodeCloseModule",
            NodeKind::CheckExpand => "*terraform.nodeExpandCheck",
            NodeKind::CheckReport => "*terraform.nodeReportCheck",
            NodeKind::EphemeralClose => "*terraform.nodeEphemeralResourceClose",
            NodeKind::OutputDestroy => "*terraform.NodeDestroyableOutput",
        }
    }

    /// The resource mode of a resource-like node.
    pub fn resource_mode(&self) -> Option<ResourceMode> {
        match &self.kind {
            NodeKind::ResourceExpand { mode }
            | NodeKind::ResourceValidate { mode }
            | NodeKind::ResourceInstance { mode, .. }
            | NodeKind::ResourceInstanceForget { mode, .. }
            | NodeKind::ResourceInstanceOrphan { mode, .. }
            | NodeKind::ResourceInstanceDestroy { mode, .. }
            | NodeKind::ResourceInstanceDestroyDeposed { mode, .. }
            | NodeKind::ResourceInstanceForgetDeposed { mode, .. }
            | NodeKind::ResourceInstanceDeposed { mode, .. } => Some(*mode),
            _ => None,
        }
    }

    /// The resource's config address (`module.a.aws_instance.web`: no instance keys) of a
    /// resource-like node.
    pub fn config_resource_address(&self) -> Option<String> {
        self.resource_mode()?;
        Some(if self.module.is_root() { self.addr.to_string() } else { format!("{}.{}", self.module, self.addr) })
    }

    /// Whether this node stands for a resource (Terraform `GraphNodeConfigResource` or
    /// `GraphNodeResourceInstance`): what the resource-only graph keeps.
    pub fn is_resource(&self) -> bool {
        self.resource_mode().is_some()
    }

    /// Whether this is a resource *instance* node (`GraphNodeResourceInstance`).
    pub fn is_resource_instance(&self) -> bool {
        matches!(
            self.kind,
            NodeKind::ResourceInstance { .. }
                | NodeKind::ResourceInstanceDestroy { .. }
                | NodeKind::ResourceInstanceDestroyDeposed { .. }
                | NodeKind::ResourceInstanceForget { .. }
                | NodeKind::ResourceInstanceForgetDeposed { .. }
                | NodeKind::ResourceInstanceOrphan { .. }
                | NodeKind::ResourceInstanceDeposed { .. }
        )
    }

    /// Terraform `GraphNodeDestroyer`: destroy nodes use only their own state, so the reference
    /// and module-expansion transformers never connect them.
    pub fn is_destroyer(&self) -> bool {
        // `NodePlanDeposedResourceInstanceObject` and the forget nodes have `DestroyAddr()` too.
        matches!(
            self.kind,
            NodeKind::ResourceInstanceDestroy { .. }
                | NodeKind::ResourceInstanceDestroyDeposed { .. }
                | NodeKind::ResourceInstanceForget { .. }
                | NodeKind::ResourceInstanceForgetDeposed { .. }
                | NodeKind::ResourceInstanceDeposed { .. }
        )
    }

    /// Terraform `GraphNodeProvider` (configurations and proxies): the provider address.
    pub fn provider_addr(&self) -> Option<String> {
        match &self.kind {
            NodeKind::Provider { .. } | NodeKind::ProviderProxy { .. } => Some(self.address()),
            _ => None,
        }
    }

    /// Whether the node has a `References()` method in Terraform (`GraphNodeReferencer`),
    /// whether or not it refers to anything here.
    pub fn is_referencer(&self) -> bool {
        match &self.kind {
            NodeKind::ResourceExpand { .. }
            | NodeKind::ResourceValidate { .. }
            | NodeKind::ResourceInstance { .. }
            | NodeKind::ResourceInstanceDestroy { .. }
            | NodeKind::ResourceInstanceDestroyDeposed { .. }
            | NodeKind::ResourceInstanceForget { .. }
            | NodeKind::ResourceInstanceForgetDeposed { .. }
            | NodeKind::ResourceInstanceOrphan { .. }
            | NodeKind::ResourceInstanceDeposed { .. }
            | NodeKind::Provider { .. }
            | NodeKind::ModuleVariable
            | NodeKind::VariableValidation
            | NodeKind::Local
            | NodeKind::Output
            | NodeKind::ModuleExpand
            | NodeKind::CheckExpand => true,
            NodeKind::ProviderProxy { .. }
            | NodeKind::ProviderClose { .. }
            | NodeKind::RootVariable
            | NodeKind::ModuleClose
            | NodeKind::Root
            | NodeKind::CheckReport
            | NodeKind::EphemeralClose
            | NodeKind::OutputDestroy => false,
        }
    }

    /// Terraform `GraphNodeReferenceable.ReferenceableAddrs()` with `vertexReferenceablePath`:
    /// the `(module, address)` keys under which references find this node.
    ///
    /// * resources: their resource address; instances also their instance address;
    /// * variables, validations and locals: `var.x`, `local.x` in their module;
    /// * a child module's outputs: `module.m` and `module.m.o`, in the *calling* module
    ///   (`ReferenceOutside`); root outputs cannot be referenced;
    /// * a module's expand and close nodes: `module.m` in the calling module.
    pub fn referenceable_keys(&self) -> Vec<(ModulePath, String)> {
        let mut out = Vec::new();
        self.visit_referenceable_keys(|scope, key| {
            let module = match scope {
                KeyScope::Own => self.module.0.to_vec(),
                KeyScope::Caller => self.module.0[..self.module.0.len() - 1].to_vec(),
            };
            out.push((ModulePath(module), key.to_string()));
        });
        out
    }

    /// [`Node::referenceable_keys`] without allocating for the common keys: each key with the
    /// module it is in, this node's own or its caller (`self.module` minus its last call).
    pub(crate) fn visit_referenceable_keys(&self, mut f: impl FnMut(KeyScope, RefKey)) {
        let call = || self.module.0.last().map(String::as_str).unwrap_or_default();
        match &self.kind {
            NodeKind::ResourceExpand { .. } | NodeKind::ResourceValidate { .. } => {
                f(KeyScope::Own, RefKey::Shared(self.addr.clone()))
            }
            NodeKind::ResourceInstance { key: Some(k), .. } => {
                f(KeyScope::Own, RefKey::Owned(format!("{}{k}", self.addr)));
                f(KeyScope::Own, RefKey::Shared(self.addr.clone()));
            }
            NodeKind::ResourceInstance { key: None, .. } => f(KeyScope::Own, RefKey::Shared(self.addr.clone())),
            NodeKind::RootVariable | NodeKind::ModuleVariable | NodeKind::VariableValidation | NodeKind::Local => {
                f(KeyScope::Own, RefKey::Shared(self.addr.clone()))
            }
            NodeKind::Output if self.module.is_root() => {}
            NodeKind::Output => {
                let c = call();
                let out = self.addr.strip_prefix("output.").unwrap_or(&self.addr);
                f(KeyScope::Caller, RefKey::Owned(format!("module.{c}")));
                f(KeyScope::Caller, RefKey::Owned(format!("module.{c}.{out}")));
            }
            NodeKind::ModuleExpand | NodeKind::ModuleClose if self.module.is_root() => {
                f(KeyScope::Own, RefKey::Owned("module.".to_string()))
            }
            NodeKind::ModuleExpand | NodeKind::ModuleClose => {
                f(KeyScope::Caller, RefKey::Owned(format!("module.{}", call())))
            }
            // Destroy-phase keys (`aws_instance.a#destroy`) belong to the apply graph's
            // destroy nodes; the apply builder adds them (Terraform `ResourceInstancePhase`).
            // Forget nodes (and orphans) are referenceable in Terraform by their instance
            // address, but every such node is a destroyer or has no block to be referred to
            // by a valid configuration, and `ReferenceTransformer` connects no reference to a
            // destroyer: no key, no edge either way.
            NodeKind::ResourceInstanceDestroy { .. }
            | NodeKind::ResourceInstanceDestroyDeposed { .. }
            | NodeKind::ResourceInstanceForget { .. }
            | NodeKind::ResourceInstanceForgetDeposed { .. }
            | NodeKind::ResourceInstanceOrphan { .. }
            | NodeKind::ResourceInstanceDeposed { .. }
            | NodeKind::Provider { .. }
            | NodeKind::ProviderProxy { .. }
            | NodeKind::ProviderClose { .. }
            | NodeKind::Root
            | NodeKind::CheckExpand
            | NodeKind::CheckReport
            | NodeKind::EphemeralClose
            | NodeKind::OutputDestroy => {}
        }
    }

    /// Terraform `vertexReferencePath`: the module in which this node's references are looked up.
    /// A module variable's and a module expansion's expressions are written in the calling
    /// module; everything else refers from its own module.
    pub fn reference_path(&self) -> ModulePath {
        ModulePath(self.reference_path_slice().to_vec())
    }

    /// [`Node::reference_path`] as a slice of this node's own module path.
    pub(crate) fn reference_path_slice(&self) -> &[String] {
        match &self.kind {
            NodeKind::ModuleVariable | NodeKind::ModuleExpand => {
                &self.module.0[..self.module.0.len().saturating_sub(1)]
            }
            _ => &self.module.0,
        }
    }

    /// Terraform `GraphNodeDotter`: the DOT attributes of the node line in `-type=plan` output,
    /// or `None` for nodes Terraform does not draw (their edges are still drawn).
    pub fn dot_attrs(&self) -> Option<DotAttrs> {
        let attrs = |label: String, shape: &str| {
            Some(DotAttrs::from([("label".to_string(), label), ("shape".to_string(), shape.to_string())]))
        };
        match &self.kind {
            // NodeAbstractResource.DotNode labels with the resource's configuration address (its
            // Name(): Go calls the embedded type's, not the instance's), so module instance keys
            // are left out too: `module.m.aws_x.y` for `module.m[0].aws_x.y[1]`.
            NodeKind::ResourceExpand { .. }
            | NodeKind::ResourceValidate { .. }
            | NodeKind::ResourceInstance { .. }
            | NodeKind::ResourceInstanceDestroy { .. }
            | NodeKind::ResourceInstanceDestroyDeposed { .. }
            | NodeKind::ResourceInstanceForget { .. }
            | NodeKind::ResourceInstanceForgetDeposed { .. }
            | NodeKind::ResourceInstanceOrphan { .. }
            | NodeKind::ResourceInstanceDeposed { .. } => {
                let module: String = self.module.0.iter().map(|m| format!("module.{m}.")).collect();
                attrs(format!("{module}{}", self.addr), "box")
            }
            NodeKind::Provider { .. } => attrs(self.name(), "diamond"),
            NodeKind::RootVariable => attrs(self.name(), "note"),
            _ => None,
        }
    }
}

/// The capabilities that need the configuration: what a node refers to and which provider it
/// asks for.
impl Node {
    /// Terraform `GraphNodeReferencer.References()`: the references this node's expressions
    /// make, to be looked up in [`Node::reference_path`].
    ///
    /// * resources: everything the loader lists for the block (`depends_on`, count, for_each,
    ///   `replace_triggered_by`, the whole body with nested and `dynamic` blocks, connection,
    ///   create-time provisioners, conditions). Terraform reads the body through the provider
    ///   schema and ignores attributes the schema lacks; with no schemas, every attribute counts
    ///   (see the module docs of [`crate::graph`]);
    /// * a module input: the argument expression in the calling module;
    /// * a variable validation: its conditions and messages, minus the variable itself;
    /// * locals and outputs: their expressions (outputs also `depends_on` and preconditions);
    /// * a module expansion: the call's `depends_on`, count and for_each;
    /// * a provider configuration: its body;
    /// * a check: its assertions, and its scoped data source.
    ///
    /// Destroy nodes list nothing here: the apply builder gives them their destroy-time
    /// provisioner references (Terraform only uses those for the destroy node).
    pub fn references<'c>(&self, cx: &BuildContext<'c>) -> Vec<&'c Reference> {
        let mut out = Vec::new();
        self.visit_references(cx, |r| out.push(r));
        out
    }

    /// [`Node::references`], each handed to `f` (no list is made).
    pub(crate) fn visit_references<'c>(&self, cx: &BuildContext<'c>, f: impl FnMut(&'c Reference)) {
        let Some(config) = self.config else { return };
        let list: &'c [Reference] = match (&self.kind, config) {
            (
                NodeKind::ResourceExpand { .. }
                | NodeKind::ResourceValidate { .. }
                | NodeKind::ResourceInstance { .. }
                | NodeKind::ResourceInstanceOrphan { .. }
                | NodeKind::ResourceInstanceDeposed { .. },
                c,
            ) => cx.resource_of(&c).map(|r| r.references.as_slice()).unwrap_or_default(),
            (NodeKind::ModuleVariable, ConfigRef::ModuleVariable { parent, call, argument: Some(a), .. }) => {
                &cx.module_call(parent, call).arguments[a as usize].expr.references
            }
            (NodeKind::VariableValidation, c) => {
                let rules = match c {
                    ConfigRef::Variable { module, index } => &cx.variable(module, index).validations,
                    ConfigRef::ModuleVariable { variable: Some((m, v)), .. } => &cx.variable(m, v).validations,
                    _ => return,
                };
                rules
                    .iter()
                    .flat_map(|r| {
                        r.condition.references.iter().chain(r.error_message.iter().flat_map(|e| e.references.iter()))
                    })
                    .filter(|r| r.subject.to_string() != *self.addr)
                    .for_each(f);
                return;
            }
            (NodeKind::Local, ConfigRef::Local { module, index }) => &cx.local(module, index).expr.references,
            // Root outputs refer to nothing while destroying (`nodeExpandOutput.References`).
            (NodeKind::Output, _) if self.module.is_root() && cx.options.walk().is_destroy() => return,
            (NodeKind::Output, ConfigRef::Output { module, index }) => &cx.output(module, index).references,
            (NodeKind::ModuleExpand, ConfigRef::ModuleCall { parent, call }) => {
                &cx.module_call(parent, call).references
            }
            (NodeKind::Provider { .. }, ConfigRef::Provider { module, index }) => {
                &cx.provider(module, index).references
            }
            (NodeKind::CheckExpand, ConfigRef::Check { module, index }) => &cx.check(module, index).references,
            _ => return,
        };
        list.iter().for_each(f);
    }

    /// Whether the node needs a configured provider: false where Terraform's `ProvidedBy()`
    /// returns `(nil, true)` ("this node does not require a configured provider"), which is a
    /// data source's state object being dropped: the apply graph's destroy
    /// (`NodeDestroyResourceInstance`) and forget (`NodeForgetResourceInstance`) nodes, and the
    /// plan's orphan (`NodePlannableResourceInstanceOrphan`); a data source is removed from
    /// the state without a provider call. Plan-destroy's node (`NodePlanDestroyableResourceInstance`)
    /// does not override `ProvidedBy`, so its data sources keep their provider. Such nodes still
    /// make `MissingProviderTransformer` add a default configuration (it asks `Provider()`,
    /// not `ProvidedBy()`), which is pruned if nothing else uses it.
    pub fn needs_provider(&self, cx: &BuildContext<'_>) -> bool {
        let data = self.resource_mode() == Some(ResourceMode::Data);
        match self.kind {
            NodeKind::ResourceInstanceDestroy { .. } => {
                !(data && matches!(cx.options.walk(), super::Walk::Apply | super::Walk::Destroy))
            }
            NodeKind::ResourceInstanceForget { .. } | NodeKind::ResourceInstanceOrphan { .. } => !data,
            _ => self.is_resource(),
        }
    }

    /// Terraform `GraphNodeProviderConsumer.ProvidedBy()`: which provider configuration a
    /// resource-like node needs. From configuration: the `provider` argument's local name and
    /// alias, else the type's prefix, mapped to a source address through the module's
    /// `required_providers`; inheritance from parent modules allowed. Without configuration:
    /// the exact provider recorded in the state. `None` for nodes that use no provider.
    pub fn provider_request(&self, cx: &BuildContext<'_>) -> Option<ProviderRequest> {
        if !self.is_resource() {
            return None;
        }
        if let Some(c) = &self.config {
            if let Some(resource) = cx.resource_of(c) {
                let p = &resource.provider;
                let fqn = if !p.fqn.is_empty() {
                    cx.str(&p.fqn)
                } else {
                    // The module the block is written in (the node's own, unless it came from
                    // the state with no block).
                    let module = match *c {
                        ConfigRef::Resource { module, .. } | ConfigRef::CheckData { module, .. } => Some(module),
                        _ => None,
                    }
                    .filter(|&m| *cx.modules[m as usize].path == *self.module)
                    .or_else(|| cx.module_index.get(&*self.module).copied());
                    match module {
                        Some(m) => cx.provider_fqn_shared(m, &p.local_name),
                        None => cx.implied_fqn_shared(&p.local_name),
                    }
                };
                return Some(ProviderRequest {
                    fqn,
                    alias: p.alias.as_deref().map(|a| cx.str(a)),
                    module: Arc::clone(&self.module),
                    exact: false,
                    range: p.range.as_ref().map(|r| cx.names.span(r)),
                });
            }
        }
        if let Some(addr) = &self.state_provider {
            let (module, fqn, alias) = cx.parsed_provider_address(addr)?;
            return Some(ProviderRequest { fqn, alias, module, exact: true, range: None });
        }
        // No configuration and no state: the implied provider of the type, as Terraform's
        // `NodeAbstractResource.Provider()` falls back to.
        let mode = self.resource_mode().unwrap_or(ResourceMode::Managed);
        let type_name = self.addr.strip_prefix(mode.prefix()).unwrap_or(&self.addr);
        let local = type_name.split('_').next().unwrap_or(type_name);
        Some(ProviderRequest {
            fqn: cx.implied_fqn_shared(local),
            alias: None,
            module: Arc::clone(&self.module),
            exact: false,
            range: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: NodeKind, module: &[&str], addr: &str) -> Node {
        Node::new(kind, ModulePath(module.iter().map(|s| s.to_string()).collect()), addr, None)
    }

    #[test]
    fn names_follow_terraform_1_15() {
        let m = ResourceMode::Managed;
        let cases = [
            (node(NodeKind::ResourceExpand { mode: m }, &[], "aws_instance.web"), "aws_instance.web (expand)"),
            (
                node(NodeKind::ResourceExpand { mode: m }, &["a", "b"], "aws_instance.web"),
                "module.a.module.b.aws_instance.web (expand)",
            ),
            (node(NodeKind::ResourceValidate { mode: m }, &["a"], "aws_instance.web"), "module.a.aws_instance.web"),
            (node(NodeKind::ResourceInstance { mode: m, key: Some(InstanceKey::Int(0)) }, &[], "a.b"), "a.b[0]"),
            (
                node(
                    NodeKind::ResourceInstanceDestroy { mode: m, key: Some(InstanceKey::Str("k".into())) },
                    &[],
                    "a.b",
                ),
                "a.b[\"k\"] (destroy)",
            ),
            (
                node(
                    NodeKind::ResourceInstanceDestroyDeposed { mode: m, key: None, deposed: "1a2b3c4d".into() },
                    &[],
                    "a.b",
                ),
                "a.b (destroy deposed 1a2b3c4d)",
            ),
            (
                node(NodeKind::ResourceInstanceForget { mode: m, key: Some(InstanceKey::Int(0)) }, &[], "a.b"),
                "a.b[0] (forget)",
            ),
            (
                node(
                    NodeKind::ResourceInstanceForgetDeposed { mode: m, key: None, deposed: "1a2b3c4d".into() },
                    &["m"],
                    "a.b",
                ),
                "module.m.a.b (forget deposed 1a2b3c4d)",
            ),
            (
                node(NodeKind::ResourceInstanceOrphan { mode: m, key: Some(InstanceKey::Int(2)) }, &[], "a.b"),
                "a.b[2] (orphan)",
            ),
            (
                node(NodeKind::ResourceInstanceDeposed { mode: m, key: None, deposed: "00000001".into() }, &[], "a.b"),
                "a.b (deposed 00000001)",
            ),
            (
                node(
                    NodeKind::Provider { fqn: "x".into(), alias: None },
                    &["m"],
                    "provider[\"registry.terraform.io/hashicorp/aws\"]",
                ),
                "module.m.provider[\"registry.terraform.io/hashicorp/aws\"]",
            ),
            (
                node(NodeKind::ProviderClose { fqn: "x".into(), alias: Some("w".into()) }, &[], "provider[\"x\"].w"),
                "provider[\"x\"].w (close)",
            ),
            (node(NodeKind::RootVariable, &[], "var.foo"), "var.foo"),
            (node(NodeKind::ModuleVariable, &["m"], "var.in"), "module.m.var.in (expand)"),
            (node(NodeKind::VariableValidation, &["m"], "var.in"), "module.m.var.in (validation)"),
            (node(NodeKind::VariableValidation, &[], "var.in"), "var.in (validation)"),
            (node(NodeKind::Local, &[], "local.x"), "local.x (expand)"),
            (node(NodeKind::Output, &[], "output.o"), "output.o (expand)"),
            (node(NodeKind::Output, &["m"], "output.o"), "module.m.output.o (expand)"),
            (node(NodeKind::ModuleExpand, &["m", "n"], ""), "module.m.module.n (expand)"),
            (node(NodeKind::ModuleClose, &["m"], ""), "module.m (close)"),
            (node(NodeKind::Root, &[], ""), "root"),
            (node(NodeKind::CheckExpand, &[], "check.c"), "check.c (expand)"),
            (node(NodeKind::CheckReport, &["m"], "check.c"), "module.m.check.c (report)"),
            (node(NodeKind::EphemeralClose, &[], "ephemeral.x.y"), "ephemeral.x.y (close)"),
        ];
        for (n, want) in cases {
            assert_eq!(n.name(), want);
        }
    }

    #[test]
    fn outputs_and_module_nodes_are_keyed_in_the_calling_module() {
        let out = node(NodeKind::Output, &["a", "b"], "output.o");
        let keys: Vec<String> = out.referenceable_keys().iter().map(|(m, k)| format!("{m}|{k}")).collect();
        assert_eq!(keys, ["module.a|module.b", "module.a|module.b.o"]);
        assert!(node(NodeKind::Output, &[], "output.o").referenceable_keys().is_empty());
        let close = node(NodeKind::ModuleClose, &["a"], "");
        assert_eq!(close.referenceable_keys(), vec![(ModulePath::root(), "module.a".to_string())]);
        assert_eq!(node(NodeKind::ModuleVariable, &["a"], "var.x").reference_path(), ModulePath::root());
    }
}
