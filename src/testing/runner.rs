//! Running test files as `terraform test` runs them (`moduletest/graph`, `moduletest/run.go`):
//!
//! - files in path order; each file's runs in order, one at a time;
//! - a run's variables: the run's `variables` over the file's over the command line's
//!   (`-var`, then the root's and the test directory's tfvars) over the module's defaults;
//!   expressions there may read `var.*` (file and global values) and `run.NAME.OUTPUT` of an
//!   earlier run of the same file;
//! - one state per state key (`state_key`, else the run's module source, else the module under
//!   test), carried from run to run; a `plan` run leaves its state as it was;
//! - `expect_failures`: a plan run's failed conditions of the listed objects are taken as
//!   expected (a check block's failed assertion is an error unless listed); an apply run stops
//!   at its plan with "Expected failure while planning"; a listed object that did not fail is
//!   "Missing expected failure" (the run fails);
//! - assertions in the run's scope (the planned values for `plan`, the new state for `apply`,
//!   `output.NAME`, `var.*`, `run.*`): a false one fails the run, a null, unknown or non-bool one
//!   is an error;
//! - a run in error skips every later run of its file (a failed one does not);
//! - teardown: each state with objects destroyed, the one last used latest first, with the
//!   configuration and variables of the run that last used it;
//! - `override_module`: the run's over the file's, given to the engine (`Module::overridden`),
//!   which plans nothing in an overridden module call or instance and gives its outputs the
//!   override's values.

use super::engine::{self, Module, ModuleOverride, PlannedValues};
use super::file::{Assertion, Command, ExprText, OverrideBlock, OverrideKind, PlanMode, Run, TestFile};
use super::mocking::{MockedConfig, MockedData, Mocking, Override, TypeDefaults};
use super::verbose::Verbose;
use crate::diag::{Diagnostic, Diagnostics, Severity, SourceRange};
use crate::engine::PlanOptions;
use crate::eval::module_scope::{eval_text, Inputs, ModuleScope};
use crate::eval::scope::{LookupError, Scope};
use crate::eval::{Kind, Type, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A run's or a file's status, in Terraform's order (a merge keeps the greater).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Pending,
    Skip,
    Pass,
    Fail,
    Error,
}

impl Status {
    pub fn merge(self, other: Status) -> Status {
        self.max(other)
    }
    /// The word `terraform test` prints (an error prints as `fail`) and writes in JSON.
    pub fn word(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Skip => "skip",
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// What the runner was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-var NAME=VALUE` values (the highest global precedence), as JSON.
    pub variables: BTreeMap<String, Json>,
    /// `-var-file` contents, in the order given: `(path, text)`.
    pub var_files: Vec<(String, String)>,
    /// `-filter`: only these test files.
    pub filter: Vec<String>,
    /// `-test-directory` (`tests` by default).
    pub test_directory: Option<String>,
    /// `-verbose`.
    pub verbose: bool,
}

/// What happened, in order: what the text, JSON and JUnit reports are made from.
#[derive(Clone, Debug)]
pub enum TestEvent {
    Abstract {
        files: Vec<(String, Vec<String>)>,
    },
    FileStart {
        file: String,
    },
    RunStart {
        file: String,
        run: String,
    },
    RunComplete {
        file: String,
        run: String,
        status: Status,
        diagnostics: Diagnostics,
        /// With `-verbose`: the run's plan or state.
        verbose: Option<Box<Verbose>>,
    },
    FileTeardown {
        file: String,
    },
    RunTeardown {
        file: String,
        run: String,
    },
    DestroyFailed {
        file: String,
        run: Option<String>,
        diagnostics: Diagnostics,
        left: Vec<String>,
    },
    FileComplete {
        file: String,
        status: Status,
        diagnostics: Diagnostics,
    },
    Conclusion {
        status: Status,
    },
    /// Diagnostics outside any file (a test file that does not load).
    Diagnostics {
        diagnostics: Diagnostics,
    },
}

/// One run's result.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub name: String,
    pub status: Status,
    pub diagnostics: Diagnostics,
    /// How many `assert` blocks it has.
    pub asserts: usize,
    /// Its outputs (state key, then the values), when it ran.
    pub outputs: Option<Json>,
    pub state_key: String,
    /// The state after it (apply runs; shared with the runner's own copy, which the next run
    /// reads).
    pub state: Option<Rc<Json>>,
    /// Its plan as `terraform plan` prints it, with `verbose` (`terraform test -verbose` prints
    /// it after a plan run; the page shows it for every run).
    pub plan: Option<String>,
}

#[derive(Clone, Debug)]
pub struct FileResult {
    pub path: String,
    pub status: Status,
    pub runs: Vec<RunResult>,
    pub diagnostics: Diagnostics,
}

#[derive(Clone, Debug)]
pub struct Suite {
    pub status: Status,
    pub files: Vec<FileResult>,
    pub events: Vec<TestEvent>,
    /// Diagnostics that stopped the suite before any file ran.
    pub diagnostics: Diagnostics,
}

impl Suite {
    /// `terraform test`'s exit status: 0 when everything passed (or nothing ran), 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.diagnostics.has_errors() || self.status > Status::Pass {
            1
        } else {
            0
        }
    }
}

/// The test files Terraform finds: `*.tftest.hcl` in the root and in the test directory,
/// sorted by path, kept when `filter` names them.
pub fn test_files(files: &BTreeMap<String, String>, options: &Options) -> Vec<String> {
    let dir = options.test_directory.clone().unwrap_or_else(|| "tests".into());
    let dir = dir.trim_end_matches('/').to_string();
    let out: Vec<String> = files
        .keys()
        .filter(|p| p.ends_with(".tftest.hcl") || p.ends_with(".tftest.json"))
        .filter(|p| !p.contains('/') || p.rsplit_once('/').map(|(d, _)| d) == Some(dir.as_str()))
        .filter(|p| options.filter.is_empty() || options.filter.iter().any(|f| f == *p))
        .cloned()
        .collect();
    // `files` is a BTreeMap: its paths come sorted.
    out
}

