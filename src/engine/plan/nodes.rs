//! The plan walk (Terraform's `walkPlan` / `walkPlanDestroy`): resources in dependency order,
//! each expanded from its evaluated `count` / `for_each`, each instance refreshed through the
//! provider, evaluated, planned by the provider, given an action and its reason; orphans
//! (vanished keys, resources, modules) planned for deletion; then the root outputs.

use super::walk::{OrphanNode, PlanHost, ValueKind, Work};
use crate::addrs::{InstanceKey, ResourceMode};
use crate::config::model::{Config, IgnoreChanges, Resource};
use crate::diag::{CausedBy, Diagnostic, Diagnostics};
use crate::engine::jsonconfig;
use crate::engine::shared;
use crate::eval::convert::convert;
use crate::eval::functions::Registry;
use crate::eval::json::from_json;
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::{eval_config_expr, Inputs, ModuleKey, ModuleScope};
use crate::eval::repetition::CountError;
use crate::eval::{Kind, MapFilesystem, Value};
use crate::plans::Action;
use crate::providers::Op;
use crate::providers::{Provider, ResourceSchema};
use futures_util::future::LocalBoxFuture;
use serde_json::Value as Json;
use shared::body::{self, attr};
use shared::order::{self, Walkable};
use shared::plan::{InstanceChange, OpProgress, OutputChange, Plan, PlanOp, PlanOptions};
use shared::routing::{default_config, source_of, Routing};
use shared::scope::{module_expansion, with_scope, InstanceScope, WalkValues};
use shared::state_read::{index_state, mode_of, mode_str, object_value, PriorIndex, PriorObject};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One instance to plan: its key, `count.index`, `each.key` and `each.value`.
type Repetition = (Option<InstanceKey>, Option<i64>, Option<(Value, Value)>);

enum Expansion {
    Single,
    Count(i64),
    ForEach(Vec<(String, Value)>),
}

struct PlanWalk<'a> {
    config: &'a Config,
    provider: &'a dyn Provider,
    inputs: &'a Inputs<'a>,
    values: &'a WalkValues,
    prior: &'a PriorIndex,
    prior_json: Option<&'a Json>,
    options: &'a PlanOptions,
    changes: Vec<InstanceChange>,
    ops: Vec<PlanOp>,
    /// The resource being walked and what its provider operations wait for.
    order_deps: Vec<String>,
    /// Whether the resource being walked is create_before_destroy because something that
    /// depends on it is (Terraform's `ForcedCBDTransformer`).
    forced_cbd: bool,
    order_resource: String,
    data_read: Vec<InstanceChange>,
    /// Resources whose plan failed (a precondition) or was not reached because of one.
    failed: BTreeSet<String>,
    /// Root outputs the walk skipped: something they depend on failed.
    skipped_outputs: BTreeSet<String>,
    /// The checks value nodes recorded: module variables' validations, module outputs'
    /// preconditions.
    node_checks: Vec<shared::checks::CheckResult>,
    /// The data source objects the walk's nodes took out of the refreshed state (orphans, and
    /// reads deferred to the apply).
    data_dropped: Vec<super::data_orphans::DataObject>,
    diags: Diagnostics,
    /// Configuration resource address → the module instances where one of its instances has a
    /// pending change.
    pending: HashMap<String, BTreeSet<String>>,
    /// The managed resources whose pending changes defer the data source being walked to the
    /// apply (the plan graph's [`super::walk::ResourceNode::data_depends_on`]).
    data_deps: BTreeSet<String>,
    /// Absolute instance address → index into `changes`.
    by_address: HashMap<String, usize>,
    /// The provider configuration of each resource.
    routing: Routing,
    /// The provider configuration serving what is being planned now.
    serving: String,
    /// `-target`: the targets, and whether one names the resource being walked (then only
    /// the instances they contain are planned).
    targets: shared::targets::Targets,
    targeted_here: bool,
    /// The configuration resources the targeted plan keeps.
    kept: BTreeSet<String>,
    /// `-replace`: instance addresses as Terraform prints them.
    replace: Vec<crate::addrs::InstanceAddr>,
    /// Whether prior objects are refreshed: not with `-refresh=false`, nor in the destroy walk
    /// (the plan before it refreshed them).
    refresh: bool,
    /// The plan a destroy plan makes first to refresh the state ([`Phase::PreDestroyRefresh`]).
    pre_destroy_refresh: bool,
    /// What configuring providers said: their host placed them (a provider's error about its
    /// whole block is at the block's opening brace, zero-width, as Terraform's `InConfigBody`).
    configure_diags: Diagnostics,
    /// `import` blocks: instance address → the id to import.
    imports: HashMap<String, String>,
    /// The objects imported, for the prior state.
    imported: Vec<(InstanceChange, Value)>,
}

/// At most this many times a resource node is planned again with its provider's new answers:
/// each run answers what the one before asked, so a node needs about as many as its longest
/// chain of questions (refresh, then plan, then a replacement's plan); more means a provider
/// whose answers never settle.
const MAX_RUNS: usize = 256;

/// Plans `config` against the prior state (`prior`, state v4 JSON) with `provider`, whose
/// every answer is at hand (the built-in providers): [`plan_walked`] on [`Synchronous`](super::walk::Synchronous), run to
/// its end at once. For this room's own tests: everything else plans through the engine's
/// session (`engine::session`), whose checks come first.
#[cfg(test)]
pub(crate) fn plan(
    files: &BTreeMap<String, String>,
    config: &Config,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &PlanOptions,
) -> Plan {
    let walked = plan_walked(
        files,
        config,
        prior,
        provider,
        options,
        &super::walk::Synchronous,
        crate::walk::DEFAULT_PARALLELISM,
    );
    shared::clock::VirtualClock::default().run(walked)
}

/// What `terraform plan`'s validate walk refuses a configuration for, before it plans: a cycle
/// in the validate graph (with its names), references to undeclared names, function errors in
/// blocks the plan may never expand (`count = 0`). It depends on the configuration alone.
pub fn validate(files: &BTreeMap<String, String>, config: &Config) -> Diagnostics {
    let validate = crate::graph::build(
        config,
        &crate::graph::BuildOptions {
            operation: crate::graph::Operation::Validate,
            reduce: false,
            ..Default::default()
        },
    );
    if validate.diagnostics.has_errors() {
        return Diagnostics(validate.diagnostics.errors().map(shared::apply_check::one_line_cycle).collect());
    }
    let mut undeclared = crate::config::static_refs::check(config);
    undeclared.extend(crate::eval::validate::walk(files, config));
    match undeclared.has_errors() {
        true => shared::snippets::with_sources(undeclared, &MapFilesystem(files)),
        false => Diagnostics::new(),
    }
}

/// Plans `config` against the prior state (`prior`, state v4 JSON) with `provider`, walking the
/// plan graph at most `parallelism` nodes at a time; `host` answers what `provider` cannot at
/// once and configures providers as their nodes run (see [`PlanHost`]). A destroy plan is
/// Terraform's `destroyPlan` ([`super::destroy`]): unless `-refresh=false` or the state is
/// empty, a plan refreshes the state first (its errors are the answer, its changes and other
/// diagnostics dropped), then the plan-destroy graph is walked over the refreshed state.
pub async fn plan_walked(
    files: &BTreeMap<String, String>,
    config: &Config,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &PlanOptions,
    host: &dyn PlanHost,
    parallelism: usize,
) -> Plan {
    let mut refreshed = None;
    if options.destroy && !options.no_refresh && prior.is_some_and(|p| !super::destroy::is_empty(p)) {
        let phase = Phase::PreDestroyRefresh;
        let mut r = walk_plan(files, config, prior, provider, options, host, parallelism, phase).await;
        if r.diagnostics.has_errors() {
            // No plan: Terraform returns the refresh's diagnostics alone.
            r.refused = true;
            r.destroy = true;
            r.changes.clear();
            return r;
        }
        refreshed = Some(Box::new(r));
    }
    let state = refreshed.as_mut().and_then(|r| r.prior_state.take());
    let phase = if options.destroy { Phase::Destroy(refreshed) } else { Phase::Plan };
    walk_plan(files, config, state.as_ref().or(prior), provider, options, host, parallelism, phase).await
}

/// Which of a plan's walks this is (Terraform's `Context.plan`, `destroyPlan`).
pub(super) enum Phase {
    /// `walkPlan` over the plan graph.
    Plan,
    /// The plan `destroyPlan` makes first to refresh the state (`PreDestroyRefresh`): a normal
    /// plan whose imports are not made and whose conditions are only warnings; its changes
    /// are dropped, its refreshed state kept.
    PreDestroyRefresh,
    /// `walkPlanDestroy` over the plan-destroy graph: a `Delete` for every object of the state
    /// (the refreshed one, when the refresh plan ran: given here, its refreshed state taken).
    Destroy(Option<Box<Plan>>),
}

