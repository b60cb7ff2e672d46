//! A test file (`*.tftest.hcl`) read into a model, with the diagnostics Terraform's loader
//! gives a malformed one (`configs/test_file.go`): unknown blocks and arguments, a `command`
//! that is not `plan` or `apply`, duplicate run names, repeated `variables` / `plan_options` /
//! `module` blocks, a `module` without `source`, a non-local module source.
//!
//! Expressions are kept as their source text and where it starts, and parsed again when a run
//! evaluates them (the tree borrows from the text).

use crate::diag::{Diagnostic, Diagnostics, Pos, SourceFile, SourceRange};
use crate::hcl::ast::{Attribute, Block, Expr, ExprKind, Item, Op};

/// An expression of a test file: its text, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprText {
    pub text: String,
    pub range: SourceRange,
}

impl ExprText {
    /// Where the text starts (for evaluation's ranges).
    pub fn start(&self) -> Pos {
        self.range.start
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Plan,
    Apply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlanMode {
    #[default]
    Normal,
    RefreshOnly,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanOptions {
    pub mode: PlanMode,
    pub refresh: bool,
    pub replace: Vec<String>,
    pub target: Vec<String>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions { mode: PlanMode::Normal, refresh: true, replace: Vec::new(), target: Vec::new() }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Assertion {
    pub condition: ExprText,
    pub error_message: Option<ExprText>,
}

/// An `expect_failures` entry: the referenced object's address (`var.size`, `output.x`,
/// `mock_resource.a`, `check.small`) and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub address: String,
    pub range: SourceRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub name: String,
    /// The block's `run "name"` header.
    pub decl_range: SourceRange,
    pub command: Command,
    pub variables: Vec<(String, ExprText)>,
    pub asserts: Vec<Assertion>,
    pub expect_failures: Vec<Expected>,
    pub plan_options: PlanOptions,
    /// `module { source }`: a local directory relative to the root module.
    pub module_source: Option<String>,
    /// The `module` block's header.
    pub module_range: Option<SourceRange>,
    pub state_key: Option<String>,
    pub overrides: Vec<OverrideBlock>,
    /// `providers = { mock = mock.fake }`: the module's configuration (`name` or
    /// `name.alias`), and the test file's provider or mock provider given for it.
    pub providers: Option<Vec<(String, String)>>,
}

impl Run {
    /// The state this run works on: its `state_key`, else its module's source (the module
    /// under test's is the empty key).
    pub fn state_key(&self) -> String {
        match (&self.state_key, &self.module_source) {
            (Some(k), _) => k.clone(),
            (None, Some(s)) => s.clone(),
            (None, None) => String::new(),
        }
    }
}

/// What an `override_*` block replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverrideKind {
    Resource,
    Data,
    Module,
}

impl OverrideKind {
    pub fn block(self) -> &'static str {
        match self {
            OverrideKind::Resource => "override_resource",
            OverrideKind::Data => "override_data",
            OverrideKind::Module => "override_module",
        }
    }
}

/// An `override_resource` / `override_data` / `override_module` block.
#[derive(Clone, Debug, PartialEq)]
pub struct OverrideBlock {
    pub kind: OverrideKind,
    /// The target's address text (`mock_resource.c[0]`, `data.mock_data.d`, `module.child`).
    pub target: String,
    /// The `target = ...` argument.
    pub target_range: SourceRange,
    /// `values` (`outputs` for a module), with the argument's whole range.
    pub values: Option<(ExprText, SourceRange)>,
    /// `override_during`: `Some(true)` for `plan`.
    pub during_plan: Option<bool>,
    pub decl_range: SourceRange,
}

/// A `mock_resource` / `mock_data` block of a `mock_provider`.
#[derive(Clone, Debug, PartialEq)]
pub struct MockDefaults {
    pub type_name: String,
    /// `defaults`, with the argument's whole range (the error messages cite it).
    pub defaults: Option<(ExprText, SourceRange)>,
    pub during_plan: Option<bool>,
}

/// A `mock_provider` block.
#[derive(Clone, Debug, PartialEq)]
pub struct MockProvider {
    pub name: String,
    pub alias: Option<String>,
    /// `source`: a directory of `.tfmock.hcl` files.
    pub source: Option<String>,
    pub during_plan: Option<bool>,
    pub resources: Vec<MockDefaults>,
    pub data_sources: Vec<MockDefaults>,
    pub overrides: Vec<OverrideBlock>,
    pub decl_range: SourceRange,
}

/// A `variable` block of a test file (Terraform 1.13.0, hashicorp/terraform#37195): a
/// variable whose value comes from the command line or tfvars, else its default.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableBlock {
    pub name: String,
    pub type_text: Option<String>,
    pub default: Option<ExprText>,
    pub nullable: bool,
    pub decl_range: SourceRange,
}

