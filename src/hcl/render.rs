//! One canonical text for a syntax tree, for tests, debugging and debug views: HCL-like, with
//! every operator application in parentheses (so precedence shows), templates re-quoted with
//! their literal values escaped, and no spans.
//!
//! ```text
//! a.b[0] + -1 * f(x...)   →   (a.b[0] + ((-1) * f(x...)))
//! "x-${v}%{if c}y%{endif}" →   "x-${v}%{if c}y%{endif}"
//! ```

use super::ast::*;
use std::fmt::Write;

/// The canonical text of an expression.
pub fn expr(e: &Expr<'_>) -> String {
    let mut out = String::new();
    write_expr(&mut out, e);
    out
}

/// The canonical text of a template (without quotes).
pub fn template(t: &Template<'_>) -> String {
    let mut out = String::new();
    write_template(&mut out, t);
    out
}

/// The canonical text of a body: one item per line, blocks indented by two spaces.
pub fn body(b: &Body<'_>) -> String {
    let mut out = String::new();
    write_body(&mut out, b, 0);
    out
}

fn write_body(out: &mut String, b: &Body<'_>, indent: usize) {
    for item in &b.items {
        out.extend(std::iter::repeat_n(' ', indent));
        match item {
            Item::Attr(a) => {
                out.push_str(a.name.name);
                out.push_str(" = ");
                write_expr(out, &a.expr);
                out.push('\n');
            }
            Item::Block(bl) => {
                out.push_str(bl.kind.name);
                for l in &bl.labels {
                    out.push(' ');
                    write_quoted(out, &l.value);
                }
                out.push_str(" {\n");
                write_body(out, &bl.body, indent + 2);
                out.extend(std::iter::repeat_n(' ', indent));
                out.push_str("}\n");
            }
        }
    }
}

fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    write_literal(out, s);
    out.push('"');
}

/// Literal text with `"`, `\` and control characters escaped, and `${` / `%{` doubled.
fn write_literal(out: &mut String, s: &str) {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
}

fn write_template(out: &mut String, t: &Template<'_>) {
    for p in &t.parts {
        match p {
            Part::Literal { value, .. } => write_literal(out, value),
            Part::Interp { expr, .. } => {
                out.push_str("${");
                write_expr(out, expr);
                out.push('}');
            }
            Part::If { cond, then, otherwise, .. } => {
                out.push_str("%{if ");
                write_expr(out, cond);
                out.push('}');
                write_template(out, then);
                if let Some(o) = otherwise {
                    out.push_str("%{else}");
                    write_template(out, o);
                }
                out.push_str("%{endif}");
            }
            Part::For { key_var, value_var, collection, body, .. } => {
                out.push_str("%{for ");
                if let Some(k) = key_var {
                    out.push_str(k.name);
                    out.push_str(", ");
                }
                out.push_str(value_var.name);
                out.push_str(" in ");
                write_expr(out, collection);
                out.push('}');
                write_template(out, body);
                out.push_str("%{endfor}");
            }
        }
    }
}

fn write_list<'a, T: 'a>(
    out: &mut String,
    items: impl IntoIterator<Item = &'a T>,
    mut each: impl FnMut(&mut String, &'a T),
) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
}

fn write_expr(out: &mut String, e: &Expr<'_>) {
    match &e.kind {
        ExprKind::Null => out.push_str("null"),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Number(n) => match n.int {
            Some(i) => {
                let _ = write!(out, "{i}");
            }
            None => {
                let _ = write!(out, "{}", n.value);
            }
        },
        ExprKind::Template(t) => {
            out.push('"');
            write_template(out, t);
            out.push('"');
        }
        ExprKind::Heredoc(h) => {
            out.push_str(if h.strip_indent { "<<-" } else { "<<" });
            out.push_str(h.marker);
            out.push('"');
            write_template(out, &h.template);
            out.push('"');
        }
        ExprKind::Tuple(items) => {
            out.push('[');
            write_list(out, items, write_expr);
            out.push(']');
        }
        ExprKind::Object(items) => {
            out.push('{');
            write_list(out, items, |out, item| {
                match &item.key {
                    ObjectKey::Ident(i) => out.push_str(i.name),
                    ObjectKey::Expr(k) => write_expr(out, k),
                }
                out.push_str(" = ");
                write_expr(out, &item.value);
            });
            out.push('}');
        }
        ExprKind::Variable(i) => out.push_str(i.name),
        ExprKind::Traversal { source, ops } => {
            write_expr(out, source);
            for op in ops {
                match op {
                    Op::Attr(i) => {
                        out.push('.');
                        out.push_str(i.name);
                    }
                    Op::Index { key, .. } => {
                        out.push('[');
                        write_expr(out, key);
                        out.push(']');
                    }
                    Op::LegacyIndex { index, .. } => {
                        let _ = write!(out, ".{index}");
                    }
                    Op::AttrSplat { .. } => out.push_str(".*"),
                    Op::FullSplat { .. } => out.push_str("[*]"),
                }
            }
        }
        ExprKind::Call { name, args, expand_final } => {
            out.push_str(name.name);
            out.push('(');
            write_list(out, args, write_expr);
            if *expand_final {
                out.push_str("...");
            }
            out.push(')');
        }
        ExprKind::Paren(inner) => {
            out.push('(');
            write_expr(out, inner);
            out.push(')');
        }
        ExprKind::Conditional { cond, then, otherwise } => {
            out.push('(');
            write_expr(out, cond);
            out.push_str(" ? ");
            write_expr(out, then);
            out.push_str(" : ");
            write_expr(out, otherwise);
            out.push(')');
        }
        ExprKind::Unary { op, expr } => {
            out.push('(');
            out.push(match op {
                UnaryOp::Negate => '-',
                UnaryOp::Not => '!',
            });
            write_expr(out, expr);
            out.push(')');
        }
        ExprKind::Binary { op, lhs, rhs } => {
            out.push('(');
            write_expr(out, lhs);
            out.push(' ');
            out.push_str(binary_symbol(*op));
            out.push(' ');
            write_expr(out, rhs);
            out.push(')');
        }
        ExprKind::For(f) => {
            let object = f.key.is_some();
            out.push_str(if object { "{for " } else { "[for " });
            if let Some(k) = &f.key_var {
                out.push_str(k.name);
                out.push_str(", ");
            }
            out.push_str(f.value_var.name);
            out.push_str(" in ");
            write_expr(out, &f.collection);
            out.push_str(" : ");
            if let Some(k) = &f.key {
                write_expr(out, k);
                out.push_str(" => ");
            }
            write_expr(out, &f.value);
            if f.grouping {
                out.push_str("...");
            }
            if let Some(c) = &f.cond {
                out.push_str(" if ");
                write_expr(out, c);
            }
            out.push(if object { '}' } else { ']' });
        }
    }
}

/// The operator as written.
pub fn binary_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Or => "||",
        BinaryOp::And => "&&",
        BinaryOp::Eq => "==",
        BinaryOp::NotEq => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Mod => "%",
    }
}
