//! The string functions (Terraform's "String Functions"), on the Go-faithful layers beside
//! this file: `string_text` (Go's `strings` and cty's grapheme counting), `string_format_*`
//! (cty's `format`), `string_regex_*` (Go's RE2 syntax for `replace`). Parameter flags and
//! error texts follow `funcs_a_spec.md`, read from cty's and Terraform's source.

use super::string_format_go::{format_values, formatlist_values, parse_cty_number, Arg, FormatError, ListArg};
use super::string_text as text;
use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::render::to_json_text;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};

/// The longest string `replace` builds (Terraform has no limit; we error instead).
const MAX_RESULT: usize = 16 << 20;

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn string_fn(name: &'static str, params: &[&'static str], imp: super::ImplFn) -> Function {
    Function {
        name,
        params: params.iter().map(|p| Param::new(p, Type::String)).collect(),
        variadic: None,
        returns: Returns::Type(Type::String),
        imp,
    }
}

fn bool_fn(name: &'static str, params: &[&'static str], imp: super::ImplFn) -> Function {
    Function {
        name,
        params: params.iter().map(|p| Param::new(p, Type::String)).collect(),
        variadic: None,
        returns: Returns::Type(Type::Bool),
        imp,
    }
}

/// A whole number argument as i64, or cty's error.
fn whole(v: &Value) -> Result<i64, FuncError> {
    v.as_number().and_then(|n| if n.is_integer() { n.to_i64() } else { None }).ok_or_else(|| {
        FuncError::Other("value must be a whole number, between -9223372036854775808 and 9223372036854775807".into())
    })
}

/// A value as `format` sees it.
fn format_arg(v: &Value) -> Arg {
    match &v.kind {
        Kind::Null(_) => Arg::Null,
        Kind::Bool(b) => Arg::Bool(*b),
        Kind::Number(n) => {
            let t = n.to_string();
            match parse_cty_number(&t) {
                Some(d) => Arg::Number(d, t),
                None => Arg::String(t),
            }
        }
        Kind::String(x) => Arg::String(x.clone()),
        _ => Arg::Other(to_json_text(v).unwrap_or_default()),
    }
}