/// A block the runner does not execute yet (`mock_provider`, `override_*`, `provider`):
/// kept so that using one is reported rather than silently ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct Unsupported {
    pub kind: String,
    pub range: SourceRange,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct TestFile {
    pub path: String,
    pub variables: Vec<(String, ExprText)>,
    pub runs: Vec<Run>,
    pub mock_providers: Vec<MockProvider>,
    pub overrides: Vec<OverrideBlock>,
    /// `variable` blocks (Terraform 1.13+): values the test file takes from outside.
    pub variable_blocks: Vec<VariableBlock>,
    /// `provider` blocks: name and alias (they configure the provider for the runs; the
    /// built-in mocks read no provider configuration).
    pub providers: Vec<(String, Option<String>)>,
    pub unsupported: Vec<Unsupported>,
}

/// Where a span of the text read lies in the file shown: the identity for a `.tftest.hcl`
/// file; for a `.tftest.json` file, the native text made from it ([`super::json_file`]) maps
/// back to the JSON.
pub type SpanMap<'m> = &'m dyn Fn(std::ops::Range<usize>) -> std::ops::Range<usize>;

/// Reads one `.tftest.hcl` file: the model (what could be read) and the diagnostics.
pub fn parse(path: &str, text: &str) -> (TestFile, Diagnostics) {
    parse_mapped(path, text, text, &|r| r)
}

/// Reads native test-file `text`, its ranges those of `shown` (the file's own text) through
/// `map`.
pub fn parse_mapped(path: &str, text: &str, shown: &str, map: SpanMap<'_>) -> (TestFile, Diagnostics) {
    let src = SourceFile::new(path, shown);
    let parsed = crate::hcl::parse_body(text);
    let mut diags = Diagnostics::new();
    for e in &parsed.errors {
        let detail = e.detail_with(|r| {
            let rr = src.range(map(r));
            format!("{}:{},{}-{}", path, rr.start.line, rr.start.column, rr.end.column)
        });
        diags.push(Diagnostic::error(e.summary, detail).with_range(src.range(map(e.span.clone()))));
    }
    let mut p = Reader { src: &src, text, diags, map };
    let mut file = TestFile { path: path.to_string(), ..Default::default() };
    let mut variables_at: Option<SourceRange> = None;
    let mut test_at: Option<SourceRange> = None;
    // HCL reports what the schema does not know before anything is decoded.
    const FILE_BLOCKS: &[&str] = &[
        "run",
        "variables",
        "test",
        "provider",
        "mock_provider",
        "override_resource",
        "override_data",
        "override_module",
        "variable",
    ];
    for item in &parsed.body.items {
        match item {
            Item::Attr(a) => p.unsupported_argument(a),
            Item::Block(b) if !FILE_BLOCKS.contains(&b.kind.name) => p.unsupported_block(b.kind.name, b),
            Item::Block(_) => {}
        }
    }
    for item in &parsed.body.items {
        match item {
            Item::Attr(_) => {}
            Item::Block(b) => match b.kind.name {
                "run" => {
                    if let Some(run) = p.run(b) {
                        if let Some(first) = file.runs.iter().find(|r| r.name == run.name) {
                            let at = range_text(&first.decl_range);
                            p.diags.push(
                                Diagnostic::error(
                                    "Duplicate \"run\" block names",
                                    format!(
                                        "This test file already has a run named {} block defined at {at}.",
                                        run.name
                                    ),
                                )
                                .with_range(run.decl_range.clone()),
                            );
                            continue;
                        }
                        file.runs.push(run);
                    }
                }
                "variables" => {
                    let here = p.def_range(b);
                    if let Some(first) = &variables_at {
                        p.diags.push(
                            Diagnostic::error(
                                "Multiple \"variables\" blocks",
                                format!(
                                    "This test file already has a variables block defined at {}.",
                                    range_text(first)
                                ),
                            )
                            .with_range(here),
                        );
                        continue;
                    }
                    variables_at = Some(here);
                    file.variables = p.variables(b);
                }
                "test" => {
                    let here = p.def_range(b);
                    if let Some(first) = &test_at {
                        p.diags.push(
                            Diagnostic::error(
                                "Multiple \"test\" blocks",
                                format!(
                                    "This test file already has a \"test\" block defined at {}.",
                                    range_text(first)
                                ),
                            )
                            .with_range(here),
                        );
                    }
                    test_at = Some(p.def_range(b));
                }
                "mock_provider" => {
                    if let Some(m) = p.mock_provider(b) {
                        file.mock_providers.push(m);
                    }
                }
                "override_resource" | "override_data" | "override_module" => {
                    if let Some(o) = p.override_block(b) {
                        p.push_override(&mut file.overrides, o);
                    }
                }
                "provider" => {
                    let name = b.labels.first().map(|l| l.value.to_string()).unwrap_or_default();
                    let alias = b.body.items.iter().find_map(|i| match i {
                        Item::Attr(a) if a.name.name == "alias" => string_literal(&a.expr),
                        _ => None,
                    });
                    file.providers.push((name, alias));
                }
                "variable" => {
                    if let Some(v) = p.variable(b) {
                        let earlier =
                            file.variable_blocks.iter().find(|x| x.name == v.name).map(|x| x.decl_range.clone());
                        let block = file.variables.iter().find(|x| x.0 == v.name).map(|x| x.1.range.clone());
                        match earlier.or(block) {
                            Some(at) => p.diags.push(
                                Diagnostic::error(
                                    "Duplicate \"variable\" block names",
                                    format!(
                                        "This test file already has a variable named {} defined at {}.",
                                        v.name,
                                        range_text(&at)
                                    ),
                                )
                                .with_range(v.decl_range.clone()),
                            ),
                            None => file.variable_blocks.push(v),
                        }
                    }
                }
                _ => {}
            },
        }
    }
    (file, p.diags)
}

