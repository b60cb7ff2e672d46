//! The signatures of `templatestring` and `templatefile`. The evaluator calls them itself
//! (`eval/expr/template_funcs.rs`): `templatestring` takes its template as an expression, not a
//! value, and both evaluate a template with a scope of their own. Registered here so that the
//! argument count, "Did you mean" suggestions and the function list know them.

use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::types::Type;

pub(super) fn register(r: &mut Registry) {
    let through_evaluator = |_: &super::FuncContext<'_>, _: &[crate::eval::value::Value], _: &Type| {
        Err(FuncError::Other("this function takes its template from the evaluator, which calls it directly".into()))
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
}
