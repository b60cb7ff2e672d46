//! Parsing one file: JSON through `json.rs`, native syntax through our own HCL parser
//! ([`hcl`](crate::hcl)), which recovers after a broken item as HCL does: the syntax tree of what
//! could be parsed comes back with every error, kept with its text (`kept.rs`).

use super::diagnostics as msg;
use super::expr::syntax_error_diag;
use super::json;
use super::kept::SyntaxFile;
use super::references::Origin;
use crate::diag::{Diagnostics, SourceFile};
use std::sync::Arc;

/// A parsed file: native syntax kept with its tree, or JSON's tree beside its text.
pub enum Parsed {
    Hcl(Arc<SyntaxFile>),
    Json(SourceFile, json::JValue),
}

/// Parse one file; `None` (with a diagnostic) when it cannot be parsed at all.
pub fn parse_file(f: SourceFile, is_json: bool, diags: &mut Diagnostics) -> Option<Parsed> {
    if is_json {
        return match json::parse(&f.text) {
            Ok(v) => Some(Parsed::Json(f, v)),
            Err(e) => {
                let r = f.range(e.span.clone());
                diags.push(if e.too_deep {
                    msg::too_deeply_nested(json::MAX_JSON_DEPTH, r)
                } else {
                    msg::json_syntax_error(e.summary, &e.detail, r)
                });
                None
            }
        };
    }
    let (file, errors) = SyntaxFile::parse(f);
    let f = file.source();
    for e in &errors {
        diags.push(syntax_error_diag(e, Origin::File(&f.text), f));
    }
    Some(Parsed::Hcl(file))
}
