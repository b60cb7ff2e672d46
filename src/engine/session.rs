//! The engine's front door: a plan and the apply of that plan, as the package's `plan()`,
//! `apply()` and `destroy()` run them and as native tests and benches run them. One typed
//! request in ([`PlanRequest`], [`ApplyRequest`]), the plan ([`Planned`]) or the apply's result
//! ([`Applied`]) out, everything decided here: which diagnostics refuse the operation before it
//! starts, which providers serve it, how the walks run and under which limits, when a saved plan
//! is stale, what happens once the walk ends. The host answers only: its providers (the plan
//! walk's [`PlanHost`], the apply walk's [`ApplyHost`]), its clock, its events. Natively that is
//! [`Synchronous`] and the virtual clock ([`VirtualHost`]); in the package JS promises and
//! real timers (`bindings/engine`).

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::apply::events::ApplyResult;
use crate::engine::apply::native::VirtualHost;
use crate::engine::apply::nodes::ApplyNodes;
use crate::engine::apply::walk::ApplyHost;
use crate::engine::plan::walk::{PlanHost, Synchronous};
use crate::engine::shared;
use crate::eval::limits::Limits;
use crate::providers::set::ProviderSet;
use crate::providers::Provider;
use crate::walk::CancelToken;
use serde_json::Value as Json;
use shared::clock::VirtualClock;
use shared::plan::{InstanceChange, Plan, PlanOptions};
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// What a plan is asked for: the configuration as loaded, the prior state, the plan's options.
pub struct PlanRequest {
    /// Shared: `terraform test` plans one configuration many times.
    pub files: Rc<BTreeMap<String, String>>,
    pub config: Rc<Config>,
    /// What loading the configuration said (their snippets are added here).
    pub load_diagnostics: Diagnostics,
    /// What reading the state said (it does not decode): errors refuse the plan.
    pub state_diagnostics: Diagnostics,
    /// What making the host's providers said (a provider that is none): errors refuse the plan.
    pub provider_diagnostics: Diagnostics,
    /// The prior state (state v4 JSON).
    pub state: Option<Json>,
    /// The mocks' options in the API's shape (`mock: { delayMs, failAddresses, ... }`).
    pub mock: Option<Json>,
    /// Variables, `-destroy`, `-refresh=false`, `-target`, `-replace`, live events, module
    /// overrides.
    pub options: PlanOptions,
    /// `plan -refresh-only` (Terraform's `plans.RefreshOnlyMode`; `terraform test`'s
    /// `plan_options { mode = refresh-only }`).
    pub refresh_only: bool,
    /// Terraform's `-parallelism` (10 by default).
    pub parallelism: usize,
    pub limits: Limits,
}

impl PlanRequest {
    /// A request to plan `config` loaded from `files`, with Terraform's defaults.
    pub fn new(
        files: impl Into<Rc<BTreeMap<String, String>>>,
        config: impl Into<Rc<Config>>,
        load_diagnostics: Diagnostics,
    ) -> Self {
        PlanRequest {
            files: files.into(),
            config: config.into(),
            load_diagnostics,
            state_diagnostics: Diagnostics::new(),
            provider_diagnostics: Diagnostics::new(),
            state: None,
            mock: None,
            options: PlanOptions::default(),
            refresh_only: false,
            parallelism: crate::walk::DEFAULT_PARALLELISM,
            limits: Limits::DEFAULT,
        }
    }
}

/// What validating a configuration refuses its plans for (a caller planning one configuration
/// many times gives it in [`PlanOptions::validation`]).
pub use crate::engine::plan::validate;

/// The providers a request is served by: the built-in mock for hashicorp/mock, the generic mock
/// for every other source, with `mock`'s options; a host installs its own providers into them.
pub fn providers(files: &BTreeMap<String, String>, config: &Config, mock: Option<&Json>) -> ProviderSet {
    shared::schemas::providers(files, config, crate::engine::api::mock_options(mock))
}

/// Wasm memory a plan (`--sizes 10000` of bench/engine: 108 MB) and an apply (128 MB more)
/// took per instance, rounded up: a shortfall is paid in `memory.grow`s, pages reserved and
/// never used cost address space only.
const PLAN_BYTES_PER_INSTANCE: usize = 12 << 10;
const APPLY_BYTES_PER_CHANGE: usize = 14 << 10;

