//! The decoding context shared by every block decoder: references with Terraform's rules,
//! literal values, `depends_on`, whole-body references (nested and `dynamic` blocks) and
//! condition blocks. Objects that an override file may merge into keep their body references
//! grouped by top-level argument or block name until the module is assembled.

use super::diagnostics as msg;
use super::kept::{Keeper, KeptBody, KeptExpr};
use super::model::*;
use super::references::{parse_ref, Parsed, Trav};
use super::syntax::{content, Attr, Block, BodyRef, Content, Ex, Schema};
use crate::diag::{Diagnostics, SourceFile, SourceRange};
use std::ops::Range;

/// References grouped by the top-level argument or block type they were found in.
pub type Grouped = Vec<(String, Vec<Reference>)>;

/// A resource whose `references` are assembled once overrides have been merged.
pub struct PendingResource {
    pub res: Resource,
    pub body: Grouped,
}

pub struct PendingProvider {
    pub cfg: ProviderConfig,
    /// Every argument and block but `alias` and `version`, with their references.
    pub body: Grouped,
    /// Whether a `version` argument is written (Terraform counts such a block as configured
    /// when validating passed-in providers, `configs/provider_validation.go`).
    pub version: bool,
}

pub struct PendingCall {
    pub call: ModuleCall,
    pub source_range: Option<SourceRange>,
}

/// Everything declared in one file, before the module is assembled.
#[derive(Default)]
pub struct Parts {
    pub resources: Vec<PendingResource>,
    pub providers: Vec<PendingProvider>,
    pub calls: Vec<PendingCall>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub outputs: Vec<Output>,
    pub required_providers: Vec<RequiredProvider>,
    /// Ranges of `required_providers` blocks (one per module is allowed).
    pub required_provider_blocks: Vec<SourceRange>,
    pub required_version: Option<String>,
    pub moved: Vec<Moved>,
    pub imports: Vec<Import>,
    pub removed: Vec<Removed>,
    pub checks: Vec<Check>,
}

/// The decoding context of one file. `'b` is the brand of the file's kept tree (native syntax):
/// expressions and bodies decoded from it keep handles into it.
pub struct Dx<'f, 'b> {
    pub f: &'f SourceFile,
    pub diags: &'f mut Diagnostics,
    /// Override files may leave out required arguments.
    pub is_override: bool,
    /// Makes handles into the kept tree (`None` for `.tf.json`, whose trees are not kept, and
    /// when the caller keeps none: `load_model_from`).
    pub keeper: Option<Keeper<'b>>,
}

