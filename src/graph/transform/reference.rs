//! `ReferenceTransformer` (`internal/terraform/transform_reference.go`): an edge from every node
//! to each node its expressions refer to.
//!
//! Every referenceable node is filed under `(module, address)` keys ([`ReferenceMap`], built
//! once: O(V)); every reference is looked up under the referring node's reference path
//! ([`Node::reference_path`](crate::graph::Node::reference_path)) with Terraform's fallbacks
//! (`referenceMapKey`): an instance (`aws_instance.a[0]`) falls back to its resource, a module
//! instance output (`module.m[0].out`) to the output and then to the whole call, a module
//! instance to the call. References that match nothing make no edge (undeclared names are
//! reported when evaluating, not here).
//!
//! Not connected: a node to itself; destroy nodes, as referrers or as targets (they use only
//! their state); resource instances in *different instances* of the same module.
//!
//! In the plan, a resource's expand node also refers to what the `import` blocks targeting it
//! refer to (Terraform's `GraphNodeImportReferencer`).
//!
//! A reference to a whole module call (`module.m`, in `depends_on` or an expression) reaches
//! `module.m (expand)`, `module.m (close)` and every output of `m`: "after everything in m".
//!
//! This step makes an edge per reference (about two per resource on real configurations), so
//! it allocates as little as it can per reference: modules are numbered once, keys are the
//! nodes' own shared addresses where possible, lookups format the subject into one reused
//! buffer, and each edge's reason shares its file name and context with the others.

use super::{BuildContext, Transform};
use crate::addrs::{ModulePath, Subject};
use crate::config::Reference;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, KeyScope, Node, NodeKind, RefKey};
use crate::graph::shared::{FastMap, SharedStr};
use crate::graph::{TfGraph, Why};
use std::borrow::Borrow;
use std::fmt::Write;
use std::hash::{Hash, Hasher};

pub struct ReferenceTransformer;

/// A key of the map: a node's shared address, or a key made for it (`module.m.out`).
/// Hashes and compares as its text, so lookups go by `&str`.
struct Key(RefKey);

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.as_str().hash(h)
    }
}

/// The nodes filed under one key, in insertion order (usually one: no list allocated).
enum Ids {
    One(NodeId),
    Many(Vec<NodeId>),
}

impl Ids {
    fn as_slice(&self) -> &[NodeId] {
        match self {
            Ids::One(id) => std::slice::from_ref(id),
            Ids::Many(v) => v,
        }
    }

    fn push(&mut self, id: NodeId) {
        match self {
            Ids::Many(v) => v.push(id),
            Ids::One(first) => *self = Ids::Many(vec![*first, id]),
        }
    }
}

/// Referenceable nodes by module, then by address (Terraform `ReferenceMap`, keyed
/// `"<module>|<address>"` there). Modules are numbered in the order first seen.
#[derive(Default)]
pub struct ReferenceMap<'g> {
    modules: FastMap<&'g [String], u32>,
    keys: Vec<FastMap<Key, Ids>>,
}

