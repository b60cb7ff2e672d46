//! The module tree: parse each module's files, assemble the module (duplicates, override files,
//! provider addresses), then follow its module calls.

use super::decode::{decode_file, finalize_call, finalize_output, implied_fqn, Parts, PendingCall, PendingProvider};
use super::diagnostics as msg;
use super::files::{join, normalize_path, resolve_module_source, DirFile, FileSource, FileTree, Resolution};
use super::manifest::{canonical_source, constraint_allows, Manifest, MANIFEST_PATH};
use super::model::*;
use super::parse::{parse_file, Parsed};
use super::resource::{finalize_resource, merge_resource, OverrideSet};
use super::syntax::BodyRef;
use super::{LoadOptions, Loaded};
use crate::addrs::{ModulePath, ResourceMode};
use crate::diag::{Diagnostics, SourceFile, SourceRange};
use crate::util::FastMap;

/// The most modules one configuration may load (a guard against exponential call diamonds).
const MAX_MODULES: usize = 5_000;

/// `keep_syntax`: keep native files' syntax trees with the configuration for evaluation.
pub fn load_tree<S: FileSource + ?Sized>(
    source: &S,
    options: &LoadOptions,
    keep_syntax: bool,
) -> Result<Loaded, S::Error> {
    let paths = source.paths();
    let tree = FileTree::new(&paths);
    let mut diags = Diagnostics::new();
    let root_dir = normalize_path(&options.root).unwrap_or_default();
    // The module manifest under the root module's folder, if given. A malformed one is reported
    // and then ignored: every non-local call stays opaque.
    let manifest_file = join(&root_dir, MANIFEST_PATH).and_then(|path| tree.manifest(&path).map(|index| (path, index)));
    let manifest = match manifest_file {
        None => None,
        Some((path, index)) => match super::manifest::read(&path, &source.read(index)?, &root_dir) {
            Ok(m) => Some(m),
            Err(d) => {
                diags.push(d);
                None
            }
        },
    };
    let mut loader =
        Loader { tree: &tree, source, failed: None, stack: vec![root_dir.clone()], count: 0, manifest, keep_syntax };
    let root = match tree.files(&root_dir) {
        Some(_) => loader.module(&root_dir, ModulePath::root(), &mut diags),
        None => {
            diags.push(msg::no_configuration_files(&root_dir));
            Module { dir: root_dir, ..Module::default() }
        }
    };
    // FinalizeConfig: checks across the whole tree, after every module's own diagnostics.
    if loader.failed.is_none() {
        super::provider_validation::validate_provider_configs(&root, &mut diags);
    }
    match loader.failed {
        Some(e) => Err(e),
        None => Ok(Loaded { config: Config { root, cwd: None }, diagnostics: diags }),
    }
}

struct Loader<'t, S: FileSource + ?Sized> {
    tree: &'t FileTree<'t>,
    source: &'t S,
    /// The first file whose contents could not be read: loading stops there and returns it.
    failed: Option<S::Error>,
    /// Folders of the modules being loaded, root first: a call into one of them is recursion.
    stack: Vec<String>,
    count: usize,
    /// `.terraform/modules/modules.json`, when given: where non-local calls were installed.
    manifest: Option<Manifest>,
    /// Keep native files' syntax trees (else each is freed once its file is decoded).
    keep_syntax: bool,
}

/// A module being assembled from its files.
#[derive(Default)]
struct Acc {
    resources: Vec<super::decode::PendingResource>,
    res_index: FastMap<(ResourceMode, String, String), usize>,
    providers: Vec<PendingProvider>,
    prov_index: FastMap<(String, Option<String>), usize>,
    calls: Vec<PendingCall>,
    call_index: FastMap<String, usize>,
    variables: Vec<Variable>,
    var_index: FastMap<String, usize>,
    locals: Vec<Local>,
    local_index: FastMap<String, usize>,
    outputs: Vec<Output>,
    out_index: FastMap<String, usize>,
    checks: Vec<Check>,
    check_index: FastMap<String, usize>,
    required_providers: Vec<RequiredProvider>,
    rp_block: Option<SourceRange>,
    required_version: Option<String>,
    moved: Vec<Moved>,
    imports: Vec<Import>,
    removed: Vec<Removed>,
}

