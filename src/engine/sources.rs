//! The configuration's `.tf` files parsed once, with each resource block found by its header.
//!
//! The loader keeps references, not bodies; the engine needs the bodies again (arguments to
//! evaluate, the plan JSON's expressions, globalref's references). Parsing a file once per
//! resource made planning quadratic in the size of a file, so every consumer looks blocks up here.

use crate::config::model::Resource;
use crate::diag::SourceFile;
use crate::hcl::ast::{Block, Item};
use std::collections::{BTreeMap, HashMap};

/// One parsed file: its syntax tree and its line index (for positions).
pub struct ParsedFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub body: crate::hcl::ast::Body<'a>,
    pub lines: SourceFile,
}

/// Every native-syntax file of the configuration, parsed, and an index of resource blocks.
pub struct Sources<'a> {
    files: &'a BTreeMap<String, String>,
    parsed: Vec<ParsedFile<'a>>,
    by_name: HashMap<&'a str, usize>,
    /// (file index, kind, type, name) → item index in that file's body.
    blocks: HashMap<(usize, &'a str, &'a str, &'a str), usize>,
}

impl<'a> Sources<'a> {
    /// Parses every `.tf` file among `files`. Complexity: linear in their total size.
    pub fn new(files: &'a BTreeMap<String, String>) -> Sources<'a> {
        let mut s = Sources { files, parsed: Vec::new(), by_name: HashMap::new(), blocks: HashMap::new() };
        for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".tf")) {
            let body = crate::hcl::parse_body(text).body;
            let fi = s.parsed.len();
            for (ii, item) in body.items.iter().enumerate() {
                if let Item::Block(b) = item {
                    if let [t, n] = b.labels.as_slice() {
                        if matches!(b.kind.name, "resource" | "data" | "ephemeral") {
                            // The first block wins, as the loader reports a duplicate.
                            s.blocks.entry((fi, b.kind.name, label(text, t), label(text, n))).or_insert(ii);
                        }
                    }
                }
            }
            s.by_name.insert(name.as_str(), fi);
            s.parsed.push(ParsedFile { name, text, body, lines: SourceFile::new(name.clone(), text.clone()) });
        }
        s
    }

    /// The parsed file a source range names (ranges name files relative to their module's
    /// folder in some loads, so a path suffix matches too).
    pub fn file(&self, filename: &str) -> Option<&ParsedFile<'a>> {
        if let Some(&i) = self.by_name.get(filename) {
            return Some(&self.parsed[i]);
        }
        let (k, _) = self.files.iter().find(|(k, _)| k.ends_with(&format!("/{filename}")) || filename.ends_with(&format!("/{k}")))?;
        self.by_name.get(k.as_str()).map(|&i| &self.parsed[i])
    }

    /// The block of resource `r`, and its file.
    pub fn resource_block(&self, r: &Resource) -> Option<(&ParsedFile<'a>, &Block<'a>)> {
        let file = self.file(&r.range.filename)?;
        let fi = self.by_name[file.name];
        let kind = match r.mode {
            crate::addrs::ResourceMode::Managed => "resource",
            crate::addrs::ResourceMode::Data => "data",
            crate::addrs::ResourceMode::Ephemeral => "ephemeral",
        };
        let &ii = self.blocks.get(&(fi, kind, r.type_name.as_str(), r.name.as_str()))?;
        match &file.body.items[ii] {
            Item::Block(b) => Some((file, b)),
            Item::Attr(_) => None,
        }
    }
}

impl<'a> Sources<'a> {
    /// The block of provider configuration `pc` (found by where its header starts).
    pub fn provider_block(&self, pc: &crate::config::model::ProviderConfig) -> Option<(&ParsedFile<'a>, &Block<'a>)> {
        let file = self.file(&pc.range.filename)?;
        file.body.items.iter().find_map(|it| match it {
            Item::Block(b) if b.kind.name == "provider" && b.span.start == pc.range.start.byte as usize => Some((file, b)),
            _ => None,
        })
    }
}

/// A block label's text: the label's value when it borrows the file, else its source text
/// without the quotes (only an escaped label, which a resource name cannot be, differs).
fn label<'a>(text: &'a str, l: &crate::hcl::ast::Label<'a>) -> &'a str {
    match &l.value {
        std::borrow::Cow::Borrowed(s) => s,
        std::borrow::Cow::Owned(_) => text.get(l.span.start + 1..l.span.end.saturating_sub(1)).unwrap_or(""),
    }
}