/// Reads a `.tfmock.hcl` file into `m` (its `mock_resource`, `mock_data` and `override_*`
/// blocks), with the diagnostics of a malformed one.
pub fn parse_mock_file(path: &str, text: &str, m: &mut MockProvider) -> Diagnostics {
    parse_mock_mapped(path, text, text, &|r| r, m)
}

/// [`parse_mock_file`] of native `text` standing for the file `shown` (a `.tfmock.json`
/// file rewritten), `map` taking each span of `text` to `shown`.
pub fn parse_mock_mapped(path: &str, text: &str, shown: &str, map: SpanMap<'_>, m: &mut MockProvider) -> Diagnostics {
    let src = SourceFile::new(path, shown);
    let parsed = crate::hcl::parse_body(text);
    let mut diags = Diagnostics::new();
    for e in &parsed.errors {
        diags.push(
            Diagnostic::error(e.summary, e.detail_with(|_| String::new())).with_range(src.range(map(e.span.clone()))),
        );
    }
    let mut p = Reader { src: &src, text, diags, map };
    p.mock_body(&parsed.body.items, m, false);
    p.diags
}

/// `file:line,col-col` as HCL prints a range inside a message.
pub fn range_text(r: &SourceRange) -> String {
    if r.start.line == r.end.line {
        format!("{}:{},{}-{}", r.filename, r.start.line, r.start.column, r.end.column)
    } else {
        format!("{}:{},{}-{},{}", r.filename, r.start.line, r.start.column, r.end.line, r.end.column)
    }
}

struct Reader<'a> {
    src: &'a SourceFile,
    text: &'a str,
    diags: Diagnostics,
    map: SpanMap<'a>,
}