impl<S: FileSource + ?Sized> Loader<'_, S> {
    /// Loads the module in `dir` and its children.
    fn module(&mut self, dir: &str, path: ModulePath, diags: &mut Diagnostics) -> Module {
        self.count += 1;
        let address = path.to_string();
        let tree = self.tree;
        let files: &[DirFile] = tree.files(dir).unwrap_or(&[]);
        let mut acc = Acc::default();
        let mut file_names = Vec::with_capacity(files.len());
        let mut syntax = Vec::new();
        // Primary files first, then override files, each in name order (parser_config_dir.go).
        let ordered = files.iter().filter(|f| !f.kind.is_override).chain(files.iter().filter(|f| f.kind.is_override));
        for df in ordered {
            let text = match self.source.read(df.index) {
                Ok(text) => text,
                Err(e) => {
                    self.failed = Some(e);
                    return Module::default();
                }
            };
            file_names.push(df.path.to_string());
            let sf = SourceFile::new(df.path.as_ref(), text);
            let Some(parsed) = parse_file(sf, df.kind.json, diags) else { continue };
            let parts = match &parsed {
                Parsed::Hcl(file) => {
                    let keep = self.keep_syntax;
                    if keep {
                        syntax.push(std::sync::Arc::clone(file));
                    }
                    file.with(|body, keeper| {
                        decode_file(
                            BodyRef::Hcl(body),
                            file.source(),
                            keep.then_some(keeper),
                            &address,
                            df.kind.is_override,
                            diags,
                        )
                    })
                }
                Parsed::Json(sf, v) => decode_file(BodyRef::Json(v), sf, None, &address, df.kind.is_override, diags),
            };
            if df.kind.is_override {
                acc.merge_override(parts, diags);
            } else {
                acc.append(parts, diags);
            }
        }
        let (mut module, source_ranges) = acc.finish(&path, dir);
        module.files = file_names;
        module.syntax = syntax;
        self.load_children(&mut module, &source_ranges, diags);
        module
    }

    /// Resolve and load each call's child module. The single place that decides where a
    /// module's source lives: local sources relative to the calling module's folder, others
    /// through the module manifest.
    fn load_children(&mut self, module: &mut Module, source_ranges: &[Option<SourceRange>], diags: &mut Diagnostics) {
        let dir = module.dir.clone();
        let path = module.path.clone();
        for (call, source_range) in module.module_calls.iter_mut().zip(source_ranges) {
            if self.failed.is_some() {
                return;
            }
            if call.source.is_empty() {
                continue;
            }
            let at = source_range.clone().unwrap_or_else(|| call.range.clone());
            let child_path = path.child(&call.name);
            let child_dir = match resolve_module_source(&dir, &call.source, &call.source_kind) {
                Resolution::NotInstalled => match self.installed(&child_path, call, &at, diags) {
                    Some(d) => d,
                    None => continue,
                },
                Resolution::Outside => {
                    diags.push(msg::module_dir_outside(&call.name, &call.source, at));
                    continue;
                }
                Resolution::Local(child_dir) => {
                    if self.tree.files(&child_dir).is_none() {
                        diags.push(msg::module_dir_missing(&call.name, &child_dir, &call.range, at));
                        continue;
                    }
                    child_dir
                }
            };
            if let Some(pos) = self.stack.iter().position(|d| *d == child_dir) {
                let mut chain: Vec<String> =
                    self.stack[pos..].iter().map(|d| if d.is_empty() { ".".into() } else { d.clone() }).collect();
                chain.push(if child_dir.is_empty() { ".".into() } else { child_dir.clone() });
                diags.push(msg::module_recursion(&call.name, &chain, at));
            } else if self.count >= MAX_MODULES {
                diags.push(msg::too_many_modules(MAX_MODULES, at));
            } else {
                self.stack.push(child_dir.clone());
                let child = self.module(&child_dir, child_path, diags);
                self.stack.pop();
                call.module = Some(Box::new(child));
            }
        }
    }

    /// Terraform's `moduleWalkerLoad` for a non-local call: the manifest record under the
    /// call's key, its source and version checked against the call, and its folder. `None`
    /// (with the warning) when the module is not installed.
    fn installed(
        &self,
        child_path: &ModulePath,
        call: &ModuleCall,
        at: &SourceRange,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        let Some(record) = self.manifest.as_ref().and_then(|m| m.records.get(&child_path.manifest_key())) else {
            diags.push(msg::module_not_installed(at.clone()));
            return None;
        };
        if canonical_source(&call.source) != record.source {
            diags.push(msg::module_source_changed(at.clone()));
        }
        if let Some(constraint) = call.version.as_deref().filter(|c| !c.trim().is_empty()) {
            match &record.version {
                None => diags.push(msg::module_version_changed(None, at.clone())),
                Some(v) => {
                    if constraint_allows(constraint, v) == Some(false) {
                        diags.push(msg::module_version_changed(Some(&v.to_string()), at.clone()));
                    }
                }
            }
        }
        match &record.dir {
            Some(d) if self.tree.files(d).is_some() => Some(d.clone()),
            _ => {
                diags.push(msg::module_cache_missing(&record.dir_raw, at.clone()));
                None
            }
        }
    }
}