/// Runs the test files of `files` (a module's files and its tests, by path).
pub fn run(files: &BTreeMap<String, String>, options: &Options, on_event: &mut dyn FnMut(&TestEvent)) -> Suite {
    let mut events = Vec::new();
    let mut emit = |e: TestEvent, events: &mut Vec<TestEvent>| {
        on_event(&e);
        events.push(e);
    };
    let paths = test_files(files, options);
    // Every file is read and checked before any runs, as Terraform loads them with the
    // configuration.
    let mut parsed = Vec::new();
    let mut load_diags = Diagnostics::new();
    let main = Module::load(Rc::new(files.clone()), "");
    load_diags.extend(main.diagnostics.clone());
    for p in &paths {
        let (mut f, d) = if p.ends_with(".tftest.json") {
            super::json_file::parse(p, &files[p])
        } else {
            super::file::parse(p, &files[p])
        };
        let d = {
            let mut d = d;
            d.extend(load_mock_sources(&mut f, files));
            d
        };
        // A file that does not decode is not checked further.
        if !d.has_errors() {
            load_diags.extend(validate(&f, files));
        }
        load_diags.extend(d);
        parsed.push(f);
    }
    if load_diags.has_errors() {
        let diagnostics = crate::engine::shared::snippets::with_sources(load_diags, &crate::eval::MapFilesystem(files));
        emit(TestEvent::Diagnostics { diagnostics: diagnostics.clone() }, &mut events);
        return Suite { status: Status::Error, files: Vec::new(), events, diagnostics };
    }
    emit(
        TestEvent::Abstract {
            files: parsed.iter().map(|f| (f.path.clone(), f.runs.iter().map(|r| r.name.clone()).collect())).collect(),
        },
        &mut events,
    );
    let globals = global_variables(files, options);
    let mut results = Vec::new();
    let mut suite_status = Status::Pending;
    for f in &parsed {
        let result = run_file(files, f, &main, &globals, options.verbose, &mut |e| emit(e, &mut events));
        suite_status = suite_status.merge(result.status);
        results.push(result);
    }
    emit(TestEvent::Conclusion { status: suite_status }, &mut events);
    Suite { status: suite_status, files: results, events, diagnostics: load_diags }
}

/// What loading checks in a test file beyond its syntax: each assertion refers to something,
/// each `module` source is a directory among the files.
fn validate(f: &TestFile, files: &BTreeMap<String, String>) -> Diagnostics {
    let mut out = Diagnostics::new();
    // Override values and mock defaults are constants, and objects.
    let overrides = f
        .overrides
        .iter()
        .chain(f.runs.iter().flat_map(|r| &r.overrides))
        .chain(f.mock_providers.iter().flat_map(|m| &m.overrides));
    for o in overrides {
        let Some((e, at)) = &o.values else { continue };
        let what = if o.kind == OverrideKind::Module { "outputs" } else { "values" };
        match static_value(files, e) {
            Err(d) => out.push(*d),
            Ok(v) if !matches!(v.ty(), Type::Object(_)) => out.push(
                Diagnostic::error(
                    format!("Invalid {what} attribute"),
                    format!(
                        "{} blocks must specify {} {what} attribute that is an object.",
                        o.kind.block(),
                        if what == "outputs" { "an" } else { "a" }
                    ),
                )
                .with_range(at.clone()),
            ),
            Ok(_) => {}
        }
    }
    for run in &f.runs {
        for a in &run.asserts {
            if references(&a.condition.text).is_empty() {
                out.push(
                    Diagnostic::error(
                        "Invalid assert expression",
                        "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
                    )
                    .with_range(a.condition.range.clone()),
                );
            }
        }
        if let Some(source) = &run.module_source {
            let dir = source.trim_start_matches("./");
            let has = files.keys().any(|p| {
                p.strip_prefix(dir)
                    .and_then(|r| r.strip_prefix('/'))
                    .is_some_and(|r| !r.contains('/') && (r.ends_with(".tf") || r.ends_with(".tf.json")))
            });
            if !has {
                // Terraform finds no installed module for the run's source.
                out.push(
                    Diagnostic::error(
                        "Module not installed",
                        "This module's local cache directory  could not be read. Run \"terraform init\" to install all modules required by this configuration.",
                    )
                    .with_range(run.module_range.clone().unwrap_or_else(|| run.decl_range.clone())),
                );
            }
        }
    }
    out
}

/// The `.tfmock.hcl` and `.tfmock.json` files of each `mock_provider`'s `source` directory
/// (relative to the root module), read into the block.
fn load_mock_sources(f: &mut TestFile, files: &BTreeMap<String, String>) -> Diagnostics {
    let mut out = Diagnostics::new();
    for m in &mut f.mock_providers {
        let Some(source) = m.source.clone() else { continue };
        let dir = source.trim_start_matches("./").trim_end_matches('/').to_string();
        let found: Vec<(&String, &String)> = files
            .iter()
            .filter(|(p, _)| {
                (p.ends_with(".tfmock.hcl") || p.ends_with(".tfmock.json"))
                    && p.rsplit_once('/').map(|(d, _)| d).unwrap_or("") == dir.as_str()
            })
            .collect();
        if found.is_empty() {
            out.push(
                Diagnostic::error(
                    "Failed to load mock data",
                    format!("Could not find any mock data files within the directory {source}."),
                )
                .with_range(m.decl_range.clone()),
            );
        }
        for (path, text) in found {
            out.extend(match path.ends_with(".json") {
                true => super::json_file::parse_mock(path, text, m),
                false => super::file::parse_mock_file(path, text, m),
            });
        }
    }
    out
}

/// A constant of a test file (override values, mock defaults): no references.
fn static_value(files: &BTreeMap<String, String>, e: &ExprText) -> Result<Value, Box<Diagnostic>> {
    eval_test_expr(&NoScope, files, e)
}

/// The scope of constants: nothing may be referenced.
struct NoScope;

impl Scope for NoScope {
    fn lookup(&self, _names: &[&str]) -> Result<(Value, usize), LookupError> {
        Err(LookupError {
            summary: "Variables not allowed".into(),
            detail: "Variables may not be used here.".into(),
            names: 1,
        })
    }
    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        self.lookup(names).map(|(v, n)| (Rc::new(v), n))
    }
}

/// Whether the configuration under test has the object an override targets (its address
/// without instance keys).
fn target_exists(module: &Module, o: &OverrideBlock) -> bool {
    let bare = without_keys(&o.target);
    module.config.modules().iter().any(|m| match o.kind {
        OverrideKind::Module => m.module_calls.iter().any(|c| c.address == bare),
        OverrideKind::Data => {
            m.resources.iter().any(|r| r.mode == crate::addrs::ResourceMode::Data && r.address == bare)
        }
        OverrideKind::Resource => {
            m.resources.iter().any(|r| r.mode != crate::addrs::ResourceMode::Data && r.address == bare)
        }
    })
}

fn invalid_target(o: &OverrideBlock) -> Diagnostic {
    Diagnostic::warning(
        "Invalid override target",
        format!("The override target {} does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.", o.target),
    )
    .with_range(o.target_range.clone())
}

