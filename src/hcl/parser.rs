//! The recursive-descent parser: tokens → [`ast`](super::ast) nodes, following hclsyntax's
//! `parser.go` step for step, recovery included, so that errors and partial trees match HCL's.
//!
//! Like HCL's token peeker, newlines are significant or not depending on the context (bodies
//! and object constructors see them; brackets, parentheses and templates do not); `nl` holds the
//! current setting and every construct restores it on the way out. Like HCL's parser, once a
//! recovery has happened (`recovery`), many later errors are no longer reported, since the
//! parser may be somewhere odd.
//!
//! Recursion is bounded by [`MAX_DEPTH`]: each expression nesting, unary operator, binary
//! operator fold (the height of the operator tree), block and template directive takes a level.

use super::ast::*;
use super::lexer::{Tk, Token};
use super::messages::{self as msg, Msg};
use super::{SyntaxError, MAX_DEPTH};
use std::borrow::Cow;

pub(super) struct Parser<'s> {
    pub src: &'s str,
    pub toks: Vec<Token>,
    /// Index of the next token to read (may point past the final `Eof` once it was read).
    pub pos: usize,
    /// Whether newline tokens are seen (else skipped).
    pub nl: bool,
    pub recovery: bool,
    /// The span of the last placeholder that stands for HCL's `ExprSyntaxError` (a reference
    /// ending in a dot, a broken namespaced function name): an object keeps such a value as an
    /// item even though it then skips the rest of its items.
    pub syntax_error: Option<Span>,
    pub depth: usize,
    pub errors: Vec<SyntaxError>,
    /// Spare buffers for templates' flat element lists (templates nest, so a few).
    pub flats: Vec<Vec<super::template::Flat<'s>>>,
}

/// The other bracket of a bracketing token (hclsyntax's `oppositeBracket`).
fn opposite(k: Tk) -> Option<Tk> {
    Some(match k {
        Tk::OBrace => Tk::CBrace,
        Tk::OBrack => Tk::CBrack,
        Tk::OParen => Tk::CParen,
        Tk::OQuote => Tk::CQuote,
        Tk::OHeredoc => Tk::CHeredoc,
        Tk::CBrace => Tk::OBrace,
        Tk::CBrack => Tk::OBrack,
        Tk::CParen => Tk::OParen,
        Tk::CQuote => Tk::OQuote,
        Tk::CHeredoc => Tk::OHeredoc,
        Tk::TemplateControl | Tk::TemplateInterp => Tk::TemplateSeqEnd,
        Tk::TemplateSeqEnd => Tk::TemplateInterp,
        _ => return None,
    })
}

fn binary_op(k: Tk) -> Option<(BinaryOp, u8)> {
    Some(match k {
        Tk::Or => (BinaryOp::Or, 0),
        Tk::And => (BinaryOp::And, 1),
        Tk::EqualOp => (BinaryOp::Eq, 2),
        Tk::NotEqual => (BinaryOp::NotEq, 2),
        Tk::Lt => (BinaryOp::Lt, 3),
        Tk::LtEq => (BinaryOp::LtEq, 3),
        Tk::Gt => (BinaryOp::Gt, 3),
        Tk::GtEq => (BinaryOp::GtEq, 3),
        Tk::Plus => (BinaryOp::Add, 4),
        Tk::Minus => (BinaryOp::Sub, 4),
        Tk::Star => (BinaryOp::Mul, 5),
        Tk::Slash => (BinaryOp::Div, 5),
        Tk::Percent => (BinaryOp::Mod, 5),
        _ => return None,
    })
}

/// The placeholder HCL puts where an expression could not be parsed.
pub(super) fn placeholder<'s>(span: Span) -> Expr<'s> {
    Expr { kind: ExprKind::Null, span }
}

/// The attribute names of one body, hashed once the body is large (small bodies are searched
/// directly: most have a handful of attributes, and this saves an allocation per body).
type Names<'s> = Option<crate::util::FastMap<&'s str, Span>>;

/// Bodies longer than this get a hash set of their attribute names.
const LINEAR_NAMES: usize = 24;

impl<'s> Parser<'s> {
    pub fn new(src: &'s str, toks: Vec<Token>, nl: bool) -> Self {
        Parser {
            src,
            toks,
            pos: 0,
            nl,
            recovery: false,
            syntax_error: None,
            depth: 0,
            errors: Vec::new(),
            flats: Vec::new(),
        }
    }

    // ---- the token peeker ---------------------------------------------------------------

    #[inline]
    fn peek_index(&self) -> usize {
        let last = self.toks.len() - 1;
        let mut i = self.pos.min(last);
        if !self.nl {
            while self.toks[i].kind == Tk::Newline {
                i += 1;
            }
        }
        i
    }

    /// The next token. The usual case (the token at `pos` is not a newline to skip) is inlined
    /// into the parser's ~60 callers: as calls, the peeker and `read` were 5.6% of
    /// `loadConfig`'s samples on generated-10k (bench/RESULTS.md, `loadspeed`).
    #[inline(always)]
    pub fn peek(&self) -> Token {
        match self.toks.get(self.pos) {
            Some(&t) if self.nl || t.kind != Tk::Newline => t,
            _ => self.peek_skipping(),
        }
    }

    #[inline(always)]
    pub fn read(&mut self) -> Token {
        match self.toks.get(self.pos) {
            Some(&t) if self.nl || t.kind != Tk::Newline => {
                self.pos += 1;
                t
            }
            _ => self.read_skipping(),
        }
    }

    /// [`Parser::peek`] past newlines, or at the end.
    #[inline(never)]
    fn peek_skipping(&self) -> Token {
        self.toks[self.peek_index()]
    }

