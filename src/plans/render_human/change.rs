//! One value's before/after pair as the renderer walks it (Terraform's `jsonformat/structured`):
//! the values, what is unknown after the change, what is sensitive on either side, and which
//! paths force replacement or are relevant (for drift). Everything borrows the plan JSON.

pub use crate::plans::Action;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

pub(super) static TRUE: Value = Value::Bool(true);

/// A JSON `null` is Go's `nil` here: both mean "no value".
pub(super) fn nz(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// `after_unknown` for one value. `Attrs` is the synthetic "every attribute of this block is
/// unknown" that Terraform builds for a block or nested attribute whose before side is shown.
#[derive(Clone, Copy)]
pub(super) enum Unk<'a> {
    V(Option<&'a Value>),
    Attrs(&'a Map<String, Value>),
}

impl<'a> Unk<'a> {
    pub(super) fn none() -> Self {
        Unk::V(None)
    }
    pub(super) fn is_true(self) -> bool {
        matches!(self, Unk::V(Some(Value::Bool(true))))
    }
    fn key(self, key: &str) -> Self {
        match self {
            Unk::V(Some(Value::Object(m))) => Unk::V(nz(m.get(key))),
            Unk::Attrs(m) if m.contains_key(key) => Unk::V(Some(&TRUE)),
            _ => Unk::V(None),
        }
    }
    fn index(self, ix: usize) -> Self {
        match self {
            Unk::V(Some(Value::Array(a))) => Unk::V(nz(a.get(ix))),
            _ => Unk::V(None),
        }
    }
    fn keys(self, out: &mut BTreeSet<&'a str>) {
        match self {
            Unk::V(Some(Value::Object(m))) | Unk::Attrs(m) => out.extend(m.keys().map(String::as_str)),
            _ => {}
        }
    }
}

/// Terraform's `attribute_path.Matcher`: the paths (from `replace_paths` or
/// `relevant_attributes`) that lead through the current value.
#[derive(Clone)]
pub(super) enum Matcher<'a> {
    Always,
    Paths { paths: Vec<&'a [Value]>, propagate: bool },
}

impl<'a> Matcher<'a> {
    pub(super) fn parse(v: Option<&'a Value>) -> Self {
        let paths = match v {
            Some(Value::Array(a)) => a.iter().filter_map(|p| p.as_array().map(Vec::as_slice)).collect(),
            _ => Vec::new(),
        };
        Matcher::Paths { paths, propagate: false }
    }
    pub(super) fn empty(propagate: bool) -> Self {
        Matcher::Paths { paths: Vec::new(), propagate }
    }
    pub(super) fn matches(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => paths.iter().any(|p| p.is_empty()),
        }
    }
    pub(super) fn matches_partial(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => !paths.is_empty(),
        }
    }
    fn child(&self, step: impl Fn(&Value) -> bool) -> Self {
        match self {
            Matcher::Always => Matcher::Always,
            Matcher::Paths { paths, propagate } => {
                let mut out = Vec::new();
                for p in paths {
                    match p.split_first() {
                        None if *propagate => out.push(*p),
                        None => {}
                        Some((first, rest)) if step(first) => out.push(rest),
                        Some(_) => {}
                    }
                }
                Matcher::Paths { paths: out, propagate: *propagate }
            }
        }
    }
    pub(super) fn key(&self, key: &str) -> Self {
        self.child(|s| s.as_str() == Some(key))
    }
    pub(super) fn index(&self, ix: usize) -> Self {
        self.child(|s| match s {
            Value::Number(n) => n.as_f64().is_some_and(|f| f.trunc() as i64 == ix as i64),
            Value::String(s) => s.parse::<f64>().is_ok_and(|f| f.trunc() as i64 == ix as i64),
            _ => false,
        })
    }
}

#[derive(Clone)]
pub(super) struct Change<'a> {
    pub before_explicit: bool,
    pub after_explicit: bool,
    pub before: Option<&'a Value>,
    pub after: Option<&'a Value>,
    pub unknown: Unk<'a>,
    pub before_sensitive: Option<&'a Value>,
    pub after_sensitive: Option<&'a Value>,
    pub replace_paths: Matcher<'a>,
    pub relevant: Matcher<'a>,
    pub non_legacy: bool,
}

/// `collections.CompareActions`.
pub(super) fn compare_actions(current: Action, next: Action) -> Action {
    if next == Action::NoOp {
        current
    } else if current != next {
        Action::Update
    } else {
        current
    }
}

fn is_true(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Bool(true)))
}

