//! HCL's native syntax: a scanner and a recursive-descent parser that build [`ast`] trees with
//! byte spans, and report syntax errors in HCL's own words (`hclsyntax`).
//!
//! Why our own parser: tfgraph needs spans and structure, not a format-preserving tree; the
//! parse is the hot path of loading. Nesting is bounded ([`MAX_DEPTH`]), so hostile input gets a
//! diagnostic, never a stack overflow.
//!
//! ```text
//!   lexer.rs     bytes → tokens (hclsyntax's scan_tokens.rl): code, quoted, heredoc and bare
//!                template modes on an explicit stack; unicode.rs: identifier characters
//!   parser.rs    tokens → bodies and expressions (parser.go), recovery included
//!   template.rs  quoted strings, heredocs, bare templates (parser_template.go)
//!   messages.rs  every error text; render.rs: one canonical text of a tree
//!   continuation.rs  whether console input leaves a delimiter open (the console reads on)
//! ```
//!
//! # Fidelity
//!
//! The parser follows hclsyntax step for step, including its recovery (skip to the end of the
//! broken body item, or to the closing bracket) and its habit of reporting fewer errors once it
//! has recovered once. Error texts and subjects are those of the HCL inside Terraform 1.15
//! (hclsyntax v2.24.0). Most were observed with `terraform validate` of Terraform 1.0.3 (v2.10.1)
//! and did not change since; what v2.24.0 added is taken from its source
//! (`tests/hcl_syntax_errors.rs` marks which is which): the end of the file inside a block, an
//! object, a tuple, a call or an interpolation is reported at the opening bracket ("Unclosed
//! configuration block", "Unterminated … expression", …), a missing expression at the end of the
//! file is "Missing expression", and `provider::ns::fn()` calls parse.
//!
//! What the tree keeps, and what it leaves to its reader:
//!
//! * Literal text has its escapes decoded and `~` strip markers applied (as HCL applies them:
//!   to the one literal token next to the marker, which in a heredoc is that line). A `<<-`
//!   heredoc's literals keep their indentation ([`ast::Heredoc::strip_indent`]).
//! * `"${x}"` is a template with one interpolation part; HCL evaluates it to `x` itself
//!   (unconverted), which is the evaluator's business.
//! * Where an expression could not be parsed, the tree holds a `null` placeholder spanning the
//!   offending token (HCL puts an unknown value there); the errors say why.
//! * A redefined attribute is reported and left out of its body, as in HCL.
//! * Numbers are `f64` (HCL's are arbitrary precision), with the exact `i64` of whole literals.
//! * A namespaced function name is the source text from its first to its last part.
//!
//! Empty subjects (at the end of the file) stay empty here; like Terraform's JSON, the loader's
//! diagnostics widen them by one column (`config::expr::syntax_error_diag`).

pub mod ast;
mod continuation;
mod lexer;
pub(crate) mod messages;
mod parser;
pub mod render;
mod template;
mod unicode;

pub use continuation::expression_could_continue;
use lexer::{Start, Tk, Token};
use parser::Parser;

/// Deepest nesting of brackets, blocks, templates and operator trees accepted: each nested
/// expression (inside brackets, parentheses, an interpolation, a conditional's branches, a
/// `for`), block, unary operator, binary operator fold (the operator tree's height) and template
/// directive takes one level. Deeper input gets "Expression too deeply nested".
pub const MAX_DEPTH: usize = 256;

/// A syntax error in HCL's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub summary: &'static str,
    pub detail: String,
    /// Where HCL points (its `Subject`).
    pub span: std::ops::Range<usize>,
    /// A second range of the same file that HCL names inside `detail` (`main.tf:2,3-4`): the
    /// first definition of a redefined attribute, the opening directive of an unclosed
    /// `%{if}`. `detail` then holds the marker `{at}` in its place, since only the caller
    /// knows the file name: render it with [`SyntaxError::detail_with`].
    pub at: Option<std::ops::Range<usize>>,
}

impl SyntaxError {
    /// The detail with `{at}` replaced by `render(at)` (the range as HCL prints it).
    pub fn detail_with(&self, render: impl FnOnce(std::ops::Range<usize>) -> String) -> String {
        match &self.at {
            Some(at) => self.detail.replacen(messages::AT, &render(at.clone()), 1),
            None => self.detail.clone(),
        }
    }
}

/// A parsed file: what could be parsed, and every error found (HCL recovers after a broken
/// body item and goes on).
#[derive(Debug, Default)]
pub struct Parsed<'s> {
    pub body: ast::Body<'s>,
    pub errors: Vec<SyntaxError>,
}

