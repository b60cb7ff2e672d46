//! Every syntax error text, worded as hclsyntax v2.24.0 words it (the HCL inside Terraform
//! 1.15). Most were observed with `terraform validate -json` of Terraform 1.0.3 (hclsyntax
//! v2.10.1) and are unchanged since; those that v2.11 through v2.24 added (end-of-file cases,
//! namespaced functions, an errant quote in an interpolation) are taken from the v2.24.0 source,
//! cited at each. `tests/hcl_syntax_errors.rs` says which expectation comes from where. A message
//! is a `(summary, detail)` pair; formatted details are functions.

use crate::addrs::quote::go_quote;

pub type Msg = (&'static str, &'static str);

/// Where a detail names another range of the same file (`main.tf:2,3-4`): the caller, which
/// knows the file name, replaces this marker with that range (see [`super::SyntaxError::at`]).
pub const AT: &str = "{at}";

// ---- scanner (token.go, checkInvalidTokens) ----------------------------------------------
pub const BITWISE_AND: Msg =
    ("Unsupported operator", "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?");
pub const BITWISE_OR: Msg =
    ("Unsupported operator", "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?");
pub const BITWISE_NOT: Msg =
    ("Unsupported operator", "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?");
pub const BITWISE_XOR: Msg = ("Unsupported operator", "Bitwise operators are not supported.");
pub const BACKTICK: Msg = (
    "Invalid character",
    "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
);
pub const APOSTROPHE: Msg =
    ("Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings.");
pub const SEMICOLON: Msg = (
    "Invalid character",
    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
);
pub const QUOTED_NEWLINE: Msg = (
    "Invalid multi-line string",
    "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
);
pub const CURLY_QUOTE: Msg = (
    "Invalid character",
    "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
);
pub const INVALID_CHARACTER: Msg = ("Invalid character", "This character is not used within the language.");

// ---- bodies (parser.go) ------------------------------------------------------------------
pub const INVALID_ARGUMENT_NAME: Msg = ("Invalid argument name", "Argument names must not be quoted.");
pub const ARGUMENT_OR_BLOCK_REQUIRED: Msg =
    ("Argument or block definition required", "An argument or block definition is required here.");
pub const ARGUMENT_OR_BLOCK_REQUIRED_EQUALS: Msg = (
    "Argument or block definition required",
    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
);
pub const MISSING_NEWLINE_AFTER_ARGUMENT: Msg =
    ("Missing newline after argument", "An argument definition must end with a newline.");
pub const UNEXPECTED_COMMA_AFTER_ARGUMENT: Msg = (
    "Unexpected comma after argument",
    "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
);
pub const BLOCK_EQUALS: Msg = (
    "Invalid block definition",
    "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
);
pub const BLOCK_NEWLINE: Msg = (
    "Invalid block definition",
    "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
);
pub const BLOCK_LABEL_OR_BRACE: Msg =
    ("Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.");
pub const SINGLE_LINE_COMMA: Msg = (
    "Invalid single-argument block definition",
    "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
);
pub const SINGLE_LINE_NEWLINE: Msg = (
    "Invalid single-argument block definition",
    "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
);
pub const SINGLE_LINE_END: Msg = (
    "Invalid single-argument block definition",
    "A single-line block definition must end with a closing brace immediately after its single argument definition.",
);
/// hclsyntax v2.24.0 parser.go:96 (`ParseBody`) and :419 (a single-line block): the file ends
/// inside a block. Terraform 1.0.3 said "Argument or block definition required" (or "Invalid
/// single-argument block definition") at the end of the file.
pub const UNCLOSED_BLOCK: Msg = (
    "Unclosed configuration block",
    "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
);
pub const MISSING_NEWLINE_AFTER_BLOCK: Msg =
    ("Missing newline after block definition", "A block definition must end with a newline.");

pub fn single_line_argument_required(name: &str) -> (&'static str, String) {
    (
        "Argument definition required",
        format!(
            "A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
            go_quote(name)
        ),
    )
}

pub fn attribute_redefined(name: &str) -> (&'static str, String) {
    (
        "Attribute redefined",
        format!("The argument {} was already set at {AT}. Each argument may be set only once.", go_quote(name)),
    )
}

