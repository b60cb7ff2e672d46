//! The native-syntax parser (`hcl`): the tree of each construct with its spans, errors
//! and recovery, and hostile input (deep nesting on a 1 MiB stack, truncations, random bytes).
//! Error texts are checked against Terraform in `hcl_syntax_errors.rs`; trees against hcl-edit
//! over the corpus in `hcl_differential.rs`.
#![cfg(not(target_arch = "wasm32"))]

use std::borrow::Cow;
use tfgraph::hcl::{self, ast::*, render, SyntaxError, MAX_DEPTH};

// ---- helpers ------------------------------------------------------------------------------

/// The canonical text of `src` parsed as one expression.
#[track_caller]
fn ex(src: &str) -> String {
    match hcl::parse_expr(src) {
        Ok(e) => render::expr(&e),
        Err(e) => panic!("{src:?}: {e:?}"),
    }
}

#[track_caller]
fn expr(src: &str) -> Expr<'_> {
    hcl::parse_expr(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"))
}

/// The attribute `x` of a body.
#[track_caller]
fn attr<'a, 's>(b: &'a Body<'s>, name: &str) -> &'a Attribute<'s> {
    b.items
        .iter()
        .find_map(|i| match i {
            Item::Attr(a) if a.name.name == name => Some(a),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no attribute {name}"))
}

#[track_caller]
fn block<'a, 's>(b: &'a Body<'s>, i: usize) -> &'a Block<'s> {
    match &b.items[i] {
        Item::Block(b) => b,
        other => panic!("item {i} is not a block: {other:?}"),
    }
}

#[track_caller]
fn body_ok(src: &str) -> Body<'_> {
    let p = hcl::parse_body(src);
    assert!(p.errors.is_empty(), "{src:?}: {:?}", p.errors);
    p.body
}

fn summaries(errors: &[SyntaxError]) -> Vec<&'static str> {
    errors.iter().map(|e| e.summary).collect()
}

/// Run `f` on a thread with a 1 MiB stack (the tests' stand-in for small wasm/worker stacks).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).unwrap().join().unwrap();
}

// ---- literals and names -------------------------------------------------------------------

#[test]
fn numbers_keep_their_value_and_whole_numbers_an_int() {
    for (src, value, int) in [
        ("1", 1.0, Some(1)),
        ("1.5", 1.5, None),
        ("1e3", 1000.0, Some(1000)),
        ("1E-2", 0.01, None),
        ("2.50", 2.5, None),
        ("10.0", 10.0, Some(10)),
        ("9007199254740993", 9007199254740993.0, Some(9007199254740993)),
        ("99999999999999999999", 1e20, None),
    ] {
        match expr(src).kind {
            ExprKind::Number(n) => {
                assert_eq!(n.value, value, "{src}");
                assert_eq!(n.int, int, "{src}");
            }
            k => panic!("{src}: {k:?}"),
        }
    }
    // `-1` is a negation of 1, as in HCL.
    assert_eq!(ex("-1"), "(-1)");
}

#[test]
fn keywords_variables_and_dashed_names() {
    assert_eq!(ex("true"), "true");
    assert_eq!(ex("false"), "false");
    assert_eq!(ex("null"), "null");
    assert!(matches!(expr("null").kind, ExprKind::Null));
    // A dash continues an identifier; with spaces it is a subtraction.
    assert_eq!(ex("count.index-1"), "count.index-1");
    assert_eq!(ex("a - b"), "(a - b)");
    assert_eq!(ex("a -b"), "(a - b)");
    assert_eq!(ex("_x-y_z"), "_x-y_z");
    // Unicode 9 identifier characters, as in HCL's scanner tables.
    assert_eq!(ex("résumé.ñandú"), "résumé.ñandú");
    let e = expr("  var  ");
    assert_eq!(e.span, 2..5);
    assert!(matches!(e.kind, ExprKind::Variable(Ident { name: "var", .. })));
}

// ---- templates ----------------------------------------------------------------------------

fn literal_parts<'a>(t: &'a Template<'_>) -> Vec<(&'a str, std::ops::Range<usize>)> {
    t.parts
        .iter()
        .filter_map(|p| match p {
            Part::Literal { value, span } => Some((value.as_ref(), span.clone())),
            _ => None,
        })
        .collect()
}

fn template_of<'a, 's>(e: &'a Expr<'s>) -> &'a Template<'s> {
    match &e.kind {
        ExprKind::Template(t) => t,
        ExprKind::Heredoc(h) => &h.template,
        k => panic!("not a template: {k:?}"),
    }
}