/// Values this large in one change are named when reading the plan runs out of memory.
const LARGE_VALUES: usize = 64 << 20;

/// How many objects a state v4 holds.
fn state_instances(state: Option<&Json>) -> usize {
    let resources = state.and_then(|s| s.get("resources")).and_then(Json::as_array);
    resources.map_or(0, |rs| rs.iter().map(|r| r.get("instances").and_then(Json::as_array).map_or(0, Vec::len)).sum())
}

/// Plans `request` with `provider` (the set from [`providers`] with the host's own installed,
/// or `terraform test`'s mocks in front of it), `host` configuring and answering the host's
/// providers as the walk reaches them. The plan's diagnostics are the request's, the loading's
/// and the plan's; a request with errors is refused before planning. [`Planned::new`] keeps it
/// with what it was made from.
pub async fn plan(request: &PlanRequest, provider: &dyn Provider, host: &dyn PlanHost) -> Plan {
    if !host.awaits() {
        return plan_with(request, provider, host);
    }
    let diagnostics = checked(request, host);
    let p = if diagnostics.has_errors() {
        refused(request)
    } else {
        let (files, options, state) = (&request.files, &request.options, request.state.as_ref());
        let walked = crate::engine::plan::plan_walked(
            files,
            &request.config,
            state,
            provider,
            options,
            host,
            request.parallelism,
        );
        crate::eval::limits::scoped(request.limits, walked).await
    };
    finished(request, diagnostics, p)
}

/// [`plan`] when every answer is at hand (`host` has no provider of its own to configure or
/// await, e.g. [`Synchronous`]): the same walk, with the same limit, run to its end at once.
pub fn plan_with(request: &PlanRequest, provider: &dyn Provider, host: &dyn PlanHost) -> Plan {
    let diagnostics = checked(request, host);
    let p = if diagnostics.has_errors() {
        refused(request)
    } else {
        let (files, options, state) = (&request.files, &request.options, request.state.as_ref());
        let mut out = None;
        crate::eval::limits::with(request.limits, || {
            host.growing_ahead(&mut || {
                let walked = crate::engine::plan::plan_walked(
                    files,
                    &request.config,
                    state,
                    provider,
                    options,
                    &Synchronous,
                    request.parallelism,
                );
                out = Some(VirtualClock::default().run(walked))
            })
        });
        out.unwrap_or_default()
    };
    finished(request, diagnostics, p)
}

/// What refuses `request` before it is planned, and its warnings: the loading's (with
/// Terraform's snippet and `in BLOCK` context, as the plan's own), the state's, the providers',
/// bad -target / -replace and mock addresses.
fn checked(request: &PlanRequest, host: &dyn PlanHost) -> Diagnostics {
    let files = &crate::eval::MapFilesystem(&request.files);
    let mut diagnostics = shared::snippets::with_sources(request.load_diagnostics.clone(), files);
    diagnostics.extend(request.state_diagnostics.clone());
    diagnostics.extend(request.provider_diagnostics.clone());
    // As Terraform refuses its arguments (`command/arguments/extended.go`: parseTargets,
    // parseReplace): here only, the walk takes them as given.
    diagnostics.extend(shared::targets::check_options(&request.options));
    diagnostics.extend(crate::engine::api::mock_diagnostics(request.mock.as_ref()));
    // The heap a plan of the prior state's objects needs, grown once: a plan made from nothing
    // cannot know its size before it expands.
    host.reserve_heap(state_instances(request.state.as_ref()) * PLAN_BYTES_PER_INSTANCE);
    diagnostics
}

/// The plan of a request [`checked`] refused.
fn refused(request: &PlanRequest) -> Plan {
    Plan { destroy: request.options.destroy, prior_state: request.state.clone(), refused: true, ..Plan::default() }
}

/// `p` with `diagnostics` (the request's) before its own.
fn finished(request: &PlanRequest, mut diagnostics: Diagnostics, mut p: Plan) -> Plan {
    if request.refresh_only {
        // tfgraph's providers report no drift: a refresh-only plan proposes no change, and its
        // apply walks none (Terraform's `plans.RefreshOnlyMode`), writing the refreshed state.
        p.changes.clear();
    }
    diagnostics.extend(std::mem::take(&mut p.diagnostics));
    p.diagnostics = diagnostics;
    p
}

