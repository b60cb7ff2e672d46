//! From a change and its schema to a diff tree (Terraform's `jsonformat/differ` and
//! `jsonformat/jsondiff`). Schemas are the blocks of `terraform providers schema -json`.

use super::change::{compare_actions, process_slice, Action, Change, Matcher, Unk};
use super::renderers::{Blocks, Diff, Prim, R};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A cty type from its JSON form (`"string"`, `["list","string"]`, `["object",{...}]`, ...).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
    String,
    Number,
    Bool,
    Dynamic,
    List(Box<Ty>),
    Set(Box<Ty>),
    Map(Box<Ty>),
    /// Attribute types sorted by name (a `Vec`: one B-tree type fewer in the package).
    Object(Vec<(String, Ty)>),
    Tuple(Vec<Ty>),
}

impl Ty {
    pub(super) fn parse(v: Option<&Value>) -> Ty {
        match v {
            Some(Value::String(s)) => match s.as_str() {
                "string" => Ty::String,
                "number" => Ty::Number,
                "bool" => Ty::Bool,
                _ => Ty::Dynamic,
            },
            Some(Value::Array(a)) => match (a.first().and_then(Value::as_str), a.get(1)) {
                (Some("list"), t) => Ty::List(Box::new(Ty::parse(t))),
                (Some("set"), t) => Ty::Set(Box::new(Ty::parse(t))),
                (Some("map"), t) => Ty::Map(Box::new(Ty::parse(t))),
                (Some("object"), Some(Value::Object(m))) => {
                    let mut fields: Vec<(String, Ty)> =
                        m.iter().map(|(k, t)| (k.clone(), Ty::parse(Some(t)))).collect();
                    crate::util::sort::sort_by(&mut fields, |a, b| a.0.cmp(&b.0));
                    Ty::Object(fields)
                }
                (Some("tuple"), Some(Value::Array(ts))) => Ty::Tuple(ts.iter().map(|t| Ty::parse(Some(t))).collect()),
                _ => Ty::Dynamic,
            },
            _ => Ty::Dynamic,
        }
    }
    fn has_dynamic(&self) -> bool {
        match self {
            Ty::Dynamic => true,
            Ty::List(t) | Ty::Set(t) | Ty::Map(t) => t.has_dynamic(),
            Ty::Object(m) => m.iter().any(|(_, t)| t.has_dynamic()),
            Ty::Tuple(ts) => ts.iter().any(Ty::has_dynamic),
            _ => false,
        }
    }
    fn is_primitive(&self) -> bool {
        matches!(self, Ty::String | Ty::Number | Ty::Bool)
    }
}

fn diff_of<'a>(change: &Change<'a>, r: R<'a>) -> Diff<'a> {
    Diff::new(r, change.calculate_action(), change.replace_paths.matches())
}

fn empty_map() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

fn attrs_of(block: &Value) -> &Map<String, Value> {
    block.get("attributes").and_then(Value::as_object).unwrap_or_else(|| empty_map())
}

fn is_write_only(attr: &Value) -> bool {
    attr.get("write_only").and_then(Value::as_bool).unwrap_or(false)
}

// ---- sensitive and unknown wrappers -------------------------------------------------------

fn check_sensitive<'a>(
    change: &Change<'a>,
    inner: impl FnOnce(Change<'a>) -> Diff<'a>,
    block: bool,
) -> Option<Diff<'a>> {
    let (bs, as_) = (change.is_before_sensitive(), change.is_after_sensitive());
    if !bs && !as_ {
        return None;
    }
    let mut value = change.clone();
    value.before_sensitive = None;
    value.after_sensitive = None;
    let inner = inner(value);
    let mut action = inner.action;
    let null_noop =
        change.before.is_none() && !change.before_explicit && change.after.is_none() && !change.after_explicit;
    if action == Action::NoOp && bs != as_ && !null_noop {
        action = Action::Update;
    }
    let replace = change.replace_paths.matches();
    let r = if block {
        R::SensitiveBlock { inner: Box::new(inner), before: bs, after: as_ }
    } else {
        R::Sensitive { inner: Box::new(inner), before: bs, after: as_ }
    };
    Some(Diff::new(r, action, replace))
}

