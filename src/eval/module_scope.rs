//! The scope of one module of a loaded [`Config`], as `terraform console` sees it: input
//! variables (API values, `*.auto.tfvars`, `terraform.tfvars`, defaults, in Terraform's
//! precedence; type constraints with optional defaults; `nullable`, `sensitive`, validation),
//! locals, module call outputs, `path.*`, `terraform.workspace`, and resources from a state v4
//! object (unknown without one).

use super::convert::convert;
use super::expr::{Evaluator, Source};
use super::functions::{Filesystem, FuncContext, Registry};
use super::json::from_json;
use super::scope::{unshare, EmptyScope, LookupError, Scope};
use super::typeexpr::{self, Constraint};
use super::types::Type;
use super::value::Value;
use crate::config::kept::KeptExpr;
use crate::config::model::{Config, Expr as ConfigExpr, Module};
use crate::dag::go_quote;
use crate::diag::{CausedBy, Diagnostic, Diagnostics, Pos, SourceRange};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Why a module call's `count` / `for_each` makes no instances: Terraform's error, and the
/// expression's source with what caused it when its snippet names the values read.
pub type ExpansionError = (Diagnostic, Option<(String, CausedBy)>);

/// What a module scope is built from, besides the configuration.
pub struct Inputs<'a> {
    /// Values given through the API (like `-var`), as JSON.
    pub variables: &'a BTreeMap<String, serde_json::Value>,
    /// A state v4 object, for resource attributes.
    pub state: Option<&'a serde_json::Value>,
    pub files: &'a dyn Filesystem,
    pub funcs: &'a Registry,
    pub planning: bool,
    /// Validate mode: a required variable with no value is unknown instead of an error (as
    /// `terraform validate` evaluates a configuration).
    pub unset_variables_unknown: bool,
    /// The root module's directory among the loaded files (`.` at their top): Terraform's
    /// working directory, which the filesystem functions resolve relative paths against.
    pub base_dir: &'a str,
    /// The working directory's absolute path, when the caller gave one (`path.cwd`; see
    /// [`crate::config::Config::cwd`]).
    pub cwd: Option<&'a str>,
    /// Resource values from a walk (the plan's or the apply's), ahead of `state`.
    pub resources: Option<&'a dyn super::scope::ResourceSource>,
    /// `override_module`s (`terraform test`): the outputs of the module instances they name.
    pub overrides: Option<&'a super::module_overrides::ModuleOverrides>,
}

impl<'a> Inputs<'a> {
    /// Only variables, files and functions: no state, no walk's resources, no overrides, not
    /// planning, the root module at the top of the files. Callers set the rest with `..`.
    pub fn new(
        variables: &'a BTreeMap<String, serde_json::Value>,
        files: &'a dyn Filesystem,
        funcs: &'a Registry,
    ) -> Self {
        Inputs {
            variables,
            state: None,
            files,
            funcs,
            planning: false,
            unset_variables_unknown: false,
            base_dir: ".",
            cwd: None,
            resources: None,
            overrides: None,
        }
    }

    /// [`new`](Self::new) with `config`'s root directory and working directory.
    pub fn of(
        config: &'a Config,
        variables: &'a BTreeMap<String, serde_json::Value>,
        files: &'a dyn Filesystem,
        funcs: &'a Registry,
    ) -> Self {
        let base_dir = if config.root.dir.is_empty() { "." } else { &config.root.dir };
        Inputs { base_dir, cwd: config.cwd.as_deref(), ..Inputs::new(variables, files, funcs) }
    }
}

/// What a value node evaluates ([`ModuleScope::settle`]).
#[derive(Clone, Copy)]
pub enum Settle {
    Local,
    Variable,
    Output,
}

/// What a node's conditions (a variable's validations, an output's preconditions) found in
/// one module instance: each failed condition's message, whether one could not be decided yet
/// (unknown), whether the node failed (a condition failed or did not evaluate).
#[derive(Default)]
pub struct Conditions {
    pub failed: Vec<String>,
    pub unknown: bool,
    pub ok: bool,
}

enum Slot {
    Evaluating,
    /// Shared with the references that read it; whether its evaluation read only what cannot
    /// change while the scope tree lives (see [`Memo`]).
    Done(Rc<Value>, bool),
}

/// What every scope of one tree (a root scope and the child scopes made from it) shares: the
/// variables and locals of each module instance, evaluated once.
///
/// The engine makes a child scope per resource it walks in a module instance, so without this
/// each resource evaluated the instance's variables and locals again. Only values whose
/// evaluation read nothing that changes during a walk are kept here: a value that read a
/// resource (or a module's outputs, or a value in the middle of its own evaluation) stays with
/// its scope, as before, since the walk's resource values change from one resource to the next.
/// A new root scope (each plan pass, each apply operation) starts a new memo.
#[derive(Default)]
struct Memo {
    /// Bumped by every read of a value that may change: an evaluation that saw it move is not
    /// kept in `pure`.
    changing_reads: Cell<u64>,
    /// By module instance address.
    pure: RefCell<HashMap<String, Rc<PureValues>>>,
    /// A walk fills the values at their graph nodes ([`ModuleScope::settle`]): a variable's
    /// validations then run at its own validation node, not with its value.
    walked: Cell<bool>,
    /// Whether a value node is evaluating its value now.
    settling: Cell<bool>,
    /// Values evaluated on demand outside their nodes while a walk fills them (counted in
    /// debug builds): a reader the graph let run before the value's node. None when the
    /// graph's edges are Terraform's.
    early: Cell<usize>,
}

/// The values of one module instance every scope of the tree finds: those that read nothing
/// that changes, and those a walk evaluated at their nodes (final once the node ran: whatever
/// they read was before them in the graph).
#[derive(Default)]
struct PureValues {
    vars: RefCell<HashMap<String, Rc<Value>>>,
    locals: RefCell<HashMap<String, Rc<Value>>>,
    outputs: RefCell<HashMap<String, Rc<Value>>>,
}

impl Memo {
    fn changing_read(&self) {
        self.changing_reads.set(self.changing_reads.get() + 1);
    }

    /// A value is evaluated now: outside its node, while a walk fills the values, it is early.
    fn evaluating(&self) {
        if cfg!(debug_assertions) && self.walked.get() && !self.settling.get() {
            self.early.set(self.early.get() + 1);
        }
    }
}

/// Where a module's input variables get their values.
enum Given<'a> {
    /// The root module: API values and tfvars, already read.
    Root(BTreeMap<String, (Value, Origin)>),
    /// A called module: the call's arguments, evaluated in the caller's scope when needed
    /// (with the instance's `count.index` / `each` for an expanded call).
    Call { parent: &'a ModuleScope<'a>, call: &'a crate::config::model::ModuleCall, key: Option<ModuleKey> },
}