impl<'g> ReferenceMap<'g> {
    /// Files every node of `g` under its [`Node::referenceable_keys`]. O(V).
    pub fn new(g: &'g TfGraph) -> Self {
        let mut map = ReferenceMap::default();
        for id in g.ids() {
            let n = g.node(id);
            let own: &'g [String] = &n.module.0;
            n.visit_referenceable_keys(|scope, key| {
                let path = match scope {
                    KeyScope::Own => own,
                    KeyScope::Caller => &own[..own.len() - 1],
                };
                let m = map.module_id(path);
                match map.keys[m as usize].entry(Key(key)) {
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(Ids::One(id));
                    }
                    std::collections::hash_map::Entry::Occupied(mut e) => e.get_mut().push(id),
                }
            });
        }
        map
    }

    fn module_id(&mut self, path: &'g [String]) -> u32 {
        let next = self.keys.len() as u32;
        let id = *self.modules.entry(path).or_insert(next);
        if id == next {
            self.keys.push(FastMap::default());
        }
        id
    }

    fn get(&self, module: Option<u32>, key: &str) -> Option<&[NodeId]> {
        self.keys[module? as usize].get(key).map(Ids::as_slice)
    }

    /// The nodes a subject refers to from the module numbered `module` (`None`: a module with
    /// nothing referenceable), with Terraform's fallbacks. `buf` is scratch space.
    fn lookup_in(&self, module: Option<u32>, subject: &Subject, buf: &mut String) -> &[NodeId] {
        module.map_or(&[], |_| {
            buf.clear();
            let _ = write!(buf, "{subject}");
            if let Some(v) = self.get(module, buf) {
                return v;
            }
            // Terraform's fallbacks: the subject without its instance key, then the whole call.
            buf.clear();
            let _ = match subject {
                Subject::ResourceInstance(r, _) => write!(buf, "{r}"),
                Subject::ModuleCallInstance(m, _) => write!(buf, "module.{m}"),
                Subject::ModuleCallOutput { call, key: Some(_), output } => {
                    let _ = write!(buf, "module.{call}.{output}");
                    if let Some(v) = self.get(module, buf) {
                        return v;
                    }
                    buf.clear();
                    write!(buf, "module.{call}")
                }
                Subject::ModuleCallOutput { call, key: None, .. } => write!(buf, "module.{call}"),
                _ => return &[],
            };
            self.get(module, buf).unwrap_or(&[])
        })
    }

    /// The nodes a subject refers to from `module`, with Terraform's fallbacks.
    pub fn lookup(&self, module: &ModulePath, subject: &Subject) -> &[NodeId] {
        self.lookup_in(self.modules.get(&module.0[..]).copied(), subject, &mut String::new())
    }

    /// The nodes a plain address string refers to from `module`, without fallbacks.
    pub fn lookup_key(&self, module: &ModulePath, key: &str) -> &[NodeId] {
        self.get(self.modules.get(&module.0[..]).copied(), key).unwrap_or(&[])
    }
}

/// The edge reason for one reference made by `n`; file names and contexts are shared.
pub fn why_for(cx: &BuildContext, n: &Node, r: &Reference) -> Why {
    let traversal = SharedStr::from(r.traversal.as_str());
    let range = cx.names.span(&r.range);
    if r.context == "depends_on" {
        return Why::DependsOn { traversal, range };
    }
    match n.kind {
        NodeKind::ModuleVariable => {
            Why::Reference { traversal, context: cx.str(&format!("the module argument {}", r.context)), range }
        }
        NodeKind::Provider { .. } => Why::ProviderConfigReference { traversal, context: cx.str(&r.context), range },
        _ => Why::Reference { traversal, context: cx.str(&r.context), range },
    }
}

/// Terraform `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`.
fn different_instances_of_same_module(a: &Node, b: &Node) -> bool {
    if !a.is_resource_instance() || !b.is_resource_instance() || a.module != b.module {
        return false;
    }
    match (&a.module_instance, &b.module_instance) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// Lookups with more targets than this are split by module instance ([`Split`]); shorter ones
/// are filtered as they are read.
const SPLIT_ABOVE: usize = 16;

/// One lookup's targets split by module instance. A reference from inside a module with count
/// falls back to the whole resource, i.e. its instances in every instance of the module, of
/// which only those in the referrer's own module instance connect: filtering them per
/// referrer made this step quadratic in apply graphs (9,000 subnets seen by each of 80,000
/// servers at 100k resources). Positions keep the lookup's order, so edges come out as before.
struct Split<'g> {
    /// Targets that are not resource instances of a module instance: every referrer meets them.
    free: Vec<(usize, NodeId)>,
    /// Resource instances of module instances, by module, then module instance.
    bound: FastMap<&'g [String], FastMap<&'g str, Vec<(usize, NodeId)>>>,
}

impl<'g> Split<'g> {
    fn new(g: &'g TfGraph, targets: &[NodeId]) -> Self {
        let mut split = Split { free: Vec::new(), bound: FastMap::default() };
        for (pos, &t) in targets.iter().enumerate() {
            let node = g.node(t);
            match &node.module_instance {
                Some(mi) if node.is_resource_instance() => {
                    split.bound.entry(&node.module.0[..]).or_default().entry(mi.as_str()).or_default().push((pos, t))
                }
                _ => split.free.push((pos, t)),
            }
        }
        split
    }