fn check_unknown<'a>(
    change: &Change<'a>,
    child_unknown: Unk<'a>,
    compute: impl FnOnce(Change<'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    if !change.is_unknown() {
        return None;
    }
    let mut current = change.clone();
    current.after_explicit = true;
    if current.before.is_none() {
        return Some(diff_of(&current, R::Unknown { before: None }));
    }
    let mut before = current.as_delete();
    before.unknown = child_unknown;
    let b = compute(before);
    Some(diff_of(&current, R::Unknown { before: Some(Box::new(b)) }))
}

// ---- blocks -----------------------------------------------------------------------------

fn contains_non_legacy_features(block: &Value) -> bool {
    if let Some(bt) = block.get("block_types").and_then(Value::as_object) {
        for b in bt.values() {
            if matches!(b.get("nesting_mode").and_then(Value::as_str), Some("map" | "group")) {
                return true;
            }
        }
    }
    for attr in attrs_of(block).values() {
        if attr.get("nested_type").is_some() {
            return true;
        }
        let ty = Ty::parse(attr.get("type"));
        if ty.has_dynamic() {
            return true;
        }
        match &ty {
            Ty::Tuple(_) | Ty::Object(_) => return true,
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => {
                if let Ty::List(inner) | Ty::Set(inner) | Ty::Map(inner) = e.as_ref() {
                    if !inner.is_primitive() {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// `differ.ComputeDiffForBlock`.
pub(super) fn diff_block<'a>(change: Change<'a>, block: &'a Value) -> Diff<'a> {
    if let Some(d) = check_sensitive(&change, |v| diff_block(v, block), true) {
        return d;
    }
    let attrs = attrs_of(block);
    if let Some(d) = check_unknown(&change, Unk::Attrs(attrs), |v| diff_block(v, block)) {
        return d;
    }
    let mut change = change;
    change.non_legacy = change.non_legacy || contains_non_legacy_features(block);
    let mut current = change.default_action_for_iteration();
    let mut attributes = BTreeMap::new();
    for (key, attr) in attrs {
        if is_write_only(attr) {
            continue;
        }
        let mut child = change.key(key);
        if !child.relevant.matches_partial() {
            child = child.as_noop();
        }
        child.before_explicit = false;
        child.after_explicit = false;
        let d = diff_attribute(child.clone(), attr);
        if d.action == Action::NoOp && child.before.is_none() && child.after.is_none() {
            continue;
        }
        current = compare_actions(current, d.action);
        attributes.insert(key.clone(), d);
    }
    let mut blocks = Blocks::default();
    if let Some(bt) = block.get("block_types").and_then(Value::as_object) {
        for (key, block_type) in bt {
            let mut child = change.key(key);
            if !child.relevant.matches_partial() {
                child = child.as_noop();
            }
            let bs = child.is_before_sensitive();
            let as_ = child.is_after_sensitive();
            let forces = child.replace_paths.matches();
            let unknown = child.is_unknown();
            let inner = block_type.get("block").unwrap_or(&Value::Null);
            let empty = child.before.is_none() && child.after.is_none() && !unknown;
            let action = match block_type.get("nesting_mode").and_then(Value::as_str).unwrap_or("single") {
                "set" => {
                    let (diffs, action) = block_diffs_as_set(&child, inner);
                    if action == Action::NoOp && empty {
                        continue;
                    }
                    blocks.set.insert(key.clone(), diffs);
                    action
                }
                "list" => {
                    let (diffs, action) = block_diffs_as_list(&child, inner);
                    if action == Action::NoOp && empty {
                        continue;
                    }
                    blocks.list.insert(key.clone(), diffs);
                    action
                }
                "map" => {
                    let (diffs, action) = block_diffs_as_map(&child, inner);
                    if action == Action::NoOp && empty {
                        continue;
                    }
                    blocks.map.insert(key.clone(), diffs);
                    action
                }
                _ => {
                    let d = diff_block(child.clone(), inner);
                    if d.action == Action::NoOp && empty {
                        continue;
                    }
                    let action = d.action;
                    blocks.single.insert(key.clone(), d);
                    action
                }
            };
            for (set, on) in [
                (&mut blocks.replace, forces),
                (&mut blocks.before_sensitive, bs),
                (&mut blocks.after_sensitive, as_),
                (&mut blocks.unknown, unknown),
            ] {
                if on {
                    set.insert(key.clone());
                }
            }
            current = compare_actions(current, action);
        }
    }
    for (key, attr) in attrs {
        if is_write_only(attr) {
            attributes.insert(key.clone(), diff_write_only(&change, current));
        }
    }
    let replace = change.replace_paths.matches();
    Diff::new(R::Block { attributes, blocks: Box::new(blocks) }, current, replace)
}

fn diff_write_only<'a>(change: &Change<'a>, block_action: Action) -> Diff<'a> {
    let r = R::WriteOnly { sensitive: change.is_before_sensitive() || change.is_after_sensitive() };
    let action = if block_action == Action::Update { Action::NoOp } else { block_action };
    Diff::new(r, action, change.replace_paths.matches())
}

fn block_diffs_as_list<'a>(change: &Change<'a>, block: &'a Value) -> (Vec<Diff<'a>>, Action) {
    let mut current = change.default_action_for_iteration();
    let mut out = Vec::new();
    for ix in 0..change.before_len().max(change.after_len()) {
        let mut v = change.index(ix, ix);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        let d = diff_block(v, block);
        current = compare_actions(current, d.action);
        out.push(d);
    }
    (out, current)
}

fn block_diffs_as_set<'a>(change: &Change<'a>, block: &'a Value) -> (Vec<Diff<'a>>, Action) {
    let mut current = change.default_action_for_iteration();
    let mut out = Vec::new();
    process_set(change, |v| {
        let d = diff_block(v, block);
        current = compare_actions(current, d.action);
        out.push(d);
    });
    (out, current)
}

fn block_diffs_as_map<'a>(change: &Change<'a>, block: &'a Value) -> (BTreeMap<String, Diff<'a>>, Action) {
    transform_map(change, change.explicit_keys(), |v| diff_block(v, block))
}

/// `collections.TransformMap` with the relevance check every caller makes.
fn transform_map<'a>(
    change: &Change<'a>,
    keys: std::collections::BTreeSet<&'a str>,
    mut process: impl FnMut(Change<'a>) -> Diff<'a>,
) -> (BTreeMap<String, Diff<'a>>, Action) {
    let (b, a) = (change.before_map(), change.after_map());
    let mut current = Action::NoOp;
    if b.is_some() && a.is_none() {
        current = Action::Delete;
    }
    if b.is_none() && a.is_some() {
        current = Action::Create;
    }
    let mut out = BTreeMap::new();
    for key in keys {
        let mut v = change.key(key);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        let d = process(v);
        current = compare_actions(current, d.action);
        out.insert(key.to_string(), d);
    }
    (out, current)
}

/// `collections.TransformSlice` over `ProcessSlice`.
fn transform_slice<'a>(
    change: &Change<'a>,
    is_obj: impl Fn(&Value) -> bool,
    mut process: impl FnMut(usize, usize) -> Diff<'a>,
) -> (Vec<Diff<'a>>, Action) {
    let (b, a) = (change.before_list(), change.after_list());
    let mut current = Action::NoOp;
    if b.is_some() && a.is_none() {
        current = Action::Delete;
    }
    if b.is_none() && a.is_some() {
        current = Action::Create;
    }
    let bl: Vec<&Value> = b.map(|l| l.iter().collect()).unwrap_or_default();
    let al: Vec<&Value> = a.map(|l| l.iter().collect()).unwrap_or_default();
    let mut out = Vec::new();
    process_slice(
        &bl,
        &al,
        |x: &Value, y: &Value| x == y,
        is_obj,
        |bi, ai| {
            let d = process(bi, ai);
            current = compare_actions(current, d.action);
            out.push(d);
        },
    );
    (out, current)
}