/// One instance of a module call with `count` or `for_each`.
#[derive(Clone, Debug, PartialEq)]
pub enum ModuleKey {
    Count(i64),
    Each(String, Value),
}

impl ModuleKey {
    /// `[0]`, `["a"]`.
    pub fn text(&self) -> String {
        match self {
            ModuleKey::Count(i) => format!("[{i}]"),
            ModuleKey::Each(k, _) => format!("[{}]", crate::addrs::go_quote(k)),
        }
    }
}

/// The caller's scope with an expanded call's `count.index` / `each`.
struct RepetitionScope<'s, 'a> {
    parent: &'s ModuleScope<'a>,
    key: &'s ModuleKey,
}

impl Scope for RepetitionScope<'_, '_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        self.lookup_shared(names).map(|(v, n)| (unshare(v), n))
    }

    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        match (names[0], names.get(1).copied(), self.key) {
            ("count", Some("index"), ModuleKey::Count(i)) => Ok((Rc::new(Value::int(*i)), 2)),
            ("each", Some("key"), ModuleKey::Each(k, _)) => Ok((Rc::new(Value::string(k.clone())), 2)),
            ("each", Some("value"), ModuleKey::Each(_, v)) => {
                // It may hold resource values, and the walk's instances carry theirs from
                // before the walk: what reads it stays with its scope (see `Memo`).
                self.parent.memo.changing_read();
                Ok((Rc::new(v.clone()), 2))
            }
            _ => self.parent.lookup_shared(names),
        }
    }
}

/// Where a variable's value was set, for Terraform's messages.
#[derive(Clone)]
enum Origin {
    /// Given through the API, as `-var` gives it.
    Api,
    /// A variables file or a module call argument: the value expression's range.
    At(SourceRange),
}

/// How deep module outputs may refer through other modules before the reference chain is
/// called a cycle (Terraform's graph refuses real cycles before evaluation; this only keeps a
/// cyclic configuration from exhausting the stack).
const MAX_MODULE_DEPTH: usize = 64;

pub struct ModuleScope<'a> {
    module: &'a Module,
    /// Module address in state terms (`""` for the root, `module.a.module.b`).
    address: String,
    inputs: &'a Inputs<'a>,
    given: Given<'a>,
    depth: usize,
    vars: RefCell<HashMap<String, Slot>>,
    locals: RefCell<HashMap<String, Slot>>,
    outputs: RefCell<HashMap<String, Slot>>,
    memo: Rc<Memo>,
    /// This module instance's entry of `memo`.
    pure: Rc<PureValues>,
    /// The `outputs` of this module instance's `override_module`, if it has one: its outputs
    /// are those, and nothing in it is evaluated.
    overridden: Option<&'a Value>,
    pub diagnostics: RefCell<Diagnostics>,
}

fn range_text(r: &SourceRange) -> String {
    format!("{}:{},{}-{}", r.filename, r.start.line, r.start.column, r.end.column)
}

/// Evaluates one configuration expression in `scope`.
pub fn eval_config_expr(scope: &dyn Scope, inputs: &Inputs<'_>, e: &ConfigExpr) -> Result<Value, Box<Diagnostic>> {
    if let Some(tree) = &e.tree {
        return eval_kept(scope, inputs, tree);
    }
    let start = e.range.start;
    if e.range.filename.ends_with(".json") {
        return eval_json_text(scope, inputs, &e.range, &e.source);
    }
    eval_text(scope, inputs, &e.range.filename, &e.source, start)
}

/// An expression of a `.tf.json` file: JSON values, where every string is a template
/// (`"${var.x}"` is var.x itself) and numbers keep their digits. Ranges point at the value.
fn eval_json_text(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    range: &SourceRange,
    text: &str,
) -> Result<Value, Box<Diagnostic>> {
    let j: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Box::new(
            Diagnostic::error("Invalid JSON expression", format!("This value is not valid JSON: {e}."))
                .with_range(range.clone()),
        )
    })?;
    json_value(scope, inputs, range, &j)
}

fn json_value(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    range: &SourceRange,
    j: &serde_json::Value,
) -> Result<Value, Box<Diagnostic>> {
    use serde_json::Value as J;
    Ok(match j {
        J::String(s) => {
            let source = Source::new(&range.filename, s, range.start);
            let t = crate::hcl::parse_template(s)
                .map_err(|e| Box::new(Diagnostic::error(e.summary, e.detail.clone()).with_range(range.clone())))?;
            let ctx = FuncContext {
                planning: inputs.planning,
                files: inputs.files,
                base_dir: inputs.base_dir,
                cwd: inputs.cwd,
            };
            let mut ev = Evaluator::new(scope, inputs.funcs, ctx, &source);
            ev.template_value(&t, &(0..s.len()))?
        }
        J::Array(items) => {
            Value::tuple(items.iter().map(|x| json_value(scope, inputs, range, x)).collect::<Result<_, _>>()?)
        }
        J::Object(m) => Value::object(crate::util::sort::btree_map(
            m.iter()
                .map(|(k, x)| Ok((k.clone(), json_value(scope, inputs, range, x)?)))
                .collect::<Result<Vec<_>, Box<Diagnostic>>>()?,
        )),
        other => from_json(other),
    })
}

/// The `.tfvars` files of the root module, with paths relative to its folder (`root_dir`, `""`
/// for the top): what [`ModuleScope::root`] reads. Only those are copied: a scope is made per
/// plan, apply and test run, and the other files (test files, modules) can be most of the text.
pub fn root_files(files: &BTreeMap<String, String>, root_dir: &str) -> Vec<(String, String)> {
    let prefix = format!("{root_dir}/");
    files
        .iter()
        .filter_map(|(p, t)| {
            let rel = if root_dir.is_empty() { Some(p.as_str()) } else { p.strip_prefix(&prefix) };
            rel.filter(|r| is_tfvars(r)).map(|r| (r.to_string(), t.clone()))
        })
        .collect()
}

/// Evaluates an expression of a syntax tree kept from loading (no parse).
pub fn eval_kept(scope: &dyn Scope, inputs: &Inputs<'_>, tree: &KeptExpr) -> Result<Value, Box<Diagnostic>> {
    let source = Source::file(tree.file().source());
    let ctx =
        FuncContext { planning: inputs.planning, files: inputs.files, base_dir: inputs.base_dir, cwd: inputs.cwd };
    let mut ev = Evaluator::new(scope, inputs.funcs, ctx, &source);
    let r = ev.eval(tree.get());
    r.map_err(|d| with_failed_values(d, &ev, scope, inputs))
}

