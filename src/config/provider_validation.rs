//! Terraform's `validateProviderConfigs` (`internal/configs/provider_validation.go`): static
//! checks of provider configurations, `required_providers` entries and module calls'
//! `providers` maps across the whole module tree, run once every module is loaded (as
//! `FinalizeConfig` does, after all loading diagnostics).
//!
//! Like Terraform, a module's children are checked before the module itself (depth first).
//! Terraform walks Go maps here (children, provider blocks, requirements, `providers` entries),
//! so its order among diagnostics of one kind varies from run to run; this walk uses declaration
//! order instead. Where Terraform's result itself depends on map order, the choice made here is
//! noted where it is made.
//!
//! Provider types come from `resolveProviderTypes` (`internal/configs/config.go`): a local name
//! means its `required_providers` source, or `hashicorp/<name>`. The child-side type of a
//! `providers` entry is set by whichever loaded child of the calling module declares that name
//! (Terraform's loop fills the entries of *every* call of the parent, not only the child's own).
//! Modules that were not loaded (not installed) are not checked, as Terraform has no `Config`
//! for them either.

use super::decode::{default_fqn as default_provider, implied_fqn};
use super::diagnostics as msg;
use super::manifest::canonical_source;
use super::model::*;
use crate::diag::{Diagnostics, SourceRange};

pub fn validate_provider_configs(root: &Module, diags: &mut Diagnostics) {
    validate(None, root, None, diags);
}

const DEFAULT_REGISTRY: &str = "registry.terraform.io/";

/// `Provider.ForDisplay()`: the registry host is left out for the public registry.
fn for_display(fqn: &str) -> &str {
    fqn.strip_prefix(DEFAULT_REGISTRY).unwrap_or(fqn)
}

/// `addrs.IsDefaultProvider`.
fn is_default(fqn: &str) -> bool {
    fqn.starts_with("registry.terraform.io/hashicorp/")
}

/// `providerName(name, alias)`.
fn config_name(p: &ProviderConfig) -> String {
    match &p.alias {
        Some(a) => format!("{}.{a}", p.name),
        None => p.name.clone(),
    }
}

/// The local name part of `aws.west`.
fn local_part(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

fn required<'m>(m: &'m Module, name: &str) -> Option<&'m RequiredProvider> {
    m.required_providers.iter().find(|r| r.name == name)
}

/// The range of `name` written (on one line) from `start`: a provider local name's
/// `NameRange`. Columns count characters: an identifier may hold non-ASCII letters.
fn name_range(base: &SourceRange, start: crate::diag::Pos, name: &str) -> SourceRange {
    let mut r = base.clone();
    r.start = start;
    r.end = start;
    r.end.column += name.chars().count() as u32;
    r.end.byte += name.len() as u32;
    r
}

/// The child-side local name of a `providers` entry (`PassedProviderConfig.InChild.NameRange`):
/// the entry starts with it (in JSON at the key's opening quote, where HCL starts the traversal
/// it parses from the string).
fn in_child_range(p: &PassedProvider) -> SourceRange {
    name_range(&p.range, p.range.start, local_part(&p.in_child))
}

/// The parent-side local name of a `providers` entry (`InParent.NameRange`).
fn in_parent_range(p: &PassedProvider) -> SourceRange {
    name_range(&p.range, p.in_parent_start, local_part(&p.in_parent))
}

/// `InChild.providerType` after `resolveProviderTypes`: every loaded child of `parent` sets it
/// for the entries of all of `parent`'s calls whose child-side name it declares. When several
/// children declare the name with different sources the last one Terraform happens to visit
/// wins (map order); here the call's own child wins, then the first other call that declares it.
fn child_type(parent: &Module, own: &Module, name: &str) -> Option<String> {
    let declared = |m: &Module| required(m, name).map(|r| r.fqn.clone());
    declared(own).or_else(|| parent.module_calls.iter().filter_map(|c| c.module.as_deref()).find_map(declared))
}