/// One walk of a plan ([`Phase`]) over the graph of its kind.
#[allow(clippy::too_many_arguments)]
pub(super) async fn walk_plan(
    files: &BTreeMap<String, String>,
    config: &Config,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &PlanOptions,
    host: &dyn PlanHost,
    parallelism: usize,
    phase: Phase,
) -> Plan {
    let destroying = matches!(phase, Phase::Destroy(_));
    let mut result = Plan {
        destroy: options.destroy,
        prior_state: prior.cloned(),
        targets: options.targets.clone(),
        module_overrides: options.module_overrides.clone(),
        ..Plan::default()
    };
    // The validate walk runs first (or ran for this configuration already): its errors refuse
    // the plan.
    let refused = match &options.validation {
        Some(said) => Diagnostics::clone(said),
        None => validate(files, config),
    };
    if refused.has_errors() {
        result.diagnostics.extend(refused);
        result.refused = true;
        return result;
    }
    // Bad -target / -replace addresses were refused by the session, as Terraform's arguments are.
    let mut ignored = Diagnostics::new();
    let targets = shared::targets::Targets(shared::targets::parse_targets(&options.targets, &mut ignored));
    let replace = shared::targets::parse_replace(&options.replace, &mut ignored);
    if !targets.is_empty() {
        result.diagnostics.push(shared::targets::targeting_warning());
    }
    // `moved` blocks rename prior objects first. Without them the state is the one given, which
    // `result` holds already: no copy (a state can be hundreds of MB).
    let (moved_state, moved) = if config.root.moved.is_empty() {
        (None, Default::default())
    } else {
        super::moved::apply_moves(config, prior)
    };
    if moved_state.is_some() {
        result.prior_state = moved_state.clone();
    }
    let prior = moved_state.as_ref().or(prior);
    // The graph the plan walks (`plan_walk`); its provider routing serves every resource.
    let mode = if destroying { crate::graph::PlanMode::Destroy } else { crate::graph::PlanMode::Normal };
    let graph = match super::walk::PlanGraph::build(config, prior, mode) {
        Ok(g) => g,
        Err(d) => {
            result.diagnostics.extend(d);
            result.refused = true;
            return result;
        }
    };
    let funcs = Registry::builtin();
    let file_source = MapFilesystem(files);
    let values = WalkValues::default();
    let inputs = Inputs {
        variables: &options.variables,
        state: None,
        files: &file_source,
        funcs: &funcs,
        planning: true,
        unset_variables_unknown: false,
        base_dir: if config.root.dir.is_empty() { "." } else { &config.root.dir },
        cwd: config.cwd.as_deref(),
        resources: Some(&values),
        overrides: Some(&options.module_overrides),
    };
    let root_files = crate::eval::module_scope::root_files(files, &config.root.dir);
    let scope = ModuleScope::root(config, &inputs, &root_files);
    scope.check_variables();
    for v in &config.root.variables {
        if let Ok(val) = scope.var(&v.name) {
            result.variables.insert(v.name.clone(), val);
        }
    }
    if scope.diagnostics.borrow().has_errors() {
        result.diagnostics.extend(std::mem::take(&mut *scope.diagnostics.borrow_mut()));
        result.diagnostics = shared::snippets::with_sources(std::mem::take(&mut result.diagnostics), &file_source);
        return result;
    }
    // From here the walk evaluates each local, module variable, validation and output at its
    // node: readers find the values it filled (a destroy plan's value nodes do no work).
    if !options.destroy {
        scope.walk_fills();
    }
    let prior_index = index_state(prior);
    let mut walk = PlanWalk {
        config,
        provider,
        inputs: &inputs,
        values: &values,
        prior: &prior_index,
        prior_json: prior,
        options,
        changes: Vec::new(),
        ops: Vec::new(),
        order_deps: Vec::new(),
        forced_cbd: false,
        order_resource: String::new(),
        data_read: Vec::new(),
        failed: BTreeSet::new(),
        skipped_outputs: BTreeSet::new(),
        node_checks: Vec::new(),
        data_dropped: Vec::new(),
        diags: Diagnostics::new(),
        pending: HashMap::new(),
        data_deps: BTreeSet::new(),
        by_address: HashMap::new(),
        routing: graph.routing.clone(),
        serving: String::new(),
        targets,
        targeted_here: false,
        kept: BTreeSet::new(),
        replace,
        refresh: !options.no_refresh && !destroying,
        pre_destroy_refresh: matches!(phase, Phase::PreDestroyRefresh),
        imports: HashMap::new(),
        imported: Vec::new(),
        configure_diags: Diagnostics::new(),
    };
    // The resources of the configuration, each once: what the plan decides per resource before
    // the walk expands the modules they are in.
    let resources = order::config_resources(config);
    let index: HashMap<&str, usize> =
        resources.iter().enumerate().map(|(i, w)| (w.config_address.as_str(), i)).collect();
    // `import` blocks (none in a destroy plan): each expanded by its resource's node.
    let imports = if destroying {
        Vec::new()
    } else {
        let configured = |a: &str| index.get(a).copied();
        match super::import::before_walk(config, &inputs, &root_files, &configured, resources.len(), &mut walk.diags) {
            Ok(by_resource) => by_resource,
            Err(d) => {
                // Found by the validate walk before every plan: no plan is made.
                result.diagnostics.extend(d);
                result.refused = true;
                return result;
            }
        }
    };
    // Each resource's dependencies, transitively: the graph's resource ancestors.
    let mut closure: Vec<BTreeSet<String>> = vec![BTreeSet::new(); resources.len()];
    let mut forced = vec![false; resources.len()];
    for node in &graph.resources {
        if let Some(&i) = index.get(node.address.as_str()) {
            closure[i] = node.dependencies.clone();
            forced[i] = node.forced_cbd;
        }
    }
    // Every block's body, each file parsed once.
    let bodies = shared::body::arguments_of(files, &resources.iter().map(|w| w.resource).collect::<Vec<_>>());
    let selection = shared::targets::Selection::of(&walk.targets, &resources, &closure);
    walk.kept = selection.kept.clone();
    // The prior objects of configured resources in module instances: those in instances the walk
    // does not expand are planned for deletion by their resource's node (Terraform's
    // `nodeExpandPlannableResource.DynamicExpand`); the objects of resources gone from the
    // configuration have nodes of their own in the graph ([`OrphanNode`]).
    let module_objects = module_objects(config, &prior_index);
    let expansions = Expansions::new(config);
    let walk = std::cell::RefCell::new(walk);
    // A module's expand node records its instances.
    let expand_module = |walk: &mut PlanWalk<'_>, path: &[String]| {
        expansions.expand(walk, &scope, &options.module_overrides, path);
    };
    // A resource node plans its instances in every instance of its module; `false` when its
    // plan failed (its dependents are skipped).
    let plan_resource = |walk: &mut PlanWalk<'_>, r: usize| -> bool {
        let address = graph.resources[r].address.as_str();
        let Some(&i) = index.get(address) else { return true };
        let w = &resources[i];
        let instances = expansions.instances(&w.path);
        if let Some(objects) = module_objects.get(address) {
            let expanded: std::collections::HashSet<String> =
                instances.iter().map(|keys| order::instance_addr(&w.path, keys)).collect();
            let mut gone = objects.iter().filter(|key| !expanded.contains(&key.0)).peekable();
            if gone.peek().is_some() {
                walk.order_resource = address.to_string();
                walk.order_deps = graph.resources[r].dependencies.iter().cloned().collect();
            }
            for key in gone {
                let (provider, objects) = &prior_index[*key];
                if key.1 == "data" {
                    // `nodeExpandPlannableResource.findOrphans` on a data resource: its objects
                    // leave the refreshed state (`NodePlannableResourceInstanceOrphan`).
                    let current = objects.iter().filter(|o| o.deposed.is_none());
                    walk.data_dropped.extend(current.map(|o| super::data_orphans::object(key, &o.key)));
                } else {
                    walk.orphan_objects(key, provider, objects.iter(), true);
                }
            }
        }
        if !walk.kept.contains(address) || expansions.stopped() {
            return true;
        }
        // Its import blocks, expanded now (`nodeExpandPlannableResource`): after what they read.
        if let Some(blocks) = imports.get(i).filter(|b| !b.is_empty()) {
            let mut diags = Diagnostics::new();
            let targets = match super::import::expand(blocks, &scope, &inputs, &mut diags) {
                Ok(targets) => targets,
                Err(d) => {
                    diags.extend(d);
                    Vec::new()
                }
            };
            walk.diags.extend(diags);
            // The refresh before a destroy imports nothing (`importing` is false there).
            for t in targets.into_iter().filter(|_| !walk.pre_destroy_refresh) {
                walk.imports.insert(t.address, t.id);
            }
        }
        walk.targeted_here = selection.names[i];
        // Terraform records no dependencies for data sources.
        let dependencies: Vec<String> =
            if w.resource.mode == ResourceMode::Data { Vec::new() } else { closure[i].iter().cloned().collect() };
        let data_deps = graph.resources[r].data_depends_on.clone();
        let args = bodies[i].clone().unwrap_or_default();
        for keys in &instances {
            let w = w.in_instance(keys);
            walk.order_deps = closure[i].iter().cloned().collect();
            walk.forced_cbd = forced[i] && w.resource.mode == ResourceMode::Managed;
            walk.data_deps = data_deps.clone();
            with_scope(&scope, &w.path, &w.keys, &mut |s| walk.resource(s, &w, &dependencies, &args));
        }
        !walk.failed.contains(address)
    };
    // The destroy walk: what its provider blocks read is the state's (no resource node plans a
    // value), what -target keeps is the graph's, and each root output in the state is deleted.
    let targeted_objects = if destroying {
        walk.borrow_mut().prior_values();
        (!walk.borrow().targets.is_empty()).then(|| graph.targeted_objects(&walk.borrow().targets))
    } else {
        None
    };
    let visit = one_lifetime(|work| {
        let (walk, host, values, graph, expansions, scope) = (&walk, host, &values, &graph, &expansions, &scope);
        let (plan_resource, expand_module) = (&plan_resource, &expand_module);
        let targeted_objects = &targeted_objects;
        Box::pin(async move {
            match work {
                Work::Resource(r) => {
                    let address = graph.resources[r].address.as_str();
                    settled(walk, host, values, address, &mut |w| plan_resource(w, r)).await.unwrap_or(false)
                }
                Work::Orphan(o) if destroying => {
                    if targeted_objects.as_ref().is_none_or(|kept| kept[o]) {
                        walk.borrow_mut().destroy_object(&graph.orphans[o]);
                    }
                    true
                }
                // The destroy walk expands nothing: its objects are the state's.
                Work::Module(_) if destroying => true,
                Work::Orphan(o) => {
                    let node = &graph.orphans[o];
                    let address = format!("{}{}.{}", node.module, node.type_name, node.name);
                    settled(walk, host, values, &address, &mut |w| {
                        let expanded = expansions.holds_resources(&node.module);
                        w.orphan_node(node, expanded);
                        true
                    })
                    .await
                    .unwrap_or(false)
                }
                Work::Output(name) => {
                    let ok = options.destroy
                        || settle_value(&mut walk.borrow_mut(), scope, expansions, ValueKind::Output, &[], name);
                    if !ok {
                        // Left out of the plan, as Terraform sets no value for it.
                        walk.borrow_mut().skipped_outputs.insert(name.to_string());
                    }
                    ok
                }
                Work::Value(node) => {
                    let (kind, path, name) = (node.kind, &node.path, &node.name);
                    options.destroy || settle_value(&mut walk.borrow_mut(), scope, expansions, kind, path, name)
                }
                Work::Module(path) => {
                    expand_module(&mut walk.borrow_mut(), path);
                    true
                }
                Work::Provider(address) => match host.configure(address, values).await {
                    Ok(()) => true,
                    Err(d) => {
                        walk.borrow_mut().configure_diags.extend(d);
                        false
                    }
                },
            }
        })
    });
    // What depends on a failed resource is not planned.
    let skipped = |work: Work<'_>| match work {
        Work::Resource(r) => {
            walk.borrow_mut().failed.insert(graph.resources[r].address.clone());
        }
        Work::Output(name) => {
            walk.borrow_mut().skipped_outputs.insert(name.to_string());
        }
        // A skipped validation or module output: its check is unknown.
        Work::Value(node) => node_check(&mut walk.borrow_mut(), node.kind, &node.path, &node.name, None),
        Work::Orphan(_) | Work::Provider(_) | Work::Module(_) => {}
    };
    graph.walk(&visit, &skipped, parallelism, options.cancel.clone()).await;
    // Every reader ran after the value nodes it reads: the graph orders them (its edges are
    // Terraform's), and a reader before its value would read something not evaluated yet.
    debug_assert_eq!(scope.early_reads(), 0, "values read before their nodes ran");
    if options.cancel.as_ref().is_some_and(crate::walk::CancelToken::is_cancelled) {
        // Terraform's stop hook: `errors.New("execution halted")`.
        walk.borrow_mut().diags.push(Diagnostic::error("execution halted", ""));
    }
    let mut walk = walk.into_inner();
    result.module_instances = expansions.instances.borrow().clone();
    if !destroying {
        result.outputs = walk.outputs(&scope, &graph);
    }
    // The refresh before a destroy evaluates its conditions as warnings, which it drops.
    if !destroying && !walk.pre_destroy_refresh {
        let mut check_diags = Diagnostics::new();
        result.checks = shared::checks::evaluate(
            &scope,
            &inputs,
            config,
            &resources,
            &values,
            &walk.failed,
            &mut check_diags,
            true,
        );
        result.checks.append(&mut walk.node_checks);
        if !walk.targets.is_empty() {
            let kept = &walk.kept;
            shared::targets::leave_out_checks(&mut result.checks, kept, &|o| graph.output_kept(o, kept));
            result.kept = Some(walk.kept.clone());
            // No target keeps a check block's node: its assertions warn of nothing.
            check_diags.0.retain(|d| !d.summary.starts_with("Check block assertion"));
        }
        walk.diags.extend(check_diags);
    }
    if destroying {
        result.checks = super::destroy::unknown_checks(config, !walk.targets.is_empty());
        // `NodeDestroyableOutput`: each root output in the state is deleted, its node skipped by
        // nothing (it depends on nothing); none under -target (nothing a target reaches keeps it).
        if walk.targets.is_empty() {
            result.outputs = walk.destroyed_outputs();
        }
    }
    result.diagnostics.extend(std::mem::take(&mut *scope.diagnostics.borrow_mut()));
    result.diagnostics.extend(walk.diags);
    result.diagnostics = shared::snippets::with_sources(std::mem::take(&mut result.diagnostics), &file_source);
    result.diagnostics.extend(walk.configure_diags);
    for (c, v) in &walk.imported {
        super::import::add_to_state(&mut result.prior_state, c, v);
    }
    let mut changes = walk.changes;
    for c in &mut changes {
        if c.deposed.is_none() {
            c.previous_address = moved.get(&c.address()).cloned();
            if c.previous_address.is_some() && c.reason == Some("delete_because_no_resource_config") {
                c.reason = Some("delete_because_no_move_target");
            }
        }
    }
    // Addresses made once per change, not per comparison.
    let mut keyed: Vec<((String, Option<String>), InstanceChange)> =
        changes.into_iter().map(|c| ((c.address(), c.deposed.clone()), c)).collect();
    crate::util::sort::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0));
    let changes: Vec<InstanceChange> = keyed.into_iter().map(|(_, c)| c).collect();
    // Objects forgotten by `removed` blocks: Terraform warns once for all of them (context_plan.go).
    let forgotten: Vec<String> =
        changes.iter().filter(|c| c.action == Action::Forget).map(|c| format!(" - {}", c.address())).collect();
    if !forgotten.is_empty() {
        result.diagnostics.push(Diagnostic::warning("Some objects will no longer be managed by Terraform", format!("If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:\n{}\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.", forgotten.join("\n"))));
    }
    result.changes = changes;
    if let (Some(p), false) = (result.prior_state.as_mut(), destroying) {
        super::refreshed_deps::apply(p, &result.changes, !options.no_refresh);
    }
    result.ops = walk.ops;
    result.data_read = walk.data_read;
    if let Phase::Destroy(Some(refreshed)) = phase {
        // What the refresh plan read and expanded: its refreshed state is this plan's prior.
        result.ops = refreshed.ops;
        result.data_read = refreshed.data_read;
        result.module_instances = refreshed.module_instances;
    }
    if let (Some(p), false) = (result.prior_state.as_mut(), destroying) {
        super::data_orphans::drop(p, &walk.data_dropped);
    }
    let sources = jsonconfig::sources::Sources::new(config);
    result.configuration = Some(jsonconfig::config_json::configuration(config, &sources, provider, &inputs));
    let module_outputs = if destroying { Vec::new() } else { shared::module_outputs::changed(&config.root, &scope) };
    result.relevant_attributes = shared::relevant::Relevant::new(config, module_outputs);
    // The apply graph this plan would build, checked now (Terraform's `checkApplyGraph`).
    if !result.diagnostics.has_errors() {
        let (errors, graph) = shared::apply_check::check(config, &result);
        result.apply_graph_refused = errors.has_errors();
        result.apply_graph = graph;
        result.diagnostics.extend(errors);
    }
    result
}