#[test]
fn quoted_strings_decode_escapes_and_borrow_plain_text() {
    let e = expr(r#""plain text""#);
    assert_eq!(e.span, 0..12);
    let t = template_of(&e);
    assert_eq!(literal_parts(t), vec![("plain text", 1..11)]);
    assert!(matches!(&t.parts[0], Part::Literal { value: Cow::Borrowed(_), .. }), "plain text is borrowed");
    assert_eq!(t.literal().as_deref(), Some("plain text"));

    let e = expr(r#""a\nb\tc\"d\\e\r\u00e9\U0001F600 $${x} %%{y} $$ %% $ %""#);
    assert_eq!(template_of(&e).literal().as_deref(), Some("a\nb\tc\"d\\e\ré😀 ${x} %{y} $$ %% $ %"));

    // The empty string has no parts.
    assert!(template_of(&expr(r#""""#)).parts.is_empty());
    assert_eq!(template_of(&expr(r#""""#)).literal().as_deref(), Some(""));
}

#[test]
fn interpolations_and_directives() {
    let src = r#""x-${var.a}-%{if c}yes%{else}no%{endif}%{for k, v in m}${k}=${v},%{endfor}""#;
    assert_eq!(ex(src), src);
    let e = expr(src);
    let t = template_of(&e);
    assert_eq!(t.parts.len(), 5);
    match &t.parts[1] {
        Part::Interp { expr, span } => {
            assert_eq!(&src[span.clone()], "${var.a}");
            assert_eq!(&src[expr.span.clone()], "var.a");
        }
        p => panic!("{p:?}"),
    }
    match &t.parts[3] {
        Part::If { span, then, otherwise, .. } => {
            assert_eq!(&src[span.clone()], "%{if c}yes%{else}no%{endif}");
            assert_eq!(then.literal().as_deref(), Some("yes"));
            assert_eq!(otherwise.as_ref().and_then(|o| o.literal()).as_deref(), Some("no"));
        }
        p => panic!("{p:?}"),
    }
    match &t.parts[4] {
        Part::For { key_var, value_var, span, body, .. } => {
            assert_eq!(key_var.as_ref().map(|k| k.name), Some("k"));
            assert_eq!(value_var.name, "v");
            assert_eq!(&src[span.clone()], "%{for k, v in m}${k}=${v},%{endfor}");
            assert_eq!(body.parts.len(), 4);
        }
        p => panic!("{p:?}"),
    }
    // Without %{else}, `otherwise` is None; with an empty one, Some(empty).
    match &template_of(&expr(r#""%{if c}a%{endif}""#)).parts[0] {
        Part::If { otherwise, .. } => assert!(otherwise.is_none()),
        p => panic!("{p:?}"),
    }
    match &template_of(&expr(r#""%{if c}a%{else}%{endif}""#)).parts[0] {
        Part::If { otherwise: Some(o), .. } => assert!(o.parts.is_empty()),
        p => panic!("{p:?}"),
    }
    // Nested templates inside interpolations.
    assert_eq!(ex(r#""a${"b${c}d"}e""#), r#""a${"b${c}d"}e""#);
}

#[test]
fn strip_markers_trim_the_neighbouring_literal_token() {
    let e = expr("\"a  ${~ b ~}  c\"");
    let lits = literal_parts(template_of(&e));
    assert_eq!(lits.iter().map(|l| l.0).collect::<Vec<_>>(), ["a", "c"]);
    // The spans stay those of the source text (as HCL's do).
    assert_eq!(lits[0].1, 1..4);
    // In a heredoc only the literal token next to the marker is trimmed, and a heredoc's
    // tokens end at line ends: the marker trims to the end (or from the start) of its own line
    // only. Terraform 1.0.3 evaluates this heredoc to "x  \n  \n  y  z\n".
    let src = "<<EOT\nx  \n  \n  %{~ if a ~}\n  y\n%{~ endif ~}\n  z\nEOT\n";
    let e = expr(src);
    let t = template_of(&e);
    assert_eq!(render::template(t), "x  \\n  \\n%{if a}  y%{endif}  z\\n");
    // Terraform evaluates this one to "abc".
    assert_eq!(ex(r#""a  ${~ "b" ~}  c""#), r#""a${"b"}c""#);
}

#[test]
fn heredocs_keep_the_text_as_written() {
    let src = "<<EOT\nhello ${name}\n  world\nEOT\n";
    let e = expr(src);
    assert_eq!(&src[e.span.clone()], "<<EOT\nhello ${name}\n  world\nEOT");
    match &e.kind {
        ExprKind::Heredoc(h) => {
            assert_eq!(h.marker, "EOT");
            assert!(!h.strip_indent);
            assert_eq!(render::template(&h.template), "hello ${name}\\n  world\\n");
        }
        k => panic!("{k:?}"),
    }
    // `<<-`: the indentation stays in the literals; the closing marker may be indented.
    let src = "<<-EOT\n    a\n      b\n    EOT\n";
    match &expr(src).kind {
        ExprKind::Heredoc(h) => {
            assert!(h.strip_indent);
            assert_eq!(h.template.literal().as_deref(), Some("    a\n      b\n"));
            assert!(matches!(&h.template.parts[0], Part::Literal { value: Cow::Borrowed(_), .. }));
        }
        k => panic!("{k:?}"),
    }
    // Empty heredocs, CRLF line ends, a marker word inside a line.
    assert!(template_of(&expr("<<EOT\nEOT\n")).parts.is_empty());
    assert_eq!(template_of(&expr("<<EOT\r\na\r\nEOT\r\n")).literal().as_deref(), Some("a\r\n"));
    assert_eq!(template_of(&expr("<<EOT\nnot EOT\n EOT x\nEOT\n")).literal().as_deref(), Some("not EOT\n EOT x\n"));
    // A heredoc inside an interpolation of a heredoc.
    assert_eq!(ex("<<A\n${<<B\ninner\nB\n}\nA\n"), "<<A\"${<<B\"inner\\n\"}\\n\"");
    // The heredoc ends the attribute; the newline after its marker ends the line.
    let b = body_ok("a = <<EOT\nx\nEOT\nb = 1\n");
    assert_eq!(b.items.len(), 2);
    assert_eq!(attr(&b, "a").span, 0..15);
}

#[test]
fn bare_templates() {
    let t = hcl::parse_template("a ${b} %{if c}d%{endif} $${e} %%{f} \\n $").unwrap();
    assert_eq!(render::template(&t), "a ${b} %{if c}d%{endif} $${e} %%{f} \\\\n $");
    let t = hcl::parse_template("${x}").unwrap();
    match &t.parts[..] {
        [Part::Interp { expr, span }] => {
            assert_eq!(span, &(0..4));
            assert_eq!(expr.span, 2..3);
        }
        p => panic!("{p:?}"),
    }
    assert!(hcl::parse_template("").unwrap().parts.is_empty());
    assert_eq!(hcl::parse_template("line1\nline2").unwrap().literal().as_deref(), Some("line1\nline2"));
    // hclsyntax v2.24.0 (parser.go:1108) names the end of the file; v2.10 said "Invalid expression".
    let e = hcl::parse_template("${").unwrap_err();
    assert_eq!(e.summary, "Missing expression");
    let e = hcl::parse_template("${a").unwrap_err();
    assert_eq!((e.summary, e.span), ("Unclosed template interpolation sequence", 0..2));
}

// ---- collections ----------------------------------------------------------------------------

#[test]
fn tuples_and_objects() {
    assert_eq!(ex("[]"), "[]");
    assert_eq!(ex("[1, 2,]"), "[1, 2]");
    assert_eq!(ex("[\n  1,\n  2\n]"), "[1, 2]");
    assert_eq!(ex("{}"), "{}");
    assert_eq!(ex("{a = 1, b = 2,}"), "{a = 1, b = 2}");
    assert_eq!(ex("{\n  a = 1\n  b: 2\n\n  c = 3,\n}"), "{a = 1, b = 2, c = 3}");
    // Keys: bare names, strings, parenthesised expressions, numbers, traversals; duplicates
    // are the evaluator's business.
    assert_eq!(
        ex(r#"{a = 1, "b" = 2, (c) = 3, 4 = 4, aws.west = 5, a = 6}"#),
        r#"{a = 1, "b" = 2, (c) = 3, 4 = 4, aws.west = 5, a = 6}"#
    );
    let src = r#"{name = 1, "q" = 2, (k) = 3, aws.west = 4}"#;
    match expr(src).kind {
        ExprKind::Object(items) => {
            assert!(matches!(&items[0].key, ObjectKey::Ident(Ident { name: "name", .. })));
            assert!(matches!(&items[1].key, ObjectKey::Expr(Expr { kind: ExprKind::Template(_), .. })));
            assert!(matches!(&items[2].key, ObjectKey::Expr(Expr { kind: ExprKind::Paren(_), .. })));
            assert!(matches!(&items[3].key, ObjectKey::Expr(Expr { kind: ExprKind::Traversal { .. }, .. })));
            assert_eq!(&src[items[3].key.span().clone()], "aws.west");
            assert_eq!(&src[items[3].value.span.clone()], "4");
        }
        k => panic!("{k:?}"),
    }
    let e = expr("[1, [2]]");
    assert_eq!(e.span, 0..8);
}

#[test]
fn newlines_inside_brackets_and_objects() {
    // Newlines are free inside (), [] and function calls...
    assert_eq!(ex("(\n a\n +\n b\n)"), "((a + b))");
    assert_eq!(ex("f(\n a,\n b\n)"), "f(a, b)");
    assert_eq!(ex("x[\n 0\n]"), "x[0]");
    // ... and an object's items end at newlines, so an operator may not end a line there.
    let p = hcl::parse_body("x = {\n  a = 1 +\n  2\n}\n");
    assert_eq!(summaries(&p.errors), ["Invalid expression"]);
    // Inside a tuple nested in an object, newlines are free again.
    assert_eq!(ex("{\n  a = [\n 1,\n 2]\n}"), "{a = [1, 2]}");
    // `for` right after `{` may follow a newline.
    assert_eq!(ex("{\n for k, v in m : k => v\n}"), "{for k, v in m : k => v}");
}

// ---- operators ----------------------------------------------------------------------------

#[test]
fn operator_precedence_and_associativity() {
    assert_eq!(ex("a || b && c == d < e + f * g"), "(a || (b && (c == (d < (e + (f * g))))))");
    assert_eq!(ex("a * b + c"), "((a * b) + c)");
    assert_eq!(ex("a - b - c"), "((a - b) - c)");
    assert_eq!(ex("a / b % c * d"), "(((a / b) % c) * d)");
    assert_eq!(ex("a == b != c"), "((a == b) != c)");
    assert_eq!(ex("a <= b >= c < d > e"), "((((a <= b) >= c) < d) > e)");
    assert_eq!(ex("!a && -b"), "((!a) && (-b))");
    // A unary operator takes the term with its traversal, not the binary expression.
    assert_eq!(ex("-a.b + 1"), "((-a.b) + 1)");
    assert_eq!(ex("!!a"), "(!(!a))");
    assert_eq!(ex("(a + b) * c"), "(((a + b)) * c)");
    // Conditionals: right-nested, the lowest precedence.
    assert_eq!(ex("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
    assert_eq!(ex("a || b ? c + 1 : d"), "((a || b) ? (c + 1) : d)");
    assert_eq!(ex("a ? b ? c : d : e"), "(a ? (b ? c : d) : e)");
    let src = "a + b * c";
    match expr(src).kind {
        ExprKind::Binary { op: BinaryOp::Add, lhs, rhs } => {
            assert_eq!(lhs.span, 0..1);
            assert_eq!(&src[rhs.span.clone()], "b * c");
        }
        k => panic!("{k:?}"),
    }
    let src = "x ? y : z";
    assert_eq!(expr(src).span, 0..9);
    assert_eq!(expr("-1").span, 0..2);
}

// ---- traversals, calls, for ----------------------------------------------------------------

#[test]
fn traversals_keep_a_flat_list_of_steps() {
    let src = "aws_instance.web[0].tags[\"Name\"].*.x[*].y.0[k]";
    assert_eq!(ex(src), "aws_instance.web[0].tags[\"Name\"].*.x[*].y.0[k]");
    match expr(src).kind {
        ExprKind::Traversal { source, ops } => {
            assert!(matches!(source.kind, ExprKind::Variable(Ident { name: "aws_instance", .. })));
            let kinds: Vec<&str> = ops
                .iter()
                .map(|o| match o {
                    Op::Attr(_) => "attr",
                    Op::Index { .. } => "index",
                    Op::LegacyIndex { .. } => "legacy",
                    Op::AttrSplat { .. } => "attr-splat",
                    Op::FullSplat { .. } => "full-splat",
                })
                .collect();
            assert_eq!(
                kinds,
                ["attr", "index", "attr", "index", "attr-splat", "attr", "full-splat", "attr", "legacy", "index"]
            );
            let spans: Vec<&str> = ops.iter().map(|o| &src[o.span().clone()]).collect();
            assert_eq!(spans, ["web", "[0]", "tags", "[\"Name\"]", ".*", "x", "[*]", "y", "0", "[k]"]);
            assert!(matches!(ops[8], Op::LegacyIndex { index: 0, .. }));
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(expr(src).span, 0..src.len());
    // Traversals apply to any term.
    assert_eq!(ex("f(x).y[0]"), "f(x).y[0]");
    assert_eq!(ex("(a).b"), "(a).b");
    assert_eq!(ex("[a, b][1]"), "[a, b][1]");
    assert_eq!(ex("\"s\".x"), "\"s\".x");
    assert_eq!(ex("a[b[c]]"), "a[b[c]]");
    assert_eq!(ex("a.1e3"), "a.1000");
}

#[test]
fn function_calls() {
    assert_eq!(ex("f()"), "f()");
    assert_eq!(ex("f(1, 2,)"), "f(1, 2)");
    assert_eq!(ex("concat(a, b...)"), "concat(a, b...)");
    let src = "provider::aws::arn_parse(x)";
    match expr(src).kind {
        ExprKind::Call { name, args, expand_final } => {
            assert_eq!(name.name, "provider::aws::arn_parse");
            assert_eq!(name.span, 0..24);
            assert_eq!(args.len(), 1);
            assert!(!expand_final);
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(expr(src).span, 0..src.len());
    // A name followed by a newline is no call at the attribute level.
    let p = hcl::parse_body("a = f\n(1)\n");
    assert_eq!(summaries(&p.errors), ["Argument or block definition required"]);
}

#[test]
fn for_expressions() {
    assert_eq!(ex("[for v in xs : v]"), "[for v in xs : v]");
    assert_eq!(ex("[for i, v in xs : v * 2 if i > 0]"), "[for i, v in xs : (v * 2) if (i > 0)]");
    assert_eq!(ex("{for k, v in m : k => v}"), "{for k, v in m : k => v}");
    assert_eq!(ex("{for k, v in m : v.g => k... if v != null}"), "{for k, v in m : v.g => k... if (v != null)}");
    assert_eq!(ex("[\n for v in xs :\n v\n]"), "[for v in xs : v]");
    let src = "{for k, v in m : upper(k) => v...}";
    let e = expr(src);
    assert_eq!(e.span, 0..src.len());
    match e.kind {
        ExprKind::For(f) => {
            assert_eq!(f.key_var.map(|k| k.span), Some(5..6));
            assert_eq!(f.value_var.span, 8..9);
            assert_eq!(&src[f.collection.span.clone()], "m");
            assert_eq!(f.key.map(|k| &src[k.span]), Some("upper(k)"));
            assert!(f.grouping);
        }
        k => panic!("{k:?}"),
    }
    // `for` as a variable name outside that position is just a name.
    assert_eq!(ex("[fore, in]"), "[fore, in]");
}

// ---- bodies -------------------------------------------------------------------------------

#[test]
fn bodies_attributes_and_blocks_with_spans() {
    let src = "# comment\nterraform {\n  required_version = \">= 1.0\" // trailing\n}\n\nresource \"aws_instance\" web {\n  ami = var.ami /* inline */\n  nested { x = 1 }\n  empty {}\n}\n/* block\ncomment */\nlocals { a = 1 }\n";
    let b = body_ok(src);
    assert_eq!(b.items.len(), 3);
    let tf = block(&b, 0);
    assert_eq!(tf.kind.name, "terraform");
    assert_eq!(&src[tf.span.clone()], "terraform {\n  required_version = \">= 1.0\" // trailing\n}");
    assert_eq!(&src[tf.open_brace.clone()], "{");
    assert_eq!(tf.close_brace, tf.span.end - 1..tf.span.end);
    let rv = attr(&tf.body, "required_version");
    assert_eq!(&src[rv.span.clone()], "required_version = \">= 1.0\"");
    assert_eq!(&src[rv.name.span.clone()], "required_version");

    let res = block(&b, 1);
    assert_eq!(res.labels.iter().map(|l| l.value.as_ref()).collect::<Vec<_>>(), ["aws_instance", "web"]);
    assert_eq!(&src[res.labels[0].span.clone()], "\"aws_instance\"");
    assert_eq!(&src[res.labels[1].span.clone()], "web");
    assert_eq!(&src[attr(&res.body, "ami").span.clone()], "ami = var.ami");
    let nested = block(&res.body, 1);
    assert_eq!(&src[nested.span.clone()], "nested { x = 1 }");
    assert_eq!(nested.body.items.len(), 1);
    assert!(block(&res.body, 2).body.items.is_empty());
    assert_eq!(block(&b, 2).kind.name, "locals");

    // A label with escapes is decoded.
    let b = body_ok("a \"x\\\"y\\u00e9\" {}\n");
    assert_eq!(block(&b, 0).labels[0].value, "x\"yé");
    // No newline at the end of the file is fine; so is a BOM and CRLF.
    assert_eq!(body_ok("a = 1").items.len(), 1);
    assert_eq!(body_ok("\u{feff}a = 1\r\nb {\r\n}\r\n").items.len(), 2);
    assert_eq!(body_ok("").items.len(), 0);
}

#[test]
fn redefined_attributes_keep_the_first_and_name_it() {
    let src = "a = 1\nb {\n  a = 1\n}\na = 2\n";
    let p = hcl::parse_body(src);
    assert_eq!(p.body.items.len(), 2, "the second `a` is left out, as in HCL");
    assert_eq!(p.errors.len(), 1);
    let e = &p.errors[0];
    assert_eq!(e.summary, "Attribute redefined");
    assert_eq!(e.span, 20..21);
    assert_eq!(e.at, Some(0..1));
    assert_eq!(e.detail, "The argument \"a\" was already set at {at}. Each argument may be set only once.");
    assert_eq!(
        e.detail_with(|r| format!("main.tf:1,{}-{}", r.start + 1, r.end + 1)),
        "The argument \"a\" was already set at main.tf:1,1-2. Each argument may be set only once."
    );
    // Many attributes (the set switches to hashing) still find duplicates.
    let mut src = String::new();
    for i in 0..100 {
        src.push_str(&format!("a{i} = {i}\n"));
    }
    src.push_str("a57 = 0\n");
    let p = hcl::parse_body(&src);
    assert_eq!(summaries(&p.errors), ["Attribute redefined"]);
    assert_eq!(p.body.items.len(), 100);
}

#[test]
fn recovery_keeps_the_items_around_a_broken_one() {
    // As in Terraform 1.0.3: the unbalanced parenthesis still gets reported, and its recovery
    // eats the block's `}`, so `e` ends up inside the block.
    let src = "a = 1\nb = [1 2]\nc = 3\nblk \"x\" {\n  d = (\n}\ne = 4\n";
    let p = hcl::parse_body(src);
    assert_eq!(summaries(&p.errors), ["Missing item separator", "Unbalanced parentheses"]);
    let names: Vec<&str> = p
        .body
        .items
        .iter()
        .map(|i| match i {
            Item::Attr(a) => a.name.name,
            Item::Block(b) => b.kind.name,
        })
        .collect();
    assert_eq!(names, ["a", "b", "c", "blk"]);
    let blk = block(&p.body, 3);
    attr(&blk.body, "d");
    attr(&blk.body, "e");
    // Items after an error inside a nested block stay in their bodies.
    let src = "outer {\n  x = 1 2\n  y = 3\n}\nz = 4\n";
    let p = hcl::parse_body(src);
    assert_eq!(summaries(&p.errors), ["Missing newline after argument"]);
    let outer = block(&p.body, 0);
    assert_eq!(outer.body.items.len(), 2);
    attr(&p.body, "z");
}

#[test]
fn parse_expr_takes_exactly_one_expression() {
    assert_eq!(ex("  a.b  \n"), "a.b");
    assert_eq!(ex("\n  a +\n  b\n"), "(a + b)");
    let e = hcl::parse_expr("a b").unwrap_err();
    assert_eq!(e.summary, "Extra characters after expression");
    assert_eq!(e.detail, "An expression was successfully parsed, but extra characters were found after it.");
    assert_eq!(e.span, 2..3);
    let e = hcl::parse_expr("").unwrap_err();
    assert_eq!((e.summary, e.span), ("Missing expression", 0..0));
    let e = hcl::parse_expr("[1, 2").unwrap_err();
    assert_eq!((e.summary, e.span), ("Unterminated tuple constructor expression", 0..1));
    let e = hcl::parse_expr("a # comment").unwrap();
    assert_eq!(e.span, 0..1);
    let e = hcl::parse_expr("1 @").unwrap_err();
    assert_eq!((e.summary, e.span), ("Invalid character", 2..3));
}

// ---- hostile input ------------------------------------------------------------------------

/// Every span in the tree lies within `src` on character boundaries.
fn check_spans(src: &str, body: &Body<'_>, errors: &[SyntaxError]) {
    let ok = |s: &std::ops::Range<usize>| {
        assert!(s.start <= s.end && s.end <= src.len(), "span {s:?} outside {}", src.len());
        assert!(
            src.is_char_boundary(s.start) && src.is_char_boundary(s.end),
            "span {s:?} not on char boundaries in {src:?}"
        );
    };
    for e in errors {
        ok(&e.span);
        if let Some(at) = &e.at {
            ok(at);
        }
    }
    let mut exprs: Vec<&Expr<'_>> = Vec::new();
    let mut bodies = vec![body];
    while let Some(b) = bodies.pop() {
        for item in &b.items {
            match item {
                Item::Attr(a) => {
                    ok(&a.span);
                    ok(&a.name.span);
                    exprs.push(&a.expr);
                }
                Item::Block(bl) => {
                    for s in [&bl.span, &bl.open_brace, &bl.close_brace, &bl.kind.span] {
                        ok(s);
                    }
                    bl.labels.iter().for_each(|l| ok(&l.span));
                    bodies.push(&bl.body);
                }
            }
        }
    }
    let mut templates: Vec<&Template<'_>> = Vec::new();
    loop {
        if let Some(e) = exprs.pop() {
            ok(&e.span);
            match &e.kind {
                ExprKind::Template(t) => templates.push(t),
                ExprKind::Heredoc(h) => templates.push(&h.template),
                ExprKind::Tuple(items) => exprs.extend(items),
                ExprKind::Object(items) => {
                    for i in items {
                        ok(i.key.span());
                        if let ObjectKey::Expr(k) = &i.key {
                            exprs.push(k);
                        }
                        exprs.push(&i.value);
                    }
                }
                ExprKind::Variable(i) => ok(&i.span),
                ExprKind::Traversal { source, ops } => {
                    exprs.push(source);
                    for o in ops {
                        ok(o.span());
                        if let Op::Index { key, .. } = o {
                            exprs.push(key);
                        }
                    }
                }
                ExprKind::Call { name, args, .. } => {
                    ok(&name.span);
                    exprs.extend(args);
                }
                ExprKind::Paren(x) | ExprKind::Unary { expr: x, .. } => exprs.push(x),
                ExprKind::Conditional { cond, then, otherwise } => exprs.extend([&**cond, then, otherwise]),
                ExprKind::Binary { lhs, rhs, .. } => exprs.extend([&**lhs, rhs]),
                ExprKind::For(f) => {
                    exprs.extend([&f.collection, &f.value]);
                    exprs.extend(f.key.iter().chain(f.cond.iter()));
                }
                ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) => {}
            }
        } else if let Some(t) = templates.pop() {
            for p in &t.parts {
                match p {
                    Part::Literal { span, .. } => ok(span),
                    Part::Interp { expr, span } => {
                        ok(span);
                        exprs.push(expr);
                    }
                    Part::If { cond, then, otherwise, span } => {
                        ok(span);
                        exprs.push(cond);
                        templates.push(then);
                        templates.extend(otherwise.iter());
                    }
                    Part::For { collection, body, span, .. } => {
                        ok(span);
                        exprs.push(collection);
                        templates.push(body);
                    }
                }
            }
        } else {
            break;
        }
    }
}

fn parse_all_ways(src: &str) {
    let p = hcl::parse_body(src);
    check_spans(src, &p.body, &p.errors);
    if let Ok(e) = hcl::parse_expr(src) {
        let wrapped =
            Body { items: vec![Item::Attr(Attribute { name: Ident { name: "x", span: 0..0 }, expr: e, span: 0..0 })] };
        check_spans(src, &wrapped, &[]);
    }
    if let Ok(t) = hcl::parse_template(src) {
        let e = Expr { kind: ExprKind::Template(t), span: 0..0 };
        let wrapped =
            Body { items: vec![Item::Attr(Attribute { name: Ident { name: "x", span: 0..0 }, expr: e, span: 0..0 })] };
        check_spans(src, &wrapped, &[]);
    }
    for e in [hcl::parse_expr(src).err(), hcl::parse_template(src).err()].into_iter().flatten() {
        check_spans(src, &Body::default(), &[e]);
    }
}

const DEEP: usize = 10_000;

/// Deeply nested inputs of every construct, each on a 1 MiB stack: a diagnostic, no overflow,
/// and the partial tree drops.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    on_small_stack(|| {
        let n = DEEP;
        let cases: Vec<(&str, String)> = vec![
            ("brackets", format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n))),
            ("parens", format!("x = {}1{}\n", "(".repeat(n), ")".repeat(n))),
            ("objects", format!("x = {}1{}\n", "{a = ".repeat(n), "}".repeat(n))),
            ("blocks", format!("{}{}", "a {\n".repeat(n), "}\n".repeat(n))),
            ("templates", format!("x = {}1{}\n", "\"${".repeat(n), "}\"".repeat(n))),
            ("heredocs", format!("x = {}1{}\n", "<<EOT\n${".repeat(n), "}\nEOT\n".repeat(n))),
            ("directives", format!("x = \"{}x{}\"\n", "%{if a}".repeat(n), "%{endif}".repeat(n))),
            ("for directives", format!("x = \"{}x{}\"\n", "%{for a in b}".repeat(n), "%{endfor}".repeat(n))),
            ("not", format!("x = {}a\n", "!".repeat(n))),
            ("negate", format!("x = {}1\n", "-".repeat(n))),
            ("conditional chain", format!("x = {}c\n", "a ? b : ".repeat(n))),
            ("conditional nest", format!("x = {}b{}\n", "a ? ".repeat(n), " : c".repeat(n))),
            ("sum chain", format!("x = {}a\n", "a + ".repeat(n))),
            ("mixed chain", format!("x = {}a\n", "a * b + c && ".repeat(n))),
            ("calls", format!("x = {}{}\n", "f(".repeat(n), ")".repeat(n))),
            ("indexes", format!("x = {}0{}\n", "a[".repeat(n), "]".repeat(n))),
            ("for tuple", format!("x = {}a{}\n", "[for x in ".repeat(n), " : x]".repeat(n))),
            ("for object", format!("x = {}a{}\n", "{for k, v in ".repeat(n), " : k => v}".repeat(n))),
            ("mixed", format!("x = {}", "[(\"${{a = f(!-<<EOT\n%{if [for x in ".repeat(n / 10))),
            ("unclosed brackets", format!("x = {}", "[".repeat(n))),
            ("unclosed blocks", "a {\n".repeat(n)),
            ("unclosed templates", format!("x = {}", "\"${".repeat(n))),
            ("unclosed heredocs", format!("x = {}", "<<EOT\n${".repeat(n))),
            ("unclosed parens", format!("x = {}", "(".repeat(n))),
        ];
        for (name, src) in &cases {
            let p = hcl::parse_body(src);
            assert!(
                p.errors.iter().any(|e| e.summary == "Expression too deeply nested"),
                "{name}: {:?}",
                p.errors.iter().take(3).collect::<Vec<_>>()
            );
            check_spans(src, &p.body, &p.errors);
            drop(p);
            // The same as one expression and as a template.
            let src = src.trim_start_matches("x = ");
            let _ = hcl::parse_expr(src);
            let _ = hcl::parse_template(src);
        }
    });
}

/// Nesting just within the limit parses without error, and the deepest trees drop on a small
/// stack.
#[test]
fn nesting_within_the_limit_parses_and_drops() {
    on_small_stack(|| {
        let n = MAX_DEPTH / 2;
        let cases = [
            format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
            format!("x = {}1{}\n", "{a = ".repeat(n), "}".repeat(n)),
            format!("{}{}", "a {\n".repeat(n), "}\n".repeat(n)),
            format!("x = {}1{}\n", "\"${".repeat(n), "}\"".repeat(n)),
            format!("x = {}a\n", "!".repeat(n)),
            format!("x = {}a\n", "a + ".repeat(n)),
            format!("x = {}c\n", "a ? b : ".repeat(n)),
            format!("x = \"{}x{}\"\n", "%{if a}".repeat(n), "%{endif}".repeat(n)),
            format!("x = {}a{}\n", "[for x in ".repeat(n), " : x]".repeat(n)),
        ];
        for src in &cases {
            let p = hcl::parse_body(src);
            assert!(p.errors.is_empty(), "{}: {:?}", &src[..40.min(src.len())], p.errors);
            drop(p);
        }
    });
}

/// A sample with every construct, truncated at every byte: never a panic, spans in bounds.
const SAMPLE: &str = r#"# A sample of every construct.
terraform {
  required_version = ">= 1.0" // pinned
}

variable "names" {
  type    = list(string)
  default = ["a", "b", "c"]
}

locals {
  n      = length(var.names) * 2 + 1 - -3 % 2
  ok     = !false && (1 < 2 || 3 >= 4) ? "yes" : "no"
  obj    = { a = 1, "b" = 2, (local.k) = 3, aws.west = 4 }
  upper  = [for i, n in var.names : upper(n) if i != 0]
  by     = { for n in var.names : n => n... }
  s      = "é ${var.names[0]} %{ if true ~} x %{~ else }y%{ endif } $${lit} \u00e9"
  h      = <<-EOT
    Hello, ${var.names[0]}!
    %{ for n in var.names }- ${n}
    %{ endfor }
    EOT
  splat  = aws_instance.web[*].id
  legacy = aws_instance.web.*.tags.0.Name
  call   = provider::aws::arn_parse("arn")
  expand = concat(var.names...)
}

resource "aws_instance" "web" {
  count = 2
  ami   = data.aws_ami.x.id /* block
  comment */
  ebs_block_device { device_name = "/dev/sdh" }
  lifecycle {
    ignore_changes = [tags]
  }
}
"#;

#[test]
fn sample_parses_cleanly() {
    let p = hcl::parse_body(SAMPLE);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.body.items.len(), 4);
}

#[test]
fn truncations_never_panic() {
    let mut sources: Vec<String> = vec![SAMPLE.to_string()];
    // A real file from the corpus too, when it is there.
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if let Some(file) = find_corpus_file(&corpus, 3_000..6_000) {
        sources.push(std::fs::read_to_string(file).unwrap());
    } else {
        eprintln!("corpus not found at {}: truncating the sample only", corpus.display());
    }
    for src in &sources {
        for cut in 0..=src.len() {
            if src.is_char_boundary(cut) {
                parse_all_ways(&src[..cut]);
                parse_all_ways(&src[cut..]);
            }
        }
    }
}

/// The first `.tf` file (in path order) whose size is in `range` and that has a heredoc or a
/// template sequence.
fn find_corpus_file(dir: &std::path::Path, range: std::ops::Range<u64>) -> Option<std::path::PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    let mut found = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf")
                && range.contains(&e.metadata().map(|m| m.len()).unwrap_or(0))
            {
                found.push(p);
            }
        }
    }
    found.sort();
    found.into_iter().find(|p| std::fs::read_to_string(p).is_ok_and(|s| s.contains("<<") && s.contains("${")))
}

/// A small deterministic generator (xorshift) for the random tests.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_input_never_panics() {
    const PIECES: &[&str] = &[
        "a",
        "b",
        "for",
        "in",
        "if",
        "endif",
        "else",
        "endfor",
        "true",
        "null",
        "1",
        "2.5",
        "1e",
        "0.1",
        " ",
        " ",
        "\n",
        "\r\n",
        "\r",
        "\t",
        "=",
        "==",
        ",",
        ".",
        "..",
        "...",
        ":",
        "::",
        "?",
        "!",
        "-",
        "+",
        "*",
        "/",
        "%",
        "<",
        ">",
        "<=",
        "&&",
        "||",
        "&",
        "|",
        "~",
        "^",
        ";",
        "`",
        "'",
        "=>",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "\"",
        "\\",
        "\\n",
        "\\u",
        "\\U0001F600",
        "$",
        "${",
        "%{",
        "$${",
        "%%{",
        "~}",
        "#",
        "//",
        "/*",
        "*/",
        "<<EOT\n",
        "<<-EOT\n",
        "EOT\n",
        "  EOT\n",
        "é",
        "€",
        "😀",
        "\u{201c}",
        "\u{feff}",
        "\0",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let len = rng.below(40);
        let mut s = String::new();
        for _ in 0..len {
            s.push_str(PIECES[rng.below(PIECES.len())]);
        }
        parse_all_ways(&s);
    }
    // Random characters: mostly ASCII (all of it, control characters included), some from
    // anywhere in Unicode.
    for _ in 0..5_000 {
        let len = rng.below(60);
        let s: String = (0..len)
            .map(|_| {
                if rng.below(8) == 0 {
                    char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}')
                } else {
                    (rng.below(128) as u8) as char
                }
            })
            .collect();
        parse_all_ways(&s);
    }
    // Random edits of the sample.
    for _ in 0..2_000 {
        let mut s = SAMPLE.to_string();
        for _ in 0..1 + rng.below(4) {
            let mut at = rng.below(s.len());
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            if rng.below(2) == 0 {
                s.insert_str(at, PIECES[rng.below(PIECES.len())]);
            } else {
                let mut end = (at + 1 + rng.below(8)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, "");
            }
        }
        parse_all_ways(&s);
    }
}

#[test]
fn multi_byte_characters_at_error_positions() {
    for src in [
        "x = é€",
        "x = \"€",
        "x = <<EOT\n€",
        "€ = 1",
        "x = 1 €\ny = 2",
        "x = [€]",
        "x = {€}",
        "x = a.€",
        "x = \"${€}\"",
        "b \"€\" € {",
    ] {
        parse_all_ways(src);
        let p = hcl::parse_body(src);
        assert!(!p.errors.is_empty(), "{src}");
    }
}

/// Large inputs stay linear: a long flat file, and long runs of brackets, errors and newlines.
#[test]
fn pathological_but_flat_inputs_stay_fast() {
    let started = std::time::Instant::now();
    let long_list = format!("x = [{}]\n", "1, ".repeat(200_000));
    assert!(hcl::parse_body(&long_list).errors.is_empty());
    let many_attrs: String = (0..50_000).map(|i| format!("a{i} = \"v${{x}}\"\n")).collect();
    assert!(hcl::parse_body(&many_attrs).errors.is_empty());
    let newlines = format!("x = ({}1{})\n", "\n".repeat(200_000), "\n".repeat(200_000));
    assert!(hcl::parse_body(&newlines).errors.is_empty());
    let long_traversal = format!("x = a{}\n", ".b[0]".repeat(100_000));
    assert!(hcl::parse_body(&long_traversal).errors.is_empty());
    let _ = hcl::parse_body(&"@".repeat(100_000));
    let _ = hcl::parse_body(&"}".repeat(100_000));
    let _ = hcl::parse_body(&"x = [\n".repeat(50_000));
    let _ = hcl::parse_body(&"\"".repeat(100_000));
    let _ = hcl::parse_body(&"a = \"${\n".repeat(50_000));
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
}

/// What hclsyntax v2.24.0 leaves in the tree after some errors (Terraform decodes the partial
/// tree of a file with syntax errors too): where it returns an `ExprSyntaxError`, we hold a
/// placeholder with that error's range.
#[test]
fn partial_trees_after_errors_as_hcl_v2_24() {
    // parser.go:818: no name after a dot makes the reference so far an error through the dot.
    let p = hcl::parse_body("x = a.b.\n");
    assert_eq!(summaries(&p.errors), ["Invalid attribute name"]);
    let x = attr(&p.body, "x");
    assert!(matches!(x.expr.kind, ExprKind::Null), "{:?}", x.expr);
    assert_eq!(x.expr.span, 4..8);
    // parser.go:1529: an object keeps such a value as its last item, then skips the rest.
    let src = "x = { a = 1, b = c., d = 2 }\n";
    let p = hcl::parse_body(src);
    assert_eq!(summaries(&p.errors), ["Invalid attribute name"]);
    match &attr(&p.body, "x").expr.kind {
        ExprKind::Object(items) => {
            assert_eq!(items.len(), 2);
            assert!(matches!(&items[1].key, ObjectKey::Ident(Ident { name: "b", .. })));
            assert!(matches!(items[1].value.kind, ExprKind::Null));
            assert_eq!(&src[items[1].value.span.clone()], "c.");
        }
        k => panic!("{k:?}"),
    }
    // Other broken values are not kept.
    let p = hcl::parse_body("x = { a = 1, b = (, d = 2 }\n");
    match &attr(&p.body, "x").expr.kind {
        ExprKind::Object(items) => assert_eq!(items.len(), 1),
        k => panic!("{k:?}"),
    }
    // parser.go:1180 and :1217: a broken namespaced name, from the name to the offending token.
    let src = "x = { a = provider::aws::arn, b = 1 }\n";
    let p = hcl::parse_body(src);
    assert_eq!(summaries(&p.errors), ["Missing open parenthesis"]);
    match &attr(&p.body, "x").expr.kind {
        ExprKind::Object(items) => {
            assert_eq!(items.len(), 1);
            assert_eq!(&src[items[0].value.span.clone()], "provider::aws::arn,");
        }
        k => panic!("{k:?}"),
    }
}