pub(super) fn register(r: &mut Registry) {
    r.add(string_fn("chomp", &["str"], |_, a, _| Ok(Value::string(text::chomp(s(&a[0]))))));
    r.add(string_fn("upper", &["str"], |_, a, _| Ok(Value::string(text::upper(s(&a[0]))))));
    r.add(string_fn("lower", &["str"], |_, a, _| Ok(Value::string(text::lower(s(&a[0]))))));
    r.add(string_fn("strrev", &["str"], |_, a, _| Ok(Value::string(text::strrev(s(&a[0]))))));
    r.add(string_fn("title", &["str"], |_, a, _| Ok(Value::string(text::title(s(&a[0]))))));
    r.add(string_fn("trimspace", &["str"], |_, a, _| Ok(Value::string(text::trim_space(s(&a[0]))))));
    r.add(string_fn("trim", &["str", "cutset"], |_, a, _| Ok(Value::string(text::trim_cutset(s(&a[0]), s(&a[1]))))));
    r.add(string_fn("trimprefix", &["str", "prefix"], |_, a, _| {
        Ok(Value::string(s(&a[0]).strip_prefix(s(&a[1])).unwrap_or(s(&a[0]))))
    }));
    r.add(string_fn("trimsuffix", &["str", "suffix"], |_, a, _| {
        Ok(Value::string(s(&a[0]).strip_suffix(s(&a[1])).unwrap_or(s(&a[0]))))
    }));
    r.add(string_fn("replace", &["str", "substr", "replace"], |_, a, _| {
        super::string_regex_go::replace(s(&a[0]), s(&a[1]), s(&a[2]), MAX_RESULT)
            .map(Value::string)
            .map_err(FuncError::Other)
    }));
    r.add(bool_fn("endswith", &["str", "suffix"], |_, a, _| Ok(Value::bool(s(&a[0]).ends_with(s(&a[1]))))));
    r.add(bool_fn("strcontains", &["str", "substr"], |_, a, _| Ok(Value::bool(s(&a[0]).contains(s(&a[1]))))));
    r.add(Function {
        name: "startswith",
        params: vec![Param::new("str", Type::String).unknown(), Param::new("prefix", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::Bool),
        imp: |_, a, _| match &a[0].kind {
            // An unknown string starts with "" all the same.
            Kind::Unknown(_) => Ok(if s(&a[1]).is_empty() { Value::bool(true) } else { Value::unknown(Type::Bool) }),
            _ => Ok(Value::bool(s(&a[0]).starts_with(s(&a[1])))),
        },
    });
    r.add(Function {
        name: "indent",
        params: vec![Param::new("spaces", Type::Number), Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| text::indent(whole(&a[0])?, s(&a[1])).map(Value::string).map_err(FuncError::Other),
    });
    r.add(Function {
        name: "substr",
        params: vec![
            Param::new("str", Type::String),
            Param::new("offset", Type::Number),
            Param::new("length", Type::Number),
        ],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| Ok(Value::string(text::substr(s(&a[0]), whole(&a[1])?, whole(&a[2])?))),
    });
    r.add(Function {
        name: "split",
        params: vec![Param::new("separator", Type::String), Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::list(Type::String)),
        imp: |_, a, _| {
            Ok(Value::list(Type::String, text::split(s(&a[0]), s(&a[1])).into_iter().map(Value::string).collect()))
        },
    });
    r.add(Function {
        name: "join",
        params: vec![Param::new("separator", Type::String)],
        variadic: Some(Param::new("lists", Type::list(Type::String))),
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let lists = &a[1..];
            if lists.is_empty() {
                return Err(FuncError::Other("at least one list is required".into()));
            }
            // cty's JoinFunc: a list with an unknown element joins to an unknown string.
            if !lists.iter().all(Value::is_wholly_known) {
                return Ok(Value::unknown(Type::String));
            }
            let mut parts = Vec::new();
            let mut total = 0usize;
            for (li, list) in lists.iter().enumerate() {
                for (ei, x) in list.elements().unwrap_or_default().into_iter().enumerate() {
                    if x.is_null() {
                        let msg = if lists.len() == 1 {
                            format!("element {ei} is null; cannot concatenate null values")
                        } else {
                            format!("element {ei} of list {li} is null; cannot concatenate null values")
                        };
                        return Err(FuncError::Arg(li + 1, msg));
                    }
                    // Bounded as templates are (issue #26): a gigabyte string is exhaustion, not a value.
                    total = total.saturating_add(s(x).len() + s(&a[0]).len());
                    if total > crate::eval::limits::MAX_STRING {
                        return Err(FuncError::Other(format!(
                            "the result would be longer than the {} MiB strings this tool builds",
                            crate::eval::limits::MAX_STRING >> 20
                        )));
                    }
                    parts.push(s(x).to_string());
                }
            }
            Ok(Value::string(parts.join(s(&a[0]))))
        },
    });
    r.add(Function {
        name: "format",
        params: vec![Param::new("format", Type::String)],
        variadic: Some(Param::new("args", Type::Dynamic).null().unknown().dynamic()),
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            // cty's FormatFunc: any argument not wholly known makes the result unknown.
            if !a[1..].iter().all(Value::is_wholly_known) {
                return Ok(Value::unknown(Type::String));
            }
            let args: Vec<Arg> = a[1..].iter().map(format_arg).collect();
            format_values(s(&a[0]), &args).map(Value::string).map_err(|e| match e {
                FormatError::Arg(i, m) => FuncError::Arg(i, m),
                FormatError::Call(m) => FuncError::Other(m),
            })
        },
    });
    r.add(Function {
        name: "formatlist",
        params: vec![Param::new("format", Type::String)],
        variadic: Some(Param::new("args", Type::Dynamic).null().unknown().dynamic()),
        returns: Returns::Type(Type::list(Type::String)),
        imp: |_, a, _| formatlist(a),
    });
}