/// Runs `work` (a node's synchronous planning) until it asks the providers nothing they could
/// not answer at once: after a run that asked, its results are taken back at once (other nodes
/// run while the answers are awaited), and it runs again with them. `address` names the
/// resource the work plans ("" for none). `None`: the answers failed or never settled, and the
/// diagnostics say why.
async fn settled<'w>(
    walk: &std::cell::RefCell<PlanWalk<'w>>,
    host: &dyn PlanHost,
    values: &WalkValues,
    address: &str,
    work: &mut dyn FnMut(&mut PlanWalk<'w>) -> bool,
) -> Option<bool> {
    for _ in 0..MAX_RUNS {
        let answering = {
            let mut w = walk.borrow_mut();
            let mark = w.mark(address);
            let done = work(&mut w);
            match host.answers(values) {
                None => return Some(done),
                Some(answering) => {
                    w.take_back(address, mark);
                    answering
                }
            }
        };
        if let Err(d) = answering.await {
            let mut w = walk.borrow_mut();
            w.diags.extend(d);
            w.failed.insert(address.to_string());
            return None;
        }
    }
    let mut w = walk.borrow_mut();
    w.diags.push(Diagnostic::error("Provider answers did not settle", format!("Planning {address} asked its providers new questions in each of {MAX_RUNS} runs: their answers depend on something besides their inputs.")));
    w.failed.insert(address.to_string());
    None
}

/// The visit of a value node (Terraform's `NodeLocal`, `nodeModuleVariable`,
/// `nodeVariableValidation`, `NodeApplyableOutput`): its value evaluated in every instance of
/// its module the walk expanded, kept where every later reader finds it; its errors reported
/// now, in the walk's order; a validation's or a module output's conditions recorded for the
/// plan's checks. `false` when it failed in one instance: its dependents are skipped.
fn settle_value(
    walk: &mut PlanWalk<'_>,
    scope: &ModuleScope<'_>,
    expansions: &Expansions<'_>,
    kind: ValueKind,
    path: &[String],
    name: &str,
) -> bool {
    use crate::eval::module_scope::Settle;
    let mut ok = true;
    let mut checked = Vec::new();
    for keys in expansions.instances(path) {
        // What the node found in this instance: whether it failed, its conditions.
        let mut found = None;
        with_scope(scope, path, &keys, &mut |s| {
            found = match kind {
                ValueKind::Local => s.settle(Settle::Local, name).map(|ok| (ok, None)),
                ValueKind::Variable => s.settle(Settle::Variable, name).map(|ok| (ok, None)),
                ValueKind::Validation => s.validate_variable(name).map(|c| (c.ok, Some(c))),
                ValueKind::Output => output_preconditions(s, name).map(|c| {
                    let settled = c.ok && s.settle(Settle::Output, name) == Some(true);
                    (settled, Some(c))
                }),
            };
        });
        let Some((settled, conditions)) = found else { continue };
        ok &= settled;
        if let Some(c) = conditions {
            checked.push((order::instance_addr(path, &keys), c));
        }
    }
    node_check(walk, kind, path, name, Some(checked));
    walk.diags.extend(std::mem::take(&mut *scope.diagnostics.borrow_mut()));
    ok
}