/// A run's mocked provider configurations and overrides, the winning override first (the
/// run's, the file's, then the mock providers').
fn mocking_for(f: &TestFile, run: &Run, module: &Module, files: &BTreeMap<String, String>) -> Mocking {
    let mut m = Mocking { salt: format!("{}/{}", f.path, run.name), ..Default::default() };
    let data = |e: &(ExprText, SourceRange)| -> Option<MockedData> {
        static_value(files, &e.0).ok().map(|value| MockedData { value, range: e.1.clone() })
    };
    let address_of = |name: &str, alias: Option<&str>| {
        let fqn = module
            .config
            .root
            .required_providers
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.fqn.clone())
            .unwrap_or_else(|| format!("registry.terraform.io/hashicorp/{name}"));
        crate::addrs::provider_config_text(&crate::addrs::ModulePath::root(), &fqn, alias)
    };
    // Which test-file provider each configuration of the module gets: the run's `providers`,
    // else each by its own name and alias.
    let given: Vec<(String, String)> = match &run.providers {
        Some(map) => map.clone(),
        None => f
            .mock_providers
            .iter()
            .map(|p| {
                let text = match &p.alias {
                    Some(a) => format!("{}.{a}", p.name),
                    None => p.name.clone(),
                };
                (text.clone(), text)
            })
            .collect(),
    };
    for (config, test) in &given {
        let Some(p) = f.mock_providers.iter().find(|p| match &p.alias {
            Some(a) => *test == format!("{}.{a}", p.name),
            None => *test == p.name,
        }) else {
            continue;
        };
        let (name, alias) = match config.split_once('.') {
            Some((n, a)) => (n, Some(a)),
            None => (config.as_str(), None),
        };
        let address = address_of(name, alias);
        let mut c = MockedConfig { during_plan: p.during_plan == Some(true), ..Default::default() };
        for d in &p.resources {
            let during_plan = d.during_plan.or(p.during_plan) == Some(true);
            let t = TypeDefaults { data: d.defaults.as_ref().and_then(data), during_plan };
            c.resources.insert(d.type_name.clone(), t);
        }
        for d in &p.data_sources {
            let during_plan = d.during_plan.or(p.during_plan) == Some(true);
            let t = TypeDefaults { data: d.defaults.as_ref().and_then(data), during_plan };
            c.data_sources.insert(d.type_name.clone(), t);
        }
        m.configs.insert(address, c);
    }
    let levels = run
        .overrides
        .iter()
        .map(|o| (o, None))
        .chain(f.overrides.iter().map(|o| (o, None)))
        .chain(f.mock_providers.iter().flat_map(|p| p.overrides.iter().map(move |o| (o, p.during_plan))));
    for (o, inherited) in levels {
        if o.kind == OverrideKind::Module {
            continue;
        }
        let Some(values) = o.values.as_ref().and_then(data) else { continue };
        m.overrides.push(Override {
            target: o.target.clone(),
            data: values,
            during_plan: o.during_plan.or(inherited) == Some(true),
        });
    }
    m
}

/// A run's `override_module` blocks in force: the run's, then the file's whose target the run
/// does not override itself (`PackageOverrides`).
fn module_overrides_for(f: &TestFile, run: &Run, files: &BTreeMap<String, String>) -> Vec<ModuleOverride> {
    let blocks =
        run.overrides.iter().chain(f.overrides.iter().filter(|o| !run.overrides.iter().any(|r| r.target == o.target)));
    blocks
        .filter(|o| o.kind == OverrideKind::Module)
        .map(|o| ModuleOverride {
            target: o.target.clone(),
            outputs: o.values.as_ref().and_then(|(e, _)| static_value(files, e).ok()),
        })
        .collect()
}

/// The references of an expression's text: `(root, traversal text)`.
fn references(text: &str) -> Vec<(String, String)> {
    let Ok(expr) = crate::hcl::parse_expr(text) else { return Vec::new() };
    let mut w = crate::config::references::Walker::new(crate::config::references::Origin::File(text), &[]);
    w.expr(&expr);
    w.out.iter().map(|t| (t.root().to_string(), t.text.to_string())).collect()
}

/// The command line's variables and the tfvars files Terraform reads for a test run (the
/// root's and the test directory's `terraform.tfvars` and `*.auto.tfvars`), as JSON text to
/// be evaluated, lowest precedence first.
fn global_variables(files: &BTreeMap<String, String>, options: &Options) -> Vec<(String, GlobalValue)> {
    let mut out = Vec::new();
    for (path, text) in &options.var_files {
        for (name, e) in tfvars(path, text) {
            out.push((name, GlobalValue::Expr(e)));
        }
    }
    for (k, v) in &options.variables {
        out.push((k.clone(), GlobalValue::Json(v.clone())));
    }
    let _ = files;
    out
}

#[derive(Clone, Debug)]
enum GlobalValue {
    Json(Json),
    Expr(ExprText),
}

/// A `.tfvars` file's assignments.
fn tfvars(path: &str, text: &str) -> Vec<(String, ExprText)> {
    let src = crate::diag::SourceFile::new(path, text);
    let parsed = crate::hcl::parse_body(text);
    let mut out = Vec::new();
    for item in &parsed.body.items {
        if let crate::hcl::ast::Item::Attr(a) = item {
            out.push((
                a.name.name.to_string(),
                ExprText { text: text[a.expr.span.clone()].to_string(), range: src.range(a.expr.span.clone()) },
            ));
        }
    }
    out
}

/// One state of a file: its objects, and the run that last changed it.
struct StateEntry {
    state: Option<Rc<Json>>,
    last_run: usize,
    module_root: String,
    variables: BTreeMap<String, Json>,
    mocking: Rc<Mocking>,
    module_overrides: Vec<ModuleOverride>,
}