/// `differ.processSet`: elements equal on both sides pair up, the rest are removed or added.
fn process_set<'a>(change: &Change<'a>, mut process: impl FnMut(Change<'a>)) {
    let (bn, an) = (change.before_len(), change.after_len());
    let mut found_in_before: Vec<Option<usize>> = vec![None; bn];
    let mut found_in_after: Vec<Option<usize>> = vec![None; an];
    for (ix, found_b) in found_in_before.iter_mut().enumerate() {
        for (jx, found_a) in found_in_after.iter_mut().enumerate() {
            if found_a.is_some() {
                continue;
            }
            let child = change.index(ix, jx);
            if child.before == child.after
                && child.is_before_sensitive() == child.is_after_sensitive()
                && !child.is_unknown()
            {
                *found_b = Some(jx);
                *found_a = Some(ix);
            }
        }
    }
    for (ix, found) in found_in_before.iter().enumerate() {
        let mut child = match found {
            Some(jx) => change.index(ix, *jx),
            None => change.index(ix, an),
        };
        child.relevant = Matcher::Always;
        process(child);
    }
    for (jx, found) in found_in_after.iter().enumerate() {
        if found.is_some() {
            continue;
        }
        let mut child = change.index(bn, jx);
        child.relevant = Matcher::Always;
        process(child);
    }
}

