//! Decoding one file's top-level blocks into model objects (resources are in `resource.rs`).
//!
//! Mirrors `internal/configs/parser_config.go` and the `decode*Block` functions of
//! `named_values.go`, `module_call.go`, `provider.go`, `moved.go`, `import.go`, `removed.go`
//! and `checks.go`. Objects that an override file may merge into keep their body references
//! grouped by top-level argument or block name until the module is assembled.

use super::diagnostics as msg;
use super::kept::Keeper;
use super::model::*;
use super::syntax::{Attr, Block, BodyRef, Ex, Schema};
use crate::diag::{Diagnostics, SourceFile};

pub use super::dx::*;

const TOP: Schema = Schema {
    attrs: &[],
    blocks: &[
        ("terraform", &[]),
        ("required_providers", &[]),
        ("provider", &["name"]),
        ("variable", &["name"]),
        ("locals", &[]),
        ("output", &["name"]),
        ("module", &["name"]),
        ("resource", &["type", "name"]),
        ("data", &["type", "name"]),
        ("ephemeral", &["type", "name"]),
        ("action", &["type", "name"]),
        ("moved", &[]),
        ("removed", &[]),
        ("import", &[]),
        ("check", &["name"]),
    ],
    any_attrs: false,
    any_blocks: false,
};

const TERRAFORM: Schema = Schema {
    attrs: &["required_version", "experiments", "language"],
    blocks: &[
        ("backend", &["type"]),
        ("cloud", &[]),
        ("required_providers", &[]),
        ("state_store", &["type"]),
        ("provider_meta", &["provider"]),
    ],
    any_attrs: false,
    any_blocks: false,
};

const VARIABLE: Schema = Schema {
    attrs: &["description", "default", "type", "sensitive", "ephemeral", "nullable", "deprecated", "const"],
    blocks: &[("validation", &[])],
    any_attrs: false,
    any_blocks: false,
};

const OUTPUT: Schema = Schema {
    attrs: &["description", "value", "depends_on", "sensitive", "ephemeral", "deprecated", "type"],
    blocks: &[("precondition", &[]), ("postcondition", &[])],
    any_attrs: false,
    any_blocks: false,
};

const MODULE: Schema = Schema {
    attrs: &["source", "version", "count", "for_each", "depends_on", "providers", "ignore_nested_deprecations"],
    blocks: &[("_", &[]), ("lifecycle", &[]), ("locals", &[]), ("provider", &["type"])],
    any_attrs: true,
    any_blocks: false,
};

const PROVIDER: Schema = Schema { attrs: &[], blocks: &[("dynamic", &["name"])], any_attrs: true, any_blocks: true };
const LOCALS: Schema = Schema { attrs: &[], blocks: &[], any_attrs: true, any_blocks: false };
const MOVED: Schema = Schema { attrs: &["from", "to"], blocks: &[], any_attrs: false, any_blocks: false };
const IMPORT: Schema = Schema {
    attrs: &["to", "id", "for_each", "provider", "identity"],
    blocks: &[],
    any_attrs: false,
    any_blocks: false,
};
const REMOVED: Schema = Schema {
    attrs: &["from"],
    blocks: &[("lifecycle", &[]), ("connection", &[]), ("provisioner", &["type"])],
    any_attrs: false,
    any_blocks: false,
};
const REMOVED_LIFECYCLE: Schema = Schema { attrs: &["destroy"], blocks: &[], any_attrs: false, any_blocks: false };
const CHECK: Schema =
    Schema { attrs: &[], blocks: &[("data", &["type", "name"]), ("assert", &[])], any_attrs: false, any_blocks: false };
const REQUIRED_PROVIDERS: Schema = Schema { attrs: &[], blocks: &[], any_attrs: true, any_blocks: false };