fn run_file(
    files: &BTreeMap<String, String>,
    f: &TestFile,
    main: &Module,
    globals: &[(String, GlobalValue)],
    verbose: bool,
    emit: &mut dyn FnMut(TestEvent),
) -> FileResult {
    emit(TestEvent::FileStart { file: f.path.clone() });
    let mut file_status = Status::Pending;
    let mut file_diags = Diagnostics::new();
    for u in &f.unsupported {
        file_diags.push(
            Diagnostic::error(
                "Unsupported test block",
                format!("tfgraph does not run \"{}\" blocks yet: the file's runs are skipped.", u.kind),
            )
            .with_range(u.range.clone()),
        );
    }
    // Overrides of objects the configuration under test does not have.
    for o in f.overrides.iter().chain(f.mock_providers.iter().flat_map(|m| &m.overrides)) {
        if !target_exists(main, o) {
            file_diags.push(invalid_target(o));
        }
    }
    let mut runs: Vec<RunResult> = Vec::new();
    let mut outputs: BTreeMap<String, Value> = BTreeMap::new();
    let mut states: BTreeMap<String, StateEntry> = BTreeMap::new();
    let mut modules: BTreeMap<String, Module> = BTreeMap::new();
    let mut stopped = file_diags.has_errors();
    for (index, run) in f.runs.iter().enumerate() {
        if stopped {
            let r = RunResult {
                name: run.name.clone(),
                asserts: run.asserts.len(),
                status: Status::Skip,
                diagnostics: Diagnostics::new(),
                outputs: None,
                state_key: run.state_key(),
                state: None,
                plan: None,
            };
            emit(TestEvent::RunComplete {
                file: f.path.clone(),
                run: run.name.clone(),
                status: Status::Skip,
                diagnostics: Diagnostics::new(),
                verbose: None,
            });
            file_status = file_status.merge(Status::Skip);
            runs.push(r);
            continue;
        }
        emit(TestEvent::RunStart { file: f.path.clone(), run: run.name.clone() });
        let root = run.module_source.as_deref().map(|s| s.trim_start_matches("./").to_string()).unwrap_or_default();
        let module = match run.module_source {
            None => main,
            Some(_) => &*modules.entry(root.clone()).or_insert_with(|| Module::load(Rc::clone(&main.files), &root)),
        };
        let ctx = RunContext { file: f, run, outputs: &outputs, globals, files, verbose };
        let key = run.state_key();
        // Borrowed: a run reads its state, and only an apply replaces it below.
        let prior = states.get(&key).and_then(|s| s.state.as_deref());
        let mut result = execute(&ctx, module, prior);
        if let Some(o) = &result.outputs_value {
            outputs.insert(run.name.clone(), o.clone());
        }
        if run.command == Command::Apply {
            if let Some(new_state) = result.new_state.take() {
                states.insert(
                    key.clone(),
                    StateEntry {
                        state: Some(Rc::new(new_state)),
                        last_run: index,
                        module_root: root.clone(),
                        variables: std::mem::take(&mut result.variables),
                        mocking: std::mem::take(&mut result.mocking),
                        module_overrides: std::mem::take(&mut result.module_overrides),
                    },
                );
            }
        }
        let status = result.status;
        if status == Status::Error {
            stopped = true;
        }
        file_status = file_status.merge(status);
        emit(TestEvent::RunComplete {
            file: f.path.clone(),
            run: run.name.clone(),
            status,
            diagnostics: result.diagnostics.clone(),
            verbose: result.verbose.take().map(Box::new),
        });
        // The apply's state as it left it (a plan run's result has none: nothing is copied).
        let state = match run.command {
            Command::Apply => states.get(&key).and_then(|s| s.state.clone()),
            Command::Plan => None,
        };
        runs.push(RunResult {
            name: run.name.clone(),
            asserts: run.asserts.len(),
            status,
            diagnostics: result.diagnostics,
            outputs: result.outputs_value.as_ref().map(|v| crate::eval::render::to_api(v).0),
            state_key: key,
            state,
            plan: result.plan_text,
        });
    }
    // Teardown: the state last used latest first.
    emit(TestEvent::FileTeardown { file: f.path.clone() });
    let mut order: Vec<(&String, &StateEntry)> = states.iter().collect();
    crate::util::sort::sort_by_key(&mut order, |(_, s)| std::cmp::Reverse(s.last_run));
    for (_, entry) in order {
        let Some(state) = &entry.state else { continue };
        let run_name = f.runs[entry.last_run].name.clone();
        if !engine::has_objects(state) {
            continue;
        }
        emit(TestEvent::RunTeardown { file: f.path.clone(), run: run_name.clone() });
        let module = if entry.module_root.is_empty() {
            main
        } else {
            &*modules
                .entry(entry.module_root.clone())
                .or_insert_with(|| Module::load(Rc::clone(&main.files), &entry.module_root))
        };
        let overridden;
        let module = match entry.module_overrides.is_empty() {
            true => module,
            false => {
                overridden = module.overridden(&entry.module_overrides);
                &overridden
            }
        };
        let (left, diags) = engine::destroy(module, state, &entry.variables, &entry.mocking);
        let left_addrs = left.as_ref().map(engine::state_addresses).unwrap_or_default();
        if diags.has_errors() || !left_addrs.is_empty() {
            file_status = file_status.merge(Status::Error);
            emit(TestEvent::DestroyFailed {
                file: f.path.clone(),
                run: Some(run_name),
                diagnostics: diags,
                left: left_addrs,
            });
        }
    }
    if file_status == Status::Pending {
        file_status = Status::Pass;
    }
    if file_diags.has_errors() {
        file_status = file_status.merge(Status::Error);
    }
    let file_diags = crate::engine::shared::snippets::with_sources(file_diags, &crate::eval::MapFilesystem(files));
    emit(TestEvent::FileComplete { file: f.path.clone(), status: file_status, diagnostics: file_diags.clone() });
    FileResult { path: f.path.clone(), status: file_status, runs, diagnostics: file_diags }
}

/// What a run reads besides its module.
struct RunContext<'a> {
    file: &'a TestFile,
    run: &'a Run,
    /// Earlier runs' outputs, by run name.
    outputs: &'a BTreeMap<String, Value>,
    globals: &'a [(String, GlobalValue)],
    files: &'a BTreeMap<String, String>,
    /// `-verbose`: keep the run's plan or state to show, and its plan's text (`RunResult::plan`).
    verbose: bool,
}

struct Executed {
    status: Status,
    diagnostics: Diagnostics,
    outputs_value: Option<Value>,
    new_state: Option<Json>,
    /// The module's variables the run used.
    variables: BTreeMap<String, Json>,
    /// The run's mocks and overrides (the teardown of its state uses them).
    mocking: Rc<Mocking>,
    module_overrides: Vec<ModuleOverride>,
    /// What `-verbose` shows of the run.
    verbose: Option<Verbose>,
    /// The plan's text, when the run planned and `verbose` asked for it.
    plan_text: Option<String>,
}

impl Executed {
    fn error(diagnostics: Diagnostics) -> Executed {
        Executed {
            status: Status::Error,
            diagnostics,
            outputs_value: None,
            new_state: None,
            variables: BTreeMap::new(),
            mocking: Rc::default(),
            module_overrides: Vec::new(),
            verbose: None,
            plan_text: None,
        }
    }
}