// ---- attributes and types ------------------------------------------------------------------

fn diff_attribute<'a>(change: Change<'a>, attr: &'a Value) -> Diff<'a> {
    if let Some(nested) = attr.get("nested_type") {
        return diff_nested(change, nested);
    }
    diff_type(change, &Ty::parse(attr.get("type")))
}

fn diff_nested<'a>(change: Change<'a>, nested: &'a Value) -> Diff<'a> {
    if let Some(d) = check_sensitive(&change, |v| diff_nested(v, nested), false) {
        return d;
    }
    let attrs = attrs_of(nested);
    if let Some(d) = check_unknown(&change, Unk::Attrs(attrs), |v| diff_nested(v, nested)) {
        return d;
    }
    let replace = change.replace_paths.matches();
    match nested.get("nesting_mode").and_then(Value::as_str).unwrap_or("single") {
        "map" => {
            let (elements, action) = transform_map(&change, change.explicit_keys(), |v| diff_nested_single(v, attrs));
            Diff::new(R::Map { elements, nested: true }, action, replace)
        }
        "list" => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            for ix in 0..change.before_len().max(change.after_len()) {
                let mut v = change.index(ix, ix);
                if !v.relevant.matches_partial() {
                    v = v.as_noop();
                }
                let d = diff_nested_single(v, attrs);
                current = compare_actions(current, d.action);
                elements.push(d);
            }
            Diff::new(R::List { elements, display_context: false }, current, replace)
        }
        "set" => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            process_set(&change, |v| {
                let d = diff_nested_single(v, attrs);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            Diff::new(R::Set { elements, override_forces_replacement: true }, current, replace)
        }
        _ => nested_object(change, attrs),
    }
}

/// A nested attribute's element: `computeDiffForNestedAttribute` with nesting "single".
fn diff_nested_single<'a>(change: Change<'a>, attrs: &'a Map<String, Value>) -> Diff<'a> {
    if let Some(d) = check_sensitive(&change, |v| diff_nested_single(v, attrs), false) {
        return d;
    }
    if let Some(d) = check_unknown(&change, Unk::Attrs(attrs), |v| diff_nested_single(v, attrs)) {
        return d;
    }
    nested_object(change, attrs)
}

