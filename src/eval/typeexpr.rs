//! Type constraints as `variable` blocks write them (Terraform's `typeexpr`): `string`,
//! `list(string)`, `map(any)`, `tuple([...])`, `object({ a = string, b = optional(number, 5) })`.
//! `any` is cty's dynamic; `optional` attributes may be absent and get their default (or null).

use super::types::Type;
use super::value::{Kind, Value};
use crate::hcl::ast::{Expr, ExprKind, ObjectKey};
use std::collections::BTreeMap;

/// A parsed constraint: the type, plus the optional attributes and defaults of each object
/// type inside it (by the object's path of nested constraints).
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    Type(Type),
    List(Box<Constraint>),
    Set(Box<Constraint>),
    Map(Box<Constraint>),
    Tuple(Vec<Constraint>),
    /// Attributes: (constraint, optional, default expression text).
    Object(BTreeMap<String, (Constraint, bool, Option<Value>)>),
}

impl Constraint {
    /// The plain type (optional attributes still listed; conversion fills them in first).
    pub fn ty(&self) -> Type {
        match self {
            Constraint::Type(t) => t.clone(),
            Constraint::List(c) => Type::list(c.ty()),
            Constraint::Set(c) => Type::set(c.ty()),
            Constraint::Map(c) => Type::map(c.ty()),
            Constraint::Tuple(cs) => Type::Tuple(cs.iter().map(Constraint::ty).collect()),
            Constraint::Object(m) => {
                Type::Object(crate::util::sort::btree_map(m.iter().map(|(k, (c, _, _))| (k.clone(), c.ty()))))
            }
        }
    }

    /// Fills in absent optional attributes (with their default or null), as Terraform does
    /// before converting a variable's value.
    pub fn apply_defaults(&self, v: &Value) -> Value {
        match (self, &v.kind) {
            (Constraint::Object(attrs), Kind::Object(m) | Kind::Map(_, m)) => {
                let mut out = m.clone();
                for (k, (c, optional, default)) in attrs {
                    match out.get(k) {
                        Some(x) if !x.is_null() => {
                            let filled = c.apply_defaults(x);
                            out.insert(k.clone(), filled);
                        }
                        Some(_) | None if *optional => {
                            let d =
                                default.clone().map(|d| c.apply_defaults(&d)).unwrap_or_else(|| Value::null(c.ty()));
                            if out.get(k).is_none_or(Value::is_null) {
                                out.insert(k.clone(), d);
                            }
                        }
                        _ => {}
                    }
                }
                Value::object(out).mark(v.sensitive)
            }
            (
                Constraint::List(c) | Constraint::Set(c),
                Kind::Tuple(items) | Kind::List(_, items) | Kind::Set(_, items),
            ) => {
                let items: Vec<Value> = items.iter().map(|x| c.apply_defaults(x)).collect();
                match v.kind {
                    Kind::List(ref t, _) => Value::list(t.clone(), items),
                    Kind::Set(ref t, _) => Value::set(t.clone(), items),
                    _ => Value::tuple(items),
                }
                .mark(v.sensitive)
            }
            (Constraint::Map(c), Kind::Object(m) | Kind::Map(_, m)) => {
                let items: BTreeMap<String, Value> =
                    crate::util::sort::btree_map(m.iter().map(|(k, x)| (k.clone(), c.apply_defaults(x))));
                match v.kind {
                    Kind::Map(ref t, _) => Value::map(t.clone(), items),
                    _ => Value::object(items),
                }
                .mark(v.sensitive)
            }
            (Constraint::Tuple(cs), Kind::Tuple(items)) if cs.len() == items.len() => {
                Value::tuple(items.iter().zip(cs).map(|(x, c)| c.apply_defaults(x)).collect()).mark(v.sensitive)
            }
            _ => v.clone(),
        }
    }
}

/// Parses a type constraint expression. `default` evaluates an `optional(T, default)`
/// default (a constant expression).
pub fn parse(e: &Expr<'_>, default: &mut dyn FnMut(&Expr<'_>) -> Result<Value, String>) -> Result<Constraint, String> {
    match &e.kind {
        ExprKind::Variable(id) => match id.name {
            "string" => Ok(Constraint::Type(Type::String)),
            "number" => Ok(Constraint::Type(Type::Number)),
            "bool" => Ok(Constraint::Type(Type::Bool)),
            "any" => Ok(Constraint::Type(Type::Dynamic)),
            "list" | "map" | "set" => Err(format!("The {} type constructor requires one argument specifying the element type.", id.name)),
            "object" => Err("The object type constructor requires one argument specifying the attribute types as an object.".into()),
            "tuple" => Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
            other => Err(format!("The keyword {other:?} is not a valid type specification.")),
        },
        ExprKind::Call { name, args, .. } => {
            let one = |args: &[Expr<'_>]| -> Result<(), String> {
                if args.len() != 1 {
                    return Err(format!("The {} type constructor requires one argument specifying the element type.", name.name));
                }
                Ok(())
            };
            match name.name {
                "list" | "set" | "map" => {
                    one(args)?;
                    let inner = parse(&args[0], default)?;
                    Ok(match name.name {
                        "list" => Constraint::List(Box::new(inner)),
                        "set" => Constraint::Set(Box::new(inner)),
                        _ => Constraint::Map(Box::new(inner)),
                    })
                }
                "tuple" => {
                    let Some(ExprKind::Tuple(items)) = args.first().map(|a| &a.kind) else {
                        return Err("The tuple type constructor requires one argument specifying the element types as a list.".into());
                    };
                    Ok(Constraint::Tuple(items.iter().map(|x| parse(x, default)).collect::<Result<_, _>>()?))
                }
                "object" => {
                    let Some(ExprKind::Object(items)) = args.first().map(|a| &a.kind) else {
                        return Err("The object type constructor requires one argument specifying the attribute types as an object.".into());
                    };
                    let mut attrs = BTreeMap::new();
                    for item in items {
                        let key = match &item.key {
                            ObjectKey::Ident(id) => id.name.to_string(),
                            ObjectKey::Expr(k) => match &k.kind {
                                ExprKind::Variable(id) => id.name.to_string(),
                                ExprKind::Template(t) => t.literal().map(|s| s.into_owned()).ok_or("Object constructor map keys must be attribute names.")?,
                                _ => return Err("Object constructor map keys must be attribute names.".into()),
                            },
                        };
                        let entry = match &item.value.kind {
                            ExprKind::Call { name, args, .. } if name.name == "optional" => {
                                if args.is_empty() || args.len() > 2 {
                                    return Err("Optional attribute modifier requires the attribute type as its first argument, and optionally a default value as its second.".into());
                                }
                                let c = parse(&args[0], default)?;
                                let d = match args.get(1) {
                                    Some(d) => Some(default(d)?),
                                    None => None,
                                };
                                (c, true, d)
                            }
                            _ => (parse(&item.value, default)?, false, None),
                        };
                        attrs.insert(key, entry);
                    }
                    Ok(Constraint::Object(attrs))
                }
                "optional" => Err("Keyword \"optional\" is valid only as a modifier for object type attributes.".into()),
                other => Err(format!("Keyword {other:?} is not a valid type constructor.")),
            }
        }
        _ => Err("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".into()),
    }
}
