//! Templates: quoted strings, heredocs and bare templates (hclsyntax's `parser_template.go`).
//!
//! Two passes as in HCL: the template's tokens become a flat list of literals, interpolations
//! and directive markers (literal escapes decoded, `~` strip markers applied to the literal
//! token next to them), then an explicit stack (no recursion) pairs `%{if}`/`%{else}`/`%{endif}`
//! and `%{for}`/`%{endfor}` into the tree. Literal text borrows the source unless an escape had
//! to be decoded or the text was split.

use super::ast::*;
use super::lexer::{Tk, Token};
use super::messages::{self as msg};
use super::parser::Parser;
use super::MAX_DEPTH;
use std::borrow::Cow;

/// A literal being accumulated from consecutive literal tokens.
pub(super) struct Lit<'s> {
    pub value: Cow<'s, str>,
    pub span: Span,
    /// Where the source text borrowed by `value` ends (to extend it in place).
    borrowed_end: usize,
    /// Offset in `value` where the last token's text starts (`${~` trims only that token).
    last_token_at: usize,
}

impl<'s> Lit<'s> {
    pub fn new(at: usize) -> Self {
        Lit { value: Cow::Borrowed(""), span: at..at, borrowed_end: usize::MAX, last_token_at: 0 }
    }

    pub fn push_str(&mut self, s: &str) {
        self.value.to_mut().push_str(s);
        self.borrowed_end = usize::MAX;
    }

    /// Append raw source text `src[start..end]`, borrowing when it continues what is there.
    fn push_source(&mut self, src: &'s str, start: usize, end: usize) {
        self.last_token_at = self.value.len();
        match &self.value {
            Cow::Borrowed("") => {
                self.value = Cow::Borrowed(&src[start..end]);
                self.borrowed_end = end;
            }
            Cow::Borrowed(v) if self.borrowed_end == start => {
                let from = start - v.len();
                self.value = Cow::Borrowed(&src[from..end]);
                self.borrowed_end = end;
            }
            _ => {
                self.value.to_mut().push_str(&src[start..end]);
                self.borrowed_end = usize::MAX;
            }
        }
    }

    /// Trim trailing white space of the last token's text (`${~`).
    fn trim_last_token_end(&mut self) {
        let keep = self.last_token_at;
        let v: &str = &self.value;
        let trimmed = v[keep..].trim_end_matches(char::is_whitespace).len() + keep;
        if trimmed < v.len() {
            match &mut self.value {
                Cow::Borrowed(b) => {
                    *b = &b[..trimmed];
                    self.borrowed_end = usize::MAX;
                }
                Cow::Owned(o) => o.truncate(trimmed),
            }
        }
    }
}

/// The `~` strip markers' effect on the next and previous literal tokens.
struct Trim {
    ltrim_next: bool,
    next_can_trim_prev: bool,
}

