//! The signatures of the functions the evaluator calls itself, because an argument of theirs is
//! an expression rather than a value: `templatestring` (its template must be a reference) and
//! `templatefile` (both evaluate a template in a scope of their own,
//! `eval/expr/template_funcs.rs`), and `convert` (its second argument is a type constraint,
//! `eval/expr.rs`). Registered here so that the argument count, "Did you mean" suggestions
//! and the function list know them.

use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::types::Type;

pub(super) fn register(r: &mut Registry) {
    let through_evaluator = |_: &super::FuncContext<'_>, _: &[crate::eval::value::Value], _: &Type| {
        Err(FuncError::Other("this function takes an expression argument: the evaluator calls it directly".into()))
    };
    r.add(Function {
        name: "templatestring",
        params: vec![Param::new("template", Type::String), Param::new("vars", Type::Dynamic).dynamic()],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: through_evaluator,
    });
    r.add(Function {
        name: "templatefile",
        params: vec![Param::new("path", Type::String).unknown().marked(), Param::new("vars", Type::Dynamic).dynamic().unknown().marked()],
        variadic: None,
        returns: Returns::Type(Type::Dynamic),
        imp: through_evaluator,
    });
    r.add(Function {
        name: "convert",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic(), Param::new("type", Type::Dynamic)],
        variadic: None,
        returns: Returns::Type(Type::Dynamic),
        imp: through_evaluator,
    });
}