// ---- expressions ---------------------------------------------------------------------------
pub const MISSING_FALSE_EXPRESSION: Msg = (
    "Missing false expression in conditional",
    "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
);
pub const INVALID_ATTRIBUTE_NAME: Msg = ("Invalid attribute name", "An attribute name is required after a dot.");
pub const NESTED_SPLAT: Msg = (
    "Nested splat expression not allowed",
    "A splat expression (*) cannot be used inside another attribute-only splat expression.",
);
pub const MISSING_SPLAT_CLOSE: Msg = (
    "Missing close bracket on splat index",
    "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
);
pub const MISSING_INDEX_CLOSE: Msg =
    ("Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").");
pub const UNBALANCED_PARENTHESES: Msg =
    ("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.");
pub const INVALID_EXPRESSION: Msg =
    ("Invalid expression", "Expected the start of an expression, but found an invalid expression token.");
/// v2.24.0 parser.go:1108: an expression expected, the file ended ("Invalid expression" before).
pub const MISSING_EXPRESSION: Msg =
    ("Missing expression", "Expected the start of an expression, but found the end of the file.");
pub const INVALID_NUMBER: Msg = ("Invalid number literal", "Failed to recognize the value of this number literal.");
/// v2.24.0 parser.go:1173 and :1209: `provider::ns::fn()` calls (no such syntax in v2.10.1).
pub const MISSING_FUNCTION_NAME: Msg =
    ("Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.");
pub const MISSING_OPEN_PAREN: Msg = (
    "Missing open parenthesis",
    "Function selector must be followed by an open parenthesis to begin the function call.",
);
pub const MISSING_CLOSING_PAREN: Msg = (
    "Missing closing parenthesis",
    "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
);
pub const MISSING_ARGUMENT_SEPARATOR: Msg =
    ("Missing argument separator", "A comma is required to separate each function argument from the next.");
/// v2.24.0 parser.go:1287: the file ends after an argument ("Missing argument separator" before).
pub const UNTERMINATED_CALL: Msg = (
    "Unterminated function call",
    "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
);
/// v2.24.0 parser.go:1376: the file ends after a tuple item ("Missing item separator" before).
pub const UNTERMINATED_TUPLE: Msg = (
    "Unterminated tuple constructor expression",
    "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
);
/// v2.24.0 parser.go:1502 (after a key) and :1560 (after a value): the file ends inside an
/// object constructor ("Missing key/value separator" / "Missing attribute separator" before).
pub const UNTERMINATED_OBJECT: Msg = (
    "Unterminated object constructor expression",
    "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
);
pub const MISSING_ITEM_SEPARATOR: Msg =
    ("Missing item separator", "Expected a comma to mark the beginning of the next item.");
pub const MISSING_ATTRIBUTE_VALUE: Msg =
    ("Missing attribute value", "Expected an attribute value, introduced by an equals sign (\"=\").");
pub const MISSING_KEY_VALUE_SEPARATOR_IDENT: Msg = (
    "Missing key/value separator",
    "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
);
pub const MISSING_KEY_VALUE_SEPARATOR: Msg =
    ("Missing key/value separator", "Expected an equals sign (\"=\") to mark the beginning of the attribute value.");
pub const MISSING_ATTRIBUTE_SEPARATOR: Msg =
    ("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.");
pub const FOR_VARIABLE: Msg = ("Invalid 'for' expression", "For expression requires variable name after 'for'.");
pub const FOR_VALUE_VARIABLE: Msg =
    ("Invalid 'for' expression", "For expression requires value variable name after comma.");
pub const FOR_IN: Msg =
    ("Invalid 'for' expression", "For expression requires the 'in' keyword after its name declarations.");
pub const FOR_COLON: Msg =
    ("Invalid 'for' expression", "For expression requires a colon after the collection expression.");
pub const FOR_EXTRA: Msg = ("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.");
pub const FOR_TUPLE_KEY: Msg = ("Invalid 'for' expression", "Key expression is not valid when building a tuple.");
pub const FOR_TUPLE_GROUP: Msg =
    ("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.");
pub const FOR_OBJECT_KEY: Msg = ("Invalid 'for' expression", "Key expression is required when building an object.");
pub const EXTRA_AFTER_EXPRESSION: Msg = (
    "Extra characters after expression",
    "An expression was successfully parsed, but extra characters were found after it.",
);

pub fn legacy_index(first: &str, second: &str, in_splat: bool) -> (&'static str, String) {
    let detail = if in_splat {
        format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{first}][{second}].")
    } else {
        format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{first}][{second}].")
    };
    ("Invalid legacy index syntax", detail)
}

pub fn too_deeply_nested() -> (&'static str, String) {
    (
        "Expression too deeply nested",
        format!(
            "This expression nests more than {} levels deep, which is more than this tool supports.",
            super::MAX_DEPTH
        ),
    )
}