/// One element of a template before directives are paired.
pub(super) enum Flat<'s> {
    Lit(Lit<'s>),
    Interp(Expr<'s>, Span),
    If(Expr<'s>, Span),
    For(Option<Ident<'s>>, Ident<'s>, Expr<'s>, Span),
    End(EndKind, Span),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum EndKind {
    Else,
    EndIf,
    EndFor,
}

impl EndKind {
    fn name(self) -> &'static str {
        match self {
            EndKind::Else => "else",
            EndKind::EndIf => "endif",
            EndKind::EndFor => "endfor",
        }
    }
}

/// An open directive while pairing.
enum Frame<'s> {
    Root(Vec<Part<'s>>),
    If { cond: Expr<'s>, span: Span, then: Vec<Part<'s>>, otherwise: Option<Vec<Part<'s>>> },
    For { key_var: Option<Ident<'s>>, value_var: Ident<'s>, collection: Expr<'s>, span: Span, body: Vec<Part<'s>> },
}

impl<'s> Frame<'s> {
    fn parts(&mut self) -> &mut Vec<Part<'s>> {
        match self {
            Frame::Root(p) => p,
            Frame::If { then, otherwise: None, .. } => then,
            Frame::If { otherwise: Some(o), .. } => o,
            Frame::For { body, .. } => body,
        }
    }
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

impl<'s> Parser<'s> {
    /// Append a literal token's value to `lit`: backslash escapes decoded for a quoted token,
    /// `$${` / `%%{` for any (HCL's `ParseStringLiteralToken`).
    pub(super) fn push_literal(&mut self, lit: &mut Lit<'s>, t: Token, quoted: bool) {
        self.push_literal_trimmed(lit, t, quoted, false)
    }

    fn push_literal_trimmed(&mut self, lit: &mut Lit<'s>, t: Token, quoted: bool, ltrim: bool) {
        let src = self.src;
        let (start, end) = (t.start as usize, t.end as usize);
        if lit.span.start == lit.span.end && lit.value.is_empty() {
            lit.span = start..end;
        } else {
            lit.span.end = end;
        }
        let text = &src[start..end];
        let b = text.as_bytes();
        let escape_seq = b.len() >= 3 && (b[0] == b'$' || b[0] == b'%') && b[1] == b[0] && b[2] == b'{';
        let has_backslash = quoted && b.contains(&b'\\');
        if !escape_seq && !has_backslash {
            let mut s = start;
            if ltrim {
                s = end - text.trim_start_matches(char::is_whitespace).len();
            }
            lit.push_source(src, s, end);
            return;
        }
        let mut out = String::with_capacity(text.len());
        if escape_seq {
            out.push(b[0] as char);
            out.push('{');
            out.push_str(&text[3..]);
        } else {
            self.decode_escapes(text, start, &mut out);
        }
        let out = if ltrim { out.trim_start_matches(char::is_whitespace).to_string() } else { out };
        lit.last_token_at = lit.value.len();
        lit.value.to_mut().push_str(&out);
        lit.borrowed_end = usize::MAX;
    }

    #[inline(never)]
    fn decode_escapes(&mut self, text: &str, base: usize, out: &mut String) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let Some(k) = b[i..].iter().position(|&c| c == b'\\') else {
                out.push_str(&text[i..]);
                return;
            };
            out.push_str(&text[i..i + k]);
            i += k;
            let at = base + i;
            let Some(&sel) = b.get(i + 1) else {
                self.error(msg::BACKSLASH_AT_END, at..at + 1);
                out.push('\\');
                return;
            };
            match sel {
                b'n' => out.push('\n'),
                b'r' => out.push('\r'),
                b't' => out.push('\t'),
                b'"' => out.push('"'),
                b'\\' => out.push('\\'),
                b'u' | b'U' => {
                    let want = if sel == b'u' { 4 } else { 8 };
                    let mut j = i + 2;
                    while j < b.len() && j - (i + 2) < want && is_hex(b[j]) {
                        j += 1;
                    }
                    let slice = &text[i..j];
                    if j - (i + 2) != want {
                        self.error(if sel == b'u' { msg::SHORT_U_ESCAPE } else { msg::LONG_U_ESCAPE }, at..base + j);
                        out.push_str(slice);
                    } else {
                        let code = u32::from_str_radix(&text[i + 2..j], 16).unwrap_or(u32::MAX);
                        match char::from_u32(code) {
                            Some(c) => out.push(c),
                            None => {
                                self.error_owned(msg::unencodable_character(code), at..base + j, None);
                                out.push_str(slice);
                            }
                        }
                    }
                    i = j;
                    continue;
                }
                _ => {
                    let c = text[i + 1..].chars().next().unwrap_or('\\');
                    let sel_end = i + 1 + c.len_utf8();
                    self.error_owned(msg::invalid_escape_selector(&text[i + 1..sel_end]), at..base + sel_end, None);
                    out.push(c);
                    i = sel_end;
                    continue;
                }
            }
            i += 2;
        }
    }

    /// A quoted template or a heredoc, from its opening token.
    #[cfg_attr(debug_assertions, inline(never))]
    pub(super) fn template_expr(&mut self) -> Expr<'s> {
        let open = self.read();
        let template = self.template(if open.kind == Tk::OHeredoc { Tk::CHeredoc } else { Tk::CQuote });
        self.finish_template_expr(open, template)
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn finish_template_expr(&mut self, open: Token, template: Template<'s>) -> Expr<'s> {
        let end = self.prev().end.max(open.end);
        let span = open.start as usize..end as usize;
        if open.kind != Tk::OHeredoc {
            return Expr { kind: ExprKind::Template(template), span };
        }
        let intro = self.text(open);
        let strip_indent = intro.as_bytes().get(2) == Some(&b'-');
        let marker = intro[if strip_indent { 3 } else { 2 }..].trim_end_matches(['\n', '\r']);
        Expr { kind: ExprKind::Heredoc(Heredoc { marker, strip_indent, template }), span }
    }

    /// A template's content up to `end` (`CQuote`, `CHeredoc`, or `Eof` for a bare template),
    /// `end` consumed (HCL's `parseTemplateParts` and `templateParser`).
    pub(super) fn template(&mut self, end: Tk) -> Template<'s> {
        let mut flat: Vec<Flat<'s>> = self.flats.pop().unwrap_or_default();
        let mut trim = Trim { ltrim_next: false, next_can_trim_prev: false };
        // HCL's `startRange` (parseTemplateParts): the template's first token, which is what
        // an unclosed interpolation points at, wherever in the template it is.
        let first = self.peek().span();
        let end_span = loop {
            let next = self.read();
            if next.kind == end {
                break next.span();
            }
            let ltrim = std::mem::take(&mut trim.ltrim_next);
            let can_trim_prev = std::mem::take(&mut trim.next_can_trim_prev);
            match next.kind {
                Tk::StringLit | Tk::QuotedLit => {
                    self.template_literal(&mut flat, next, end == Tk::CQuote, ltrim);
                    trim.next_can_trim_prev = true;
                }
                Tk::TemplateInterp | Tk::TemplateControl => {
                    if can_trim_prev && self.text(next).len() == 3 {
                        if let Some(Flat::Lit(lit)) = flat.last_mut() {
                            lit.trim_last_token_end();
                        }
                    }
                    let saved = std::mem::replace(&mut self.nl, false);
                    let item = if next.kind == Tk::TemplateInterp {
                        Some(self.interpolation(next, &mut trim.ltrim_next, end, &first))
                    } else {
                        self.directive(next, &mut trim.ltrim_next)
                    };
                    self.nl = saved;
                    flat.extend(item);
                }
                _ => break self.unterminated_template(next, end),
            }
        };
        let template = self.pair_directives(&mut flat, end_span);
        flat.clear();
        self.flats.push(flat);
        template
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn template_literal(&mut self, flat: &mut Vec<Flat<'s>>, t: Token, quoted: bool, ltrim: bool) {
        if let Some(Flat::Lit(lit)) = flat.last_mut() {
            self.push_literal_trimmed(lit, t, quoted, ltrim);
        } else {
            let mut lit = Lit::new(t.start as usize);
            self.push_literal_trimmed(&mut lit, t, quoted, ltrim);
            flat.push(Flat::Lit(lit));
        }
    }

    #[inline(never)]
    fn unterminated_template(&mut self, next: Token, end: Tk) -> Span {
        if !self.recovery {
            self.error(msg::UNTERMINATED_TEMPLATE, next.span());
        }
        self.recover(end).span()
    }

    /// `${ … }` after its opener.
    fn interpolation(&mut self, open: Token, ltrim_next: &mut bool, end: Tk, first: &Span) -> Flat<'s> {
        let expr = self.expr();
        let close = self.interpolation_end(ltrim_next, end, first);
        Flat::Interp(expr, open.start as usize..close.end.max(open.end) as usize)
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn interpolation_end(&mut self, ltrim_next: &mut bool, end: Tk, first: &Span) -> Token {
        let close = self.peek();
        if close.kind != Tk::TemplateSeqEnd {
            if !self.recovery {
                // v2.24.0 parser_template.go:424 and :444: the end of the file, or a quote in
                // a quoted template, means the `}` is missing; HCL points at the template's
                // first token then.
                let (m, at) = match close.kind {
                    Tk::Eof => (msg::UNCLOSED_INTERP_EOF, first.clone()),
                    Tk::Colon => (msg::INTERP_COLON, close.span()),
                    Tk::CQuote | Tk::OQuote if end == Tk::CQuote => (msg::UNCLOSED_INTERP_QUOTE, first.clone()),
                    _ => (msg::INTERP_EXTRA, close.span()),
                };
                self.error(m, at);
            }
            self.recover(Tk::TemplateSeqEnd);
        } else {
            self.read();
            *ltrim_next = self.text(close).starts_with('~');
        }
        close
    }

    /// One `%{ … }` directive after its opener; `None` when it was broken (and skipped).
    #[inline(never)]
    fn directive(&mut self, open: Token, ltrim_next: &mut bool) -> Option<Flat<'s>> {
        let kw = self.peek();
        if kw.kind != Tk::Ident {
            if !self.recovery {
                self.error(msg::INVALID_DIRECTIVE, kw.span());
            }
            self.recover(Tk::TemplateSeqEnd);
            return None;
        }
        self.read();
        let here = |p: &Self| open.start as usize..p.peek().end.max(open.end) as usize;
        let keyword = self.text(kw);
        let item = match keyword {
            "if" => {
                let cond = self.expr();
                Flat::If(cond, here(self))
            }
            "else" => Flat::End(EndKind::Else, here(self)),
            "endif" => Flat::End(EndKind::EndIf, here(self)),
            "endfor" => Flat::End(EndKind::EndFor, here(self)),
            "for" => {
                if self.peek().kind != Tk::Ident {
                    if !self.recovery {
                        let t = self.peek();
                        self.error(msg::FOR_DIRECTIVE_VARIABLE, t.span());
                    }
                    self.recover(Tk::TemplateSeqEnd);
                    return None;
                }
                let first = self.read();
                let mut key_var = None;
                let mut value_var = Ident { name: self.text(first), span: first.span() };
                if self.peek().kind == Tk::Comma {
                    self.read();
                    if self.peek().kind != Tk::Ident {
                        if !self.recovery {
                            let t = self.peek();
                            self.error(msg::FOR_DIRECTIVE_VALUE_VARIABLE, t.span());
                        }
                        self.recover(Tk::TemplateSeqEnd);
                        return None;
                    }
                    let second = self.read();
                    key_var = Some(value_var);
                    value_var = Ident { name: self.text(second), span: second.span() };
                }
                if !self.is_keyword(self.peek(), "in") {
                    if !self.recovery {
                        let t = self.peek();
                        self.error(msg::FOR_DIRECTIVE_IN, t.span());
                    }
                    self.recover(Tk::TemplateSeqEnd);
                    return None;
                }
                self.read();
                let collection = self.expr();
                Flat::For(key_var, value_var, collection, here(self))
            }
            _ => {
                if !self.recovery {
                    self.error_owned(msg::invalid_control_keyword(keyword), kw.span(), None);
                }
                self.recover(Tk::TemplateSeqEnd);
                return None;
            }
        };
        let close = self.peek();
        if close.kind != Tk::TemplateSeqEnd {
            if !self.recovery {
                self.error_owned(
                    (msg::extra_in_marker(keyword), msg::EXTRA_IN_MARKER_DETAIL.to_string()),
                    close.span(),
                    None,
                );
            }
            self.recover(Tk::TemplateSeqEnd);
        } else {
            self.read();
            *ltrim_next = self.text(close).starts_with('~');
        }
        Some(item)
    }

    /// Pair directives into the tree (HCL's `templateParser`), with an explicit stack.
    #[inline(never)]
    fn pair_directives(&mut self, flat: &mut Vec<Flat<'s>>, end_span: Span) -> Template<'s> {
        if flat.iter().all(|f| matches!(f, Flat::Lit(_) | Flat::Interp(..))) {
            // No directives (nearly every template): the parts as they are.
            let mut parts = Vec::with_capacity(flat.len());
            for f in flat.drain(..) {
                match f {
                    Flat::Lit(lit) => parts.push(Part::Literal { value: lit.value, span: lit.span }),
                    Flat::Interp(expr, span) => parts.push(Part::Interp { expr, span }),
                    _ => {}
                }
            }
            return Template { parts };
        }
        let mut stack: Vec<Frame<'s>> = vec![Frame::Root(Vec::new())];
        for item in flat.drain(..) {
            match item {
                Flat::Lit(lit) => {
                    stack.last_mut().unwrap().parts().push(Part::Literal { value: lit.value, span: lit.span })
                }
                Flat::Interp(expr, span) => stack.last_mut().unwrap().parts().push(Part::Interp { expr, span }),
                Flat::If(cond, span) | Flat::For(_, _, cond, span) if self.depth + stack.len() > MAX_DEPTH => {
                    let _ = cond;
                    self.error_owned(msg::too_deeply_nested(), span, None);
                    self.recovery = true;
                    stack.truncate(1);
                    return Template { parts: std::mem::take(stack[0].parts()) };
                }
                Flat::If(cond, span) => stack.push(Frame::If { cond, span, then: Vec::new(), otherwise: None }),
                Flat::For(key_var, value_var, collection, span) => {
                    stack.push(Frame::For { key_var, value_var, collection, span, body: Vec::new() })
                }
                Flat::End(kind, span) => {
                    let top = stack.len() - 1;
                    match (&mut stack[top], kind) {
                        (Frame::Root(_), _) => {
                            self.error_owned(
                                (msg::unexpected_directive(kind.name()), msg::UNBALANCED_DIRECTIVES_DETAIL.to_string()),
                                span,
                                None,
                            );
                        }
                        (Frame::If { otherwise: otherwise @ None, .. }, EndKind::Else) => *otherwise = Some(Vec::new()),
                        (Frame::If { span: at, .. }, EndKind::Else) => {
                            let at = at.clone();
                            let detail = format!("Already in the else clause for the if started at {}.", msg::AT);
                            self.error_owned(("Unexpected else directive", detail), span, Some(at));
                            stack.pop();
                        }
                        (Frame::If { .. }, EndKind::EndIf) => {
                            let Some(Frame::If { cond, span: open, then, otherwise }) = stack.pop() else {
                                unreachable!()
                            };
                            let part = Part::If {
                                cond,
                                then: Template { parts: then },
                                otherwise: otherwise.map(|parts| Template { parts }),
                                span: open.start..span.end,
                            };
                            stack.last_mut().unwrap().parts().push(part);
                        }
                        (Frame::If { span: at, .. }, EndKind::EndFor) => {
                            let at = at.clone();
                            let detail = format!("Expecting an endif directive for the if started at {}.", msg::AT);
                            self.error_owned((msg::unexpected_directive("endfor"), detail), span, Some(at));
                            stack.pop();
                        }
                        (Frame::For { .. }, EndKind::Else) => {
                            self.error(msg::ELSE_IN_FOR, span);
                            stack.pop();
                        }
                        (Frame::For { .. }, EndKind::EndFor) => {
                            let Some(Frame::For { key_var, value_var, collection, span: open, body }) = stack.pop()
                            else {
                                unreachable!()
                            };
                            let part = Part::For {
                                key_var,
                                value_var,
                                collection,
                                body: Template { parts: body },
                                span: open.start..span.end,
                            };
                            stack.last_mut().unwrap().parts().push(part);
                        }
                        (Frame::For { span: at, .. }, EndKind::EndIf) => {
                            let at = at.clone();
                            let detail = format!(
                                "Expecting an endfor directive corresponding to the for directive at {}.",
                                msg::AT
                            );
                            self.error_owned((msg::unexpected_directive("endif"), detail), span, Some(at));
                            stack.pop();
                        }
                    }
                }
            }
        }
        while stack.len() > 1 {
            let (what, at) = match stack.pop() {
                Some(Frame::If { span, .. }) => ("if", span),
                Some(Frame::For { span, .. }) => ("for", span),
                _ => break,
            };
            let detail =
                format!("The {what} directive at {} is missing its corresponding end{what} directive.", msg::AT);
            self.error_owned(("Unexpected end of template", detail), end_span.clone(), Some(at));
        }
        let Some(Frame::Root(parts)) = stack.pop() else { return Template::default() };
        Template { parts }
    }
}
