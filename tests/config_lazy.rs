#![cfg(not(target_arch = "wasm32"))]
//! Lazy reading through a [`FileSource`]: the loader lists every path, but reads only the files
//! of the folders it loads (and the module manifest), and stops at the first unreadable one.

use std::borrow::Cow;
use std::cell::RefCell;
use tfgraph::config::{load_from, FileSource, LoadOptions};

/// Files in memory; a `None` content cannot be read. Records every read.
struct Recording {
    files: Vec<(&'static str, Option<&'static str>)>,
    reads: RefCell<Vec<&'static str>>,
}

impl Recording {
    fn new(files: &[(&'static str, Option<&'static str>)]) -> Self {
        Recording { files: files.to_vec(), reads: RefCell::new(Vec::new()) }
    }

    fn reads(&self) -> Vec<&'static str> {
        let mut r = self.reads.borrow().clone();
        r.sort_unstable();
        r
    }
}

impl FileSource for Recording {
    type Error = String;

    fn paths(&self) -> Vec<&str> {
        self.files.iter().map(|&(p, _)| p).collect()
    }

    fn read(&self, index: usize) -> Result<Cow<'_, str>, String> {
        let (path, text) = self.files[index];
        self.reads.borrow_mut().push(path);
        text.map(Cow::Borrowed).ok_or_else(|| format!("cannot read {path}"))
    }
}

const ROOT: &str = "module \"net\" {\n  source = \"../../modules/net\"\n}\n";
const NET: &str = "resource \"aws_vpc\" \"main\" {}\n";

fn repository(unrelated: Option<&'static str>, net: Option<&'static str>) -> Recording {
    Recording::new(&[
        ("envs/prod/main.tf", Some(ROOT)),
        ("envs/prod/notes.md", None),
        ("envs/staging/main.tf", unrelated),
        ("modules/net/main.tf", net),
        ("modules/dns/main.tf", unrelated),
        ("modules/dns/README.md", None),
    ])
}

fn options(root: &str) -> LoadOptions {
    LoadOptions { root: root.to_string() }
}

#[test]
fn only_loaded_folders_are_read() {
    let files = repository(None, Some(NET));
    let loaded = load_from(&files, &options("envs/prod")).expect("the unreadable files are never read");
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let net = loaded.config.root.module_calls[0].module.as_ref().expect("child loaded");
    assert_eq!(net.resources[0].address, "module.net.aws_vpc.main");
    assert_eq!(files.reads(), ["envs/prod/main.tf", "modules/net/main.tf"]);
}

#[test]
fn an_unreadable_file_in_a_loaded_folder_stops_loading() {
    let files = repository(Some(NET), None);
    let err = load_from(&files, &options("envs/prod")).map(|_| ()).unwrap_err();
    assert_eq!(err, "cannot read modules/net/main.tf");
}

#[test]
fn the_manifest_is_read_only_when_present_under_the_root() {
    let files = Recording::new(&[
        ("main.tf", Some("module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n")),
        (".terraform/modules/modules.json", None),
        ("other/.terraform/modules/modules.json", Some("not even JSON")),
    ]);
    assert_eq!(load_from(&files, &options("")).map(|_| ()).unwrap_err(), "cannot read .terraform/modules/modules.json");
    let files = Recording::new(&[("main.tf", Some(NET)), ("other/.terraform/modules/modules.json", None)]);
    assert!(load_from(&files, &options("")).is_ok());
    assert_eq!(files.reads(), ["main.tf"]);
}

#[test]
fn a_map_and_a_lazy_source_load_the_same() {
    let map: std::collections::BTreeMap<String, String> = [("envs/prod/main.tf", ROOT), ("modules/net/main.tf", NET)]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let eager = tfgraph::config::load(&map, &options("envs/prod"));
    let lazy = load_from(&repository(None, Some(NET)), &options("envs/prod")).unwrap();
    assert_eq!(serde_json::to_string(&eager.config).unwrap(), serde_json::to_string(&lazy.config).unwrap());
    assert_eq!(eager.diagnostics, lazy.diagnostics);
}
