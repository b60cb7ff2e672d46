//! Stage 1: load Terraform configuration files into a [`Config`].
//!
//! `files` maps slash-separated relative paths to file contents. The root module is the folder
//! named by [`LoadOptions::root`] (the top level by default); local module sources (`./x`,
//! `../x`) are followed relative to the calling module's folder; other sources load from the
//! folder `.terraform/modules/modules.json` (under the root module's folder) names for them, as
//! Terraform does after `terraform init`, or else stay opaque calls with a warning.
//! Every problem becomes a [`Diagnostic`](crate::diag::Diagnostic) in
//! Terraform's words; loading never panics, and returns what it could load alongside them.
//!
//! ```text
//!   files.rs      where files come from (FileSource); paths → folders of .tf / .tf.json files;
//!                 module sources and where they live
//!   json.rs       span-keeping JSON parser for .tf.json; parse.rs: one file → syntax tree
//!   kept.rs       native files' syntax trees kept with the Config, and handles into them, so
//!                 eval and the engine evaluate what was parsed here without parsing again
//!   syntax.rs     one schema-driven view over native and JSON bodies; expr.rs: expressions
//!   references.rs expression → static traversals → Terraform references (parse_ref.go)
//!   dx.rs         decoding context; decode.rs: top-level blocks; resource.rs: resource/data/ephemeral
//!   manifest.rs   .terraform/modules/modules.json: where `terraform init` put non-local modules
//!   load.rs       the module tree: duplicates, override files, provider addresses, child modules
//!   provider_validation.rs  Terraform's validateProviderConfigs over the loaded tree: provider
//!                 blocks, required_providers and `providers` maps across module calls
//!   static_refs.rs references to undeclared names (what `terraform validate` reports), run by
//!                 the validate operation and by every plan, not by the loader; validate_walk.rs
//!                 what validate's walk finds while evaluating (`self`, `count`, `each` out of
//!                 place, undeclared module outputs), off the kept trees
//!   diagnostics.rs every message, worded as Terraform words it
//! ```

pub mod model;

mod decode;
pub mod diagnostics;
mod dx;
mod expr;
pub mod files;
pub mod json;
pub mod kept;
mod load;
pub mod manifest;
mod parse;
mod provider_validation;
pub mod references;
mod resource;
pub mod static_refs;
mod syntax;
mod validate_checks;
mod validate_walk;

pub use decode::implied_fqn;
pub use files::FileSource;
pub use model::*;

use crate::diag::Diagnostics;
use std::collections::BTreeMap;

/// Options for [`load`].
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The root module's folder within the files (`""` = the top level).
    pub root: String,
}

/// The result of [`load`]: the configuration as far as it could be loaded, and the problems.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub config: Config,
    pub diagnostics: Diagnostics,
}

/// Load a configuration from in-memory files (path → contents).
pub fn load(files: &BTreeMap<String, String>, options: &LoadOptions) -> Loaded {
    match load_from(&files::MapFiles::new(files), options) {
        Ok(loaded) => loaded,
        Err(never) => match never {},
    }
}

/// Load a configuration from any [`FileSource`]: the paths are listed once, and a file's
/// contents are read only when its folder is loaded. Stops at the first file that cannot be
/// read and returns the source's error.
pub fn load_from<S: FileSource + ?Sized>(files: &S, options: &LoadOptions) -> Result<Loaded, S::Error> {
    load::load_tree(files, options, true)
}

/// [`load_from`] for callers that evaluate nothing (`loadConfig`'s JSON, graph building): the
/// same configuration and diagnostics, but no syntax trees kept ([`Expr::tree`],
/// [`Resource::body`], [`Module::syntax`] are empty), so each file's tree and text are freed
/// as soon as the file is decoded. Keeping them cost these callers up to twice the peak memory
/// and 2-8% of their time (bench/RESULTS.md, 2026-11-27).
pub fn load_model_from<S: FileSource + ?Sized>(files: &S, options: &LoadOptions) -> Result<Loaded, S::Error> {
    load::load_tree(files, options, false)
}
