//! The apply walk: the plan's changes as provider operations, in Terraform's order (the
//! apply graph's edges: creators after the creators they depend on, destroyers of dependents
//! before destroyers of their dependencies, destroy-before-create and create-before-destroy
//! replacement), at most `parallelism` at once, each taking the provider's delay on a virtual
//! clock. A failure skips what depends on it; everything else finishes. The result is the
//! state v4 Terraform writes, the provider operations grouped in waves, and the events.

use super::instance::{self, with_root_scope};
use super::order::{self, Walkable};
use super::plan::{index_state, object_value};
use super::scope::{ResourceKey, WalkValues};
use super::values_json::{type_json, value as value_json};
use super::{InstanceChange, Plan};
use crate::addrs::{InstanceKey, ResourceMode};
use crate::config::model::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{Kind, Value};
use crate::plans::Action;
use crate::providers::{Op, Provider};
use serde_json::{json, Map, Value as Json};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Options of [`apply`].
#[derive(Clone, Debug)]
pub struct ApplyOptions {
    pub variables: BTreeMap<String, Json>,
    /// Terraform's `-parallelism` (10 by default).
    pub parallelism: usize,
    /// The lineage of a new state (a prior state keeps its own).
    pub lineage: String,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions { variables: BTreeMap::new(), parallelism: 10, lineage: "00000000-0000-0000-0000-000000000000".into() }
    }
}

/// What happened to one operation, on the virtual clock (milliseconds).
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    Start,
    Complete { id: Option<String> },
    Fail,
    Skip,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub at_ms: u64,
    pub address: String,
    pub deposed: Option<String>,
    pub op: Op,
    /// The object's id before the operation (updates and deletes show it).
    pub prior_id: Option<String>,
    pub kind: EventKind,
}

/// The result of [`apply`].
#[derive(Clone, Debug)]
pub struct ApplyResult {
    /// State v4 JSON.
    pub state: Json,
    pub diagnostics: Diagnostics,
    /// Provider operations grouped by start (`create ADDR`, ` FAILED` appended on failure).
    pub waves: Vec<Vec<String>>,
    pub max_concurrency: usize,
    pub events: Vec<Event>,
    /// Counts for `Apply complete! Resources: N added, M changed, K destroyed.`
    pub added: usize,
    pub changed: usize,
    pub destroyed: usize,
}

/// One object of the working state.
#[derive(Clone, Debug)]
struct Obj {
    module: String,
    mode: ResourceMode,
    type_name: String,
    name: String,
    key: Option<InstanceKey>,
    deposed: Option<String>,
    value: Value,
    deps: Vec<String>,
    cbd: bool,
    tainted: bool,
    schema_version: u64,
    provider: String,
}