/// cty's `formatlist`: lists, sets and tuples are iterated in step, anything else repeats; a
/// list or set of unknown length (or an unknown of unknown type) makes the whole list unknown,
/// an unknown inside one row makes that row unknown.
fn formatlist(a: &[Value]) -> Result<Value, FuncError> {
    let unknown_list = || Ok(Value::unknown(Type::list(Type::String)));
    let cell = |v: &Value| v.is_wholly_known().then(|| format_arg(v));
    let mut args = Vec::with_capacity(a.len() - 1);
    for v in &a[1..] {
        let ty = v.ty();
        if matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) && !v.is_null() {
            match v.elements() {
                Some(items) if v.is_known() => args.push(ListArg::Seq(items.into_iter().map(cell).collect())),
                _ => return unknown_list(),
            }
        } else if ty == Type::Dynamic && !v.is_known() {
            return unknown_list();
        } else {
            args.push(ListArg::Single(cell(v)));
        }
    }
    let rows = formatlist_values(s(&a[0]), &args).map_err(|e| match e {
        FormatError::Arg(i, m) => FuncError::Arg(i, m),
        FormatError::Call(m) => FuncError::Other(m),
    })?;
    let items =
        rows.into_iter().map(|r| r.map(Value::string).unwrap_or_else(|| Value::unknown(Type::String))).collect();
    Ok(Value::list(Type::String, items))
}

/// `regex`/`regexall`'s per-match type: the whole match, a tuple of the unnamed groups, or an
/// object of the named groups (cty's regexPatternResultType).
fn match_type(args: &[Value]) -> Result<Type, FuncError> {
    let Some(pattern) = args[0].as_str() else { return Ok(Type::Dynamic) };
    let re = compile(pattern)?;
    Ok(match shape(&re.names).map_err(|m| FuncError::Arg(0, m.into()))? {
        Shape::Whole => Type::String,
        Shape::Tuple(n) => Type::Tuple(vec![Type::String; n]),
        Shape::Object(attrs) => {
            Type::Object(crate::util::sort::btree_map(attrs.into_iter().map(|a| (a, Type::String))))
        }
    })
}

fn compile(pattern: &str) -> Result<GoRegex, FuncError> {
    super::string_regex_go::compile(pattern)
        .map_err(|e| FuncError::Arg(0, format!("invalid regexp pattern: {} in {}", e.code, e.expr)))
}

/// One match as a value of [`match_type`].
fn match_value(re: &GoRegex, s: &str, g: &Groups) -> Value {
    let text = |i: usize| group(s, g, i).map(Value::string).unwrap_or_else(|| Value::null(Type::String));
    match shape(&re.names) {
        Ok(Shape::Tuple(n)) => Value::tuple((1..=n).map(text).collect()),
        Ok(Shape::Object(attrs)) => Value::object(crate::util::sort::btree_map(attrs.into_iter().map(|a| {
            // A name used twice: cty fills the object group by group, so the last
            // group of that name wins, matched or not.
            let v =
                re.names.iter().enumerate().rfind(|(_, n)| n.as_deref() == Some(a.as_str())).map(|(i, _)| text(i + 1));
            (a, v.unwrap_or_else(|| Value::null(Type::String)))
        }))),
        _ => text(0),
    }
}

use super::string_regex_go::{group, shape, GoRegex, Groups, Shape};

pub(super) fn register_regex(r: &mut Registry) {
    r.add(Function {
        name: "regex",
        params: vec![Param::new("pattern", Type::String), Param::new("string", Type::String)],
        variadic: None,
        returns: Returns::Computed(match_type),
        imp: |_, a, _| {
            let re = compile(s(&a[0]))?;
            match re.first(s(&a[1])) {
                Some(g) => Ok(match_value(&re, s(&a[1]), &g)),
                None => Err(FuncError::Other("pattern did not match any part of the given string".into())),
            }
        },
    });
    r.add(Function {
        name: "regexall",
        params: vec![Param::new("pattern", Type::String), Param::new("string", Type::String)],
        variadic: None,
        returns: Returns::Computed(|a| Ok(Type::list(match_type(a)?))),
        imp: |_, a, ret| {
            let re = compile(s(&a[0]))?;
            let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
            Ok(Value::list(elem, re.all(s(&a[1])).iter().map(|g| match_value(&re, s(&a[1]), g)).collect()))
        },
    });
}