impl Reader<'_> {
    fn range(&self, span: &std::ops::Range<usize>) -> SourceRange {
        self.src.range((self.map)(span.clone()))
    }

    /// HCL's `DefRange`: from the block type to the end of its last label.
    fn def_range(&self, b: &Block<'_>) -> SourceRange {
        let end = b.labels.last().map(|l| l.span.end).unwrap_or(b.kind.span.end);
        self.range(&(b.kind.span.start..end))
    }

    fn expr(&self, e: &Expr<'_>) -> ExprText {
        ExprText { text: self.text[e.span.clone()].to_string(), range: self.range(&e.span) }
    }

    fn unsupported_argument(&mut self, a: &Attribute<'_>) {
        let d = match self.reading_json() {
            true => self.extraneous_property(a.name.name),
            false => Diagnostic::error(
                "Unsupported argument",
                format!("An argument named \"{}\" is not expected here.", a.name.name),
            ),
        };
        self.diags.push(d.with_range(self.range(&a.name.span)));
    }

    fn unsupported_block(&mut self, kind: &str, b: &Block<'_>) {
        let d = match self.reading_json() {
            true => self.extraneous_property(kind),
            false => {
                Diagnostic::error("Unsupported block type", format!("Blocks of type \"{kind}\" are not expected here."))
            }
        };
        self.diags.push(d.with_range(self.range(&b.kind.span)));
    }

    /// Whether the text read was rewritten from a JSON file (`.tftest.json`, `.tfmock.json`).
    fn reading_json(&self) -> bool {
        self.src.name.ends_with(".json")
    }

    /// HCL's JSON syntax has no arguments or blocks apart: a name the schema lacks is a property.
    fn extraneous_property(&self, name: &str) -> Diagnostic {
        Diagnostic::error("Extraneous JSON object property", format!("No argument or block type is named \"{name}\"."))
    }

    /// A block's arguments, each once.
    fn variables(&mut self, b: &Block<'_>) -> Vec<(String, ExprText)> {
        let mut out = Vec::new();
        for item in &b.body.items {
            match item {
                Item::Attr(a) => out.push((a.name.name.to_string(), self.expr(&a.expr))),
                Item::Block(inner) => self.unsupported_block(inner.kind.name, inner),
            }
        }
        out
    }

    fn run(&mut self, b: &Block<'_>) -> Option<Run> {
        let decl_range = self.def_range(b);
        let Some(label) = b.labels.first() else {
            self.diags.push(
                Diagnostic::error("Missing name for run", "All run blocks must have exactly 1 labels: [name].")
                    .with_range(self.range(&b.kind.span)),
            );
            return None;
        };
        let name = label.value.to_string();
        if !is_identifier(&name) {
            self.diags.push(
                Diagnostic::error("Invalid run block name", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.")
                    .with_range(self.range(&label.span)),
            );
        }
        let mut run = Run {
            name,
            decl_range,
            command: Command::Apply,
            variables: Vec::new(),
            asserts: Vec::new(),
            expect_failures: Vec::new(),
            plan_options: PlanOptions::default(),
            module_source: None,
            module_range: None,
            state_key: None,
            overrides: Vec::new(),
            providers: None,
        };
        let mut variables_at: Option<SourceRange> = None;
        let mut options_at: Option<SourceRange> = None;
        let mut module_at: Option<SourceRange> = None;
        const RUN_ATTRS: &[&str] = &["command", "expect_failures", "state_key", "parallel", "providers"];
        const RUN_BLOCKS: &[&str] =
            &["assert", "variables", "plan_options", "module", "override_resource", "override_data", "override_module"];
        for item in &b.body.items {
            match item {
                Item::Attr(a) if !RUN_ATTRS.contains(&a.name.name) => self.unsupported_argument(a),
                Item::Block(x) if !RUN_BLOCKS.contains(&x.kind.name) => self.unsupported_block(x.kind.name, x),
                _ => {}
            }
        }
        for item in &b.body.items {
            match item {
                Item::Attr(a) => match a.name.name {
                    "command" => match keyword(&a.expr) {
                        Some("plan") => run.command = Command::Plan,
                        Some("apply") => run.command = Command::Apply,
                        _ => self.diags.push(
                            Diagnostic::error(
                                "Invalid \"command\" keyword",
                                "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
                            )
                            .with_range(self.range(&a.expr.span)),
                        ),
                    },
                    "expect_failures" => run.expect_failures = self.traversals(&a.expr),
                    "state_key" => match string_literal(&a.expr) {
                        Some(s) => run.state_key = Some(s),
                        None => self.diags.push(
                            Diagnostic::error("Invalid value for state_key", "The state_key argument must be a string literal.")
                                .with_range(self.range(&a.expr.span)),
                        ),
                    },
                    "providers" => run.providers = Some(self.provider_map(&a.expr)),
                    // Runs execute one at a time, which `parallel` allows (Terraform 1.12+).
                    _ => {}
                },
                Item::Block(inner) => match inner.kind.name {
                    "assert" => {
                        let mut condition = None;
                        let mut message = None;
                        for i in &inner.body.items {
                            match i {
                                Item::Attr(a) if a.name.name == "condition" => condition = Some(self.expr(&a.expr)),
                                Item::Attr(a) if a.name.name == "error_message" => message = Some(self.expr(&a.expr)),
                                Item::Attr(a) => self.unsupported_argument(a),
                                Item::Block(x) => self.unsupported_block(x.kind.name, x),
                            }
                        }
                        match condition {
                            Some(condition) => run.asserts.push(Assertion { condition, error_message: message }),
                            None => self.missing_argument("condition", inner),
                        }
                    }
                    "variables" => {
                        let here = self.def_range(inner);
                        if let Some(first) = &variables_at {
                            self.diags.push(
                                Diagnostic::error(
                                    "Multiple \"variables\" blocks",
                                    format!("This run block already has a variables block defined at {}.", range_text(first)),
                                )
                                .with_range(here),
                            );
                            continue;
                        }
                        variables_at = Some(here);
                        run.variables = self.variables(inner);
                    }
                    "plan_options" => {
                        let here = self.def_range(inner);
                        if let Some(first) = &options_at {
                            self.diags.push(
                                Diagnostic::error(
                                    "Multiple \"plan_options\" blocks",
                                    format!("This run block already has a plan_options block defined at {}.", range_text(first)),
                                )
                                .with_range(here),
                            );
                            continue;
                        }
                        options_at = Some(here);
                        run.plan_options = self.plan_options(inner);
                    }
                    "module" => {
                        let here = self.def_range(inner);
                        if let Some(first) = &module_at {
                            self.diags.push(
                                Diagnostic::error(
                                    "Multiple \"module\" blocks",
                                    format!("This run block already has a module block defined at {}.", range_text(first)),
                                )
                                .with_range(here),
                            );
                            continue;
                        }
                        module_at = Some(here.clone());
                        run.module_range = Some(here);
                        run.module_source = self.module(inner);
                    }
                    "override_resource" | "override_data" | "override_module" => {
                        if let Some(o) = self.override_block(inner) {
                            self.push_override(&mut run.overrides, o);
                        }
                    }
                    _ => {}
                },
            }
        }
        Some(run)
    }

    /// `override_during = plan | apply`.
    fn during(&mut self, a: &Attribute<'_>) -> Option<bool> {
        match keyword(&a.expr) {
            Some("plan") => Some(true),
            Some("apply") => Some(false),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "Invalid override_during value",
                        "The override_during attribute must be a value of plan or apply.",
                    )
                    .with_range(self.range(&a.span)),
                );
                None
            }
        }
    }

    fn override_block(&mut self, b: &Block<'_>) -> Option<OverrideBlock> {
        let kind = match b.kind.name {
            "override_resource" => OverrideKind::Resource,
            "override_data" => OverrideKind::Data,
            _ => OverrideKind::Module,
        };
        let values_name = if kind == OverrideKind::Module { "outputs" } else { "values" };
        let mut target = None;
        let mut values = None;
        let mut during_plan = None;
        // A `target` that is not a reference is its own error, not a missing target.
        let mut target_written = false;
        for item in &b.body.items {
            match item {
                Item::Attr(a) if a.name.name == "target" => match traversal_text(&a.expr) {
                    Some(t) => target = Some((t, self.range(&a.span))),
                    None => {
                        target_written = true;
                        self.diags.push(
                            Diagnostic::error("Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.")
                                .with_range(self.range(&a.expr.span)),
                        )
                    }
                },
                Item::Attr(a) if a.name.name == values_name => values = Some((self.expr(&a.expr), self.range(&a.span))),
                Item::Attr(a) if a.name.name == "override_during" => during_plan = self.during(a),
                Item::Attr(a) => self.unsupported_argument(a),
                Item::Block(x) => self.unsupported_block(x.kind.name, x),
            }
        }
        let Some((target, target_range)) = target else {
            if target_written {
                return None;
            }
            self.diags.push(
                Diagnostic::error(
                    "Missing target attribute",
                    format!("{} blocks must specify a target address.", kind.block()),
                )
                .with_range(self.def_range(b)),
            );
            return None;
        };
        // The target must be of the block's kind (`decodeOverride*Block`).
        let target_kind = match target_kind(&target) {
            TargetKind::Module => OverrideKind::Module,
            TargetKind::Data => OverrideKind::Data,
            TargetKind::Resource => OverrideKind::Resource,
        };
        if target_kind != kind {
            let what = match kind {
                OverrideKind::Module => "modules",
                OverrideKind::Data => "data sources",
                OverrideKind::Resource => "resources",
            };
            self.diags.push(
                Diagnostic::error(
                    "Invalid override target",
                    format!("You can only target {what} from {} blocks, not {target}.", kind.block()),
                )
                .with_range(target_range),
            );
            return None;
        }
        Some(OverrideBlock { kind, target, target_range, values, during_plan, decl_range: self.def_range(b) })
    }

    /// Adds an override to its level, unless one there already targets the same address.
    fn push_override(&mut self, level: &mut Vec<OverrideBlock>, o: OverrideBlock) {
        if let Some(previous) = level.iter().find(|p| p.target == o.target) {
            self.diags.push(
                Diagnostic::error(
                    format!("Duplicate {} block", o.kind.block()),
                    format!(
                        "An {} block targeting {} has already been defined at {}.",
                        o.kind.block(),
                        o.target,
                        range_text(&previous.decl_range)
                    ),
                )
                .with_range(o.decl_range.clone()),
            );
            return;
        }
        level.push(o);
    }

    fn mock_provider(&mut self, b: &Block<'_>) -> Option<MockProvider> {
        let Some(label) = b.labels.first() else {
            self.diags.push(
                Diagnostic::error(
                    "Missing name for mock_provider",
                    "All mock_provider blocks must have exactly 1 labels: [name].",
                )
                .with_range(self.range(&b.kind.span)),
            );
            return None;
        };
        let mut m = MockProvider {
            name: label.value.to_string(),
            alias: None,
            source: None,
            during_plan: None,
            resources: Vec::new(),
            data_sources: Vec::new(),
            overrides: Vec::new(),
            decl_range: self.def_range(b),
        };
        self.mock_body(&b.body.items, &mut m, true);
        Some(m)
    }

    /// The contents of a `mock_provider` block (`header`) or of a `.tfmock.hcl` file.
    fn mock_body(&mut self, items: &[Item<'_>], m: &mut MockProvider, header: bool) {
        for item in items {
            match item {
                Item::Attr(a) if header && a.name.name == "alias" => m.alias = string_literal(&a.expr),
                Item::Attr(a) if header && a.name.name == "source" => m.source = string_literal(&a.expr),
                Item::Attr(a) if header && a.name.name == "override_during" => m.during_plan = self.during(a),
                Item::Attr(a) => self.unsupported_argument(a),
                Item::Block(x) => match x.kind.name {
                    "mock_resource" | "mock_data" => {
                        let Some(label) = x.labels.first() else {
                            self.diags.push(
                                Diagnostic::error(
                                    format!("Missing name for {}", x.kind.name),
                                    format!("All {} blocks must have exactly 1 labels: [type].", x.kind.name),
                                )
                                .with_range(self.range(&x.kind.span)),
                            );
                            continue;
                        };
                        let mut d =
                            MockDefaults { type_name: label.value.to_string(), defaults: None, during_plan: None };
                        for i in &x.body.items {
                            match i {
                                Item::Attr(a) if a.name.name == "defaults" => {
                                    d.defaults = Some((self.expr(&a.expr), self.range(&a.span)))
                                }
                                Item::Attr(a) if a.name.name == "override_during" => d.during_plan = self.during(a),
                                Item::Attr(a) => self.unsupported_argument(a),
                                Item::Block(y) => self.unsupported_block(y.kind.name, y),
                            }
                        }
                        if x.kind.name == "mock_resource" {
                            m.resources.push(d);
                        } else {
                            m.data_sources.push(d);
                        }
                    }
                    // A mock provider cannot override a module (`configs/mock_provider.go`).
                    "override_resource" | "override_data" => {
                        if let Some(o) = self.override_block(x) {
                            self.push_override(&mut m.overrides, o);
                        }
                    }
                    other => self.unsupported_block(other, x),
                },
            }
        }
    }

    /// `{ mock = mock.fake, mock.second = mock }`: each side a provider name with an optional
    /// alias.
    fn provider_map(&mut self, e: &Expr<'_>) -> Vec<(String, String)> {
        let ExprKind::Object(items) = &e.kind else {
            self.diags.push(
                Diagnostic::error("Invalid expression", "A static map expression is required.")
                    .with_range(self.range(&e.span)),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let key = match &item.key {
                crate::hcl::ast::ObjectKey::Ident(i) => Some(i.name.to_string()),
                crate::hcl::ast::ObjectKey::Expr(k) => traversal_text(k),
            };
            match (key, traversal_text(&item.value)) {
                (Some(k), Some(v)) => out.push((k, v)),
                _ => self.diags.push(
                    Diagnostic::error(
                        "Invalid provider configuration reference",
                        "A provider configuration reference must not be given in quotes.",
                    )
                    .with_range(self.range(&item.value.span)),
                ),
            }
        }
        out
    }

    fn variable(&mut self, b: &Block<'_>) -> Option<VariableBlock> {
        let Some(label) = b.labels.first() else {
            self.diags.push(
                Diagnostic::error(
                    "Missing name for variable",
                    "All variable blocks must have exactly 1 labels: [name].",
                )
                .with_range(self.range(&b.kind.span)),
            );
            return None;
        };
        let mut v = VariableBlock {
            name: label.value.to_string(),
            type_text: None,
            default: None,
            nullable: true,
            decl_range: self.def_range(b),
        };
        for item in &b.body.items {
            match item {
                Item::Attr(a) => match a.name.name {
                    "type" => v.type_text = Some(self.text[a.expr.span.clone()].to_string()),
                    "default" => v.default = Some(self.expr(&a.expr)),
                    "nullable" => v.nullable = !matches!(a.expr.kind, ExprKind::Bool(false)),
                    "description" | "sensitive" | "ephemeral" => {}
                    _ => self.unsupported_argument(a),
                },
                Item::Block(x) if x.kind.name == "validation" => {}
                Item::Block(x) => self.unsupported_block(x.kind.name, x),
            }
        }
        Some(v)
    }

    fn missing_argument(&mut self, name: &str, b: &Block<'_>) {
        self.diags.push(
            Diagnostic::error(
                "Missing required argument",
                format!("The argument \"{name}\" is required, but no definition was found."),
            )
            .with_range(self.range(&(b.open_brace.start..b.close_brace.end))),
        );
    }

    fn plan_options(&mut self, b: &Block<'_>) -> PlanOptions {
        let mut o = PlanOptions::default();
        let mut refresh_at = None;
        for item in &b.body.items {
            match item {
                Item::Attr(a) => match a.name.name {
                    "mode" => match keyword(&a.expr) {
                        Some("normal") => o.mode = PlanMode::Normal,
                        Some("refresh-only") => o.mode = PlanMode::RefreshOnly,
                        _ => self.diags.push(
                            Diagnostic::error(
                                "Invalid \"mode\" keyword",
                                "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only",
                            )
                            .with_range(self.range(&a.expr.span)),
                        ),
                    },
                    "refresh" => match a.expr.kind {
                        ExprKind::Bool(v) => {
                            o.refresh = v;
                            refresh_at = Some(self.range(&a.span));
                        }
                        _ => self.diags.push(
                            Diagnostic::error("Incorrect value type", "Invalid expression value: a bool is required.")
                                .with_range(self.range(&a.expr.span)),
                        ),
                    },
                    "replace" => o.replace = self.traversals(&a.expr).into_iter().map(|e| e.address).collect(),
                    "target" => o.target = self.traversals(&a.expr).into_iter().map(|e| e.address).collect(),
                    _ => self.unsupported_argument(a),
                },
                Item::Block(x) => self.unsupported_block(x.kind.name, x),
            }
        }
        if let (false, PlanMode::RefreshOnly, Some(at)) = (o.refresh, o.mode, refresh_at) {
            self.diags.push(
                Diagnostic::error(
                    "Incompatible plan options",
                    "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.",
                )
                .with_range(at),
            );
        }
        o
    }

    fn module(&mut self, b: &Block<'_>) -> Option<String> {
        let mut source = None;
        for item in &b.body.items {
            match item {
                Item::Attr(a) if a.name.name == "source" => match string_literal(&a.expr) {
                    Some(s) if s.starts_with("./") || s.starts_with("../") => {
                        source = Some(s.trim_end_matches('/').to_string());
                    }
                    Some(_) => self.diags.push(
                        Diagnostic::error(
                            "Invalid module source address",
                            "Only local or registry module sources are currently supported from within test run blocks.",
                        )
                        .with_range(self.range(&a.expr.span)),
                    ),
                    None => self.diags.push(
                        Diagnostic::error("Invalid value for source", "The module source must be a string literal.")
                            .with_range(self.range(&a.expr.span)),
                    ),
                },
                Item::Attr(a) if a.name.name == "version" => {}
                Item::Attr(a) => self.unsupported_argument(a),
                Item::Block(x) => self.unsupported_block(x.kind.name, x),
            }
        }
        if source.is_none() && !self.diags.has_errors() {
            self.diags.push(
                Diagnostic::error(
                    "Missing \"source\" attribute for module block",
                    "You must specify a source attribute when executing alternate modules during test executions.",
                )
                .with_range(self.def_range(b)),
            );
        }
        source
    }

    /// A list of references (`[var.a, mock_resource.b]`): each as its address text.
    fn traversals(&mut self, e: &Expr<'_>) -> Vec<Expected> {
        let ExprKind::Tuple(items) = &e.kind else {
            self.diags.push(
                Diagnostic::error("Invalid expression", "A static list expression is required.")
                    .with_range(self.range(&e.span)),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            match traversal_text(item) {
                Some(address) => out.push(Expected { address, range: self.range(&item.span) }),
                None => self.diags.push(
                    Diagnostic::error("Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.")
                        .with_range(self.range(&item.span)),
                ),
            }
        }
        out
    }
}

/// A bare keyword (`plan`, `refresh-only`): HCL reads `refresh-only` as a subtraction.
fn keyword<'s>(e: &Expr<'s>) -> Option<&'s str> {
    match &e.kind {
        ExprKind::Variable(i) => Some(i.name),
        ExprKind::Binary { op: crate::hcl::ast::BinaryOp::Sub, lhs, rhs } => match (&lhs.kind, &rhs.kind) {
            (ExprKind::Variable(a), ExprKind::Variable(b)) if a.name == "refresh" && b.name == "only" => {
                Some("refresh-only")
            }
            _ => None,
        },
        _ => None,
    }
}