/// `d` with the values the failed expression read, unless an inner evaluation gave it its own.
/// Only an outermost evaluation takes them (reading them evaluates again: inside another
/// evaluation that could go as deep as the failure did), and not for tfgraph's own limits.
fn with_failed_values(
    mut d: Box<Diagnostic>,
    ev: &Evaluator<'_>,
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
) -> Box<Diagnostic> {
    let limit = matches!(d.summary.as_str(), "Expression too deep" | "Expression result too large");
    if d.values.is_none() && d.snippet.is_none() && !limit && super::limits::frames() == 0 {
        let values =
            ev.failed_text().map(|t| super::snippet_values::expression_values(scope, inputs, t, CausedBy::Other));
        d.values = Some(values.unwrap_or_default());
    }
    d
}

/// Parses and evaluates expression text the loader kept no tree for (`terraform console`
/// input, `.tfvars` values, `.tf.json` type constraints); `start` is where the text starts in
/// `filename`. An error carries the values the failed expression read.
pub fn eval_text(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    filename: &str,
    text: &str,
    start: Pos,
) -> Result<Value, Box<Diagnostic>> {
    eval_text_with(scope, inputs, filename, text, start, true)
}

/// [`eval_text`] without the values (what computes them evaluates this way).
pub fn eval_text_plain(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    filename: &str,
    text: &str,
    start: Pos,
) -> Result<Value, Box<Diagnostic>> {
    eval_text_with(scope, inputs, filename, text, start, false)
}

fn eval_text_with(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    filename: &str,
    text: &str,
    start: Pos,
    values: bool,
) -> Result<Value, Box<Diagnostic>> {
    // A heredoc's closing marker ends with its line: the loader's expression text stops before
    // that newline.
    let owned;
    let text = if text.ends_with('\n') || !text.contains("<<") {
        text
    } else {
        owned = format!("{text}\n");
        owned.as_str()
    };
    let source = Source::new(filename, text, start);
    let expr = crate::hcl::parse_expr(text).map_err(|e| {
        let r = source.range(&e.span);
        Box::new(Diagnostic::error(e.summary, e.detail.clone()).with_range(r))
    })?;
    let ctx =
        FuncContext { planning: inputs.planning, files: inputs.files, base_dir: inputs.base_dir, cwd: inputs.cwd };
    let mut ev = Evaluator::new(scope, inputs.funcs, ctx, &source);
    let r = ev.eval(&expr);
    r.map_err(|d| if values { with_failed_values(d, &ev, scope, inputs) } else { d })
}