fn nested_object<'a>(change: Change<'a>, attrs: &'a Map<String, Value>) -> Diff<'a> {
    let mut out = BTreeMap::new();
    let mut current = change.default_action_for_iteration();
    for (key, attr) in attrs.iter().filter(|(_, a)| !is_write_only(a)) {
        let mut v = change.key(key);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        v.before_explicit = false;
        v.after_explicit = false;
        let d = diff_attribute(v.clone(), attr);
        if d.action == Action::NoOp && v.before.is_none() && v.after.is_none() {
            continue;
        }
        current = compare_actions(current, d.action);
        out.insert(key.clone(), d);
    }
    for (key, _) in attrs.iter().filter(|(_, a)| is_write_only(a)) {
        let mut v = change.key(key);
        v.before_explicit = false;
        v.after_explicit = false;
        out.insert(key.clone(), diff_write_only(&v, current));
    }
    let replace = change.replace_paths.matches();
    Diff::new(R::Object { attributes: out, override_null_suffix: false }, current, replace)
}

/// `differ.ComputeDiffForType`.
pub(super) fn diff_type<'a>(change: Change<'a>, ty: &Ty) -> Diff<'a> {
    let mut change = change;
    if !change.non_legacy {
        if change.before.and_then(Value::as_str) == Some("") {
            change.before = None;
        }
        if change.after.and_then(Value::as_str) == Some("") {
            change.after = None;
        }
    }
    if let Some(d) = check_sensitive(&change, |v| diff_type(v, ty), false) {
        return d;
    }
    if let Some(d) = check_unknown(&change, Unk::none(), |v| diff_type(v, ty)) {
        return d;
    }
    let replace = change.replace_paths.matches();
    match ty {
        Ty::Dynamic => diff_output(change),
        Ty::String => diff_of(&change, R::Primitive { before: change.before, after: change.after, ty: Prim::String }),
        Ty::Number => diff_of(&change, R::Primitive { before: change.before, after: change.after, ty: Prim::Number }),
        Ty::Bool => diff_of(&change, R::Primitive { before: change.before, after: change.after, ty: Prim::Bool }),
        Ty::Object(types) => {
            let mut out = BTreeMap::new();
            let mut current = change.default_action_for_iteration();
            for (key, t) in types {
                let mut v = change.key(key);
                if !v.relevant.matches_partial() {
                    v = v.as_noop();
                }
                v.before_explicit = false;
                v.after_explicit = false;
                let d = diff_type(v.clone(), t);
                if d.action == Action::NoOp && v.before.is_none() && v.after.is_none() {
                    continue;
                }
                current = compare_actions(current, d.action);
                out.insert(key.clone(), d);
            }
            Diff::new(R::Object { attributes: out, override_null_suffix: true }, current, replace)
        }
        Ty::Map(elem) => {
            let (elements, action) = transform_map(&change, change.all_keys(), |v| diff_type(v, elem));
            Diff::new(R::Map { elements, nested: false }, action, replace)
        }
        Ty::List(elem) => {
            let is_obj = matches!(elem.as_ref(), Ty::Object(_));
            let (elements, action) = transform_slice(
                &change,
                |_| is_obj,
                |bi, ai| {
                    let mut v = change.index(bi, ai);
                    v.relevant = Matcher::Always;
                    diff_type(v, elem)
                },
            );
            Diff::new(R::List { elements, display_context: true }, action, replace)
        }
        Ty::Tuple(types) => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            for (ix, t) in types.iter().enumerate() {
                let mut v = change.index(ix, ix);
                if !v.relevant.matches_partial() {
                    v = v.as_noop();
                }
                let d = diff_type(v, t);
                current = compare_actions(current, d.action);
                elements.push(d);
            }
            Diff::new(R::List { elements, display_context: true }, current, replace)
        }
        Ty::Set(elem) => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            process_set(&change, |v| {
                let d = diff_type(v, elem);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            Diff::new(R::Set { elements, override_forces_replacement: false }, current, replace)
        }
    }
}

