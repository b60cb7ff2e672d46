//! cty's values: every value has a type, may be null or unknown ("known after apply") at any
//! depth, and may carry the `sensitive` mark, which spreads to whatever is computed from it.
//!
//! Collections keep cty's orders: map keys and object attributes sorted by name, set elements
//! in cty's set order (strings lexically, numbers numerically, bools false first; other element
//! types by their rendering, where cty orders by hash: see [`Value::set_order`]).

use super::number::Number;
use super::types::Type;
use std::cmp::Ordering;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub kind: Kind,
    /// cty's `marks.Sensitive` on this value itself (nested values carry their own).
    pub sensitive: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Null(Type),
    Unknown(Type),
    Bool(bool),
    Number(Number),
    String(String),
    /// Element type and elements.
    List(Type, Vec<Value>),
    /// Element type and elements, deduplicated, in set order.
    Set(Type, Vec<Value>),
    Map(Type, BTreeMap<String, Value>),
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>),
    /// A type, as the console-only `type()` returns it (a capsule of [`Type::TypeType`]).
    TypeVal(Type),
}

impl From<Kind> for Value {
    fn from(kind: Kind) -> Value {
        Value { kind, sensitive: false }
    }
}

impl Value {
    pub fn null(t: Type) -> Value {
        Kind::Null(t).into()
    }
    pub fn unknown(t: Type) -> Value {
        Kind::Unknown(t).into()
    }
    /// cty's DynamicVal: unknown, of unknown type.
    pub fn dynamic() -> Value {
        Value::unknown(Type::Dynamic)
    }
    pub fn bool(b: bool) -> Value {
        Kind::Bool(b).into()
    }
    pub fn number(n: Number) -> Value {
        Kind::Number(n).into()
    }
    pub fn int(i: i64) -> Value {
        Value::number(Number::from_i64(i))
    }
    /// A string, in Unicode normal form C as cty keeps every string.
    pub fn string(s: impl Into<String>) -> Value {
        let s = s.into();
        let s = if s.is_ascii() { s } else { nfc(s) };
        Kind::String(s).into()
    }
    pub fn list(elem: Type, items: Vec<Value>) -> Value {
        Kind::List(elem, items).into()
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Kind::Tuple(items).into()
    }
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        Kind::Object(attrs).into()
    }
    pub fn map(elem: Type, items: BTreeMap<String, Value>) -> Value {
        Kind::Map(elem, items).into()
    }
    /// A set: sorts and deduplicates `items` (all of type `elem`).
    pub fn set(elem: Type, mut items: Vec<Value>) -> Value {
        crate::util::sort::sort_by(&mut items, Value::set_order);
        items.dedup_by(|a, b| a.raw_equal(b));
        Kind::Set(elem, items).into()
    }

    pub fn mark(mut self, sensitive: bool) -> Value {
        self.sensitive |= sensitive;
        self
    }

    pub fn ty(&self) -> Type {
        match &self.kind {
            Kind::Null(t) | Kind::Unknown(t) => t.clone(),
            Kind::Bool(_) => Type::Bool,
            Kind::Number(_) => Type::Number,
            Kind::String(_) => Type::String,
            Kind::List(t, _) => Type::list(t.clone()),
            Kind::Set(t, _) => Type::set(t.clone()),
            Kind::Map(t, _) => Type::map(t.clone()),
            Kind::Tuple(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
            Kind::Object(attrs) => {
                Type::Object(crate::util::sort::btree_map(attrs.iter().map(|(k, v)| (k.clone(), v.ty()))))
            }
            Kind::TypeVal(_) => Type::TypeType,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null(_))
    }

    /// Known at the top (its elements may still be unknown).
    pub fn is_known(&self) -> bool {
        !matches!(self.kind, Kind::Unknown(_))
    }

    /// Known all the way down.
    pub fn is_wholly_known(&self) -> bool {
        match &self.kind {
            Kind::Unknown(_) => false,
            Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => v.iter().all(Value::is_wholly_known),
            Kind::Map(_, m) | Kind::Object(m) => m.values().all(Value::is_wholly_known),
            _ => true,
        }
    }

    /// Sensitive here or anywhere inside.
    /// Whether a type from the console-only `type()` lies anywhere inside.
    pub fn has_type_value(&self) -> bool {
        match &self.kind {
            Kind::TypeVal(_) => true,
            Kind::List(_, x) | Kind::Set(_, x) | Kind::Tuple(x) => x.iter().any(Value::has_type_value),
            Kind::Map(_, m) | Kind::Object(m) => m.values().any(Value::has_type_value),
            _ => false,
        }
    }

    pub fn has_sensitive(&self) -> bool {
        self.sensitive
            || match &self.kind {
                Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => v.iter().any(Value::has_sensitive),
                Kind::Map(_, m) | Kind::Object(m) => m.values().any(Value::has_sensitive),
                _ => false,
            }
    }

    /// The value with every sensitive mark removed, and whether there was one.
    pub fn unmark_deep(&self) -> (Value, bool) {
        let mut found = false;
        let v = self.map_deep(&mut |v| {
            found |= v.sensitive;
            v.sensitive = false;
        });
        (v, found)
    }

    fn map_deep(&self, f: &mut impl FnMut(&mut Value)) -> Value {
        let mut out = self.clone();
        out.walk_mut(f);
        out
    }

    fn walk_mut(&mut self, f: &mut impl FnMut(&mut Value)) {
        f(self);
        match &mut self.kind {
            Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => v.iter_mut().for_each(|x| x.walk_mut(f)),
            Kind::Map(_, m) | Kind::Object(m) => m.values_mut().for_each(|x| x.walk_mut(f)),
            _ => {}
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&Number> {
        match &self.kind {
            Kind::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.kind {
            Kind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements of a list, set or tuple, or the values of a map or object, in order.
    pub fn elements(&self) -> Option<Vec<&Value>> {
        match &self.kind {
            Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => Some(v.iter().collect()),
            Kind::Map(_, m) | Kind::Object(m) => Some(m.values().collect()),
            _ => None,
        }
    }

    /// Length of a known collection or structural value.
    pub fn length(&self) -> Option<usize> {
        match &self.kind {
            Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => Some(v.len()),
            Kind::Map(_, m) | Kind::Object(m) => Some(m.len()),
            _ => None,
        }
    }

    /// cty's `Equals` of the unmarked values, known and true: both wholly known and equal,
    /// sensitive marks aside (a planned object that changes nothing).
    pub fn equals_known(&self, other: &Value) -> bool {
        // Equal to a wholly known value, `other` is wholly known too.
        self.is_wholly_known() && self.unmark_deep().0 == other.unmark_deep().0
    }

    /// cty's RawEquals: same type, same value, same marks; unknowns equal only by type.
    pub fn raw_equal(&self, other: &Value) -> bool {
        self == other
    }

    /// cty's set order (see the module doc).
    pub fn set_order(a: &Value, b: &Value) -> Ordering {
        fn rank(v: &Value) -> u8 {
            match v.kind {
                Kind::Unknown(_) => 3,
                Kind::Null(_) => 2,
                _ => 0,
            }
        }
        match (&a.kind, &b.kind) {
            (Kind::String(x), Kind::String(y)) => x.cmp(y),
            (Kind::Number(x), Kind::Number(y)) => x.cmp_num(y),
            (Kind::Bool(x), Kind::Bool(y)) => x.cmp(y),
            _ => rank(a).cmp(&rank(b)).then_with(|| super::render::console(a).cmp(&super::render::console(b))),
        }
    }
}

/// Unicode normal form C, natively with the unicode-normalization crate.
#[cfg(not(target_arch = "wasm32"))]
fn nfc(s: String) -> String {
    use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
    if is_nfc_quick(s.chars()) == IsNormalized::Yes {
        s
    } else {
        s.nfc().collect()
    }
}

/// Unicode normal form C in WebAssembly: the host's, which the bindings install with
/// [`set_normalizer`] (the JS engine's `String.prototype.normalize`), so the package does not
/// carry normalisation tables of its own. Without a host normaliser strings stay as given.
#[cfg(target_arch = "wasm32")]
fn nfc(s: String) -> String {
    match NORMALIZER.get() {
        Some(normalize) => normalize(&s),
        None => s,
    }
}

#[cfg(target_arch = "wasm32")]
static NORMALIZER: std::sync::OnceLock<fn(&str) -> String> = std::sync::OnceLock::new();

/// Installs the host's NFC normaliser (WebAssembly only; natively the crate's is used).
#[cfg(target_arch = "wasm32")]
pub fn set_normalizer(normalize: fn(&str) -> String) {
    let _ = NORMALIZER.set(normalize);
}
