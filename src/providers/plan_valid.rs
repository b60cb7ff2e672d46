//! Whether a provider's planned object is one it may plan for a configuration and a prior
//! object (Terraform's `objchange.AssertPlanValid`), and how Terraform words what is wrong:
//! each problem is the attribute's path and a sentence with cty's Go-syntax values
//! (`.name: planned value cty.NullVal(cty.String) does not match config value
//! cty.UnknownVal(cty.String)`). The engine checks the plans of providers it does not trust
//! (JS ones): the built-in mocks plan by construction what this accepts.
//!
//! The rules, per attribute: the configuration's value as planned, or the prior's when both
//! are set, is always valid; a computed-only attribute may be anything; an optional computed
//! one may be anything when the configuration leaves it null; otherwise the planned value must
//! be the configuration's. Nested blocks are lists: as many planned as configured, each checked
//! the same way.

use super::ResourceSchema;
use crate::eval::{Kind, Type, Value};

/// The problems with `planned` (empty: a valid plan), each `<path>: <what>` (`.name: ...`).
pub fn assert_plan_valid(
    schema: &ResourceSchema,
    prior: Option<&Value>,
    config: &Value,
    planned: &Value,
) -> Vec<String> {
    let mut errs = Vec::new();
    let null = Value::null(schema.object_type());
    object(schema, prior.unwrap_or(&null), config, planned, "", &mut errs);
    errs
}

fn attr<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    match &v.kind {
        Kind::Object(m) => m.get(name),
        _ => None,
    }
}

/// `<path>: <what>`; the path is empty for the object itself (`: planned for absence ...`), so
/// an address put in front reads as `tfdiags.FormatErrorPrefixed` writes it.
fn at(path: &str, msg: String) -> String {
    format!("{path}: {msg}")
}