/// Decode one file's body. `module_addr` is the module's address (`""` for the root).
pub fn decode_file<'b>(
    body: BodyRef<'b>,
    f: &SourceFile,
    keeper: Option<Keeper<'b>>,
    module_addr: &str,
    is_override: bool,
    diags: &mut Diagnostics,
) -> Parts {
    let mut dx = Dx { f, diags, is_override, keeper };
    let mut parts = Parts::default();
    let top = dx.content(body, &TOP);
    // Resources are most blocks of a large file: one allocation for them, not a doubling each
    // time (each copy moves every resource decoded so far).
    parts.resources.reserve(top.blocks.iter().filter(|b| matches!(b.kind, "resource" | "data" | "ephemeral")).count());
    for b in &top.blocks {
        match b.kind {
            "terraform" => dx.terraform(b, &mut parts),
            "required_providers" => {
                dx.diags.push(msg::required_providers_outside_terraform(dx.range(b.kind_span.clone())))
            }
            "provider" => {
                if let Some(p) = dx.provider(b, module_addr) {
                    parts.providers.push(p);
                }
            }
            "variable" => parts.variables.push(dx.variable(b)),
            "locals" => dx.locals(b, &mut parts.locals),
            "output" => parts.outputs.push(dx.output(b)),
            "module" => parts.calls.push(dx.module_call(b, module_addr)),
            "resource" | "data" | "ephemeral" => {
                if let Some(r) = dx.resource(b, module_addr) {
                    parts.resources.push(r);
                }
            }
            "moved" => {
                let c = dx.content(b.body, &MOVED);
                let from = dx.address(c.attr("from"), "from", b.def_span.clone());
                let to = dx.address(c.attr("to"), "to", b.def_span.clone());
                parts.moved.push(Moved { from, to, range: dx.range(b.def_span.clone()) });
            }
            "import" => parts.imports.push(dx.import(b)),
            "removed" => parts.removed.push(dx.removed(b)),
            "check" => parts.checks.extend(dx.check(b, module_addr)),
            _ => {} // `action` blocks: accepted, not modelled.
        }
    }
    parts
}