fn execute(ctx: &RunContext<'_>, module: &Module, prior: Option<&Json>) -> Executed {
    let mocking = Rc::new(mocking_for(ctx.file, ctx.run, module, ctx.files));
    let module_overrides = module_overrides_for(ctx.file, ctx.run, ctx.files);
    let overridden;
    let run_module = match module_overrides.is_empty() {
        true => module,
        false => {
            overridden = module.overridden(&module_overrides);
            &overridden
        }
    };
    let mut e = execute_inner(ctx, run_module, prior, &mocking);
    e.module_overrides = module_overrides;
    if !module.diagnostics.has_errors() {
        for o in &ctx.run.overrides {
            if !target_exists(module, o) {
                e.diagnostics.push(invalid_target(o));
            }
        }
    }
    e.mocking = mocking;
    let diags = mocked_data_at_blocks(std::mem::take(&mut e.diagnostics), module);
    e.diagnostics = with_snippets(diags, ctx.files);
    e
}

/// "Failed to compute attribute" points into the resource's body, where the attribute is
/// missing: Terraform's range is the block's opening brace.
fn mocked_data_at_blocks(diags: Diagnostics, module: &Module) -> Diagnostics {
    let mut out = Diagnostics::new();
    for mut d in diags {
        if d.summary == "Failed to compute attribute" {
            let bare = d.address.as_deref().map(without_keys).unwrap_or_default();
            let found = module.config.modules().into_iter().flat_map(|m| &m.resources).find(|r| r.address == bare);
            if let Some(r) = found {
                if let Some(text) = module.files.get(&r.range.filename) {
                    let from = r.range.end.byte as usize;
                    if let Some(i) = text.get(from..).and_then(|t| t.find('{')) {
                        let src = crate::diag::SourceFile::new(&r.range.filename, text);
                        d.range = Some(src.range(from + i..from + i + 1));
                        d.snippet = None;
                    }
                }
            }
        }
        out.push(d);
    }
    out
}

