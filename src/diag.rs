//! Diagnostics in Terraform's JSON shape (`internal/command/views/json/diagnostic.go`).
//!
//! Every stage returns its output together with a [`Diagnostics`] list instead of failing on
//! the first problem, so warnings travel with errors and the page can show a partial result.
//! Positions follow HCL: 1-based line, 1-based column counted in Unicode scalar values, and a
//! 0-based byte offset into the file's UTF-8 text.

use serde::Serialize;
use std::fmt;

/// How bad a diagnostic is. Serialized as Terraform does: `"error"` / `"warning"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One position in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

/// A span of a source file: Terraform's `range` object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceRange {
    pub filename: String,
    pub start: Pos,
    pub end: Pos,
}

/// The struct names of [`Pos`] and [`SourceRange`]: statics, so that every object of one
/// has the same name address (the tape keys its shapes by it).
pub(crate) static POS_NAME: &str = "Pos";
pub(crate) static RANGE_NAME: &str = "SourceRange";
/// The name under which a range reaches a serializer that is not human-readable (the tape,
/// `bindings::tape`): a tuple struct of the file name and the six numbers, which the tape
/// writes as the same `{filename, start: {line, column, byte}, end: {...}}` without a serde
/// call per key (a quarter of the tape's time was ranges: bench/RESULTS.md, #28).
pub(crate) const RANGE_TUPLE: &str = "tfgraph::diag::SourceRange";

impl Serialize for Pos {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct(POS_NAME, 3)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.serialize_field("byte", &self.byte)?;
        st.end()
    }
}

impl Serialize for SourceRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeStruct, SerializeTupleStruct};
        if s.is_human_readable() {
            let mut st = s.serialize_struct(RANGE_NAME, 3)?;
            st.serialize_field("filename", &self.filename)?;
            st.serialize_field("start", &self.start)?;
            st.serialize_field("end", &self.end)?;
            return st.end();
        }
        let mut t = s.serialize_tuple_struct(RANGE_TUPLE, 7)?;
        t.serialize_field(self.filename.as_str())?;
        for n in [self.start.line, self.start.column, self.start.byte, self.end.line, self.end.column, self.end.byte] {
            t.serialize_field(&n)?;
        }
        t.end()
    }
}

impl fmt::Display for SourceRange {
    /// `main.tf:3,5-17` (same line) or `main.tf:3,5-4,2`: HCL's `Range.String()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start.line == self.end.line {
            write!(f, "{}:{},{}-{}", self.filename, self.start.line, self.start.column, self.end.column)
        } else {
            write!(
                f,
                "{}:{},{}-{},{}",
                self.filename, self.start.line, self.start.column, self.end.line, self.end.column
            )
        }
    }
}

/// The source line a diagnostic points at, as Terraform's `snippet` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snippet {
    /// The enclosing block header (`resource "aws_instance" "web"`), when known.
    pub context: Option<String>,
    /// The full source line(s) the range starts on.
    pub code: String,
    pub start_line: u32,
    /// Byte offsets of the highlighted part within `code`.
    pub highlight_start_offset: u32,
    pub highlight_end_offset: u32,
    /// Expression values; always empty here (nothing is evaluated while loading).
    pub values: Vec<serde_json::Value>,
}

/// What a diagnostic says caused it, which decides what the values under its snippet show
/// (Terraform's `DiagnosticCausedByUnknown` / `DiagnosticCausedBySensitive` extras): unknown
/// values are named as such, and sensitive ones at all, only when they are the cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CausedBy {
    Other,
    Unknown,
    Sensitive,
}

/// One problem found in the user's input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<SourceRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<Snippet>,
    /// An evaluation error's values of the expression that failed (Terraform's `Expression`
    /// and `EvalContext`), until its snippet is attached and shows them; `Some` once taken,
    /// even empty, so that an outer evaluation keeps the inner one's.
    #[serde(skip)]
    pub values: Option<Vec<serde_json::Value>>,
}