/// Records the check of a value node when it is one: a module variable's validations or a
/// module output's preconditions, as the node found them in each instance (`None`: skipped).
fn node_check(
    walk: &mut PlanWalk<'_>,
    kind: ValueKind,
    path: &[String],
    name: &str,
    instances: Option<Vec<(String, crate::eval::module_scope::Conditions)>>,
) {
    let output = kind == ValueKind::Output;
    if (output || kind == ValueKind::Validation)
        && !path.is_empty()
        && !config_of(walk.config, kind, path, name).is_empty()
    {
        walk.node_checks.push(shared::checks::of_node(output, path, name, instances));
    }
}

/// Terraform's `NodeApplyableOutput.Execute` first checks output `name`'s preconditions in
/// module instance `s` (`evalCheckRules`): a failed one is an error there, and the value is
/// not evaluated. An overridden instance's are not checked. `None`: no such output.
fn output_preconditions(s: &ModuleScope<'_>, name: &str) -> Option<crate::eval::module_scope::Conditions> {
    let decl = s.module().outputs.iter().find(|o| o.name == name)?;
    let mut found = crate::eval::module_scope::Conditions { ok: true, ..Default::default() };
    for c in decl.preconditions.iter().filter(|_| !s.overridden()) {
        let mut diags = Diagnostics::new();
        let (status, message) = shared::checks::condition(s, s.inputs(), c, &mut diags);
        found.ok &= !diags.has_errors() && status != shared::checks::Status::Fail;
        found.unknown |= status == shared::checks::Status::Unknown;
        s.diagnostics.borrow_mut().extend(diags);
        if let Some(message) = message {
            let d = Diagnostic::error("Module output value precondition failed", message.clone())
                .with_range(c.condition.range.clone());
            s.diagnostics.borrow_mut().push(shared::checks::failed_condition(d, s, s.inputs(), &c.condition));
            found.failed.push(message);
        }
    }
    Some(found)
}

/// The conditions a value node checks: a variable's validations, an output's preconditions.
fn config_of<'c>(
    config: &'c Config,
    kind: ValueKind,
    path: &[String],
    name: &str,
) -> &'c [crate::config::model::Condition] {
    let Some(m) = order::module_at(config, path) else { return &[] };
    match kind {
        ValueKind::Validation => m.variables.iter().find(|v| v.name == name).map_or(&[], |v| &v.validations),
        _ => m.outputs.iter().find(|o| o.name == name).map_or(&[], |o| &o.preconditions),
    }
}

/// `visit` as the walk takes it: one lifetime for the nodes' work and the futures doing it.
fn one_lifetime<'v, F: Fn(Work<'v>) -> LocalBoxFuture<'v, bool>>(visit: F) -> F {
    visit
}

/// What a run of a node's planning may add to the walk, as it was before the run.
struct Mark {
    changes: usize,
    data_dropped: usize,
    ops: usize,
    data_read: usize,
    imported: usize,
    diags: usize,
    failed: bool,
    pending: Option<BTreeSet<String>>,
}

impl<'a> PlanWalk<'a> {
    fn mark(&self, address: &str) -> Mark {
        Mark {
            changes: self.changes.len(),
            data_dropped: self.data_dropped.len(),
            ops: self.ops.len(),
            data_read: self.data_read.len(),
            imported: self.imported.len(),
            diags: self.diags.0.len(),
            failed: self.failed.contains(address),
            pending: self.pending.get(address).cloned(),
        }
    }

    /// Takes back what planning `address` added since `mark` (it was planned on provisional
    /// answers).
    fn take_back(&mut self, address: &str, mark: Mark) {
        for c in self.changes.drain(mark.changes..) {
            self.by_address.remove(&c.address());
        }
        self.ops.truncate(mark.ops);
        self.data_dropped.truncate(mark.data_dropped);
        self.data_read.truncate(mark.data_read);
        self.imported.truncate(mark.imported);
        self.diags.0.truncate(mark.diags);
        if !mark.failed {
            self.failed.remove(address);
        }
        match mark.pending {
            Some(p) => self.pending.insert(address.to_string(), p),
            None => self.pending.remove(address),
        };
    }

    /// Tells `on_op` where the operation pushed last is.
    fn progress(&self, p: OpProgress<'_>) {
        if let (Some(hook), Some(op)) = (&self.options.on_op, self.ops.last()) {
            (hook.0)(op, p);
        }
    }

    /// The refresh of `prior` (its operation pushed last), told to `on_op` as it goes.
    fn refresh(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, crate::providers::ProviderError> {
        self.progress(OpProgress::Start { prior: Some(prior) });
        let read = self.prov().read_resource(type_name, prior);
        self.progress(match &read {
            Ok(v) => OpProgress::Finish { object: v.as_ref() },
            Err(error) => OpProgress::Fail { error },
        });
        read
    }

    /// The provider serving the configuration being planned now.
    fn prov(&self) -> &'a dyn Provider {
        crate::providers::route(self.provider, &self.serving)
    }

