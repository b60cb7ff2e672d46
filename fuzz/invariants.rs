//! Invariants every [`tfgraph::config::load`] result must hold, whatever the input.
//!
//! Shared by the fuzz target (`fuzz_targets/load_config.rs`) and `tests/config_hostile.rs`
//! (both include this file with `#[path]`). Every source range anywhere in the result (each
//! diagnostic's, and every `range` object in the serialized configuration) must name one of the
//! given files and lie inside it (or, widened as Terraform widens an empty range at the end of
//! a file, end one byte past it), with 1-based lines and columns that agree with its 0-based byte
//! offset (`diag.rs`: columns count Unicode scalar values), and start no later than it ends.

#![allow(dead_code)]

use std::collections::BTreeMap;
use tfgraph::config::Loaded;
use tfgraph::diag::SourceRange;

/// `(line, column)` of a byte offset: 1-based, the column counted in Unicode scalar values.
/// `None` when the offset is past the end or inside a UTF-8 sequence.
pub fn line_column(text: &str, byte: usize) -> Option<(u32, u32)> {
    Lines::new(text).line_column(byte)
}

/// A file's line starts, so that each position check is a binary search (not a scan: a 10 MB
/// file has ~100,000 ranges).
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    pub fn line_column(&self, byte: usize) -> Option<(u32, u32)> {
        if byte > self.text.len() || !self.text.is_char_boundary(byte) {
            return None;
        }
        let line = self.starts.partition_point(|&s| s <= byte) - 1;
        let column = 1 + self.text[self.starts[line]..byte].chars().count();
        Some((line as u32 + 1, column as u32))
    }
}

fn check_pos(lines: &Lines, what: &str, line: u32, column: u32, byte: u32) -> Result<(), String> {
    if line < 1 || column < 1 {
        return Err(format!("{what}: line {line}, column {column} must both be >= 1"));
    }
    match lines.line_column(byte as usize) {
        None => Err(format!(
            "{what}: byte {byte} is outside the file ({} bytes) or not on a character boundary",
            lines.text.len()
        )),
        Some((l, c)) if (l, c) != (line, column) => Err(format!(
            "{what}: line {line}, column {column} disagree with byte {byte}, which is at line {l}, column {c}"
        )),
        Some(_) => Ok(()),
    }
}

/// Line indexes of the given files, built on first use.
pub struct Files<'a> {
    files: &'a BTreeMap<String, String>,
    lines: BTreeMap<&'a str, Lines<'a>>,
}

impl<'a> Files<'a> {
    pub fn new(files: &'a BTreeMap<String, String>) -> Self {
        Files { files, lines: BTreeMap::new() }
    }

    /// Checks one range against the files.
    pub fn check_range(&mut self, range: &SourceRange, what: &str) -> Result<(), String> {
        let Some((name, text)) = self.files.get_key_value(&range.filename) else {
            return Err(format!("{what}: range names {:?}, which is not one of the given files", range.filename));
        };
        let lines = self.lines.entry(name.as_str()).or_insert_with(|| Lines::new(text));
        let (s, e) = (&range.start, &range.end);
        check_pos(lines, &format!("{what} ({range}) start"), s.line, s.column, s.byte)?;
        // Terraform's JSON widens an empty range at the very end of a file one byte past it.
        let widened_at_end =
            s.byte as usize == text.len() && e.byte == s.byte + 1 && (e.line, e.column) == (s.line, s.column + 1);
        if !widened_at_end {
            check_pos(lines, &format!("{what} ({range}) end"), e.line, e.column, e.byte)?;
        }
        if s.byte > e.byte {
            return Err(format!("{what} ({range}): starts at byte {} after it ends at byte {}", s.byte, e.byte));
        }
        Ok(())
    }
}

/// Checks one range against the files.
pub fn check_range(files: &BTreeMap<String, String>, range: &SourceRange, what: &str) -> Result<(), String> {
    Files::new(files).check_range(range, what)
}

fn ranges_in_json(value: &serde_json::Value, path: &mut String, out: &mut Vec<(String, SourceRange)>) {
    match value {
        serde_json::Value::Object(map) => {
            if let (Some(f), Some(s), Some(e)) = (map.get("filename"), map.get("start"), map.get("end")) {
                let pos = |p: &serde_json::Value| tfgraph::diag::Pos {
                    line: p["line"].as_u64().unwrap_or(0) as u32,
                    column: p["column"].as_u64().unwrap_or(0) as u32,
                    byte: p["byte"].as_u64().unwrap_or(u32::MAX as u64) as u32,
                };
                let range = SourceRange { filename: f.as_str().unwrap_or("").to_string(), start: pos(s), end: pos(e) };
                out.push((path.clone(), range));
                return;
            }
            for (k, v) in map {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                ranges_in_json(v, path, out);
                path.truncate(len);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                ranges_in_json(v, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Checks every range in a load result: diagnostics (and their snippets) and the configuration.
pub fn check(files: &BTreeMap<String, String>, loaded: &Loaded) -> Result<(), String> {
    let mut index = Files::new(files);
    for (i, d) in loaded.diagnostics.0.iter().enumerate() {
        let what = format!("diagnostic {i} ({:?}: {:?})", d.severity, d.summary);
        if let Some(range) = &d.range {
            index.check_range(range, &what)?;
        }
        if let Some(sn) = &d.snippet {
            if sn.start_line < 1 {
                return Err(format!("{what}: snippet start_line {} < 1", sn.start_line));
            }
            let (hs, he) = (sn.highlight_start_offset as usize, sn.highlight_end_offset as usize);
            if hs > he || he > sn.code.len() {
                return Err(format!(
                    "{what}: snippet highlight {hs}..{he} is not inside its code ({} bytes)",
                    sn.code.len()
                ));
            }
        }
    }
    let json = serde_json::to_value(&loaded.config).map_err(|e| format!("config does not serialize: {e}"))?;
    let mut found = Vec::new();
    ranges_in_json(&json, &mut String::from("config"), &mut found);
    for (path, range) in &found {
        index.check_range(range, path)?;
    }
    Ok(())
}
