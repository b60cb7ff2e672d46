//! The work of the apply graph's resource instance nodes, and the working state they write:
//! when the walk (`walk`) reaches a node that applies a change, [`ApplyNodes::start`]
//! evaluates its configuration against the working state and says what to ask the provider
//! ([`Request`]), the walk gets the provider's [`Response`] however its host can (at once and
//! after a virtual delay natively, awaiting a JS promise or a timer in wasm), and
//! [`ApplyNodes::finish`] writes the result into the working state.
//!
//! What runs when is the apply graph's alone (`apply_graph`); nothing here orders operations.

use super::live_values::{resource_key, resource_value, Hidden, Reads};
use super::objects::{Obj, Objects};
use super::serial::Serial;
use super::state_write::{configured, Configured, Moment};
use crate::addrs::ResourceMode;
use crate::config::model::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::shared;
use crate::eval::{Kind, Value};
use crate::plans::Action;
use crate::providers::{Applied, Op, PlannedChange, Provider, ProviderError};
use serde_json::Value as Json;
use shared::apply_graph::ApplyGraph;
use shared::body::{arguments_of, Body};
use shared::instance::{self, with_root_env, with_root_scope, RootEnv};
use shared::order::{self, Walkable};
use shared::plan::{InstanceChange, Plan};
use shared::scope::WalkValues;
use shared::state_read::{index_state, object_value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One provider operation of the apply.
pub struct OpNode {
    pub op: Op,
    /// Index of its change in the plan.
    pub change: usize,
    /// Absolute resource address (no key).
    pub resource: String,
    /// The instance address.
    pub instance: String,
    pub destroy: bool,
    pub(super) cbd: bool,
}

/// What to ask the provider for an operation that has started (Terraform's requests carry no
/// instance address; [`Request::ask`] is told it for the mocks).
#[derive(Clone, Debug)]
pub enum Request {
    /// `ApplyResourceChange` with no planned object: destroy `prior`.
    Delete { type_name: String, prior: Value },
    /// `ReadDataSource`.
    ReadData { type_name: String, config: Value },
    /// `PlanResourceChange` on the final configuration: Terraform plans a create or update
    /// again at apply (`managedResourceExecute`), and applies only what that plan still changes.
    Plan { type_name: String, prior: Option<Value>, config: Value },
    /// `ApplyResourceChange` of what the apply-time plan answered.
    Apply { type_name: String, prior: Option<Value>, planned: Value },
}

/// The provider's answer to a [`Request`].
#[derive(Clone, Debug)]
pub enum Response {
    Applied(Applied),
    Read(Result<Value, ProviderError>),
    Planned(Result<PlannedChange, ProviderError>),
    /// An applied object that does not keep what the plan knew: kept (tainted after a create),
    /// with one error per problem, which Terraform reports with no source range.
    Inconsistent {
        applied: Applied,
        errors: Vec<ProviderError>,
    },
}

impl Request {
    /// Asks a provider that answers at once, about `instance` (`module.a.aws_instance.web[0]`).
    pub fn ask(&self, provider: &dyn Provider, instance: &str) -> Response {
        provider.at_instance(instance);
        if let Some(response) = self.injected(provider, instance) {
            return response;
        }
        match self {
            Request::Delete { type_name, prior, .. } => {
                Response::Applied(provider.apply_resource_change(type_name, Some(prior), None))
            }
            Request::ReadData { type_name, config, .. } => Response::Read(provider.read_data_source(type_name, config)),
            Request::Plan { type_name, prior, config, .. } => {
                Response::Planned(provider.plan_resource_change(type_name, prior.as_ref(), config))
            }
            Request::Apply { type_name, prior, planned, .. } => {
                Response::Applied(provider.apply_resource_change(type_name, prior.as_ref(), Some(planned)))
            }
        }
    }
}

impl Request {
    /// The failure a mock injects at this instance, answered as the mock answers a failure by
    /// name: a failed create leaves no object, a failed update or delete keeps the prior one.
    fn injected(&self, provider: &dyn Provider, address: &str) -> Option<Response> {
        let op = match self {
            Request::Delete { .. } => Op::Delete,
            Request::ReadData { .. } => Op::ReadData,
            Request::Apply { prior, .. } => {
                if prior.is_some() {
                    Op::Update
                } else {
                    Op::Create
                }
            }
            // The mock fails its applies, not its plans.
            Request::Plan { .. } => return None,
        };
        let error = provider.injected_failure(op, address)?;
        Some(match self {
            Request::ReadData { .. } => Response::Read(Err(error)),
            Request::Delete { prior, .. } => {
                Response::Applied(Applied { new_state: Some(prior.clone()), error: Some(error) })
            }
            Request::Apply { prior, .. } | Request::Plan { prior, .. } => {
                Response::Applied(Applied { new_state: prior.clone(), error: Some(error) })
            }
        })
    }
}

/// An operation that has started: what to print, what to ask, how long the mock takes.
pub struct Started {
    pub index: usize,
    /// The object's id before the operation (updates and deletes show it).
    pub prior_id: Option<String>,
    /// The deposed object a delete destroys.
    pub deposed: Option<String>,
    /// The object's `name` (the mock provider's per-name delays).
    pub name: Option<String>,
    /// `Err`: the operation failed before reaching the provider (its configuration).
    pub request: Result<Request, Diagnostics>,
    /// The provider configuration serving it (`provider["registry.terraform.io/hashicorp/aws"].west`):
    /// the request goes to the provider [`crate::providers::route`] finds for it.
    pub provider_config: String,
}

/// How an operation ended: `Ok(Some(id))` for a created, updated or read object, `Ok(None)`
/// for a destroyed one; `Err(diagnostics)`.
pub type Outcome = Result<Option<String>, Diagnostics>;

/// The apply walk's state between steps.
pub struct ApplyNodes<'a> {
    pub(super) files: &'a BTreeMap<String, String>,
    pub(super) config: &'a Config,
    pub(super) plan: &'a Plan,
    pub(super) prior: Option<&'a Json>,
    pub(super) variables: &'a BTreeMap<String, Json>,
    pub(super) lineage: String,
    pub(super) walkables: Vec<Walkable<'a>>,
    by_addr: HashMap<String, usize>,
    pub(super) objs: Objects,
    pub ops: Vec<OpNode>,
    provider_addr: String,
    next_deposed: u32,
    /// The key each create_before_destroy create deposed its instance's current object under
    /// (by change): what the replacement's destroy destroys (Terraform pre-allocates it in
    /// `DiffTransformer` for both nodes), never another deposed object of the instance.
    deposed_under: HashMap<usize, String>,
    /// Each configured resource's dependencies and create_before_destroy (`state_write`).
    pub(super) conf: Configured,
    /// The state serial, advanced by each state write (`serial.rs`).
    pub(super) serial: Serial,
    /// Operations that ended with their result written: the outputs that read them only may
    /// have been evaluated (`state_write::Moment::Written`).
    ended: Vec<bool>,
    /// What each resource's expand node waits for (the apply graph's resource ancestors,
    /// configuration addresses) before it records the resource, empty, in the state.
    waits: HashMap<String, BTreeSet<String>>,
    /// What each root output waits for (configuration addresses).
    output_waits: HashMap<String, BTreeSet<String>>,
    /// Resources a write left with no object after their expand node had recorded them: the
    /// record is gone (Terraform removes a resource with no instances).
    emptied: std::collections::HashSet<shared::scope::ResourceKey>,
    /// The operations of each resource, by configuration address.
    ops_by_addr: HashMap<String, Vec<usize>>,
    pub added: usize,
    /// Objects `import` blocks brought in (`Apply complete! Resources: N imported, ...`).
    pub imported: usize,
    pub changed: usize,
    pub destroyed: usize,
    /// Diagnostics of failed operations, in the order they failed.
    pub diagnostics: Diagnostics,
    /// The root scope's shared parts, made once.
    env: RootEnv,
    /// Each walkable's block arguments, parsed once.
    args: Vec<Body>,
    /// What each walkable's evaluation reads, and the values built for it.
    reads: Reads,
    /// Orphans the plan deletes (not replaces): references no longer read them, as
    /// Terraform's evaluator reads only the instances of the current expansion.
    pub(super) hidden: Vec<usize>,
}

