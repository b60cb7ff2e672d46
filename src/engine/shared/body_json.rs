//! A resource's body in a `.tf.json` file (HCL's JSON syntax): `{"resource": {"TYPE":
//! {"NAME": {...}}}}`, where any level may also be an array of such objects. Without a schema
//! JSON cannot tell a nested block from an object-valued argument, so every property is an
//! argument (a block written as an array of objects has the value a block list has), except
//! the meta-arguments and `dynamic`, whose JSON form (`{"dynamic": {"LABEL": {"for_each": …,
//! "iterator": …, "content": {…}}}}`) is read as in native syntax.

use super::body::{Argument, BlockKind, Body, NestedBlock};
use crate::config::json::{parse, JKind, JValue};
use crate::diag::SourceFile;

const META: &[&str] = &["count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection", "//"];

/// Objects at a level: the object itself, or each object of an array.
fn objects(v: &JValue) -> Vec<&JValue> {
    match &v.kind {
        JKind::Object(_) => vec![v],
        JKind::Array(items) => items.iter().filter(|i| matches!(i.kind, JKind::Object(_))).collect(),
        _ => Vec::new(),
    }
}

/// Properties named `name` in the objects of `v`.
fn props<'v>(v: &'v JValue, name: &str) -> Vec<&'v JValue> {
    objects(v)
        .into_iter()
        .flat_map(|o| o.as_object().unwrap_or(&[]).iter().filter(|p| p.name.value == name).map(|p| &p.value))
        .collect()
}

/// The body of block `kind "type_name" "name"` in the JSON file `text`.
pub fn resource_body(filename: &str, text: &str, kind: &str, type_name: &str, name: &str) -> Option<Body> {
    resource_bodies(filename, text, kind).into_iter().find(|(t, n, _)| t == type_name && n == name).map(|(_, _, b)| b)
}

/// Every block of `kind` in the JSON file `text`: (type, name, body), the first of each.
pub fn resource_bodies(filename: &str, text: &str, kind: &str) -> Vec<(String, String, Body)> {
    let Ok(root) = parse(text) else { return Vec::new() };
    let src = SourceFile::new(filename.to_string(), text.to_string());
    let mut out = Vec::new();
    for blocks in props(&root, kind) {
        for by_type in objects(blocks) {
            for tp in by_type.as_object().unwrap_or(&[]) {
                for by_name in objects(&tp.value) {
                    for np in by_name.as_object().unwrap_or(&[]) {
                        if let Some(body) = objects(&np.value).into_iter().next() {
                            out.push((
                                tp.name.value.clone(),
                                np.name.value.clone(),
                                body_of(body, text, &src, filename, true),
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Every `provider` block of the JSON file `text`: (name, body), each configuration of a name
/// (an array under it holds several, told apart by `alias`). `alias` and `version` stay in.
pub fn provider_bodies(filename: &str, text: &str) -> Vec<(String, Body)> {
    let Ok(root) = parse(text) else { return Vec::new() };
    let src = SourceFile::new(filename.to_string(), text.to_string());
    let mut out = Vec::new();
    for blocks in props(&root, "provider") {
        for by_name in objects(blocks) {
            for np in by_name.as_object().unwrap_or(&[]) {
                for body in objects(&np.value) {
                    out.push((np.name.value.clone(), body_of(body, text, &src, filename, false)));
                }
            }
        }
    }
    out
}

fn argument(
    name: &str,
    v: &JValue,
    name_span: std::ops::Range<usize>,
    text: &str,
    src: &SourceFile,
    filename: &str,
) -> Argument {
    Argument {
        name: name.to_string(),
        text: text[v.span.clone()].to_string(),
        filename: filename.to_string(),
        start: src.pos(v.span.start),
        range: src.range(name_span),
        tree: None,
    }
}

fn body_of(obj: &JValue, text: &str, src: &SourceFile, filename: &str, top: bool) -> Body {
    let mut out = Body::default();
    for p in obj.as_object().unwrap_or(&[]) {
        let key = p.name.value.as_str();
        if top && META.contains(&key) {
            continue;
        }
        if key == "dynamic" {
            for labels in objects(&p.value) {
                for lp in labels.as_object().unwrap_or(&[]) {
                    for spec in objects(&lp.value) {
                        let mut for_each = None;
                        let mut iterator = lp.name.value.clone();
                        let mut content = Body::default();
                        for sp in spec.as_object().unwrap_or(&[]) {
                            match sp.name.value.as_str() {
                                "for_each" => {
                                    for_each =
                                        Some(argument("for_each", &sp.value, sp.name.span.clone(), text, src, filename))
                                }
                                "iterator" => {
                                    if let JKind::String(s) = &sp.value.kind {
                                        iterator = s.value.clone();
                                    }
                                }
                                "content" => {
                                    if let Some(c) = objects(&sp.value).into_iter().next() {
                                        content = body_of(c, text, src, filename, false);
                                    }
                                }
                                _ => {}
                            }
                        }
                        out.blocks.push(NestedBlock {
                            type_name: lp.name.value.clone(),
                            range: src.range(lp.name.span.clone()),
                            kind: BlockKind::Dynamic { for_each, iterator, content },
                        });
                    }
                }
            }
            continue;
        }
        out.attributes.push(argument(key, &p.value, p.name.span.clone(), text, src, filename));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_bodies_at_any_nesting_form() {
        let text = r#"{"resource": [{"aws_vpc": {"main": {"cidr_block": "10.0.0.0/16", "count": 2, "tags": {"Name": "x"},
            "dynamic": {"ingress": {"for_each": "${var.rules}", "iterator": "r", "content": {"from_port": "${r.value}"}}}}}}]}"#;
        let b = resource_body("main.tf.json", text, "resource", "aws_vpc", "main").unwrap();
        let names: Vec<&str> = b.attributes.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["cidr_block", "tags"]);
        assert_eq!(b.attributes[1].text, r#"{"Name": "x"}"#);
        let BlockKind::Dynamic { iterator, content, for_each } = &b.blocks[0].kind else { panic!() };
        assert_eq!((b.blocks[0].type_name.as_str(), iterator.as_str()), ("ingress", "r"));
        assert_eq!(for_each.as_ref().unwrap().text, r#""${var.rules}""#);
        assert_eq!(content.attributes[0].name, "from_port");
        assert!(resource_body("main.tf.json", text, "resource", "aws_vpc", "other").is_none());
    }

    #[test]
    fn provider_bodies_one_per_configuration() {
        let text = r#"{"provider": {"aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "${var.r}"}], "google": {"project": "p"}}}"#;
        let found: Vec<(String, Vec<String>)> = provider_bodies("p.tf.json", text)
            .into_iter()
            .map(|(n, b)| (n, b.attributes.iter().map(|a| format!("{}={}", a.name, a.text)).collect()))
            .collect();
        assert_eq!(
            found,
            [
                ("aws".to_string(), vec![r#"region="eu-west-1""#.to_string()]),
                ("aws".to_string(), vec![r#"alias="west""#.to_string(), r#"region="${var.r}""#.to_string()]),
                ("google".to_string(), vec![r#"project="p""#.to_string()]),
            ]
        );
    }
}
