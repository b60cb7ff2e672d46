//! Splitting very large object constructors for the parser, in place.

use super::guard::{find, skip_line, trim_ascii};

/// Objects with more items than this are split for the parser (see [`split_large_objects`]).
const SPLIT_THRESHOLD: usize = 2_000;
/// At most this many splits per object: hcl-edit accepts 128 chained binary operators on any
/// path through an expression, so some are left for the expression around the object.
const MAX_SPLITS: usize = 100;

#[derive(Clone, Copy, PartialEq, Eq)]
enum OFrame {
    /// An object constructor (`{` after `=`, `:`, `(`, `[`, `,` or an operator), by index.
    Object(usize),
    /// Any other brace, bracket or parenthesis.
    Code,
    Interp,
    Str,
    Heredoc(usize),
}

/// hcl-edit checks object keys for duplicates with a linear scan per key (quadratic in the
/// number of items). For objects with thousands of items this rewrites the text, keeping every
/// byte offset and line, so the object becomes a chain of smaller objects joined by `+`:
/// at an item boundary, the first three indentation characters of the next line become `}+{`.
/// The chain yields exactly the same references; the source text shown to users is the
/// original. Returns `None` when nothing needs splitting.
pub fn split_large_objects(text: &str) -> Option<String> {
    if text.len() < 32 * 1024 {
        return None;
    }
    let counts = scan_objects(text, None);
    if !counts.iter().any(|&c| c > SPLIT_THRESHOLD) {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    scan_objects(text, Some((&counts, &mut out)));
    String::from_utf8(out).ok()
}

/// One pass over `text` tracking object constructors. Without `patch`: returns the number of
/// items of each object, in order of their opening brace. With it: writes the splits.
fn scan_objects(text: &str, mut patch: Option<(&Vec<usize>, &mut Vec<u8>)>) -> Vec<usize> {
    let b = text.as_bytes();
    let mut stack: Vec<OFrame> = Vec::new();
    let mut heredocs: Vec<(usize, usize)> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    // Per open object: items since the last split, splits made, whether the current item has content.
    let mut state: Vec<(usize, usize, bool)> = Vec::new();
    let mut last_sig = b'\n';
    let mut i = 0;
    while i < b.len() {
        let top = stack.last().copied();
        match top {
            None | Some(OFrame::Object(_)) | Some(OFrame::Code) | Some(OFrame::Interp) => {
                let c = b[i];
                match c {
                    b'#' => {
                        i = skip_line(b, i);
                        continue;
                    }
                    b'/' if b.get(i + 1) == Some(&b'/') => {
                        i = skip_line(b, i);
                        continue;
                    }
                    b'/' if b.get(i + 1) == Some(&b'*') => {
                        i = find(b, i + 2, b"*/").map_or(b.len(), |j| j + 2);
                        continue;
                    }
                    b'"' => stack.push(OFrame::Str),
                    b'{' => {
                        let rest = &text[i + 1..];
                        let is_for = rest.trim_start().strip_prefix("for").is_some_and(|r| r.starts_with(|ch: char| ch.is_whitespace()));
                        let object = !is_for && matches!(last_sig, b'=' | b':' | b'(' | b'[' | b',' | b'?' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'!' | b'<' | b'>');
                        if object {
                            let idx = counts.len();
                            counts.push(0);
                            state.push((0, 0, false));
                            stack.push(OFrame::Object(idx));
                        } else {
                            stack.push(OFrame::Code);
                        }
                    }
                    b'(' | b'[' => stack.push(OFrame::Code),
                    b')' | b']' | b'}' => {
                        if let Some(OFrame::Object(idx)) = top {
                            if c == b'}' {
                                let (_, _, open) = state.pop().unwrap_or_default();
                                counts[idx] += usize::from(open);
                            }
                        }
                        if matches!(top, Some(OFrame::Object(_) | OFrame::Code | OFrame::Interp)) {
                            stack.pop();
                        }
                    }
                    b',' | b'\n' => {
                        if let Some(OFrame::Object(idx)) = top {
                            let st = state.last_mut().unwrap();
                            if st.2 {
                                counts[idx] += 1;
                                st.0 += 1;
                                st.2 = false;
                            }
                            if c == b'\n' {
                                if let Some((totals, out)) = patch.as_mut() {
                                    let total = totals[idx];
                                    let chunk = (total / (MAX_SPLITS + 1)).max(SPLIT_THRESHOLD / 2);
                                    if total > SPLIT_THRESHOLD && st.0 >= chunk && st.1 < MAX_SPLITS {
                                        let line = i + 1;
                                        let indent = b[line..].iter().take_while(|&&x| x == b' ' || x == b'\t').count();
                                        let next = b.get(line + indent).copied().unwrap_or(b'}');
                                        if indent >= 3 && next != b'}' && next != b',' && next != b'#' && next != b'/' {
                                            out[line..line + 3].copy_from_slice(b"}+{");
                                            st.0 = 0;
                                            st.1 += 1;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    b'<' if b.get(i + 1) == Some(&b'<') => {
                        let mut j = i + 2;
                        if b.get(j) == Some(&b'-') {
                            j += 1;
                        }
                        let start = j;
                        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'-') {
                            j += 1;
                        }
                        if j > start && b.get(j) == Some(&b'\n') {
                            heredocs.push((start, j));
                            stack.push(OFrame::Heredoc(heredocs.len() - 1));
                            mark_item(&stack, &mut state);
                            i = j + 1;
                            continue;
                        }
                    }
                    _ => {}
                }
                if !c.is_ascii_whitespace() {
                    last_sig = c;
                    if c != b',' && c != b'}' {
                        mark_item(&stack[..stack.len().saturating_sub(usize::from(matches!(c, b'"' | b'{' | b'(' | b'[')))], &mut state);
                    }
                }
                i += 1;
            }
            Some(OFrame::Str) => {
                match b[i] {
                    b'\\' => {
                        i += 2;
                        continue;
                    }
                    b'"' | b'\n' => {
                        stack.pop();
                        last_sig = b'"';
                    }
                    b'$' | b'%' if b.get(i + 1) == Some(&b'{') && !(i > 0 && b[i - 1] == b[i]) => {
                        stack.push(OFrame::Interp);
                        i += 2;
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
            Some(OFrame::Heredoc(h)) => {
                let line_end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                let (ms, me) = heredocs[h];
                if trim_ascii(&b[i..line_end]) == &b[ms..me] {
                    stack.pop();
                    last_sig = b'"';
                    i = line_end;
                    continue;
                }
                let mut j = i;
                let mut pushed = false;
                while j < line_end {
                    if (b[j] == b'$' || b[j] == b'%') && b.get(j + 1) == Some(&b'{') && !(j > i && b[j - 1] == b[j]) {
                        stack.push(OFrame::Interp);
                        i = j + 2;
                        pushed = true;
                        break;
                    }
                    j += 1;
                }
                if !pushed {
                    i = line_end + 1;
                }
            }
        }
    }
    counts
}

/// Content seen directly inside the innermost object (if the innermost frame is one).
fn mark_item(stack: &[OFrame], state: &mut [(usize, usize, bool)]) {
    if let (Some(OFrame::Object(_)), Some(st)) = (stack.last(), state.last_mut()) {
        st.2 = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_objects_are_split_in_place() {
        let mut text = String::from("locals {\n  m = {\n");
        for i in 0..5000 {
            text.push_str(&format!("    k{i} = \"${{var.v{i}}}\" # {{\n"));
        }
        text.push_str("  }\n  f = { for k in var.x : k => k }\n}\n");
        let out = split_large_objects(&text).expect("split");
        assert_eq!(out.len(), text.len());
        assert_eq!(out.lines().count(), text.lines().count());
        let splits = out.matches("}+{").count();
        assert!((2..=MAX_SPLITS).contains(&splits), "{splits}");
        assert!(hcl::edit::parser::parse_body(&out).is_ok());
        // Small files and small objects are left alone.
        assert!(split_large_objects("locals {\n  m = { a = 1 }\n}\n").is_none());
    }
}