fn resource_of(c: &InstanceChange) -> String {
    if c.module.is_empty() {
        c.resource()
    } else {
        format!("{}.{}", c.module, c.resource())
    }
}

pub(super) fn str_attr(v: &Value, name: &str) -> Option<String> {
    match &v.kind {
        Kind::Object(m) => m.get(name).and_then(|x| x.as_str()).map(String::from),
        _ => None,
    }
}

impl<'a> ApplyNodes<'a> {
    /// Prepares the apply of `plan` (made from `config` and the prior state `prior`):
    /// the working state, the operations and their order.
    pub fn new(
        files: &'a BTreeMap<String, String>,
        config: &'a Config,
        plan: &'a Plan,
        prior: Option<&'a Json>,
        provider: &dyn Provider,
        variables: &'a BTreeMap<String, Json>,
        lineage: String,
    ) -> ApplyNodes<'a> {
        let mut unexpanded = Vec::new();
        let expansion_values = WalkValues::default();
        let overrides = &plan.module_overrides;
        let walkables =
            with_root_scope(files, config, variables, &expansion_values, false, overrides, &mut |root, _| {
                order::resources(
                    config,
                    overrides,
                    &mut |path, keys, call| {
                        // The instances the plan's walk expanded; a module it did not reach is
                        // evaluated here.
                        let mut call_path = path.to_vec();
                        call_path.push(call.to_string());
                        match plan.module_instances.get(&call_path) {
                            Some(list) => Some(
                                list.iter()
                                    .filter(|k| k.starts_with(keys))
                                    .filter_map(|k| k.last().cloned().flatten())
                                    .collect(),
                            ),
                            None => shared::scope::module_keys(root, path, keys, call),
                        }
                    },
                    &mut unexpanded,
                )
            });
        let by_addr: HashMap<String, usize> =
            walkables.iter().enumerate().map(|(i, w)| (w.address.clone(), i)).collect();
        // Each resource's dependencies: what its expand node descends from in the apply graph
        // (built here for a plan applied without its check; a plan with no change has none).
        let built;
        let graph = match plan.apply_graph.as_deref() {
            Some(g) => g,
            None if plan.changes.iter().all(|c| c.action == Action::NoOp) => {
                built = ApplyGraph::default();
                &built
            }
            None => {
                built = ApplyGraph::new(&shared::apply_graph::build_graph(config, plan).0, plan).unwrap_or_default();
                &built
            }
        };
        let mut deps: HashMap<String, BTreeSet<String>> = HashMap::new();
        for w in &walkables {
            deps.entry(w.config_address.clone())
                .or_insert_with(|| graph.ancestors_of(&graph.resources, &w.config_address));
        }
        let mut output_waits = HashMap::new();
        for o in &config.root.outputs {
            output_waits.insert(o.name.clone(), graph.ancestors_of(&graph.outputs, &o.name));
        }
        // What a resource's expand node waits for (`husks`).
        let waits = deps.clone();
        let hidden: Vec<usize> = plan
            .changes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.deposed.is_none() && matches!(c.action, Action::Delete | Action::Forget))
            .map(|(i, _)| i)
            .collect();
        // What each configuration may read: what its expand node descends from (its references
        // reach no further).
        let reads = Reads::new(&walkables, &deps, Hidden::new(hidden.iter().map(|&i| &plan.changes[i])));
        let resources: Vec<&crate::config::model::Resource> = walkables.iter().map(|w| w.resource).collect();
        let args = arguments_of(files, &resources).into_iter().map(Option::unwrap_or_default).collect();
        let mut objs = Objects::default();
        // The plan's prior state is the one its moves renamed.
        for ((module, mode, type_name, name), (prov, list)) in index_state(plan.prior_state.as_ref().or(prior)) {
            let mode = if mode == "data" { ResourceMode::Data } else { ResourceMode::Managed };
            let schema = if mode == ResourceMode::Data {
                provider.data_source_schema(&type_name)
            } else {
                provider.resource_schema(&type_name)
            };
            for o in list {
                objs.push(Obj {
                    module: module.clone(),
                    mode,
                    type_name: type_name.clone(),
                    name: name.clone(),
                    key: o.key.clone(),
                    deposed: o.deposed.clone(),
                    value: object_value(&o, schema),
                    deps: o.dependencies.clone(),
                    cbd: o.create_before_destroy,
                    tainted: o.tainted,
                    schema_version: schema.map(|s| s.version).unwrap_or(0),
                    provider: prov.clone(),
                });
            }
        }
        let provider_addr = format!("provider[\"{}\"]", provider.source());
        // Data sources read during the plan replace their prior objects.
        for c in &plan.data_read {
            objs.remove_where(&c.module, c.mode, &c.type_name, &c.name, &c.key, |_| true);
            if let Some(v) = &c.after {
                objs.push(obj_from_change(c, v.clone(), &provider_addr));
            }
        }
        let conf = configured(plan);
        let serial = Serial::new(prior, &objs, &conf);
        // Objects that leave the state without a provider operation, one state write each: a
        // destroy plan's data source objects (Terraform's `NodeDestroyResourceInstance` on a
        // data resource writes it null) and forgotten objects.
        let mut removals: Vec<(
            String,
            ResourceMode,
            String,
            String,
            Option<crate::addrs::InstanceKey>,
            Option<Option<String>>,
        )> = Vec::new();
        if plan.destroy && plan.targets.is_empty() {
            removals.extend(
                objs.iter()
                    .filter(|o| o.mode == ResourceMode::Data)
                    .map(|o| (o.module.clone(), o.mode, o.type_name.clone(), o.name.clone(), o.key.clone(), None)),
            );
        }
        for c in plan.changes.iter().filter(|c| c.action == Action::Forget) {
            removals.push((
                c.module.clone(),
                c.mode,
                c.type_name.clone(),
                c.name.clone(),
                c.key.clone(),
                Some(c.deposed.clone()),
            ));
        }
        let ops = operations(plan);
        let n = ops.len();
        let mut s = ApplyNodes {
            files,
            config,
            plan,
            prior,
            variables,
            lineage,
            walkables,
            by_addr,
            objs,
            ops,
            provider_addr,
            next_deposed: 1,
            deposed_under: HashMap::new(),
            conf,
            serial,
            ended: vec![false; n],
            waits,
            output_waits,
            emptied: Default::default(),
            ops_by_addr: HashMap::new(),
            added: 0,
            imported: plan.changes.iter().filter(|c| c.importing.is_some()).count(),
            changed: 0,
            destroyed: 0,
            diagnostics: shared::targets::apply_diagnostics(plan),
            env: RootEnv::new(files, config, &plan.module_overrides),
            args,
            reads,
            hidden,
        };
        for (b, o) in s.ops.iter().enumerate() {
            s.ops_by_addr.entry(order::config_addr(&o.resource)).or_default().push(b);
        }
        for (module, mode, type_name, name, key, deposed) in removals {
            s.objs.remove_where(&module, mode, &type_name, &name, &key, |o| {
                deposed.as_ref().is_none_or(|d| &o.deposed == d)
            });
            s.wrote(&module, mode, &type_name, &name, &key);
        }
        s
    }

    /// A state write after the objects of an instance were written.
    fn wrote(
        &mut self,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        key: &Option<crate::addrs::InstanceKey>,
    ) {
        if self.objs.none_of(&super::objects::resource_id(module, mode, type_name, name)) {
            let data = if mode == ResourceMode::Data { "data." } else { "" };
            let abs = if module.is_empty() {
                format!("{data}{type_name}.{name}")
            } else {
                format!("{module}.{data}{type_name}.{name}")
            };
            if self.expanded(&order::config_addr(&abs)) {
                let mode = mode.as_str();
                self.emptied.insert((module.to_string(), mode.to_string(), type_name.to_string(), name.to_string()));
            }
        }
        self.serial.touched(&self.objs, &self.conf, module, mode, type_name, name, key);
        // `write` needs the serial mutably while the state is built from the rest.
        let mut serial = std::mem::replace(&mut self.serial, Serial::placeholder());
        serial.write(&self.objs, &self.conf, || super::state_write::write_state(self, Moment::Written, None));
        self.serial = serial;
    }

    /// The state write of operation `b`'s result.
    fn write(&mut self, b: usize) {
        let c = &self.plan.changes[self.ops[b].change];
        let (module, mode, type_name, name, key) =
            (c.module.clone(), c.mode, c.type_name.clone(), c.name.clone(), c.key.clone());
        self.wrote(&module, mode, &type_name, &name, &key);
    }

    /// The resources a state write holds with no instances ("husks"): Terraform's apply records
    /// a resource it creates in the state once its expand node has run (after what its
    /// configuration reaches), before any instance is written; a failed create that writes no
    /// object removes the record. Each with its provider configuration.
    pub(super) fn husks(&self) -> BTreeMap<shared::scope::ResourceKey, String> {
        let open = self.open();
        let mut out = BTreeMap::new();
        for o in self.ops.iter().filter(|o| o.op == Op::Create) {
            let c = &self.plan.changes[o.change];
            let mode = c.mode.as_str();
            let key = (c.module.clone(), mode.to_string(), c.type_name.clone(), c.name.clone());
            if out.contains_key(&key) || self.emptied.contains(&key) {
                continue;
            }
            if self.waits.get(&order::config_addr(&o.resource)).is_none_or(|w| w.iter().all(|r| !open.contains(r))) {
                let provider =
                    if c.provider_config.is_empty() { self.provider_addr.clone() } else { c.provider_config.clone() };
                out.insert(key, provider);
            }
        }
        out
    }

    /// The resources (configuration addresses) with an operation that has not ended.
    fn open(&self) -> std::collections::HashSet<String> {
        (0..self.ops.len()).filter(|&b| !self.ended[b]).map(|b| order::config_addr(&self.ops[b].resource)).collect()
    }

    /// Whether the expand node of the resource at configuration address `addr` has run: every
    /// operation of what its configuration reaches has ended.
    fn expanded(&self, addr: &str) -> bool {
        self.waits.get(addr).is_none_or(|w| {
            w.iter().all(|r| self.ops_by_addr.get(r).is_none_or(|bs| bs.iter().all(|&b| self.ended[b])))
        })
    }

    /// Root outputs the walk has not evaluated yet: they descend from a resource with an
    /// operation that has not ended, or failed.
    pub(super) fn outputs_pending(&self) -> std::collections::HashSet<String> {
        let open = self.open();
        if open.is_empty() {
            return Default::default();
        }
        self.output_waits
            .iter()
            .filter(|(_, waits)| waits.iter().any(|r| open.contains(r)))
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// The `Importing...` / `Import complete` events of the plan's imports (the objects were
    /// imported during the plan: the apply records them first).
    pub fn import_events(&self) -> Vec<super::events::OpEvent> {
        super::events::import_events(self.plan)
    }

    /// The first object of `c`'s instance for which `pred` holds.
    fn find(&self, c: &InstanceChange, pred: impl Fn(&Obj) -> bool) -> Option<usize> {
        self.objs.find(&c.module, c.mode, &c.type_name, &c.name, &c.key, pred)
    }

    /// Starts operation `b`: its configuration evaluated over the current state, the object it
    /// replaces deposed or removed, and the provider request to make. `None`: a delete whose
    /// object is gone (or a create_before_destroy create that found none to depose): as
    /// Terraform's destroy node returns before its hooks on a null object, the operation ends
    /// there, with no provider call, event or count.
    pub fn start(&mut self, b: usize, provider: &dyn Provider) -> Option<Started> {
        let o = &self.ops[b];
        let c = &self.plan.changes[o.change];
        let target = match (o.op, o.cbd) {
            (Op::Delete, true) => {
                let key = self.deposed_under.get(&o.change);
                key.and_then(|key| self.find(c, |x| x.deposed.as_ref() == Some(key)))
            }
            _ => self.find(c, |x| x.deposed == c.deposed),
        };
        let prior_id = target.and_then(|i| str_attr(&self.objs.get(i).value, "id"));
        let deposed = target.and_then(|i| self.objs.get(i).deposed.clone()).filter(|_| o.op == Op::Delete);
        let name = c.after.as_ref().or(c.before.as_ref()).and_then(|v| str_attr(v, "name"));
        let provider_config = c.provider_config.clone();
        let request = match self.request(b, target, provider) {
            Ok(Some(r)) => Ok(r),
            Ok(None) => {
                self.ended[b] = true;
                return None;
            }
            Err(d) => Err(d),
        };
        Some(Started { index: b, prior_id, deposed, name, request, provider_config })
    }

    fn fail(&self, b: usize, summary: String, detail: String) -> Diagnostics {
        let mut d = Diagnostics::new();
        // Terraform attaches the instance's address to what a provider reports about it.
        let mut diag = Diagnostic::error(summary, detail).with_address(self.ops[b].instance.clone());
        // Pointing at the block's body, with its snippet (`tfdiags.WholeContainingBody`).
        let files = crate::eval::MapFilesystem(self.files);
        if let Some(&w) = self.by_addr.get(&self.ops[b].resource) {
            let decl = &self.walkables[w].resource.range;
            diag = diag.with_range(shared::snippets::body_start(decl, &files).unwrap_or_else(|| decl.clone()));
        }
        d.push(shared::snippets::with_source(diag, &files, Vec::new()));
        d
    }

    /// The request of operation `b` (`None`: nothing to ask).
    fn request(
        &mut self,
        b: usize,
        target: Option<usize>,
        provider: &dyn Provider,
    ) -> Result<Option<Request>, Diagnostics> {
        let o = &self.ops[b];
        let c = &self.plan.changes[o.change];
        let provider = crate::providers::route(provider, &c.provider_config);
        match o.op {
            Op::Delete => Ok(target
                .map(|i| Request::Delete { type_name: c.type_name.clone(), prior: self.objs.get(i).value.clone() })),
            Op::Create | Op::Update | Op::ReadData => {
                let Some(&wi) = self.by_addr.get(&o.resource) else {
                    return Err(self.fail(
                        b,
                        "Resource not in configuration".into(),
                        format!("{} has no configuration to apply.", o.instance),
                    ));
                };
                let schema = if c.mode == ResourceMode::Data {
                    provider.data_source_schema(&c.type_name)
                } else {
                    provider.resource_schema(&c.type_name)
                };
                let Some(schema) = schema else {
                    return Err(self.fail(
                        b,
                        "Invalid resource type".into(),
                        format!("The provider does not support {}.", c.type_name),
                    ));
                };
                let w = &self.walkables[wi];
                let values = self.reads.for_reader(&self.objs, &self.walkables, wi);
                let (files, config, args) = (self.files, self.config, &self.args[wi]);
                let cfg =
                    with_root_env(&self.env, files, config, self.variables, &values, false, &mut |root, inputs| {
                        instance::evaluate(root, inputs, args, w, &c.key, schema)
                    })?;
                if o.op == Op::ReadData {
                    return Ok(Some(Request::ReadData { type_name: c.type_name.clone(), config: cfg }));
                }
                let current = self.find(c, |x| x.deposed.is_none());
                if o.op == Op::Create {
                    if let Some(i) = current {
                        if o.cbd || c.action == Action::CreateThenDelete {
                            let key = fresh_deposed_key(&self.objs, &mut self.next_deposed);
                            self.objs.get_mut(i).deposed = Some(key.clone());
                            self.deposed_under.insert(o.change, key);
                        } else {
                            self.objs.remove(i);
                        }
                    }
                }
                let prior = if o.op == Op::Update { current.map(|i| self.objs.get(i).value.clone()) } else { None };
                Ok(Some(Request::Plan { type_name: c.type_name.clone(), prior, config: ignore_for_apply(c, cfg) }))
            }
            Op::Read | Op::Import => Ok(None),
        }
    }

    /// Takes the apply-time plan of a create or update (`started`'s [`Request::Plan`]) into
    /// `started`: the [`Request::Apply`] of what it planned, or its failure. True when an update
    /// plans no change after all (the values unknown at plan came back as they were): as
    /// Terraform's no-op `diffApply`, the operation ends there, with no provider apply, no
    /// state write, no event and no count.
    pub fn planned(&mut self, started: &mut Started, response: Response) -> bool {
        let b = started.index;
        let request = std::mem::replace(&mut started.request, Err(Diagnostics::new()));
        started.request = match (request, response) {
            (Ok(Request::Plan { type_name, prior, .. }), Response::Planned(Ok(p))) => {
                let planned = p.planned;
                if prior.as_ref().is_some_and(|prior| planned.equals_known(prior)) {
                    self.ended[b] = true;
                    return true;
                }
                Ok(Request::Apply { type_name, prior, planned })
            }
            (_, Response::Planned(Err(e))) => Err(self.fail(b, e.summary, e.detail)),
            _ => Err(self.invalid_response(b)),
        };
        false
    }

    fn invalid_response(&self, b: usize) -> Diagnostics {
        let o = &self.ops[b];
        let detail = format!("The provider's answer to {} {} does not fit the request.", o.op.as_str(), o.instance);
        self.fail(b, "Provider produced an invalid response".into(), detail)
    }

    /// Ends operation `b` with the provider's response (`None` when it asked nothing, or its
    /// request failed with `started.request`'s diagnostics), writing the working state.
    pub fn finish(&mut self, started: Started, response: Option<Response>) -> Outcome {
        let b = started.index;
        let outcome = match (started.request, response) {
            (Err(d), _) => Err((d, false)),
            (Ok(request), Some(response)) => self.complete(b, &request, response, started.deposed.as_deref()),
            (Ok(_), None) => Ok(None),
        };
        let wrote = match &outcome {
            Ok(_) => true,
            Err((_, wrote)) => *wrote,
        };
        if wrote {
            self.write(b);
        }
        self.ended[b] = outcome.is_ok();
        let o = &self.ops[b];
        match outcome {
            Ok(id) => {
                match (o.op, &id) {
                    (Op::Create, Some(_)) => self.added += 1,
                    (Op::Update, Some(_)) => self.changed += 1,
                    (Op::Delete, _) => self.destroyed += 1,
                    _ => {}
                }
                Ok(id)
            }
            Err((d, _)) => {
                self.diagnostics.extend(d.clone());
                Err(d)
            }
        }
    }

    /// Writes a response into the working state.
    fn complete(
        &mut self,
        b: usize,
        request: &Request,
        response: Response,
        deposed: Option<&str>,
    ) -> Result<Option<String>, (Diagnostics, bool)> {
        let o = &self.ops[b];
        let c = &self.plan.changes[o.change];
        let fail = |s: &Self, e: ProviderError, wrote: bool| Err((s.fail(b, e.summary, e.detail), wrote));
        match (request, response) {
            (Request::Delete { .. }, Response::Applied(applied)) => {
                let idx = self.find(c, |x| x.deposed.as_deref() == deposed);
                if let Some(e) = applied.error {
                    if let (Some(v), Some(i)) = (applied.new_state, idx) {
                        self.objs.get_mut(i).value = v;
                    }
                    return fail(self, e, true);
                }
                if let Some(i) = idx {
                    self.objs.remove(i);
                }
                Ok(None)
            }
            (Request::ReadData { .. }, Response::Read(read)) => match read {
                Ok(v) => {
                    self.objs.remove_where(&c.module, c.mode, &c.type_name, &c.name, &c.key, |_| true);
                    let id = str_attr(&v, "id");
                    self.objs.push(obj_from_change(c, v, &self.provider_addr));
                    Ok(Some(id.unwrap_or_default()))
                }
                Err(e) => fail(self, e, false),
            },
            (Request::Apply { .. }, Response::Inconsistent { applied, errors }) => {
                self.applied(b, Applied { error: None, ..applied }, true);
                let mut d = Diagnostics::new();
                for e in errors {
                    d.push(Diagnostic::error(e.summary, e.detail));
                }
                Err((d, true))
            }
            (Request::Apply { .. }, Response::Applied(applied)) => {
                let error = applied.error.clone();
                let id = self.applied(b, applied, error.is_some());
                match error {
                    Some(e) => fail(self, e, true),
                    None => Ok(Some(id.unwrap_or_default())),
                }
            }
            (_, _) => Err((self.invalid_response(b), false)),
        }
    }

    /// Writes the object a create or update returned (tainted after a failed create); its id.
    fn applied(&mut self, b: usize, applied: Applied, tainted: bool) -> Option<String> {
        let o = &self.ops[b];
        let c = &self.plan.changes[o.change];
        let new = applied.new_state;
        let id = new.as_ref().and_then(|v| str_attr(v, "id"));
        match (o.op, self.find(c, |x| x.deposed.is_none())) {
            (Op::Update, Some(i)) => {
                if let Some(v) = new {
                    self.objs.get_mut(i).value = v;
                }
                let ob = self.objs.get_mut(i);
                ob.deps = c.dependencies.clone();
                ob.cbd = c.create_before_destroy;
            }
            _ => {
                if let Some(v) = new {
                    let mut ob = obj_from_change(c, v, &self.provider_addr);
                    ob.tainted = tainted;
                    self.objs.push(ob);
                }
            }
        }
        id
    }

    /// The state v4 as it stands.
    pub fn state(&self) -> Json {
        super::state_write::write_state(self, Moment::Snapshot, None)
    }

    /// The state v4 after the walk: the result, with the final check results' warnings added
    /// to the apply's diagnostics.
    pub fn final_state(&mut self) -> Json {
        let mut warnings = Diagnostics::new();
        let mut state = super::state_write::write_state(self, Moment::Final, Some(&mut warnings));
        self.diagnostics.extend(warnings);
        // The last write: Terraform's `statemgr.WriteAndPersist` of the walk's result.
        let mut serial = std::mem::replace(&mut self.serial, Serial::placeholder());
        serial.write(&self.objs, &self.conf, || state.clone());
        self.serial = serial;
        state["serial"] = self.serial.value.into();
        state
    }
}