impl Diagnostic {
    pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(Severity::Error, summary, detail)
    }

    pub fn warning(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(Severity::Warning, summary, detail)
    }

    fn new(severity: Severity, summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            summary: summary.into(),
            detail: detail.into(),
            address: None,
            range: None,
            snippet: None,
            values: None,
        }
    }

    pub fn with_range(mut self, range: SourceRange) -> Self {
        self.range = Some(range);
        self
    }

    pub fn with_address(mut self, address: impl Into<String>) -> Self {
        self.address = Some(address.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// Terraform's CLI rendering without colour: `Error: summary`, the location, then the detail.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        write!(f, "{label}: {}", self.summary)?;
        if let Some(range) = &self.range {
            write!(f, "\n\n  on {} line {}", range.filename, range.start.line)?;
        }
        if !self.detail.is_empty() {
            write!(f, "\n\n{}", self.detail)?;
        }
        Ok(())
    }
}

/// An ordered list of diagnostics; the return companion of every stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, diag: Diagnostic) {
        self.0.push(diag);
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// A source file with a line index, turning byte spans into [`SourceRange`]s.
///
/// Built once per file; each lookup is a binary search over line starts, O(log lines),
/// plus a scan of the line for the column.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Per line: whether it is pure ASCII, so a column is a byte difference (no scan of long
    /// lines such as minified `.tf.json`, which would make many lookups quadratic). Empty when
    /// the whole file is ASCII, as most are.
    line_ascii: Vec<bool>,
}