    fn schema(&self, mode: ResourceMode, type_name: &str) -> Option<&'a ResourceSchema> {
        match mode {
            ResourceMode::Data => self.prov().data_source_schema(type_name),
            _ => self.prov().resource_schema(type_name),
        }
    }

    fn expansion(&mut self, scope: &ModuleScope<'_>, r: &Resource) -> Option<Expansion> {
        let expansion = self.expansion_unchecked(scope, r)?;
        // More instances than one plan may hold: an error at the argument (issue #26).
        let (n, argument, e) = match &expansion {
            Expansion::Count(n) => (usize::try_from(*n).unwrap_or(0), "count", r.count.as_ref()?),
            Expansion::ForEach(items) => (items.len(), "for_each", r.for_each.as_ref()?),
            Expansion::Single => return Some(expansion),
        };
        let so_far = self.changes.len() + self.data_read.len();
        let address = &self.order_resource;
        if let Some(d) = crate::eval::limits::check_instances(n, so_far, address, argument, &e.range) {
            self.diags.push(d);
            return None;
        }
        Some(expansion)
    }

    fn expansion_unchecked(&mut self, scope: &ModuleScope<'_>, r: &Resource) -> Option<Expansion> {
        if let Some(e) = &r.count {
            let v = match eval_config_expr(scope, self.inputs, e) {
                Ok(v) => v,
                Err(d) => {
                    self.diags.push(*d);
                    return None;
                }
            };
            return match crate::eval::repetition::count(&v) {
                Ok(n) => Some(Expansion::Count(n)),
                Err(err) => {
                    let d = crate::eval::repetition::count_error(&err)
                        .unwrap_or_else(crate::eval::repetition::count_unknown)
                        .with_range(e.range.clone());
                    // A conversion error is HCL's, whose snippet names the values read.
                    let values = match err {
                        CountError::Type(_) => {
                            shared::snippets::expression_values(scope, self.inputs, &e.source, CausedBy::Other)
                        }
                        _ => Vec::new(),
                    };
                    self.diags.push(shared::snippets::with_source(d, self.inputs.files, values));
                    None
                }
            };
        }
        if let Some(e) = &r.for_each {
            let v = match eval_config_expr(scope, self.inputs, e) {
                Ok(v) => v,
                Err(d) => {
                    self.diags.push(*d);
                    return None;
                }
            };
            return match crate::eval::repetition::for_each(&v) {
                Ok(items) => Some(Expansion::ForEach(items)),
                Err(err) => {
                    // Terraform's diagnostic carries the expression, so its snippet names the values read.
                    let d = crate::eval::repetition::for_each_error(&err, &v).with_range(e.range.clone());
                    let values = shared::snippets::expression_values(scope, self.inputs, &e.source, err.caused_by());
                    self.diags.push(shared::snippets::with_source(d, self.inputs.files, values));
                    None
                }
            };
        }
        Some(Expansion::Single)
    }

    fn resource(&mut self, scope: &ModuleScope<'_>, w: &Walkable<'_>, dependencies: &[String], args: &body::Body) {
        self.order_resource = w.config_address.clone();
        let r = w.resource;
        crate::eval::limits::site(&r.range, &w.address);
        self.serving = match self.routing.provider_config(&w.config_address) {
            Some(p) => p.to_string(),
            None => default_config(&r.provider.fqn),
        };
        let key = (w.module_addr.clone(), mode_str(r.mode).to_string(), r.type_name.clone(), r.name.clone());
        let Some(schema) = self.schema(r.mode, &r.type_name).cloned() else {
            let what = if r.mode == ResourceMode::Data { "data source" } else { "resource type" };
            self.diags.push(
                Diagnostic::error(
                    format!("Invalid {what}"),
                    format!(
                        "The provider {} does not support {what} \"{}\".",
                        source_of(&self.serving).trim_start_matches("registry.terraform.io/"),
                        r.type_name
                    ),
                )
                .with_range(r.range.clone()),
            );
            return;
        };
        let prior: Vec<PriorObject> = self.prior.get(&key).map(|(_, o)| o.clone()).unwrap_or_default();
        let Some(expansion) = self.expansion(scope, r) else {
            self.values.insert(key, Value::dynamic());
            return;
        };
        let instances: Vec<Repetition> = match &expansion {
            Expansion::Single => vec![(None, None, None)],
            Expansion::Count(n) => (0..*n).map(|i| (Some(InstanceKey::Int(i)), Some(i), None)).collect(),
            Expansion::ForEach(items) => items
                .iter()
                .map(|(k, v)| (Some(InstanceKey::Str(k.clone())), None, Some((Value::string(k.clone()), v.clone()))))
                .collect(),
        };
        let raddr = r.addr();
        if r.mode == ResourceMode::Managed {
            self.incomplete_replace(w, &raddr, &instances);
        }
        // An import to an instance the expansion does not have: the resource is not planned.
        let addresses: BTreeSet<String> = crate::util::sort::btree_set(
            instances
                .iter()
                .map(|(k, _, _)| format!("{}{}", w.address, k.as_ref().map(|k| k.to_string()).unwrap_or_default())),
        );
        let of_this = |a: &str| {
            crate::addrs::InstanceAddr::parse(a)
                .is_ok_and(|x| crate::addrs::InstanceAddr { key: None, ..x }.to_string() == w.address)
        };
        let stray = self.imports.keys().filter(|a| !addresses.contains(*a) && of_this(a)).min().cloned();
        if let Some(a) = stray {
            self.diags.push(super::import::instance_not_configured(&a));
            self.failed.insert(w.config_address.clone());
            self.values.insert(key, Value::dynamic());
            return;
        }
        let mut planned_values: Vec<(Option<InstanceKey>, Value)> = Vec::new();
        let mut untargeted_absent: BTreeSet<Option<InstanceKey>> = BTreeSet::new();
        let mut any_pending = false;
        for (ikey, count_index, each) in &instances {
            let prior_obj = prior.iter().find(|o| o.deposed.is_none() && &o.key == ikey);
            let instance_address = format!("{}{}", w.address, ikey.as_ref().map(|k| k.to_string()).unwrap_or_default());
            if !self.planned_here(&w.module_addr, &raddr, ikey) {
                // Left out by -target: what reads it sees the object as it is. One with no
                // object is not there (Terraform builds the value from the state): a for_each
                // key is left out, a count index unknown unless no later index has an object.
                match prior_obj {
                    Some(o) => planned_values.push((ikey.clone(), object_value(o, Some(&schema)))),
                    None if matches!(ikey, Some(InstanceKey::Str(_))) => {}
                    None => {
                        planned_values.push((ikey.clone(), Value::dynamic()));
                        untargeted_absent.insert(ikey.clone());
                    }
                }
                continue;
            }
            // An import block's instance with no object yet is imported (else the block is ignored).
            let import = if prior_obj.is_none() && r.mode == ResourceMode::Managed {
                self.imports.get(&instance_address).cloned()
            } else {
                None
            };
            let inst = InstanceScope { module: scope, count_index: *count_index, each: each.clone(), self_value: None };
            let mut diags = Diagnostics::new();
            let cfg = body::evaluate(&inst, self.inputs, args, &schema, &mut diags);
            // Preconditions are checked before the instance is planned (the refresh before a
            // destroy only warns of them, and drops its warnings).
            let preconditions = if self.pre_destroy_refresh { &[][..] } else { &r.lifecycle.preconditions[..] };
            for c in preconditions {
                if let (shared::checks::Status::Fail, m) = shared::checks::condition(&inst, self.inputs, c, &mut diags)
                {
                    diags.push(shared::checks::failed_condition(
                        Diagnostic::error("Resource precondition failed", m.unwrap_or_default())
                            .with_range(c.condition.range.clone()),
                        &inst,
                        self.inputs,
                        &c.condition,
                    ));
                }
            }
            let failed = diags.has_errors();
            self.diags.extend(diags);
            if failed {
                self.failed.insert(w.config_address.clone());
                planned_values.push((ikey.clone(), Value::dynamic()));
                continue;
            }
            let mut change = InstanceChange {
                module: w.module_addr.clone(),
                mode: r.mode,
                type_name: r.type_name.clone(),
                name: r.name.clone(),
                key: ikey.clone(),
                deposed: None,
                action: Action::NoOp,
                before: None,
                after: None,
                reason: None,
                replace_paths: Vec::new(),
                provider: source_of(&self.serving),
                provider_config: self.serving.clone(),
                schema_version: schema.version,
                dependencies: dependencies.to_vec(),
                create_before_destroy: r.lifecycle.create_before_destroy == Some(true) || self.forced_cbd,
                previous_address: None,
                importing: None,
            };
            let address = change.address();
            if r.mode == ResourceMode::Data {
                let pending = self.dependency_pending(w);
                if !cfg.is_wholly_known() || pending {
                    let mut after = cfg.clone();
                    for (k, a) in &schema.attributes {
                        if a.computed && attr(&cfg, k).is_none_or(Value::is_null) {
                            if let Kind::Object(m) = &mut after.kind {
                                m.insert(k.clone(), Value::unknown(a.ty.clone()));
                            }
                        }
                    }
                    change.action = Action::Read;
                    change.reason = Some(if cfg.is_wholly_known() {
                        "read_because_dependency_pending"
                    } else {
                        "read_because_config_unknown"
                    });
                    change.after = Some(after.clone());
                    planned_values.push((ikey.clone(), after));
                    // Its prior object leaves the refreshed state: a placeholder until the apply
                    // reads it (`RemovePlannedResourceInstanceObjects`; recorded:
                    // data-depends-on-pending step 3).
                    self.data_dropped.push(super::data_orphans::object(&key, ikey));
                    self.push(change);
                    any_pending = true;
                } else {
                    self.ops.push(PlanOp {
                        op: Op::ReadData,
                        address: address.clone(),
                        resource: w.config_address.clone(),
                        deps: self.order_deps.clone(),
                        name: body::attr(&cfg, "name").and_then(|v| v.as_str().map(String::from)),
                        after: None,
                    });
                    self.progress(OpProgress::Start { prior: None });
                    self.prov().at_instance(&address);
                    let read = self.prov().read_data_source(&r.type_name, &cfg);
                    self.progress(match &read {
                        Ok(v) => OpProgress::Finish { object: Some(v) },
                        Err(error) => OpProgress::Fail { error },
                    });
                    match read {
                        Ok(v) => {
                            change.after = Some(v.clone());
                            planned_values.push((ikey.clone(), v));
                            // A data source read during plan is no change: it goes to the
                            // refreshed state (the plan's prior state and planned values).
                            self.data_read.push(change);
                        }
                        Err(e) => {
                            self.diags.push(
                                Diagnostic::error(e.summary, e.detail)
                                    .with_range(r.range.clone())
                                    .with_address(address.clone()),
                            );
                            self.failed.insert(w.config_address.clone());
                        }
                    }
                }
                continue;
            }
            // Refresh the prior object.
            let prior_val = match prior_obj {
                Some(o) => {
                    let v = object_value(o, Some(&schema));
                    let read = if !self.refresh {
                        Ok(Some(v.clone()))
                    } else {
                        self.ops.push(PlanOp {
                            op: Op::Read,
                            address: address.clone(),
                            resource: w.config_address.clone(),
                            deps: self.order_deps.clone(),
                            name: attr(&v, "name").and_then(|v| v.as_str().map(String::from)),
                            after: None,
                        });
                        self.refresh(&r.type_name, &v)
                    };
                    match read {
                        Ok(v) => v,
                        Err(e) => {
                            self.diags.push(
                                Diagnostic::error(e.summary, e.detail)
                                    .with_range(r.range.clone())
                                    .with_address(address.clone()),
                            );
                            self.failed.insert(w.config_address.clone());
                            continue;
                        }
                    }
                }
                None => match &import {
                    Some(id) => match self.import(&r.type_name, &address, id) {
                        Ok(v) => {
                            change.importing = Some(id.clone());
                            self.imported.push((change.clone(), v.clone()));
                            Some(v)
                        }
                        Err(d) => {
                            self.diags.push(d.with_range(r.range.clone()).with_address(address.clone()));
                            self.failed.insert(w.config_address.clone());
                            continue;
                        }
                    },
                    None => None,
                },
            };
            let tainted = prior_obj.is_some_and(|o| o.tainted);
            let cfg = ignore_changes(&r.lifecycle.ignore_changes, cfg, prior_val.as_ref(), &schema);
            // A provider's error fails the resource: what depends on it is not planned.
            let Some(planned) = self.plan_change(r, &schema, prior_val.as_ref(), &cfg, &address) else {
                self.failed.insert(w.config_address.clone());
                continue;
            };
            change.before = prior_val.clone();
            let triggered = prior_val.is_some() && self.replace_triggered(scope, r, *count_index, each.clone());
            let forced = prior_val.is_some() && self.replace.iter().any(|a| a.to_string() == address);
            match &prior_val {
                None => {
                    change.action = Action::Create;
                    change.after = Some(planned.planned);
                }
                Some(pv) if forced || !planned.requires_replace.is_empty() || triggered || tainted => {
                    let Some(create) = self.plan_change(r, &schema, None, &cfg, &address).map(|p| p.planned) else {
                        self.failed.insert(w.config_address.clone());
                        continue;
                    };
                    let _ = pv;
                    change.action =
                        if change.create_before_destroy { Action::CreateThenDelete } else { Action::DeleteThenCreate };
                    // Terraform's precedence: replace_triggered_by overrides the reason last; a
                    // tainted object is planned as a create first, so -replace never names it.
                    change.reason = Some(if triggered {
                        "replace_by_triggers"
                    } else if tainted {
                        "replace_because_tainted"
                    } else if forced {
                        "replace_by_request"
                    } else {
                        "replace_because_cannot_update"
                    });
                    change.replace_paths = planned.requires_replace.clone();
                    change.after = Some(create);
                }
                Some(pv) => {
                    change.action = if planned.planned.equals_known(pv) { Action::NoOp } else { Action::Update };
                    change.after = Some(planned.planned);
                }
            }
            if matches!(change.action, Action::DeleteThenCreate | Action::CreateThenDelete)
                && r.lifecycle.prevent_destroy == Some(true)
            {
                self.diags.push(prevent_destroy(&address, r));
            }
            if change.action != Action::NoOp {
                any_pending = true;
            }
            planned_values.push((ikey.clone(), change.after.clone().unwrap_or_else(Value::dynamic)));
            self.push(change);
        }
        // Orphaned instances: keys no longer in the expansion.
        for o in prior.iter().filter(|o| o.deposed.is_none()) {
            if instances.iter().any(|(k, _, _)| k == &o.key) {
                continue;
            }
            if r.mode == ResourceMode::Data {
                // `NodePlannableResourceInstanceOrphan` of a data source: its object leaves the
                // refreshed state, no change planned.
                if self.planned_here(&w.module_addr, &raddr, &o.key) {
                    self.data_dropped.push(super::data_orphans::object(&key, &o.key));
                }
                continue;
            }
            if !self.planned_here(&w.module_addr, &raddr, &o.key) {
                // An orphan -target leaves out stays in the state, and what reads the resource
                // sees it there (recorded: target-count-shrink-output), as the apply will.
                if matches!(
                    (&expansion, &o.key),
                    (Expansion::Count(_), Some(InstanceKey::Int(_)))
                        | (Expansion::ForEach(_), Some(InstanceKey::Str(_)))
                ) {
                    planned_values.push((o.key.clone(), object_value(o, Some(&schema))));
                }
                continue;
            }
            let reason = Some(match (&expansion, &o.key) {
                (Expansion::Count(_), Some(InstanceKey::Int(_))) => "delete_because_count_index",
                (Expansion::ForEach(_), Some(InstanceKey::Str(_))) => "delete_because_each_key",
                _ => "delete_because_wrong_repetition",
            });
            self.orphan(&w.module_addr, r.mode, &r.type_name, &r.name, o, reason, Action::Delete, Some(&schema));
            if r.lifecycle.prevent_destroy == Some(true) {
                self.diags.push(prevent_destroy(
                    &format!("{}{}", w.address, o.key.as_ref().map(|k| k.to_string()).unwrap_or_default()),
                    r,
                ));
            }
            any_pending = true;
        }
        // Deposed objects left by an earlier apply are destroyed.
        let deposed: Vec<&PriorObject> =
            prior.iter().filter(|o| o.deposed.is_some() && self.planned_here(&w.module_addr, &raddr, &o.key)).collect();
        for o in deposed {
            self.orphan(&w.module_addr, r.mode, &r.type_name, &r.name, o, None, Action::Delete, Some(&schema));
            any_pending = true;
        }
        if any_pending {
            self.pending.entry(w.config_address.clone()).or_default().insert(w.module_addr.clone());
        }
        let value = match expansion {
            Expansion::Single => planned_values.pop().map(|(_, v)| v).unwrap_or_else(Value::dynamic),
            Expansion::Count(_) => {
                // Untargeted orphans come after the expansion's indexes; holes read as unknown.
                crate::util::sort::sort_by_key(&mut planned_values, |(k, _)| {
                    if let Some(InstanceKey::Int(i)) = k {
                        *i
                    } else {
                        0
                    }
                });
                while planned_values.last().is_some_and(|(k, _)| untargeted_absent.contains(k)) {
                    planned_values.pop();
                }
                let mut out = Vec::with_capacity(planned_values.len());
                for (k, v) in planned_values {
                    let i = if let Some(InstanceKey::Int(i)) = k { usize::try_from(i).unwrap_or(0) } else { out.len() };
                    // A key no count reaches (a hand-edited state) is not worth gigabytes of holes.
                    if i > out.len() + (1 << 20) {
                        break;
                    }
                    out.resize_with(i.max(out.len()), Value::dynamic);
                    out.push(v);
                }
                Value::tuple(out)
            }
            Expansion::ForEach(_) => Value::object(crate::util::sort::btree_map(
                planned_values
                    .into_iter()
                    .map(|(k, v)| (if let Some(InstanceKey::Str(s)) = k { s } else { String::new() }, v)),
            )),
        };
        self.values.insert(key, value);
    }

    /// Whether a resource the data source `w` depends on has a change pending
    /// (`forcePlanReadData`): any instance of it, except that in the data source's own module
    /// only the same module instance counts (the reference takes effect there alone).
    fn dependency_pending(&self, w: &Walkable<'_>) -> bool {
        let own_module = order::module_addr(&w.path);
        self.data_deps.iter().any(|d| match self.pending.get(d) {
            None => false,
            Some(instances) if order::module_of(d) == own_module => instances.contains(&w.module_addr),
            Some(_) => true,
        })
    }

    /// `ImportResourceState`, then the refresh that reads the imported object.
    fn import(&mut self, type_name: &str, address: &str, id: &str) -> Result<Value, Diagnostic> {
        self.ops.push(PlanOp {
            op: Op::Import,
            address: address.to_string(),
            resource: self.order_resource.clone(),
            deps: self.order_deps.clone(),
            name: None,
            after: None,
        });
        // Told to `on_op` as the object the import names (`Preparing import... [id=...]`).
        let named = Value::object(crate::util::sort::btree_map([("id".to_string(), Value::string(id.to_string()))]));
        self.progress(OpProgress::Start { prior: Some(&named) });
        let imported = self.prov().import_resource_state(type_name, id);
        self.progress(match &imported {
            Ok(v) => OpProgress::Finish { object: Some(v) },
            Err(error) => OpProgress::Fail { error },
        });
        let imported = imported.map_err(|e| Diagnostic::error(e.summary, e.detail))?;
        let name = attr(&imported, "name").and_then(|v| v.as_str().map(String::from));
        self.ops.push(PlanOp {
            op: Op::Read,
            address: address.to_string(),
            resource: self.order_resource.clone(),
            deps: self.order_deps.clone(),
            name,
            after: Some(self.ops.len() - 1),
        });
        match self.refresh(type_name, &imported) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(Diagnostic::error(
                "Cannot import non-existent remote object",
                format!("While attempting to import an existing object to {}, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"terraform apply\" to create a new remote object for this resource.", crate::addrs::go_quote(address)),
            )),
            Err(e) => Err(Diagnostic::error(e.summary, e.detail)),
        }
    }

    /// Whether an instance of the resource being walked is planned: always, unless a target
    /// names this resource and contains other instances only.
    fn planned_here(&self, module: &str, resource: &crate::addrs::ResourceAddr, key: &Option<InstanceKey>) -> bool {
        !self.targeted_here || self.targets.contains(module, resource, key)
    }

    /// `-replace=ADDR` without a key for a resource whose instances need one: Terraform's
    /// warning (it compares the resource alone, whatever the module).
    fn incomplete_replace(
        &mut self,
        w: &Walkable<'_>,
        resource: &crate::addrs::ResourceAddr,
        instances: &[Repetition],
    ) {
        let needs_key = instances.len() != 1 || instances[0].0.is_some();
        if !needs_key {
            return;
        }
        let addresses: Vec<String> = instances
            .iter()
            .map(|(k, _, _)| format!("{}{}", w.address, k.as_ref().map(|k| k.to_string()).unwrap_or_default()))
            .collect();
        let warnings: Vec<Diagnostic> = self
            .replace
            .iter()
            .filter(|a| a.key.is_none() && &a.resource == resource)
            .map(|a| shared::targets::incomplete_replace_warning(&a.to_string(), &addresses))
            .collect();
        for d in warnings {
            self.diags.push(d);
        }
    }

    /// The provider's plan for an instance; `None` after its errors: the provider's own, or
    /// Terraform's "Provider produced invalid plan" for a plan `objchange.AssertPlanValid`
    /// refuses (checked for providers the engine does not trust).
    fn plan_change(
        &mut self,
        r: &Resource,
        schema: &ResourceSchema,
        prior: Option<&Value>,
        cfg: &Value,
        address: &str,
    ) -> Option<crate::providers::PlannedChange> {
        let provider = self.prov();
        provider.at_instance(address);
        let planned = match provider.plan_resource_change(&r.type_name, prior, cfg) {
            Ok(p) => p,
            Err(e) => {
                self.diags.push(
                    Diagnostic::error(e.summary, e.detail)
                        .with_range(r.range.clone())
                        .with_address(address.to_string()),
                );
                return None;
            }
        };
        if !provider.checks_plans() {
            return Some(planned);
        }
        let prior = prior.map(|p| p.unmark_deep().0);
        let errs = crate::providers::plan_valid::assert_plan_valid(
            schema,
            prior.as_ref(),
            &cfg.unmark_deep().0,
            &planned.planned.unmark_deep().0,
        );
        let source = crate::addrs::go_quote(provider.source());
        for e in &errs {
            self.diags.push(Diagnostic::error("Provider produced invalid plan", format!("Provider {source} planned an invalid value for {address}{e}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.")));
        }
        errs.is_empty().then_some(planned)
    }

    fn push(&mut self, change: InstanceChange) {
        self.by_address.insert(change.address(), self.changes.len());
        self.changes.push(change);
    }

    #[allow(clippy::too_many_arguments)]
    fn orphan(
        &mut self,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        o: &PriorObject,
        reason: Option<&'static str>,
        action: Action,
        schema: Option<&ResourceSchema>,
    ) {
        let mut change = InstanceChange {
            module: module.to_string(),
            mode,
            type_name: type_name.to_string(),
            name: name.to_string(),
            key: o.key.clone(),
            deposed: o.deposed.clone(),
            action,
            before: None,
            after: None,
            reason,
            replace_paths: Vec::new(),
            provider: source_of(&self.serving),
            provider_config: self.serving.clone(),
            schema_version: schema.map(|s| s.version).unwrap_or(0),
            dependencies: o.dependencies.clone(),
            create_before_destroy: o.create_before_destroy,
            previous_address: None,
            importing: None,
        };
        let address = change.address();
        let v = object_value(o, schema);
        // Orphans of configured resources are refreshed in their resource's order; those of
        // removed resources wait for nothing; forgotten objects are not refreshed.
        let refresh = self.refresh;
        let refreshed = o.deposed.is_none() && action != Action::Forget && refresh;
        if refreshed {
            self.ops.push(PlanOp {
                op: Op::Read,
                address: address.clone(),
                resource: self.order_resource.clone(),
                deps: self.order_deps.clone(),
                name: attr(&v, "name").and_then(|v| v.as_str().map(String::from)),
                after: None,
            });
        }
        let read = if !refresh {
            Ok(Some(v.clone()))
        } else if refreshed {
            self.refresh(type_name, &v)
        } else {
            self.prov().read_resource(type_name, &v)
        };
        change.before = match read {
            Ok(Some(v)) => Some(v),
            _ => Some(v),
        };
        self.push(change);
    }

    /// `replace_triggered_by`: a referenced instance (or attribute) with a pending change.
    fn replace_triggered(
        &mut self,
        scope: &ModuleScope<'_>,
        r: &Resource,
        count_index: Option<i64>,
        each: Option<(Value, Value)>,
    ) -> bool {
        let module = if scope.module().address.is_empty() { String::new() } else { scope.module().address.clone() };
        for e in &r.lifecycle.replace_triggered_by {
            for reference in &e.references {
                let (ra, key) = match &reference.subject {
                    crate::addrs::Subject::Resource(ra) => (ra, None),
                    crate::addrs::Subject::ResourceInstance(ra, k) => (ra, Some(k.clone())),
                    _ => continue,
                };
                let _ = (&count_index, &each);
                let base = if module.is_empty() { ra.to_string() } else { format!("{module}.{ra}") };
                // The attribute named after the resource (and key), if any.
                let rest = reference.traversal.strip_prefix(&ra.to_string()).unwrap_or("");
                let rest = rest.trim_start_matches(|c| c != '.' && key.is_some()).trim_start_matches('.');
                let attr_name = rest.split(['.', '[']).next().filter(|s| !s.is_empty());
                for c in &self.changes {
                    let a = c.address();
                    let matches = match &key {
                        Some(k) => a == format!("{base}{k}"),
                        None => a == base || (a.starts_with(&base) && a[base.len()..].starts_with('[')),
                    };
                    if !matches || c.deposed.is_some() {
                        continue;
                    }
                    let hit = match attr_name {
                        None => !matches!(c.action, Action::NoOp | Action::Read),
                        Some(n) => {
                            let before = c.before.as_ref().and_then(|b| attr(b, n));
                            let after = c.after.as_ref().and_then(|b| attr(b, n));
                            match (before, after) {
                                (Some(b), Some(x)) => !x.is_wholly_known() || !b.raw_equal(x),
                                _ => true,
                            }
                        }
                    };
                    if hit {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Resources in the state that the configuration no longer has (or whose module is gone).
    /// Plans the deletion of the objects `objects` of the prior entry `key` (its resource gone
    /// from the configuration, or its module instance gone from the expansion; `module_gone`
    /// for the latter or a module gone entirely), served by the provider `provider` its state
    /// names. A `removed` block with `destroy = false` forgets them instead.
    fn orphan_objects<'o>(
        &mut self,
        key: &(String, String, String, String),
        provider: &str,
        objects: impl Iterator<Item = &'o PriorObject>,
        module_gone: bool,
    ) {
        let (module, mode, type_name, name) = key;
        let local = format!("{}{type_name}.{name}", if mode == "data" { "data." } else { "" });
        let removed =
            self.config.root.removed.iter().find(|rm| rm.from == local || rm.from == format!("{module}.{local}"));
        let action = if removed.is_some_and(|rm| !rm.destroy) { Action::Forget } else { Action::Delete };
        let reason =
            if module_gone { Some("delete_because_no_module") } else { Some("delete_because_no_resource_config") };
        self.serve_as_state_says(type_name, provider);
        let schema = self.schema(mode_of(mode), type_name).cloned();
        let raddr =
            crate::addrs::ResourceAddr { mode: mode_of(mode), type_name: type_name.clone(), name: name.clone() };
        for o in objects {
            // -target: the objects a target contains.
            if !self.targets.is_empty() && !self.targets.contains(module, &raddr, &o.key) {
                continue;
            }
            let reason = if o.deposed.is_some() { None } else { reason };
            self.orphan(module, mode_of(mode), type_name, name, o, reason, action, schema.as_ref());
        }
    }

    /// The visit of an orphan node of the plan graph ([`OrphanNode`]): its object planned for
    /// deletion. Its operations wait for nothing but the walk (its provider's node).
    /// `expanded`: whether the walk expanded its module instance (and the module has resources).
    fn orphan_node(&mut self, node: &OrphanNode, expanded: bool) {
        self.order_resource.clear();
        self.order_deps.clear();
        let key = (node.module.clone(), mode_str(node.mode).to_string(), node.type_name.clone(), node.name.clone());
        let Some((provider, objects)) = self.prior.get(&key) else { return };
        if node.mode == ResourceMode::Data {
            // A data source gone from the configuration (`NodePlannableResourceInstanceOrphan`'s
            // `dataResourceExecute`): its object leaves the refreshed state, no change planned.
            let raddr = crate::addrs::ResourceAddr {
                mode: node.mode,
                type_name: node.type_name.clone(),
                name: node.name.clone(),
            };
            if self.targets.is_empty() || self.targets.contains(&node.module, &raddr, &node.key) {
                self.data_dropped.push(super::data_orphans::object(&key, &node.key));
            }
            return;
        }
        let module_gone = !node.module.is_empty() && (!module_configured(self.config, &node.module) || !expanded);
        let objects = objects.iter().filter(|o| o.key == node.key && o.deposed == node.deposed);
        self.orphan_objects(&key, provider, objects, module_gone);
    }

    /// An object the configuration may no longer have is served by the provider configuration
    /// its state names (its type's default one when the state names none).
    fn serve_as_state_says(&mut self, type_name: &str, provider: &str) {
        self.serving = if provider.is_empty() {
            default_config(&format!(
                "registry.terraform.io/hashicorp/{}",
                type_name.split('_').next().unwrap_or(type_name)
            ))
        } else {
            provider.to_string()
        };
    }

    /// The visit of an object's node in the plan-destroy graph (Terraform's
    /// `NodePlanDestroyableResourceInstance`, or `NodePlanDeposedResourceInstanceObject` in
    /// `walkPlanDestroy`): its `Delete` planned from the (refreshed) state as it is, by the
    /// provider its state names; `prevent_destroy` on its configuration refuses it, the change
    /// still written (`checkPreventDestroy` after `writeChange`).
    fn destroy_object(&mut self, node: &OrphanNode) {
        self.order_resource.clear();
        self.order_deps.clear();
        let key = (node.module.clone(), mode_str(node.mode).to_string(), node.type_name.clone(), node.name.clone());
        let Some((provider, objects)) = self.prior.get(&key) else { return };
        self.serve_as_state_says(&node.type_name, provider);
        let schema = self.schema(node.mode, &node.type_name).cloned();
        let configured = configured_resource(self.config, &key);
        for o in objects.iter().filter(|o| o.key == node.key && o.deposed == node.deposed) {
            self.orphan(&node.module, node.mode, &node.type_name, &node.name, o, None, Action::Delete, schema.as_ref());
            if let Some(r) = configured.filter(|r| r.lifecycle.prevent_destroy == Some(true)) {
                let address = self.changes.last().map(InstanceChange::address).unwrap_or_default();
                self.diags.push(prevent_destroy(&address, r));
            }
        }
    }

    /// The destroy walk's resource values, which its provider blocks read: every configured
    /// resource as the (refreshed) state has it, in the shape of its configuration.
    fn prior_values(&mut self) {
        for (key, (provider, objects)) in self.prior {
            let Some(r) = configured_resource(self.config, key) else { continue };
            self.serve_as_state_says(&r.type_name, provider);
            if let Some(schema) = self.schema(r.mode, &r.type_name) {
                self.values.insert(key.clone(), prior_value(objects, schema, r));
            }
        }
    }

    fn outputs(&mut self, scope: &ModuleScope<'_>, graph: &super::walk::PlanGraph) -> Vec<OutputChange> {
        let prior_outputs = self.prior_outputs();
        let mut out = Vec::new();
        for o in &scope.module().outputs {
            if self.skipped_outputs.contains(&o.name) {
                continue;
            }
            // A targeted plan keeps the outputs that read only resources it kept.
            if !self.targets.is_empty() && !graph.output_kept(&o.name, &self.kept) {
                continue;
            }
            let v = scope.output(&o.name).unwrap_or_else(Value::dynamic);
            let before = prior_outputs.get(&o.name);
            let action = match before {
                // Null before (none is null too) and null after: nothing to do.
                _ if v.is_null() && before.is_none_or(|(b, _)| b.is_null()) => Action::NoOp,
                None => Action::Create,
                Some((b, _))
                    if v.is_wholly_known()
                        && crate::eval::value_json::value(b) == crate::eval::value_json::value(&v) =>
                {
                    Action::NoOp
                }
                Some(_) => Action::Update,
            };
            out.push(OutputChange {
                name: o.name.clone(),
                action,
                before: before.map(|(b, _)| b.clone()),
                before_sensitive: before.is_some_and(|(_, s)| *s),
                sensitive: o.sensitive || v.has_sensitive(),
                after: Some(v),
            });
        }
        for (name, (b, s)) in &prior_outputs {
            if self.targets.is_empty() && !scope.module().outputs.iter().any(|o| &o.name == name) {
                out.push(OutputChange {
                    name: name.clone(),
                    action: Action::Delete,
                    before: Some(b.clone()),
                    after: None,
                    before_sensitive: *s,
                    sensitive: false,
                });
            }
        }
        crate::util::sort::sort_by(&mut out, |a, b| a.name.cmp(&b.name));
        out
    }

    fn destroyed_outputs(&self) -> Vec<OutputChange> {
        let deleted = self.prior_outputs().into_iter().map(|(name, (before, sensitive))| OutputChange {
            name,
            action: Action::Delete,
            before: Some(before),
            after: None,
            before_sensitive: sensitive,
            sensitive,
        });
        deleted.collect()
    }

    fn prior_outputs(&self) -> BTreeMap<String, (Value, bool)> {
        let mut out = BTreeMap::new();
        if let Some(Json::Object(m)) = self.prior_json.and_then(|p| p.get("outputs")) {
            for (k, o) in m {
                let v = from_json(o.get("value").unwrap_or(&Json::Null));
                let v = match o.get("type").map(crate::eval::value_json::type_from_json) {
                    Some(Some(t)) => convert(&v, &t).unwrap_or(v),
                    _ => v,
                };
                out.insert(k.clone(), (v, o.get("sensitive").and_then(Json::as_bool).unwrap_or(false)));
            }
        }
        out
    }
}

/// The prior objects of resources the configuration declares, in module instances (the root's
/// are never gone), by configuration resource address.
fn module_objects<'p>(
    config: &Config,
    prior: &'p PriorIndex,
) -> HashMap<String, Vec<&'p (String, String, String, String)>> {
    let mut out: HashMap<String, Vec<&'p (String, String, String, String)>> = HashMap::new();
    for key in prior.keys() {
        let (module, mode, type_name, name) = key;
        if !matches!(mode.as_str(), "managed" | "data") || module.is_empty() {
            continue;
        }
        if configured_resource(config, key).is_some() {
            let data = if mode == "data" { "data." } else { "" };
            out.entry(order::config_addr(&format!("{module}.{data}{type_name}.{name}"))).or_default().push(key);
        }
    }
    out
}

/// The module instances the plan walk has expanded, by module path (call names): each module
/// call's expand node records its instances ([`Expansions::expand`]), which the nodes inside
/// the module read. Module instances multiply level by level: past limits.moduleInstances
/// (issue #26) the walk stops expanding and plans no more resources.
struct Expansions<'c> {
    config: &'c Config,
    instances: std::cell::RefCell<shared::plan::ModuleInstances>,
    /// Instances made so far by calls with `count` / `for_each`.
    total: std::cell::Cell<usize>,
    /// Whether the total passed the limit.
    stopped: std::cell::Cell<bool>,
}