/// An address without its instance keys.
fn without_keys(addr: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in addr.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A variable validation's diagnostic points at the variable's declaration when the value
/// came from outside the configuration; a test run points it at the test file's value, with
/// the value under the snippet, as Terraform does.
fn point_at_test_values(
    diags: Diagnostics,
    module: &Module,
    values: &BTreeMap<String, Value>,
    sources: &BTreeMap<String, ExprText>,
    ctx: &RunContext<'_>,
) -> Diagnostics {
    let fs = crate::eval::MapFilesystem(ctx.files);
    let mut out = Diagnostics::new();
    for d in diags {
        out.push(point_one(d, module, values, sources, ctx, &fs));
    }
    out
}

fn point_one(
    d: Diagnostic,
    module: &Module,
    values: &BTreeMap<String, Value>,
    sources: &BTreeMap<String, ExprText>,
    ctx: &RunContext<'_>,
    fs: &crate::eval::MapFilesystem<'_>,
) -> Diagnostic {
    {
        {
            if d.summary != "Invalid value for variable" {
                return d;
            }
            let Some(r) = &d.range else { return d };
            let Some(var) = module
                .config
                .root
                .variables
                .iter()
                .find(|v| v.range.filename == r.filename && v.range.start.byte == r.start.byte)
            else {
                return d;
            };
            let Some(source) = sources.get(&var.name) else { return d };
            let mut d = d;
            d.range = Some(source.range.clone());
            d.snippet = None;
            let one =
                BTreeMap::from([(var.name.clone(), values.get(&var.name).cloned().unwrap_or_else(Value::dynamic))]);
            let scope = FileScope { ctx, vars: &one };
            let funcs = crate::eval::functions::Registry::builtin();
            let none = BTreeMap::new();
            let inputs = Inputs::new(&none, fs, &funcs);
            let shown = crate::engine::shared::snippets::expression_values(
                &scope,
                &inputs,
                &format!("var.{}", var.name),
                crate::diag::CausedBy::Other,
            );
            crate::engine::shared::snippets::with_source(d, fs, shown)
        }
    }
}

fn execute_inner(ctx: &RunContext<'_>, module: &Module, prior: Option<&Json>, mocking: &Rc<Mocking>) -> Executed {
    let run = ctx.run;
    let mut diags = Diagnostics::new();
    if module.diagnostics.has_errors() {
        return Executed::error(module.diagnostics.clone());
    }
    // The run's variables: every level evaluated in the test file's own scope.
    let (values, sources, var_diags) = run_variables(ctx);
    diags.extend(var_diags);
    if diags.has_errors() {
        return Executed::error(with_snippets(diags, ctx.files));
    }
    let mut module_vars: BTreeMap<String, Json> = BTreeMap::new();
    let mut test_only: BTreeMap<String, Value> = BTreeMap::new();
    for (k, v) in &values {
        if module.declares(k) {
            module_vars.insert(k.clone(), crate::eval::render::to_api(v).0);
        } else {
            test_only.insert(k.clone(), v.clone());
        }
    }
    // A run's own value for a variable the module does not declare (Terraform 1.11.4 warns;
    // file-level and global values are shared by modules and are not checked).
    for (name, e) in &run.variables {
        if !module.declares(name) {
            diags.push(
                Diagnostic::warning(
                    "Value for undeclared variable",
                    format!("The module under test does not declare a variable named \"{name}\", but it is declared in run block \"{}\".", run.name),
                )
                .with_range(e.range.clone()),
            );
        }
    }
    let options = PlanOptions {
        variables: module_vars.clone(),
        no_refresh: !run.plan_options.refresh,
        targets: run.plan_options.target.clone(),
        replace: run.plan_options.replace.clone(),
        ..PlanOptions::default()
    };
    let refresh_only = run.plan_options.mode == PlanMode::RefreshOnly;
    let planned = engine::plan(module, prior, options, refresh_only, mocking);
    let plan_text =
        if ctx.verbose && !planned.diagnostics().has_errors() { Some(planned.text().to_string()) } else { None };
    let plan_diags = point_at_test_values(planned.diagnostics().clone(), module, &values, &sources, ctx);
    match run.command {
        Command::Plan => {
            let plan_diags = validate_expected_failures(run, module, plan_diags);
            diags.extend(plan_diags);
            if diags.has_errors() {
                return Executed { variables: module_vars, ..Executed::error(diags) };
            }
            let values = PlannedValues::of(&planned);
            let state = if planned.refresh_only() { prior } else { None };
            let (status, outputs, more) =
                engine::with_scope(module, &module_vars, state, Some(&values), true, |scope, inputs| {
                    evaluate_run(ctx, module, scope, inputs, &test_only)
                });
            diags.extend(more);
            Executed {
                status,
                diagnostics: diags,
                outputs_value: Some(outputs),
                new_state: None,
                variables: module_vars,
                mocking: Rc::default(),
                module_overrides: Vec::new(),
                verbose: ctx.verbose.then(|| module.verbose_plan(&planned)),
                plan_text,
            }
        }
        Command::Apply => {
            let plan_diags = explain_expected_failures(run, module, plan_diags);
            if plan_diags.has_errors() {
                diags.extend(plan_diags);
                return Executed { variables: module_vars, ..Executed::error(diags) };
            }
            // A check block's plan-time warnings are dropped: the apply evaluates them again.
            for d in plan_diags {
                if checkable_of(&d, module).map(|c| c.0) != Some(Checkable::Check) {
                    diags.push(d);
                }
            }
            let (state, apply_diags) = engine::apply(module, &planned);
            let (status, apply_diags) = missing_expected_failures(run, module, apply_diags);
            diags.extend(apply_diags);
            if status == Status::Error {
                return Executed {
                    status,
                    diagnostics: diags,
                    outputs_value: None,
                    new_state: state,
                    variables: module_vars,
                    mocking: Rc::default(),
                    module_overrides: Vec::new(),
                    verbose: None,
                    plan_text,
                };
            }
            let (more_status, outputs, more) =
                engine::with_scope(module, &module_vars, state.as_ref(), None, false, |scope, inputs| {
                    evaluate_run(ctx, module, scope, inputs, &test_only)
                });
            diags.extend(more);
            let verbose = state.as_ref().filter(|_| ctx.verbose).map(|s| module.verbose_state(s));
            Executed {
                status: status.merge(more_status),
                diagnostics: diags,
                outputs_value: Some(outputs),
                new_state: state,
                variables: module_vars,
                mocking: Rc::default(),
                module_overrides: Vec::new(),
                verbose,
                plan_text,
            }
        }
    }
}

fn with_snippets(diags: Diagnostics, files: &BTreeMap<String, String>) -> Diagnostics {
    crate::engine::shared::snippets::with_sources(diags, &crate::eval::MapFilesystem(files))
}

/// The run's variable values: globals, then the file's `variables`, then the run's, each
/// later level overriding; expressions may read `var.*` (the levels below) and `run.*`.
fn run_variables(ctx: &RunContext<'_>) -> (BTreeMap<String, Value>, BTreeMap<String, ExprText>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut values: BTreeMap<String, Value> = BTreeMap::new();
    let mut sources: BTreeMap<String, ExprText> = BTreeMap::new();
    for (name, g) in ctx.globals {
        match g {
            GlobalValue::Json(j) => {
                values.insert(name.clone(), crate::eval::json::from_json(j));
            }
            GlobalValue::Expr(e) => {
                let scope = FileScope { ctx, vars: &BTreeMap::new() };
                match eval_test_expr(&scope, ctx.files, e) {
                    Ok(v) => {
                        values.insert(name.clone(), v);
                        sources.insert(name.clone(), e.clone());
                    }
                    Err(d) => diags.push(*d),
                }
            }
        }
    }
    // The file's `variable` blocks (Terraform 1.13+): the value given from outside, else the
    // default, converted to the type.
    for v in &ctx.file.variable_blocks {
        let given = values.get(&v.name).cloned().filter(|x| !x.is_null() || v.nullable);
        let value = match (given, &v.default) {
            (Some(x), _) => x,
            (None, Some(d)) => match static_value(ctx.files, d) {
                Ok(x) => x,
                Err(d) => {
                    diags.push(*d);
                    continue;
                }
            },
            (None, None) => {
                diags.push(
                    Diagnostic::error(
                        "No value for required variable",
                        format!("The root module input variable \"{}\" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", v.name),
                    )
                    .with_range(v.decl_range.clone()),
                );
                continue;
            }
        };
        let value = match &v.type_text {
            None => value,
            Some(t) => {
                let funcs = crate::eval::functions::Registry::builtin();
                let fs = crate::eval::MapFilesystem(ctx.files);
                let none = BTreeMap::new();
                let inputs = Inputs::new(&none, &fs, &funcs);
                let converted = crate::eval::module_scope::parse_constraint(t, None, &inputs)
                    .and_then(|c| crate::eval::convert::convert(&c.apply_defaults(&value), &c.ty()));
                match converted {
                    Ok(x) => x,
                    Err(e) => {
                        diags.push(
                            Diagnostic::error(
                                "Invalid value for variable",
                                format!(
                                    "Unsuitable value for var.{} set from outside of the configuration: {e}.",
                                    v.name
                                ),
                            )
                            .with_range(v.decl_range.clone()),
                        );
                        continue;
                    }
                }
            }
        };
        values.insert(v.name.clone(), value);
    }
    let globals = values.clone();
    for (name, e) in &ctx.file.variables {
        let scope = FileScope { ctx, vars: &globals };
        match eval_test_expr(&scope, ctx.files, e) {
            Ok(v) => {
                values.insert(name.clone(), v);
                sources.insert(name.clone(), e.clone());
            }
            Err(d) => diags.push(*d),
        }
    }
    let file_level = values.clone();
    for (name, e) in &ctx.run.variables {
        let scope = FileScope { ctx, vars: &file_level };
        match eval_test_expr(&scope, ctx.files, e) {
            Ok(v) => {
                values.insert(name.clone(), v);
                sources.insert(name.clone(), e.clone());
            }
            Err(d) => diags.push(*d),
        }
    }
    (values, sources, diags)
}

fn eval_test_expr(scope: &dyn Scope, files: &BTreeMap<String, String>, e: &ExprText) -> Result<Value, Box<Diagnostic>> {
    let funcs = crate::eval::functions::Registry::builtin();
    let fs = crate::eval::MapFilesystem(files);
    let vars = BTreeMap::new();
    let inputs = Inputs::new(&vars, &fs, &funcs);
    eval_text(scope, &inputs, &e.range.filename, &e.text, e.start())
}

/// `run.NAME` as a test file reads it: the outputs of an earlier run of the file.
fn run_lookup(ctx: &RunContext<'_>, names: &[&str], in_assert: bool) -> Result<(Rc<Value>, usize), LookupError> {
    let Some(name) = names.get(1) else { return Err(LookupError::whole_object("run")) };
    if let Some(v) = ctx.outputs.get(*name) {
        // An output a plan run did not know is refused (the value would be unknown).
        if let Some(out) = names.get(2) {
            let field = match &v.kind {
                Kind::Object(m) => m.get(*out).cloned(),
                _ => None,
            };
            if let Some(field) = field {
                if !field.is_wholly_known() {
                    return Err(LookupError {
                        summary: "Reference to unknown value".into(),
                        detail: format!("The value for run.{name}.{out} is unknown. Run block \"{name}\" is executing a \"plan\" operation, and the specified output value is only known after apply."),
                        names: 3,
                    });
                }
            }
        }
        return Ok((Rc::new(v.clone()), 2));
    }
    let declared = ctx.file.runs.iter().any(|r| r.name == *name);
    if in_assert && !declared {
        let mut candidates: Vec<&str> = ctx.file.runs.iter().map(|r| r.name.as_str()).collect();
        crate::util::sort::sort(&mut candidates);
        let suggestion = crate::hcl::messages::suggest(name, candidates)
            .map(|s| format!(" Did you mean \"{s}\"?"))
            .unwrap_or_default();
        return Err(LookupError {
            summary: "Reference to undeclared run block".into(),
            detail: format!("There is no run \"{name}\" declared in this test suite.{suggestion}"),
            names: 2,
        });
    }
    if declared {
        return Err(LookupError {
            summary: "Reference to unavailable run block".into(),
            detail: format!("The run block \"{name}\" has not executed yet. You can only reference run blocks that are in the same test file and will execute before the current run block."),
            names: 2,
        });
    }
    Err(LookupError {
        summary: "Reference to unknown run block".into(),
        detail: format!("The run block \"{name}\" does not exist within this test file. You can only reference run blocks that are in the same test file and will execute before the current run block."),
        names: 2,
    })
}

/// The scope of a test file's own expressions (`variables`): `var.*` and `run.*` only.
struct FileScope<'c, 'a> {
    ctx: &'c RunContext<'a>,
    vars: &'c BTreeMap<String, Value>,
}

impl Scope for FileScope<'_, '_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        self.lookup_shared(names).map(|(v, n)| (crate::eval::scope::unshare(v), n))
    }
    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        match names[0] {
            "run" => run_lookup(self.ctx, names, false),
            "var" => {
                let Some(name) = names.get(1) else { return Err(LookupError::whole_object("var")) };
                match self.vars.get(*name) {
                    Some(v) => Ok((Rc::new(v.clone()), 2)),
                    None => Err(LookupError {
                        summary: "Reference to unavailable variable".into(),
                        detail: format!("The input variable \"{name}\" is not available to the current run block. You can only reference variables defined at the file or global levels."),
                        names: 2,
                    }),
                }
            }
            _ => Err(LookupError {
                summary: "Invalid reference".into(),
                detail: "You can only reference run blocks and variables from within Terraform Test files.".into(),
                names: 1,
            }),
        }
    }
}