fn object(schema: &ResourceSchema, prior: &Value, config: &Value, planned: &Value, path: &str, errs: &mut Vec<String>) {
    if planned.is_null() && !config.is_null() {
        errs.push(at(path, "planned for absence but config wants existence".into()));
        return;
    }
    if config.is_null() && !planned.is_null() {
        errs.push(at(path, "planned for existence but config wants absence".into()));
        return;
    }
    if planned.is_null() {
        return;
    }
    for (name, a) in &schema.attributes {
        let null = Value::null(a.ty.clone());
        let pick = |v: &Value| attr(v, name).cloned().unwrap_or_else(|| null.clone());
        let (p, c, pl) = (pick(prior), pick(config), pick(planned));
        if let Some(e) = attribute(a, &p, &c, &pl) {
            errs.push(format!("{path}.{name}: {e}"));
        }
    }
    for (name, block) in &schema.blocks {
        let path = format!("{path}.{name}");
        let empty = Value::null(Type::Dynamic);
        let (p, c, pl) = (
            attr(prior, name).unwrap_or(&empty),
            attr(config, name).unwrap_or(&empty),
            attr(planned, name).unwrap_or(&empty),
        );
        if pl.is_null() {
            errs.push(format!(
                "{path}: attribute representing a list of nested blocks must be empty to indicate no blocks, not null"
            ));
            continue;
        }
        if pl.raw_equal(c) {
            continue;
        }
        if !c.is_known() {
            errs.push(format!("{path}: planned value {} for unknown dynamic block", go_string(pl)));
            continue;
        }
        if !pl.is_known() {
            errs.push(format!("{path}: planned unknown value for non-computed block"));
            continue;
        }
        let items = |v: &Value| -> Vec<Value> {
            match &v.kind {
                Kind::List(_, x) | Kind::Tuple(x) | Kind::Set(_, x) => x.clone(),
                _ => Vec::new(),
            }
        };
        let (planned_items, config_items, prior_items) = (items(pl), items(c), items(p));
        if planned_items.len() != config_items.len() {
            errs.push(format!(
                "{path}: block count in plan ({}) disagrees with count in config ({})",
                planned_items.len(),
                config_items.len()
            ));
            continue;
        }
        for (i, (pe, ce)) in planned_items.iter().zip(&config_items).enumerate() {
            let path = format!("{path}[{i}]");
            if !pe.is_known() {
                errs.push(format!("{path}: element representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
                continue;
            }
            let none = Value::null(block.object_type());
            object(block, prior_items.get(i).unwrap_or(&none), ce, pe, &path, errs);
        }
    }
}

/// `assertPlannedValueValid` for one attribute.
fn attribute(a: &super::AttributeSchema, prior: &Value, config: &Value, planned: &Value) -> Option<String> {
    if planned.raw_equal(config) || (planned.raw_equal(prior) && !prior.is_null() && !config.is_null()) {
        return None;
    }
    if a.computed && (!a.optional || config.is_null()) {
        return None;
    }
    if config.is_null() && !planned.is_null() {
        return Some(if a.sensitive {
            "sensitive planned value for a non-computed attribute".into()
        } else {
            format!("planned value {} for a non-computed attribute", go_string(planned))
        });
    }
    Some(match (prior.is_null(), a.sensitive) {
        (true, true) => "sensitive planned value does not match config value".into(),
        (true, false) => {
            format!("planned value {} does not match config value {}", go_string(planned), go_string(config))
        }
        (false, true) => "sensitive planned value does not match config value nor prior value".into(),
        (false, false) => format!(
            "planned value {} does not match config value {} nor prior value {}",
            go_string(planned),
            go_string(config),
            go_string(prior)
        ),
    })
}

/// The problems with `actual`, a provider's new object after applying `planned` (empty: it
/// kept every value the plan knew), as Terraform's `objchange.AssertObjectCompatible` words them
/// after `tfdiags.FormatError` (`.name: was cty.StringVal("a"), but now cty.StringVal("b")`).
pub fn assert_object_compatible(schema: &ResourceSchema, planned: &Value, actual: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    object_compatible(schema, planned, actual, "", &mut errs);
    errs
}

fn object_compatible(schema: &ResourceSchema, planned: &Value, actual: &Value, path: &str, errs: &mut Vec<String>) {
    let root = if path.is_empty() { "Root object " } else { "" };
    let say = |msg: String| if path.is_empty() { msg } else { format!("{path}: {msg}") };
    if planned.is_null() && !actual.is_null() {
        errs.push(say(format!("{root}was absent, but now present")));
        return;
    }
    if actual.is_null() && !planned.is_null() {
        errs.push(say(format!("{root}was present, but now absent")));
        return;
    }
    if planned.is_null() {
        return;
    }
    for (name, a) in &schema.attributes {
        let null = Value::null(a.ty.clone());
        let (p, x) = (attr(planned, name).unwrap_or(&null), attr(actual, name).unwrap_or(&null));
        let path = format!("{path}.{name}");
        let mut found = Vec::new();
        value_compatible(&p.unmark_deep().0, &x.unmark_deep().0, &path, &mut found);
        if a.sensitive || p.has_sensitive() || x.has_sensitive() {
            if !found.is_empty() {
                errs.push(format!("{path}: inconsistent values for sensitive attribute"));
            }
        } else {
            errs.extend(found);
        }
    }
    for (name, block) in &schema.blocks {
        let empty = Value::null(Type::Dynamic);
        let (p, x) = (attr(planned, name).unwrap_or(&empty), attr(actual, name).unwrap_or(&empty));
        let items = |v: &Value| match &v.kind {
            Kind::List(_, x) | Kind::Tuple(x) => Some(x.clone()),
            _ => None,
        };
        let (Some(pl), Some(xl)) = (items(p), items(x)) else { continue };
        let path = format!("{path}.{name}");
        if pl.len() != xl.len() {
            errs.push(format!("{path}: block count changed from {} to {}", pl.len(), xl.len()));
            continue;
        }
        for (i, (pe, xe)) in pl.iter().zip(&xl).enumerate() {
            object_compatible(block, pe, xe, &format!("{path}[{i}]"), errs);
        }
    }
}

/// `assertValueCompatible`: what the plan knew stays as it was.
fn value_compatible(planned: &Value, actual: &Value, path: &str, errs: &mut Vec<String>) {
    let say = |msg: String| if path.is_empty() { msg } else { format!("{path}: {msg}") };
    if planned.ty() == Type::Dynamic || !planned.is_known() {
        return;
    }
    match (planned.is_null(), actual.is_null()) {
        (true, true) => return,
        (false, true) => return errs.push(say(format!("was {}, but now null", go_string(planned)))),
        (true, false) => return errs.push(say(format!("was null, but now {}", go_string(actual)))),
        _ => {}
    }
    if !actual.is_known() {
        return errs.push(say("was known, but now unknown".into()));
    }
    let key = |k: &str, number: bool| if number { format!("[{k}]") } else { format!("[{}]", go_quote(k)) };
    match (&planned.kind, &actual.kind) {
        (Kind::List(_, p) | Kind::Tuple(p), Kind::List(_, x) | Kind::Tuple(x)) => {
            for (i, pe) in p.iter().enumerate() {
                match x.get(i) {
                    Some(xe) => value_compatible(pe, xe, &format!("{path}{}", key(&i.to_string(), true)), errs),
                    None => errs.push(say(format!("element {i} has vanished"))),
                }
            }
            for i in p.len()..x.len() {
                errs.push(say(format!("new element {i} has appeared")));
            }
        }
        (Kind::Map(_, p), Kind::Map(_, x)) => {
            for (k, pe) in p {
                match x.get(k) {
                    Some(xe) => value_compatible(pe, xe, &format!("{path}{}", key(k, false)), errs),
                    None => errs.push(say(format!("element {} has vanished", go_quote(k)))),
                }
            }
            for k in x.keys().filter(|k| !p.contains_key(*k)) {
                errs.push(say(format!("new element {} has appeared", go_quote(k))));
            }
        }
        (Kind::Object(p), Kind::Object(x)) => {
            for (k, pe) in p {
                let null = Value::null(pe.ty());
                value_compatible(pe, x.get(k).unwrap_or(&null), &format!("{path}.{k}"), errs);
            }
        }
        _ if !planned.raw_equal(actual) => {
            errs.push(say(format!("was {}, but now {}", go_string(planned), go_string(actual))))
        }
        _ => {}
    }
}

/// cty's `Value.GoString` (`%#v`): `cty.StringVal("x")`, `cty.NullVal(cty.String)`,
/// `cty.ListVal([]cty.Value{...})`.
pub fn go_string(v: &Value) -> String {
    let list = |items: &[Value]| items.iter().map(go_string).collect::<Vec<_>>().join(", ");
    let map = |m: &std::collections::BTreeMap<String, Value>| {
        m.iter().map(|(k, v)| format!("{}:{}", go_quote(k), go_string(v))).collect::<Vec<_>>().join(", ")
    };
    match &v.kind {
        Kind::Null(t) => format!("cty.NullVal({})", go_type(t)),
        Kind::Unknown(Type::Dynamic) => "cty.DynamicVal".into(),
        Kind::Unknown(t) => format!("cty.UnknownVal({})", go_type(t)),
        Kind::Bool(true) => "cty.True".into(),
        Kind::Bool(false) => "cty.False".into(),
        Kind::Number(n) => match n.to_i64() {
            Some(i) if n.is_integer() => format!("cty.NumberIntVal({i})"),
            _ => format!("cty.NumberFloatVal({:?})", n.to_f64()),
        },
        Kind::String(s) => format!("cty.StringVal({})", go_quote(s)),
        Kind::List(t, items) if items.is_empty() => format!("cty.ListValEmpty({})", go_type(t)),
        Kind::List(_, items) => format!("cty.ListVal([]cty.Value{{{}}})", list(items)),
        Kind::Set(t, items) if items.is_empty() => format!("cty.SetValEmpty({})", go_type(t)),
        Kind::Set(_, items) => format!("cty.SetVal([]cty.Value{{{}}})", list(items)),
        Kind::Map(t, m) if m.is_empty() => format!("cty.MapValEmpty({})", go_type(t)),
        Kind::Map(_, m) => format!("cty.MapVal(map[string]cty.Value{{{}}})", map(m)),
        Kind::Tuple(items) if items.is_empty() => "cty.EmptyTupleVal".into(),
        Kind::Tuple(items) => format!("cty.TupleVal([]cty.Value{{{}}})", list(items)),
        Kind::Object(m) if m.is_empty() => "cty.EmptyObjectVal".into(),
        Kind::Object(m) => format!("cty.ObjectVal(map[string]cty.Value{{{}}})", map(m)),
        Kind::TypeVal(t) => go_type(t),
    }
}

/// cty's `Type.GoString`.
fn go_type(t: &Type) -> String {
    match t {
        Type::Dynamic => "cty.DynamicPseudoType".into(),
        Type::Bool => "cty.Bool".into(),
        Type::Number => "cty.Number".into(),
        Type::String => "cty.String".into(),
        Type::List(e) => format!("cty.List({})", go_type(e)),
        Type::Set(e) => format!("cty.Set({})", go_type(e)),
        Type::Map(e) => format!("cty.Map({})", go_type(e)),
        Type::Tuple(items) if items.is_empty() => "cty.EmptyTuple".into(),
        Type::Tuple(items) => {
            format!("cty.Tuple([]cty.Type{{{}}})", items.iter().map(go_type).collect::<Vec<_>>().join(", "))
        }
        Type::Object(m) if m.is_empty() => "cty.EmptyObject".into(),
        Type::Object(m) => format!(
            "cty.Object(map[string]cty.Type{{{}}})",
            m.iter().map(|(k, t)| format!("{}:{}", go_quote(k), go_type(t))).collect::<Vec<_>>().join(", ")
        ),
        Type::TypeType => "cty.DynamicPseudoType".into(),
    }
}

use crate::addrs::go_quote;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::AttributeSchema;

    fn schema() -> ResourceSchema {
        let attr = |optional: bool, computed: bool| AttributeSchema {
            ty: Type::String,
            optional,
            computed,
            required: !optional && !computed,
            sensitive: false,
            requires_replace: false,
        };
        ResourceSchema {
            version: 0,
            blocks: Default::default(),
            attributes: [
                ("name".to_string(), attr(true, false)),
                ("id".to_string(), attr(false, true)),
                ("region".to_string(), attr(true, true)),
            ]
            .into_iter()
            .collect(),
        }
    }

    fn obj(pairs: &[(&str, Value)]) -> Value {
        let mut m: std::collections::BTreeMap<String, Value> =
            ["name", "id", "region"].iter().map(|k| (k.to_string(), Value::null(Type::String))).collect();
        m.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Value::object(m)
    }

    #[test]
    fn terraforms_rules_and_words() {
        let s = schema();
        let unknown = Value::unknown(Type::String);
        let cases: Vec<(Option<Value>, Value, Value, Vec<&str>)> = vec![
            // The configuration as planned, computed attributes anything.
            (None, obj(&[("name", Value::string("a"))]), obj(&[("name", Value::string("a")), ("id", unknown.clone()), ("region", Value::string("eu"))]), vec![]),
            // Config unknown planned null.
            (None, obj(&[("name", unknown.clone())]), obj(&[]), vec![".name: planned value cty.NullVal(cty.String) does not match config value cty.UnknownVal(cty.String)"]),
            // A known config value changed, no prior.
            (None, obj(&[("name", Value::string("a"))]), obj(&[("name", Value::string("b"))]), vec![r#".name: planned value cty.StringVal("b") does not match config value cty.StringVal("a")"#]),
            // The prior's value kept over the configuration's: valid; another value: not.
            (Some(obj(&[("name", Value::string("old"))])), obj(&[("name", Value::string("new"))]), obj(&[("name", Value::string("old"))]), vec![]),
            (Some(obj(&[("name", Value::string("old"))])), obj(&[("name", Value::string("new"))]), obj(&[("name", Value::string("x"))]), vec![r#".name: planned value cty.StringVal("x") does not match config value cty.StringVal("new") nor prior value cty.StringVal("old")"#]),
            // A value for a non-computed attribute the configuration leaves null.
            (None, obj(&[]), obj(&[("name", Value::string("x"))]), vec![r#".name: planned value cty.StringVal("x") for a non-computed attribute"#]),
            // An optional+computed one set in the configuration and planned otherwise.
            (None, obj(&[("region", Value::string("eu"))]), obj(&[("region", Value::string("us"))]), vec![r#".region: planned value cty.StringVal("us") does not match config value cty.StringVal("eu")"#]),
        ];
        for (prior, config, planned, want) in cases {
            assert_eq!(assert_plan_valid(&s, prior.as_ref(), &config, &planned), want, "{}", go_string(&planned));
        }
    }

    #[test]
    fn what_an_apply_may_change() {
        let s = schema();
        let planned = obj(&[("name", Value::string("a")), ("id", Value::unknown(Type::String))]);
        assert!(assert_object_compatible(
            &s,
            &planned,
            &obj(&[("name", Value::string("a")), ("id", Value::string("i-1"))])
        )
        .is_empty());
        assert_eq!(
            assert_object_compatible(&s, &planned, &obj(&[("name", Value::string("b")), ("id", Value::string("i-1"))])),
            [r#".name: was cty.StringVal("a"), but now cty.StringVal("b")"#]
        );
        assert_eq!(
            assert_object_compatible(&s, &planned, &obj(&[("id", Value::string("i-1"))])),
            [r#".name: was cty.StringVal("a"), but now null"#]
        );
        assert_eq!(
            assert_object_compatible(&s, &planned, &Value::null(s.object_type())),
            ["Root object was present, but now absent"]
        );
    }

    #[test]
    fn go_strings() {
        let m = Value::map(
            Type::String,
            [("b".to_string(), Value::string("2")), ("a".to_string(), Value::string("1"))].into_iter().collect(),
        );
        assert_eq!(
            go_string(&m),
            r#"cty.MapVal(map[string]cty.Value{"a":cty.StringVal("1"), "b":cty.StringVal("2")})"#
        );
        assert_eq!(go_string(&Value::int(3)), "cty.NumberIntVal(3)");
        assert_eq!(go_string(&Value::list(Type::Number, vec![])), "cty.ListValEmpty(cty.Number)");
        assert_eq!(go_string(&Value::string("a\"b")), r#"cty.StringVal("a\"b")"#);
    }
}
