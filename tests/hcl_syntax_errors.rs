//! Syntax errors of `hcl::parse_body` as Terraform 1.15 reports them (hclsyntax
//! v2.24.0): the summary, the detail (with `{at}` rendered as HCL renders a range) and the
//! subject's byte range as Terraform's JSON shows it, which widens an empty range by one byte
//! (e.g. at the end of the file). Diagnostics that are not about syntax (unsupported blocks,
//! unknown references) are left out.
//!
//! Where each expectation comes from, case by case ([`Source`]):
//!
//! * `Oracle`: observed with the real Terraform 1.0.3 (`terraform validate -json` on the input
//!   as `main.tf`, through the oracle in ../oracle), whose hclsyntax (v2.10.1) reports these
//!   cases as v2.24.0 does: the code paths involved did not change between the two.
//! * `Hcl(..)`: derived by reading the hclsyntax v2.24.0 source at the cited line, where v2.24.0
//!   differs from what Terraform 1.0.3 showed (the old observation is kept in a comment) or
//!   where Terraform 1.0.3 has no such syntax (`provider::ns::fn()` calls). Not observed: no
//!   Terraform 1.15 binary is at hand.
#![cfg(not(target_arch = "wasm32"))]

use tfgraph::hcl;

/// Where a case's expectation comes from (see the module documentation).
#[derive(Clone, Copy, Debug)]
enum Source {
    /// Observed with Terraform 1.0.3, unchanged in hclsyntax v2.24.0.
    Oracle,
    /// Read from hclsyntax v2.24.0's source: the file and line of the diagnostic.
    // Read only through `Debug`, in failure messages, which dead-code analysis does not count.
    #[allow(dead_code)]
    Hcl(&'static str),
}
use Source::*;

/// A diagnostic as (summary, detail, byte range).
type Expected = (&'static str, &'static str, std::ops::Range<usize>);

/// (case, source, main.tf, expected diagnostics)
#[rustfmt::skip]
const CASES: &[(&str, Source, &str, &[Expected])] = &[
    (
        "unclosed_block",
        Hcl("parser.go:96"),
        r#"locals {
  x = 1
"#,
        &[
            // Terraform 1.0.3: ("Argument or block definition required", r#"An argument or block definition is required here."#, 17..18),
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 7..8),
        ],
    ),
    (
        "unclosed_block_oneline",
        Oracle,
        r#"locals { x = 1
"#,
        &[
            ("Invalid single-argument block definition", r#"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."#, 14..15),
        ],
    ),
    (
        "unclosed_nested",
        Hcl("parser.go:96"),
        r#"locals {
  x = 1
}
resource "a" "b" {
  c {
"#,
        &[
            // Terraform 1.0.3: ("Argument or block definition required", r#"An argument or block definition is required here."#, 44..45),
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 42..43),
        ],
    ),
    (
        "missing_newline",
        Oracle,
        r#"locals {
  x = 1 y = 2
}
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "comma_after_arg",
        Oracle,
        r#"locals {
  x = 1,
  y = 2
}
"#,
        &[
            ("Unexpected comma after argument", r#"Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."#, 16..17),
        ],
    ),
    (
        "missing_value",
        Oracle,
        r#"locals {
  x =
  y = 2
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 14..15),
        ],
    ),
    (
        "tuple_no_comma",
        Oracle,
        r#"locals {
  x = [1 2]
}
"#,
        &[
            ("Missing item separator", r#"Expected a comma to mark the beginning of the next item."#, 18..19),
        ],
    ),
    (
        "tuple_unclosed_eof",
        Oracle,
        r#"locals {
  x = [1, 2
}
"#,
        &[
            ("Missing item separator", r#"Expected a comma to mark the beginning of the next item."#, 21..22),
        ],
    ),
    (
        "tuple_unclosed_real_eof",
        Hcl("parser.go:1376"),
        r#"locals {
  x = [1, 2"#,
        &[
            // Terraform 1.0.3: ("Missing item separator", r#"Expected a comma to mark the beginning of the next item."#, 20..21),
            ("Unterminated tuple constructor expression", r#"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."#, 15..16),
        ],
    ),
    (
        "unterminated_template",
        Oracle,
        r#"locals {
  x = "abc
  y = 2
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 19..20),
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 27..28),
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 29..30),
            ("Unterminated template string", r#"No closing marker was found for the string."#, 19..20),
        ],
    ),
    (
        "invalid_char",
        Oracle,
        r#"locals {
  x = 1 @ 2
}
"#,
        &[
            ("Invalid character", r#"This character is not used within the language."#, 17..18),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "invalid_char_multibyte",
        Oracle,
        r#"locals {
  x = "é" ∑ 2
}
"#,
        &[
            ("Invalid character", r#"This character is not used within the language."#, 20..23),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 20..23),
        ],
    ),
    (
        "redefined",
        Oracle,
        r#"locals {
  a = 1
  a = 2
}
"#,
        &[
            ("Attribute redefined", r#"The argument "a" was already set at main.tf:2,3-4. Each argument may be set only once."#, 19..20),
        ],
    ),
    (
        "redefined_3",
        Oracle,
        r#"locals {
  a = 1
  b = 1
  a = 2
  a = 3
}
"#,
        &[
            ("Attribute redefined", r#"The argument "a" was already set at main.tf:2,3-4. Each argument may be set only once."#, 27..28),
            ("Attribute redefined", r#"The argument "a" was already set at main.tf:2,3-4. Each argument may be set only once."#, 35..36),
        ],
    ),
    (
        "block_equals",
        Oracle,
        r#"locals "x" = {
}
"#,
        &[
            ("Invalid block definition", r#"The equals sign "=" indicates an argument definition, and must not be used when defining a block."#, 11..12),
        ],
    ),
    (
        "block_newline",
        Oracle,
        r#"locals
{
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 0..6),
        ],
    ),
    (
        "block_label_bad",
        Oracle,
        r#"resource "a" 1 {
}
"#,
        &[
            ("Invalid block definition", r#"Either a quoted string block label or an opening brace ("{") is expected here."#, 13..14),
        ],
    ),
    (
        "quoted_arg_name",
        Oracle,
        r#"locals {
  "x" = 1
}
"#,
        &[
            ("Invalid argument name", r#"Argument names must not be quoted."#, 11..12),
        ],
    ),
    (
        "if_unclosed",
        Oracle,
        r#"locals {
  x = "%{if a}b"
}
"#,
        &[
            ("Unexpected end of template", r#"The if directive at main.tf:2,8-15 is missing its corresponding endif directive."#, 24..25),
        ],
    ),
    (
        "endif_unexpected",
        Oracle,
        r#"locals {
  x = "a%{endif}"
}
"#,
        &[
            ("Unexpected endif directive", r#"The control directives within this template are unbalanced."#, 17..25),
        ],
    ),
    (
        "else_twice",
        Oracle,
        r#"locals {
  x = "%{if a}b%{else}c%{else}d%{endif}"
}
"#,
        &[
            ("Unexpected else directive", r#"Already in the else clause for the if started at main.tf:2,8-15."#, 32..39),
            ("Unexpected endif directive", r#"The control directives within this template are unbalanced."#, 40..48),
        ],
    ),
    (
        "endfor_in_if",
        Oracle,
        r#"locals {
  x = "%{if a}b%{endfor}"
}
"#,
        &[
            ("Unexpected endfor directive", r#"Expecting an endif directive for the if started at main.tf:2,8-15."#, 24..33),
        ],
    ),
    (
        "endif_in_for",
        Oracle,
        r#"locals {
  x = "%{for a in b}b%{endif}"
}
"#,
        &[
            ("Unexpected endif directive", r#"Expecting an endfor directive corresponding to the for directive at main.tf:2,8-21."#, 30..38),
        ],
    ),
    (
        "else_in_for",
        Oracle,
        r#"locals {
  x = "%{for a in b}b%{else}%{endfor}"
}
"#,
        &[
            ("Unexpected else directive", r#"An else clause is not expected for a for directive."#, 30..37),
            ("Unexpected endfor directive", r#"The control directives within this template are unbalanced."#, 37..46),
        ],
    ),
    (
        "for_unclosed",
        Oracle,
        r#"locals {
  x = "%{for a in b}b"
}
"#,
        &[
            ("Unexpected end of template", r#"The for directive at main.tf:2,8-21 is missing its corresponding endfor directive."#, 30..31),
        ],
    ),
    (
        "bad_keyword",
        Oracle,
        r#"locals {
  x = "%{iff a}b%{endif}"
}
"#,
        &[
            ("Invalid template control keyword", r#""iff" is not a valid template control keyword. Did you mean "if"?"#, 18..21),
            ("Unexpected endif directive", r#"The control directives within this template are unbalanced."#, 25..33),
        ],
    ),
    (
        "bad_keyword2",
        Oracle,
        r#"locals {
  x = "%{foo}"
}
"#,
        &[
            ("Invalid template control keyword", r#""foo" is not a valid template control keyword. Did you mean "for"?"#, 18..21),
        ],
    ),
    (
        "heredoc_eof_no_newline",
        Oracle,
        r#"locals {
  x = <<EOT
hello
EOT"#,
        &[
            ("Unterminated template string", r#"No closing marker was found for the string."#, 30..31),
        ],
    ),
    (
        "heredoc_unclosed",
        Oracle,
        r#"locals {
  x = <<EOT
hello
}
"#,
        &[
            ("Unterminated template string", r#"No closing marker was found for the string."#, 29..30),
        ],
    ),
    (
        "backtick",
        Oracle,
        r#"locals {
  x = `a` + `b` + `c`
}
"#,
        &[
            ("Invalid character", r#"The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT"."#, 15..16),
            ("Invalid character", r#"The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT"."#, 21..22),
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..16),
        ],
    ),
    (
        "apostrophe",
        Oracle,
        r#"locals {
  x = 'a'
}
"#,
        &[
            ("Invalid character", r#"Single quotes are not valid. Use double quotes (") to enclose strings."#, 15..16),
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..16),
        ],
    ),
    (
        "semicolon",
        Oracle,
        r#"locals {
  x = 1; y = 2;
}
"#,
        &[
            ("Invalid character", r#"The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values."#, 16..17),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 16..17),
        ],
    ),
    (
        "bitwise",
        Oracle,
        r#"locals {
  x = a & b | c ^ d ~ e & f
}
"#,
        &[
            ("Unsupported operator", r#"Bitwise operators are not supported. Did you mean boolean AND ("&&")?"#, 17..18),
            ("Unsupported operator", r#"Bitwise operators are not supported. Did you mean boolean OR ("||")?"#, 21..22),
            ("Unsupported operator", r#"Bitwise operators are not supported."#, 25..26),
            ("Unsupported operator", r#"Bitwise operators are not supported. Did you mean boolean NOT ("!")?"#, 29..30),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "escape_bad",
        Oracle,
        r#"locals {
  x = "a\qb"
}
"#,
        &[
            ("Invalid escape sequence", r#"The symbol "q" is not a valid escape sequence selector."#, 17..19),
        ],
    ),
    (
        "escape_short_u",
        Oracle,
        r#"locals {
  x = "a\u12b"
}
"#,
        &[
            ("Invalid escape sequence", r#"The \u escape sequence must be followed by four hexadecimal digits."#, 17..22),
        ],
    ),
    (
        "escape_long_U",
        Oracle,
        r#"locals {
  x = "a\U0001F600b\U00110000"
}
"#,
        &[
            ("Invalid escape sequence", r#"Cannot encode character U+110000 in UTF-8."#, 28..38),
        ],
    ),
    (
        "escape_surrogate",
        Oracle,
        r#"locals {
  x = "\uD800"
}
"#,
        &[
            ("Invalid escape sequence", r#"Cannot encode character U+d800 in UTF-8."#, 16..22),
        ],
    ),
    (
        "single_line_two",
        Oracle,
        r#"locals { a = 1, b = 2 }
"#,
        &[
            ("Invalid single-argument block definition", r#"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."#, 14..15),
        ],
    ),
    (
        "single_line_newline",
        Oracle,
        r#"locals { a = 1
}
"#,
        &[
            ("Invalid single-argument block definition", r#"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."#, 14..15),
        ],
    ),
    (
        "single_line_block_in",
        Oracle,
        r#"resource "a" "b" { c { } }
"#,
        &[
            ("Argument definition required", r#"A single-line block definition can contain only a single argument. If you meant to define argument "c", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."#, 19..22),
        ],
    ),
    (
        "single_line_nonident",
        Oracle,
        r#"locals { "a" = 1 }
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 9..10),
        ],
    ),
    (
        "single_line_noeq",
        Oracle,
        r#"locals { a }
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 9..10),
        ],
    ),
    (
        "interp_extra",
        Oracle,
        r#"locals {
  x = "${a b}"
}
"#,
        &[
            ("Extra characters after interpolation expression", r#"Expected a closing brace to end the interpolation expression, but found extra characters.

This can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${"."#, 20..21),
        ],
    ),
    (
        "interp_colon",
        Oracle,
        r#"locals {
  x = "${a:b}"
}
"#,
        &[
            ("Extra characters after interpolation expression", r#"Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with "$${" instead of just "${"."#, 19..20),
        ],
    ),
    (
        "interp_unclosed",
        Hcl("parser_template.go:444"),
        r#"locals {
  x = "${a"
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 20..21),
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 22..23),
            // Terraform 1.0.3: "Extra characters after interpolation expression" (the detail that
            // suggests "$${"), at the second quote, 19..20.
            ("Unclosed template interpolation sequence", r#"There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."#, 16..18),
        ],
    ),
    (
        "obj_missing_sep",
        Oracle,
        r#"locals {
  x = { a b }
}
"#,
        &[
            ("Missing key/value separator", r#"Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal."#, 19..20),
        ],
    ),
    (
        "obj_missing_value",
        Oracle,
        r#"locals {
  x = {a}
}
"#,
        &[
            ("Missing key/value separator", r#"Expected an equals sign ("=") to mark the beginning of the attribute value."#, 17..18),
        ],
    ),
    (
        "obj_missing_value_comma",
        Oracle,
        r#"locals {
  x = {a, b = 1}
}
"#,
        &[
            ("Missing attribute value", r#"Expected an attribute value, introduced by an equals sign ("=")."#, 17..18),
        ],
    ),
    (
        "obj_other_sep",
        Oracle,
        r#"locals {
  x = { a + 1 }
}
"#,
        &[
            ("Missing key/value separator", r#"Expected an equals sign ("=") to mark the beginning of the attribute value."#, 23..24),
        ],
    ),
    (
        "obj_attr_sep",
        Oracle,
        r#"locals {
  x = { a = 1 b = 2 }
}
"#,
        &[
            ("Missing attribute separator", r#"Expected a newline or comma to mark the beginning of the next attribute."#, 23..24),
        ],
    ),
    (
        "obj_unclosed",
        Hcl("parser.go:1108"),
        r#"locals {
  x = { a = 1
"#,
        &[
            // Terraform 1.0.3: ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 23..24),
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 23..24),
        ],
    ),
    (
        "for_no_var",
        Oracle,
        r#"locals {
  x = [for in b : a]
}
"#,
        &[
            ("Invalid 'for' expression", r#"For expression requires the 'in' keyword after its name declarations."#, 23..24),
        ],
    ),
    (
        "for_no_in",
        Oracle,
        r#"locals {
  x = [for a b]
}
"#,
        &[
            ("Invalid 'for' expression", r#"For expression requires the 'in' keyword after its name declarations."#, 22..23),
        ],
    ),
    (
        "for_no_colon",
        Oracle,
        r#"locals {
  x = [for a in b]
}
"#,
        &[
            ("Invalid 'for' expression", r#"For expression requires a colon after the collection expression."#, 26..27),
        ],
    ),
    (
        "for_obj_no_key",
        Oracle,
        r#"locals {
  x = {for a in b : a}
}
"#,
        &[
            ("Invalid 'for' expression", r#"Key expression is required when building an object."#, 29..30),
        ],
    ),
    (
        "for_tuple_key",
        Oracle,
        r#"locals {
  x = [for a in b : a => a]
}
"#,
        &[
            ("Invalid 'for' expression", r#"Key expression is not valid when building a tuple."#, 29..30),
        ],
    ),
    (
        "for_tuple_group",
        Oracle,
        r#"locals {
  x = [for a in b : a...]
}
"#,
        &[
            ("Invalid 'for' expression", r#"Grouping ellipsis (...) cannot be used when building a tuple."#, 30..33),
        ],
    ),
    (
        "for_extra",
        Oracle,
        r#"locals {
  x = [for a in b : a b]
}
"#,
        &[
            ("Invalid 'for' expression", r#"Extra characters after the end of the 'for' expression."#, 31..32),
        ],
    ),
    (
        "for_second_var",
        Oracle,
        r#"locals {
  x = [for a, in b : a]
}
"#,
        &[
            ("Invalid 'for' expression", r#"For expression requires the 'in' keyword after its name declarations."#, 26..27),
        ],
    ),
    (
        "parens_unbalanced",
        Oracle,
        r#"locals {
  x = (1 2)
}
"#,
        &[
            ("Unbalanced parentheses", r#"Expected a closing parenthesis to terminate the expression."#, 18..19),
        ],
    ),
    (
        "call_no_sep",
        Oracle,
        r#"locals {
  x = f(1 2)
}
"#,
        &[
            ("Missing argument separator", r#"A comma is required to separate each function argument from the next."#, 19..20),
        ],
    ),
    (
        "call_unclosed",
        Hcl("parser.go:1287"),
        r#"locals {
  x = f(1, 2
"#,
        &[
            // Terraform 1.0.3: ("Missing argument separator", r#"A comma is required to separate each function argument from the next."#, 22..23),
            ("Unterminated function call", r#"There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file."#, 15..17),
        ],
    ),
    (
        "call_ellipsis",
        Oracle,
        r#"locals {
  x = f(a..., b)
}
"#,
        &[
            ("Missing closing parenthesis", r#"An expanded function argument (with ...) must be immediately followed by closing parentheses."#, 18..21),
        ],
    ),
    (
        "missing_false",
        Oracle,
        r#"locals {
  x = a ? b
}
"#,
        &[
            ("Missing false expression in conditional", r#"The conditional operator (...?...:...) requires a false expression, delimited by a colon."#, 20..21),
        ],
    ),
    (
        "legacy_index",
        Oracle,
        r#"locals {
  x = a.0.1
}
"#,
        &[
            ("Invalid legacy index syntax", r#"When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][1]."#, 17..20),
        ],
    ),
    (
        "legacy_index_splat",
        Oracle,
        r#"locals {
  x = a.*.b.0.1
}
"#,
        &[
            ("Invalid legacy index syntax", r#"When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [0][1]."#, 17..18),
        ],
    ),
    (
        "attr_name_missing",
        Oracle,
        r#"locals {
  x = a.
  y = 1
}
"#,
        &[
            ("Invalid attribute name", r#"An attribute name is required after a dot."#, 17..18),
        ],
    ),
    (
        "attr_name_number_ok",
        Oracle,
        r#"locals {
  x = a.0
}
"#,
        &[],
    ),
    (
        "nested_splat",
        Oracle,
        r#"locals {
  x = a.*.*
}
"#,
        &[
            ("Nested splat expression not allowed", r#"A splat expression (*) cannot be used inside another attribute-only splat expression."#, 19..20),
        ],
    ),
    (
        "splat_attr_bad",
        Oracle,
        r#"locals {
  x = a.*."b"
}
"#,
        &[
            ("Invalid attribute name", r#"An attribute name is required after a dot."#, 17..18),
        ],
    ),
    (
        "splat_close",
        Oracle,
        r#"locals {
  x = a[*
}
"#,
        &[
            ("Missing close bracket on splat index", r#"The star for a full splat operator must be immediately followed by a closing bracket ("]")."#, 21..22),
        ],
    ),
    (
        "index_close",
        Oracle,
        r#"locals {
  x = a[1 2]
}
"#,
        &[
            ("Missing close bracket on index", r#"The index operator must end with a closing bracket ("]")."#, 20..21),
        ],
    ),
    (
        "invalid_number",
        Oracle,
        r#"locals {
  x = 1.2.3
}
"#,
        &[
            ("Invalid number literal", r#"Failed to recognize the value of this number literal."#, 15..20),
        ],
    ),
    (
        "curly",
        Oracle,
        r#"locals {
  x = “hello”
}
"#,
        &[
            ("Invalid character", r#""Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote"."#, 15..18),
            ("Invalid character", r#""Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote"."#, 23..26),
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..18),
        ],
    ),
    (
        "multiline_string",
        Oracle,
        r#"locals {
  x = "a
  b"
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 17..18),
            ("Unterminated template string", r#"No closing marker was found for the string."#, 17..18),
        ],
    ),
    (
        "label_interp",
        Oracle,
        r#"resource "a${b}" "c" {
}
"#,
        &[
            ("Invalid string literal", r#"Template sequences are not allowed in this string. To include a literal "$", double it (as "$$") to escape it."#, 11..13),
        ],
    ),
    (
        "label_unterminated",
        Oracle,
        r#"resource "a"#,
        &[
            ("Unterminated string literal", r#"Unable to find the closing quote mark before the end of the file."#, 11..12),
            ("Invalid block definition", r#"Either a quoted string block label or an opening brace ("{") is expected here."#, 11..12),
        ],
    ),
    (
        "label_newline",
        Oracle,
        r#"resource "a
b" "c" {
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 11..12),
            ("Invalid string literal", r#"This item is not valid in a string literal."#, 11..12),
        ],
    ),
    (
        "two_errors",
        Oracle,
        r#"locals {
  x = (
  y = 2
}
locals {
  z = [

}
"#,
        &[
            ("Unbalanced parentheses", r#"Expected a closing parenthesis to terminate the expression."#, 21..22),
        ],
    ),
    (
        "two_errors_body",
        Oracle,
        r#"locals {
  x = 1 2
}
locals {
  y = 3 4
}
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "garbage_toplevel",
        Oracle,
        r#"}
locals {
  x = 1
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 0..1),
        ],
    ),
    (
        "block_missing_newline",
        Oracle,
        r#"locals {
} locals {
}
"#,
        &[
            ("Missing newline after block definition", r#"A block definition must end with a newline."#, 11..17),
        ],
    ),
    (
        "extra_chars_directive",
        Oracle,
        r#"locals {
  x = "%{if a b}c%{endif}"
}
"#,
        &[
            ("Extra characters in if marker", r#"Expected a closing brace to end the sequence, but found extra characters."#, 23..24),
        ],
    ),
    (
        "directive_nonident",
        Oracle,
        r#"locals {
  x = "%{1}"
}
"#,
        &[
            ("Invalid template directive", r#"A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence."#, 18..19),
        ],
    ),
    (
        "for_directive_noident",
        Oracle,
        r#"locals {
  x = "%{for 1 in b}%{endfor}"
}
"#,
        &[
            ("Invalid 'for' directive", r#"For directive requires variable name after 'for'."#, 22..23),
            ("Unexpected endfor directive", r#"The control directives within this template are unbalanced."#, 29..38),
        ],
    ),
    (
        "for_directive_noin",
        Oracle,
        r#"locals {
  x = "%{for a b}%{endfor}"
}
"#,
        &[
            ("Invalid 'for' directive", r#"For directive requires 'in' keyword after names."#, 24..25),
            ("Unexpected endfor directive", r#"The control directives within this template are unbalanced."#, 26..35),
        ],
    ),
    (
        "unclosed_comment",
        Oracle,
        r#"locals {
  x = 1 /* abc
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
        ],
    ),
    (
        "lone_dollar",
        Oracle,
        r#"locals {
  x = "a$"
}
"#,
        &[],
    ),
    (
        "cr_alone",
        Oracle,
        "locals {\n  x = 1\r\n  y = 2\r}\n",
        &[
            ("Invalid character", r#"This character is not used within the language."#, 25..26),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 25..26),
        ],
    ),
    (
        "tab_ok",
        Oracle,
        "locals {\n\tx = 1\n}\n",
        &[],
    ),
    (
        "bom",
        Oracle,
        "\u{feff}locals {\n  x = 1\n  x = 2\n}\n",
        &[
            ("Attribute redefined", r#"The argument "x" was already set at main.tf:2,3-4. Each argument may be set only once."#, 22..23),
        ],
    ),
    (
        "heredoc_space_after_marker",
        Oracle,
        r#"locals {
  x = <<EOT 
hello
EOT
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..16),
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 22..27),
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 28..31),
        ],
    ),
    (
        "comment_block_newlines",
        Oracle,
        r#"locals {
  x = 1 /*
*/ y = 2
}
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 23..24),
        ],
    ),
    (
        "attr_then_brace",
        Oracle,
        r#"locals {
  x = 1 }
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "obj_newline_after_op",
        Oracle,
        r#"locals {
  x = { a = 1 +
 2 }
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 24..25),
        ],
    ),
    (
        "attr_newline_after_op",
        Oracle,
        r#"locals {
  x = 1 +
 2
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
        ],
    ),
    (
        "stray_brace",
        Oracle,
        r#"locals {
  x = 1
}
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 19..20),
        ],
    ),
    (
        "eof_after_op",
        Hcl("parser.go:1108"),
        r#"locals {
  x = 1 +"#,
        &[
            // Terraform 1.0.3: ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 18..19),
        ],
    ),
    (
        "eof_in_interp",
        Hcl("parser.go:1108"),
        r#"locals {
  x = "${"#,
        &[
            // Terraform 1.0.3: ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 18..19),
        ],
    ),
    (
        "heredoc_interp_unclosed",
        Oracle,
        r#"locals {
  x = <<EOT
${a
EOT
}
"#,
        &[
            ("Extra characters after interpolation expression", r#"Expected a closing brace to end the interpolation expression, but found extra characters.

This can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${"."#, 25..28),
        ],
    ),
    (
        "if_no_cond",
        Oracle,
        r#"locals {
  x = "%{if}x%{endif}"
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 20..21),
        ],
    ),
    (
        "nested_error",
        Oracle,
        r#"a {
  b {
    c =
  }
}
locals {
  y = 1 2
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 17..18),
        ],
    ),
    (
        "two_blocks_second_err",
        Oracle,
        r#"locals {
  x =
}
locals {
  y = 1 2
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 14..15),
        ],
    ),
    (
        "label_then_equals",
        Oracle,
        r#"resource "a" "b" = {
}
"#,
        &[
            ("Invalid block definition", r#"The equals sign "=" indicates an argument definition, and must not be used when defining a block."#, 17..18),
        ],
    ),
    (
        "number_1e",
        Oracle,
        r#"locals {
  x = 1e
}
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 16..17),
        ],
    ),
    (
        "number_1dot",
        Oracle,
        r#"locals {
  x = 1.
}
"#,
        &[
            ("Invalid attribute name", r#"An attribute name is required after a dot."#, 17..18),
        ],
    ),
    (
        "number_hex",
        Oracle,
        r#"locals {
  x = 0x10
}
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 16..19),
        ],
    ),
    (
        "tilde_close_mismatch",
        Oracle,
        r#"locals {
  x = { a = 1 ~}
}
"#,
        &[
            ("Missing attribute separator", r#"Expected a newline or comma to mark the beginning of the next attribute."#, 23..25),
        ],
    ),
    (
        "interp_in_obj_key",
        Oracle,
        r#"locals {
  x = { "${a}" = 1 }
}
"#,
        &[],
    ),
    (
        "double_eq_in_body",
        Oracle,
        r#"locals {
  x == 1
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 11..12),
        ],
    ),
    (
        "for_cond_err",
        Oracle,
        r#"locals {
  x = [for a in b : a if]
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 33..34),
        ],
    ),
    (
        "object_trailing_garbage",
        Oracle,
        r#"locals {
  x = { a = 1, }, y
}
"#,
        &[
            ("Unexpected comma after argument", r#"Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."#, 25..26),
        ],
    ),
    (
        "paren_eof",
        Oracle,
        r#"locals {
  x = (1"#,
        &[
            ("Unbalanced parentheses", r#"Expected a closing parenthesis to terminate the expression."#, 17..18),
        ],
    ),
    (
        "strip_ok",
        Oracle,
        r#"locals {
  x = "a  ${~ b ~}  c"
}
"#,
        &[],
    ),
    (
        "if_else_endif_ok",
        Oracle,
        r#"locals {
  x = "%{if a}b%{else}c%{endif}"
}
"#,
        &[],
    ),
    (
        "splat_then_bad",
        Oracle,
        r#"locals {
  x = a.*.b["c"].d
}
"#,
        &[],
    ),
    (
        "legacy_in_splat_ok",
        Oracle,
        r#"locals {
  x = a.*.b.0.c
}
"#,
        &[],
    ),
    (
        "block_label_number",
        Oracle,
        r#"resource 1 {
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 0..8),
        ],
    ),
    (
        "body_item_no_eq",
        Oracle,
        r#"locals {
  x 1
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 11..12),
        ],
    ),
    (
        "body_quoted_then_more",
        Oracle,
        r#"locals {
  "x" = 1
  y = 2 3
}
"#,
        &[
            ("Invalid argument name", r#"Argument names must not be quoted."#, 11..12),
        ],
    ),
    (
        "unicode_ident",
        Oracle,
        r#"locals {
  é = 1
  ñandú-2 = 2
}
"#,
        &[],
    ),
    (
        "bare_dollar_in_code",
        Oracle,
        r#"locals {
  x = $a
}
"#,
        &[
            ("Invalid character", r#"This character is not used within the language."#, 15..16),
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..16),
        ],
    ),
    (
        "percent_template_escape",
        Oracle,
        r#"locals {
  x = "%%{a} $${b} $$ %%"
}
"#,
        &[],
    ),
    (
        "heredoc_flush_ok",
        Oracle,
        r#"locals {
  x = <<-EOT
    a
      b
    EOT
}
"#,
        &[],
    ),
    (
        "heredoc_marker_indented_plain",
        Oracle,
        r#"locals {
  x = <<EOT
  a
  EOT
}
"#,
        &[],
    ),
    (
        "heredoc_empty",
        Oracle,
        r#"locals {
  x = <<EOT
EOT
}
"#,
        &[],
    ),
    (
        "heredoc_crlf",
        Oracle,
        "locals {\r\n  x = <<EOT\r\nhello\r\nEOT\r\n}\r\n",
        &[],
    ),
    (
        "heredoc_in_interp_in_heredoc",
        Oracle,
        r#"locals {
  x = <<A
${<<B
inner
B
}
A
}
"#,
        &[],
    ),
    (
        "semicolon_twice",
        Oracle,
        r#"locals {
  x = 1;
  y = 2;
}
"#,
        &[
            ("Invalid character", r#"The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values."#, 16..17),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 16..17),
        ],
    ),
    (
        "apostrophe_many",
        Oracle,
        r#"locals {
  x = 'a' + 'b' + 'c'
}
"#,
        &[
            ("Invalid character", r#"Single quotes are not valid. Use double quotes (") to enclose strings."#, 15..16),
            ("Invalid character", r#"Single quotes are not valid. Use double quotes (") to enclose strings."#, 21..22),
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 15..16),
        ],
    ),
    (
        "call_trailing_comma",
        Oracle,
        r#"locals {
  x = f(1, 2,)
}
"#,
        &[],
    ),
    (
        "call_ellipsis_ok",
        Oracle,
        r#"locals {
  x = f(a...)
}
"#,
        &[],
    ),
    (
        "for_obj_group",
        Oracle,
        r#"locals {
  x = {for k, v in m : k => v... if v}
}
"#,
        &[],
    ),
    (
        "cond_nested",
        Oracle,
        r#"locals {
  x = a ? b ? c : d : e ? f : g
}
"#,
        &[],
    ),
    (
        "missing_value_eof",
        Hcl("parser.go:1108"),
        r#"locals {
  x ="#,
        &[
            // Terraform 1.0.3: ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 14..15),
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 14..15),
        ],
    ),
    (
        "garbage_in_block",
        Oracle,
        r#"locals {
  x = 1
  @
  y = 2 3
}
"#,
        &[
            ("Invalid character", r#"This character is not used within the language."#, 19..20),
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 19..20),
        ],
    ),
    (
        "obj_key_for",
        Oracle,
        r#"locals {
  x = { for = 1 }
}
"#,
        &[
            ("Invalid 'for' expression", r#"For expression requires variable name after 'for'."#, 21..22),
        ],
    ),
    (
        "call_leading_comma",
        Oracle,
        r#"locals {
  x = f(,)
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 17..18),
        ],
    ),
    (
        "call_double_comma",
        Oracle,
        r#"locals {
  x = f(a,,b)
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 19..20),
        ],
    ),
    (
        "tuple_double_comma",
        Oracle,
        r#"locals {
  x = [1,,2]
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
        ],
    ),
    (
        "tuple_leading_comma",
        Oracle,
        r#"locals {
  x = [,1]
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 16..17),
        ],
    ),
    (
        "heredoc_interp_error",
        Oracle,
        r#"locals {
  x = <<EOT
${a b}
EOT
}
"#,
        &[
            ("Extra characters after interpolation expression", r#"Expected a closing brace to end the interpolation expression, but found extra characters.

This can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${"."#, 25..26),
        ],
    ),
    (
        "template_in_label_ctrl",
        Oracle,
        r#"resource "a%{if x}" "b" {
}
"#,
        &[
            ("Invalid string literal", r#"Template sequences are not allowed in this string. To include a literal "%", double it (as "%%") to escape it."#, 11..13),
        ],
    ),
    (
        "deep_ok_nl_in_interp",
        Oracle,
        r#"locals {
  x = "${
  a
}"
}
"#,
        &[],
    ),
    (
        "interp_newline_in_quoted_after",
        Oracle,
        r#"locals {
  x = "${a}
"
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 20..21),
            ("Unterminated template string", r#"No closing marker was found for the string."#, 20..21),
        ],
    ),
    (
        "cond_missing_colon_eof",
        Hcl("parser.go:96"),
        r#"locals {
  x = a ? b"#,
        &[
            ("Missing false expression in conditional", r#"The conditional operator (...?...:...) requires a false expression, delimited by a colon."#, 20..21),
            // Terraform 1.0.3: ("Argument or block definition required", r#"An argument or block definition is required here."#, 20..21),
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 7..8),
        ],
    ),
    (
        "unary_eof",
        Hcl("parser.go:1108"),
        r#"locals {
  x = -"#,
        &[
            // Terraform 1.0.3: ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 16..17),
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 16..17),
        ],
    ),
    (
        "not_not",
        Oracle,
        r#"locals {
  x = !!true
}
"#,
        &[],
    ),
    (
        "dot_eof",
        Oracle,
        r#"locals {
  x = a."#,
        &[
            ("Invalid attribute name", r#"An attribute name is required after a dot."#, 17..18),
        ],
    ),
    (
        "splat_nested_full",
        Oracle,
        r#"locals {
  x = a[*][*].b
}
"#,
        &[],
    ),
    (
        "index_newline_inside",
        Oracle,
        r#"locals {
  x = a[
0
]
}
"#,
        &[],
    ),
    (
        "attr_in_block_label_pos",
        Oracle,
        r#"resource a b c {
}
"#,
        &[],
    ),
    (
        "two_attrs_then_bad_block",
        Oracle,
        r#"locals {
  a = 1
}
foo "x" "y" {
  z = [
}
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 41..42),
        ],
    ),
    (
        "quoted_name_in_obj",
        Oracle,
        r#"locals {
  x = {"a" = 1, "a" = 2}
}
"#,
        &[],
    ),
    (
        "number_big",
        Oracle,
        r#"locals {
  x = 1e999
}
"#,
        &[],
    ),
    (
        "percent_ops",
        Hcl("parser.go:96"),
        r#"locals {
  x = 5 % 2 %{
}
"#,
        &[
            // Terraform 1.0.3: ("Argument or block definition required", r#"An argument or block definition is required here."#, 26..27),
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 7..8),
        ],
    ),
    // ---- hclsyntax v2.24.0 behaviour that Terraform 1.0.3 does not have (derived from source) ----
    (
        // The `{` of a single-line block, not the end of the file.
        "single_line_block_eof",
        Hcl("parser.go:419"),
        r#"locals { x = 1"#,
        &[
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 7..8),
        ],
    ),
    (
        "block_eof_at_brace",
        Hcl("parser.go:96"),
        r#"locals {"#,
        &[
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 7..8),
        ],
    ),
    (
        // The inner block is closed: the outer one is reported.
        "unclosed_outer_block",
        Hcl("parser.go:96"),
        r#"a {
  b {
    c = 1
  }
"#,
        &[
            ("Unclosed configuration block", r#"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 2..3),
        ],
    ),
    (
        "object_eof_after_key",
        Hcl("parser.go:1502"),
        r#"x = { a"#,
        &[
            ("Unterminated object constructor expression", r#"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 4..5),
        ],
    ),
    (
        "object_eof_after_value",
        Hcl("parser.go:1560"),
        r#"x = { a = 1"#,
        &[
            ("Unterminated object constructor expression", r#"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."#, 4..5),
        ],
    ),
    (
        // A newline separates items: the next key is missing.
        "object_eof_after_newline",
        Hcl("parser.go:1108"),
        r#"x = { a = 1
"#,
        &[
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 12..13),
        ],
    ),
    (
        "tuple_eof_after_open",
        Hcl("parser.go:1108"),
        r#"x = ["#,
        &[
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 5..6),
        ],
    ),
    (
        "tuple_eof_after_item",
        Hcl("parser.go:1376"),
        r#"x = [1"#,
        &[
            ("Unterminated tuple constructor expression", r#"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."#, 4..5),
        ],
    ),
    (
        "call_eof_after_argument",
        Hcl("parser.go:1287"),
        r#"x = f(1"#,
        &[
            ("Unterminated function call", r#"There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file."#, 4..6),
        ],
    ),
    (
        "call_eof_after_comma",
        Hcl("parser.go:1108"),
        r#"x = f(1,"#,
        &[
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 8..9),
        ],
    ),
    (
        // The subject runs from the first part of the name through the `(`.
        "call_namespaced_eof",
        Hcl("parser.go:1287"),
        r#"x = provider::a::b(1"#,
        &[
            ("Unterminated function call", r#"There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file."#, 4..19),
        ],
    ),
    (
        "missing_expression_top",
        Hcl("parser.go:1108"),
        r#"x ="#,
        &[
            ("Missing expression", r#"Expected the start of an expression, but found the end of the file."#, 3..4),
        ],
    ),
    (
        "interp_eof",
        Hcl("parser_template.go:424"),
        r#"x = "${a"#,
        &[
            ("Unclosed template interpolation sequence", r#"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."#, 5..7),
        ],
    ),
    (
        // HCL points at the template's first token (its `startRange`), here the literal.
        "interp_eof_after_literal",
        Hcl("parser_template.go:424"),
        r#"x = "ab ${a"#,
        &[
            ("Unclosed template interpolation sequence", r#"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."#, 5..8),
        ],
    ),
    (
        // Terraform 1.0.3 would say "Extra characters after interpolation expression" at the `"`.
        "interp_quote_in_quoted",
        Hcl("parser_template.go:444"),
        r#"x = "${a "b"}"
"#,
        &[
            ("Unclosed template interpolation sequence", r#"There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."#, 5..7),
        ],
    ),
    (
        // Only a quoted template calls a quote an unclosed sequence.
        "interp_quote_in_heredoc",
        Hcl("parser_template.go:449"),
        r#"x = <<EOT
${a "b"}
EOT
"#,
        &[
            ("Extra characters after interpolation expression", r#"Expected a closing brace to end the interpolation expression, but found extra characters.

This can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${"."#, 14..15),
        ],
    ),
    (
        "namespaced_missing_name",
        Hcl("parser.go:1173"),
        r#"x = provider::
"#,
        &[
            ("Missing function name", r#"Function scope resolution symbol :: must be followed by a function name in this scope."#, 14..15),
        ],
    ),
    (
        // Recovery skips over the next parenthesised group (`(1)`), which swallows `y`.
        "namespaced_missing_open_paren",
        Hcl("parser.go:1209"),
        r#"x = provider::a::b
y = f(1)
z = 2
"#,
        &[
            ("Missing open parenthesis", r#"Function selector must be followed by an open parenthesis to begin the function call."#, 18..19),
        ],
    ),
];

/// `main.tf:2,3-4` or `main.tf:2,3-4,1`, as HCL's `Range.String` prints it.
fn hcl_range(text: &str, r: std::ops::Range<usize>) -> String {
    let pos = |b: usize| {
        let line = text[..b].matches('\n').count() + 1;
        let col = text[..b].rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, col)
    };
    let ((l1, c1), (l2, c2)) = (pos(r.start), pos(r.end));
    if l1 == l2 {
        format!("main.tf:{l1},{c1}-{c2}")
    } else {
        format!("main.tf:{l1},{c1}-{l2},{c2}")
    }
}

#[test]
fn errors_match_terraform() {
    let mut failures = Vec::new();
    for (name, source, text, want) in CASES {
        let parsed = hcl::parse_body(text);
        let got: Vec<(&str, String, std::ops::Range<usize>)> = parsed
            .errors
            .iter()
            .map(|e| {
                let mut span = e.span.clone();
                if span.is_empty() {
                    span.end += 1;
                }
                (e.summary, e.detail_with(|r| hcl_range(text, r)), span)
            })
            .collect();
        let want: Vec<(&str, String, std::ops::Range<usize>)> =
            want.iter().map(|(s, d, r)| (*s, d.to_string(), r.clone())).collect();
        if got != want {
            failures.push(format!("{name} ({source:?}):\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}
