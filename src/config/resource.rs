//! `resource`, `data` and `ephemeral` blocks, with their meta-arguments, `lifecycle`,
//! `connection` and `provisioner` blocks (`internal/configs/resource.go`, `provisioner.go`).

use super::decode::{push_group, Dx, Grouped, PendingResource};
use super::diagnostics as msg;
use super::model::*;
use super::references::StepKind;
use super::syntax::{Block, Schema};
use crate::addrs::ResourceMode;

const RESOURCE: Schema = Schema {
    attrs: &["count", "for_each", "provider", "depends_on"],
    blocks: &[
        ("lifecycle", &[]),
        ("connection", &[]),
        ("provisioner", &["type"]),
        ("locals", &[]),
        ("_", &[]),
        ("dynamic", &["name"]),
    ],
    any_attrs: true,
    any_blocks: true,
};

const LIFECYCLE: Schema = Schema {
    attrs: &["create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "destroy"],
    blocks: &[("precondition", &[]), ("postcondition", &[]), ("action_trigger", &[])],
    any_attrs: false,
    any_blocks: false,
};

const PROVISIONER: Schema = Schema {
    attrs: &["when", "on_failure"],
    blocks: &[("connection", &[]), ("_", &[]), ("lifecycle", &[]), ("dynamic", &["name"])],
    any_attrs: true,
    any_blocks: true,
};

/// Meta-arguments and meta-blocks that are not part of a resource's provider-defined body.
const RESOURCE_META: &[&str] =
    &["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "locals"];

impl<'b> Dx<'_, 'b> {
    pub fn resource(&mut self, b: &Block<'b>, module_addr: &str) -> Option<PendingResource> {
        let mode = match b.kind {
            "data" => ResourceMode::Data,
            "ephemeral" => ResourceMode::Ephemeral,
            _ => ResourceMode::Managed,
        };
        let type_name = b.label(0).to_string();
        let name = b.label(1).to_string();
        if !valid_identifier(&type_name) {
            let what = match mode {
                ResourceMode::Data => "data source name",
                ResourceMode::Ephemeral => "ephemeral resource type",
                ResourceMode::Managed => "resource type name",
            };
            self.diags.push(msg::invalid_name(what, self.range(b.labels[0].span.clone())));
            return None;
        }
        if !valid_identifier(&name) {
            let what = match mode {
                ResourceMode::Data => "data resource name",
                ResourceMode::Ephemeral => "ephemeral resource name",
                ResourceMode::Managed => "resource name",
            };
            self.diags.push(msg::invalid_name(what, self.range(b.labels[1].span.clone())));
            return None;
        }
        let c = self.content(b.body, &RESOURCE);
        let count = self.opt_expr(c.attr("count"), "count");
        let for_each = self.opt_expr(c.attr("for_each"), "for_each");
        if let (Some(_), Some(fe)) = (c.attr("count"), c.attr("for_each")) {
            self.diags.push(msg::count_and_for_each(self.range(fe.name_span.clone())));
        }
        let depends_on = self.depends_on(c.attr("depends_on"));

        let implied_name = type_name.split('_').next().unwrap_or(&type_name).to_string();
        let mut provider =
            ProviderRef { local_name: implied_name, alias: None, fqn: String::new(), implied: true, range: None };
        if let Some(a) = c.attr("provider") {
            if let Some((local, alias)) = self.provider_ref(a, "provider") {
                provider = ProviderRef {
                    local_name: local,
                    alias,
                    fqn: String::new(),
                    implied: false,
                    range: Some(self.range(a.span.clone())),
                };
            }
        }

        let mut lifecycle = Lifecycle::default();
        let mut seen_lifecycle: Option<crate::diag::SourceRange> = None;
        for l in c.blocks_of("lifecycle") {
            if let Some(prev) = &seen_lifecycle {
                self.diags.push(msg::duplicate_block("lifecycle", "resource", prev, self.range(l.def_span.clone())));
                continue;
            }
            seen_lifecycle = Some(self.range(l.def_span.clone()));
            let own = match mode {
                ResourceMode::Managed => format!("{type_name}.{name}"),
                ResourceMode::Data => format!("data.{type_name}.{name}"),
                ResourceMode::Ephemeral => format!("ephemeral.{type_name}.{name}"),
            };
            self.lifecycle(l, mode, &own, &mut lifecycle);
        }

        let mut connection = None;
        if mode == ResourceMode::Managed {
            for cb in c.blocks_of("connection") {
                if let Some(prev) = &connection {
                    let prev: &BlockRefs = prev;
                    let pr = prev.range.clone();
                    self.diags.push(msg::duplicate_block(
                        "connection",
                        "resource",
                        &pr,
                        self.range(cb.def_span.clone()),
                    ));
                    continue;
                }
                connection = Some(self.connection(cb));
            }
        }
        let provisioners = if mode == ResourceMode::Managed {
            c.blocks_of("provisioner").filter_map(|p| self.provisioner(p, connection.as_ref())).collect()
        } else {
            Vec::new()
        };

        let mut body = Grouped::new();
        self.body_refs(b.body, "", RESOURCE_META, &[], &mut body);

        let local = format!("{}{}.{}", mode.prefix(), type_name, name);
        let address = if module_addr.is_empty() { local } else { format!("{module_addr}.{local}") };
        let res = Resource {
            address,
            mode,
            type_name,
            name,
            provider,
            count,
            for_each,
            depends_on,
            lifecycle,
            provisioners,
            connection,
            references: Vec::new(),
            range: self.range(b.def_span.clone()),
            body: self.kept_body(b.body),
        };
        Some(PendingResource { res, body })
    }

    /// `decodeProviderConfigRef`: `aws` or `aws.alias`, never quoted.
    pub fn provider_ref(&mut self, a: &super::syntax::Attr<'b>, arg: &str) -> Option<(String, Option<String>)> {
        let trav = a.expr.abs_traversal(self.f).map(|(t, _)| t);
        let trav = match trav {
            Some(t) if !t.steps.is_empty() && t.steps.len() <= 2 && !a.expr.is_native_quoted_string() => t,
            _ => {
                let r = self.range(a.expr.span());
                self.diags.push(if a.expr.is_native_quoted_string() {
                    msg::provider_in_quotes(r)
                } else {
                    msg::provider_ref_shape(arg, r)
                });
                return None;
            }
        };
        let local = trav.root().to_string();
        match trav.steps.get(1) {
            None => Some((local, None)),
            Some(s) => match &s.kind {
                StepKind::Attr(alias) => Some((local, Some(alias.to_string()))),
                _ => {
                    self.diags.push(msg::provider_alias_shape(self.range(s.span.clone())));
                    Some((local, None))
                }
            },
        }
    }

    /// `own`: the resource's address, which its conditions may not name.
    fn lifecycle(&mut self, l: &Block<'b>, mode: ResourceMode, own: &str, out: &mut Lifecycle) {
        let c = self.content(l.body, &LIFECYCLE);
        if mode == ResourceMode::Managed {
            out.create_before_destroy = self.bool(c.attr("create_before_destroy"));
            out.prevent_destroy = self.bool(c.attr("prevent_destroy"));
            if let Some(a) = c.attr("ignore_changes") {
                out.ignore_changes = self.ignore_changes(a);
            }
            if let Some(a) = c.attr("replace_triggered_by") {
                match a.expr.list() {
                    Some(items) => {
                        for item in items {
                            let e = self.expr(&item, "lifecycle.replace_triggered_by");
                            out.replace_triggered_by.push(e);
                        }
                    }
                    None => self.diags.push(msg::list_required(self.range(a.expr.span()))),
                }
            }
        }
        // In the order written: each block's errors come together, as Terraform reports them.
        for b in c.blocks.iter().filter(|b| matches!(b.kind, "precondition" | "postcondition")) {
            if let Some(cond) = self.condition(b, b.kind) {
                self.diags.extend(super::validate_checks::self_references(b.kind, own, &cond));
                match b.kind {
                    "precondition" => out.preconditions.push(cond),
                    _ => out.postconditions.push(cond),
                }
            }
        }
    }

    /// `ignore_changes = all` or a list of attribute paths.
    fn ignore_changes(&mut self, a: &super::syntax::Attr<'b>) -> IgnoreChanges {
        if let Some((t, quoted)) = a.expr.abs_traversal(self.f) {
            if t.steps.len() == 1 && t.root() == "all" {
                if quoted {
                    self.diags.push(msg::quoted_keyword_deprecated(self.range(a.expr.span())));
                }
                return IgnoreChanges::All;
            }
        }
        let Some(items) = a.expr.list() else {
            self.diags.push(msg::list_required(self.range(a.expr.span())));
            return IgnoreChanges::None;
        };
        let mut paths = Vec::new();
        for item in items {
            if item.literal_string().as_deref() == Some("*") {
                self.diags.push(msg::invalid_ignore_changes_wildcard(self.range(item.span())));
                continue;
            }
            match item.abs_traversal(self.f) {
                Some((t, quoted)) => {
                    if quoted {
                        self.diags.push(msg::quoted_reference_deprecated(self.range(item.span())));
                    }
                    paths.push(t.text.into_owned());
                }
                None => self.diags.push(msg::static_traversal_required(self.range(item.span()))),
            }
        }
        IgnoreChanges::Attributes(paths)
    }

    pub fn connection(&mut self, cb: &Block<'b>) -> BlockRefs {
        let mut g = Grouped::new();
        self.body_refs(cb.body, "connection.", &[], &[], &mut g);
        BlockRefs { references: g.into_iter().flat_map(|(_, r)| r).collect(), range: self.range(cb.def_span.clone()) }
    }

    /// A `provisioner "type"` block. Its references are its body and its own connection block
    /// (the resource-level connection is inherited at run time but listed on the resource).
    pub fn provisioner(&mut self, p: &Block<'b>, _resource_conn: Option<&BlockRefs>) -> Option<Provisioner> {
        let type_name = p.label(0).to_string();
        let c = self.content(p.body, &PROVISIONER);
        let when = match c.attr("when") {
            None => ProvisionerWhen::Create,
            Some(a) => match a.expr.abs_traversal(self.f).map(|(t, q)| (t.text.into_owned(), q)) {
                Some((w, q)) if w == "create" || w == "destroy" => {
                    if q {
                        self.diags.push(msg::quoted_keyword_deprecated(self.range(a.expr.span())));
                    }
                    if w == "create" {
                        ProvisionerWhen::Create
                    } else {
                        ProvisionerWhen::Destroy
                    }
                }
                _ => {
                    self.diags.push(msg::invalid_provisioner_when(self.range(a.expr.span())));
                    ProvisionerWhen::Create
                }
            },
        };
        let on_failure = match c.attr("on_failure") {
            None => "fail".to_string(),
            Some(a) => match a.expr.abs_traversal(self.f).map(|(t, q)| (t.text.into_owned(), q)) {
                Some((w, q)) if w == "continue" || w == "fail" => {
                    if q {
                        self.diags.push(msg::quoted_keyword_deprecated(self.range(a.expr.span())));
                    }
                    w
                }
                _ => {
                    self.diags.push(msg::invalid_provisioner_on_failure(self.range(a.expr.span())));
                    "fail".to_string()
                }
            },
        };
        let prefix = format!("provisioner {type_name:?}.");
        let connection = c.blocks_of("connection").next().map(|cb| {
            let mut g = Grouped::new();
            self.body_refs(cb.body, &format!("{prefix}connection."), &[], &[], &mut g);
            BlockRefs {
                references: g.into_iter().flat_map(|(_, r)| r).collect(),
                range: self.range(cb.def_span.clone()),
            }
        });
        let mut g = Grouped::new();
        self.body_refs(p.body, &prefix, &["when", "on_failure", "connection", "lifecycle"], &[], &mut g);
        let mut references: Vec<Reference> = g.into_iter().flat_map(|(_, r)| r).collect();
        if let Some(conn) = &connection {
            references.extend(conn.references.iter().cloned());
        }
        Some(Provisioner { type_name, when, on_failure, connection, references, range: self.range(p.def_span.clone()) })
    }
}

/// Assemble `Resource.references` as `NodeAbstractResource.References()` does: depends_on,
/// count, for_each, replace_triggered_by, the body, the connection block, create-time
/// provisioners, then pre- and postconditions.
pub fn finalize_resource(p: PendingResource) -> Resource {
    let PendingResource { mut res, body } = p;
    let mut refs = res.depends_on.clone();
    for e in [&res.count, &res.for_each].into_iter().flatten() {
        refs.extend(e.references.iter().cloned());
    }
    for e in &res.lifecycle.replace_triggered_by {
        refs.extend(e.references.iter().cloned());
    }
    for (_, r) in body {
        refs.extend(r);
    }
    if let Some(c) = &res.connection {
        refs.extend(c.references.iter().cloned());
    }
    for p in &res.provisioners {
        if p.when == ProvisionerWhen::Create {
            refs.extend(p.references.iter().cloned());
        }
    }
    for c in res.lifecycle.preconditions.iter().chain(&res.lifecycle.postconditions) {
        refs.extend(c.condition.references.iter().cloned());
        if let Some(m) = &c.error_message {
            refs.extend(m.references.iter().cloned());
        }
    }
    res.references = refs;
    res
}

/// Merge an override resource into its base (`module_merge.go` `Resource.merge`): meta-arguments
/// set in the override replace the base's, body arguments and nested block types replace theirs.
pub fn merge_resource(base: &mut PendingResource, over: PendingResource, over_has: &OverrideSet) {
    let (b, o) = (&mut base.res, over.res);
    if over_has.count {
        b.count = o.count;
        b.for_each = None;
    }
    if over_has.for_each {
        b.for_each = o.for_each;
        b.count = None;
    }
    if !o.provider.implied {
        b.provider = o.provider;
    }
    if over_has.depends_on {
        b.depends_on = o.depends_on;
    }
    if over_has.lifecycle {
        let (bl, ol) = (&mut b.lifecycle, o.lifecycle);
        if ol.create_before_destroy.is_some() {
            bl.create_before_destroy = ol.create_before_destroy;
        }
        if ol.prevent_destroy.is_some() {
            bl.prevent_destroy = ol.prevent_destroy;
        }
        if ol.ignore_changes != IgnoreChanges::None {
            bl.ignore_changes = ol.ignore_changes;
        }
        if !ol.replace_triggered_by.is_empty() {
            bl.replace_triggered_by = ol.replace_triggered_by;
        }
    }
    if o.connection.is_some() {
        b.connection = o.connection;
    }
    if !o.provisioners.is_empty() {
        b.provisioners = o.provisioners;
    }
    for (k, refs) in over.body {
        base.body.retain(|(bk, _)| *bk != k);
        push_group(&mut base.body, &k, refs);
    }
}

/// Which meta-arguments an override block sets (the model cannot tell "unset" from "empty").
#[derive(Default)]
pub struct OverrideSet {
    pub count: bool,
    pub for_each: bool,
    pub depends_on: bool,
    pub lifecycle: bool,
}

impl OverrideSet {
    pub fn of(r: &PendingResource) -> Self {
        OverrideSet {
            count: r.res.count.is_some(),
            for_each: r.res.for_each.is_some(),
            depends_on: !r.res.depends_on.is_empty(),
            lifecycle: true,
        }
    }
}

/// HCL's identifier rule (`hclsyntax.ValidIdentifier`), used for resource type and name labels.
pub fn valid_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