impl<'a> ModuleScope<'a> {
    /// The root module's scope; variable problems are in `diagnostics`.
    /// The module this scope evaluates in.
    pub fn module(&self) -> &'a Module {
        self.module
    }

    pub fn root(config: &'a Config, inputs: &'a Inputs<'a>, root_files: &[(String, String)]) -> ModuleScope<'a> {
        let mut given: BTreeMap<String, (Value, Origin)> = BTreeMap::new();
        let mut diags = Diagnostics::new();
        // Precedence, lowest first: terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json)
        // in lexical order, then the API's values (as -var).
        let mut tfvars: Vec<&(String, String)> = root_files.iter().filter(|(p, _)| is_tfvars(p)).collect();
        crate::util::sort::sort_by_key(&mut tfvars, |(p, _)| (tfvars_rank(p), p.clone()));
        for (path, text) in tfvars {
            match read_tfvars(path, text, inputs) {
                Ok(vals) => {
                    for (k, (v, range)) in vals {
                        given.insert(k, (v, Origin::At(range)));
                    }
                }
                Err(d) => diags.push(*d),
            }
        }
        for (k, j) in inputs.variables {
            given.insert(k.clone(), (from_json(j), Origin::Api));
        }
        let scope = ModuleScope::new(&config.root, String::new(), inputs, Given::Root(given), 0, Rc::default());
        scope.diagnostics.borrow_mut().extend(diags);
        scope
    }

    fn new(
        module: &'a Module,
        address: String,
        inputs: &'a Inputs<'a>,
        given: Given<'a>,
        depth: usize,
        memo: Rc<Memo>,
    ) -> ModuleScope<'a> {
        let pure = memo.pure.borrow_mut().entry(address.clone()).or_default().clone();
        let overridden = inputs.overrides.and_then(|o| o.outputs(&address));
        ModuleScope {
            module,
            address,
            inputs,
            given,
            depth,
            vars: RefCell::new(HashMap::new()),
            locals: RefCell::new(HashMap::new()),
            outputs: RefCell::new(HashMap::new()),
            memo,
            pure,
            overridden,
            diagnostics: RefCell::new(Diagnostics::new()),
        }
    }

    /// `path.module`: this module's directory relative to the root module's, as Terraform
    /// gives it (`.` for the root, `modules/net` for a local module call).
    pub fn module_dir(&self) -> String {
        crate::eval::functions::filesystem::relative(self.inputs.base_dir, &self.module.dir)
    }

    /// Evaluates every declared variable (and its validations), so their problems are reported
    /// even when nothing refers to them.
    pub fn check_variables(&self) {
        for var in &self.module.variables {
            let _ = self.var_shared(&var.name);
        }
    }

    /// An input variable's final value: given (or default), converted to its type constraint,
    /// checked for null and validated. Evaluated once.
    pub fn var(&self, name: &str) -> Result<Value, LookupError> {
        self.var_shared(name).map(unshare)
    }

    fn var_shared(&self, name: &str) -> Result<Rc<Value>, LookupError> {
        if let Some(slot) = self.vars.borrow().get(name) {
            return Ok(self.reuse(slot).unwrap_or_else(|| Rc::new(Value::dynamic())));
        }
        if let Some(v) = self.pure.vars.borrow().get(name) {
            return Ok(v.clone());
        }
        let Some(var) = self.module.variables.iter().find(|v| v.name == name) else {
            return Err(LookupError {
                summary: "Reference to undeclared input variable".into(),
                detail: crate::config::static_refs::variable_detail(self.module, name),
                names: 2,
            });
        };
        self.memo.evaluating();
        self.vars.borrow_mut().insert(name.to_string(), Slot::Evaluating);
        let before = self.memo.changing_reads.get();
        let mut diags = Diagnostics::new();
        let value = Rc::new(self.var_value(var, &mut diags).mark(var.sensitive));
        let pure = self.memo.changing_reads.get() == before;
        if pure {
            self.pure.vars.borrow_mut().insert(name.to_string(), value.clone());
        }
        self.vars.borrow_mut().insert(name.to_string(), Slot::Done(value.clone(), pure));
        self.diagnostics.borrow_mut().extend(diags);
        if !self.memo.walked.get() {
            self.check_validations(var);
        }
        Ok(value)
    }

    /// From now on, this tree's values are filled by a walk at their nodes
    /// ([`settle`](Self::settle)); a variable's validations run at its validation node
    /// ([`validate_variable`](Self::validate_variable)).
    pub fn walk_fills(&self) {
        self.memo.walked.set(true);
    }

    /// How many values were evaluated outside their nodes since [`walk_fills`](Self::walk_fills)
    /// (see `Memo::early`).
    pub fn early_reads(&self) -> usize {
        self.memo.early.get()
    }

    /// Errors this scope has reported so far.
    fn error_count(&self) -> usize {
        self.diagnostics.borrow().errors().count()
    }

    /// A value node's evaluation (Terraform's `NodeLocal`, `nodeModuleVariable` /
    /// `NodeRootVariable`, `NodeApplyableOutput` once its preconditions held): `what` `name` of
    /// this module instance evaluated now (what it reads is before it in the graph) and kept
    /// for every scope of the tree, its errors reported here, once (a module variable's
    /// argument's in the caller). `false` when it failed: a local's value is then unknown, as
    /// Terraform sets `cty.DynamicVal`. A variable's validations are its validation node's; an
    /// overridden instance's output is the override's. `None`: not declared.
    pub fn settle(&self, what: Settle, name: &str) -> Option<bool> {
        // Nothing read it before (the walk's order is the graph's): it is evaluated now.
        let errors = (self.error_count(), self.parent_errors());
        let pure = match what {
            Settle::Local => &self.pure.locals,
            Settle::Variable => &self.pure.vars,
            Settle::Output => &self.pure.outputs,
        };
        self.memo.settling.set(true);
        let v = match what {
            Settle::Local => self.local_shared(name).ok(),
            Settle::Variable => self.var_shared(name).ok(),
            Settle::Output => self.output(name).map(Rc::new),
        };
        self.memo.settling.set(false);
        pure.borrow_mut().insert(name.to_string(), v?);
        Some((self.error_count(), self.parent_errors()) == errors)
    }

    /// Errors the calling module's scope has reported (a call argument's are reported there).
    fn parent_errors(&self) -> usize {
        match &self.given {
            Given::Call { parent, .. } => parent.error_count(),
            Given::Root(_) => 0,
        }
    }

    /// Terraform's `nodeVariableValidation.Execute`: variable `name`'s validation rules over
    /// its final value.
    pub fn validate_variable(&self, name: &str) -> Option<Conditions> {
        let var = self.module.variables.iter().find(|v| v.name == name)?;
        let errors = self.error_count();
        let mut found = self.check_validations(var);
        found.ok = self.error_count() == errors;
        Some(found)
    }

    /// Whether this module instance is an `override_module`'s: its outputs are the override's,
    /// and their preconditions are not checked (Terraform's `nodeExpandOutput.getOverrideValue`).
    pub fn overridden(&self) -> bool {
        self.overridden.is_some()
    }

    /// Whether output `name` of this module instance was filled by its node.
    pub fn output_settled(&self, name: &str) -> bool {
        self.pure.outputs.borrow().contains_key(name)
    }

    /// What was given for `var`, and how (for messages).
    fn given(&self, var: &crate::config::model::Variable) -> Option<(Value, Origin)> {
        match &self.given {
            Given::Root(m) => m.get(&var.name).cloned(),
            Given::Call { parent, call, key } => {
                let arg = call.arguments.iter().find(|a| a.name == var.name)?;
                let evaluated = match key {
                    Some(k) => eval_config_expr(&RepetitionScope { parent, key: k }, self.inputs, &arg.expr),
                    None => eval_config_expr(*parent, self.inputs, &arg.expr),
                };
                let v = match evaluated {
                    Ok(v) => v,
                    Err(d) => {
                        parent.diagnostics.borrow_mut().push(*d);
                        Value::dynamic()
                    }
                };
                Some((v, Origin::At(arg.expr.range.clone())))
            }
        }
    }

    fn var_value(&self, var: &crate::config::model::Variable, diags: &mut Diagnostics) -> Value {
        let constraint = match &var.type_expr {
            Some(text) => match parse_constraint(text, var.type_tree.as_ref(), self.inputs) {
                Ok(c) => c,
                Err(msg) => {
                    diags.push(Diagnostic::error("Invalid type specification", msg).with_range(var.range.clone()));
                    Constraint::Type(Type::Dynamic)
                }
            },
            None => Constraint::Type(Type::Dynamic),
        };
        let declared_at = range_text(&var.range);
        match self.given(var) {
            Some((v, origin)) => {
                let address = if self.address.is_empty() {
                    format!("var.{}", var.name)
                } else {
                    format!("{}.var.{}", self.address, var.name)
                };
                // Terraform's wording depends on where the value was set (-var or a file / call).
                let problem = |msg: &str| match &origin {
                    Origin::Api => Diagnostic::error(
                        "Invalid value for input variable",
                        format!("Unsuitable value for {address} set using -var=\"{}=...\": {msg}.", var.name),
                    )
                    .with_range(var.range.clone()),
                    Origin::At(range) => Diagnostic::error(
                        "Invalid value for input variable",
                        format!("The given value is not suitable for {address} declared at {declared_at}: {msg}."),
                    )
                    .with_range(range.clone()),
                };
                if v.is_null() && !var.nullable {
                    if var.default.is_some() {
                        return self.default_value(var, &constraint, diags);
                    }
                    diags.push(problem("required variable may not be set to null"));
                    return Value::dynamic();
                }
                match convert(&constraint.apply_defaults(&v), &constraint.ty()) {
                    Ok(v) => v,
                    Err(msg) => {
                        diags.push(problem(&msg));
                        Value::dynamic()
                    }
                }
            }
            None if var.default.is_some() => self.default_value(var, &constraint, diags),
            None if self.inputs.unset_variables_unknown => Value::unknown(constraint.ty()),
            None => {
                let label = if self.address.is_empty() { "root module input" } else { "input" };
                diags.push(
                    Diagnostic::error(
                        "No value for required variable",
                        format!("The {label} variable {} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", go_quote(&var.name)),
                    )
                    .with_range(var.range.clone()),
                );
                Value::dynamic()
            }
        }
    }

    fn default_value(
        &self,
        var: &crate::config::model::Variable,
        constraint: &Constraint,
        diags: &mut Diagnostics,
    ) -> Value {
        let Some(d) = &var.default else { return Value::null(constraint.ty()) };
        match eval_config_expr(&EmptyScope, self.inputs, d) {
            Ok(v) => match convert(&constraint.apply_defaults(&v), &constraint.ty()) {
                Ok(v) => v,
                Err(msg) => {
                    diags.push(
                        Diagnostic::error(
                            "Invalid default value for variable",
                            format!("This default value is not compatible with the variable's type constraint: {msg}."),
                        )
                        .with_range(d.range.clone()),
                    );
                    Value::dynamic()
                }
            },
            Err(e) => {
                diags.push(*e);
                Value::dynamic()
            }
        }
    }

    fn check_validations(&self, var: &crate::config::model::Variable) -> Conditions {
        let mut found = Conditions::default();
        // Terraform blames the call's argument for a module's variable
        // (`nodeExpandModuleVariable.variableValidationRules`: its expression's range).
        let blamed = match &self.given {
            Given::Call { call, .. } => call.arguments.iter().find(|a| a.name == var.name).map(|a| &a.expr.range),
            Given::Root(_) => None,
        };
        for rule in &var.validations {
            let ok = match eval_config_expr(self, self.inputs, &rule.condition) {
                Ok(v) => v,
                Err(d) => {
                    self.diagnostics.borrow_mut().push(*d);
                    continue;
                }
            };
            found.unknown |= !ok.is_known();
            if ok.as_bool() != Some(false) {
                continue;
            }
            let message = match &rule.error_message {
                Some(m) => match eval_config_expr(self, self.inputs, m) {
                    Ok(v) => v.as_str().unwrap_or("").to_string(),
                    Err(d) => {
                        self.diagnostics.borrow_mut().push(*d);
                        continue;
                    }
                },
                None => String::new(),
            };
            let mut d = Diagnostic::error(
                "Invalid value for variable",
                format!("{message}\n\nThis was checked by the validation rule at {}.", range_text(&rule.range)),
            )
            .with_range(blamed.unwrap_or(&var.range).clone());
            // The snippet shows what the condition read (Terraform's `Expression` of the rule).
            d.values = Some(super::snippet_values::expression_values(
                self,
                self.inputs,
                &rule.condition.source,
                CausedBy::Other,
            ));
            self.diagnostics.borrow_mut().push(d);
            found.failed.push(message);
        }
        found
    }

    /// A value this scope evaluated already (`None` while it is still being evaluated). One
    /// that read what changes, or is mid-evaluation, makes whatever reads it changing too.
    fn reuse(&self, slot: &Slot) -> Option<Rc<Value>> {
        match slot {
            Slot::Done(v, pure) => {
                if !pure {
                    self.memo.changing_read();
                }
                Some(v.clone())
            }
            Slot::Evaluating => {
                self.memo.changing_read();
                None
            }
        }
    }

    /// A local value of this module (evaluated once; a cycle is an error).
    pub fn local(&self, name: &str) -> Result<Value, LookupError> {
        self.local_shared(name).map(unshare)
    }

    fn local_shared(&self, name: &str) -> Result<Rc<Value>, LookupError> {
        if let Some(slot) = self.locals.borrow().get(name) {
            return match self.reuse(slot) {
                Some(v) => Ok(v),
                None => Err(LookupError {
                    summary: "Cycle in local values".into(),
                    detail: format!(
                        "The local value {} refers to itself, directly or through other local values.",
                        go_quote(name)
                    ),
                    names: 2,
                }),
            };
        }
        let Some(decl) = self.module.locals.iter().find(|l| l.name == name) else {
            return Err(LookupError {
                summary: "Reference to undeclared local value".into(),
                detail: crate::config::static_refs::local_detail(self.module, name),
                names: 2,
            });
        };
        if let Some(v) = self.pure.locals.borrow().get(name) {
            return Ok(v.clone());
        }
        self.memo.evaluating();
        self.locals.borrow_mut().insert(name.to_string(), Slot::Evaluating);
        let before = self.memo.changing_reads.get();
        let v = Rc::new(match eval_config_expr(self, self.inputs, &decl.expr) {
            Ok(v) => v,
            Err(d) => {
                self.diagnostics.borrow_mut().push(*d);
                Value::dynamic()
            }
        });
        let pure = self.memo.changing_reads.get() == before;
        if pure {
            self.pure.locals.borrow_mut().insert(name.to_string(), v.clone());
        }
        self.locals.borrow_mut().insert(name.to_string(), Slot::Done(v.clone(), pure));
        Ok(v)
    }

    /// Evaluates this module's output `name` (for `module.X.name` in the parent, or the API).
    pub fn output(&self, name: &str) -> Option<Value> {
        if let Some(Slot::Done(v, _)) = self.outputs.borrow().get(name) {
            return Some((**v).clone());
        }
        if let Some(v) = self.pure.outputs.borrow().get(name) {
            return Some((**v).clone());
        }
        let decl = self.module.outputs.iter().find(|o| o.name == name)?;
        if let Some(outputs) = self.overridden {
            // Terraform's `nodeExpandOutput.getOverrideValue`: no expression, no preconditions.
            return Some(super::module_overrides::ModuleOverrides::output(outputs, name).mark(decl.sensitive));
        }
        self.memo.evaluating();
        self.outputs.borrow_mut().insert(name.to_string(), Slot::Evaluating);
        let v = match eval_config_expr(self, self.inputs, &decl.value) {
            Ok(v) => v.mark(decl.sensitive),
            Err(d) => {
                self.diagnostics.borrow_mut().push(*d);
                Value::dynamic()
            }
        };
        self.outputs.borrow_mut().insert(name.to_string(), Slot::Done(Rc::new(v.clone()), false));
        Some(v)
    }

    /// A child module's scope: its variables are the call's arguments, evaluated here.
    /// The scope of module call `call_name` of this module (`None` when it is expanded with
    /// count/for_each or not loaded).
    pub fn child_scope<'b>(&'b self, call_name: &str) -> Result<Option<ModuleScope<'b>>, LookupError>
    where
        'a: 'b,
    {
        self.child(call_name)
    }

    fn child<'b>(&'b self, call_name: &str) -> Result<Option<ModuleScope<'b>>, LookupError>
    where
        'a: 'b,
    {
        let Some(call) = self.module.module_calls.iter().find(|c| c.name == call_name) else {
            let in_module = if self.address.is_empty() { "the root module".to_string() } else { self.address.clone() };
            return Err(LookupError {
                summary: "Reference to undeclared module".into(),
                detail: format!("No module call named {} is declared in {in_module}.", go_quote(call_name)),
                names: 3,
            });
        };
        // Expanded module calls and modules that are not loaded are not known here.
        if call.count.is_some() || call.for_each.is_some() {
            return Ok(None);
        }
        let Some(child) = call.module.as_deref() else { return Ok(None) };
        if self.depth >= MAX_MODULE_DEPTH {
            return Err(LookupError {
                summary: "Module references too deep".into(),
                detail: format!("Evaluating module.{call_name} goes through more than {MAX_MODULE_DEPTH} module outputs and inputs: the modules refer to each other in a cycle."),
                names: 2,
            });
        }
        let address = if self.address.is_empty() {
            format!("module.{call_name}")
        } else {
            format!("{}.module.{call_name}", self.address)
        };
        Ok(Some(ModuleScope::new(
            child,
            address,
            self.inputs,
            Given::Call { parent: self, call, key: None },
            self.depth + 1,
            self.memo.clone(),
        )))
    }

    /// What this scope evaluates with.
    pub fn inputs(&self) -> &'a Inputs<'a> {
        self.inputs
    }

    /// The instances of module call `call_name` when it has `count` or `for_each`; when they
    /// make none at plan, Terraform's error for it (the expression's own error, a value that is
    /// unsuitable or not known), with the expression's source and what caused it when its
    /// snippet names the values read; `Err(None)` when the call is not expanded.
    pub fn module_keys(&self, call_name: &str) -> Result<Vec<ModuleKey>, Option<Box<ExpansionError>>> {
        use super::repetition as rep;
        let call = self.module.module_calls.iter().find(|c| c.name == call_name).ok_or(None)?;
        let e = call.count.as_ref().or(call.for_each.as_ref()).ok_or(None)?;
        let v = eval_config_expr(self, self.inputs, e).map_err(|d| Some(Box::new((*d, None))))?;
        let failed = |d: Diagnostic, caused_by: Option<CausedBy>| {
            Some(Box::new((d.with_range(e.range.clone()), caused_by.map(|c| (e.source.clone(), c)))))
        };
        if call.count.is_some() {
            return match rep::count(&v) {
                // Past limits.moduleInstances the plan stops it (issue #26): never more keys than that.
                Ok(n) => Ok((0..n.min(super::limits::module_count_cap())).map(ModuleKey::Count).collect()),
                Err(err) => {
                    // Only HCL's conversion error carries the expression.
                    let caused_by = matches!(err, rep::CountError::Type(_)).then_some(CausedBy::Other);
                    Err(failed(rep::count_error(&err).unwrap_or_else(rep::count_unknown), caused_by))
                }
            };
        }
        match rep::for_each(&v) {
            Ok(items) => Ok(items.into_iter().map(|(k, x)| ModuleKey::Each(k, x)).collect()),
            Err(err) => Err(failed(rep::for_each_error(&err, &v), Some(err.caused_by()))),
        }
    }

    /// The scope of one instance of an expanded module call.
    pub fn child_instance<'b>(&'b self, call_name: &str, key: ModuleKey) -> Option<ModuleScope<'b>>
    where
        'a: 'b,
    {
        let call = self.module.module_calls.iter().find(|c| c.name == call_name)?;
        let child = call.module.as_deref()?;
        if self.depth >= MAX_MODULE_DEPTH {
            return None;
        }
        let base = if self.address.is_empty() {
            format!("module.{call_name}")
        } else {
            format!("{}.module.{call_name}", self.address)
        };
        let address = format!("{base}{}", key.text());
        Some(ModuleScope::new(
            child,
            address,
            self.inputs,
            Given::Call { parent: self, call, key: Some(key) },
            self.depth + 1,
            self.memo.clone(),
        ))
    }

    /// An expanded call's value: its instances' outputs, a tuple for `count`, an object for
    /// `for_each` (unknown while the instances are).
    fn expanded_module_value(&self, call_name: &str) -> Value {
        let Some(call) = self.module.module_calls.iter().find(|c| c.name == call_name) else { return Value::dynamic() };
        let Ok(keys) = self.module_keys(call_name) else { return Value::dynamic() };
        let mut items = Vec::new();
        for k in keys {
            let Some(child) = self.child_instance(call_name, k.clone()) else { return Value::dynamic() };
            let outs: BTreeMap<String, Value> = crate::util::sort::btree_map(
                child
                    .module
                    .outputs
                    .iter()
                    .map(|o| (o.name.clone(), child.output(&o.name).unwrap_or_else(Value::dynamic))),
            );
            let d = std::mem::take(&mut *child.diagnostics.borrow_mut());
            self.diagnostics.borrow_mut().extend(d);
            items.push((k, Value::object(outs)));
        }
        if call.count.is_some() {
            Value::tuple(items.into_iter().map(|(_, v)| v).collect())
        } else {
            Value::object(crate::util::sort::btree_map(
                items.into_iter().map(|(k, v)| (if let ModuleKey::Each(s, _) = k { s } else { String::new() }, v)),
            ))
        }
    }

    fn resource(&self, mode: &str, type_name: &str, name: &str) -> Result<Rc<Value>, LookupError> {
        let declared = self.module.resources.iter().any(|r| {
            let is_data = matches!(r.mode, crate::addrs::ResourceMode::Data);
            r.type_name == type_name && r.name == name && (mode == "data") == is_data
        });
        if !declared {
            let what = if mode == "data" { "data resource" } else { "managed resource" };
            let in_module = if self.address.is_empty() { "the root module".to_string() } else { self.address.clone() };
            return Err(LookupError {
                summary: "Reference to undeclared resource".into(),
                detail: format!(
                    "A {what} {} {} has not been declared in {in_module}.",
                    go_quote(type_name),
                    go_quote(name)
                ),
                names: if mode == "data" { 3 } else { 2 },
            });
        }
        self.memo.changing_read();
        if let Some(v) = self.inputs.resources.and_then(|r| r.resource(&self.address, mode, type_name, name)) {
            return Ok(v);
        }
        Ok(Rc::new(
            self.inputs
                .state
                .and_then(|s| super::json::resource_from_state(s, &self.address, mode, type_name, name))
                .unwrap_or_else(Value::dynamic),
        ))
    }
}