// ---- strings and templates (parser.go, parser_template.go) ----------------------------------
pub const UNTERMINATED_STRING_LITERAL: Msg =
    ("Unterminated string literal", "Unable to find the closing quote mark before the end of the file.");
pub const INVALID_STRING_LITERAL_ITEM: Msg = ("Invalid string literal", "This item is not valid in a string literal.");
pub const UNTERMINATED_TEMPLATE: Msg = ("Unterminated template string", "No closing marker was found for the string.");
pub const INTERP_COLON: Msg = (
    "Extra characters after interpolation expression",
    "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
);
pub const INTERP_EXTRA: Msg = (
    "Extra characters after interpolation expression",
    "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
);
/// v2.24.0 parser_template.go:424: the file ends inside `${ … }` ("Extra characters after
/// interpolation expression" at the end of the file before).
pub const UNCLOSED_INTERP_EOF: Msg = (
    "Unclosed template interpolation sequence",
    "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
);
/// v2.24.0 parser_template.go:444: a quote where a quoted template's `}` should be.
pub const UNCLOSED_INTERP_QUOTE: Msg = (
    "Unclosed template interpolation sequence",
    "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
);
pub const INVALID_DIRECTIVE: Msg = (
    "Invalid template directive",
    "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
);
pub const FOR_DIRECTIVE_VARIABLE: Msg =
    ("Invalid 'for' directive", "For directive requires variable name after 'for'.");
pub const FOR_DIRECTIVE_VALUE_VARIABLE: Msg =
    ("Invalid 'for' directive", "For directive requires value variable name after comma.");
pub const FOR_DIRECTIVE_IN: Msg = ("Invalid 'for' directive", "For directive requires 'in' keyword after names.");
pub const EXTRA_IN_MARKER_DETAIL: &str = "Expected a closing brace to end the sequence, but found extra characters.";
pub const UNBALANCED_DIRECTIVES_DETAIL: &str = "The control directives within this template are unbalanced.";
pub const ELSE_IN_FOR: Msg = ("Unexpected else directive", "An else clause is not expected for a for directive.");
pub const BACKSLASH_AT_END: Msg =
    ("Invalid escape sequence", "Backslash must be followed by an escape sequence selector character.");
pub const SHORT_U_ESCAPE: Msg =
    ("Invalid escape sequence", "The \\u escape sequence must be followed by four hexadecimal digits.");
pub const LONG_U_ESCAPE: Msg =
    ("Invalid escape sequence", "The \\U escape sequence must be followed by eight hexadecimal digits.");

pub fn template_sequence_in_literal(which: char) -> (&'static str, String) {
    (
        "Invalid string literal",
        format!(
            "Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."
        ),
    )
}

pub fn extra_in_marker(keyword: &str) -> &'static str {
    match keyword {
        "if" => "Extra characters in if marker",
        "else" => "Extra characters in else marker",
        "endif" => "Extra characters in endif marker",
        "for" => "Extra characters in for marker",
        _ => "Extra characters in endfor marker",
    }
}

pub fn unexpected_directive(name: &str) -> &'static str {
    match name {
        "else" => "Unexpected else directive",
        "endif" => "Unexpected endif directive",
        _ => "Unexpected endfor directive",
    }
}

pub fn invalid_control_keyword(given: &str) -> (&'static str, String) {
    let suggestion = suggest(given, ["if", "for", "else", "endif", "endfor"])
        .map(|s| format!(" Did you mean {}?", go_quote(s)))
        .unwrap_or_default();
    (
        "Invalid template control keyword",
        format!("{} is not a valid template control keyword.{suggestion}", go_quote(given)),
    )
}

pub fn invalid_escape_selector(selector: &str) -> (&'static str, String) {
    ("Invalid escape sequence", format!("The symbol {} is not a valid escape sequence selector.", go_quote(selector)))
}

pub fn unencodable_character(code: u32) -> (&'static str, String) {
    ("Invalid escape sequence", format!("Cannot encode character U+{code:04x} in UTF-8."))
}

/// HCL's `nameSuggestion`: the first candidate within an edit distance of 2 (Terraform's
/// "Did you mean" hints, here and in the loader's schema checks).
pub fn suggest<'s>(name: &str, candidates: impl IntoIterator<Item = &'s str>) -> Option<&'s str> {
    candidates.into_iter().find(|c| levenshtein(name, c) < 3)
}

/// Edit distance in characters (`agext/levenshtein` with default costs).
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
