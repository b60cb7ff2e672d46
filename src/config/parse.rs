//! Parsing one file: JSON through `json.rs`, native syntax through hcl-edit after the nesting
//! pre-scan, with same-length rewrites around hcl-edit limitations and recovery of the blocks
//! before a syntax error.

use super::syntax::parse_error_diag;
use super::{guard, json, split};
use super::diagnostics as msg;
use crate::diag::{Diagnostics, SourceFile};

/// A parsed file: its text with a line index, and its syntax tree.
pub enum Ast {
    Hcl(hcl::edit::structure::Body),
    Json(json::JValue),
}

/// Parse one file; `None` (with a diagnostic) when it cannot be parsed at all.
pub fn parse_file(f: &SourceFile, is_json: bool, diags: &mut Diagnostics) -> Option<Ast> {
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
    if let Some(at) = guard::find_excessive_nesting(&f.text, guard::MAX_DEPTH) {
        diags.push(msg::too_deeply_nested(guard::MAX_DEPTH, f.range(at..at + 1)));
        return None;
    }
    let ident = |o: usize| o;
    // Very large object constructors are split (offsets kept) to avoid hcl-edit's quadratic
    // duplicate-key check.
    let mut text = match split::split_large_objects(&f.text) {
        Some(split) => std::borrow::Cow::Owned(split),
        None => std::borrow::Cow::Borrowed(f.text.as_str()),
    };
    let mut first_error = None;
    for _ in 0..16 {
        match hcl::edit::parser::parse_body(&text) {
            Ok(body) => return Some(Ast::Hcl(body)),
            Err(e) => match repair(&text, &e) {
                // Work around inputs HCL accepts and hcl-edit rejects, keeping every offset.
                Some(patched) => {
                    first_error.get_or_insert(e);
                    text = std::borrow::Cow::Owned(patched);
                }
                None => {
                    first_error.get_or_insert(e);
                    break;
                }
            },
        }
    }
    let e = first_error?;
    diags.push(parse_error_diag(&e, &f.text, &ident, f));
    // Recover what comes before the broken top-level block, as HCL's parser would.
    let cut = last_top_level_start(&f.text, e.location().offset());
    if cut > 0 {
        if let Ok(body) = hcl::edit::parser::parse_body(&f.text[..cut]) {
            return Some(Ast::Hcl(body));
        }
    }
    None
}

/// A same-length rewrite of `text` that avoids an hcl-edit limitation behind `e`, if there is one:
/// - duplicate keys in an object constructor (HCL keeps the last; hcl-edit refuses): the
///   repeated key is renamed in place (keys are never references, so nothing is lost);
/// - empty heredocs (`<<EOT` directly followed by its closing line), which hcl-edit pairs with a
///   later closing marker: rewritten as `""` padded with spaces.
fn repair(text: &str, e: &hcl::edit::parser::Error) -> Option<String> {
    if e.message().contains("redefined object key") {
        let at = e.location().offset();
        let b = text.as_bytes();
        let mut i = at;
        if b.get(i) == Some(&b'"') {
            i += 1;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
            i += 1;
        }
        if i == start {
            return None;
        }
        let mut out = text.as_bytes().to_vec();
        // Rotate the key's last character through letters until the key is unique.
        let c = out[i - 1];
        out[i - 1] = if c.is_ascii_uppercase() { b'a' + (c - b'A' + 7) % 26 } else { b'A' + (c.to_ascii_uppercase().wrapping_sub(b'A') % 26 + 11) % 26 };
        return String::from_utf8(out).ok();
    }
    patch_empty_heredocs(text)
}

fn patch_empty_heredocs(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while let Some(p) = text[i..].find("<<") {
        let start = i + p;
        let mut j = start + 2;
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        let ms = j;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        let marker = &text[ms..j];
        i = j.max(start + 2);
        if marker.is_empty() || b.get(j) != Some(&b'\n') {
            continue;
        }
        let line_start = j + 1;
        let line_end = text[line_start..].find('\n').map_or(b.len(), |p| line_start + p);
        if text[line_start..line_end].trim() != marker {
            continue;
        }
        let o = out.get_or_insert_with(|| b.to_vec());
        for (k, byte) in o.iter_mut().enumerate().take(line_end).skip(start) {
            *byte = match k - start {
                0 | 1 => b'"',
                _ if b[k] == b'\n' => b'\n',
                _ => b' ',
            };
        }
        i = line_end;
    }
    out.and_then(|o| String::from_utf8(o).ok())
}

/// The start of the last line before `offset` that begins a top-level item (column 1, not `}`).
fn last_top_level_start(text: &str, offset: usize) -> usize {
    let b = text.as_bytes();
    let mut i = offset.min(b.len());
    loop {
        let line_start = b[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        if line_start == 0 {
            return 0;
        }
        if b.get(line_start).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') {
            return line_start;
        }
        i = line_start - 1;
    }
}
