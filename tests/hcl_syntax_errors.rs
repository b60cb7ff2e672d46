//! Syntax errors of `config::hcl::parse_body`, checked against the real Terraform 1.0.3
//! (`terraform validate -json` on each input as `main.tf`, through the oracle in ../oracle): the
//! summary, the detail (with `{at}` rendered as HCL renders a range) and the subject's byte range
//! as Terraform's JSON shows it, which widens an empty range by one byte (e.g. at the end of
//! the file). Diagnostics that are not about syntax (unsupported blocks, unknown references)
//! are left out. Terraform 1.0.3 predates `provider::ns::fn()` calls, which we accept.
#![cfg(not(target_arch = "wasm32"))]

use tfgraph::config::hcl;

/// (case, main.tf, [(summary, detail, byte range)])
#[rustfmt::skip]
const CASES: &[(&str, &str, &[(&str, &str, std::ops::Range<usize>)])] = &[
    (
        "unclosed_block",
        r#"locals {
  x = 1
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 17..18),
        ],
    ),
    (
        "unclosed_block_oneline",
        r#"locals { x = 1
"#,
        &[
            ("Invalid single-argument block definition", r#"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."#, 14..15),
        ],
    ),
    (
        "unclosed_nested",
        r#"locals {
  x = 1
}
resource "a" "b" {
  c {
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 44..45),
        ],
    ),
    (
        "missing_newline",
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
        r#"locals {
  x = [1, 2"#,
        &[
            ("Missing item separator", r#"Expected a comma to mark the beginning of the next item."#, 20..21),
        ],
    ),
    (
        "unterminated_template",
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
        r#"locals "x" = {
}
"#,
        &[
            ("Invalid block definition", r#"The equals sign "=" indicates an argument definition, and must not be used when defining a block."#, 11..12),
        ],
    ),
    (
        "block_newline",
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
        r#"resource "a" 1 {
}
"#,
        &[
            ("Invalid block definition", r#"Either a quoted string block label or an opening brace ("{") is expected here."#, 13..14),
        ],
    ),
    (
        "quoted_arg_name",
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
        r#"locals { a = 1, b = 2 }
"#,
        &[
            ("Invalid single-argument block definition", r#"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."#, 14..15),
        ],
    ),
    (
        "single_line_newline",
        r#"locals { a = 1
}
"#,
        &[
            ("Invalid single-argument block definition", r#"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."#, 14..15),
        ],
    ),
    (
        "single_line_block_in",
        r#"resource "a" "b" { c { } }
"#,
        &[
            ("Argument definition required", r#"A single-line block definition can contain only a single argument. If you meant to define argument "c", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."#, 19..22),
        ],
    ),
    (
        "single_line_nonident",
        r#"locals { "a" = 1 }
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 9..10),
        ],
    ),
    (
        "single_line_noeq",
        r#"locals { a }
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 9..10),
        ],
    ),
    (
        "interp_extra",
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
        r#"locals {
  x = "${a"
}
"#,
        &[
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 20..21),
            ("Invalid multi-line string", r#"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \n escape to represent a newline character or use the "heredoc" multi-line template syntax."#, 22..23),
            ("Extra characters after interpolation expression", r#"Expected a closing brace to end the interpolation expression, but found extra characters.

This can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${"."#, 19..20),
        ],
    ),
    (
        "obj_missing_sep",
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
        r#"locals {
  x = { a = 1
"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 23..24),
        ],
    ),
    (
        "for_no_var",
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
        r#"locals {
  x = f(1, 2
"#,
        &[
            ("Missing argument separator", r#"A comma is required to separate each function argument from the next."#, 22..23),
        ],
    ),
    (
        "call_ellipsis",
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
        r#"locals {
  x = a.0
}
"#,
        &[],
    ),
    (
        "nested_splat",
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
        r#"resource "a${b}" "c" {
}
"#,
        &[
            ("Invalid string literal", r#"Template sequences are not allowed in this string. To include a literal "$", double it (as "$$") to escape it."#, 11..13),
        ],
    ),
    (
        "label_unterminated",
        r#"resource "a"#,
        &[
            ("Unterminated string literal", r#"Unable to find the closing quote mark before the end of the file."#, 11..12),
            ("Invalid block definition", r#"Either a quoted string block label or an opening brace ("{") is expected here."#, 11..12),
        ],
    ),
    (
        "label_newline",
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
        r#"locals {
  x = "a$"
}
"#,
        &[],
    ),
    (
        "cr_alone",
        "locals {\n  x = 1\r\n  y = 2\r}\n",
        &[
            ("Invalid character", r#"This character is not used within the language."#, 25..26),
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 25..26),
        ],
    ),
    (
        "tab_ok",
        "locals {\n\tx = 1\n}\n",
        &[],
    ),
    (
        "bom",
        "\u{feff}locals {\n  x = 1\n  x = 2\n}\n",
        &[
            ("Attribute redefined", r#"The argument "x" was already set at main.tf:2,3-4. Each argument may be set only once."#, 22..23),
        ],
    ),
    (
        "heredoc_space_after_marker",
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
        r#"locals {
  x = 1 }
"#,
        &[
            ("Missing newline after argument", r#"An argument definition must end with a newline."#, 17..18),
        ],
    ),
    (
        "obj_newline_after_op",
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
        r#"locals {
  x = 1 +"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
        ],
    ),
    (
        "eof_in_interp",
        r#"locals {
  x = "${"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 18..19),
        ],
    ),
    (
        "heredoc_interp_unclosed",
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
        r#"resource "a" "b" = {
}
"#,
        &[
            ("Invalid block definition", r#"The equals sign "=" indicates an argument definition, and must not be used when defining a block."#, 17..18),
        ],
    ),
    (
        "number_1e",
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
        r#"locals {
  x = { "${a}" = 1 }
}
"#,
        &[],
    ),
    (
        "double_eq_in_body",
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
        r#"locals {
  x = (1"#,
        &[
            ("Unbalanced parentheses", r#"Expected a closing parenthesis to terminate the expression."#, 17..18),
        ],
    ),
    (
        "strip_ok",
        r#"locals {
  x = "a  ${~ b ~}  c"
}
"#,
        &[],
    ),
    (
        "if_else_endif_ok",
        r#"locals {
  x = "%{if a}b%{else}c%{endif}"
}
"#,
        &[],
    ),
    (
        "splat_then_bad",
        r#"locals {
  x = a.*.b["c"].d
}
"#,
        &[],
    ),
    (
        "legacy_in_splat_ok",
        r#"locals {
  x = a.*.b.0.c
}
"#,
        &[],
    ),
    (
        "block_label_number",
        r#"resource 1 {
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value."#, 0..8),
        ],
    ),
    (
        "body_item_no_eq",
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
        r#"locals {
  é = 1
  ñandú-2 = 2
}
"#,
        &[],
    ),
    (
        "bare_dollar_in_code",
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
        r#"locals {
  x = "%%{a} $${b} $$ %%"
}
"#,
        &[],
    ),
    (
        "heredoc_flush_ok",
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
        r#"locals {
  x = <<EOT
EOT
}
"#,
        &[],
    ),
    (
        "heredoc_crlf",
        "locals {\r\n  x = <<EOT\r\nhello\r\nEOT\r\n}\r\n",
        &[],
    ),
    (
        "heredoc_in_interp_in_heredoc",
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
        r#"locals {
  x = f(1, 2,)
}
"#,
        &[],
    ),
    (
        "call_ellipsis_ok",
        r#"locals {
  x = f(a...)
}
"#,
        &[],
    ),
    (
        "for_obj_group",
        r#"locals {
  x = {for k, v in m : k => v... if v}
}
"#,
        &[],
    ),
    (
        "cond_nested",
        r#"locals {
  x = a ? b ? c : d : e ? f : g
}
"#,
        &[],
    ),
    (
        "missing_value_eof",
        r#"locals {
  x ="#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 14..15),
        ],
    ),
    (
        "garbage_in_block",
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
        r#"resource "a%{if x}" "b" {
}
"#,
        &[
            ("Invalid string literal", r#"Template sequences are not allowed in this string. To include a literal "%", double it (as "%%") to escape it."#, 11..13),
        ],
    ),
    (
        "deep_ok_nl_in_interp",
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
        r#"locals {
  x = a ? b"#,
        &[
            ("Missing false expression in conditional", r#"The conditional operator (...?...:...) requires a false expression, delimited by a colon."#, 20..21),
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 20..21),
        ],
    ),
    (
        "unary_eof",
        r#"locals {
  x = -"#,
        &[
            ("Invalid expression", r#"Expected the start of an expression, but found an invalid expression token."#, 16..17),
        ],
    ),
    (
        "not_not",
        r#"locals {
  x = !!true
}
"#,
        &[],
    ),
    (
        "dot_eof",
        r#"locals {
  x = a."#,
        &[
            ("Invalid attribute name", r#"An attribute name is required after a dot."#, 17..18),
        ],
    ),
    (
        "splat_nested_full",
        r#"locals {
  x = a[*][*].b
}
"#,
        &[],
    ),
    (
        "index_newline_inside",
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
        r#"resource a b c {
}
"#,
        &[],
    ),
    (
        "two_attrs_then_bad_block",
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
        r#"locals {
  x = {"a" = 1, "a" = 2}
}
"#,
        &[],
    ),
    (
        "number_big",
        r#"locals {
  x = 1e999
}
"#,
        &[],
    ),
    (
        "percent_ops",
        r#"locals {
  x = 5 % 2 %{
}
"#,
        &[
            ("Argument or block definition required", r#"An argument or block definition is required here."#, 26..27),
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
fn errors_match_terraform_1_0_3() {
    let mut failures = Vec::new();
    for (name, text, want) in CASES {
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
        let want: Vec<(&str, String, std::ops::Range<usize>)> = want.iter().map(|(s, d, r)| (*s, d.to_string(), r.clone())).collect();
        if got != want {
            failures.push(format!("{name}:\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}