/// The plan's changes as provider operations.
fn operations(plan: &Plan) -> Vec<OpNode> {
    let mut ops: Vec<OpNode> = Vec::new();
    for (i, c) in plan.changes.iter().enumerate() {
        let resource = resource_of(c);
        let instance = c.address();
        let cbd = c.create_before_destroy && c.action == Action::CreateThenDelete;
        let mut push = |op: Op, destroy: bool| {
            ops.push(OpNode { op, change: i, resource: resource.clone(), instance: instance.clone(), destroy, cbd })
        };
        match c.action {
            Action::Create => push(Op::Create, false),
            Action::Update => push(Op::Update, false),
            Action::Read => push(Op::ReadData, false),
            Action::Delete => push(Op::Delete, true),
            Action::DeleteThenCreate => {
                push(Op::Delete, true);
                push(Op::Create, false);
            }
            Action::CreateThenDelete => {
                push(Op::Create, false);
                push(Op::Delete, true);
            }
            Action::NoOp | Action::Forget | Action::CreateThenForget => {}
        }
    }
    ops
}

pub(super) fn obj_from_change(c: &InstanceChange, v: Value, provider: &str) -> Obj {
    Obj {
        module: c.module.clone(),
        mode: c.mode,
        type_name: c.type_name.clone(),
        name: c.name.clone(),
        key: c.key.clone(),
        deposed: None,
        value: v,
        deps: c.dependencies.clone(),
        cbd: c.create_before_destroy,
        tainted: false,
        schema_version: c.schema_version,
        // The configuration the plan routed the change to; `provider` for plans without one.
        provider: if c.provider_config.is_empty() { provider.to_string() } else { c.provider_config.clone() },
    }
}

