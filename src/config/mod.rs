//! Stage 1: load Terraform configuration files into a [`Config`].
//!
//! `files` maps slash-separated relative paths to file contents. The root module is the folder
//! named by [`LoadOptions::root`] (the top level by default); local module sources (`./x`,
//! `../x`) are followed relative to the calling module's folder; other sources stay opaque
//! calls with a warning. Every problem becomes a [`Diagnostic`](crate::diag::Diagnostic) in
//! Terraform's words; loading never panics, and returns what it could load alongside them.

pub mod model;

mod decode;
pub mod diagnostics;
pub mod files;
pub mod guard;
pub mod json;
mod load;
pub mod references;
mod resource;
mod syntax;

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

/// Load a configuration from in-memory files.
pub fn load(files: &BTreeMap<String, String>, options: &LoadOptions) -> Loaded {
    load::load_tree(files, options)
}