impl Scope for ModuleScope<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        self.lookup_shared(names).map(|(v, n)| (unshare(v), n))
    }

    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        let root = names[0];
        let second = names.get(1).copied();
        let direct = LookupError::whole_object;
        match root {
            "var" => {
                let Some(n) = second else { return Err(direct("var")) };
                self.var_shared(n).map(|v| (v, 2))
            }
            "local" => {
                let Some(n) = second else { return Err(direct("local")) };
                self.local_shared(n).map(|v| (v, 2))
            }
            "module" => {
                let Some(n) = second else { return Err(direct("module")) };
                // Outputs read resources, and stay with their scope (see `Memo`).
                self.memo.changing_read();
                let expanded = self.module.module_calls.iter().any(|c| c.name == n && (c.count.is_some() || c.for_each.is_some()));
                if expanded && self.inputs.resources.is_some() {
                    return Ok((Rc::new(self.expanded_module_value(n)), 2));
                }
                let Some(child) = self.child(n)? else { return Ok((Rc::new(Value::dynamic()), 2)) };
                // One output when the reference names it (Terraform evaluates outputs one by
                // one, so two modules may feed each other different outputs), else all of them.
                let (value, used) = match names.get(2) {
                    Some(out) if child.module.outputs.iter().any(|o| o.name == *out) => (child.output(out).unwrap_or_else(Value::dynamic), 3),
                    _ => {
                        let all: BTreeMap<String, Value> = crate::util::sort::btree_map(
                            child.module.outputs.iter().map(|o| (o.name.clone(), child.output(&o.name).unwrap_or_else(Value::dynamic))),
                        );
                        (Value::object(all), 2)
                    }
                };
                let child_diags = std::mem::take(&mut *child.diagnostics.borrow_mut());
                self.diagnostics.borrow_mut().extend(child_diags);
                Ok((Rc::new(value), used))
            }
            "path" => {
                let Some(n) = second else { return Err(direct("path")) };
                let v = match n {
                    "module" => self.module_dir(),
                    "root" => ".".to_string(),
                    // Terraform's is the absolute working directory; "." when none was given.
                    "cwd" => self.inputs.cwd.unwrap_or(".").to_string(),
                    other => {
                        return Err(LookupError {
                            summary: "Invalid \"path\" attribute".into(),
                            detail: format!("The \"path\" object does not have an attribute named {}.", go_quote(other)),
                            names: 2,
                        })
                    }
                };
                Ok((Rc::new(Value::string(v)), 2))
            }
            "terraform" => match second {
                Some("workspace") => Ok((Rc::new(Value::string("default")), 2)),
                Some("applying") => Ok((Rc::new(Value::bool(false)), 2)),
                Some(other) => Err(LookupError {
                    summary: "Invalid \"terraform\" attribute".into(),
                    detail: format!("The \"terraform\" object does not have an attribute named {}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply.", go_quote(other)),
                    names: 2,
                }),
                None => Err(direct("terraform")),
            },
            "count" => Err(LookupError {
                summary: "Reference to \"count\" in non-counted context".into(),
                detail: "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.".into(),
                names: 2,
            }),
            "each" => Err(LookupError {
                summary: "Reference to \"each\" in context without for_each".into(),
                detail: "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.".into(),
                names: 2,
            }),
            "self" => Err(LookupError {
                summary: "Invalid \"self\" reference".into(),
                detail: "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.".into(),
                names: 1,
            }),
            // `resource.TYPE.NAME` names a managed resource explicitly (as `data.` does data).
            "resource" if names.len() >= 3 => self.resource("managed", names[1], names[2]).map(|v| (v, 3)),
            "data" => match (second, names.get(2)) {
                (Some(t), Some(n)) => self.resource("data", t, n).map(|v| (v, 3)),
                _ => Err(LookupError {
                    summary: "Invalid reference".into(),
                    detail: "The \"data\" object must be followed by two attribute names: the data source type and the resource name.".into(),
                    names: 1,
                }),
            },
            type_name => match second {
                Some(n) => self.resource("managed", type_name, n).map(|v| (v, 2)),
                None => Err(LookupError {
                    summary: "Invalid reference".into(),
                    detail: "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".into(),
                    names: 1,
                }),
            },
        }
    }
}