impl<'a> Change<'a> {
    /// `structured.FromJsonChange` on a plan's `change` object.
    pub(super) fn from_json(change: &'a Value, relevant: Matcher<'a>) -> Self {
        let c = Change {
            before_explicit: false,
            after_explicit: false,
            before: nz(change.get("before")),
            after: nz(change.get("after")),
            unknown: Unk::V(nz(change.get("after_unknown"))),
            before_sensitive: nz(change.get("before_sensitive")),
            after_sensitive: nz(change.get("after_sensitive")),
            replace_paths: Matcher::parse(change.get("replace_paths")),
            relevant,
            non_legacy: false,
        };
        match change.get("actions").and_then(Value::as_array).map(Vec::as_slice) {
            Some([Value::String(s)]) if s == "forget" => c.as_noop(),
            _ => c,
        }
    }

    pub(super) fn is_before_sensitive(&self) -> bool {
        is_true(self.before_sensitive)
    }
    pub(super) fn is_after_sensitive(&self) -> bool {
        is_true(self.after_sensitive)
    }
    pub(super) fn is_unknown(&self) -> bool {
        self.unknown.is_true()
    }

    pub(super) fn calculate_action(&self) -> Action {
        if self.before.is_none() && !self.before_explicit && (self.after.is_some() || self.after_explicit) {
            return Action::Create;
        }
        if self.after.is_none() && !self.after_explicit && (self.before.is_some() || self.before_explicit) {
            return Action::Delete;
        }
        if self.before == self.after
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return Action::NoOp;
        }
        Action::Update
    }

    pub(super) fn default_action_for_iteration(&self) -> Action {
        match (self.before, self.after) {
            (None, None) => Action::NoOp,
            (None, _) => Action::Create,
            (_, None) => Action::Delete,
            _ => Action::NoOp,
        }
    }

    pub(super) fn as_noop(&self) -> Self {
        Change {
            before_explicit: self.before_explicit,
            after_explicit: self.before_explicit,
            before: self.before,
            after: self.before,
            unknown: Unk::none(),
            before_sensitive: self.before_sensitive,
            after_sensitive: self.before_sensitive,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            non_legacy: false,
        }
    }

    pub(super) fn as_delete(&self) -> Self {
        Change {
            before_explicit: self.before_explicit,
            after_explicit: false,
            before: self.before,
            after: None,
            unknown: Unk::none(),
            before_sensitive: self.before_sensitive,
            after_sensitive: None,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            non_legacy: false,
        }
    }

    pub(super) fn as_create(&self) -> Self {
        Change {
            before_explicit: false,
            after_explicit: self.after_explicit,
            before: None,
            after: self.after,
            unknown: self.unknown,
            before_sensitive: None,
            after_sensitive: self.after_sensitive,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            non_legacy: false,
        }
    }

    fn obj(v: Option<&'a Value>) -> Option<&'a Map<String, Value>> {
        v.and_then(Value::as_object)
    }
    fn arr(v: Option<&'a Value>) -> Option<&'a Vec<Value>> {
        v.and_then(Value::as_array)
    }

    pub(super) fn before_map(&self) -> Option<&'a Map<String, Value>> {
        Self::obj(self.before)
    }
    pub(super) fn after_map(&self) -> Option<&'a Map<String, Value>> {
        Self::obj(self.after)
    }
    pub(super) fn before_list(&self) -> Option<&'a Vec<Value>> {
        Self::arr(self.before)
    }
    pub(super) fn after_list(&self) -> Option<&'a Vec<Value>> {
        Self::arr(self.after)
    }

    /// `ChangeMap.GetChild`: a key present with a JSON null is explicit.
    pub(super) fn key(&self, key: &str) -> Self {
        let b = self.before_map().and_then(|m| m.get(key));
        let a = self.after_map().and_then(|m| m.get(key));
        Change {
            before_explicit: b.is_some(),
            after_explicit: a.is_some(),
            before: nz(b),
            after: nz(a),
            unknown: self.unknown.key(key),
            before_sensitive: nz(Self::obj(self.before_sensitive).and_then(|m| m.get(key))),
            after_sensitive: nz(Self::obj(self.after_sensitive).and_then(|m| m.get(key))),
            replace_paths: self.replace_paths.key(key),
            relevant: self.relevant.key(key),
            non_legacy: self.non_legacy,
        }
    }

    /// `ChangeMap.ExplicitKeys`.
    pub(super) fn explicit_keys(&self) -> BTreeSet<&'a str> {
        let mut keys = BTreeSet::new();
        for m in [self.before_map(), self.after_map()].into_iter().flatten() {
            keys.extend(m.keys().map(String::as_str));
        }
        keys
    }

    /// `ChangeMap.AllKeys`: also keys only unknown or only sensitive.
    pub(super) fn all_keys(&self) -> BTreeSet<&'a str> {
        let mut keys = self.explicit_keys();
        self.unknown.keys(&mut keys);
        for m in [Self::obj(self.after_sensitive), Self::obj(self.before_sensitive)].into_iter().flatten() {
            keys.extend(m.keys().map(String::as_str));
        }
        keys
    }

    pub(super) fn before_len(&self) -> usize {
        self.before_list().map_or(0, Vec::len)
    }
    pub(super) fn after_len(&self) -> usize {
        self.after_list().map_or(0, Vec::len)
    }

    /// `ChangeSlice.GetChild`.
    pub(super) fn index(&self, bi: usize, ai: usize) -> Self {
        let b = self.before_list().and_then(|l| l.get(bi));
        let a = self.after_list().and_then(|l| l.get(ai));
        let relevant_ix = if bi >= self.before_len() { ai } else { bi };
        Change {
            before_explicit: b.is_some(),
            after_explicit: a.is_some(),
            before: nz(b),
            after: nz(a),
            unknown: self.unknown.index(ai),
            before_sensitive: nz(Self::arr(self.before_sensitive).and_then(|l| l.get(bi))),
            after_sensitive: nz(Self::arr(self.after_sensitive).and_then(|l| l.get(ai))),
            replace_paths: self.replace_paths.index(relevant_ix),
            relevant: self.relevant.index(relevant_ix),
            non_legacy: false,
        }
    }
}