impl<'c> Expansions<'c> {
    fn new(config: &'c Config) -> Expansions<'c> {
        let root = HashMap::from([(Vec::new(), vec![Vec::new()])]);
        Expansions {
            config,
            instances: std::cell::RefCell::new(root),
            total: Default::default(),
            stopped: Default::default(),
        }
    }

    /// The instances of the module at `path` (none before its expand node ran).
    fn instances(&self, path: &[String]) -> Vec<Vec<Option<ModuleKey>>> {
        self.instances.borrow().get(path).cloned().unwrap_or_default()
    }

    fn stopped(&self) -> bool {
        self.stopped.get()
    }

    /// Whether module instance `module` (`module.a[0]`) was expanded and its module declares
    /// resources.
    fn holds_resources(&self, module: &str) -> bool {
        let names = module_names(module);
        if order::module_at(self.config, &names).is_none_or(|m| m.resources.is_empty()) {
            return false;
        }
        self.instances(&names).iter().any(|keys| order::instance_addr(&names, keys) == module)
    }

    /// The visit of module call `path`'s expand node (Terraform's `nodeExpandModule`): its
    /// `count` / `for_each` evaluated in each instance of the calling module, its instances
    /// recorded, less those `overrides` names (Terraform's expander leaves them out). A value
    /// not known yet or unsuitable is an error, and that calling instance expands none.
    fn expand(&self, walk: &mut PlanWalk<'_>, scope: &ModuleScope<'_>, overrides: &ModuleOverrides, path: &[String]) {
        let Some((call_name, parent)) = path.split_last() else { return };
        let call =
            order::module_at(self.config, parent).and_then(|m| m.module_calls.iter().find(|c| &c.name == call_name));
        let Some(call) = call.filter(|c| c.module.is_some()) else { return };
        let mut made = Vec::new();
        for keys in self.instances(parent) {
            let list: Vec<Option<ModuleKey>> = if call.count.is_some() || call.for_each.is_some() {
                if self.stopped.get() {
                    break;
                }
                let got = match module_expansion(scope, parent, &keys, call_name) {
                    Ok(got) => got,
                    // Terraform's error for the value (unknown, unsuitable, negative...), with the
                    // values its expression read; that calling instance expands none.
                    Err(d) => {
                        if let Some(d) = d {
                            walk.diags.push(d);
                        }
                        continue;
                    }
                };
                self.total.set(self.total.get() + got.len());
                if let Some(d) =
                    crate::eval::limits::check_module_call(self.config, parent, call_name, self.total.get())
                {
                    // Past the limit nothing more is planned: the error is the answer.
                    walk.diags.push(d);
                    self.stopped.set(true);
                    break;
                }
                got.into_iter().map(Some).collect()
            } else {
                vec![None]
            };
            for key in list {
                let mut instance = keys.clone();
                instance.push(key);
                if overrides.is_empty() || overrides.outputs(&order::instance_addr(path, &instance)).is_none() {
                    made.push(instance);
                }
            }
        }
        self.instances.borrow_mut().insert(path.to_vec(), made);
    }
}

/// The resource block of a prior entry `(module instance, mode, type, name)`, if the
/// configuration still declares it.
fn configured_resource<'c>(config: &'c Config, key: &(String, String, String, String)) -> Option<&'c Resource> {
    let (module, mode, type_name, name) = key;
    let mode = mode_of(mode);
    order::module_at(config, &module_names(module))?
        .resources
        .iter()
        .find(|r| r.type_name == *type_name && r.name == *name && r.mode == mode)
}