/// Parse a whole file (a body). Errors come in HCL's order: the scanner's (invalid characters,
/// multi-line strings), then the parser's.
pub fn parse_body(src: &str) -> Parsed<'_> {
    let Some((toks, flagged)) = scan(src, Start::Code) else {
        return Parsed { body: ast::Body::default(), errors: vec![too_large(src)] };
    };
    let mut errors = if flagged { invalid_tokens(src, &toks) } else { Vec::new() };
    let mut p = Parser::new(src, toks, true);
    let body = p.body(Tk::Eof);
    errors.append(&mut p.errors);
    recycle(p.toks);
    Parsed { body, errors }
}

/// Parse `src` as exactly one expression (as in a JSON string read as a traversal, or a
/// count/for_each source text). Newlines are insignificant; surrounding white space is fine.
/// The error is the first HCL reports.
pub fn parse_expr(src: &str) -> Result<ast::Expr<'_>, SyntaxError> {
    let Some((toks, flagged)) = scan(src, Start::Code) else { return Err(too_large(src)) };
    let mut errors = if flagged { invalid_tokens(src, &toks) } else { Vec::new() };
    let mut p = Parser::new(src, toks, false);
    let expr = p.expr();
    let next = p.peek();
    if next.kind != Tk::Eof && !p.recovery {
        p.error(messages::EXTRA_AFTER_EXPRESSION, next.span());
    }
    errors.append(&mut p.errors);
    recycle(p.toks);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(expr),
    }
}

/// Parse `src` as a bare template (no quotes), as HCL reads a JSON string in an expression
/// position: `${}` / `%{}` sequences and the `$${` / `%%{` escapes, no backslash escapes.
pub fn parse_template(src: &str) -> Result<ast::Template<'_>, SyntaxError> {
    let Some((toks, flagged)) = scan(src, Start::Template) else { return Err(too_large(src)) };
    let mut errors = if flagged { invalid_tokens(src, &toks) } else { Vec::new() };
    let mut p = Parser::new(src, toks, true);
    let template = p.template(Tk::Eof);
    errors.append(&mut p.errors);
    recycle(p.toks);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(template),
    }
}

/// Token offsets are `u32`: texts of 4 GiB and more are refused. The token buffer is reused
/// from one parse to the next (a thread-local), as allocating and first touching it was a
/// noticeable part of a parse.
fn scan(src: &str, start: Start) -> Option<(Vec<Token>, bool)> {
    if src.len() >= u32::MAX as usize {
        return None;
    }
    let mut toks = TOKENS.with(|t| t.take());
    toks.clear();
    toks.reserve(src.len() / 5 + 16);
    let flagged = lexer::scan(src, start, &mut toks);
    Some((toks, flagged))
}

thread_local! {
    static TOKENS: std::cell::Cell<Vec<Token>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Give the token buffer back for the next parse (unless it grew beyond 1 Mi tokens, 12 MB).
fn recycle(toks: Vec<Token>) {
    if toks.capacity() <= 1 << 20 {
        TOKENS.with(|t| t.set(toks));
    }
}

fn too_large(src: &str) -> SyntaxError {
    SyntaxError {
        summary: "File too large",
        detail: "Files of 4 GiB or more are not supported.".to_string(),
        span: 0..src.len().min(1),
        at: None,
    }
}

/// The scanner's errors (hclsyntax's `checkInvalidTokens`), with its limits on repeats.
fn invalid_tokens(src: &str, toks: &[Token]) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let (mut bitwise, mut backtick, mut apostrophe, mut semicolon) = (0, 0, 0, 0);
    for t in toks {
        let m = match t.kind {
            Tk::BitAnd | Tk::BitOr | Tk::BitXor | Tk::BitNot => {
                if bitwise >= 4 {
                    continue;
                }
                bitwise += 1;
                match t.kind {
                    Tk::BitAnd => messages::BITWISE_AND,
                    Tk::BitOr => messages::BITWISE_OR,
                    Tk::BitNot => messages::BITWISE_NOT,
                    _ => messages::BITWISE_XOR,
                }
            }
            Tk::Backtick => {
                let report = backtick % 2 == 0;
                if backtick <= 2 {
                    backtick += 1;
                }
                if !report {
                    continue;
                }
                messages::BACKTICK
            }
            Tk::Apostrophe => {
                let report = apostrophe % 2 == 0;
                if apostrophe <= 2 {
                    apostrophe += 1;
                }
                if !report {
                    continue;
                }
                messages::APOSTROPHE
            }
            Tk::Semicolon => {
                if semicolon >= 1 {
                    continue;
                }
                semicolon += 1;
                messages::SEMICOLON
            }
            Tk::QuotedNewline => messages::QUOTED_NEWLINE,
            Tk::Invalid => match &src[t.span()] {
                "\u{201c}" | "\u{201d}" => messages::CURLY_QUOTE,
                _ => messages::INVALID_CHARACTER,
            },
            _ => continue,
        };
        out.push(SyntaxError { summary: m.0, detail: m.1.to_string(), span: t.span(), at: None });
    }
    out
}
