//! Parsing one file: JSON through `json.rs`, native syntax through our own HCL parser
//! ([`hcl`](crate::hcl)), which recovers after a broken item as HCL does: the syntax tree of what
//! could be parsed comes back with every error.

use super::diagnostics as msg;
use super::expr::syntax_error_diag;
use crate::hcl::{self as syntax, ast};
use super::json;
use super::references::Origin;
use crate::diag::{Diagnostics, SourceFile};

/// A parsed file's syntax tree (native syntax borrows names and spans from the file's text).
pub enum Ast<'s> {
    Hcl(ast::Body<'s>),
    Json(json::JValue),
}

/// Parse one file; `None` (with a diagnostic) when it cannot be parsed at all.
pub fn parse_file<'s>(f: &'s SourceFile, is_json: bool, diags: &mut Diagnostics) -> Option<Ast<'s>> {
    if is_json {
        return match json::parse(&f.text) {
            Ok(v) => Some(Ast::Json(v)),
            Err(e) => {
                let r = f.range(e.span.clone());
                diags.push(if e.too_deep { msg::too_deeply_nested(json::MAX_JSON_DEPTH, r) } else { msg::json_syntax_error(e.summary, &e.detail, r) });
                None
            }
        };
    }
    let parsed = syntax::parse_body(&f.text);
    for e in &parsed.errors {
        diags.push(syntax_error_diag(e, Origin::File(&f.text), f));
    }
    Some(Ast::Hcl(parsed.body))
}