impl<'b> Dx<'_, 'b> {
    pub fn range(&self, s: Range<usize>) -> SourceRange {
        self.f.range(s)
    }

    /// The references in an expression, parsed with Terraform's rules (invalid ones reported).
    pub fn refs(&mut self, ex: &Ex, context: &str) -> Vec<Reference> {
        self.refs_scoped(ex, context, &[])
    }

    pub fn refs_scoped(&mut self, ex: &Ex, context: &str, scope: &[&str]) -> Vec<Reference> {
        let travs = ex.traversals(self.f, scope, self.diags);
        self.parse_travs(&travs, context)
    }

    pub fn parse_travs(&mut self, travs: &[Trav], context: &str) -> Vec<Reference> {
        let mut out = Vec::with_capacity(travs.len());
        for t in travs {
            match parse_ref(t, self.f) {
                Ok(Parsed::Subject(subject, span)) => {
                    out.push(Reference::new(subject, t.text.to_string(), self.f.range(span), context.to_string()))
                }
                Ok(Parsed::Ignored) => {}
                Err(d) => self.diags.push(d),
            }
        }
        out
    }

    pub fn expr(&mut self, ex: &Ex<'b>, context: &str) -> Expr {
        let tree = self.kept_expr(ex);
        Expr {
            source: ex.source(self.f).to_string(),
            range: self.range(ex.span()),
            references: self.refs(ex, context),
            tree,
        }
    }

    /// A handle to an expression of the kept tree (`None` in `.tf.json`).
    pub fn kept_expr(&self, ex: &Ex<'b>) -> Option<KeptExpr> {
        match (ex, &self.keeper) {
            (Ex::Hcl(e), Some(k)) => Some(k.expr(e)),
            _ => None,
        }
    }

    /// A handle to a body of the kept tree (`None` in `.tf.json`).
    pub fn kept_body(&self, body: BodyRef<'b>) -> Option<KeptBody> {
        match (body, &self.keeper) {
            (BodyRef::Hcl(b), Some(k)) => Some(k.body(b)),
            _ => None,
        }
    }

    pub fn opt_expr(&mut self, attr: Option<&Attr<'b>>, context: &str) -> Option<Expr> {
        attr.map(|a| self.expr(&a.expr, context))
    }

    pub fn string(&mut self, attr: Option<&Attr<'b>>, what: &str) -> Option<String> {
        let a = attr?;
        let s = a.expr.literal_string();
        if s.is_none() {
            self.diags.push(msg::expected_string(what, self.range(a.expr.span())));
        }
        s
    }

    pub fn bool(&mut self, attr: Option<&Attr<'b>>) -> Option<bool> {
        let a = attr?;
        let b = a.expr.as_bool();
        if b.is_none() {
            self.diags.push(msg::expected_bool(a.name, self.range(a.expr.span())));
        }
        b
    }

    pub fn content<'a>(&mut self, body: BodyRef<'a>, schema: &Schema) -> Content<'a> {
        content(body, schema, self.f, self.diags)
    }

    /// `depends_on = [...]`: plain resource, data, ephemeral or module traversals.
    pub fn depends_on(&mut self, attr: Option<&Attr<'b>>) -> Vec<Reference> {
        let Some(a) = attr else { return Vec::new() };
        let Some(items) = a.expr.list() else {
            self.diags.push(msg::list_required(self.range(a.expr.span())));
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let Some((trav, quoted)) = item.abs_traversal(self.f) else {
                self.diags.push(msg::static_traversal_required(self.range(item.span())));
                continue;
            };
            if quoted {
                self.diags.push(msg::quoted_reference_deprecated(self.range(item.span())));
            }
            match parse_ref(&trav, self.f) {
                Ok(Parsed::Subject(subject, span)) => {
                    // `validateDependsOn`: only whole objects; anything after the address is an error.
                    if span.end < trav.span().end {
                        self.diags.push(msg::invalid_depends_on(self.range(span.end..trav.span().end)));
                        continue;
                    }
                    out.push(Reference::new(subject, trav.text.into_owned(), self.range(span), "depends_on".into()));
                }
                Ok(Parsed::Ignored) => {}
                Err(d) => self.diags.push(d),
            }
        }
        out
    }

    /// References of a whole body (no schema): every argument and nested or dynamic block,
    /// grouped by top-level name. `skip` lists meta-arguments and meta-blocks handled elsewhere.
    pub fn body_refs(&mut self, body: BodyRef, prefix: &str, skip: &[&str], scope: &[&str], out: &mut Grouped) {
        let c = self.content(body, &ANY_BODY);
        for a in &c.attrs {
            if skip.contains(&a.name) {
                continue;
            }
            // Most arguments are literals: build the context string only when there is a traversal.
            let travs = a.expr.traversals(self.f, scope, self.diags);
            let refs =
                if travs.is_empty() { Vec::new() } else { self.parse_travs(&travs, &format!("{prefix}{}", a.name)) };
            push_group(out, a.name, refs);
        }
        for b in &c.blocks {
            if skip.contains(&b.kind) {
                continue;
            }
            if b.kind == "dynamic" {
                let mut refs = Vec::new();
                self.dynamic_refs(b, prefix, scope, &mut refs);
                push_group(out, b.label(0), refs);
            } else {
                let mut inner = Grouped::new();
                let p = if b.kind == "_" { prefix.to_string() } else { format!("{prefix}{}.", b.kind) };
                self.body_refs(b.body, &p, &[], scope, &mut inner);
                push_group(out, b.kind, inner.into_iter().flat_map(|(_, r)| r).collect());
            }
        }
    }

    /// A `dynamic "x"` block: its for_each and labels, then its content without the iterator.
    fn dynamic_refs(&mut self, b: &Block, prefix: &str, scope: &[&str], out: &mut Vec<Reference>) {
        let label = b.label(0);
        let c = self.content(b.body, &DYNAMIC);
        let head = format!("{prefix}dynamic {label:?}");
        if let Some(a) = c.attr("for_each") {
            out.extend(self.refs_scoped(&a.expr, &format!("{head}.for_each"), scope));
        }
        let iterator_trav = c.attr("iterator").map(|a| (a, a.expr.abs_traversal(self.f)));
        let iterator = match &iterator_trav {
            Some((_, Some((t, _)))) if t.steps.len() == 1 => t.root(),
            Some((a, _)) => {
                self.diags.push(msg::static_traversal_required(self.range(a.expr.span())));
                label
            }
            None => label,
        };
        let mut inner_scope = scope.to_vec();
        inner_scope.push(iterator);
        if let Some(a) = c.attr("labels") {
            out.extend(self.refs_scoped(&a.expr, &format!("{head}.labels"), &inner_scope));
        }
        for content_block in c.blocks_of("content") {
            let mut inner = Grouped::new();
            self.body_refs(content_block.body, &format!("{prefix}{label}."), &[], &inner_scope, &mut inner);
            out.extend(inner.into_iter().flat_map(|(_, r)| r));
        }
    }

    /// A `precondition` / `postcondition` / `validation` / `assert` block.
    pub fn condition(&mut self, b: &Block<'b>, context: &str) -> Option<Condition> {
        if self.is_override {
            // Terraform forbids these outright rather than define how they would merge.
            let range = self.range(b.def_span.clone());
            self.diags.push(msg::cannot_override_condition(context, range));
            return None;
        }
        let c = self.content(b.body, &CONDITION);
        let Some(cond) = c.attr("condition") else {
            self.diags.push(msg::missing_required_argument("condition", self.range(b.def_span.clone())));
            return None;
        };
        let condition = self.expr(&cond.expr, &format!("{context}.condition"));
        let refers = self.condition_refers_to_something(&cond.expr, context);
        let error_message = self.opt_expr(c.attr("error_message"), &format!("{context}.error_message"));
        // Terraform keeps every other condition block but drops such an assert.
        (refers || context != "assert").then(|| Condition {
            condition,
            error_message,
            range: self.range(b.def_span.clone()),
        })
    }

    /// `hcl.AbsTraversalForExpr` as an address string (`moved`, `removed`, `import.to`).
    pub fn address(&mut self, attr: Option<&Attr<'b>>, name: &str, whole: Range<usize>) -> String {
        let Some(a) = attr else {
            self.diags.push(msg::missing_required_argument(name, self.range(whole)));
            return String::new();
        };
        match a.expr.abs_traversal(self.f) {
            Some((t, _)) => t.text.into_owned(),
            None => {
                self.diags.push(msg::static_traversal_required(self.range(a.expr.span())));
                a.expr.source(self.f).to_string()
            }
        }
    }
}

pub fn push_group(out: &mut Grouped, key: &str, refs: Vec<Reference>) {
    match out.iter_mut().find(|(k, _)| k == key) {
        Some((_, v)) => v.extend(refs),
        None => out.push((key.to_string(), refs)),
    }
}

pub const ANY_BODY: Schema =
    Schema { attrs: &[], blocks: &[("dynamic", &["name"])], any_attrs: true, any_blocks: true };
const DYNAMIC: Schema = Schema {
    attrs: &["for_each", "iterator", "labels"],
    blocks: &[("content", &[])],
    any_attrs: false,
    any_blocks: false,
};
const CONDITION: Schema =
    Schema { attrs: &["condition", "error_message"], blocks: &[], any_attrs: false, any_blocks: false };
