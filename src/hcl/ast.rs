//! The syntax tree of HCL's native syntax, as tfgraph needs it: every node with its byte span in
//! the parsed text, names borrowed from that text, and nothing kept for re-printing (no comments
//! or whitespace). Operators keep their precedence structure, as a later evaluator needs it.
//!
//! Spans are byte offsets into the text given to the parser (`parse_body`, `parse_expr`,
//! `parse_template`); for a JSON string the caller maps them back into the file.

use std::borrow::Cow;
use std::ops::Range;

pub type Span = Range<usize>;

/// A name as written: identifiers, attribute names, variables, function names.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident<'s> {
    pub name: &'s str,
    pub span: Span,
}

/// A body: the attributes and blocks of a file or between a block's braces, in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body<'s> {
    pub items: Vec<Item<'s>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item<'s> {
    Attr(Attribute<'s>),
    Block(Block<'s>),
}

/// `name = expr`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute<'s> {
    pub name: Ident<'s>,
    pub expr: Expr<'s>,
    /// From the name to the end of the expression (HCL's `SrcRange`).
    pub span: Span,
}

/// `kind "label" label2 { body }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block<'s> {
    pub kind: Ident<'s>,
    pub labels: Vec<Label<'s>>,
    pub body: Body<'s>,
    pub open_brace: Span,
    pub close_brace: Span,
    /// From the block type to the closing brace.
    pub span: Span,
}

/// A block label: a quoted string (without templates) or a bare identifier.
#[derive(Clone, Debug, PartialEq)]
pub struct Label<'s> {
    /// The label's value, escapes decoded.
    pub value: Cow<'s, str>,
    /// Quotes included for a quoted label.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr<'s> {
    pub kind: ExprKind<'s>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind<'s> {
    Null,
    Bool(bool),
    Number(Number),
    /// A quoted string `"…"`: literal text and interpolations. A string without `${`/`%{` is one
    /// literal part (or none when empty).
    Template(Template<'s>),
    /// `<<EOT` / `<<-EOT` … `EOT`. Literal parts hold the text as written (for `<<-`, before the
    /// common indentation is removed: see [`Heredoc::strip_indent`]).
    Heredoc(Heredoc<'s>),
    /// `[a, b]`
    Tuple(Vec<Expr<'s>>),
    /// `{ k = v, "k" = v, (k) = v }`
    Object(Vec<ObjectItem<'s>>),
    /// A bare name: `var`, `aws_instance`, `each`, a `for` variable.
    Variable(Ident<'s>),
    /// `expr` followed by attribute accesses, indexes and splats, in source order
    /// (`aws_instance.web[0].id`, `a[*].id`, `a.*.id`, `f(x).y`).
    Traversal {
        source: Box<Expr<'s>>,
        ops: Vec<Op<'s>>,
    },
    /// `name(args)`; `name` may be namespaced (`provider::aws::arn_parse`), written as one ident.
    /// `expand_final` is set by `f(list...)`.
    Call {
        name: Ident<'s>,
        args: Vec<Expr<'s>>,
        expand_final: bool,
    },
    Paren(Box<Expr<'s>>),
    Conditional {
        cond: Box<Expr<'s>>,
        then: Box<Expr<'s>>,
        otherwise: Box<Expr<'s>>,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr<'s>>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr<'s>>,
        rhs: Box<Expr<'s>>,
    },
    /// `[for k, v in coll : value if cond]` / `{for k, v in coll : key => value... if cond}`.
    For(Box<ForExpr<'s>>),
}

/// A number literal as written, with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    pub value: f64,
    /// Set when the literal is a whole number that fits an i64 (`3`, `1e3`, not `1.5`).
    pub int: Option<i64>,
}

/// One step after a traversal's source.
#[derive(Clone, Debug, PartialEq)]
pub enum Op<'s> {
    /// `.name`; the span is the name's.
    Attr(Ident<'s>),
    /// `[expr]`; the span includes the brackets.
    Index { key: Expr<'s>, span: Span },
    /// Legacy `.0`; the span is the number's.
    LegacyIndex { index: u64, span: Span },
    /// `.*`
    AttrSplat { span: Span },
    /// `[*]`
    FullSplat { span: Span },
}

impl Op<'_> {
    pub fn span(&self) -> &Span {
        match self {
            Op::Attr(i) => &i.span,
            Op::Index { span, .. } | Op::LegacyIndex { span, .. } | Op::AttrSplat { span } | Op::FullSplat { span } => {
                span
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ObjectItem<'s> {
    pub key: ObjectKey<'s>,
    pub value: Expr<'s>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ObjectKey<'s> {
    /// A bare identifier key: `name = …` (HCL reads it as a literal string, never a variable).
    Ident(Ident<'s>),
    /// Any other key: a quoted string, a parenthesised expression, a number, a traversal such
    /// as `aws.west` (used by `providers = { aws.west = … }`).
    Expr(Expr<'s>),
}

impl ObjectKey<'_> {
    pub fn span(&self) -> &Span {
        match self {
            ObjectKey::Ident(i) => &i.span,
            ObjectKey::Expr(e) => &e.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForExpr<'s> {
    pub key_var: Option<Ident<'s>>,
    pub value_var: Ident<'s>,
    pub collection: Expr<'s>,
    /// Set for an object `for` (`{for … : key => value}`).
    pub key: Option<Expr<'s>>,
    pub value: Expr<'s>,
    /// `...` after the value of an object `for`.
    pub grouping: bool,
    pub cond: Option<Expr<'s>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// A template: literal text, interpolations and directives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Template<'s> {
    pub parts: Vec<Part<'s>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Part<'s> {
    /// Literal text with escapes decoded (`\n`, `\"`, `\u00e9`, `$${` → `${`, `%%{` → `%{`).
    Literal { value: Cow<'s, str>, span: Span },
    /// `${ expr }` (with `~` strip markers, which only change whitespace).
    Interp { expr: Expr<'s>, span: Span },
    /// `%{ if cond }…%{ else }…%{ endif }`
    If { cond: Expr<'s>, then: Template<'s>, otherwise: Option<Template<'s>>, span: Span },
    /// `%{ for k, v in coll }…%{ endfor }`
    For { key_var: Option<Ident<'s>>, value_var: Ident<'s>, collection: Expr<'s>, body: Template<'s>, span: Span },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Heredoc<'s> {
    pub marker: &'s str,
    /// `<<-`: the common leading whitespace of the lines is removed from the value.
    pub strip_indent: bool,
    pub template: Template<'s>,
}

impl<'s> Template<'s> {
    /// The text of a template without interpolations or directives.
    pub fn literal(&self) -> Option<Cow<'s, str>> {
        match self.parts.as_slice() {
            [] => Some(Cow::Borrowed("")),
            [Part::Literal { value, .. }] => Some(value.clone()),
            parts => {
                let mut out = String::new();
                for p in parts {
                    match p {
                        Part::Literal { value, .. } => out.push_str(value),
                        _ => return None,
                    }
                }
                Some(Cow::Owned(out))
            }
        }
    }
}