/// The resources' current values, shaped as references see them.
pub(super) fn current_values<'w, 'c: 'w>(
    objs: &Objects,
    hidden: &[&InstanceChange],
    walkables: impl Iterator<Item = &'w Walkable<'c>>,
) -> WalkValues {
    let hidden = Hidden::new(hidden.iter().copied());
    let values = WalkValues::default();
    for w in walkables {
        values.insert(resource_key(w), resource_value(objs, &hidden, w));
    }
    values
}

/// At apply, attributes the plan kept from the prior object (ignore_changes) stay so.
fn ignore_for_apply(c: &InstanceChange, cfg: Value) -> Value {
    let (Some(after), Kind::Object(mut m)) = (c.after.as_ref(), cfg.kind.clone()) else { return cfg };
    let Kind::Object(am) = &after.kind else { return cfg };
    for (k, v) in m.iter_mut() {
        if let Some(a) = am.get(k) {
            if a.is_wholly_known()
                && v.is_wholly_known()
                && !a.raw_equal(v)
                && c.before
                    .as_ref()
                    .is_some_and(|b| matches!(&b.kind, Kind::Object(bm) if bm.get(k).is_some_and(|bv| bv.raw_equal(a))))
            {
                *v = a.clone();
            }
        }
    }
    Value { kind: Kind::Object(m), sensitive: cfg.sensitive }
}

/// The next deposed key no object holds (the state may carry keys this walk did not make).
fn fresh_deposed_key(objs: &Objects, next: &mut u32) -> String {
    loop {
        let key = format!("{:08}", *next);
        *next += 1;
        if !objs.iter().any(|x| x.deposed.as_deref() == Some(&key)) {
            return key;
        }
    }
}
