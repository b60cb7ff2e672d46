//! cty's types: the primitive types, the collection types (list, set, map of one element
//! type), the structural types (tuple, object) and `dynamic` (cty's DynamicPseudoType: "any
//! type", the type of a value not yet known). Object attributes are kept sorted by name, as cty
//! keeps them.

use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Dynamic,
    Bool,
    Number,
    String,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    Tuple(Vec<Type>),
    Object(BTreeMap<String, Type>),
    /// Terraform's `types.TypeType` capsule: the type of what the console-only `type()`
    /// returns.
    TypeType,
}

impl Type {
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }
    pub fn map(t: Type) -> Type {
        Type::Map(Box::new(t))
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// The element type of a list, set or map.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the type has `dynamic` anywhere inside (a type constraint, not a value's type).
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_dynamic(),
            Type::Tuple(ts) => ts.iter().any(Type::has_dynamic),
            Type::Object(m) => m.values().any(Type::has_dynamic),
            _ => false,
        }
    }

    /// The short name Terraform uses in messages and type constraints: `list(string)`,
    /// `object({a: number})` is written out in full by [`Type::type_expr`]; this is cty's
    /// `FriendlyName` (`list of string`, `object`, `tuple`).
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Dynamic => "dynamic".into(),
            Type::Bool => "bool".into(),
            Type::Number => "number".into(),
            Type::String => "string".into(),
            Type::List(t) => format!("list of {}", t.friendly_name()),
            Type::Set(t) => format!("set of {}", t.friendly_name()),
            Type::Map(t) => format!("map of {}", t.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
            Type::TypeType => "type".into(),
        }
    }

    /// The friendly name cty uses when a type is given as a constraint ("any" for dynamic).
    pub fn friendly_name_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any type".into(),
            // A collection of `any` has one element type, whatever it is: cty says so.
            Type::List(t) | Type::Set(t) | Type::Map(t) if **t == Type::Dynamic => {
                let kind = match self {
                    Type::List(_) => "list",
                    Type::Set(_) => "set",
                    _ => "map",
                };
                format!("{kind} of any single type")
            }
            Type::List(t) => format!("list of {}", t.friendly_name_constraint()),
            Type::Set(t) => format!("set of {}", t.friendly_name_constraint()),
            Type::Map(t) => format!("map of {}", t.friendly_name_constraint()),
            _ => self.friendly_name(),
        }
    }

    /// The type as Terraform's `type()` function prints it in the console (typeexpr's
    /// TypeString, indented one level per nesting, trailing commas).
    pub fn type_expr(&self) -> String {
        let mut out = String::new();
        self.write_expr(&mut out, 0);
        out
    }

    fn write_expr(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "    ".repeat(n);
        match self {
            Type::Dynamic => out.push_str("dynamic"),
            Type::TypeType => out.push_str("type"),
            Type::Bool => out.push_str("bool"),
            Type::Number => out.push_str("number"),
            Type::String => out.push_str("string"),
            Type::List(t) | Type::Set(t) | Type::Map(t) => {
                let name = match self {
                    Type::List(_) => "list",
                    Type::Set(_) => "set",
                    _ => "map",
                };
                // An object or tuple element (directly: not one inside another collection)
                // breaks the collection over lines too, as the console prints it (repl's
                // writeType): `list(\n    object({...}),\n)` but `map(list(map(\n    tuple(...`.
                if matches!(**t, Type::Object(_) | Type::Tuple(_)) {
                    let _ = write!(out, "{name}(\n{}", pad(indent + 1));
                    t.write_expr(out, indent + 1);
                    let _ = write!(out, ",\n{})", pad(indent));
                } else {
                    let _ = write!(out, "{name}(");
                    t.write_expr(out, indent);
                    out.push(')');
                }
            }
            Type::Tuple(ts) => {
                if ts.is_empty() {
                    out.push_str("tuple([])");
                    return;
                }
                out.push_str("tuple([\n");
                for t in ts {
                    out.push_str(&pad(indent + 1));
                    t.write_expr(out, indent + 1);
                    out.push_str(",\n");
                }
                let _ = write!(out, "{}])", pad(indent));
            }
            Type::Object(m) => {
                if m.is_empty() {
                    out.push_str("object({})");
                    return;
                }
                out.push_str("object({\n");
                for (k, t) in m {
                    let _ = write!(out, "{}{}: ", pad(indent + 1), k);
                    t.write_expr(out, indent + 1);
                    out.push_str(",\n");
                }
                let _ = write!(out, "{}}})", pad(indent));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_expr_as_console_prints_it() {
        let mut attrs = BTreeMap::new();
        attrs.insert("b".to_string(), Type::Tuple(vec![Type::Number, Type::String]));
        attrs.insert("a".to_string(), Type::Number);
        assert_eq!(
            Type::Object(attrs).type_expr(),
            "object({\n    a: number,\n    b: tuple([\n        number,\n        string,\n    ]),\n})"
        );
        assert_eq!(Type::list(Type::map(Type::String)).type_expr(), "list(map(string))");
        assert_eq!(
            Type::list(Type::Tuple(vec![Type::String])).type_expr(),
            "list(\n    tuple([\n        string,\n    ]),\n)"
        );
        // Only the collection right around a structural type breaks (terraform console 1.11.4).
        assert_eq!(
            Type::map(Type::list(Type::map(Type::Tuple(vec![Type::Bool])))).type_expr(),
            "map(list(map(\n    tuple([\n        bool,\n    ]),\n)))"
        );
        assert_eq!(Type::list(Type::String).friendly_name(), "list of string");
    }
}
