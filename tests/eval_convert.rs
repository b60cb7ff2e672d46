#![cfg(not(target_arch = "wasm32"))]
//! `convert(value, type)`, new in Terraform 1.15 (1.11.4, our recording Terraform, lacks it):
//! expectations written from `internal/lang/funcs/conversion.go` (cty's conversion, then the
//! constraint's `optional()` defaults; the type argument is a type expression, not a value).

mod support;
use support::console as harness;

use harness::{console, Outcome, Setup};

fn eval(expr: &str) -> Result<(String, String), (String, String)> {
    match console(&Setup::default(), expr) {
        Outcome::Value { ty, rendered, .. } => Ok((rendered, ty)),
        Outcome::Error { summary, detail, .. } => Err((summary, detail)),
    }
}

#[test]
fn convert_converts_to_type_constraints_with_defaults() {
    assert_eq!(eval("convert(1, string)").unwrap(), ("\"1\"".into(), "string".into()));
    assert_eq!(eval("convert(\"5\", number)").unwrap(), ("5".into(), "number".into()));
    assert_eq!(
        eval("convert([1, 2], set(string))").unwrap(),
        ("toset([\n  \"1\",\n  \"2\",\n])".into(), "set(string)".into())
    );
    assert_eq!(
        eval("convert({ a = \"x\" }, object({ a = string, b = optional(number, 5) }))").unwrap(),
        ("{\n  \"a\" = \"x\"\n  \"b\" = 5\n}".into(), "object({\n    a: string,\n    b: number,\n})".into())
    );
    assert_eq!(eval("convert(null, string)").unwrap(), ("tostring(null)".into(), "string".into()));
    assert_eq!(eval("convert(sensitive(\"a\"), string)").unwrap().0, "(sensitive value)");
}

#[test]
fn convert_reports_bad_values_and_bad_types() {
    let (summary, detail) = eval("convert(\"x\", number)").unwrap_err();
    assert_eq!(summary, "Invalid function argument");
    assert_eq!(detail, "Invalid value for \"value\" parameter: a number is required.");
    let (summary, _) = eval("convert(1, nope)").unwrap_err();
    assert_eq!(summary, "Invalid type specification");
    let (summary, detail) = eval("convert(1)").unwrap_err();
    assert_eq!(summary, "Not enough function arguments");
    assert_eq!(detail, "Function \"convert\" expects 2 argument(s). Missing value for \"type\".");
}