/// The module calls of module instance `module` (`module.a[0].module.b`: `["a", "b"]`).
fn module_names(module: &str) -> Vec<String> {
    order::config_addr(module)
        .split("module.")
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('.').to_string())
        .collect()
}

fn module_configured(config: &Config, module: &str) -> bool {
    let mut m = &config.root;
    for n in &module_names(module) {
        let Some(call) = m.module_calls.iter().find(|c| &c.name == n) else { return false };
        match call.module.as_deref() {
            Some(child) => m = child,
            None => return true,
        }
    }
    true
}

/// A resource's value as its current prior objects give it, in the shape its configuration
/// expands to (a tuple for `count`, an object for `for_each`, the object itself): what a
/// destroy walk's provider blocks read.
fn prior_value(prior: &[PriorObject], schema: &ResourceSchema, r: &Resource) -> Value {
    let current = prior.iter().filter(|o| o.deposed.is_none());
    if r.count.is_some() {
        let mut objs: Vec<(i64, Value)> = current
            .filter_map(|o| {
                if let Some(InstanceKey::Int(i)) = o.key {
                    Some((i, object_value(o, Some(schema))))
                } else {
                    None
                }
            })
            .collect();
        crate::util::sort::sort_by_key(&mut objs, |(i, _)| *i);
        Value::tuple(objs.into_iter().map(|(_, v)| v).collect())
    } else if r.for_each.is_some() {
        Value::object(crate::util::sort::btree_map(current.filter_map(|o| {
            if let Some(InstanceKey::Str(k)) = &o.key {
                Some((k.clone(), object_value(o, Some(schema))))
            } else {
                None
            }
        })))
    } else {
        current
            .into_iter()
            .find(|o| o.key.is_none())
            .map(|o| object_value(o, Some(schema)))
            .unwrap_or_else(Value::dynamic)
    }
}