impl Obj {
    fn resource_key(&self) -> ResourceKey {
        let mode = if self.mode == ResourceMode::Data { "data" } else { "managed" };
        (self.module.clone(), mode.into(), self.type_name.clone(), self.name.clone())
    }
    fn same_instance(&self, c: &InstanceChange) -> bool {
        self.module == c.module && self.mode == c.mode && self.type_name == c.type_name && self.name == c.name && self.key == c.key
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Pending,
    Running,
    Done,
    Failed,
    Skipped,
}

struct OpNode {
    op: Op,
    change: usize,
    /// Absolute resource address (no key).
    resource: String,
    instance: String,
    destroy: bool,
    cbd: bool,
}

fn resource_of(c: &InstanceChange) -> String {
    if c.module.is_empty() {
        c.resource()
    } else {
        format!("{}.{}", c.module, c.resource())
    }
}

/// Applies `plan` (made from `config` and the prior state `prior`) with `provider`.
pub fn apply(files: &BTreeMap<String, String>, config: &Config, plan: &Plan, prior: Option<&Json>, provider: &dyn Provider, options: &ApplyOptions) -> ApplyResult {
    let mut diags = Diagnostics::new();
    let mut unexpanded = Vec::new();
    let expansion_values = WalkValues::default();
    let walkables = with_root_scope(files, config, &options.variables, &expansion_values, false, &mut |root, _| {
        order::resources(config, &mut |path, keys, call| super::plan::module_keys(root, path, keys, call), &mut unexpanded)
    });
    let by_addr: HashMap<String, &Walkable<'_>> = walkables.iter().map(|w| (w.address.clone(), w)).collect();
    // Each resource's dependencies: the configuration's, and the state's for what it recorded.
    let mut deps: HashMap<String, BTreeSet<String>> = HashMap::new();
    for w in &walkables {
        let mut d = order::reached(config, &w.path, &w.resource.references);
        d.remove(&w.config_address);
        deps.entry(w.config_address.clone()).or_default().extend(d);
    }
    // The working state.
    let mut objs: Vec<Obj> = Vec::new();
    // The plan's prior state is the one its moves renamed.
    for ((module, mode, type_name, name), (prov, list)) in index_state(plan.prior_state.as_ref().or(prior)) {
        let mode = if mode == "data" { ResourceMode::Data } else { ResourceMode::Managed };
        let schema = if mode == ResourceMode::Data { provider.data_source_schema(&type_name) } else { provider.resource_schema(&type_name) };
        for o in list {
            let abs = if module.is_empty() { format!("{}{type_name}.{name}", if mode == ResourceMode::Data { "data." } else { "" }) } else { format!("{module}.{}{type_name}.{name}", if mode == ResourceMode::Data { "data." } else { "" }) };
            deps.entry(order::config_addr(&abs)).or_default().extend(o.dependencies.iter().cloned());
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
        objs.retain(|o| !o.same_instance(c));
        if let Some(v) = &c.after {
            objs.push(obj_from_change(c, v.clone(), &provider_addr));
        }
    }
    let mut writes = 0usize;
    // Forgotten objects leave the state without a provider operation.
    for c in plan.changes.iter().filter(|c| c.action == Action::Forget) {
        objs.retain(|o| !(o.same_instance(c) && o.deposed == c.deposed));
        writes += 1;
    }
    // The operations.
    let mut ops: Vec<OpNode> = Vec::new();
    for (i, c) in plan.changes.iter().enumerate() {
        let resource = resource_of(c);
        let instance = c.address();
        let mut push = |op: Op, destroy: bool| ops.push(OpNode { op, change: i, resource: resource.clone(), instance: instance.clone(), destroy, cbd: c.create_before_destroy && c.action == Action::CreateThenDelete });
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
    // The apply graph's edges: preds[b] holds every a that must finish before b starts.
    let n = ops.len();
    let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    let depends = |x: &str, y: &str| deps.get(&order::config_addr(x)).is_some_and(|d| d.contains(&order::config_addr(y)));
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let (oa, ob) = (&ops[a], &ops[b]);
            if oa.instance == ob.instance && oa.change == ob.change {
                // Replacement: destroy-then-create, or create-then-destroy (deposed).
                if (oa.destroy && !ob.destroy && !oa.cbd) || (!oa.destroy && ob.destroy && ob.cbd) {
                    preds[b].insert(a);
                }
                continue;
            }
            if oa.resource == ob.resource {
                continue;
            }
            // b depends on a's resource.
            if depends(&ob.resource, &oa.resource) {
                let before = match (oa.destroy, ob.destroy) {
                    (false, false) => true,          // creators after their dependencies' creators
                    (true, false) => !oa.cbd,        // a dependency's destroy before the dependent's apply
                    (false, true) => false,
                    (true, true) => false,
                };
                if before {
                    preds[b].insert(a);
                }
            }
            // a depends on b's resource (b is the dependency).
            if depends(&oa.resource, &ob.resource) {
                let before = match (oa.destroy, ob.destroy) {
                    (true, true) => true,            // dependents destroyed first
                    (true, false) => !oa.cbd,        // a dependent's destroy before its dependency's apply
                    (false, true) => ob.cbd,         // create-before-destroy: the dependent's apply before the deposed destroy
                    (false, false) => false,
                };
                if before {
                    preds[b].insert(a);
                }
            }
        }
    }
    // The walk on a virtual clock.
    let parallelism = options.parallelism.max(1);
    let mut status = vec![Status::Pending; n];
    let mut running: Vec<(u64, usize, bool)> = Vec::new();
    let mut now = 0u64;
    let mut events = Vec::new();
    let mut starts: Vec<(u64, String)> = Vec::new();
    let mut max_concurrency = 0;
    let mut next_deposed = 1u32;
    let (mut added, mut changed, mut destroyed) = (0, 0, 0);
    let mut failed_label: HashMap<usize, bool> = HashMap::new();
    loop {
        // Skip what depends on a failure.
        loop {
            let mut any = false;
            for b in 0..n {
                if status[b] == Status::Pending && preds[b].iter().any(|&a| matches!(status[a], Status::Failed | Status::Skipped)) {
                    status[b] = Status::Skipped;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        for b in 0..n {
            if running.len() >= parallelism {
                break;
            }
            if status[b] != Status::Pending || !preds[b].iter().all(|&a| status[a] == Status::Done) {
                continue;
            }
            status[b] = Status::Running;
            let o = &ops[b];
            let c = &plan.changes[o.change];
            let prior_obj = objs.iter().position(|x| x.same_instance(c) && x.deposed == c.deposed && !(o.op == Op::Delete && o.cbd && x.deposed.is_none()));
            let target = if o.op == Op::Delete {
                objs.iter().position(|x| x.same_instance(c) && if o.cbd { x.deposed.is_some() } else { x.deposed == c.deposed })
            } else {
                prior_obj
            };
            let prior_id = target.and_then(|i| str_attr(&objs[i].value, "id"));
            let deposed = target.and_then(|i| objs[i].deposed.clone()).filter(|_| o.op == Op::Delete);
            events.push(Event { at_ms: now, address: o.instance.clone(), deposed, op: o.op, prior_id: prior_id.clone(), kind: EventKind::Start });
            let name = c.after.as_ref().or(c.before.as_ref()).and_then(|v| str_attr(v, "name"));
            let delay = provider.delay_ms(o.op, name.as_deref());
            // Run the operation now; its result is visible to dependents, which start after it finishes.
            let outcome = run(files, config, plan, o, c, &mut objs, &by_addr, provider, options, &provider_addr, &mut next_deposed, &walkables);
            let ok = outcome.is_ok();
            match outcome {
                Ok(Some(id)) => {
                    writes += 1;
                    match o.op {
                        Op::Create => added += 1,
                        Op::Update => changed += 1,
                        _ => {}
                    }
                    failed_label.insert(b, false);
                    events.push(Event { at_ms: now + delay, address: o.instance.clone(), deposed: None, op: o.op, prior_id: prior_id.clone(), kind: EventKind::Complete { id: Some(id) } });
                }
                Ok(None) => {
                    writes += 1;
                    if o.op == Op::Delete {
                        destroyed += 1;
                    }
                    events.push(Event { at_ms: now + delay, address: o.instance.clone(), deposed: None, op: o.op, prior_id: prior_id.clone(), kind: EventKind::Complete { id: None } });
                }
                Err((d, wrote)) => {
                    if wrote {
                        writes += 1;
                    }
                    diags.extend(d);
                    failed_label.insert(b, true);
                    events.push(Event { at_ms: now + delay, address: o.instance.clone(), deposed: None, op: o.op, prior_id, kind: EventKind::Fail });
                }
            }
            let label = format!("{} {}{}", o.op.as_str(), o.instance, if ok { "" } else { " FAILED" });
            starts.push((now, label));
            running.push((now + delay, b, ok));
            max_concurrency = max_concurrency.max(running.len());
        }
        if running.is_empty() {
            break;
        }
        let t = running.iter().map(|r| r.0).min().unwrap_or(now);
        now = t;
        running.retain(|&(end, b, ok)| {
            if end == t {
                status[b] = if ok { Status::Done } else { Status::Failed };
                false
            } else {
                true
            }
        });
    }
    for (b, s) in status.iter().enumerate() {
        if *s == Status::Pending {
            diags.push(Diagnostic::error("Cycle in the apply graph", format!("{} {} could not be ordered.", ops[b].op.as_str(), ops[b].instance)));
        }
    }
    let waves = super::clock::group(&starts, provider.delay_ms(Op::Create, None));
    let state = write_state(files, config, plan, prior, &objs, &walkables, options, writes, provider);
    ApplyResult { state, diagnostics: diags, waves, max_concurrency, events, added, changed, destroyed }
}

fn str_attr(v: &Value, name: &str) -> Option<String> {
    match &v.kind {
        Kind::Object(m) => m.get(name).and_then(|x| x.as_str()).map(String::from),
        _ => None,
    }
}

fn obj_from_change(c: &InstanceChange, v: Value, provider: &str) -> Obj {
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
        // The configuration the plan routed the change to; `provider` for older plans.
        provider: if c.provider_config.is_empty() { provider.to_string() } else { c.provider_config.clone() },
    }
}

/// The resources' current values, shaped as references see them.
fn current_values(objs: &[Obj], walkables: &[Walkable<'_>]) -> WalkValues {
    let values = WalkValues::default();
    let mut by_resource: BTreeMap<ResourceKey, Vec<&Obj>> = BTreeMap::new();
    for o in objs.iter().filter(|o| o.deposed.is_none()) {
        by_resource.entry(o.resource_key()).or_default().push(o);
    }
    for w in walkables {
        let r = w.resource;
        let mode = if r.mode == ResourceMode::Data { "data" } else { "managed" };
        let key: ResourceKey = (w.module_addr.clone(), mode.into(), r.type_name.clone(), r.name.clone());
        let list = by_resource.get(&key).cloned().unwrap_or_default();
        let v = if r.count.is_some() {
            let mut l: Vec<&Obj> = list.into_iter().filter(|o| matches!(o.key, Some(InstanceKey::Int(_)))).collect();
            l.sort_by(|a, b| a.key.cmp(&b.key));
            Value::tuple(l.into_iter().map(|o| o.value.clone()).collect())
        } else if r.for_each.is_some() {
            Value::object(list.into_iter().filter_map(|o| if let Some(InstanceKey::Str(k)) = &o.key { Some((k.clone(), o.value.clone())) } else { None }).collect())
        } else {
            list.into_iter().find(|o| o.key.is_none()).map(|o| o.value.clone()).unwrap_or_else(Value::dynamic)
        };
        values.values.borrow_mut().insert(key, v);
    }
    values
}

type OpOutcome = Result<Option<String>, (Diagnostics, bool)>;

/// Runs one operation against the working state. `Ok(Some(id))` for a created or updated
/// object, `Ok(None)` for a destroyed one; `Err((diagnostics, state_written))`.
#[allow(clippy::too_many_arguments)]
fn run(
    files: &BTreeMap<String, String>,
    config: &Config,
    _plan: &Plan,
    o: &OpNode,
    c: &InstanceChange,
    objs: &mut Vec<Obj>,
    by_addr: &HashMap<String, &Walkable<'_>>,
    provider: &dyn Provider,
    options: &ApplyOptions,
    provider_addr: &str,
    next_deposed: &mut u32,
    walkables: &[Walkable<'_>],
) -> OpOutcome {
    let provider = crate::providers::route(provider, &c.provider_config);
    let fail = |summary: String, detail: String, wrote: bool| {
        let mut d = Diagnostics::new();
        let mut diag = Diagnostic::error(summary, detail);
        if let Some(w) = by_addr.get(&o.resource) {
            diag = diag.with_range(w.resource.range.clone());
        }
        d.push(diag);
        Err((d, wrote))
    };
    match o.op {
        Op::Delete => {
            // Under create-before-destroy the object to destroy is the deposed one.
            let idx = objs.iter().position(|x| x.same_instance(c) && if o.cbd { x.deposed.is_some() } else { x.deposed == c.deposed });
            let Some(idx) = idx else { return Ok(None) };
            let applied = provider.apply_resource_change(&c.type_name, Some(&objs[idx].value), None);
            if let Some(e) = applied.error {
                if let Some(v) = applied.new_state {
                    objs[idx].value = v;
                }
                return fail(e.summary, e.detail, false);
            }
            objs.remove(idx);
            Ok(None)
        }
        Op::Create | Op::Update | Op::ReadData => {
            let Some(w) = by_addr.get(&o.resource) else { return fail("Resource not in configuration".into(), format!("{} has no configuration to apply.", o.instance), false) };
            let schema = if c.mode == ResourceMode::Data { provider.data_source_schema(&c.type_name) } else { provider.resource_schema(&c.type_name) };
            let Some(schema) = schema else { return fail("Invalid resource type".into(), format!("The provider does not support {}.", c.type_name), false) };
            let values = current_values(objs, walkables);
            let cfg = with_root_scope(files, config, &options.variables, &values, false, &mut |root, inputs| instance::evaluate(root, inputs, files, w, &c.key, schema));
            let cfg = match cfg {
                Ok(v) => v,
                Err(d) => return Err((d, false)),
            };
            if o.op == Op::ReadData {
                return match provider.read_data_source(&c.type_name, &cfg) {
                    Ok(v) => {
                        objs.retain(|x| !x.same_instance(c));
                        let id = str_attr(&v, "id");
                        objs.push(obj_from_change(c, v, provider_addr));
                        Ok(Some(id.unwrap_or_default()))
                    }
                    Err(e) => fail(e.summary, e.detail, false),
                };
            }
            let current = objs.iter().position(|x| x.same_instance(c) && x.deposed.is_none());
            if o.op == Op::Create {
                if let Some(i) = current {
                    if o.cbd || c.action == Action::CreateThenDelete {
                        objs[i].deposed = Some(format!("{:08}", *next_deposed));
                        *next_deposed += 1;
                    } else {
                        objs.remove(i);
                    }
                }
            }
            let prior = if o.op == Op::Update { current.map(|i| objs[i].value.clone()) } else { None };
            let cfg = ignore_for_apply(c, cfg);
            let planned = match provider.plan_resource_change(&c.type_name, prior.as_ref(), &cfg) {
                Ok(p) => p.planned,
                Err(e) => return fail(e.summary, e.detail, false),
            };
            let applied = provider.apply_resource_change(&c.type_name, prior.as_ref(), Some(&planned));
            let new = applied.new_state;
            let id = new.as_ref().and_then(|v| str_attr(v, "id"));
            match (o.op, current) {
                (Op::Update, Some(i)) => {
                    if let Some(v) = new {
                        objs[i].value = v;
                    }
                    objs[i].deps = c.dependencies.clone();
                    objs[i].cbd = c.create_before_destroy;
                }
                _ => {
                    if let Some(v) = new {
                        let mut ob = obj_from_change(c, v, provider_addr);
                        ob.tainted = applied.error.is_some();
                        objs.push(ob);
                    }
                }
            }
            match applied.error {
                Some(e) => fail(e.summary, e.detail, o.op == Op::Create),
                None => Ok(Some(id.unwrap_or_default())),
            }
        }
        Op::Read => Ok(None),
    }
}

/// At apply, attributes the plan kept from the prior object (ignore_changes) stay so.
fn ignore_for_apply(c: &InstanceChange, cfg: Value) -> Value {
    let (Some(after), Kind::Object(mut m)) = (c.after.as_ref(), cfg.kind.clone()) else { return cfg };
    let Kind::Object(am) = &after.kind else { return cfg };
    for (k, v) in m.iter_mut() {
        if let Some(a) = am.get(k) {
            if a.is_wholly_known() && v.is_wholly_known() && !a.raw_equal(v) && c.before.as_ref().is_some_and(|b| matches!(&b.kind, Kind::Object(bm) if bm.get(k).is_some_and(|bv| bv.raw_equal(a)))) {
                *v = a.clone();
            }
        }
    }
    Value { kind: Kind::Object(m), sensitive: cfg.sensitive }
}

/// Paths of the sensitive parts of a value, as state v4's `sensitive_attributes` writes them.
fn sensitive_paths(v: &Value, path: &mut Vec<Json>, out: &mut Vec<Json>) {
    if v.sensitive && !path.is_empty() {
        out.push(Json::Array(path.clone()));
        return;
    }
    match &v.kind {
        Kind::Object(m) => {
            for (k, x) in m {
                path.push(json!({"type": "get_attr", "value": k}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        Kind::Map(_, m) => {
            for (k, x) in m {
                path.push(json!({"type": "index", "value": {"value": k, "type": "string"}}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        Kind::List(_, items) | Kind::Tuple(items) => {
            for (i, x) in items.iter().enumerate() {
                path.push(json!({"type": "index", "value": {"value": i, "type": "number"}}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn write_state(
    files: &BTreeMap<String, String>,
    config: &Config,
    plan: &Plan,
    prior: Option<&Json>,
    objs: &[Obj],
    walkables: &[Walkable<'_>],
    options: &ApplyOptions,
    writes: usize,
    _provider: &dyn Provider,
) -> Json {
    // Objects whose resource is configured record the configuration's dependencies and
    // create_before_destroy.
    let mut conf: HashMap<ResourceKey, (Vec<String>, bool)> = HashMap::new();
    for c in &plan.changes {
        if c.deposed.is_none() && !matches!(c.action, Action::Delete | Action::Forget) {
            let mode = if c.mode == ResourceMode::Data { "data" } else { "managed" };
            conf.insert((c.module.clone(), mode.into(), c.type_name.clone(), c.name.clone()), (c.dependencies.clone(), c.create_before_destroy));
        }
    }
    let mut groups: BTreeMap<ResourceKey, Vec<&Obj>> = BTreeMap::new();
    for o in objs {
        groups.entry(o.resource_key()).or_default().push(o);
    }
    let mut resources = Vec::new();
    for (key, mut list) in groups {
        list.sort_by(|a, b| (&a.key, &a.deposed).cmp(&(&b.key, &b.deposed)));
        let first = list[0];
        let mut r = Map::new();
        if !key.0.is_empty() {
            r.insert("module".into(), json!(key.0));
        }
        r.insert("mode".into(), json!(key.1));
        r.insert("type".into(), json!(key.2));
        r.insert("name".into(), json!(key.3));
        r.insert("provider".into(), json!(first.provider));
        let instances: Vec<Json> = list
            .iter()
            .map(|o| {
                let mut m = Map::new();
                match &o.key {
                    Some(InstanceKey::Int(i)) => {
                        m.insert("index_key".into(), json!(i));
                    }
                    Some(InstanceKey::Str(s)) => {
                        m.insert("index_key".into(), json!(s));
                    }
                    None => {}
                }
                if o.tainted {
                    m.insert("status".into(), json!("tainted"));
                }
                if let Some(d) = &o.deposed {
                    m.insert("deposed".into(), json!(d));
                }
                m.insert("schema_version".into(), json!(o.schema_version));
                let (plain, _) = o.value.unmark_deep();
                m.insert("attributes".into(), value_json_nulls(&plain));
                let mut paths = Vec::new();
                sensitive_paths(&o.value, &mut Vec::new(), &mut paths);
                m.insert("sensitive_attributes".into(), Json::Array(paths));
                let (deps, cbd) = if o.deposed.is_none() { conf.get(&key).cloned().unwrap_or((o.deps.clone(), o.cbd)) } else { (o.deps.clone(), o.cbd) };
                if !deps.is_empty() {
                    m.insert("dependencies".into(), json!(deps));
                }
                if cbd {
                    m.insert("create_before_destroy".into(), json!(true));
                }
                Json::Object(m)
            })
            .collect();
        r.insert("instances".into(), Json::Array(instances));
        resources.push(Json::Object(r));
    }
    // Outputs, evaluated over the final objects (none after a destroy).
    let mut outputs = Map::new();
    let mut check_results = Json::Null;
    if !plan.destroy {
        let values = current_values(objs, walkables);
        let (outs, checks) = with_root_scope(files, config, &options.variables, &values, false, &mut |root, inputs| {
            let mut scratch = Diagnostics::new();
            let checks = super::checks::evaluate(root, inputs, config, walkables, &values, &Default::default(), &mut scratch, false);
            (instance::outputs(root), checks)
        });
        check_results = super::checks::state_json(&checks);
        for (name, v, sensitive) in outs {
            if !v.is_wholly_known() || v.is_null() {
                continue;
            }
            let mut e = Map::new();
            e.insert("value".into(), value_json(&v.unmark_deep().0));
            e.insert("type".into(), type_json(&v.ty()));
            if sensitive || v.has_sensitive() {
                e.insert("sensitive".into(), json!(true));
            }
            outputs.insert(name, Json::Object(e));
        }
    }
    let prior_serial = prior.and_then(|p| p.get("serial")).and_then(Json::as_u64).unwrap_or(0);
    let lineage = prior.and_then(|p| p.get("lineage")).and_then(Json::as_str).unwrap_or(&options.lineage).to_string();
    let changed = prior.map(|p| p.get("resources") != Some(&Json::Array(resources.clone())) || p.get("outputs") != Some(&Json::Object(outputs.clone()))).unwrap_or(true);
    let serial = prior_serial + writes as u64 + u64::from(writes > 0 || changed);
    json!({
        "version": 4,
        "terraform_version": super::plan_json::TERRAFORM_VERSION,
        "serial": serial,
        "lineage": lineage,
        "outputs": outputs,
        "resources": resources,
        "check_results": check_results,
    })
}

/// Attributes as state writes them: every attribute, null where unset.
fn value_json_nulls(v: &Value) -> Json {
    match &v.kind {
        Kind::Object(m) | Kind::Map(_, m) => Json::Object(m.iter().map(|(k, x)| (k.clone(), value_json_nulls(x))).collect()),
        _ => value_json(v),
    }
}