impl Acc {
    /// `Module.appendFile`: add a primary file's objects, reporting duplicates.
    fn append(&mut self, p: Parts, diags: &mut Diagnostics) {
        for (i, r) in p.required_provider_blocks.iter().enumerate() {
            if let Some(prev) = &self.rp_block {
                diags.push(msg::duplicate_required_providers(prev, r.clone()));
                continue;
            }
            self.rp_block = Some(r.clone());
            let _ = i;
            self.required_providers.extend(p.required_providers.iter().cloned());
        }
        if p.required_version.is_some() {
            self.required_version = p.required_version;
        }
        for pv in p.providers {
            let key = (pv.cfg.name.clone(), pv.cfg.alias.clone());
            if let Some(&i) = self.prov_index.get(&key) {
                let prev = &self.providers[i].cfg;
                diags.push(msg::duplicate_provider(
                    &prev.name,
                    prev.alias.as_deref(),
                    &prev.range,
                    pv.cfg.range.clone(),
                ));
                continue;
            }
            self.prov_index.insert(key, self.providers.len());
            self.providers.push(pv);
        }
        for v in p.variables {
            if let Some(&i) = self.var_index.get(&v.name) {
                diags.push(msg::duplicate_variable(&v.name, &self.variables[i].range, v.range.clone()));
                continue;
            }
            self.var_index.insert(v.name.clone(), self.variables.len());
            self.variables.push(v);
        }
        for l in p.locals {
            if let Some(&i) = self.local_index.get(&l.name) {
                diags.push(msg::duplicate_local(&l.name, &self.locals[i].range, l.range.clone()));
                continue;
            }
            self.local_index.insert(l.name.clone(), self.locals.len());
            self.locals.push(l);
        }
        for o in p.outputs {
            if let Some(&i) = self.out_index.get(&o.name) {
                diags.push(msg::duplicate_output(&o.name, &self.outputs[i].range, o.range.clone()));
                continue;
            }
            self.out_index.insert(o.name.clone(), self.outputs.len());
            self.outputs.push(o);
        }
        for c in p.calls {
            if let Some(&i) = self.call_index.get(&c.call.name) {
                diags.push(msg::duplicate_module_call(&c.call.name, &self.calls[i].call.range, c.call.range.clone()));
                continue;
            }
            self.call_index.insert(c.call.name.clone(), self.calls.len());
            self.calls.push(c);
        }
        self.resources.reserve(p.resources.len());
        self.res_index.reserve(p.resources.len());
        for r in p.resources {
            let key = (r.res.mode, r.res.type_name.clone(), r.res.name.clone());
            if let Some(&i) = self.res_index.get(&key) {
                let prev = &self.resources[i].res;
                let word = match prev.mode {
                    ResourceMode::Managed => "resource",
                    ResourceMode::Data => "data",
                    ResourceMode::Ephemeral => "ephemeral",
                };
                diags.push(msg::duplicate_resource(
                    word,
                    &prev.type_name,
                    &prev.name,
                    &prev.range,
                    r.res.range.clone(),
                ));
                continue;
            }
            self.res_index.insert(key, self.resources.len());
            self.resources.push(r);
        }
        for c in p.checks {
            if let Some(&i) = self.check_index.get(&c.name) {
                diags.push(msg::duplicate_check(&c.name, &self.checks[i].range, c.range.clone()));
                continue;
            }
            self.check_index.insert(c.name.clone(), self.checks.len());
            self.checks.push(c);
        }
        self.moved.extend(p.moved);
        for im in p.imports {
            // Two blocks importing to the same static address (`Module.appendFile`).
            if let Some(prev) = self.imports.iter().find(|x| {
                x.for_each.is_none()
                    && im.for_each.is_none()
                    && x.to == im.to
                    && crate::addrs::InstanceAddr::parse(&im.to).is_ok()
            }) {
                diags.push(msg::duplicate_import(&im.to, &prev.range, im.to_range.clone()));
            }
            self.imports.push(im);
        }
        self.removed.extend(p.removed);
    }

