//! Diagnostics as Terraform's CLI prints them without colour (`format.DiagnosticPlain`), and
//! the snippet Terraform's JSON diagnostics carry: the source lines, the enclosing top-level
//! block as context (`hcled.ContextString`), and the values the failing expression read
//! ([`expression_values`], in eval/, where evaluation errors take them).

use crate::diag::{Diagnostic, Diagnostics, Pos, Severity, SourceFile, SourceRange};
use crate::eval::functions::Filesystem;
use crate::hcl::ast::Item;

pub use crate::eval::snippet_values::expression_values;

/// `d` with the snippet Terraform's JSON diagnostics carry (`views/json.NewDiagnostic`), when
/// its range names a file of `files` and it has none yet: an empty range widened to one byte,
/// the lines it covers, the top-level block around it as context, and `values`.
pub fn with_source(d: Diagnostic, files: &dyn Filesystem, values: Vec<serde_json::Value>) -> Diagnostic {
    let Some(r) = &d.range else { return d };
    if d.snippet.is_some() {
        return d;
    }
    match SnippetFile::read(&r.filename, files) {
        Some(file) => file.attach(d, values),
        None => d,
    }
}

/// Every diagnostic of `diags` with its snippet ([`with_source`], no values). Each file is
/// indexed once, however many diagnostics point into it (a validate of thousands of undeclared
/// references in one file would otherwise parse that file once per diagnostic).
pub fn with_sources(diags: Diagnostics, files: &dyn Filesystem) -> Diagnostics {
    let mut indexed: crate::util::FastMap<String, Option<SnippetFile>> = Default::default();
    let out = diags.into_iter().map(|d| match &d.range {
        Some(r) if d.snippet.is_none() => {
            let file = indexed.entry(r.filename.clone()).or_insert_with(|| SnippetFile::read(&r.filename, files));
            match file {
                Some(file) => file.attach(d, Vec::new()),
                None => d,
            }
        }
        _ => d,
    });
    Diagnostics(out.collect())
}

/// A file's text with what its snippets need: the line index and the context of each offset.
struct SnippetFile {
    file: SourceFile,
    contexts: Contexts,
}

/// `hcled.ContextString`'s answers for one file, computed once: in native syntax the header of
/// the top-level block holding an offset; in JSON the path of keys and indexes to the innermost
/// object or array holding it (`variable.v.validation[0]`).
enum Contexts {
    /// Native syntax: each top-level block's span and header, in source order.
    Blocks(Vec<(std::ops::Range<usize>, String)>),
    /// JSON: the parsed root (None when the file does not parse).
    Json(Option<crate::config::json::JValue>),
}

impl SnippetFile {
    fn read(filename: &str, files: &dyn Filesystem) -> Option<SnippetFile> {
        let text = files.read(filename).and_then(|b| std::str::from_utf8(b).ok())?;
        let contexts = if filename.ends_with(".json") {
            Contexts::Json(crate::config::json::parse(text).ok())
        } else {
            Contexts::Blocks(block_headers(text))
        };
        Some(SnippetFile { file: SourceFile::new(filename, text), contexts })
    }

    fn context(&self, offset: usize) -> Option<String> {
        match &self.contexts {
            Contexts::Json(root) => root.as_ref().and_then(|root| crate::config::json::context_path(root, offset)),
            Contexts::Blocks(blocks) => {
                // Blocks do not overlap: the last one starting at or before `offset`.
                let i = blocks.partition_point(|(span, _)| span.start <= offset).checked_sub(1)?;
                let (span, header) = &blocks[i];
                (offset < span.end).then(|| header.clone())
            }
        }
    }

    fn attach(&self, mut d: Diagnostic, values: Vec<serde_json::Value>) -> Diagnostic {
        let Some(r) = d.range.as_mut() else { return d };
        if r.end.byte <= r.start.byte {
            r.end = Pos { line: r.start.line, column: r.start.column + 1, byte: r.start.byte + 1 };
        }
        // HCL asks for the context one byte before the highlight (hcled.ContextString(file, offset-1)).
        let context = (r.start.byte as usize).checked_sub(1).and_then(|at| self.context(at));
        let mut s = self.file.snippet(r, context);
        // An evaluation error carries the values of the expression that failed.
        let carried = d.values.take().unwrap_or_default();
        s.values = if values.is_empty() { carried } else { values };
        d.snippet = Some(s);
        d
    }
}

/// Each top-level block's span and header (`resource "aws_instance" "web"`, labels quoted as
/// Go's `%q`).
fn block_headers(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let parsed = crate::hcl::parse_body(text);
    let blocks = parsed.body.items.iter().filter_map(|item| match item {
        Item::Block(b) => {
            let mut header = b.kind.name.to_string();
            for l in &b.labels {
                header.push(' ');
                header.push_str(&crate::addrs::go_quote(&l.value));
            }
            Some((b.span.start..b.span.end, header))
        }
        _ => None,
    });
    blocks.collect()
}

/// Where Terraform points a problem with a whole block body (`MissingItemRange`): its opening
/// brace, an empty range, for a block whose header is `decl`.
pub fn body_start(decl: &SourceRange, files: &dyn Filesystem) -> Option<SourceRange> {
    let text = files.read(&decl.filename).and_then(|b| std::str::from_utf8(b).ok())?;
    let from = decl.end.byte as usize;
    let rest = text.get(from..)?;
    let at = from + rest.len() - rest.trim_start().len();
    if !text[at..].starts_with('{') {
        return None;
    }
    let pos = SourceFile::new(decl.filename.clone(), text).pos(at);
    Some(SourceRange { filename: decl.filename.clone(), start: pos, end: pos })
}

/// `format.DiagnosticPlain` at the width Terraform uses off a terminal (78): the detail's lines
/// that do not start with a space wrapped to 77 columns.
pub fn plain(d: &Diagnostic) -> String {
    let mut out = String::from(match d.severity {
        Severity::Error => "\nError: ",
        Severity::Warning => "\nWarning: ",
    });
    out.push_str(&d.summary);
    out.push_str("\n\n");
    if let Some(a) = &d.address {
        out.push_str(&format!("  with {a},\n"));
    }
    if let Some(r) = &d.range {
        match &d.snippet {
            None => {
                out.push_str(&format!("  on {} line {}:\n  (source code not available)\n", r.filename, r.start.line))
            }
            Some(s) => {
                let context = s.context.as_ref().map(|c| format!(", in {c}")).unwrap_or_default();
                out.push_str(&format!("  on {} line {}{context}:\n", r.filename, r.start.line));
                for (i, line) in s.code.split('\n').enumerate() {
                    out.push_str(&format!("{:4}: {line}\n", s.start_line as usize + i));
                }
                if !s.values.is_empty() {
                    out.push_str("    ├────────────────\n");
                    for v in &s.values {
                        let t = v["traversal"].as_str().unwrap_or("");
                        let mut lines = v["statement"].as_str().unwrap_or("").split('\n');
                        out.push_str(&format!("    │ {t} {}\n", lines.next().unwrap_or("")));
                        for l in lines {
                            out.push_str(&format!("    │   {l}\n"));
                        }
                    }
                }
            }
        }
        out.push('\n');
    }
    if !d.detail.is_empty() {
        out.push_str(&crate::plans::render_human::word_wrap(&d.detail, 78));
        out.push('\n');
    }
    out
}