/// Natively: [`plan`] with the built-in providers, to its end at once.
pub fn plan_now(request: PlanRequest) -> Planned {
    let set = Rc::new(providers(&request.files, &request.config, request.mock.as_ref()));
    let p = plan_with(&request, &*set, &Synchronous);
    Planned::new(request, set, p)
}

/// A plan, with everything it was made from: what its views read and its apply needs.
pub struct Planned {
    pub files: Rc<BTreeMap<String, String>>,
    pub config: Rc<Config>,
    /// The plan; its diagnostics are the request's, the loading's and the plan's.
    pub plan: Plan,
    /// The state the plan was made from, when it differs from the plan's own `prior_state`
    /// (imports, moves, or none given): else `None`, and [`Planned::prior`] reads the plan's.
    prior_own: Option<Option<Json>>,
    pub variables: BTreeMap<String, Json>,
    pub mock: Option<Json>,
    /// A refresh-only plan (it proposes no change).
    pub refresh_only: bool,
    /// The providers it was planned with: the plan's JSON and text read their schemas.
    pub set: Rc<ProviderSet>,
    /// The plan's JSON and text, made on first use (most callers apply and never read them:
    /// together they cost about a sixth of a large plan in Node).
    json: OnceCell<Json>,
    text: OnceCell<String>,
    /// [`Planned::weigh`]'s answer, weighed once.
    weight: OnceCell<(usize, Option<(usize, usize)>)>,
}

impl Planned {
    /// `plan`, made by [`plan`] from `request` with `set`.
    pub fn new(request: PlanRequest, set: Rc<ProviderSet>, plan: Plan) -> Planned {
        let PlanRequest { files, config, state, mock, options, refresh_only, .. } = request;
        // One copy of the state, not two (a state can be hundreds of MB).
        let prior_own = (state != plan.prior_state).then_some(state);
        Planned {
            files,
            config,
            plan,
            prior_own,
            variables: options.variables,
            mock,
            refresh_only,
            set,
            json: OnceCell::new(),
            text: OnceCell::new(),
            weight: OnceCell::new(),
        }
    }

    pub fn diagnostics(&self) -> &Diagnostics {
        &self.plan.diagnostics
    }

    /// The state the plan was made from.
    pub fn prior(&self) -> Option<&Json> {
        match &self.prior_own {
            Some(own) => own.as_ref(),
            None => self.plan.prior_state.as_ref(),
        }
    }

    /// `terraform show -json` of the plan, its timestamp null.
    pub fn json(&self) -> &Json {
        self.json.get_or_init(|| crate::engine::api::plan_json(&self.plan, &*self.set))
    }

    /// `terraform plan`'s text (none when the plan was refused).
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| crate::engine::api::plan_text(&self.plan, self.json(), &self.set.schema_document()))
    }

    /// Notes, for the diagnostic of a module that runs out of memory while the plan is read, the
    /// change whose values are largest, when they are large: each reading copies them (a prior
    /// state object of hundreds of MB is in the changes, the JSON and the text). The values are
    /// weighed once; the note is made at each reading (another call may have noted its own).
    /// Returns the string bytes of all the changes' values.
    pub fn note_largest_change(&self) -> usize {
        let &(total, largest) = self.weight.get_or_init(|| {
            let bytes = |c: &InstanceChange| -> usize {
                [&c.before, &c.after].into_iter().flatten().map(|v| crate::eval::limits::weight(v).1).sum()
            };
            let (mut total, mut largest) = (0, None);
            for (i, c) in self.plan.changes.iter().enumerate() {
                let b = bytes(c);
                total += b;
                if b >= LARGE_VALUES && largest.is_none_or(|(l, _)| b > l) {
                    largest = Some((b, i));
                }
            }
            (total, largest)
        });
        let Some((size, i)) = largest else { return total };
        let c = &self.plan.changes[i];
        let block = self
            .config
            .root
            .resources
            .iter()
            .find(|r| c.module.is_empty() && r.mode == c.mode && r.type_name == c.type_name && r.name == c.name);
        let what = format!("{}, whose values (from options.state and the plan) hold {} MiB", c.address(), size >> 20);
        let range = block.map(|r| r.range.clone()).unwrap_or_else(|| crate::diag::SourceRange {
            filename: String::new(),
            start: Default::default(),
            end: Default::default(),
        });
        crate::eval::limits::site(&range, &what);
        total
    }

    /// The providers the plan was made with, as the mocks serve them (a host installs its own).
    pub fn providers(&self) -> ProviderSet {
        providers(&self.files, &self.config, self.mock.as_ref())
    }
}