    /// `Module.mergeFile`: an override file's objects replace parts of existing ones.
    fn merge_override(&mut self, p: Parts, diags: &mut Diagnostics) {
        for rp in p.required_providers {
            self.required_providers.retain(|e| e.name != rp.name);
            self.required_providers.push(rp);
        }
        if p.required_version.is_some() {
            self.required_version = p.required_version;
        }
        for pv in p.providers {
            let key = (pv.cfg.name.clone(), pv.cfg.alias.clone());
            match self.prov_index.get(&key) {
                Some(&i) => {
                    let base = &mut self.providers[i];
                    base.version |= pv.version;
                    for (k, refs) in pv.body {
                        base.body.retain(|(bk, _)| *bk != k);
                        base.body.push((k, refs));
                    }
                }
                None if pv.cfg.alias.is_none() => {
                    self.prov_index.insert(key, self.providers.len());
                    self.providers.push(pv);
                }
                None => diags.push(msg::missing_base(
                    "Missing base provider configuration for override",
                    format!("There is no {} provider configuration with the alias {:?}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", pv.cfg.name, pv.cfg.alias.unwrap_or_default()),
                    pv.cfg.range.clone(),
                )),
            }
        }
        for v in p.variables {
            let Some(&i) = self.var_index.get(&v.name) else {
                diags.push(msg::missing_base(
                    "Missing base variable declaration to override",
                    format!("There is no variable named {:?}. An override file can only override a variable that was already declared in a primary configuration file.", v.name),
                    v.range.clone(),
                ));
                continue;
            };
            let b = &mut self.variables[i];
            if v.type_expr.is_some() {
                b.type_expr = v.type_expr;
            }
            if v.default.is_some() {
                b.default = v.default;
            }
            if v.description.is_some() {
                b.description = v.description;
            }
            b.sensitive |= v.sensitive;
            b.ephemeral |= v.ephemeral;
            if !v.nullable {
                b.nullable = false;
            }
        }
        for l in p.locals {
            match self.local_index.get(&l.name) {
                Some(&i) => self.locals[i].expr = l.expr,
                None => diags.push(msg::missing_base(
                    "Missing base local value definition to override",
                    format!("There is no local value named {:?}. An override file can only override a local value that was already defined in a primary configuration file.", l.name),
                    l.range.clone(),
                )),
            }
        }
        for o in p.outputs {
            let Some(&i) = self.out_index.get(&o.name) else {
                diags.push(msg::missing_base(
                    "Missing base output definition to override",
                    format!("There is no output named {:?}. An override file can only override an output that was already defined in a primary configuration file.", o.name),
                    o.range.clone(),
                ));
                continue;
            };
            let b = &mut self.outputs[i];
            if !o.value.source.is_empty() {
                b.value = o.value;
            }
            if !o.depends_on.is_empty() {
                b.depends_on = o.depends_on;
            }
            if o.description.is_some() {
                b.description = o.description;
            }
            b.sensitive |= o.sensitive;
            b.ephemeral |= o.ephemeral;
            finalize_output(b);
        }
        for c in p.calls {
            let Some(&i) = self.call_index.get(&c.call.name) else {
                diags.push(msg::missing_base(
                    "Missing module call to override",
                    format!("There is no module call named {:?}. An override file can only override a module call that was defined in a primary configuration file.", c.call.name),
                    c.call.range.clone(),
                ));
                continue;
            };
            let (base, o) = (&mut self.calls[i], c.call);
            if !o.source.is_empty() {
                base.call.source = o.source;
                base.call.source_kind = o.source_kind;
                base.source_range = c.source_range;
            }
            if o.version.is_some() {
                base.call.version = o.version;
            }
            if o.count.is_some() {
                base.call.count = o.count;
                base.call.for_each = None;
            }
            if o.for_each.is_some() {
                base.call.for_each = o.for_each;
                base.call.count = None;
            }
            if !o.depends_on.is_empty() {
                base.call.depends_on = o.depends_on;
                base.call.depends_on_range = o.depends_on_range;
            }
            if !o.providers.is_empty() {
                base.call.providers = o.providers;
            }
            for arg in o.arguments {
                base.call.arguments.retain(|a| a.name != arg.name);
                base.call.arguments.push(arg);
            }
            finalize_call(&mut base.call);
        }
        self.resources.reserve(p.resources.len());
        self.res_index.reserve(p.resources.len());
        for r in p.resources {
            let key = (r.res.mode, r.res.type_name.clone(), r.res.name.clone());
            let Some(&i) = self.res_index.get(&key) else {
                let (summary, what) = match r.res.mode {
                    ResourceMode::Data => ("Missing data resource to override", "data resource"),
                    _ => ("Missing resource to override", "resource"),
                };
                let block = if r.res.mode == ResourceMode::Data { "data" } else { "resource" };
                diags.push(msg::missing_base(
                    summary,
                    format!("There is no {} {what} named {:?}. An override file can only override a {block} block defined in a primary configuration file.", r.res.type_name, r.res.name),
                    r.res.range.clone(),
                ));
                continue;
            };
            let set = OverrideSet::of(&r);
            merge_resource(&mut self.resources[i], r, &set);
        }
        for m in p.moved {
            diags.push(msg::cannot_override(
                "moved",
                "Records of moved objects can appear only in normal files, not in override files.",
                m.range,
            ));
        }
        for im in p.imports {
            diags.push(msg::cannot_override(
                "import",
                "Import blocks can appear only in normal files, not in override files.",
                im.range,
            ));
        }
        self.removed.extend(p.removed);
        self.checks.extend(p.checks);
    }

