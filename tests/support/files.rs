//! Reading a folder into a files map (path relative to the folder, slash-separated → text).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

/// Keep every file.
pub fn any_file(_: &Path) -> bool {
    true
}

/// Keep Terraform configuration files: names ending `.tf` or `.tf.json`.
pub fn tf_file(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    name.ends_with(".tf") || name.ends_with(".tf.json")
}

/// Keep files with extension `tf` or `json` (configuration plus `.terraform/modules/modules.json`).
pub fn tf_or_json_file(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "tf" || x == "json")
}

fn walk(dir: &Path, keep: fn(&Path) -> bool, strict: bool) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) if strict => panic!("{}: {e}", d.display()),
            Err(_) => continue,
        };
        for e in entries {
            let p = match e {
                Ok(e) => e.path(),
                Err(e) if strict => panic!("{}: {e}", d.display()),
                Err(_) => continue,
            };
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                let text = match std::fs::read_to_string(&p) {
                    Ok(t) => t,
                    Err(e) if strict => panic!("{}: {e}", p.display()),
                    Err(_) => continue,
                };
                out.insert(p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"), text);
            }
        }
    }
    out
}

/// The files under `dir` that `keep` accepts; unreadable folders and files are skipped.
pub fn read_tree(dir: &Path, keep: fn(&Path) -> bool) -> BTreeMap<String, String> {
    walk(dir, keep, false)
}

/// Every file of a fixture folder (dot-folders included); panics on any read error.
pub fn read_fixture(dir: &Path) -> BTreeMap<String, String> {
    walk(dir, any_file, true)
}

/// The `.tf` / `.tf.json` files of a fixture folder (subfolders are local modules); panics on any read error.
pub fn read_tf_fixture(dir: &Path) -> BTreeMap<String, String> {
    walk(dir, tf_file, true)
}