fn string_literal(e: &Expr<'_>) -> Option<String> {
    match &e.kind {
        ExprKind::Template(t) => {
            let mut s = String::new();
            for p in &t.parts {
                match p {
                    crate::hcl::ast::Part::Literal { value, .. } => s.push_str(value),
                    _ => return None,
                }
            }
            Some(s)
        }
        _ => None,
    }
}

/// A static traversal as an address (`mock_resource.a[0]`, `var.x`).
fn traversal_text(e: &Expr<'_>) -> Option<String> {
    match &e.kind {
        ExprKind::Variable(i) => Some(i.name.to_string()),
        ExprKind::Traversal { source, ops } => {
            let mut s = traversal_text(source)?;
            for op in ops {
                match op {
                    Op::Attr(i) => {
                        s.push('.');
                        s.push_str(i.name);
                    }
                    Op::Index { key, .. } => match &key.kind {
                        ExprKind::Number(n) => s.push_str(&format!("[{}]", n.value)),
                        _ => s.push_str(&format!("[\"{}\"]", string_literal(key)?)),
                    },
                    Op::LegacyIndex { index, .. } => s.push_str(&format!("[{index}]")),
                    _ => return None,
                }
            }
            Some(s)
        }
        _ => None,
    }
}

/// What an override's target address names (`addrs.ParseTarget`): a module (instance) when
/// nothing follows its `module.NAME[KEY]` steps, else a data source or a managed resource.
enum TargetKind {
    Module,
    Data,
    Resource,
}

fn target_kind(target: &str) -> TargetKind {
    let mut rest = target;
    while let Some(after) = rest.strip_prefix("module.") {
        // Past the call's name and instance key, if any.
        let name_end = after.find(['.', '[']).unwrap_or(after.len());
        let mut r = &after[name_end..];
        if r.starts_with('[') {
            r = r.find("].").map(|i| &r[i + 1..]).unwrap_or("");
        }
        match r.strip_prefix('.') {
            Some(next) => rest = next,
            None => return TargetKind::Module,
        }
    }
    if rest.starts_with("data.") {
        TargetKind::Data
    } else {
        TargetKind::Resource
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