    /// Resolve provider addresses and assemble references. Also returns each module call's
    /// `source` range, for diagnostics about the child module.
    fn finish(self, path: &ModulePath, dir: &str) -> (Module, Vec<Option<SourceRange>>) {
        let fqn_of = |local: &str| -> String {
            self.required_providers
                .iter()
                .find(|r| r.name == local)
                .map_or_else(|| implied_fqn(local), |r| r.fqn.clone())
        };
        let prefix = if path.is_root() { String::new() } else { format!("{path}.") };
        let resources: Vec<Resource> = self
            .resources
            .into_iter()
            .map(|p| {
                let mut r = finalize_resource(p);
                r.provider.fqn = fqn_of(&r.provider.local_name);
                r
            })
            .collect();
        let providers = self
            .providers
            .into_iter()
            .map(|p| {
                let mut cfg = p.cfg;
                cfg.fqn = fqn_of(&cfg.name);
                cfg.address = match &cfg.alias {
                    Some(a) => format!("{prefix}provider[\"{}\"].{a}", cfg.fqn),
                    None => format!("{prefix}provider[\"{}\"]", cfg.fqn),
                };
                // `body` holds every argument and block but alias and version, with or without
                // references: empty exactly when HCL's `Content(&hcl.BodySchema{})` succeeds.
                cfg.empty = p.body.is_empty();
                cfg.has_version = p.version;
                cfg.references = p.body.into_iter().flat_map(|(_, r)| r).collect();
                cfg
            })
            .collect();
        let mut checks = self.checks;
        for c in &mut checks {
            if let Some(d) = &mut c.data {
                d.provider.fqn = fqn_of(&d.provider.local_name);
            }
        }
        let source_ranges = self.calls.iter().map(|c| c.source_range.clone()).collect();
        let module = Module {
            path: path.clone(),
            address: path.to_string(),
            dir: dir.to_string(),
            files: Vec::new(),
            resources,
            providers,
            module_calls: self.calls.into_iter().map(|c| c.call).collect(),
            variables: self.variables,
            locals: self.locals,
            outputs: self.outputs,
            required_providers: self.required_providers,
            required_version: self.required_version,
            moved: self.moved,
            imports: self.imports,
            removed: self.removed,
            checks,
            syntax: Vec::new(),
        };
        (module, source_ranges)
    }
}
