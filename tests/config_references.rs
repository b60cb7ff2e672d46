#![cfg(not(target_arch = "wasm32"))]
//! Reference rules (Terraform's `addrs.ParseRef` and HCL's `Variables()`), as pass/fail tables.
//!
//! Each case is one expression placed in `locals { x = <expr> }` (or a resource argument), and
//! the expected references are written as `subject | traversal | range`.

use std::collections::BTreeMap;
use tfgraph::config::{load, LoadOptions, Loaded};

fn load_one(name: &str, text: &str) -> Loaded {
    let mut files = BTreeMap::new();
    files.insert(name.to_string(), text.to_string());
    load(&files, &LoadOptions::default())
}

/// The references found in `expr`, as `subject | traversal | range`.
fn refs_of(expr: &str) -> Vec<String> {
    let loaded = load_one("main.tf", &format!("locals {{\n  x = {expr}\n}}\n"));
    let errors: Vec<String> = loaded.diagnostics.errors().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
    assert!(errors.is_empty(), "{expr}: unexpected errors {errors:?}");
    let local = &loaded.config.root.locals[0];
    assert_eq!(local.expr.source, expr);
    local.expr.references.iter().map(|r| format!("{} | {} | {}", r.subject, r.traversal, r.range)).collect()
}

#[test]
fn valid_references() {
    // `main.tf:2,7` is where the expression starts.
    let cases: &[(&str, &[&str])] = &[
        ("aws_instance.web", &["aws_instance.web | aws_instance.web | main.tf:2,7-23"]),
        ("aws_instance.web.id", &["aws_instance.web | aws_instance.web.id | main.tf:2,7-23"]),
        ("resource.aws_instance.web.id", &["aws_instance.web | resource.aws_instance.web.id | main.tf:2,7-32"]),
        ("aws_instance.web[0].id", &["aws_instance.web[0] | aws_instance.web[0].id | main.tf:2,7-26"]),
        ("aws_instance.web[\"k\"].id", &["aws_instance.web[\"k\"] | aws_instance.web[\"k\"].id | main.tf:2,7-28"]),
        ("aws_instance.web.0.id", &["aws_instance.web[0] | aws_instance.web.0.id | main.tf:2,7-25"]),
        ("aws_instance.web[count.index].id", &["aws_instance.web | aws_instance.web | main.tf:2,7-23"]),
        ("aws_instance.web[*].id", &["aws_instance.web | aws_instance.web | main.tf:2,7-23"]),
        ("aws_instance.web.*.id", &["aws_instance.web | aws_instance.web | main.tf:2,7-23"]),
        ("aws_instance.web[-1]", &["aws_instance.web | aws_instance.web | main.tf:2,7-23"]),
        (
            "aws_instance.web[var.i].id",
            &["aws_instance.web | aws_instance.web | main.tf:2,7-23", "var.i | var.i | main.tf:2,24-29"],
        ),
        ("data.aws_ami.u.id", &["data.aws_ami.u | data.aws_ami.u.id | main.tf:2,7-21"]),
        ("data.aws_ami.u[1]", &["data.aws_ami.u[1] | data.aws_ami.u[1] | main.tf:2,7-24"]),
        (
            "ephemeral.random_password.p.result",
            &["ephemeral.random_password.p | ephemeral.random_password.p.result | main.tf:2,7-34"],
        ),
        ("module.net", &["module.net | module.net | main.tf:2,7-17"]),
        ("module.net[0]", &["module.net[0] | module.net[0] | main.tf:2,7-20"]),
        ("module.net.vpc_id", &["module.net.vpc_id | module.net.vpc_id | main.tf:2,7-24"]),
        ("module.net[\"a\"].vpc_id.x", &["module.net[\"a\"].vpc_id | module.net[\"a\"].vpc_id.x | main.tf:2,7-29"]),
        ("var.region", &["var.region | var.region | main.tf:2,7-17"]),
        ("var.obj.attr[0]", &["var.obj | var.obj.attr[0] | main.tf:2,7-14"]),
        ("local.tags", &["local.tags | local.tags | main.tf:2,7-17"]),
        // Never graph edges.
        ("count.index", &[]),
        ("each.key", &[]),
        ("each.value.x", &[]),
        ("path.module", &[]),
        ("path.root", &[]),
        ("path.cwd", &[]),
        ("terraform.workspace", &[]),
        ("self.id", &[]),
        // Templates, directives, heredocs.
        ("\"${var.a}-${local.b}\"", &["var.a | var.a | main.tf:2,10-15", "local.b | local.b | main.tf:2,19-26"]),
        (
            "\"%{if var.c}${var.d}%{else}x%{endif}\"",
            &["var.c | var.c | main.tf:2,13-18", "var.d | var.d | main.tf:2,21-26"],
        ),
        (
            "\"%{for s in var.l}${s}${var.z}%{endfor}\"",
            &["var.l | var.l | main.tf:2,19-24", "var.z | var.z | main.tf:2,31-36"],
        ),
        // Function calls, provider functions, operators, conditionals.
        ("upper(var.a)", &["var.a | var.a | main.tf:2,13-18"]),
        ("provider::aws::arn_parse(var.arn)", &["var.arn | var.arn | main.tf:2,32-39"]),
        (
            "var.a ? local.b : data.x.y.z",
            &[
                "var.a | var.a | main.tf:2,7-12",
                "local.b | local.b | main.tf:2,15-22",
                "data.x.y | data.x.y.z | main.tf:2,25-33",
            ],
        ),
        (
            "!var.a && var.b || -var.c > 1",
            &["var.a | var.a | main.tf:2,8-13", "var.b | var.b | main.tf:2,17-22", "var.c | var.c | main.tf:2,27-32"],
        ),
        ("(aws_instance.a).id", &["aws_instance.a | aws_instance.a | main.tf:2,8-22"]),
        ("tolist(aws_instance.a)[0].id", &["aws_instance.a | aws_instance.a | main.tf:2,14-28"]),
        (
            "aws_instance.a[\"${var.k}\"]",
            &["aws_instance.a | aws_instance.a | main.tf:2,7-21", "var.k | var.k | main.tf:2,25-30"],
        ),
        // Collections and object keys.
        ("[var.a, { k = local.b }]", &["var.a | var.a | main.tf:2,8-13", "local.b | local.b | main.tf:2,21-28"]),
        ("{ (var.k) = 1, key = 2 }", &["var.k | var.k | main.tf:2,10-15"]),
        // for expressions bind their symbols, with nesting and shadowing.
        (
            "[for k, v in var.m : \"${k}=${v}\" if v != local.skip]",
            &["var.m | var.m | main.tf:2,20-25", "local.skip | local.skip | main.tf:2,48-58"],
        ),
        ("{for s in var.l : s.name => s}", &["var.l | var.l | main.tf:2,17-22"]),
        ("[for x in var.a : [for y in x : y.z]]", &["var.a | var.a | main.tf:2,17-22"]),
        ("[for x in var.a : [for x in x.b : x]]", &["var.a | var.a | main.tf:2,17-22"]),
        ("[[for x in var.a : x], x.b]", &["var.a | var.a | main.tf:2,18-23", "x.b | x.b | main.tf:2,30-33"]),
    ];
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let got = refs_of(expr);
        if got != *want {
            failures.push(format!("{expr}\n   got:  {got:?}\n   want: {want:?}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn heredoc_references_point_into_the_heredoc() {
    let loaded =
        load_one("main.tf", "locals {\n  x = <<-EOT\n    a ${var.a}\n    %{ if local.b }b%{ endif }\n  EOT\n}\n");
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let got: Vec<String> =
        loaded.config.root.locals[0].expr.references.iter().map(|r| format!("{} {}", r.subject, r.range)).collect();
    assert_eq!(got, ["var.a main.tf:3,9-14", "local.b main.tf:4,11-18"]);
}

/// `expr` → the single error diagnostic it produces: summary, detail, range.
#[test]
fn invalid_references() {
    let reserved = |n: &str| {
        format!("The symbol name {n:?} is reserved for use in a future Terraform version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.")
    };
    let cases: Vec<(&str, &str, String, &str)> = vec![
        ("var", "Invalid reference", "The \"var\" object cannot be accessed directly. Instead, access one of its attributes.".into(), "main.tf:2,7-10"),
        ("var[0]", "Invalid reference", "The \"var\" object does not support this operation.".into(), "main.tf:2,10-13"),
        ("local", "Invalid reference", "The \"local\" object cannot be accessed directly. Instead, access one of its attributes.".into(), "main.tf:2,7-12"),
        ("module", "Invalid reference", "The \"module\" object cannot be accessed directly. Instead, access one of its attributes.".into(), "main.tf:2,7-13"),
        ("count", "Invalid reference", "The \"count\" object cannot be accessed directly. Instead, access one of its attributes.".into(), "main.tf:2,7-12"),
        ("data", "Invalid reference", "The \"data\" object must be followed by two attribute names: the data source type and the resource name.".into(), "main.tf:2,7-11"),
        ("data.x", "Invalid reference", "The \"data\" object must be followed by two attribute names: the data source type and the resource name.".into(), "main.tf:2,7-13"),
        ("data.x[0]", "Invalid reference", "A reference to a data source must be followed by at least one attribute access, specifying the resource name.".into(), "main.tf:2,13-16"),
        ("resource.x", "Invalid reference", "The \"resource\" object must be followed by two attribute names: the resource type and the resource name.".into(), "main.tf:2,7-17"),
        ("aws_instance", "Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".into(), "main.tf:2,7-19"),
        ("aws_instance[0]", "Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".into(), "main.tf:2,19-22"),
        ("module.m[0][1]", "Invalid reference", "Module instance objects do not support this operation.".into(), "main.tf:2,18-21"),
        ("module.m[true]", "Invalid index key", "Invalid index for module instance: either a string or an integer is required.".into(), "main.tf:2,15-21"),
        ("aws_instance.a[null]", "Invalid index key", "Invalid index for resource instance: either a string or an integer is required.".into(), "main.tf:2,21-27"),
        ("count.foo", "Invalid \"count\" attribute", "The \"count\" object does not have an attribute named \"foo\". The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set.".into(), "main.tf:2,7-16"),
        ("each.foo", "Invalid \"each\" attribute", "The \"each\" object does not have an attribute named \"foo\". The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set.".into(), "main.tf:2,7-15"),
        ("path.foo", "Invalid \"path\" attribute", "The \"path\" object does not have an attribute named \"foo\". The supported attributes are path.module (the path to the current module), path.root (the path to the root module), and path.cwd (the current working directory).".into(), "main.tf:2,7-15"),
        ("terraform.foo", "Invalid \"terraform\" attribute", "The \"terraform\" object does not have an attribute named \"foo\". The only supported attribute is terraform.workspace, the name of the currently-selected workspace.".into(), "main.tf:2,7-20"),
        ("template.x", "Reserved symbol name", reserved("template"), "main.tf:2,7-15"),
        ("lazy", "Reserved symbol name", reserved("lazy"), "main.tf:2,7-11"),
        ("arg.y", "Reserved symbol name", reserved("arg"), "main.tf:2,7-10"),
    ];
    let mut failures = Vec::new();
    for (expr, summary, detail, range) in &cases {
        let loaded = load_one("main.tf", &format!("locals {{\n  x = {expr}\n}}\n"));
        let got: Vec<(String, String, String)> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.summary.clone(), d.detail.clone(), d.range.as_ref().map(|r| r.to_string()).unwrap_or_default()))
            .collect();
        let want = vec![(summary.to_string(), detail.clone(), range.to_string())];
        if got != want {
            failures.push(format!("{expr}\n   got:  {got:?}\n   want: {want:?}"));
        }
        assert!(loaded.diagnostics.iter().all(|d| d.is_error()));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Where each reference of a resource was found, and which references the resource lists
/// (Terraform's `NodeAbstractResource.References()`).
#[test]
fn resource_reference_contexts() {
    let text = r#"resource "aws_instance" "web" {
  count      = var.n
  ami        = data.aws_ami.u.id
  depends_on = [aws_s3_bucket.b]
  network_interface {
    subnet_id = aws_subnet.s.id
  }
  dynamic "ingress" {
    for_each = var.rules
    iterator = rule
    content {
      port = rule.value + local.base
    }
  }
  dynamic "egress" {
    for_each = var.out
    content {
      port = egress.key
    }
  }
  connection {
    host = aws_eip.e.public_ip
  }
  provisioner "local-exec" {
    command = "echo ${var.msg} ${self.id}"
    connection {
      host = aws_eip.p.public_ip
    }
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${var.bye}"
  }
  lifecycle {
    replace_triggered_by = [aws_s3_bucket.t.id]
    precondition {
      condition     = var.ok
      error_message = "no ${local.why}"
    }
    postcondition {
      condition = self.id != ""
      error_message = "bad"
    }
  }
}
"#;
    let loaded = load_one("main.tf", text);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let r = &loaded.config.root.resources[0];
    let got: Vec<String> = r.references.iter().map(|x| format!("{} ({}) {}", x.subject, x.context, x.range)).collect();
    let want = [
        "aws_s3_bucket.b (depends_on) main.tf:4,17-32",
        "var.n (count) main.tf:2,16-21",
        "aws_s3_bucket.t (lifecycle.replace_triggered_by) main.tf:35,29-44",
        "data.aws_ami.u (ami) main.tf:3,16-30",
        "aws_subnet.s (network_interface.subnet_id) main.tf:6,17-29",
        "var.rules (dynamic \"ingress\".for_each) main.tf:9,16-25",
        "local.base (ingress.port) main.tf:12,27-37",
        "var.out (dynamic \"egress\".for_each) main.tf:16,16-23",
        "aws_eip.e (connection.host) main.tf:22,12-21",
        "var.msg (provisioner \"local-exec\".command) main.tf:25,23-30",
        "aws_eip.p (provisioner \"local-exec\".connection.host) main.tf:27,14-23",
        "var.ok (precondition.condition) main.tf:37,23-29",
        "local.why (precondition.error_message) main.tf:38,29-38",
    ];
    assert_eq!(got, want);
    // The destroy-time provisioner's references are only on the provisioner.
    let destroy = &r.provisioners[1];
    assert_eq!(destroy.when, tfgraph::config::ProvisionerWhen::Destroy);
    assert_eq!(destroy.references.iter().map(|x| x.subject.to_string()).collect::<Vec<_>>(), ["var.bye"]);
    assert_eq!(r.depends_on.len(), 1);
    assert_eq!(r.lifecycle.replace_triggered_by[0].source, "aws_s3_bucket.t.id");
}

#[test]
fn depends_on_rules() {
    let ok = load_one(
        "main.tf",
        "resource \"a\" \"b\" {\n  depends_on = [aws_s3_bucket.x, module.m, data.d.e, var.v, aws_s3_bucket.y[0]]\n}\n",
    );
    assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
    let subjects: Vec<String> = ok.config.root.resources[0].depends_on.iter().map(|r| r.subject.to_string()).collect();
    assert_eq!(subjects, ["aws_s3_bucket.x", "module.m", "data.d.e", "var.v", "aws_s3_bucket.y[0]"]);

    // Quoted references (deprecated, warned) are parsed as traversals, escapes included; past an
    // escape the range is approximate (the decoded text is shorter), as in Terraform's shim.
    let quoted = load_one(
        "main.tf",
        "resource \"a\" \"b\" {\n  depends_on = [\"aws_s3_bucket.x\", \"aws_s3_bucket.y[\\\"k\\\"]\"]\n}\n",
    );
    let got: Vec<(String, String, String)> = quoted.config.root.resources[0]
        .depends_on
        .iter()
        .map(|r| (r.subject.to_string(), r.traversal.clone(), r.range.to_string()))
        .collect();
    assert_eq!(
        got,
        [
            ("aws_s3_bucket.x".to_string(), "aws_s3_bucket.x".to_string(), "main.tf:2,18-33".to_string()),
            ("aws_s3_bucket.y[\"k\"]".to_string(), "aws_s3_bucket.y[\"k\"]".to_string(), "main.tf:2,37-57".to_string()),
        ]
    );
    let warnings: Vec<_> = quoted.diagnostics.iter().map(|d| (d.severity, d.summary.as_str())).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");

    let cases = [
        ("[aws_s3_bucket.x.id]", "Invalid depends_on reference", "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", "main.tf:2,32-35"),
        ("[module.m.out.x]", "Invalid depends_on reference", "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", "main.tf:2,29-31"),
        ("[upper(\"x\")]", "Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.", "main.tf:2,17-27"),
        ("aws_s3_bucket.x", "Invalid expression", "A static list expression is required.", "main.tf:2,16-31"),
    ];
    for (expr, summary, detail, range) in cases {
        let l = load_one("main.tf", &format!("resource \"a\" \"b\" {{\n  depends_on = {expr}\n}}\n"));
        let d: Vec<_> = l.diagnostics.errors().collect();
        assert_eq!(d.len(), 1, "{expr}: {:?}", l.diagnostics);
        assert_eq!(
            (d[0].summary.as_str(), d[0].detail.as_str(), d[0].range.as_ref().unwrap().to_string().as_str()),
            (summary, detail, range),
            "{expr}"
        );
    }
}

#[test]
fn module_call_and_output_references() {
    let text = "module \"m\" {\n  source = \"./m\"\n  count = var.n\n  depends_on = [aws_s3_bucket.b]\n  x = local.y\n  providers = { aws.child = aws.west }\n}\noutput \"o\" {\n  value = module.m[0].out\n  depends_on = [module.m]\n}\n";
    let mut files = BTreeMap::new();
    files.insert("main.tf".to_string(), text.to_string());
    files.insert("m/main.tf".to_string(), "output \"out\" { value = 1 }\n".to_string());
    let l = load(&files, &LoadOptions::default());
    // m does not declare the `aws.child` it is passed: only Terraform's warning about that.
    assert!(
        l.diagnostics.iter().all(|d| d.summary == "Reference to undefined provider" && !d.is_error()),
        "{:?}",
        l.diagnostics
    );
    let call = &l.config.root.module_calls[0];
    let refs: Vec<String> = call.references.iter().map(|r| format!("{} ({})", r.subject, r.context)).collect();
    assert_eq!(refs, ["aws_s3_bucket.b (depends_on)", "var.n (count)"]);
    assert_eq!(call.arguments[0].expr.references[0].subject.to_string(), "local.y");
    assert_eq!(call.providers[0].in_child, "aws.child");
    assert_eq!(call.providers[0].in_parent, "aws.west");
    let out = &l.config.root.outputs[0];
    let refs: Vec<String> = out.references.iter().map(|r| format!("{} ({})", r.subject, r.context)).collect();
    assert_eq!(refs, ["module.m[0].out (value)", "module.m (depends_on)"]);
}
