//! The signatures of the template functions, which the evaluator calls itself
//! (`eval/expr/template_funcs.rs`): `templatestring` takes its template as an expression (it
//! must be a reference), and both evaluate a template in a scope of their own. Registered here
//! so that the argument count, "Did you mean" suggestions and the function list know them.
//! (`convert`, whose second argument is a type expression, is in conversion.rs.)

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
        params: vec![
            Param::new("path", Type::String).unknown().marked(),
            Param::new("vars", Type::Dynamic).dynamic().unknown().marked(),
        ],
        variadic: None,
        returns: Returns::Type(Type::Dynamic),
        imp: through_evaluator,
    });
}
