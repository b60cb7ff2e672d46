//! The configuration's `.tf` files as the loader parsed them (`config::kept`), with each
//! resource block found by its header.
//!
//! The engine reads blocks again beside the evaluated values (the plan JSON's expressions,
//! globalref's references): every consumer looks them up here, in the trees the loader kept,
//! so nothing is parsed twice.

use crate::config::model::{Config, Resource};
use crate::hcl::ast::{Block, Body, Item};
use std::collections::HashMap;

/// One parsed file: its name, text and syntax tree.
pub struct ParsedFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub body: &'a Body<'a>,
}

/// Every native-syntax file of the configuration, parsed, and an index of resource blocks.
pub struct Sources<'a> {
    parsed: Vec<ParsedFile<'a>>,
    by_name: HashMap<&'a str, usize>,
    /// (file index, kind, type, name) → item index in that file's body.
    blocks: HashMap<(usize, &'a str, &'a str, &'a str), usize>,
}

impl<'a> Sources<'a> {
    /// Indexes the trees of every module's native files. Complexity: linear in their top-level
    /// blocks.
    pub fn new(config: &'a Config) -> Sources<'a> {
        let mut s = Sources { parsed: Vec::new(), by_name: HashMap::new(), blocks: HashMap::new() };
        for file in config.modules().into_iter().flat_map(|m| m.syntax.iter()) {
            let (name, text, body) = (file.source().name.as_str(), file.source().text.as_str(), file.body());
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
            s.by_name.insert(name, fi);
            s.parsed.push(ParsedFile { name, text, body });
        }
        s
    }

    /// The parsed file a source range names.
    pub fn file(&self, filename: &str) -> Option<&ParsedFile<'a>> {
        self.by_name.get(filename).map(|&i| &self.parsed[i])
    }

    /// The block of resource `r`, and its file.
    pub fn resource_block(&self, r: &Resource) -> Option<(&ParsedFile<'a>, &Block<'a>)> {
        let file = self.file(&r.range.filename)?;
        let fi = self.by_name[file.name];
        let kind = r.mode.block_type();
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
            Item::Block(b) if b.kind.name == "provider" && b.span.start == pc.range.start.byte as usize => {
                Some((file, b))
            }
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