/// `differ.ComputeDiffForOutput`: a value with no schema, rendered from its JSON.
pub(super) fn diff_output(change: Change<'_>) -> Diff<'_> {
    if let Some(d) = check_sensitive(&change, |v| diff_type(v, &Ty::Dynamic), false) {
        return d;
    }
    if let Some(d) = check_unknown(&change, Unk::none(), |v| diff_type(v, &Ty::Dynamic)) {
        return d;
    }
    json_transform(change)
}

// ---- JSON values (jsondiff) -----------------------------------------------------------------

#[derive(PartialEq, Clone, Copy)]
enum JTy {
    Null,
    Bool,
    Number,
    String,
    Object,
    Array,
}

fn jtype(v: Option<&Value>) -> JTy {
    match v {
        None | Some(Value::Null) => JTy::Null,
        Some(Value::Bool(_)) => JTy::Bool,
        Some(Value::Number(_)) => JTy::Number,
        Some(Value::String(_)) => JTy::String,
        Some(Value::Object(_)) => JTy::Object,
        Some(Value::Array(_)) => JTy::Array,
    }
}

/// `jsondiff.JsonOpts.Transform` with the renderer's options.
pub(super) fn json_transform(change: Change<'_>) -> Diff<'_> {
    let (bs, as_) = (change.is_before_sensitive(), change.is_after_sensitive());
    if bs || as_ {
        let mut value = change.clone();
        value.before_sensitive = None;
        value.after_sensitive = None;
        let inner = json_transform(value);
        let mut action = inner.action;
        let null_noop =
            change.before.is_none() && !change.before_explicit && change.after.is_none() && !change.after_explicit;
        if action == Action::NoOp && bs != as_ && !null_noop {
            action = Action::Update;
        }
        return Diff::new(R::Sensitive { inner: Box::new(inner), before: bs, after: as_ }, action, false);
    }
    if change.is_unknown() {
        let mut current = change.clone();
        current.after_explicit = true;
        if current.before.is_none() {
            return Diff::new(R::Unknown { before: None }, Action::Create, false);
        }
        let mut before = current.as_delete();
        before.unknown = Unk::V(Some(&FALSE));
        let b = json_transform(before);
        return Diff::new(R::Unknown { before: Some(Box::new(b)) }, Action::Update, false);
    }
    let bt = jtype(change.before);
    let at = jtype(change.after);
    let deleted = at == JTy::Null && !change.after_explicit;
    let created = bt == JTy::Null && !change.before_explicit;
    if bt == at || created || deleted {
        let target = if bt == JTy::Null { at } else { bt };
        return json_update(change, target);
    }
    let b = json_update(change.as_delete(), bt);
    let a = json_update(change.as_create(), at);
    Diff::new(R::TypeChange { before: Box::new(b), after: Box::new(a) }, Action::Update, false)
}

static FALSE: Value = Value::Bool(false);

fn json_update(change: Change<'_>, t: JTy) -> Diff<'_> {
    match t {
        JTy::Null => json_primitive(change, Prim::Null),
        JTy::Bool => json_primitive(change, Prim::Bool),
        JTy::String => json_primitive(change, Prim::String),
        JTy::Number => json_primitive(change, Prim::Number),
        JTy::Object => {
            let (elements, action) = transform_map(&change, change.all_keys(), json_transform);
            Diff::new(R::Object { attributes: elements, override_null_suffix: true }, action, false)
        }
        JTy::Array => {
            let (elements, action) =
                transform_slice(&change, |v| v.is_object(), |bi, ai| json_transform(change.index(bi, ai)));
            Diff::new(R::List { elements, display_context: true }, action, false)
        }
    }
}

fn json_primitive(change: Change<'_>, ty: Prim) -> Diff<'_> {
    let before_missing = change.before.is_none() && !change.before_explicit;
    let after_missing = change.after.is_none() && !change.after_explicit;
    let action = if before_missing && !after_missing {
        Action::Create
    } else if !before_missing && after_missing {
        Action::Delete
    } else if change.before == change.after {
        Action::NoOp
    } else {
        Action::Update
    };
    Diff::new(R::Primitive { before: change.before, after: change.after, ty }, action, false)
}
