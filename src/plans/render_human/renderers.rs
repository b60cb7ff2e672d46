//! The computed diff tree and how each node prints itself (Terraform's `jsonformat/computed` and
//! `computed/renderers`), without colour: `terraform show -no-color`'s text.

use super::change::{process_slice, Action, Change, Matcher, Unk};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Prim {
    String,
    Number,
    Bool,
    /// cty.NilType: a JSON null in an output or a JSON-encoded string.
    Null,
}

pub(super) struct Diff<'a> {
    pub r: R<'a>,
    pub action: Action,
    pub replace: bool,
}

#[derive(Default)]
pub(super) struct Blocks<'a> {
    pub single: BTreeMap<String, Diff<'a>>,
    pub list: BTreeMap<String, Vec<Diff<'a>>>,
    pub set: BTreeMap<String, Vec<Diff<'a>>>,
    pub map: BTreeMap<String, BTreeMap<String, Diff<'a>>>,
    /// The keys whose block forces replacement, was or is sensitive, is unknown (sets, not
    /// maps to `bool`: one B-tree type fewer in the package).
    pub replace: BTreeSet<String>,
    pub before_sensitive: BTreeSet<String>,
    pub after_sensitive: BTreeSet<String>,
    pub unknown: BTreeSet<String>,
}

impl Blocks<'_> {
    fn all_keys(&self) -> Vec<&String> {
        let mut keys: Vec<&String> =
            self.single.keys().chain(self.list.keys()).chain(self.set.keys()).chain(self.map.keys()).collect();
        crate::util::sort::sort(&mut keys);
        keys
    }
    fn flag(set: &BTreeSet<String>, key: &str) -> bool {
        set.contains(key)
    }
}