/// What an apply of a plan is asked for.
pub struct ApplyRequest {
    /// The state now, when given (`Some(None)`: given as none): a plan made from another
    /// state is stale. Not given: the plan's prior state is taken as the state now.
    pub state: Option<Option<Json>>,
    /// What reading the state said (it does not decode): errors refuse the apply.
    pub state_diagnostics: Diagnostics,
    /// What making the host's providers said (a provider that is none): errors refuse the apply.
    pub provider_diagnostics: Diagnostics,
    pub parallelism: usize,
    pub limits: Limits,
    /// The lineage of a new state (a prior state keeps its own).
    pub lineage: String,
    /// Terraform's stop: nothing new starts, what is in flight finishes.
    pub cancel: CancelToken,
}

impl Default for ApplyRequest {
    fn default() -> Self {
        ApplyRequest {
            state: None,
            state_diagnostics: Diagnostics::new(),
            provider_diagnostics: Diagnostics::new(),
            parallelism: crate::walk::DEFAULT_PARALLELISM,
            limits: Limits::DEFAULT,
            lineage: "00000000-0000-0000-0000-000000000000".into(),
            cancel: CancelToken::new(),
        }
    }
}

/// What an apply came to.
pub enum Applied {
    /// Refused before it started: why, and the state, unchanged.
    Refused { diagnostics: Diagnostics, state: Option<Json> },
    /// Walked: the result (its diagnostics the apply's own, which its progress shows), the
    /// diagnostics to report (the plan's, then the apply's, as Terraform prints them) and how
    /// long it took on the host's clock.
    Walked { result: ApplyResult, diagnostics: Diagnostics, elapsed_ms: f64 },
}

/// The provider configurations serving what a plan changes or read.
fn used_configurations(p: &Plan) -> BTreeSet<&str> {
    p.changes.iter().chain(&p.data_read).map(|c| c.provider_config.as_str()).collect()
}

/// Applies exactly the plan `planned` with `provider` (the plan's providers, the host's own
/// installed), on `host`: refused when the plan had errors, the request's values did not read,
/// or the state now is not the one the plan was made from.
pub async fn apply(planned: &Planned, request: ApplyRequest, provider: &dyn Provider, host: &dyn ApplyHost) -> Applied {
    let refused =
        |diagnostics: Diagnostics, state: Option<&Json>| Applied::Refused { diagnostics, state: state.cloned() };
    if planned.diagnostics().has_errors() {
        return refused(planned.diagnostics().clone(), planned.prior());
    }
    let ApplyRequest { state, state_diagnostics, provider_diagnostics, parallelism, limits, lineage, cancel } = request;
    if state_diagnostics.has_errors() {
        return refused(state_diagnostics, None);
    }
    if let Some(now) = &state {
        if let Some(stale) = stale_plan(planned.prior(), now.as_ref()) {
            let mut d = Diagnostics::new();
            d.push(stale);
            return refused(d, now.as_ref());
        }
    }
    if provider_diagnostics.has_errors() {
        return refused(provider_diagnostics, planned.prior());
    }
    let t0 = host.now();
    // What the apply will need, grown at once (see `ApplyHost::reserve_heap`).
    host.reserve_heap(planned.plan.changes.len() * APPLY_BYTES_PER_CHANGE);
    let p = &planned.plan;
    let nodes =
        ApplyNodes::new(&planned.files, &planned.config, p, planned.prior(), provider, &planned.variables, lineage);
    let walk = crate::engine::apply::walk::run(nodes, &planned.config, provider, host, parallelism, cancel.clone());
    let mut r = crate::eval::limits::scoped(limits, walk).await;
    host.finished(&r.state);
    // A host's provider is configured at its first operation (`apply::walk`); those the plan
    // uses with nothing to do (no-ops, data sources read at plan) once the walk is over, as 1.11
    // configures them even for an apply with nothing to do, after what their blocks reach
    // (tests/fixtures/providers/configure-*, engine/provider-block-reads-resource).
    if host.callback_error().is_none() && !cancel.is_cancelled() {
        for address in used_configurations(p).into_iter().filter(|a| host.needs_configure(a)) {
            if let Err(d) = host.configure(address, &r.state).await {
                r.diagnostics.extend(d);
            }
        }
    }
    let elapsed_ms = host.now() - t0;
    // The plan's warnings come first, as Terraform prints them.
    let mut diagnostics = planned.diagnostics().clone();
    diagnostics.extend(r.diagnostics.clone());
    Applied::Walked { result: r, diagnostics, elapsed_ms }
}