/// A variable's type constraint: from the tree the loader kept, else (`.tf.json`) its text.
pub fn parse_constraint(text: &str, tree: Option<&KeptExpr>, inputs: &Inputs<'_>) -> Result<Constraint, String> {
    if let Some(tree) = tree {
        let source = Source::file(tree.file().source());
        let mut default = |d: &crate::hcl::ast::Expr<'_>| -> Result<Value, String> {
            let ctx = FuncContext {
                planning: inputs.planning,
                files: inputs.files,
                base_dir: inputs.base_dir,
                cwd: inputs.cwd,
            };
            Evaluator::new(&EmptyScope, inputs.funcs, ctx, &source).eval(d).map_err(|d| d.detail.clone())
        };
        return typeexpr::parse(tree.get(), &mut default);
    }
    let e = crate::hcl::parse_expr(text).map_err(|e| e.detail)?;
    let mut default = |d: &crate::hcl::ast::Expr<'_>| -> Result<Value, String> {
        let t = &text[d.span.clone()];
        eval_text(&EmptyScope, inputs, "<type>", t, Pos { line: 1, column: 1, byte: 0 }).map_err(|d| d.detail.clone())
    };
    typeexpr::parse(&e, &mut default)
}

fn is_tfvars(path: &str) -> bool {
    !path.contains('/')
        && (path == "terraform.tfvars"
            || path == "terraform.tfvars.json"
            || path.ends_with(".auto.tfvars")
            || path.ends_with(".auto.tfvars.json"))
}