/// The scope of a run's assertions: the module's scope, with `output.*`, `run.*` and the
/// run's test-only variables.
struct AssertScope<'s, 'c, 'a> {
    inner: &'s ModuleScope<'s>,
    ctx: &'c RunContext<'a>,
    extra: &'c BTreeMap<String, Value>,
}

impl Scope for AssertScope<'_, '_, '_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        self.lookup_shared(names).map(|(v, n)| (crate::eval::scope::unshare(v), n))
    }
    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        match names[0] {
            "run" => run_lookup(self.ctx, names, true),
            "output" => {
                let Some(name) = names.get(1) else { return Err(LookupError::whole_object("output")) };
                match self.inner.output(name) {
                    Some(v) => Ok((Rc::new(v), 2)),
                    None => Err(LookupError {
                        summary: "Reference to undeclared output value".into(),
                        detail: format!("An output value with the name \"{name}\" has not been declared."),
                        names: 2,
                    }),
                }
            }
            "var" if names.get(1).is_some_and(|n| self.extra.contains_key(*n)) => {
                Ok((Rc::new(self.extra[names[1]].clone()), 2))
            }
            _ => self.inner.lookup_shared(names),
        }
    }
}

/// The assertions of a run, and its outputs.
fn evaluate_run(
    ctx: &RunContext<'_>,
    module: &Module,
    scope: &ModuleScope<'_>,
    inputs: &Inputs<'_>,
    extra: &BTreeMap<String, Value>,
) -> (Status, Value, Diagnostics) {
    let assert_scope = AssertScope { inner: scope, ctx, extra };
    let mut status = Status::Pass;
    let mut diags = Diagnostics::new();
    for a in &ctx.run.asserts {
        let (s, d) = assertion(&assert_scope, inputs, ctx.files, a);
        status = status.merge(s);
        diags.extend(d);
    }
    let mut outputs = BTreeMap::new();
    for o in &module.config.root.outputs {
        let v = scope.output(&o.name).unwrap_or_else(|| Value::null(Type::Dynamic));
        outputs.insert(o.name.clone(), v);
    }
    (status, Value::object(outputs), diags)
}

fn assertion(
    scope: &AssertScope<'_, '_, '_>,
    inputs: &Inputs<'_>,
    files: &BTreeMap<String, String>,
    a: &Assertion,
) -> (Status, Diagnostics) {
    let mut diags = Diagnostics::new();
    let fs = crate::eval::MapFilesystem(files);
    let cond_inputs = Inputs { files: &fs, ..*inputs };
    let eval = |e: &ExprText| eval_text(scope, &cond_inputs, &e.range.filename, &e.text, e.start());
    let message = match &a.error_message {
        Some(m) => match eval(m) {
            Ok(v) => v.unmark_deep().0.as_str().map(|s| s.trim().to_string()).unwrap_or_default(),
            Err(d) => {
                diags.push(*d);
                String::new()
            }
        },
        None => String::new(),
    };
    let value = match eval(&a.condition) {
        Ok(v) => v.unmark_deep().0,
        Err(d) => {
            diags.push(*d);
            return (Status::Error, with_snippets(diags, files));
        }
    };
    if diags.has_errors() {
        return (Status::Error, with_snippets(diags, files));
    }
    let fail = |summary: &str, detail: String, unknown: bool| {
        let values = crate::engine::shared::snippets::expression_values(
            scope,
            &cond_inputs,
            &a.condition.text,
            if unknown { crate::diag::CausedBy::Unknown } else { crate::diag::CausedBy::Other },
        );
        let d = Diagnostic::error(summary, detail).with_range(a.condition.range.clone());
        crate::engine::shared::snippets::with_source(d, &fs, values)
    };
    if value.is_null() {
        diags.push(fail(
            "Invalid condition run",
            "Condition expression must return either true or false, not null.".into(),
            false,
        ));
        return (Status::Error, diags);
    }
    if !value.is_known() {
        diags.push(fail("Unknown condition value", "Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block. Alternatively, if there is an override for this value, you can make it available during the plan phase by setting `override_during = plan` in the `override_` block.".into(), false));
        return (Status::Error, diags);
    }
    match crate::eval::convert::convert(&value, &Type::Bool) {
        Err(e) => {
            diags.push(fail("Invalid condition run", format!("Invalid condition run value: {e}."), false));
            (Status::Error, diags)
        }
        Ok(v) if v.as_bool() == Some(false) => {
            diags.push(fail("Test assertion failed", message, false));
            (Status::Fail, diags)
        }
        Ok(_) => (Status::Pass, diags),
    }
}