    /// The targets a resource instance in `instance` of `module` may connect to, in lookup order.
    fn for_referrer(&self, module: &[String], instance: &str) -> Vec<NodeId> {
        let mut out = self.free.clone();
        for (&m, by_instance) in &self.bound {
            if m == module {
                out.extend(by_instance.get(instance).into_iter().flatten());
            } else {
                out.extend(by_instance.values().flatten());
            }
        }
        out.sort_unstable_by_key(|&(pos, _)| pos);
        out.into_iter().map(|(_, t)| t).collect()
    }
}

impl Transform for ReferenceTransformer {
    fn name(&self) -> &'static str {
        "ReferenceTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        {
            let map = ReferenceMap::new(g);
            let mut buf = String::new();
            // By the lookup result's address and length (the map does not change here).
            let mut splits: FastMap<(usize, usize), Split> = FastMap::default();
            for v in g.ids() {
                let n = g.node(v);
                if n.is_destroyer() || !n.is_referencer() {
                    continue;
                }
                let module = map.modules.get(n.reference_path_slice()).copied();
                n.visit_references(cx, |r| {
                    let targets = map.lookup_in(module, &r.subject, &mut buf);
                    let narrowed;
                    let targets = match &n.module_instance {
                        Some(mi) if targets.len() > SPLIT_ABOVE && n.is_resource_instance() => {
                            let split = splits
                                .entry((targets.as_ptr() as usize, targets.len()))
                                .or_insert_with(|| Split::new(g, targets));
                            narrowed = split.for_referrer(&n.module.0, mi);
                            &narrowed[..]
                        }
                        _ => targets,
                    };
                    for &t in targets {
                        if t == v || g.node(t).is_destroyer() || different_instances_of_same_module(n, g.node(t)) {
                            continue;
                        }
                        edges.push((v, t, why_for(cx, n, r)));
                    }
                });
                // A check refers to its own scoped data source, always.
                if let (NodeKind::CheckExpand, Some(ConfigRef::Check { module: m, index })) = (&n.kind, n.config) {
                    if let Some(d) = &cx.check(m, index).data {
                        let key = format!("data.{}.{}", d.type_name, d.name);
                        for &t in map.get(module, &key).unwrap_or(&[]) {
                            let why = Why::Reference {
                                traversal: key.as_str().into(),
                                context: cx.str("its scoped data block"),
                                range: cx.names.span(&d.range),
                            };
                            edges.push((v, t, why));
                        }
                    }
                }
            }
            import_edges(g, cx, &map, &mut buf, &mut edges);
        }
        for (from, to, why) in edges {
            g.connect(from, to, why);
        }
        Diagnostics::new()
    }
}

/// Plan: a resource's expand node refers to what the `import` blocks naming it as their `to`
/// refer to (`id`, `identity`, `for_each`: `nodeExpandPlannableResource.ImportReferences`,
/// looked up in the root module, where import blocks are): it expands them when it runs.
fn import_edges(
    g: &TfGraph,
    cx: &BuildContext,
    map: &ReferenceMap,
    buf: &mut String,
    edges: &mut Vec<(NodeId, NodeId, Why)>,
) {
    let imports = &cx.config.root.imports;
    if imports.is_empty() || cx.options.walk() != crate::graph::Walk::Plan {
        return;
    }
    let root = map.modules.get(&[][..]).copied();
    for im in imports {
        let Some(target) = crate::addrs::import_to_resource(&im.to) else { continue };
        for v in g.ids() {
            let n = g.node(v);
            if !matches!(n.kind, NodeKind::ResourceExpand { .. })
                || n.config_resource_address().as_deref() != Some(target.as_str())
            {
                continue;
            }
            for r in &im.references {
                for &t in map.lookup_in(root, &r.subject, buf) {
                    if t != v && !g.node(t).is_destroyer() {
                        let why = Why::Reference {
                            traversal: r.traversal.as_str().into(),
                            context: cx.str(&r.context),
                            range: cx.names.span(&r.range),
                        };
                        edges.push((v, t, why));
                    }
                }
            }
        }
    }
}