pub(super) enum R<'a> {
    Primitive { before: Option<&'a Value>, after: Option<&'a Value>, ty: Prim },
    Block { attributes: BTreeMap<String, Diff<'a>>, blocks: Box<Blocks<'a>> },
    List { elements: Vec<Diff<'a>>, display_context: bool },
    Set { elements: Vec<Diff<'a>>, override_forces_replacement: bool },
    Map { elements: BTreeMap<String, Diff<'a>>, nested: bool },
    Object { attributes: BTreeMap<String, Diff<'a>>, override_null_suffix: bool },
    Sensitive { inner: Box<Diff<'a>>, before: bool, after: bool },
    SensitiveBlock { inner: Box<Diff<'a>>, before: bool, after: bool },
    TypeChange { before: Box<Diff<'a>>, after: Box<Diff<'a>> },
    Unknown { before: Option<Box<Diff<'a>>> },
    WriteOnly { sensitive: bool },
}

#[derive(Clone, Copy, Default)]
pub(super) struct Opts {
    pub override_null_suffix: bool,
    pub force_forces_replacement: bool,
    pub forbid_forces_replacement: bool,
    pub show_unchanged_children: bool,
    pub hide_diff_action_symbols: bool,
}

impl Opts {
    /// `RenderHumanOpts.Clone`: the replacement overrides do not carry over.
    fn cloned(self) -> Opts {
        Opts { force_forces_replacement: false, forbid_forces_replacement: false, ..self }
    }
}

/// `format.DiffActionSymbol` without colour.
pub(super) fn action_symbol(action: Action) -> &'static str {
    match action {
        Action::DeleteThenCreate => "-/+",
        Action::CreateThenDelete => "+/-",
        Action::Create => "  +",
        Action::Delete => "  -",
        Action::Forget => " .",
        Action::CreateThenForget => " +/.",
        Action::Read => " <=",
        Action::Update => "  ~",
        Action::NoOp => "   ",
    }
}

fn sym(action: Action, opts: Opts) -> String {
    if opts.hide_diff_action_symbols {
        String::new()
    } else {
        format!("{} ", action_symbol(action))
    }
}

fn null_suffix(action: Action, opts: Opts) -> &'static str {
    if !opts.override_null_suffix && action == Action::Delete {
        " -> null"
    } else {
        ""
    }
}

fn forces(replace: bool, opts: Opts) -> &'static str {
    if (replace || opts.force_forces_replacement) && !opts.forbid_forces_replacement {
        " # forces replacement"
    } else {
        ""
    }
}

fn ind(indent: usize) -> String {
    "    ".repeat(indent)
}

fn unchanged(keyword: &str, count: usize) -> String {
    if count == 1 {
        format!("# ({count} unchanged {keyword} hidden)")
    } else {
        format!("# ({count} unchanged {keyword}s hidden)")
    }
}

pub(super) use crate::addrs::quote::go_quote;

/// `hclsyntax.ValidIdentifier`.
fn valid_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `renderers.EnsureValidAttributeName`.
pub(super) fn attr_name(name: &str) -> String {
    if valid_identifier(name) {
        name.to_string()
    } else {
        go_quote(name)
    }
}

fn important(attr: &str) -> bool {
    matches!(attr, "id" | "name" | "tags")
}

fn pad(s: &str, width: usize) -> String {
    // Go's %-*s pads by bytes (len), as Terraform's key widths are byte lengths.
    let mut out = s.to_string();
    while out.len() < width {
        out.push(' ');
    }
    out
}

fn json_number(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// What a string looks like to the renderer (`evaluatePrimitiveString`).
struct EvalStr {
    string: String,
    json: Option<Value>,
    multiline: bool,
    null: bool,
}

fn eval_string(v: Option<&Value>) -> EvalStr {
    let Some(v) = v else {
        return EvalStr { string: "null".into(), json: None, multiline: false, null: true };
    };
    let s = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
    if s.starts_with('{') || s.starts_with('[') {
        if let Ok(j) = serde_json::from_str::<Value>(&s) {
            return EvalStr { string: s, json: Some(j), multiline: false, null: false };
        }
    }
    if s.contains('\n') {
        return EvalStr { string: s.trim().to_string(), json: None, multiline: true, null: false };
    }
    EvalStr { string: s, json: None, multiline: false, null: false }
}

impl EvalStr {
    fn simple(&self) -> String {
        if self.null {
            self.string.clone()
        } else {
            go_quote(&self.string)
        }
    }
}

fn prim_value(v: Option<&Value>, ty: Prim) -> String {
    match (v, ty) {
        (None, _) => "null".into(),
        (Some(Value::Bool(b)), _) => b.to_string(),
        (Some(v), Prim::Number) => json_number(v),
        (Some(v), _) => v.to_string(),
    }
}

impl<'a> Diff<'a> {
    pub(super) fn new(r: R<'a>, action: Action, replace: bool) -> Self {
        Diff { r, action, replace }
    }

    pub(super) fn warnings(&self, indent: usize) -> Vec<String> {
        match &self.r {
            R::Sensitive { inner, before, after } => {
                if before == after || inner.action == Action::Create || inner.action == Action::Delete {
                    return Vec::new();
                }
                let w = if *before {
                    format!("  # Warning: this attribute value will no longer be marked as sensitive\n{}  # after applying this change.", ind(indent))
                } else {
                    format!("  # Warning: this attribute value will be marked as sensitive and will not\n{}  # display in UI output after applying this change.", ind(indent))
                };
                if inner.action == Action::NoOp {
                    vec![format!("{w} The value is unchanged.")]
                } else {
                    vec![w]
                }
            }
            R::SensitiveBlock { inner, before, after } => {
                if before == after || inner.action == Action::Create || inner.action == Action::Delete {
                    return Vec::new();
                }
                if *before {
                    vec![format!("  # Warning: this block will no longer be marked as sensitive\n{}  # after applying this change.", ind(indent))]
                } else {
                    vec![format!("  # Warning: this block will be marked as sensitive and will not\n{}  # display in UI output after applying this change.", ind(indent))]
                }
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn render(&self, indent: usize, opts: Opts) -> String {
        match &self.r {
            R::Primitive { before, after, ty } => self.render_primitive(*before, *after, *ty, indent, opts),
            R::Block { attributes, blocks } => self.render_block(attributes, blocks, indent, opts),
            R::List { elements, display_context } => self.render_list(elements, *display_context, indent, opts),
            R::Set { elements, override_forces_replacement } => {
                self.render_set(elements, *override_forces_replacement, indent, opts)
            }
            R::Map { elements, nested } => self.render_map(elements, *nested, indent, opts),
            R::Object { attributes, override_null_suffix } => {
                self.render_object(attributes, *override_null_suffix, indent, opts)
            }
            R::Sensitive { .. } => {
                format!("(sensitive value){}{}", null_suffix(self.action, opts), forces(self.replace, opts))
            }
            R::SensitiveBlock { .. } => {
                let prefix = format!("{}{}", ind(indent), sym(Action::NoOp, opts));
                format!(
                    "{{{}\n{prefix}  # At least one attribute in this block is (or was) sensitive,\n{prefix}  # so its contents will not be displayed.\n{prefix}}}",
                    forces(self.replace, opts)
                )
            }
            R::TypeChange { before, after } => {
                let o = Opts { override_null_suffix: true, ..opts };
                format!("{} -> {}", before.render(indent, o), after.render(indent, o))
            }
            R::Unknown { before } => match before {
                Some(b) if self.action != Action::Create => {
                    let mut bo = opts.cloned();
                    bo.override_null_suffix = true;
                    if self.replace {
                        bo.forbid_forces_replacement = true;
                    }
                    format!("{} -> (known after apply){}", b.render(indent, bo), forces(self.replace, opts))
                }
                _ => format!("(known after apply){}", forces(self.replace, opts)),
            },
            R::WriteOnly { sensitive } => {
                let what = if *sensitive { "(sensitive, write-only attribute)" } else { "(write-only attribute)" };
                format!("{what}{}{}", null_suffix(self.action, opts), forces(self.replace, opts))
            }
        }
    }

    fn render_primitive(
        &self,
        before: Option<&Value>,
        after: Option<&Value>,
        ty: Prim,
        indent: usize,
        opts: Opts,
    ) -> String {
        if ty == Prim::String {
            return self.render_string(before, after, indent, opts);
        }
        let b = prim_value(before, ty);
        let a = prim_value(after, ty);
        match self.action {
            Action::Create => format!("{a}{}", forces(self.replace, opts)),
            Action::Delete => format!("{b}{}{}", null_suffix(self.action, opts), forces(self.replace, opts)),
            Action::NoOp => format!("{b}{}", forces(self.replace, opts)),
            _ => format!("{b} -> {a}{}", forces(self.replace, opts)),
        }
    }

    fn render_string(&self, before: Option<&Value>, after: Option<&Value>, indent: usize, opts: Opts) -> String {
        let mut lines: Vec<String> = Vec::new();
        let noop_prefix = format!("{}{}", ind(indent + 1), sym(Action::NoOp, opts));
        match self.action {
            Action::Create | Action::NoOp => {
                let s = eval_string(after);
                if s.json.is_some() {
                    return if self.action == Action::NoOp {
                        self.render_string_as_json(indent, opts, Some(&s), Some(&s))
                    } else {
                        self.render_string_as_json(indent, opts, None, Some(&s))
                    };
                }
                if !s.multiline {
                    return format!("{}{}", s.simple(), forces(self.replace, opts));
                }
                lines = s.string.split('\n').map(|l| format!("{noop_prefix}{l}")).collect();
            }
            Action::Delete => {
                let s = eval_string(before);
                if s.null {
                    return format!("{}{}", s.simple(), forces(self.replace, opts));
                }
                if s.json.is_some() {
                    return self.render_string_as_json(indent, opts, Some(&s), None);
                }
                if !s.multiline {
                    return format!("{}{}{}", s.simple(), null_suffix(self.action, opts), forces(self.replace, opts));
                }
                lines = s.string.split('\n').map(|l| format!("{noop_prefix}{l}")).collect();
            }
            _ => {
                let b = eval_string(before);
                let a = eval_string(after);
                if b.json.is_some() && a.json.is_some() {
                    return self.render_string_as_json(indent, opts, Some(&b), Some(&a));
                }
                if b.json.is_some() || a.json.is_some() {
                    let d = Diff::new(
                        R::TypeChange {
                            before: Box::new(Diff::new(
                                R::Primitive { before, after: None, ty: Prim::String },
                                Action::Delete,
                                false,
                            )),
                            after: Box::new(Diff::new(
                                R::Primitive { before: None, after, ty: Prim::String },
                                Action::Create,
                                false,
                            )),
                        },
                        self.action,
                        self.replace,
                    );
                    return d.render(indent, opts);
                }
                if !b.multiline && !a.multiline {
                    return format!("{} -> {}{}", b.simple(), a.simple(), forces(self.replace, opts));
                }
                let bl: Vec<&str> = b.string.split('\n').collect();
                let al: Vec<&str> = a.string.split('\n').collect();
                let pre = |act| format!("{}{}", ind(indent + 1), sym(act, opts));
                process_slice(
                    &bl,
                    &al,
                    |x: &str, y: &str| x == y,
                    |_| false,
                    |bi, ai| {
                        if bi >= bl.len() {
                            lines.push(format!("{}{}", pre(Action::Create), al[ai]));
                        } else if ai >= al.len() {
                            lines.push(format!("{}{}", pre(Action::Delete), bl[bi]));
                        } else if bl[bi] != al[ai] {
                            lines.push(format!("{}{}", pre(Action::Delete), bl[bi]));
                            lines.push(format!("{}{}", pre(Action::Create), al[ai]));
                        } else {
                            lines.push(format!("{}{}", pre(Action::NoOp), bl[bi]));
                        }
                    },
                );
            }
        }
        format!(
            "<<-EOT{}\n{}\n{}{}EOT{}",
            forces(self.replace, opts),
            lines.join("\n"),
            ind(indent),
            sym(Action::NoOp, opts),
            null_suffix(self.action, opts)
        )
    }

    fn render_string_as_json(
        &self,
        indent: usize,
        opts: Opts,
        before: Option<&EvalStr>,
        after: Option<&EvalStr>,
    ) -> String {
        let bj = before.and_then(|s| s.json.as_ref());
        let aj = after.and_then(|s| s.json.as_ref());
        let change = Change {
            before_explicit: self.action != Action::Create,
            after_explicit: self.action != Action::Delete,
            before: super::change::nz(bj),
            after: super::change::nz(aj),
            unknown: Unk::none(),
            before_sensitive: None,
            after_sensitive: None,
            replace_paths: Matcher::empty(false),
            relevant: Matcher::Always,
            non_legacy: false,
        };
        let json_diff = super::differ::json_transform(change);
        let mut action = self.action;
        let mut json_opts = opts.cloned();
        json_opts.override_null_suffix = true;
        let (mut whitespace, mut replace) = ("", "");
        if json_diff.action == Action::NoOp && self.action == Action::Update {
            whitespace = if self.replace { " # whitespace changes force replacement" } else { " # whitespace changes" };
            json_opts.show_unchanged_children = true;
            action = Action::NoOp;
        } else {
            replace = forces(self.replace, opts);
        }
        let rendered = json_diff.render(indent + 1, json_opts);
        if self.action == Action::Create || self.action == Action::Delete {
            action = Action::NoOp;
        }
        if rendered.contains('\n') {
            format!(
                "jsonencode({whitespace}\n{}{}{rendered}{replace}\n{}{}){}",
                ind(indent + 1),
                sym(action, opts),
                ind(indent),
                sym(Action::NoOp, opts),
                null_suffix(self.action, opts)
            )
        } else {
            format!("jsonencode({rendered}){whitespace}{replace}")
        }
    }

    fn render_block(
        &self,
        attributes: &BTreeMap<String, Diff<'a>>,
        blocks: &Blocks<'a>,
        indent: usize,
        opts: Opts,
    ) -> String {
        if attributes.is_empty() && blocks.all_keys().is_empty() {
            return format!("{{}}{}", forces(self.replace, opts));
        }
        let mut unchanged_attributes = 0;
        let mut unchanged_blocks = 0;
        let max_len = attributes.keys().map(|k| attr_name(k).len()).max().unwrap_or(0);
        let mut important_opts = opts.cloned();
        important_opts.show_unchanged_children = true;
        let attribute_opts = opts.cloned();
        let mut buf = format!("{{{}\n", forces(self.replace, opts));
        for (key, attr) in attributes {
            if important(key) {
                for w in attr.warnings(indent + 1) {
                    let _ = writeln!(buf, "{}{w}", ind(indent + 1));
                }
                let _ = writeln!(
                    buf,
                    "{}{}{} = {}",
                    ind(indent + 1),
                    sym(attr.action, important_opts),
                    pad(key, max_len),
                    attr.render(indent + 1, important_opts)
                );
                continue;
            }
            if attr.action == Action::NoOp && !opts.show_unchanged_children {
                unchanged_attributes += 1;
                continue;
            }
            for w in attr.warnings(indent + 1) {
                let _ = writeln!(buf, "{}{w}", ind(indent + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{} = {}",
                ind(indent + 1),
                sym(attr.action, attribute_opts),
                pad(&attr_name(key), max_len),
                attr.render(indent + 1, attribute_opts)
            );
        }
        if unchanged_attributes > 0 {
            let _ = writeln!(
                buf,
                "{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("attribute", unchanged_attributes)
            );
        }
        for key in blocks.all_keys() {
            let mut found_changed = false;
            let mut render_block = |diff: &Diff<'a>, map_key: &str, opts: Opts, buf: &mut String| {
                let bs = Blocks::flag(&blocks.before_sensitive, key);
                let as_ = Blocks::flag(&blocks.after_sensitive, key);
                let creating = diff.action == Action::Create && as_;
                let deleting = diff.action == Action::Delete && bs;
                let modifying = (diff.action == Action::Update || diff.action == Action::NoOp) && (as_ || bs);
                let wrapped;
                let diff = if creating || deleting || modifying {
                    let mut action = diff.action;
                    if diff.action == Action::NoOp && bs != as_ {
                        action = Action::Update;
                    }
                    // The wrapper only needs the inner diff's action for its warnings.
                    let inner = Diff::new(R::Unknown { before: None }, diff.action, diff.replace);
                    wrapped = Diff::new(
                        R::SensitiveBlock { inner: Box::new(inner), before: bs, after: as_ },
                        action,
                        diff.replace,
                    );
                    &wrapped
                } else {
                    diff
                };
                if diff.action == Action::NoOp && !opts.show_unchanged_children {
                    unchanged_blocks += 1;
                    return;
                }
                if !found_changed && !attributes.is_empty() {
                    buf.push('\n');
                    found_changed = true;
                }
                let mut block_opts = opts.cloned();
                block_opts.force_forces_replacement = Blocks::flag(&blocks.replace, key);
                for w in diff.warnings(indent + 1) {
                    let _ = writeln!(buf, "{}{w}", ind(indent + 1));
                }
                let _ = writeln!(
                    buf,
                    "{}{}{}{} {}",
                    ind(indent + 1),
                    sym(diff.action, block_opts),
                    attr_name(key),
                    map_key,
                    diff.render(indent + 1, block_opts)
                );
            };
            let unknown_block = || Diff::new(R::Unknown { before: None }, self.action, false);
            if let Some(d) = blocks.single.get(key) {
                render_block(d, "", opts, &mut buf);
            } else if let Some(m) = blocks.map.get(key) {
                if Blocks::flag(&blocks.unknown, key) {
                    render_block(&unknown_block(), "", opts, &mut buf);
                }
                for (k, d) in m {
                    render_block(d, &format!(" {}", go_quote(k)), opts, &mut buf);
                }
            } else if let Some(l) = blocks.set.get(key).or_else(|| blocks.list.get(key)) {
                if Blocks::flag(&blocks.unknown, key) {
                    render_block(&unknown_block(), "", opts, &mut buf);
                }
                for d in l {
                    render_block(d, "", opts, &mut buf);
                }
            }
        }
        if unchanged_blocks > 0 {
            let _ = writeln!(
                buf,
                "\n{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("block", unchanged_blocks)
            );
        }
        let _ = write!(buf, "{}{}}}", ind(indent), sym(Action::NoOp, opts));
        buf
    }

    fn render_list(&self, elements: &[Diff<'a>], display_context: bool, indent: usize, opts: Opts) -> String {
        if elements.is_empty() {
            return format!("[]{}{}", null_suffix(self.action, opts), forces(self.replace, opts));
        }
        let mut element_opts = opts.cloned();
        element_opts.override_null_suffix = true;
        let mut unchanged_opts = opts.cloned();
        unchanged_opts.show_unchanged_children = true;
        let mut unchanged_elements: Vec<&Diff<'a>> = Vec::new();
        let mut render_next = false;
        let mut buf = format!("[{}\n", forces(self.replace, opts));
        for element in elements {
            if element.action == Action::NoOp && !render_next && !opts.show_unchanged_children {
                unchanged_elements.push(element);
                continue;
            }
            render_next = false;
            let mut eopts = element_opts;
            if display_context {
                if unchanged_elements.len() > 1 {
                    let _ = writeln!(
                        buf,
                        "{}{}{}",
                        ind(indent + 1),
                        sym(Action::NoOp, eopts),
                        unchanged("element", unchanged_elements.len() - 1)
                    );
                }
                if let Some(last) = unchanged_elements.last() {
                    let _ = writeln!(
                        buf,
                        "{}{}{},",
                        ind(indent + 1),
                        sym(last.action, unchanged_opts),
                        last.render(indent + 1, unchanged_opts)
                    );
                }
                unchanged_elements.clear();
                if element.action == Action::NoOp {
                    eopts = unchanged_opts;
                } else {
                    render_next = true;
                }
            }
            for w in element.warnings(indent + 1) {
                let _ = writeln!(buf, "{}{w}", ind(indent + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{},",
                ind(indent + 1),
                sym(element.action, eopts),
                element.render(indent + 1, eopts)
            );
        }
        if !unchanged_elements.is_empty() {
            let _ = writeln!(
                buf,
                "{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("element", unchanged_elements.len())
            );
        }
        let _ = write!(buf, "{}{}]{}", ind(indent), sym(Action::NoOp, opts), null_suffix(self.action, opts));
        buf
    }

    fn render_set(&self, elements: &[Diff<'a>], override_forces: bool, indent: usize, opts: Opts) -> String {
        let in_self = self.replace && !override_forces;
        let in_children = self.replace && override_forces;
        if elements.is_empty() {
            return format!("[]{}{}", null_suffix(self.action, opts), forces(in_self, opts));
        }
        let mut element_opts = opts.cloned();
        element_opts.override_null_suffix = true;
        element_opts.force_forces_replacement = in_children;
        let mut unchanged_elements = 0;
        let mut buf = format!("[{}\n", forces(in_self, opts));
        for element in elements {
            if element.action == Action::NoOp && !opts.show_unchanged_children {
                unchanged_elements += 1;
                continue;
            }
            for w in element.warnings(indent + 1) {
                let _ = writeln!(buf, "{}{w}", ind(indent + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{},",
                ind(indent + 1),
                sym(element.action, element_opts),
                element.render(indent + 1, element_opts)
            );
        }
        if unchanged_elements > 0 {
            let _ = writeln!(
                buf,
                "{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("element", unchanged_elements)
            );
        }
        let _ = write!(buf, "{}{}]{}", ind(indent), sym(Action::NoOp, opts), null_suffix(self.action, opts));
        buf
    }

    /// `mapRenderer`: `nested` is `NestedMap` (no key alignment, null suffix and forces
    /// replacement handed to the children).
    fn render_map(&self, elements: &BTreeMap<String, Diff<'a>>, nested: bool, indent: usize, opts: Opts) -> String {
        let (override_null, override_forces, align) = (nested, nested, !nested);
        let forces_self = self.replace && !override_forces;
        let forces_children = self.replace && override_forces;
        if elements.is_empty() {
            return format!("{{}}{}{}", null_suffix(self.action, opts), forces(forces_self, opts));
        }
        let max_len = elements.keys().map(|k| go_quote(k).len()).max().unwrap_or(0);
        let mut element_opts = opts.cloned();
        element_opts.override_null_suffix = self.action == Action::Delete || override_null;
        element_opts.force_forces_replacement = forces_children;
        let mut unchanged_elements = 0;
        let mut buf = format!("{{{}\n", forces(forces_self, opts));
        for (key, element) in elements {
            if element.action == Action::NoOp && !opts.show_unchanged_children {
                unchanged_elements += 1;
                continue;
            }
            for w in element.warnings(indent + 1) {
                let _ = writeln!(buf, "{}{w}", ind(indent + 1));
            }
            let comma = if matches!(element.r, R::Object { .. }) { "," } else { "" };
            let k = if align { pad(&go_quote(key), max_len) } else { go_quote(key) };
            let _ = writeln!(
                buf,
                "{}{}{k} = {}{comma}",
                ind(indent + 1),
                sym(element.action, element_opts),
                element.render(indent + 1, element_opts)
            );
        }
        if unchanged_elements > 0 {
            let _ = writeln!(
                buf,
                "{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("element", unchanged_elements)
            );
        }
        let _ = write!(buf, "{}{}}}{}", ind(indent), sym(Action::NoOp, opts), null_suffix(self.action, opts));
        buf
    }

    fn render_object(
        &self,
        attributes: &BTreeMap<String, Diff<'a>>,
        override_null_suffix: bool,
        indent: usize,
        opts: Opts,
    ) -> String {
        if attributes.is_empty() {
            return format!("{{}}{}{}", null_suffix(self.action, opts), forces(self.replace, opts));
        }
        let mut attribute_opts = opts.cloned();
        attribute_opts.override_null_suffix = override_null_suffix;
        let max_len = attributes.keys().map(|k| attr_name(k).len()).max().unwrap_or(0);
        let mut unchanged_attributes = 0;
        let mut buf = format!("{{{}\n", forces(self.replace, opts));
        for (key, attr) in attributes {
            if important(key) {
                let mut io = attribute_opts.cloned();
                io.show_unchanged_children = true;
                for w in attr.warnings(indent + 1) {
                    let _ = writeln!(buf, "{}{w}", ind(indent + 1));
                }
                let _ = writeln!(
                    buf,
                    "{}{}{} = {}",
                    ind(indent + 1),
                    sym(attr.action, io),
                    pad(&attr_name(key), max_len),
                    attr.render(indent + 1, io)
                );
                continue;
            }
            if attr.action == Action::NoOp && !opts.show_unchanged_children {
                unchanged_attributes += 1;
                continue;
            }
            for w in attr.warnings(indent + 1) {
                let _ = writeln!(buf, "{}{w}", ind(indent + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{} = {}",
                ind(indent + 1),
                sym(attr.action, attribute_opts),
                pad(&attr_name(key), max_len),
                attr.render(indent + 1, attribute_opts)
            );
        }
        if unchanged_attributes > 0 {
            let _ = writeln!(
                buf,
                "{}{}{}",
                ind(indent + 1),
                sym(Action::NoOp, opts),
                unchanged("attribute", unchanged_attributes)
            );
        }
        let _ = write!(buf, "{}{}}}{}", ind(indent), sym(Action::NoOp, opts), null_suffix(self.action, opts));
        buf
    }
}