/// `objchange.LongestCommonSubsequence`, with its tie-breaking.
pub(super) fn lcs<T: Copy>(xs: &[T], ys: &[T], eq: impl Fn(T, T) -> bool) -> Vec<T> {
    if xs.is_empty() || ys.is_empty() {
        return Vec::new();
    }
    let w = xs.len();
    let mut c = vec![0usize; xs.len() * ys.len()];
    let mut eqs = vec![false; xs.len() * ys.len()];
    for y in 0..ys.len() {
        for x in 0..xs.len() {
            if eq(xs[x], ys[y]) {
                eqs[w * y + x] = true;
                c[w * y + x] = if x == 0 || y == 0 { 1 } else { c[w * (y - 1) + (x - 1)] + 1 };
            } else {
                let l = if x > 0 { c[w * y + (x - 1)] } else { 0 };
                let u = if y > 0 { c[w * (y - 1) + x] } else { 0 };
                c[w * y + x] = l.max(u);
            }
        }
    }
    let mut seq = Vec::with_capacity(c[c.len() - 1]);
    let (mut x, mut y) = (xs.len() as isize - 1, ys.len() as isize - 1);
    while x > -1 && y > -1 {
        let (xu, yu) = (x as usize, y as usize);
        if eqs[w * yu + xu] {
            seq.push(xs[xu]);
            x -= 1;
            y -= 1;
        } else {
            let l = if x > 0 { c[w * yu + (xu - 1)] } else { 0 };
            let u = if y > 0 { c[w * (yu - 1) + xu] } else { 0 };
            if l > u {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    seq.reverse();
    seq
}

/// `collections.ProcessSlice`: walks two lists aligned on their longest common subsequence,
/// calling `process(before_ix, after_ix)` (an index equal to the list's length means "absent").
pub(super) fn process_slice<T: Copy>(
    before: &[T],
    after: &[T],
    eq: impl Fn(T, T) -> bool,
    is_obj: impl Fn(T) -> bool,
    mut process: impl FnMut(usize, usize),
) {
    let is_reorder = before.len() == after.len() && before.iter().all(|b| after.iter().any(|a| eq(*b, *a)));
    if before.len() == after.len() && !is_reorder {
        for ix in 0..before.len() {
            process(ix, ix);
        }
        return;
    }
    let common = lcs(before, after, &eq);
    let (mut bi, mut ai, mut li) = (0, 0, 0);
    while bi < before.len() || ai < after.len() || li < common.len() {
        while bi < before.len() && (li >= common.len() || !eq(before[bi], common[li])) {
            let is_object_diff = is_obj(before[bi])
                && ai < after.len()
                && is_obj(after[ai])
                && (li >= common.len() || !eq(after[ai], common[li]));
            if is_object_diff {
                process(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            process(bi, after.len());
            bi += 1;
        }
        while ai < after.len() && (li >= common.len() || !eq(after[ai], common[li])) {
            process(before.len(), ai);
            ai += 1;
        }
        if li < common.len() {
            process(bi, ai);
            bi += 1;
            ai += 1;
            li += 1;
        }
    }
}