fn tfvars_rank(path: &str) -> u8 {
    match path {
        "terraform.tfvars" => 0,
        "terraform.tfvars.json" => 1,
        _ => 2,
    }
}

/// The values of a `.tfvars` (native syntax, constant expressions) or `.tfvars.json` file.
fn read_tfvars(
    path: &str,
    text: &str,
    inputs: &Inputs<'_>,
) -> Result<BTreeMap<String, (Value, SourceRange)>, Box<Diagnostic>> {
    let mut out = BTreeMap::new();
    if path.ends_with(".json") {
        let j: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Box::new(Diagnostic::error(
                "Invalid JSON in variables file",
                format!("The file {} is not valid JSON: {e}.", go_quote(path)),
            ))
        })?;
        let serde_json::Value::Object(m) = j else {
            return Err(Box::new(Diagnostic::error(
                "Invalid variables file",
                format!("The root value in {} must be an object.", go_quote(path)),
            )));
        };
        for (k, v) in m {
            let whole = crate::diag::SourceFile::new(path, text).range(0..text.len());
            out.insert(k, (from_json(&v), whole));
        }
        return Ok(out);
    }
    let parsed = crate::hcl::parse_body(text);
    if let Some(e) = parsed.errors.first() {
        let src = crate::diag::SourceFile::new(path, text);
        return Err(Box::new(Diagnostic::error(e.summary, e.detail.clone()).with_range(src.range(e.span.clone()))));
    }
    let body = parsed.body;
    let src = crate::diag::SourceFile::new(path, text);
    for item in &body.items {
        if let crate::hcl::ast::Item::Attr(a) = item {
            let start = src.pos(a.expr.span.start);
            let v = eval_text(&EmptyScope, inputs, path, &text[a.expr.span.clone()], start)?;
            out.insert(a.name.name.to_string(), (v, src.range(a.expr.span.clone())));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::functions::NoFilesystem;
    use crate::eval::scope::ResourceSource;

    /// Resource values by `type.name`, changed by the test between scopes (as a walk does).
    #[derive(Default)]
    struct Values(RefCell<HashMap<String, Value>>);

    impl ResourceSource for Values {
        fn resource(&self, _module: &str, _mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
            Some(Rc::new(self.0.borrow().get(&format!("{type_name}.{name}")).cloned().unwrap_or_else(Value::dynamic)))
        }
    }

    const MODULE: &str = r#"
variable "x" {
  default = "a"
}
locals {
  pure = "${var.x}-1"
  read = "${mock_resource.r.name}-${local.pure}"
  bad  = tonumber("x")
}
resource "mock_resource" "r" {
  name = "n"
}
"#;

    /// Two scopes of one module instance, as the engine makes one per resource it walks:
    /// what reads no resource is evaluated once (its errors reported once, as Terraform
    /// evaluates a local once per instance); what reads one sees the resource as it is now.
    #[test]
    fn a_module_instance_shares_what_reads_no_resource() {
        let files: BTreeMap<String, String> = crate::util::sort::btree_map([
            ("main.tf".to_string(), "module \"m\" {\n  source = \"./m\"\n}\nmodule \"e\" {\n  source   = \"./m\"\n  for_each = { a = 1 }\n  x        = each.value\n}\n".to_string()),
            ("m/main.tf".to_string(), MODULE.to_string()),
        ]);
        let loaded = crate::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        let values = Values::default();
        let funcs = Registry::builtin();
        let variables = BTreeMap::new();
        let inputs =
            Inputs { planning: true, resources: Some(&values), ..Inputs::new(&variables, &NoFilesystem, &funcs) };
        let root = ModuleScope::root(&loaded.config, &inputs, &[]);

        let first = root.child_scope("m").unwrap().unwrap();
        assert_eq!(first.local("pure").unwrap(), Value::string("a-1"));
        assert!(!first.local("read").unwrap().is_known());
        assert_eq!(first.local("bad").unwrap(), Value::dynamic());
        assert_eq!(first.diagnostics.borrow().errors().count(), 1);

        values.0.borrow_mut().insert(
            "mock_resource.r".into(),
            Value::object(crate::util::sort::btree_map([("name".to_string(), Value::string("n"))])),
        );
        let second = root.child_scope("m").unwrap().unwrap();
        assert_eq!(second.local("read").unwrap(), Value::string("n-a-1"));
        assert_eq!(second.local("bad").unwrap(), Value::dynamic());
        assert_eq!(second.diagnostics.borrow().errors().count(), 0);
        // The same scope keeps what it read, as it always did.
        assert!(!first.local("read").unwrap().is_known());

        // `each.value` is the instance's as its scope was given it (the walk's instances carry
        // values from before the walk, a later reader's are current): not shared.
        let each = |v: &str| root.child_instance("e", ModuleKey::Each("a".into(), Value::string(v))).unwrap();
        assert_eq!(each("one").local("pure").unwrap(), Value::string("one-1"));
        assert_eq!(each("two").local("pure").unwrap(), Value::string("two-1"));
    }

    /// A walk's value nodes: each value evaluated once at its node, its error reported there
    /// (once), what reads it afterwards finding it without evaluating, and a module
    /// variable's validation left to its own node.
    #[test]
    fn a_walk_fills_values_at_their_nodes() {
        let files: BTreeMap<String, String> = crate::util::sort::btree_map([
            ("main.tf".to_string(), "module \"m\" {\n  source = \"./m\"\n  x      = \"big\"\n}\n".to_string()),
            ("m/main.tf".to_string(), "variable \"x\" {\n  validation {\n    condition     = var.x == \"a\"\n    error_message = \"Not a.\"\n  }\n}\nlocals {\n  bad  = tonumber(var.x)\n  read = \"${local.bad}-${var.x}\"\n}\n".to_string()),
        ]);
        let loaded = crate::load(&files, &Default::default());
        let funcs = Registry::builtin();
        let variables = BTreeMap::new();
        let inputs = Inputs { planning: true, ..Inputs::new(&variables, &NoFilesystem, &funcs) };
        let root = ModuleScope::root(&loaded.config, &inputs, &[]);
        root.walk_fills();
        let child = root.child_scope("m").unwrap().unwrap();
        assert_eq!(child.settle(Settle::Variable, "x"), Some(true));
        // The value is the call's, unvalidated until the validation node runs.
        assert_eq!(child.diagnostics.borrow().errors().count(), 0);
        let checked = child.validate_variable("x").unwrap();
        assert!(!checked.ok);
        assert_eq!(checked.failed, ["Not a."]);
        let range = child.diagnostics.borrow().errors().last().and_then(|d| d.range.clone()).unwrap();
        assert_eq!((range.filename.as_str(), range.start.line), ("main.tf", 3), "the call's argument is blamed");
        assert_eq!(child.settle(Settle::Local, "bad"), Some(false));
        assert_eq!(child.settle(Settle::Local, "read"), Some(true));
        let errors = child.diagnostics.borrow().errors().count();
        // Another scope of the same instance (the engine makes one per reader) reads them filled.
        let again = root.child_scope("m").unwrap().unwrap();
        assert!(!again.local("read").unwrap().is_known());
        assert_eq!(again.var("x").unwrap(), Value::string("big"));
        assert_eq!(again.diagnostics.borrow().errors().count() + child.diagnostics.borrow().errors().count(), errors);
        assert_eq!(root.early_reads(), 0);
        // A read of what no node filled is early (the plan asserts there is none).
        let fresh = ModuleScope::root(&loaded.config, &inputs, &[]);
        fresh.walk_fills();
        let _ = fresh.child_scope("m").unwrap().unwrap().local("read");
        assert!(fresh.early_reads() > 0);
        assert_eq!(child.settle(Settle::Local, "undeclared"), None);
    }
}
