//! A cheap pre-scan of native syntax that finds runaway nesting before the recursive parser sees it.
//!
//! One linear pass over the bytes with an explicit stack (never recursion): brackets, braces,
//! parentheses, `${` / `%{` template sequences, quoted strings, heredocs and runs of unary
//! operators each count as one level. Comments are skipped. The scan only has to be right about
//! well-formed input; on malformed input it may stop early and leave the error to the parser.

/// Deepest nesting accepted. hcl-edit rejects more than 64 nested expression levels on its own
/// (with a parse error); this limit keeps anything far beyond that away from it and from us.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// Inside `(`, `[` or `{`: code.
    Code(u8),
    /// Inside `${` or `%{`: code closed by `}`.
    Interp,
    /// Inside a quoted string.
    Str,
    /// Inside a heredoc; the marker is looked up from `heredocs`.
    Heredoc(usize),
}

/// The byte offset where nesting first goes deeper than `limit`, if it does.
pub fn find_excessive_nesting(text: &str, limit: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut heredocs: Vec<(usize, usize)> = Vec::new(); // marker spans
    let mut i = 0;
    let mut unary_run = 0usize;
    // Open `%{ if }` / `%{ for }` directives; they nest templates inside templates.
    let mut directives = 0usize;
    while i < b.len() {
        if stack.is_empty() {
            directives = 0;
        }
        let top = stack.last().copied();
        match top {
            None | Some(Frame::Code(_)) | Some(Frame::Interp) => {
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
                        i = match find(b, i + 2, b"*/") {
                            Some(j) => j + 2,
                            None => b.len(),
                        };
                        continue;
                    }
                    b'"' => stack.push(Frame::Str),
                    b'(' | b'[' | b'{' => stack.push(Frame::Code(c)),
                    b')' | b']' => {
                        if matches!(top, Some(Frame::Code(_))) {
                            stack.pop();
                        }
                    }
                    b'}' => {
                        if matches!(top, Some(Frame::Code(_)) | Some(Frame::Interp)) {
                            stack.pop();
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
                        if j > start && (b.get(j) == Some(&b'\n') || (b.get(j) == Some(&b'\r') && b.get(j + 1) == Some(&b'\n'))) {
                            heredocs.push((start, j));
                            stack.push(Frame::Heredoc(heredocs.len() - 1));
                            i = if b[j] == b'\r' { j + 2 } else { j + 1 };
                            if stack.len() > limit {
                                return Some(start);
                            }
                            continue;
                        }
                    }
                    _ => {}
                }
                // Runs of prefix operators (`!!!!x`, `- - -x`) nest one level each in the parser.
                if c == b'!' || c == b'-' {
                    unary_run += 1;
                    if stack.len() + unary_run > limit {
                        return Some(i);
                    }
                } else if !c.is_ascii_whitespace() {
                    unary_run = 0;
                }
                i += 1;
            }
            Some(Frame::Str) => {
                match b[i] {
                    b'\\' => {
                        i += 2;
                        continue;
                    }
                    b'"' => {
                        stack.pop();
                    }
                    b'\n' => {
                        stack.pop();
                    }
                    b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                        if i > 0 && b[i - 1] == b[i] {
                            // `$${` and `%%{` are escapes.
                        } else {
                            directives = directive_change(b, i, directives);
                            stack.push(Frame::Interp);
                            i += 2;
                            if stack.len() + directives > limit {
                                return Some(i - 2);
                            }
                            continue;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            Some(Frame::Heredoc(h)) => {
                // At the start of a line: is it the closing marker?
                let line_end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                let line = &b[i..line_end];
                let trimmed = trim_ascii(line);
                let (ms, me) = heredocs[h];
                if trimmed == &b[ms..me] {
                    stack.pop();
                    i = line_end;
                    continue;
                }
                // Scan the line for template sequences; an interpolation may span lines, in
                // which case the code frame takes over and we resume in the heredoc afterwards.
                let mut j = i;
                let mut pushed = false;
                while j < line_end {
                    if (b[j] == b'$' || b[j] == b'%') && b.get(j + 1) == Some(&b'{') && !(j > i && b[j - 1] == b[j]) {
                        directives = directive_change(b, j, directives);
                        stack.push(Frame::Interp);
                        if stack.len() + directives > limit {
                            return Some(j);
                        }
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
        if stack.len() > limit {
            return Some(i.saturating_sub(1));
        }
    }
    None
}

/// The open-directive count after the template sequence starting at `at` (`%{` or `${`).
fn directive_change(b: &[u8], at: usize, open: usize) -> usize {
    if b[at] != b'%' {
        return open;
    }
    let mut j = at + 2;
    if b.get(j) == Some(&b'~') {
        j += 1;
    }
    while j < b.len() && b[j].is_ascii_whitespace() {
        j += 1;
    }
    let word_end = (j..b.len()).find(|&k| !b[k].is_ascii_alphabetic()).unwrap_or(b.len());
    match &b[j..word_end] {
        b"if" | b"for" => open + 1,
        b"endif" | b"endfor" => open.saturating_sub(1),
        _ => open,
    }
}

pub(super) fn skip_line(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p)
}

pub(super) fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from >= b.len() {
        return None;
    }
    b[from..].windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

pub(super) fn trim_ascii(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(s.len());
    let end = s.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |p| p + 1);
    &s[start..end.max(start)]
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_config_passes() {
        let text = "resource \"a\" \"b\" {\n  x = [for v in var.l : { k = \"${v}\" }]\n  y = <<EOT\n  ${a.b}\n%{ if true }x%{ endif }\nEOT\n  # comment (((\n  z = \"(((\"\n}\n";
        assert_eq!(find_excessive_nesting(text, 8), None);
    }

    #[test]
    fn each_kind_of_nesting_is_caught() {
        let n = 10_000;
        let cases = [
            format!("x = {}1{}", "(".repeat(n), ")".repeat(n)),
            format!("x = {}1{}", "[".repeat(n), "]".repeat(n)),
            format!("x = {}{}", "{a = ".repeat(n), "}".repeat(n)),
            format!("x = {}1", "!".repeat(n)),
            format!("x = {}1", "- ".repeat(n)),
            format!("x = {}{}", "\"${".repeat(n), "}\"".repeat(n)),
            format!("x = \"{}{}\"", "%{if true}".repeat(n), "%{endif}".repeat(n)),
            format!("x = {}", "<<EOT\n${".repeat(n)),
            format!("{}{}", "a {\n".repeat(n), "}\n".repeat(n)),
        ];
        for (i, text) in cases.iter().enumerate() {
            let at = find_excessive_nesting(text, MAX_DEPTH);
            assert!(at.is_some(), "case {i} not caught");
            assert!(at.unwrap() < text.len(), "case {i}");
        }
    }

    #[test]
    fn escapes_and_comments_do_not_count() {
        let text = format!("x = \"{}\"\n# {}\n/* {} */", "$${".repeat(500), "(".repeat(500), "[".repeat(500));
        assert_eq!(find_excessive_nesting(&text, MAX_DEPTH), None);
    }
}