/// The offset of every line's first byte. Newlines are looked for eight bytes at a time (most
/// words of a configuration hold none): this runs once over every loaded file.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Configuration lines average a few dozen bytes: one allocation for most files.
    let mut starts = Vec::with_capacity(bytes.len() / 24 + 2);
    starts.push(0);
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ (ONES * u64::from(b'\n'));
        // High bit set in each byte that was a newline (and maybe in a byte right after one,
        // which the check below rules out): "Bit Twiddling Hacks", `haszero`.
        let mut zeros = word.wrapping_sub(ONES) & !word & HIGH;
        while zeros != 0 {
            let k = (zeros.trailing_zeros() / 8) as usize;
            if chunk[k] == b'\n' {
                starts.push(at + k + 1);
            }
            zeros &= zeros - 1;
        }
        at += 8;
    }
    for (k, &b) in chunks.remainder().iter().enumerate() {
        if b == b'\n' {
            starts.push(at + k + 1);
        }
    }
    starts
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let bytes = text.as_bytes();
        let line_starts = line_starts(bytes);
        let line_ascii = if text.is_ascii() {
            Vec::new()
        } else {
            let ends = line_starts[1..].iter().copied().chain([bytes.len()]);
            line_starts.iter().zip(ends).map(|(&start, end)| bytes[start..end].is_ascii()).collect()
        };
        SourceFile { name: name.into(), text, line_starts, line_ascii }
    }

    /// The position of a byte offset (clamped to the file, and to a char boundary).
    pub fn pos(&self, byte: usize) -> Pos {
        let byte = self.boundary(byte);
        let line = self.line_starts.partition_point(|&start| start <= byte) - 1;
        self.pos_on(line, byte)
    }

    /// `byte` clamped to the text and rounded down to a character boundary.
    fn boundary(&self, byte: usize) -> usize {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }

    /// The position of `byte` (a boundary) on 0-based line `line`.
    fn pos_on(&self, line: usize, byte: usize) -> Pos {
        let start = self.line_starts[line];
        let ascii = self.line_ascii.get(line).copied().unwrap_or(true);
        let column = if ascii { byte - start } else { self.text[start..byte].chars().count() } + 1;
        Pos { line: (line + 1) as u32, column: column as u32, byte: byte as u32 }
    }

    /// The range of a byte span.
    pub fn range(&self, span: std::ops::Range<usize>) -> SourceRange {
        let start = self.pos(span.start);
        // Most ranges end on the line they start on: no second search then.
        let line = start.line as usize - 1;
        let byte = self.boundary(span.end);
        let end = if byte >= start.byte as usize && self.line_starts.get(line + 1).is_none_or(|&next| byte < next) {
            self.pos_on(line, byte)
        } else {
            self.pos(span.end)
        };
        SourceRange { filename: self.name.clone(), start, end }
    }

    /// Terraform's `snippet` for a range of this file: the source line(s) and the highlight.
    pub fn snippet(&self, range: &SourceRange, context: Option<String>) -> Snippet {
        let first = (range.start.line.max(1) - 1) as usize;
        let last = ((range.end.line.max(range.start.line)).max(1) - 1) as usize;
        let code_start = self.line_starts[first.min(self.line_starts.len() - 1)];
        let code_end =
            self.line_starts.get(last + 1).map(|&s| s.saturating_sub(1)).unwrap_or(self.text.len()).max(code_start);
        let code = self.text[code_start..code_end].trim_end_matches('\r').to_string();
        let hs = (range.start.byte as usize).saturating_sub(code_start).min(code.len());
        let he = (range.end.byte as usize).saturating_sub(code_start).min(code.len()).max(hs);
        Snippet {
            context,
            code,
            start_line: range.start.line,
            highlight_start_offset: hs as u32,
            highlight_end_offset: he as u32,
            values: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_lines_and_char_columns() {
        let f = SourceFile::new("main.tf", "a = 1\nbé = \"x\"\n");
        assert_eq!(f.pos(0), Pos { line: 1, column: 1, byte: 0 });
        assert_eq!(f.pos(6), Pos { line: 2, column: 1, byte: 6 });
        // "bé" is 3 bytes; the space after it is column 3.
        assert_eq!(f.pos(9), Pos { line: 2, column: 3, byte: 9 });
        // Past the end clamps; inside a multi-byte char rounds down.
        assert_eq!(f.pos(1000).byte as usize, f.text.len());
        assert_eq!(f.pos(8), Pos { line: 2, column: 2, byte: 7 });
    }

    /// `range`'s same-line shortcut gives what two `pos` calls give, for every span (inverted,
    /// past the end, inside a multi-byte character, across and at line ends).
    #[test]
    fn range_is_two_positions() {
        let f = SourceFile::new("main.tf", "a = 1\nbé = \"x\"\n\n  z\n");
        let n = f.text.len() + 2;
        for start in 0..n {
            for end in 0..n {
                let r = f.range(start..end);
                assert_eq!((r.start, r.end), (f.pos(start), f.pos(end)), "{start}..{end}");
            }
        }
    }

    #[test]
    fn line_starts_at_every_offset() {
        for len in 0..40 {
            for step in 1..9 {
                let text: Vec<u8> = (0..len)
                    .map(|i| if i % step == step - 1 { b'\n' } else { [b'a', 0x0b, 0x09, 0x8a][i % 4] })
                    .collect();
                let want: Vec<usize> = std::iter::once(0)
                    .chain(text.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1))
                    .collect();
                assert_eq!(line_starts(&text), want, "{text:?}");
            }
        }
    }

    #[test]
    fn range_display_matches_hcl() {
        let f = SourceFile::new("main.tf", "abc\ndef\n");
        assert_eq!(f.range(0..3).to_string(), "main.tf:1,1-4");
        assert_eq!(f.range(1..5).to_string(), "main.tf:1,2-2,2");
    }

    #[test]
    fn snippet_highlights_the_range_on_its_line() {
        let f = SourceFile::new("main.tf", "x = 1\ny = bad.ref\n");
        let r = f.range(10..17);
        let s = f.snippet(&r, None);
        assert_eq!(s.code, "y = bad.ref");
        assert_eq!(s.start_line, 2);
        assert_eq!(&s.code[s.highlight_start_offset as usize..s.highlight_end_offset as usize], "bad.ref");
    }

    #[test]
    fn diagnostic_json_has_terraform_shape() {
        let f = SourceFile::new("main.tf", "x\n");
        let d = Diagnostic::error("Bad", "Worse").with_range(f.range(0..1));
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["severity"], "error");
        assert_eq!(json["range"]["filename"], "main.tf");
        assert_eq!(json["range"]["start"]["line"], 1);
        assert_eq!(json["range"]["end"]["column"], 2);
        assert!(json.get("address").is_none());
    }
}
