//! Invariants every [`tfgraph::config::load`] result must hold, whatever the input.
//!
//! Shared by the fuzz target (`fuzz_targets/load_config.rs`) and `tests/config_hostile.rs`
//! (both include this file with `#[path]`). Every source range anywhere in the result (each
//! diagnostic's, and every `range` object in the serialized configuration) must name one of the
//! given files and lie inside it, with 1-based lines and columns that agree with its 0-based byte
//! offset (`diag.rs`: columns count Unicode scalar values), and start no later than it ends.

#![allow(dead_code)]

use std::collections::BTreeMap;
use tfgraph::config::Loaded;
use tfgraph::diag::SourceRange;

/// `(line, column)` of a byte offset: 1-based, the column counted in Unicode scalar values.
/// `None` when the offset is past the end or inside a UTF-8 sequence.
pub fn line_column(text: &str, byte: usize) -> Option<(u32, u32)> {
    if byte > text.len() || !text.is_char_boundary(byte) {
        return None;
    }
    let before = &text[..byte];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = 1 + before[line_start..].chars().count();
    Some((line as u32, column as u32))
}

fn check_pos(text: &str, what: &str, line: u32, column: u32, byte: u32) -> Result<(), String> {
    if line < 1 || column < 1 {
        return Err(format!(
            "{what}: line {line}, column {column} must both be >= 1"
        ));
    }
    match line_column(text, byte as usize) {
        None => Err(format!(
            "{what}: byte {byte} is outside the file ({} bytes) or not on a character boundary",
            text.len()
        )),
        Some((l, c)) if (l, c) != (line, column) => Err(format!(
            "{what}: line {line}, column {column} disagree with byte {byte}, which is at line {l}, column {c}"
        )),
        Some(_) => Ok(()),
    }
}

/// Checks one range against the files.
pub fn check_range(
    files: &BTreeMap<String, String>,
    range: &SourceRange,
    what: &str,
) -> Result<(), String> {
    let Some(text) = files.get(&range.filename) else {
        return Err(format!(
            "{what}: range names {:?}, which is not one of the given files",
            range.filename
        ));
    };
    let (s, e) = (&range.start, &range.end);
    check_pos(
        text,
        &format!("{what} ({range}) start"),
        s.line,
        s.column,
        s.byte,
    )?;
    check_pos(
        text,
        &format!("{what} ({range}) end"),
        e.line,
        e.column,
        e.byte,
    )?;
    if s.byte > e.byte {
        return Err(format!(
            "{what} ({range}): starts at byte {} after it ends at byte {}",
            s.byte, e.byte
        ));
    }
    Ok(())
}

fn ranges_in_json(
    value: &serde_json::Value,
    path: &mut String,
    out: &mut Vec<(String, SourceRange)>,
) {
    match value {
        serde_json::Value::Object(map) => {
            if let (Some(f), Some(s), Some(e)) =
                (map.get("filename"), map.get("start"), map.get("end"))
            {
                let pos = |p: &serde_json::Value| tfgraph::diag::Pos {
                    line: p["line"].as_u64().unwrap_or(0) as u32,
                    column: p["column"].as_u64().unwrap_or(0) as u32,
                    byte: p["byte"].as_u64().unwrap_or(u32::MAX as u64) as u32,
                };
                let range = SourceRange {
                    filename: f.as_str().unwrap_or("").to_string(),
                    start: pos(s),
                    end: pos(e),
                };
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
    for (i, d) in loaded.diagnostics.0.iter().enumerate() {
        let what = format!("diagnostic {i} ({:?}: {:?})", d.severity, d.summary);
        if let Some(range) = &d.range {
            check_range(files, range, &what)?;
        }
        if let Some(sn) = &d.snippet {
            if sn.start_line < 1 {
                return Err(format!("{what}: snippet start_line {} < 1", sn.start_line));
            }
            let (hs, he) = (
                sn.highlight_start_offset as usize,
                sn.highlight_end_offset as usize,
            );
            if hs > he || he > sn.code.len() {
                return Err(format!(
                    "{what}: snippet highlight {hs}..{he} is not inside its code ({} bytes)",
                    sn.code.len()
                ));
            }
        }
    }
    let json = serde_json::to_value(&loaded.config)
        .map_err(|e| format!("config does not serialize: {e}"))?;
    let mut found = Vec::new();
    ranges_in_json(&json, &mut String::from("config"), &mut found);
    for (path, range) in &found {
        check_range(files, range, path)?;
    }
    Ok(())
}