/// The kinds of checkable objects `expect_failures` may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Checkable {
    Variable,
    Output,
    Resource,
    Check,
}

/// Which root module object a condition's diagnostic comes from: its kind and address
/// (`var.size`, `output.size`, `mock_resource.a`, `check.small`), found from the summary and
/// the block the diagnostic's range lies in.
fn checkable_of(d: &Diagnostic, module: &Module) -> Option<(Checkable, String)> {
    let kind = match d.summary.as_str() {
        "Invalid value for variable" => Checkable::Variable,
        "Module output value precondition failed" => Checkable::Output,
        "Resource precondition failed" | "Resource postcondition failed" => Checkable::Resource,
        "Check block assertion failed" => Checkable::Check,
        _ => return None,
    };
    let r = d.range.as_ref()?;
    let root = &module.config.root;
    // The closest block of the kind that starts before the diagnostic, in its file.
    let inside = |decl: &SourceRange| decl.filename == r.filename && decl.start.byte <= r.start.byte;
    let mut best: Option<(u32, String)> = None;
    let mut consider = |start: u32, addr: String| {
        if best.as_ref().map(|b| start > b.0).unwrap_or(true) {
            best = Some((start, addr));
        }
    };
    match kind {
        Checkable::Variable => {
            // The variable's validation points at its value or its condition.
            if let Some(a) = &d.address {
                return Some((kind, a.clone()));
            }
            for v in &root.variables {
                if inside(&v.range) {
                    consider(v.range.start.byte, format!("var.{}", v.name));
                }
            }
            // Pointed at a test file's value (`point_at_test_values`): the value shown is the
            // variable's.
            if !module.config.root.variables.iter().any(|v| v.range.filename == r.filename) {
                let shown = d.snippet.as_ref().and_then(|s| s.values.first()).and_then(|v| v["traversal"].as_str());
                return shown.map(|t| (kind, t.to_string()));
            }
        }
        Checkable::Output => {
            for o in &root.outputs {
                if inside(&o.range) {
                    consider(o.range.start.byte, format!("output.{}", o.name));
                }
            }
        }
        Checkable::Resource => {
            for res in &root.resources {
                if inside(&res.range) {
                    let prefix = if res.mode == crate::addrs::ResourceMode::Data { "data." } else { "" };
                    consider(res.range.start.byte, format!("{prefix}{}.{}", res.type_name, res.name));
                }
            }
        }
        Checkable::Check => {
            for c in &root.checks {
                if inside(&c.range) {
                    consider(c.range.start.byte, format!("check.{}", c.name));
                }
            }
        }
    }
    best.map(|b| (kind, b.1))
}

/// Whether `expected` (an `expect_failures` address) names `addr` (a resource names its
/// instances too).
fn names(expected: &str, addr: &str) -> bool {
    expected == addr || addr.strip_prefix(expected).is_some_and(|rest| rest.starts_with('['))
}

/// A plan run's diagnostics with the expected failures taken out (`ValidateExpectedFailures`),
/// and "Missing expected failure" for each listed object that did not fail.
fn validate_expected_failures(run: &Run, module: &Module, originals: Diagnostics) -> Diagnostics {
    let mut failed = vec![false; run.expect_failures.len()];
    let mut out = Diagnostics::new();
    for d in originals {
        if let Some((kind, addr)) = checkable_of(&d, module) {
            let hit = run.expect_failures.iter().position(|e| names(&e.address, &addr));
            if kind == Checkable::Check {
                if let Some(i) = hit {
                    failed[i] = true;
                    continue;
                }
                // An unexpected check failure is an error in a test.
                let mut e = d.clone();
                e.severity = Severity::Error;
                out.push(e);
                continue;
            }
            if d.severity == Severity::Error {
                if let Some(i) = hit {
                    failed[i] = true;
                    continue;
                }
            }
        }
        out.push(d);
    }
    for (i, e) in run.expect_failures.iter().enumerate() {
        if !failed[i] {
            out.push(
                Diagnostic::error(
                    "Missing expected failure",
                    format!("The checkable object, {}, was expected to report an error but did not.", e.address),
                )
                .with_range(e.range.clone()),
            );
        }
    }
    out
}

/// An apply run's plan diagnostics (`ExplainExpectedFailures`): an expected failure that
/// stopped the plan is explained with a warning before it.
fn explain_expected_failures(run: &Run, module: &Module, originals: Diagnostics) -> Diagnostics {
    let mut out = Diagnostics::new();
    for d in originals {
        if d.severity == Severity::Error {
            if let Some((kind, addr)) = checkable_of(&d, module) {
                let hit = run.expect_failures.iter().find(|e| names(&e.address, &addr));
                if let (Some(e), true) = (hit, kind != Checkable::Check) {
                    let mut w = Diagnostic::warning(
                        "Expected failure while planning",
                        format!("A custom condition within {addr} failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report."),
                    );
                    if kind == Checkable::Output {
                        w = w.with_range(e.range.clone());
                    }
                    out.push(w);
                }
            }
        }
        out.push(d);
    }
    out
}

/// An apply's diagnostics against `expect_failures` (`checkForMissingExpectedFailures`): a
/// missing expected failure fails the run, another error makes it an error.
fn missing_expected_failures(run: &Run, module: &Module, originals: Diagnostics) -> (Status, Diagnostics) {
    let diags = validate_expected_failures(run, module, originals);
    let mut status = Status::Pass;
    for d in diags.iter() {
        if d.summary == "Missing expected failure" {
            status = status.merge(Status::Fail);
            continue;
        }
        if d.severity == Severity::Error {
            status = status.merge(Status::Error);
            break;
        }
    }
    (status, diags)
}