impl<'b> Dx<'_, 'b> {
    fn terraform(&mut self, b: &Block<'b>, parts: &mut Parts) {
        let c = self.content(b.body, &TERRAFORM);
        if let Some(v) = self.string(c.attr("required_version"), "required_version") {
            parts.required_version = Some(v);
        }
        for rp in c.blocks_of("required_providers") {
            parts.required_provider_blocks.push(self.range(rp.def_span.clone()));
            let rc = self.content(rp.body, &REQUIRED_PROVIDERS);
            for a in &rc.attrs {
                parts.required_providers.push(self.required_provider(a));
            }
        }
    }

    /// One `required_providers` entry: `aws = { source, version, configuration_aliases }` or the
    /// legacy `aws = "~> 4.0"` (a version constraint only).
    fn required_provider(&mut self, a: &Attr<'b>) -> RequiredProvider {
        let mut rp = RequiredProvider {
            name: a.name.to_string(),
            source: None,
            fqn: String::new(),
            version: None,
            configuration_aliases: Vec::new(),
            range: self.range(a.span.clone()),
            expr_range: self.range(a.expr.span()),
        };
        if let Some(v) = a.expr.literal_string() {
            rp.version = Some(v);
        } else if let Some(items) = a.expr.object() {
            for (k, v) in items {
                let key = match k.traversal(self.f) {
                    Some(t) if t.steps.len() == 1 => t.root().to_string(),
                    _ => k.literal(self.f),
                };
                match key.as_str() {
                    "source" => rp.source = v.literal_string(),
                    "version" => rp.version = v.literal_string(),
                    "configuration_aliases" => {
                        for item in v.list().unwrap_or_default() {
                            match item.abs_traversal(self.f) {
                                Some((t, _)) => rp.configuration_aliases.push(t.text.into_owned()),
                                None => self.diags.push(msg::static_traversal_required(self.range(item.span()))),
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        rp.fqn = provider_fqn_from_source(rp.source.as_deref(), &rp.name);
        rp
    }

    fn provider(&mut self, b: &Block<'b>, module_addr: &str) -> Option<PendingProvider> {
        let name = b.label(0).to_string();
        let c = self.content(b.body, &PROVIDER);
        let alias = self.string(c.attr("alias"), "alias");
        let mut body = Grouped::new();
        self.body_refs(b.body, "", &["alias", "version"], &[], &mut body);
        let cfg = ProviderConfig {
            name,
            alias,
            fqn: String::new(),
            address: String::new(),
            references: Vec::new(),
            empty: false, // decided once override files are merged (`finish`)
            has_version: false,
            range: self.range(b.def_span.clone()),
            body: self.kept_body(b.body),
        };
        let _ = module_addr;
        Some(PendingProvider { cfg, body, version: c.attr("version").is_some() })
    }

    fn variable(&mut self, b: &Block<'b>) -> Variable {
        let c = self.content(b.body, &VARIABLE);
        let type_expr = c.attr("type").map(|a| match (&a.expr, a.expr.literal_string()) {
            // JSON gives the type constraint as a string holding the expression.
            (Ex::Json(_), Some(s)) => s,
            _ => a.expr.source(self.f).to_string(),
        });
        let type_tree = c.attr("type").and_then(|a| self.kept_expr(&a.expr));
        let default = self.opt_expr(c.attr("default"), "default");
        let description = self.string(c.attr("description"), "description");
        let sensitive = self.bool(c.attr("sensitive")).unwrap_or(false);
        let nullable = self.bool(c.attr("nullable")).unwrap_or(true);
        let ephemeral = self.bool(c.attr("ephemeral")).unwrap_or(false);
        let name = b.label(0);
        let validations = c
            .blocks_of("validation")
            .filter_map(|v| {
                let v = self.condition(v, "validation")?;
                if let Some(d) = super::validate_checks::validation_without_self(name, &v) {
                    self.diags.push(d);
                }
                Some(v)
            })
            .collect();
        Variable {
            name: b.label(0).to_string(),
            type_expr,
            type_tree,
            default,
            description,
            sensitive,
            nullable,
            ephemeral,
            validations,
            range: self.range(b.def_span.clone()),
        }
    }

    fn locals(&mut self, b: &Block<'b>, out: &mut Vec<Local>) {
        let c = self.content(b.body, &LOCALS);
        for a in &c.attrs {
            let expr = self.expr(&a.expr, a.name);
            out.push(Local { name: a.name.to_string(), expr, range: self.range(a.span.clone()) });
        }
    }

    fn output(&mut self, b: &Block<'b>) -> Output {
        let c = self.content(b.body, &OUTPUT);
        let value = match c.attr("value") {
            Some(a) => self.expr(&a.expr, "value"),
            None => {
                if !self.is_override {
                    self.diags.push(msg::missing_required_argument("value", self.range(b.def_span.clone())));
                }
                Expr {
                    source: String::new(),
                    range: self.range(b.def_span.clone()),
                    references: Vec::new(),
                    tree: None,
                }
            }
        };
        let depends_on = self.depends_on(c.attr("depends_on"));
        let sensitive = self.bool(c.attr("sensitive")).unwrap_or(false);
        let ephemeral = self.bool(c.attr("ephemeral")).unwrap_or(false);
        let description = self.string(c.attr("description"), "description");
        let preconditions: Vec<Condition> =
            c.blocks_of("precondition").filter_map(|p| self.condition(p, "precondition")).collect();
        self.output_postconditions(c.blocks_of("postcondition"));
        let mut out = Output {
            name: b.label(0).to_string(),
            value,
            depends_on,
            sensitive,
            ephemeral,
            description,
            preconditions,
            references: Vec::new(),
            range: self.range(b.def_span.clone()),
        };
        finalize_output(&mut out);
        out
    }

    fn module_call(&mut self, b: &Block<'b>, module_addr: &str) -> PendingCall {
        let name = b.label(0).to_string();
        let c = self.content(b.body, &MODULE);
        let source_attr = c.attr("source");
        let source = match source_attr {
            Some(a) => match a.expr.literal_string() {
                Some(s) => s,
                None => {
                    self.diags.push(msg::invalid_module_source(self.range(a.expr.span())));
                    String::new()
                }
            },
            None => {
                if !self.is_override {
                    self.diags.push(msg::missing_required_argument("source", self.range(b.def_span.clone())));
                }
                String::new()
            }
        };
        let version = self.string(c.attr("version"), "version");
        let count = self.opt_expr(c.attr("count"), "count");
        let for_each = self.opt_expr(c.attr("for_each"), "for_each");
        if let (Some(_), Some(fe)) = (c.attr("count"), c.attr("for_each")) {
            self.diags.push(msg::count_and_for_each(self.range(fe.name_span.clone())));
        }
        let depends_on = self.depends_on(c.attr("depends_on"));
        let depends_on_range = c.attr("depends_on").and_then(|a| a.expr.list()).and_then(|items| {
            items.iter().find_map(|item| item.abs_traversal(self.f).map(|(t, _)| self.range(t.span())))
        });
        let providers = match c.attr("providers") {
            Some(a) => self.passed_providers(a),
            None => Vec::new(),
        };
        let meta = ["source", "version", "count", "for_each", "depends_on", "providers", "ignore_nested_deprecations"];
        let arguments = c
            .attrs
            .iter()
            .filter(|a| !meta.contains(&a.name))
            .map(|a| Argument { name: a.name.to_string(), expr: self.expr(&a.expr, a.name) })
            .collect();
        let address =
            if module_addr.is_empty() { format!("module.{name}") } else { format!("{module_addr}.module.{name}") };
        let mut call = ModuleCall {
            source_kind: super::files::classify_source(&source).to_string(),
            name,
            address,
            source,
            version,
            count,
            for_each,
            depends_on,
            providers,
            arguments,
            references: Vec::new(),
            module: None,
            depends_on_range,
            range: self.range(b.def_span.clone()),
        };
        finalize_call(&mut call);
        PendingCall { call, source_range: source_attr.map(|a| self.range(a.expr.span())) }
    }

    /// `providers = { aws.child = aws.parent }` (`module_call.go` `PassedProviderConfig`).
    fn passed_providers(&mut self, a: &Attr<'b>) -> Vec<PassedProvider> {
        let Some(items) = a.expr.object() else {
            self.diags.push(msg::map_required(self.range(a.expr.span())));
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in items {
            let key = k.traversal(self.f);
            let val = v.abs_traversal(self.f).map(|(t, _)| t);
            match (key, val) {
                (Some(kt), Some(vt)) if kt.steps.len() <= 2 && vt.steps.len() <= 2 => out.push(PassedProvider {
                    in_child: kt.text.into_owned(),
                    in_parent: vt.text.into_owned(),
                    range: self.range(k.span().start..v.span().end),
                    in_parent_start: self.f.pos(v.span().start),
                }),
                (Some(kt), _) if kt.steps.len() <= 2 => {
                    self.diags.push(msg::provider_ref_shape("providers", self.range(v.span())))
                }
                _ => self.diags.push(msg::provider_ref_shape("providers", self.range(k.span()))),
            }
        }
        out
    }

    fn import(&mut self, b: &Block<'b>) -> Import {
        let c = self.content(b.body, &IMPORT);
        // `to` may index its resource with an expression (`x.y[each.key]`, Terraform 1.7): the
        // engine evaluates that index, so only a missing `to` is an error here.
        let to = match c.attr("to") {
            Some(a) => a
                .expr
                .abs_traversal(self.f)
                .map(|(t, _)| t.text.into_owned())
                .unwrap_or_else(|| a.expr.source(self.f).trim().to_string()),
            None => self.address(None, "to", b.def_span.clone()),
        };
        let id = self.opt_expr(c.attr("id"), "id");
        let for_each = self.opt_expr(c.attr("for_each"), "for_each");
        let provider = c.attr("provider").and_then(|a| a.expr.abs_traversal(self.f)).map(|(t, _)| t.text.into_owned());
        let mut references = Vec::new();
        // `to` names the target (not a reference), but may index it dynamically
        // (`aws_instance.a[each.key]`): the index expressions' references count.
        if let Some(a) = c.attr("to") {
            let start = a.expr.span().start;
            let travs: Vec<_> =
                a.expr.traversals(self.f, &[], self.diags).into_iter().filter(|t| t.span().start != start).collect();
            references.extend(self.parse_travs(&travs, "to"));
        }
        for e in [&id, &for_each].into_iter().flatten() {
            references.extend(e.references.iter().cloned());
        }
        let identity = self.opt_expr(c.attr("identity"), "identity");
        if let Some(e) = &identity {
            references.extend(e.references.iter().cloned());
        }
        let range = self.range(b.def_span.clone());
        match (&id, &identity) {
            (None, None) => self.diags.push(msg::invalid_import_block(
                "At least one of 'id' or 'identity' must be specified.",
                range.clone(),
            )),
            (Some(_), Some(_)) => self
                .diags
                .push(msg::invalid_import_block("Only one of 'id' or 'identity' can be specified.", range.clone())),
            _ => {}
        }
        let to_range = c.attr("to").map(|a| self.range(a.expr.span())).unwrap_or_else(|| range.clone());
        Import { to, to_range, id, identity, for_each, provider, references, range }
    }

    fn removed(&mut self, b: &Block<'b>) -> Removed {
        let c = self.content(b.body, &REMOVED);
        let from = self.address(c.attr("from"), "from", b.def_span.clone());
        let mut destroy = true;
        for l in c.blocks_of("lifecycle") {
            let lc = self.content(l.body, &REMOVED_LIFECYCLE);
            if let Some(d) = self.bool(lc.attr("destroy")) {
                destroy = d;
            }
        }
        let connection = c.blocks_of("connection").next().map(|cb| self.connection(cb));
        let provisioners =
            c.blocks_of("provisioner").filter_map(|p| self.provisioner(p, connection.as_ref())).collect();
        Removed { from, destroy, provisioners, range: self.range(b.def_span.clone()) }
    }

    fn check(&mut self, b: &Block<'b>, module_addr: &str) -> Option<Check> {
        if self.is_override {
            self.diags.push(msg::cannot_override_check(self.range(b.def_span.clone())));
            return None;
        }
        let c = self.content(b.body, &CHECK);
        let mut data = None;
        for d in c.blocks_of("data") {
            if let Some(p) = self.resource(d, module_addr) {
                data = Some(super::resource::finalize_resource(p));
            }
        }
        let asserts: Vec<Condition> = c.blocks_of("assert").filter_map(|a| self.condition(a, "assert")).collect();
        if asserts.is_empty() {
            self.diags.push(super::validate_checks::zero_asserts(self.range(b.def_span.clone())));
        }
        let mut references: Vec<Reference> = Vec::new();
        for a in &asserts {
            references.extend(a.condition.references.iter().cloned());
            if let Some(m) = &a.error_message {
                references.extend(m.references.iter().cloned());
            }
        }
        Some(Check { name: b.label(0).to_string(), data, asserts, references, range: self.range(b.def_span.clone()) })
    }
}

/// An output's references: value, depends_on and preconditions.
pub fn finalize_output(o: &mut Output) {
    let mut refs = o.value.references.clone();
    refs.extend(o.depends_on.iter().cloned());
    for p in &o.preconditions {
        refs.extend(p.condition.references.iter().cloned());
        if let Some(m) = &p.error_message {
            refs.extend(m.references.iter().cloned());
        }
    }
    o.references = refs;
}

/// A module call's expansion references: depends_on, count and for_each.
pub fn finalize_call(c: &mut ModuleCall) {
    let mut refs = c.depends_on.clone();
    for e in [&c.count, &c.for_each].into_iter().flatten() {
        refs.extend(e.references.iter().cloned());
    }
    c.references = refs;
}

/// The fully qualified provider address for a `source` string, or the implied one for a name.
pub fn provider_fqn_from_source(source: Option<&str>, local_name: &str) -> String {
    match source {
        Some(s) => {
            let s = s.trim().to_ascii_lowercase();
            match s.split('/').count() {
                1 => default_fqn(&s),
                2 => format!("registry.terraform.io/{s}"),
                _ => s,
            }
        }
        None => implied_fqn(local_name),
    }
}

/// `ImpliedProviderForUnqualifiedType`: `terraform` is built in, the rest default to hashicorp.
pub fn implied_fqn(local_name: &str) -> String {
    if local_name == "terraform" {
        "terraform.io/builtin/terraform".to_string()
    } else {
        default_fqn(local_name)
    }
}

/// `addrs.NewDefaultProvider`: `registry.terraform.io/hashicorp/<name>`.
pub fn default_fqn(name: &str) -> String {
    format!("registry.terraform.io/hashicorp/{name}")
}