fn prevent_destroy(address: &str, r: &Resource) -> Diagnostic {
    Diagnostic::error(
        "Instance cannot be destroyed",
        format!("Resource {address} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target option."),
    )
    .with_range(r.range.clone())
}

/// `ignore_changes`: the ignored attributes (or map keys) keep their prior values.
fn ignore_changes(ic: &IgnoreChanges, cfg: Value, prior: Option<&Value>, schema: &ResourceSchema) -> Value {
    let Some(prior) = prior else { return cfg };
    let mut cfg = cfg;
    let Kind::Object(m) = &mut cfg.kind else { return cfg };
    match ic {
        IgnoreChanges::None => {}
        IgnoreChanges::All => {
            for (k, a) in &schema.attributes {
                if a.optional || a.required {
                    if let Some(p) = attr(prior, k) {
                        m.insert(k.clone(), p.clone());
                    }
                }
            }
        }
        IgnoreChanges::Attributes(paths) => {
            for path in paths {
                let (name, key) = split_path(path);
                let Some(p) = attr(prior, &name) else { continue };
                match key {
                    None => {
                        m.insert(name, p.clone());
                    }
                    Some(k) => {
                        let prior_elem = match &p.kind {
                            Kind::Map(_, pm) | Kind::Object(pm) => pm.get(&k).cloned(),
                            _ => None,
                        };
                        if let Some(Value { kind: Kind::Map(_, cm) | Kind::Object(cm), .. }) = m.get_mut(&name) {
                            match prior_elem {
                                Some(v) => {
                                    cm.insert(k, v);
                                }
                                None => {
                                    cm.remove(&k);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    cfg
}

/// `input["a"]` / `input.a` / `input` → (attribute, key).
fn split_path(path: &str) -> (String, Option<String>) {
    let path = path.trim();
    if let Some((name, rest)) = path.split_once('[') {
        let k = rest.trim_end_matches(']').trim_matches('"').to_string();
        return (name.to_string(), Some(k));
    }
    match path.split_once('.') {
        Some((name, k)) => (name.to_string(), Some(k.to_string())),
        None => (path.to_string(), None),
    }
}