/// Natively: [`apply`] with the built-in providers on a virtual clock.
pub fn apply_now(planned: &Planned, request: ApplyRequest) -> Applied {
    apply_with(planned, request, &*planned.set)
}

/// Natively: [`apply`] with `provider` (each answer at hand, its delays taken on a virtual clock).
pub fn apply_with(planned: &Planned, request: ApplyRequest, provider: &dyn Provider) -> Applied {
    let clock = VirtualClock::default();
    clock.run(apply(planned, request, provider, &VirtualHost::new(&clock)))
}

/// The diagnostic of a saved plan applied to a state it was not made from (Terraform's
/// `backend/local`: lineage first, then serial).
pub fn stale_plan(planned_from: Option<&Json>, now: Option<&Json>) -> Option<Diagnostic> {
    let meta = |s: Option<&Json>| {
        (
            s.and_then(|s| s.get("lineage")).and_then(Json::as_str).unwrap_or("").to_string(),
            s.and_then(|s| s.get("serial")).and_then(Json::as_u64).unwrap_or(0),
        )
    };
    let (plan_lineage, plan_serial) = meta(planned_from);
    let (lineage, serial) = meta(now);
    let first_plan = plan_lineage.is_empty() && plan_serial == 0;
    if !first_plan && plan_lineage != lineage {
        return Some(Diagnostic::error(
            "Saved plan does not match the given state",
            "The given plan file can not be applied because it was created from a different state lineage.",
        ));
    }
    if plan_serial != serial {
        return Some(Diagnostic::error("Saved plan is stale", "The given plan file can no longer be applied because the state was changed by another operation after the plan was created."));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shared::plan::{OpHook, OpProgress, PlanOp};
    use crate::engine::shared::scope::WalkValues;
    use futures_util::future::LocalBoxFuture;

    /// The built-in providers' host, saying it awaits: the plan takes the walk's async path.
    struct Awaiting;

    impl PlanHost for Awaiting {
        fn configure<'a>(&'a self, _: &'a str, _: &'a WalkValues) -> LocalBoxFuture<'a, Result<(), Diagnostics>> {
            Box::pin(std::future::ready(Ok(())))
        }

        fn answers<'a>(&'a self, _: &'a WalkValues) -> Option<LocalBoxFuture<'a, Result<(), Diagnostics>>> {
            None
        }
    }

    /// Five independent data sources, the plan stopped (Terraform's stop: what is in flight
    /// finishes, nothing new starts) at the first read's start: the reads made are those the
    /// walk had started, `-parallelism` of them.
    fn reads_before_stop(parallelism: usize, awaiting: bool) -> Vec<String> {
        let files: BTreeMap<String, String> = [(
            "main.tf".to_string(),
            ["a", "b", "c", "d", "e"].map(|n| format!("data \"mock_data\" \"{n}\" {{}}\n")).concat(),
        )]
        .into();
        let loaded = crate::config::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        let cancel = CancelToken::new();
        let stop = cancel.clone();
        let hook = OpHook(Rc::new(move |_: &PlanOp, _: OpProgress<'_>| stop.cancel()));
        let request = PlanRequest {
            options: PlanOptions { on_op: Some(hook), cancel: Some(cancel), ..PlanOptions::default() },
            parallelism,
            ..PlanRequest::new(files, loaded.config, loaded.diagnostics)
        };
        let p = if awaiting {
            let set = providers(&request.files, &request.config, None);
            VirtualClock::default().run(plan(&request, &set, &Awaiting))
        } else {
            plan_now(request).plan
        };
        let halted: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(halted, ["execution halted"]);
        p.ops.iter().map(|op| op.address.clone()).collect()
    }

    #[test]
    fn a_plan_at_once_walks_with_the_requests_parallelism() {
        for parallelism in [1, 2, 5] {
            let at_once = reads_before_stop(parallelism, false);
            assert_eq!(at_once.len(), parallelism, "{at_once:?}");
            assert_eq!(at_once, reads_before_stop(parallelism, true));
        }
    }
}
