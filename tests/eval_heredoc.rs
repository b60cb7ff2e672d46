#![cfg(not(target_arch = "wasm32"))]
//! `<<-` heredocs strip the indentation of their source lines before interpolation, as HCL
//! does: the expected values are `terraform console` 1.11.4's `jsonencode` of each local.

mod support;
use support::console as harness;

use harness::{console, Outcome, Setup};

const LOCALS: &[(&str, &str)] = &[
    ("x", "\"a\\nb\""),
    ("h1", "<<-EOT\n    ${local.x}\n      y\n    EOT\n"),
    ("h2", "<<-EOT\n      one\n    %{ if true }\n        two\n    %{ endif }\n  EOT\n"),
    ("h3", "<<-EOT\n\ttab\n\t  more\n\n\tend\n\tEOT\n"),
    ("h4", "<<-EOT\n    a ${local.x} b\n      c\n   \n    d\n    EOT\n"),
];

#[test]
fn flush_heredocs_strip_source_indentation() {
    let setup =
        Setup { locals: LOCALS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), ..Default::default() };
    for (name, want) in [
        ("h1", r#""a\nb\n  y\n""#),
        ("h2", r#""  one\n\n    two\n\n""#),
        ("h3", r#""tab\n  more\n\nend\n""#),
        ("h4", r#""a a\nb b\n  c\n   \nd\n""#),
    ] {
        match console(&setup, &format!("local.{name}")) {
            Outcome::Value { json, .. } => assert_eq!(json.as_deref(), Some(want), "local.{name}"),
            Outcome::Error { summary, detail, .. } => panic!("local.{name}: {summary}: {detail}"),
        }
    }
}