    /// [`Parser::read`] past newlines, or at the end.
    #[inline(never)]
    fn read_skipping(&mut self) -> Token {
        let i = self.peek_index();
        self.pos = i + 1;
        self.toks[i]
    }

    /// The last token read (HCL's `PrevRange`).
    #[inline]
    pub fn prev(&self) -> Token {
        if self.pos == 0 {
            self.peek()
        } else {
            self.toks[self.pos.min(self.toks.len()) - 1]
        }
    }

    #[inline]
    pub fn text(&self, t: Token) -> &'s str {
        &self.src[t.span()]
    }

    #[inline]
    pub fn is_keyword(&self, t: Token, kw: &str) -> bool {
        t.kind == Tk::Ident && self.text(t) == kw
    }

    // ---- errors and recovery --------------------------------------------------------------

    pub fn error(&mut self, (summary, detail): Msg, span: Span) {
        self.errors.push(SyntaxError { summary, detail: detail.to_string(), span, at: None });
    }

    pub fn error_owned(&mut self, (summary, detail): (&'static str, String), span: Span, at: Option<Span>) {
        self.errors.push(SyntaxError { summary, detail, span, at });
    }

    /// Report nesting beyond [`MAX_DEPTH`] at `t` and enter recovery.
    pub fn too_deep(&mut self, t: Token) {
        self.error_owned(msg::too_deeply_nested(), t.span(), None);
        self.recovery = true;
    }

    /// Skip to the token after the `end` that closes the current bracket (HCL's `recover`).
    pub fn recover(&mut self, end: Tk) -> Token {
        let start = opposite(end);
        self.recovery = true;
        let mut nest = 0usize;
        loop {
            let t = self.read();
            let mut k = t.kind;
            if end == Tk::TemplateSeqEnd && k == Tk::TemplateControl {
                k = Tk::TemplateInterp;
            }
            if Some(k) == start {
                nest += 1;
            } else if k == end {
                if nest == 0 {
                    return t;
                }
                nest -= 1;
            } else if k == Tk::Eof {
                return t;
            }
        }
    }

    /// Skip to the next `start` bracket, then past its closing bracket (HCL's `recoverOver`).
    fn recover_over(&mut self, start: Tk) {
        loop {
            let t = self.read();
            if t.kind == start || t.kind == Tk::Eof {
                break;
            }
        }
        if let Some(end) = opposite(start) {
            self.recover(end);
        }
    }

    /// Skip to the end of the current body item: the next newline outside brackets
    /// (HCL's `recoverAfterBodyItem`).
    fn recover_after_body_item(&mut self) {
        self.recovery = true;
        let mut open: Vec<Tk> = Vec::new();
        loop {
            let t = self.read();
            match t.kind {
                Tk::Newline if open.is_empty() => break,
                Tk::Eof => break,
                Tk::OBrace
                | Tk::OBrack
                | Tk::OParen
                | Tk::OQuote
                | Tk::OHeredoc
                | Tk::TemplateInterp
                | Tk::TemplateControl => open.push(t.kind),
                Tk::CBrace | Tk::CBrack | Tk::CParen | Tk::CQuote | Tk::CHeredoc => {
                    let opener = opposite(t.kind);
                    while open.last().is_some_and(|&o| Some(o) != opener) {
                        open.pop();
                    }
                    open.pop();
                }
                Tk::TemplateSeqEnd => {
                    while open.last().is_some_and(|&o| o != Tk::TemplateInterp && o != Tk::TemplateControl) {
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }

    // ---- bodies -------------------------------------------------------------------------
    //
    // The functions on the recursion path (body → body_item → block → body, and expr → binary
    // → operand → term → tuple/object/… → expr) keep few locals: error reporting and node
    // building live in small `#[inline(never)]` helpers, so that even unoptimised builds nest
    // MAX_DEPTH levels deep in well under a 1 MiB stack.

    /// A body up to `end` (`Eof` for a file, `CBrace` for a block), `end` consumed.
    pub fn body(&mut self, end: Tk) -> Body<'s> {
        // HCL's `startRange`: the token before the body, a block's `{`.
        let start = self.prev();
        let mut items = Vec::new();
        let mut names: Names<'s> = None;
        loop {
            match self.peek().kind {
                k if k == end => {
                    self.read();
                    break;
                }
                Tk::Newline => {
                    self.read();
                }
                Tk::Ident => self.body_item(&mut items, &mut names),
                _ => {
                    self.bad_body_item(end, start);
                    break;
                }
            }
        }
        Body { items }
    }

    #[inline(never)]
    fn bad_body_item(&mut self, end: Tk, start: Token) {
        let bad = self.read();
        if !self.recovery {
            match bad.kind {
                Tk::OQuote => self.error(msg::INVALID_ARGUMENT_NAME, bad.span()),
                // hclsyntax v2.24.0 parser.go:96. (Its "Unclosed configuration body", for any
                // other `end`, cannot happen: a file's body ends at the end of the file.)
                Tk::Eof => self.error(msg::UNCLOSED_BLOCK, start.span()),
                _ => self.error(msg::ARGUMENT_OR_BLOCK_REQUIRED, bad.span()),
            }
        }
        self.recover(end);
    }

    fn body_item(&mut self, items: &mut Vec<Item<'s>>, names: &mut Names<'s>) {
        let ident = self.read();
        match self.peek().kind {
            Tk::Equal => {
                let a = self.attribute(ident, false);
                self.add_attribute(items, names, a);
            }
            Tk::OQuote | Tk::OBrace | Tk::Ident => {
                let b = self.block(ident);
                items.push(Item::Block(b));
            }
            _ => self.not_an_item(ident),
        }
    }

    #[inline(never)]
    fn not_an_item(&mut self, ident: Token) {
        self.recover_after_body_item();
        self.error(msg::ARGUMENT_OR_BLOCK_REQUIRED_EQUALS, ident.span());
    }

    #[inline(never)]
    fn add_attribute(&mut self, items: &mut Vec<Item<'s>>, names: &mut Names<'s>, a: Attribute<'s>) {
        let name = a.name.name;
        let first = match names {
            Some(map) => map.get(name).cloned(),
            None => items.iter().find_map(|i| match i {
                Item::Attr(x) if x.name.name == name => Some(x.name.span.clone()),
                _ => None,
            }),
        };
        if let Some(first) = first {
            self.error_owned(msg::attribute_redefined(name), a.name.span.clone(), Some(first));
            return;
        }
        match names {
            Some(map) => {
                map.insert(name, a.name.span.clone());
            }
            None if items.len() >= LINEAR_NAMES => {
                let map = items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Attr(x) => Some((x.name.name, x.name.span.clone())),
                        Item::Block(_) => None,
                    })
                    .chain(std::iter::once((name, a.name.span.clone())))
                    .collect();
                *names = Some(map);
            }
            None => {}
        }
        items.push(Item::Attr(a));
    }

    fn ident(&self, t: Token) -> Ident<'s> {
        Ident { name: self.text(t), span: t.span() }
    }

    fn attribute(&mut self, ident: Token, single_line: bool) -> Attribute<'s> {
        self.read(); // `=`
        let n = self.errors.len();
        let expr = self.expr();
        let failed = self.errors.len() > n;
        self.finish_attribute(ident, single_line, expr, failed)
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn finish_attribute(&mut self, ident: Token, single_line: bool, expr: Expr<'s>, failed: bool) -> Attribute<'s> {
        let end = self.prev().end;
        if self.recovery && failed {
            self.recover_after_body_item();
        } else if !single_line {
            let t = self.peek();
            if t.kind != Tk::Newline && t.kind != Tk::Eof {
                if !self.recovery {
                    let m = if t.kind == Tk::Comma {
                        msg::UNEXPECTED_COMMA_AFTER_ARGUMENT
                    } else {
                        msg::MISSING_NEWLINE_AFTER_ARGUMENT
                    };
                    self.error(m, t.span());
                }
                self.recover_after_body_item();
            } else {
                self.read();
            }
        }
        let start = ident.start as usize;
        Attribute { name: self.ident(ident), expr, span: start..(end as usize).max(start) }
    }

    fn block(&mut self, ident: Token) -> Block<'s> {
        let mut labels = Vec::new();
        let Some(obrace) = self.block_header(&mut labels) else { return self.broken_block(ident, labels) };
        let body = if self.depth >= MAX_DEPTH {
            self.too_deep_block(obrace)
        } else {
            self.depth += 1;
            let body = match self.peek().kind {
                Tk::Newline | Tk::Eof | Tk::CBrace => self.body(Tk::CBrace),
                _ => self.single_attribute_body(obrace),
            };
            self.depth -= 1;
            body
        };
        self.finish_block(ident, labels, obrace, body)
    }

    /// The labels up to `{`; `None` (after reporting and recovering) when no `{` comes.
    #[inline(never)]
    fn block_header(&mut self, labels: &mut Vec<Label<'s>>) -> Option<Token> {
        loop {
            let t = self.peek();
            match t.kind {
                Tk::OBrace => return Some(self.read()),
                Tk::OQuote => labels.push(self.quoted_label()),
                Tk::Ident => {
                    let t = self.read();
                    labels.push(Label { value: Cow::Borrowed(self.text(t)), span: t.span() });
                }
                _ => {
                    match t.kind {
                        Tk::Equal => self.error(msg::BLOCK_EQUALS, t.span()),
                        Tk::Newline => self.error(msg::BLOCK_NEWLINE, t.span()),
                        _ if !self.recovery => self.error(msg::BLOCK_LABEL_OR_BRACE, t.span()),
                        _ => {}
                    }
                    self.recover_after_body_item();
                    return None;
                }
            }
        }
    }

    #[inline(never)]
    fn broken_block(&mut self, ident: Token, labels: Vec<Label<'s>>) -> Block<'s> {
        Block {
            kind: self.ident(ident),
            labels,
            body: Body::default(),
            open_brace: ident.span(),
            close_brace: ident.span(),
            span: ident.span(),
        }
    }

    #[inline(never)]
    fn too_deep_block(&mut self, obrace: Token) -> Body<'s> {
        self.too_deep(obrace);
        self.recover(Tk::CBrace);
        Body::default()
    }

    #[inline(never)]
    fn finish_block(&mut self, ident: Token, labels: Vec<Label<'s>>, obrace: Token, body: Body<'s>) -> Block<'s> {
        let cbrace = self.prev();
        let eol = self.peek();
        if eol.kind == Tk::Newline || eol.kind == Tk::Eof {
            self.read();
        } else {
            if !self.recovery {
                self.error(msg::MISSING_NEWLINE_AFTER_BLOCK, eol.span());
            }
            self.recover_after_body_item();
        }
        let start = ident.start as usize;
        Block {
            kind: self.ident(ident),
            labels,
            body,
            open_brace: obrace.span(),
            close_brace: cbrace.span(),
            span: start..(cbrace.end as usize).max(start),
        }
    }

    /// `a { b = 1 }`: one attribute, then the closing brace on the same line.
    fn single_attribute_body(&mut self, obrace: Token) -> Body<'s> {
        let n = self.errors.len();
        let item = self.single_attribute();
        self.single_attribute_end(n, obrace);
        Body { items: item.into_iter().map(Item::Attr).collect() }
    }

    #[inline(never)]
    fn single_attribute_end(&mut self, n: usize, obrace: Token) {
        // HCL reports the closing brace's problems before those of the attribute.
        let body_errors = self.errors.split_off(n);
        let t = self.peek();
        match t.kind {
            Tk::CBrace => {
                self.read();
            }
            Tk::Comma => {
                self.error(msg::SINGLE_LINE_COMMA, t.span());
                self.recover(Tk::CBrace);
            }
            Tk::Newline => {
                self.error(msg::SINGLE_LINE_NEWLINE, t.span());
                self.recover(Tk::CBrace);
            }
            _ => {
                if !self.recovery {
                    // v2.24.0 parser.go:419: at the end of the file, HCL points at the `{`.
                    if t.kind == Tk::Eof {
                        self.error(msg::UNCLOSED_BLOCK, obrace.span());
                    } else {
                        self.error(msg::SINGLE_LINE_END, t.span());
                    }
                }
                self.recover(Tk::CBrace);
            }
        }
        self.errors.extend(body_errors);
    }

    fn single_attribute(&mut self) -> Option<Attribute<'s>> {
        let ident = self.read();
        let next = self.peek();
        if ident.kind == Tk::Ident && next.kind == Tk::Equal {
            return Some(self.attribute(ident, true));
        }
        self.not_a_single_attribute(ident, next);
        None
    }

    #[inline(never)]
    fn not_a_single_attribute(&mut self, ident: Token, next: Token) {
        self.recover_after_body_item();
        if ident.kind != Tk::Ident {
            self.error(msg::ARGUMENT_OR_BLOCK_REQUIRED, ident.span());
        } else if matches!(next.kind, Tk::OQuote | Tk::OBrace | Tk::Ident) {
            let m = msg::single_line_argument_required(self.text(ident));
            self.error_owned(m, ident.start as usize..next.end as usize, None);
        } else {
            self.error(msg::ARGUMENT_OR_BLOCK_REQUIRED_EQUALS, ident.span());
        }
    }

    /// A quoted block label: no template sequences (HCL's `parseQuotedStringLiteral`).
    fn quoted_label(&mut self) -> Label<'s> {
        let open = self.read();
        let mut lit = super::template::Lit::new(open.end as usize);
        let end = loop {
            let t = self.read();
            match t.kind {
                Tk::CQuote => break t,
                Tk::QuotedLit => self.push_literal(&mut lit, t, true),
                Tk::TemplateInterp | Tk::TemplateControl => {
                    let which = if t.kind == Tk::TemplateControl { '%' } else { '$' };
                    self.error_owned(msg::template_sequence_in_literal(which), t.span(), None);
                    lit.push_str(if which == '$' { "${ ... }" } else { "%{ ... }" });
                    self.recover(Tk::TemplateSeqEnd);
                }
                Tk::Eof => {
                    self.error(msg::UNTERMINATED_STRING_LITERAL, t.span());
                    break t;
                }
                _ => {
                    self.error(msg::INVALID_STRING_LITERAL_ITEM, t.span());
                    self.recover(Tk::CQuote);
                    break t;
                }
            }
        };
        Label { value: lit.value, span: open.start as usize..end.end as usize }
    }

    // ---- expressions ----------------------------------------------------------------------

    /// One expression (HCL's `ParseExpression`): conditionals and everything below.
    pub fn expr(&mut self) -> Expr<'s> {
        if self.depth >= MAX_DEPTH {
            return self.too_deep_here();
        }
        self.depth += 1;
        let n = self.errors.len();
        let cond = self.binary(0);
        let e = if (self.recovery && self.errors.len() > n) || self.peek().kind != Tk::Question {
            cond
        } else {
            self.conditional(cond)
        };
        self.depth -= 1;
        e
    }

    #[inline(never)]
    fn too_deep_here(&mut self) -> Expr<'s> {
        let t = self.peek();
        self.too_deep(t);
        placeholder(t.span())
    }

    /// After `cond`, at `?`.
    #[inline(never)]
    fn conditional(&mut self, cond: Expr<'s>) -> Expr<'s> {
        self.read();
        let n = self.errors.len();
        let then = self.expr();
        if self.recovery && self.errors.len() > n {
            return cond;
        }
        let colon = self.peek();
        if colon.kind != Tk::Colon {
            self.error(msg::MISSING_FALSE_EXPRESSION, colon.span());
            return cond;
        }
        self.read();
        let n = self.errors.len();
        let otherwise = self.expr();
        if self.recovery && self.errors.len() > n {
            return cond;
        }
        let span = cond.span.start..otherwise.span.end;
        Expr {
            kind: ExprKind::Conditional { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) },
            span,
        }
    }

    /// Binary operators of precedence `min` and above, left-associative (precedence climbing,
    /// the same trees as HCL's one-function-per-level recursion). Each fold makes the operator
    /// tree one level taller, and takes a level of depth.
    fn binary(&mut self, min: u8) -> Expr<'s> {
        let n = self.errors.len();
        let mut lhs = self.operand();
        if self.recovery && self.errors.len() > n {
            return lhs;
        }
        let depth = self.depth;
        while let Some((op, level)) = binary_op(self.peek().kind) {
            if level < min || !self.enter_fold() {
                break;
            }
            let n = self.errors.len();
            let rhs = self.binary(level + 1);
            if self.recovery && self.errors.len() > n {
                break;
            }
            lhs = fold(op, lhs, rhs);
        }
        self.depth = depth;
        lhs
    }

    /// Read a binary operator and take a level for it; `false` when that is too deep.
    #[cfg_attr(debug_assertions, inline(never))]
    fn enter_fold(&mut self) -> bool {
        let op = self.read();
        if self.depth >= MAX_DEPTH {
            self.too_deep(op);
            return false;
        }
        self.depth += 1;
        true
    }

    /// A term and its traversal steps (HCL's `parseExpressionWithTraversals`).
    fn operand(&mut self) -> Expr<'s> {
        let term = self.term();
        match self.peek().kind {
            Tk::Dot | Tk::OBrack => self.traversals(term),
            _ => term,
        }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn traversals(&mut self, mut from: Expr<'s>) -> Expr<'s> {
        let mut ops: Vec<Op<'s>> = Vec::new();
        loop {
            match self.peek().kind {
                Tk::Dot => {
                    if let Some(dot_end) = self.dot_step(&mut ops) {
                        // hclsyntax v2.24.0 parser.go:818: no name after a dot turns the whole
                        // traversal so far into an `ExprSyntaxError` from its start through
                        // the dot; any further steps apply to that.
                        from = self.syntax_error_placeholder(from.span.start..dot_end);
                        ops.clear();
                    }
                }
                Tk::OBrack => {
                    let op = self.bracket_step();
                    ops.push(op);
                }
                _ => break,
            }
        }
        if ops.is_empty() {
            return from;
        }
        let end = ops.last().map_or(from.span.end, |o| o.span().end).max(from.span.end);
        let span = from.span.start..end;
        Expr { kind: ExprKind::Traversal { source: Box::new(from), ops }, span }
    }

    /// A placeholder for HCL's `ExprSyntaxError`, remembered as such.
    #[inline(never)]
    fn syntax_error_placeholder(&mut self, span: Span) -> Expr<'s> {
        self.syntax_error = Some(span.clone());
        placeholder(span)
    }

    /// `.name`, `.0`, or `.*` with the attribute steps it applies to; the end of the dot when
    /// no name follows it.
    #[cfg_attr(debug_assertions, inline(never))]
    fn dot_step(&mut self, ops: &mut Vec<Op<'s>>) -> Option<usize> {
        let dot = self.read();
        let at = self.peek();
        match at.kind {
            Tk::Ident => {
                let t = self.read();
                ops.push(Op::Attr(self.ident(t)));
            }
            Tk::NumberLit => {
                let t = self.read();
                let op = self.legacy_index(t, None);
                ops.push(op);
            }
            Tk::Star => {
                let star = self.read();
                ops.push(Op::AttrSplat { span: dot.start as usize..star.end as usize });
                while self.peek().kind == Tk::Dot {
                    self.read();
                    let t = self.peek();
                    match t.kind {
                        Tk::NumberLit => {
                            let t = self.read();
                            let op = self.legacy_index(t, Some(star));
                            ops.push(op);
                        }
                        Tk::Ident => {
                            let t = self.read();
                            ops.push(Op::Attr(self.ident(t)));
                        }
                        _ => {
                            if !self.recovery {
                                if t.kind == Tk::Star {
                                    self.error(msg::NESTED_SPLAT, t.span());
                                } else {
                                    // HCL points at the splat's star here.
                                    self.error(msg::INVALID_ATTRIBUTE_NAME, star.span());
                                }
                            }
                            self.recovery = true;
                            return None;
                        }
                    }
                }
            }
            _ => {
                self.error(msg::INVALID_ATTRIBUTE_NAME, at.span());
                self.recovery = true;
                return Some(dot.end as usize);
            }
        }
        None
    }

    /// `[*]` or `[key]`.
    fn bracket_step(&mut self) -> Op<'s> {
        let open = self.read();
        if self.peek().kind == Tk::Star {
            return self.full_splat(open);
        }
        let saved = std::mem::replace(&mut self.nl, false);
        let n = self.errors.len();
        let key = self.expr();
        let close = self.index_close(self.errors.len() > n);
        self.nl = saved;
        Op::Index { key, span: open.start as usize..(close.end.max(open.end)) as usize }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn index_close(&mut self, failed: bool) -> Token {
        if self.recovery && failed {
            return self.recover(Tk::CBrack);
        }
        let close = self.read();
        if close.kind != Tk::CBrack && !self.recovery {
            // HCL's diagnostic points at its `close` variable, which the recovery then
            // overwrites: the subject is where recovery stopped.
            let close = self.recover(Tk::CBrack);
            self.error(msg::MISSING_INDEX_CLOSE, close.span());
            return close;
        }
        close
    }

    #[inline(never)]
    fn full_splat(&mut self, open: Token) -> Op<'s> {
        self.read(); // `*`
        let mut close = self.read();
        if close.kind != Tk::CBrack && !self.recovery {
            // As for an index: the subject is where recovery stopped.
            close = self.recover(Tk::CBrack);
            self.error(msg::MISSING_SPLAT_CLOSE, close.span());
        }
        Op::FullSplat { span: open.start as usize..close.end.max(open.end) as usize }
    }

    /// `.0` after a dot: a legacy index (HCL rejects `.0.1`, scanned as one number).
    fn legacy_index(&mut self, t: Token, splat_star: Option<Token>) -> Op<'s> {
        let text = self.text(t);
        if let Some(dot) = text.find('.') {
            let m = msg::legacy_index(&text[..dot], &text[dot + 1..], splat_star.is_some());
            let subject = splat_star.unwrap_or(t);
            self.error_owned(m, subject.span(), None);
            return Op::Index { key: placeholder(t.span()), span: t.span() };
        }
        let index = match self.number(t) {
            Some(n) if n.value >= 0.0 && n.value.fract() == 0.0 => n.int.map_or(u64::MAX, |i| i as u64),
            _ => u64::MAX,
        };
        Op::LegacyIndex { index, span: t.span() }
    }

    fn number(&mut self, t: Token) -> Option<Number> {
        let text = self.text(t);
        match text.parse::<f64>() {
            Ok(value) => {
                let int = if text.bytes().all(|b| b.is_ascii_digit()) {
                    text.parse::<i64>().ok()
                } else if value.fract() == 0.0 && value.abs() < 9.2e18 {
                    Some(value as i64)
                } else {
                    None
                };
                Some(Number { value, int })
            }
            Err(_) => {
                self.error(msg::INVALID_NUMBER, t.span());
                None
            }
        }
    }

    fn term(&mut self) -> Expr<'s> {
        match self.peek().kind {
            Tk::OParen => self.paren(),
            Tk::NumberLit => self.number_term(),
            Tk::Ident => self.name_term(),
            Tk::OQuote | Tk::OHeredoc => self.template_expr(),
            Tk::Minus | Tk::Bang => self.unary(),
            Tk::OBrack => self.tuple(),
            Tk::OBrace => self.object(),
            _ => self.invalid_term(),
        }
    }

    #[inline(never)]
    fn invalid_term(&mut self) -> Expr<'s> {
        let start = self.peek();
        if !self.recovery {
            // v2.24.0 parser.go:1108 words the end of the file apart.
            self.error(
                if start.kind == Tk::Eof { msg::MISSING_EXPRESSION } else { msg::INVALID_EXPRESSION },
                start.span(),
            );
        }
        self.recovery = true;
        placeholder(start.span())
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn number_term(&mut self) -> Expr<'s> {
        let t = self.read();
        match self.number(t) {
            Some(n) => Expr { kind: ExprKind::Number(n), span: t.span() },
            None => placeholder(t.span()),
        }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn name_term(&mut self) -> Expr<'s> {
        let t = self.read();
        let next = self.peek().kind;
        if next == Tk::OParen || next == Tk::DoubleColon {
            return self.call(t);
        }
        let kind = match self.text(t) {
            "true" => ExprKind::Bool(true),
            "false" => ExprKind::Bool(false),
            "null" => ExprKind::Null,
            _ => ExprKind::Variable(self.ident(t)),
        };
        Expr { kind, span: t.span() }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn paren(&mut self) -> Expr<'s> {
        let open = self.read();
        let saved = std::mem::replace(&mut self.nl, false);
        let n = self.errors.len();
        let inner = self.expr();
        let e = if self.errors.len() > n {
            self.recover(Tk::CParen);
            inner
        } else {
            self.finish_paren(open, inner)
        };
        self.nl = saved;
        e
    }

    #[inline(never)]
    fn finish_paren(&mut self, open: Token, inner: Expr<'s>) -> Expr<'s> {
        let close = self.peek();
        if close.kind != Tk::CParen {
            self.error(msg::UNBALANCED_PARENTHESES, close.span());
            self.recovery = true;
        }
        let close = self.read();
        let span = open.start as usize..(close.end.max(open.end)) as usize;
        Expr { kind: ExprKind::Paren(Box::new(inner)), span }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn unary(&mut self) -> Expr<'s> {
        let t = self.read();
        if self.depth >= MAX_DEPTH {
            self.too_deep(t);
            return placeholder(t.span());
        }
        self.depth += 1;
        let operand = self.operand();
        self.depth -= 1;
        let op = if t.kind == Tk::Minus { UnaryOp::Negate } else { UnaryOp::Not };
        let span = t.start as usize..operand.span.end.max(t.end as usize);
        Expr { kind: ExprKind::Unary { op, expr: Box::new(operand) }, span }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn call(&mut self, name: Token) -> Expr<'s> {
        let (open, name_end) = match self.call_name(name) {
            Ok(x) => x,
            Err(e) => return e,
        };
        let saved = std::mem::replace(&mut self.nl, false);
        let mut args = Vec::new();
        let expand_final = self.call_args(&mut args, name.start as usize..open.end as usize);
        self.nl = saved;
        let start = name.start as usize;
        let end = (self.prev().end as usize).max(open.end as usize);
        Expr {
            kind: ExprKind::Call {
                name: Ident { name: &self.src[start..name_end], span: start..name_end },
                args,
                expand_final,
            },
            span: start..end,
        }
    }

    /// The rest of a (possibly namespaced) function name and the `(`.
    #[inline(never)]
    fn call_name(&mut self, name: Token) -> Result<(Token, usize), Expr<'s>> {
        let mut open = self.read();
        let mut name_end = name.end;
        while open.kind == Tk::DoubleColon {
            let next = self.read();
            if next.kind != Tk::Ident {
                self.error(msg::MISSING_FUNCTION_NAME, next.span());
                self.recover_over(Tk::OParen);
                return Err(self.syntax_error_placeholder(name.start as usize..next.end.max(name.end) as usize));
            }
            name_end = next.end;
            open = self.read();
        }
        if open.kind != Tk::OParen {
            self.error(msg::MISSING_OPEN_PAREN, open.span());
            self.recover_over(Tk::OParen);
            return Err(self.syntax_error_placeholder(name.start as usize..open.end.max(name.end) as usize));
        }
        Ok((open, name_end as usize))
    }

    /// The arguments up to and with `)`; whether the last one is expanded (`...`).
    /// `head` is the name through the `(`.
    fn call_args(&mut self, args: &mut Vec<Expr<'s>>, head: Span) -> bool {
        loop {
            if self.peek().kind == Tk::CParen {
                self.read();
                return false;
            }
            let n = self.errors.len();
            args.push(self.expr());
            if let Some(expand) = self.after_argument(self.errors.len() > n, &head) {
                return expand;
            }
        }
    }

    /// After an argument: `None` to go on, else whether the call ended in `...`.
    #[cfg_attr(debug_assertions, inline(never))]
    fn after_argument(&mut self, failed: bool, head: &Span) -> Option<bool> {
        if self.recovery && failed {
            self.recover(Tk::CParen);
            return Some(false);
        }
        let sep = self.read();
        match sep.kind {
            Tk::CParen => Some(false),
            Tk::Ellipsis => {
                if self.peek().kind != Tk::CParen {
                    if !self.recovery {
                        self.error(msg::MISSING_CLOSING_PAREN, sep.span());
                    }
                    self.recover(Tk::CParen);
                } else {
                    self.read();
                }
                Some(true)
            }
            Tk::Comma => {
                if self.peek().kind == Tk::CParen {
                    self.read();
                    return Some(false);
                }
                None
            }
            _ => {
                // v2.24.0 parser.go:1287: at the end of the file, HCL points at the name and
                // `(` (the first part of a namespaced name through the `(`).
                if sep.kind == Tk::Eof {
                    self.error(msg::UNTERMINATED_CALL, head.clone());
                } else {
                    self.error(msg::MISSING_ARGUMENT_SEPARATOR, sep.span());
                }
                self.recover(Tk::CParen);
                Some(false)
            }
        }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn tuple(&mut self) -> Expr<'s> {
        let open = self.read();
        let saved = std::mem::replace(&mut self.nl, false);
        let e = if self.is_keyword(self.peek(), "for") { self.for_expr(open) } else { self.tuple_items(open) };
        self.nl = saved;
        e
    }

    fn tuple_items(&mut self, open: Token) -> Expr<'s> {
        let mut items = Vec::new();
        let close = loop {
            if self.peek().kind == Tk::CBrack {
                break self.read();
            }
            let n = self.errors.len();
            items.push(self.expr());
            if let Some(close) = self.after_item(self.errors.len() > n, open) {
                break close;
            }
        };
        let span = open.start as usize..close.end.max(open.end) as usize;
        Expr { kind: ExprKind::Tuple(items), span }
    }

    /// After a tuple item: `None` to go on, else the closing token.
    #[cfg_attr(debug_assertions, inline(never))]
    fn after_item(&mut self, failed: bool, open: Token) -> Option<Token> {
        if self.recovery && failed {
            return Some(self.recover(Tk::CBrack));
        }
        let next = self.peek();
        match next.kind {
            Tk::CBrack => Some(self.read()),
            Tk::Comma => {
                self.read();
                None
            }
            _ => {
                if !self.recovery {
                    // v2.24.0 parser.go:1376: at the end of the file, HCL points at the `[`.
                    if next.kind == Tk::Eof {
                        self.error(msg::UNTERMINATED_TUPLE, open.span());
                    } else {
                        self.error(msg::MISSING_ITEM_SEPARATOR, next.span());
                    }
                }
                Some(self.recover(Tk::CBrack))
            }
        }
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn object(&mut self) -> Expr<'s> {
        let open = self.read();
        let saved = self.nl;
        self.nl = false;
        let e = if self.is_keyword(self.peek(), "for") {
            self.for_expr(open)
        } else {
            self.nl = true;
            self.object_items(open)
        };
        self.nl = saved;
        e
    }

    fn object_items(&mut self, open: Token) -> Expr<'s> {
        let mut items = Vec::new();
        let close = loop {
            match self.peek().kind {
                Tk::Newline => {
                    self.read();
                    continue;
                }
                Tk::CBrace => break self.read(),
                _ => {}
            }
            let n = self.errors.len();
            let key = self.expr();
            if let Some(close) = self.after_key(self.errors.len() > n, open) {
                break close;
            }
            let n = self.errors.len();
            let value = self.expr();
            if let Some(close) = self.after_value(&mut items, key, value, self.errors.len() > n, open) {
                break close;
            }
        };
        let span = open.start as usize..close.end.max(open.end) as usize;
        Expr { kind: ExprKind::Object(items), span }
    }

    /// After an object key: `None` when `=` or `:` follows (read), else the closing token.
    #[cfg_attr(debug_assertions, inline(never))]
    fn after_key(&mut self, failed: bool, open: Token) -> Option<Token> {
        if self.recovery && failed {
            return Some(self.recover(Tk::CBrace));
        }
        let next = self.peek();
        if next.kind == Tk::Equal || next.kind == Tk::Colon {
            self.read();
            return None;
        }
        if !self.recovery {
            let (m, at) = match next.kind {
                Tk::Newline | Tk::Comma => (msg::MISSING_ATTRIBUTE_VALUE, next),
                Tk::Ident => (msg::MISSING_KEY_VALUE_SEPARATOR_IDENT, next),
                // v2.24.0 parser.go:1502: at the end of the file, HCL points at the `{`.
                Tk::Eof => (msg::UNTERMINATED_OBJECT, open),
                _ => (msg::MISSING_KEY_VALUE_SEPARATOR, next),
            };
            self.error(m, at.span());
        }
        Some(self.recover(Tk::CBrace))
    }

    /// After an object item's value: the item added, then `None` to go on, else the closing
    /// token.
    #[cfg_attr(debug_assertions, inline(never))]
    fn after_value(
        &mut self,
        items: &mut Vec<ObjectItem<'s>>,
        key: Expr<'s>,
        value: Expr<'s>,
        failed: bool,
        open: Token,
    ) -> Option<Token> {
        let broken = self.recovery && failed;
        if broken && !(matches!(value.kind, ExprKind::Null) && self.syntax_error.as_ref() == Some(&value.span)) {
            return Some(self.recover(Tk::CBrace));
        }
        let key = match key.kind {
            ExprKind::Variable(ident) => ObjectKey::Ident(ident),
            _ => ObjectKey::Expr(key),
        };
        items.push(ObjectItem { key, value });
        if broken {
            // v2.24.0 parser.go:1529: an `ExprSyntaxError` value is kept (for editors'
            // completions), then the rest of the object skipped as for any broken value.
            return Some(self.recover(Tk::CBrace));
        }
        let next = self.peek();
        match next.kind {
            Tk::CBrace => Some(self.read()),
            Tk::Comma | Tk::Newline => {
                self.read();
                None
            }
            _ => {
                if !self.recovery {
                    // v2.24.0 parser.go:1560: at the end of the file, HCL points at the `{`.
                    if next.kind == Tk::Eof {
                        self.error(msg::UNTERMINATED_OBJECT, open.span());
                    } else {
                        self.error(msg::MISSING_ATTRIBUTE_SEPARATOR, next.span());
                    }
                }
                Some(self.recover(Tk::CBrace))
            }
        }
    }

    /// `[for …]` / `{for …}`, from the `for` keyword (the opening bracket already read).
    fn for_expr(&mut self, open: Token) -> Expr<'s> {
        let saved = std::mem::replace(&mut self.nl, false);
        let e = self.for_expr_inner(open);
        self.nl = saved;
        e
    }

    #[inline(never)]
    fn for_fail(&mut self, open: Token) -> Expr<'s> {
        let close = self.recover(if open.kind == Tk::OBrace { Tk::CBrace } else { Tk::CBrack });
        placeholder(open.start as usize..close.end.max(open.end) as usize)
    }

    fn for_expr_inner(&mut self, open: Token) -> Expr<'s> {
        let Some(mut f) = self.for_head() else { return self.for_fail(open) };
        let n = self.errors.len();
        f.collection = self.expr();
        if self.recovery && self.errors.len() > n || !self.for_colon() {
            return self.for_fail(open);
        }
        let n = self.errors.len();
        f.value = self.expr();
        if self.peek().kind == Tk::FatArrow {
            self.read();
            f.key = Some(std::mem::replace(&mut f.value, placeholder(0..0)));
            f.value = self.expr();
        }
        if self.recovery && self.errors.len() > n {
            return self.for_fail(open);
        }
        let ellipsis = self.for_grouping(&mut f);
        if self.is_keyword(self.peek(), "if") {
            self.read();
            let n = self.errors.len();
            f.cond = Some(self.expr());
            if self.recovery && self.errors.len() > n {
                return self.for_fail(open);
            }
        }
        self.finish_for(open, f, ellipsis)
    }

    /// `for k, v in`: the variables (the rest of the `ForExpr` filled with placeholders).
    #[inline(never)]
    fn for_head(&mut self) -> Option<Box<ForExpr<'s>>> {
        self.read(); // `for`
        if self.peek().kind != Tk::Ident {
            if !self.recovery {
                let t = self.peek();
                self.error(msg::FOR_VARIABLE, t.span());
            }
            return None;
        }
        let first = self.read();
        let mut key_var = None;
        let mut value_var = self.ident(first);
        if self.peek().kind == Tk::Comma {
            self.read();
            if self.peek().kind != Tk::Ident {
                if !self.recovery {
                    let t = self.peek();
                    self.error(msg::FOR_VALUE_VARIABLE, t.span());
                }
                return None;
            }
            let second = self.read();
            key_var = Some(value_var);
            value_var = self.ident(second);
        }
        if !self.is_keyword(self.peek(), "in") {
            if !self.recovery {
                let t = self.peek();
                self.error(msg::FOR_IN, t.span());
            }
            return None;
        }
        self.read();
        Some(Box::new(ForExpr {
            key_var,
            value_var,
            collection: placeholder(0..0),
            key: None,
            value: placeholder(0..0),
            grouping: false,
            cond: None,
        }))
    }

    #[inline(never)]
    fn for_colon(&mut self) -> bool {
        if self.peek().kind != Tk::Colon {
            if !self.recovery {
                let t = self.peek();
                self.error(msg::FOR_COLON, t.span());
            }
            return false;
        }
        self.read();
        true
    }

    #[inline(never)]
    fn for_grouping(&mut self, f: &mut ForExpr<'s>) -> Option<Token> {
        if self.peek().kind == Tk::Ellipsis {
            f.grouping = true;
            return Some(self.read());
        }
        None
    }

    #[inline(never)]
    fn finish_for(&mut self, open: Token, f: Box<ForExpr<'s>>, ellipsis: Option<Token>) -> Expr<'s> {
        let (make_object, close_kind) = if open.kind == Tk::OBrace { (true, Tk::CBrace) } else { (false, Tk::CBrack) };
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            if !self.recovery {
                let t = self.peek();
                self.error(msg::FOR_EXTRA, t.span());
            }
            self.recover(close_kind)
        };
        if !make_object {
            if let Some(k) = &f.key {
                self.error(msg::FOR_TUPLE_KEY, k.span.clone());
            }
            if let Some(e) = ellipsis {
                self.error(msg::FOR_TUPLE_GROUP, e.span());
            }
        } else if f.key.is_none() {
            self.error(msg::FOR_OBJECT_KEY, f.value.span.clone());
        }
        let span = open.start as usize..close.end.max(open.end) as usize;
        Expr { kind: ExprKind::For(f), span }
    }
}

/// `lhs op rhs`.
#[cfg_attr(debug_assertions, inline(never))]
fn fold<'s>(op: BinaryOp, lhs: Expr<'s>, rhs: Expr<'s>) -> Expr<'s> {
    let span = lhs.span.start..rhs.span.end;
    Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span }
}