fn validate(
    parent: Option<(&Module, &ModuleCall)>,
    m: &Module,
    no_config: Option<&SourceRange>,
    diags: &mut Diagnostics,
) {
    for call in &m.module_calls {
        let Some(child) = call.module.as_deref() else { continue };
        // count, for_each or depends_on on this call forbid provider blocks here and below.
        let range = match (&call.count, &call.for_each) {
            (Some(c), _) => Some(&c.range),
            (None, Some(f)) => Some(&f.range),
            _ if !call.depends_on.is_empty() => call.depends_on_range.as_ref().or(Some(&call.range)),
            _ => no_config,
        };
        validate(Some((m, call)), child, range, diags);
    }

    // configured: any argument or block besides alias, or a version; else a (proxy) empty block.
    let mut configured: Vec<(String, &SourceRange)> = Vec::new();
    let mut empty: Vec<(String, &SourceRange)> = Vec::new();
    for p in &m.providers {
        if !p.empty || p.has_version {
            configured.push((config_name(p), &p.range));
        } else {
            empty.push((config_name(p), &p.range));
        }
    }
    let is_configured = |n: &str| configured.iter().any(|(c, _)| c == n);

    // localNames and configAliases, with the duplicate-requirement warnings.
    let mut local_names: Vec<(&str, &str)> = Vec::new();
    let mut config_aliases: Vec<(String, &str)> = Vec::new();
    for req in &m.required_providers {
        if local_names.iter().any(|(_, t)| *t == req.fqn) {
            // Terraform names "the last declaration" found in a map walk; the latest here.
            let prev = local_names.iter().rev().find(|(_, t)| *t == req.fqn).map_or("", |(n, _)| n);
            diags.push(msg::duplicate_required_provider_type(
                for_display(&req.fqn),
                &req.name,
                prev,
                req.expr_range.clone(),
            ));
        } else if is_default(&req.fqn) {
            let type_name = req.fqn.rsplit('/').next().unwrap_or_default();
            if req.name != type_name && m.providers.iter().any(|p| p.name == type_name) {
                diags.push(msg::duplicate_required_provider_block(
                    for_display(&req.fqn),
                    &req.name,
                    type_name,
                    req.expr_range.clone(),
                ));
            }
        }
        local_names.push((&req.name, &req.fqn));
        for alias in &req.configuration_aliases {
            // `ParseProviderConfigCompact`: `name` or `name.alias`, the name the entry's own
            // (anything else is an "Invalid configuration_aliases value" and dropped).
            let mut parts = alias.split('.');
            if parts.next() == Some(req.name.as_str()) && parts.clone().count() <= 1 && !alias.contains('[') {
                config_aliases.push((alias.clone(), &req.fqn));
            }
        }
    }
    let local_type = |n: &str| local_names.iter().find(|(l, _)| *l == n).map(|(_, t)| *t);

    // checkImpliedProviderNames: managed resources, then data resources.
    for mode in [crate::addrs::ResourceMode::Managed, crate::addrs::ResourceMode::Data] {
        for r in m.resources.iter().filter(|r| r.mode == mode && r.provider.implied) {
            let local = r.type_name.split('_').next().unwrap_or_default();
            if let Err(reason) = parse_provider_part(local) {
                diags.push(msg::invalid_implied_provider_name(local, reason, r.range.clone()));
                continue;
            }
            // Most modules have no requirement to clash with: nothing to allocate per resource.
            if local_names.is_empty() || local_type(local).is_some() {
                continue;
            }
            let implied = implied_fqn(local);
            for (prev, _) in local_names.iter().filter(|(_, t)| *t == implied) {
                let addr = match mode {
                    crate::addrs::ResourceMode::Data => format!("data.{}.{}", r.type_name, r.name),
                    _ => format!("{}.{}", r.type_name, r.name),
                };
                diags.push(msg::duplicate_required_provider_resource(&implied, &addr, prev, r.range.clone()));
            }
        }
    }

    let passed_in: &[PassedProvider] = parent.map_or(&[], |(_, c)| &c.providers);
    let is_passed = |n: &str| passed_in.iter().any(|p| p.in_child == n);
    let module_text = if m.path.is_root() { "the root module".to_string() } else { m.path.to_string() };
    let parent_text = match m.path.0.len() {
        0 | 1 => "the root module".to_string(),
        n => crate::addrs::ModulePath(m.path.0[..n - 1].to_vec()).to_string(),
    };

    // This module's calls: each non-aliased configuration it passes must be declared here,
    // and (below the root) configured here or passed in from above.
    for call in &m.module_calls {
        for passed in call.providers.iter().filter(|p| !p.in_parent.contains('.')) {
            let name = passed.in_parent.as_str();
            let conf_ok = is_configured(name);
            if !(conf_ok || local_type(name).is_some()) {
                let def = default_provider(name);
                diags.push(msg::undefined_provider_in_parent(
                    name,
                    &module_text,
                    for_display(&def),
                    &parent_text,
                    in_parent_range(passed),
                ));
                continue;
            }
            if let Some((_, pcall)) = parent {
                if !(conf_ok || is_passed(name)) {
                    let def = default_provider(name);
                    diags.push(msg::missing_inherited_provider(
                        &module_text,
                        for_display(&def),
                        name,
                        &parent_text,
                        &pcall.name,
                        pcall.range.clone(),
                    ));
                }
            }
        }
    }

    let Some((parent_mod, parent_call)) = parent else { return };

    if let (Some(range), false) = (no_config, configured.is_empty()) {
        diags.push(msg::module_incompatible_with_repetition(
            &module_text,
            &canonical_source(&parent_call.source),
            range.clone(),
        ));
    }

    for (name, _) in &configured {
        if let Some(p) = passed_in.iter().find(|p| p.in_child == *name) {
            diags.push(msg::cannot_override_provider(&module_text, name, &parent_text, in_child_range(p)));
        }
    }

    for (name, fqn) in &config_aliases {
        if !(is_configured(name) || is_passed(name)) {
            diags.push(msg::missing_provider_alias(for_display(fqn), name, parent_call.range.clone()));
        }
    }

    for passed in passed_in {
        let name = passed.in_child.as_str();
        let child_name = local_part(name);
        let mut provider = child_type(parent_mod, m, child_name).unwrap_or_else(|| default_provider(child_name));
        let local = local_type(name);
        if let Some(t) = local {
            provider = t.to_string();
        }
        let alias = config_aliases.iter().find(|(a, _)| a == name);
        if let Some((_, t)) = alias {
            provider = t.to_string();
        }
        let is_empty = empty.iter().any(|(e, _)| e == name);
        if !(local.is_some() || alias.is_some() || is_empty) {
            diags.push(msg::undefined_provider_in_child(
                name,
                &module_text,
                for_display(&provider),
                is_default(&provider),
                in_child_range(passed),
            ));
        }

        // The parent's type for the passed name, unless the parent requires the child-side
        // name (alias included: Terraform looks it up by that key).
        let parent_name = local_part(&passed.in_parent);
        let mut parent_type =
            required(parent_mod, parent_name).map_or_else(|| default_provider(parent_name), |r| r.fqn.clone());
        if let Some(r) = required(parent_mod, name) {
            parent_type = r.fqn.clone();
        }
        if provider != parent_type {
            // Terraform takes the first match of a map walk; the first declared here.
            match local_names.iter().find(|(_, t)| **t == parent_type) {
                Some((other, _)) => diags.push(msg::provider_type_mismatch_other_name(
                    for_display(&parent_type),
                    child_name,
                    &parent_text,
                    for_display(&provider),
                    other,
                    in_child_range(passed),
                )),
                None => diags.push(msg::provider_type_mismatch(
                    &passed.in_parent,
                    &parent_text,
                    for_display(&parent_type),
                    name,
                    &module_text,
                    for_display(&provider),
                    in_parent_range(passed),
                )),
            }
        }
    }

    // One warning per local name with empty blocks. Terraform takes the source address from
    // whichever block of the name it meets first in a map walk (the required_providers source
    // only for the non-aliased block, which has the plain name); here names are taken in sorted
    // order, so the non-aliased block comes first. Warnings follow the first block of each name.
    struct Group<'a> {
        local: &'a str,
        source: String,
        configs: Vec<String>,
        ranges: Vec<&'a SourceRange>,
        aliased: bool,
    }
    let mut sorted = empty.clone();
    crate::util::sort::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
    let mut groups: Vec<Group> = Vec::new();
    for (name, range) in &sorted {
        let local = local_part(name);
        let i = match groups.iter().position(|g| g.local == local) {
            Some(i) => i,
            None => {
                let source = local_type(name).map_or_else(|| default_provider(local), str::to_string);
                groups.push(Group { local, source, configs: Vec::new(), ranges: Vec::new(), aliased: false });
                groups.len() - 1
            }
        };
        let g = &mut groups[i];
        g.aliased |= local != name;
        g.configs.push(name.clone());
        g.ranges.push(range);
    }
    let first_block = |local: &str| empty.iter().position(|(n, _)| local_part(n) == local).unwrap_or(0);
    crate::util::sort::sort_by_key(&mut groups, |g| first_block(g.local));
    for mut g in groups {
        // "the one source range that sorts earliest" by its `Range.String()`.
        crate::util::sort::sort_by_key(&mut g.ranges, |r| r.to_string());
        diags.push(msg::redundant_empty_provider(
            g.local,
            &module_text,
            for_display(&g.source),
            &g.configs,
            g.aliased,
            g.ranges[0].clone(),
        ));
    }
}

/// `addrs.ParseProviderPart`'s failures for a name made of identifier characters (letters,
/// digits and dashes once split at `_`): empty, `--`, or a leading or trailing dash (IDNA's
/// hyphen rules). Case is folded, not rejected.
fn parse_provider_part(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("must have at least one character");
    }
    if name.contains('.') {
        return Err("dots are not allowed");
    }
    if name.contains("--") {
        return Err("cannot use multiple consecutive dashes");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err("must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
    }
    Ok(())
}
