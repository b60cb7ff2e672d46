#![cfg(not(target_arch = "wasm32"))]
//! Every diagnostic the loader emits: exact summary, detail and range, in Terraform's words.

use std::collections::BTreeMap;
use tfgraph::config::{load, LoadOptions};

/// Load `main.tf` (or the given files) and return `(summary, detail, range)` of every diagnostic.
fn diags_of(list: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let l = load(&files, &LoadOptions::default());
    l.diagnostics
        .iter()
        .map(|d| (d.summary.clone(), d.detail.clone(), d.range.as_ref().map(|r| r.to_string()).unwrap_or_default()))
        .collect()
}

fn check(name: &str, list: &[(&str, &str)], want: &[(&str, &str, &str)]) -> Option<String> {
    let got = diags_of(list);
    let want: Vec<(String, String, String)> =
        want.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    (got != want).then(|| format!("{name}\n   got:  {got:#?}\n   want: {want:#?}"))
}

#[test]
fn duplicates() {
    let cases: Vec<(&str, &str, (&str, &str, &str))> = vec![
        (
            "resource",
            "resource \"aws_instance\" \"web\" {}\nresource \"aws_instance\" \"web\" {}\n",
            ("Duplicate resource \"aws_instance\" configuration", "A aws_instance resource named \"web\" was already declared at main.tf:1,1-30. Resource names must be unique per type in each module.", "main.tf:2,1-30"),
        ),
        (
            "data",
            "data \"aws_ami\" \"u\" {}\ndata \"aws_ami\" \"u\" {}\n",
            ("Duplicate data \"aws_ami\" configuration", "A aws_ami data resource named \"u\" was already declared at main.tf:1,1-19. Resource names must be unique per type in each module.", "main.tf:2,1-19"),
        ),
        (
            "ephemeral",
            "ephemeral \"random_password\" \"p\" {}\nephemeral \"random_password\" \"p\" {}\n",
            ("Duplicate ephemeral \"random_password\" configuration", "A random_password ephemeral resource named \"p\" was already declared at main.tf:1,1-32. Resource names must be unique per type in each module.", "main.tf:2,1-32"),
        ),
        (
            "variable",
            "variable \"x\" {}\nvariable \"x\" {}\n",
            ("Duplicate variable declaration", "A variable named \"x\" was already declared at main.tf:1,1-13. Variable names must be unique within a module.", "main.tf:2,1-13"),
        ),
        (
            "local",
            "locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n",
            ("Duplicate local value definition", "A local value named \"a\" was already defined at main.tf:2,3-8. Local value names must be unique within a module.", "main.tf:5,3-8"),
        ),
        (
            "output",
            "output \"o\" {\n  value = 1\n}\noutput \"o\" {\n  value = 2\n}\n",
            ("Duplicate output definition", "An output named \"o\" was already defined at main.tf:1,1-11. Output names must be unique within a module.", "main.tf:4,1-11"),
        ),
        (
            "module call",
            "module \"m\" {\n  source = \"x/y/z\"\n}\nmodule \"m\" {\n  source = \"x/y/z\"\n}\n",
            ("Duplicate module call", "A module call named \"m\" was already defined at main.tf:1,1-11. Module calls must have unique names within a module.", "main.tf:4,1-11"),
        ),
        (
            "default provider",
            "provider \"aws\" {}\nprovider \"aws\" {}\n",
            ("Duplicate provider configuration", "A default (non-aliased) provider configuration for \"aws\" was already given at main.tf:1,1-15. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", "main.tf:2,1-15"),
        ),
        (
            "aliased provider",
            "provider \"aws\" {\n  alias = \"w\"\n}\nprovider \"aws\" {\n  alias = \"w\"\n}\n",
            ("Duplicate provider configuration", "A provider configuration for \"aws\" with alias \"w\" was already given at main.tf:1,1-15. Each configuration for the same provider must have a distinct alias.", "main.tf:4,1-15"),
        ),
        (
            "required_providers blocks",
            "terraform {\n  required_providers {}\n}\nterraform {\n  required_providers {}\n}\n",
            ("Duplicate required providers configuration", "A module may have only one required providers configuration. The required providers were previously configured at main.tf:2,3-21.", "main.tf:5,3-21"),
        ),
        (
            "check",
            "check \"c\" {\n  assert {\n    condition     = path.module != \"\"\n    error_message = \"x\"\n  }\n}\ncheck \"c\" {\n  assert {\n    condition     = path.module != \"\"\n    error_message = \"x\"\n  }\n}\n",
            ("Duplicate check \"c\" configuration", "A check block named \"c\" was already declared at main.tf:1,1-10. Check blocks must be unique within each module.", "main.tf:7,1-10"),
        ),
        (
            "argument",
            "locals {\n  a = 1\n  a = 2\n}\n",
            ("Attribute redefined", "The argument \"a\" was already set at main.tf:2,3-4. Each argument may be set only once.", "main.tf:3,3-4"),
        ),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(n, text, want)| {
            // Registry sources also warn that the module is not installed.
            let got: Vec<_> =
                diags_of(&[("main.tf", text)]).into_iter().filter(|d| d.0 != "Module not installed").collect();
            let want = vec![(want.0.to_string(), want.1.to_string(), want.2.to_string())];
            (got != want).then(|| format!("{n}\n   got:  {got:#?}\n   want: {want:#?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn duplicates_across_files_and_json() {
    let f = check(
        "across files",
        &[("a.tf", "variable \"x\" {}\n"), ("b.tf.json", "{\"variable\": {\"x\": {}}}")],
        &[("Duplicate variable declaration", "A variable named \"x\" was already declared at a.tf:1,1-13. Variable names must be unique within a module.", "b.tf.json:1,15-18")],
    );
    assert!(f.is_none(), "{}", f.unwrap());
    let f = check(
        "required provider entry in JSON",
        &[("main.tf.json", "{\"terraform\": {\"required_providers\": {\"aws\": {}, \"aws\": {}}}}")],
        &[(
            "Duplicate argument",
            "The argument \"aws\" was already set at main.tf.json:1,39-44.",
            "main.tf.json:1,50-55",
        )],
    );
    assert!(f.is_none(), "{}", f.unwrap());
}

#[test]
fn schema_violations() {
    let cases: Vec<(&str, &str, Vec<(&str, &str, &str)>)> = vec![
        ("top-level block", "resourc \"a\" \"b\" {}\n", vec![("Unsupported block type", "Blocks of type \"resourc\" are not expected here. Did you mean \"resource\"?", "main.tf:1,1-8")]),
        ("top-level argument", "foo = 1\n", vec![("Unsupported argument", "An argument named \"foo\" is not expected here.", "main.tf:1,1-4")]),
        ("lifecycle argument", "resource \"a\" \"b\" {\n  lifecycle {\n    prevent_destroi = true\n  }\n}\n", vec![("Unsupported argument", "An argument named \"prevent_destroi\" is not expected here. Did you mean \"prevent_destroy\"?", "main.tf:3,5-20")]),
        ("lifecycle block", "resource \"a\" \"b\" {\n  lifecycle {\n    foo {}\n  }\n}\n", vec![("Unsupported block type", "Blocks of type \"foo\" are not expected here.", "main.tf:3,5-8")]),
        ("variable argument", "variable \"v\" {\n  defaults = 1\n}\n", vec![("Unsupported argument", "An argument named \"defaults\" is not expected here. Did you mean \"default\"?", "main.tf:2,3-11")]),
        ("terraform block", "terraform {\n  backend_x \"s3\" {}\n}\n", vec![("Unsupported block type", "Blocks of type \"backend_x\" are not expected here. Did you mean \"backend\"?", "main.tf:2,3-12")]),
        ("missing label", "resource \"a\" {}\n", vec![("Missing name for resource", "All resource blocks must have 2 labels (type, name).", "main.tf:1,14-15")]),
        ("extra label", "variable \"a\" \"b\" {}\n", vec![("Extraneous label for variable", "Only 1 labels (name) are expected for variable blocks.", "main.tf:1,14-17")]),
        ("no labels expected", "locals \"x\" {}\n", vec![("Extraneous label for locals", "No labels are expected for locals blocks.", "main.tf:1,8-11")]),
        ("required_providers at top level", "required_providers {}\n", vec![("Invalid required_providers block", "A \"required_providers\" block must be nested inside a \"terraform\" block.", "main.tf:1,1-19")]),
        ("missing source", "module \"m\" {}\n", vec![("Missing required argument", "The argument \"source\" is required, but no definition was found.", "main.tf:1,1-11")]),
        ("missing value", "output \"o\" {}\n", vec![("Missing required argument", "The argument \"value\" is required, but no definition was found.", "main.tf:1,1-11")]),
        ("count and for_each", "resource \"a\" \"b\" {\n  count    = 1\n  for_each = {}\n}\n", vec![("Invalid combination of \"count\" and \"for_each\"", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.", "main.tf:3,3-11")]),
        ("quoted provider", "resource \"a\" \"b\" {\n  provider = \"aws.west\"\n}\n", vec![("Invalid provider configuration reference", "A provider configuration reference must not be given in quotes.", "main.tf:2,14-24")]),
        ("provider shape", "resource \"a\" \"b\" {\n  provider = aws.west.x\n}\n", vec![("Invalid provider configuration reference", "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.", "main.tf:2,14-24")]),
        ("ignore_changes wildcard", "resource \"a\" \"b\" {\n  lifecycle {\n    ignore_changes = [\"*\"]\n  }\n}\n", vec![("Invalid ignore_changes wildcard", "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.", "main.tf:3,23-26")]),
        ("quoted ignore_changes", "resource \"a\" \"b\" {\n  lifecycle {\n    ignore_changes = [\"tags\"]\n  }\n}\n", vec![("Quoted references are deprecated", "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.", "main.tf:3,23-29")]),
        ("provisioner when", "resource \"a\" \"b\" {\n  provisioner \"x\" {\n    when = later\n  }\n}\n", vec![("Invalid \"when\" keyword", "The \"when\" argument requires one of the following keywords: create or destroy.", "main.tf:3,12-17")]),
        ("provisioner on_failure", "resource \"a\" \"b\" {\n  provisioner \"x\" {\n    on_failure = retry\n  }\n}\n", vec![("Invalid \"on_failure\" keyword", "The \"on_failure\" argument requires one of the following keywords: continue or fail.", "main.tf:3,18-23")]),
        ("source not literal", "module \"m\" {\n  source = var.s\n}\n", vec![("Invalid value for module argument", "The source argument must be a literal string, because it is needed before expressions can be evaluated.", "main.tf:2,12-17")]),
        ("invalid resource name", "resource \"a\" \"1b\" {}\n", vec![("Invalid resource name", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", "main.tf:1,14-18")]),
        ("duplicate lifecycle", "resource \"a\" \"b\" {\n  lifecycle {}\n  lifecycle {}\n}\n", vec![("Duplicate lifecycle block", "This resource already has a lifecycle block at main.tf:2,3-12.", "main.tf:3,3-12")]),
    ];
    let failures: Vec<String> =
        cases.iter().filter_map(|(n, text, want)| check(n, &[("main.tf", text)], want)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_schema_violations() {
    let cases: Vec<(&str, &str, Vec<(&str, &str, &str)>)> = vec![
        ("extraneous property", "{\"resourc\": {}}", vec![("Extraneous JSON object property", "No argument or block type is named \"resourc\". Did you mean \"resource\"?", "main.tf.json:1,2-11")]),
        ("block not an object", "{\"resource\": {\"a\": {\"b\": 1}}}", vec![("Incorrect JSON value type", "Either a JSON object or a JSON array is required, representing the contents of one or more \"resource\" blocks.", "main.tf.json:1,26-27")]),
        ("missing label", "{\"resource\": {\"a\": {}}}", vec![("Missing block label", "At least one object property is required, whose name represents the resource block's name.", "main.tf.json:1,20-21")]),
        ("label not an object", "{\"variable\": 1}", vec![("Incorrect JSON value type", "Either a JSON object or JSON array of objects is required here, to specify name labels for this block.", "main.tf.json:1,14-15")]),
    ];
    let failures: Vec<String> =
        cases.iter().filter_map(|(n, text, want)| check(n, &[("main.tf.json", text)], want)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Syntax errors in HCL's own words and ranges (the parser's texts are checked against
/// Terraform 1.0.3 and hcl v2.24.0's source in tests/hcl_syntax_errors.rs); an empty range is widened by one character as
/// Terraform's JSON diagnostics widen it (at the end of the file: one byte past it). HCL keeps what it could
/// parse, so a block with a broken header is still decoded (here: an unsupported block type).
#[test]
fn syntax_errors() {
    let invalid_character = ("Invalid character", "This character is not used within the language.");
    let cases: Vec<(&str, &str, &str, Vec<(&str, &str, &str)>)> = vec![
        ("unclosed block", "main.tf", "resource \"a\" \"b\" {\n  x = 1\n", vec![("Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "main.tf:1,18-19")]),
        ("missing value", "main.tf", "locals {\n  x = \n}\n", vec![("Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "main.tf:2,7-3,1")]),
        (
            "bare words",
            "main.tf",
            "foo bar baz\n",
            vec![
                ("Invalid block definition", "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.", "main.tf:1,12-2,1"),
                ("Unsupported block type", "Blocks of type \"foo\" are not expected here.", "main.tf:1,1-4"),
            ],
        ),
        ("two arguments on a line", "main.tf", "locals {\n  x = 1 y = 2\n}\n", vec![("Missing newline after argument", "An argument definition must end with a newline.", "main.tf:2,9-10")]),
        (
            "garbage",
            "main.tf",
            "\u{1}\u{2}\u{3}",
            vec![
                (invalid_character.0, invalid_character.1, "main.tf:1,1-2"),
                (invalid_character.0, invalid_character.1, "main.tf:1,2-3"),
                (invalid_character.0, invalid_character.1, "main.tf:1,3-4"),
                ("Argument or block definition required", "An argument or block definition is required here.", "main.tf:1,1-2"),
            ],
        ),
        ("unbalanced list", "main.tf", "locals {\n  x = [1, 2\n}\n", vec![("Missing item separator", "Expected a comma to mark the beginning of the next item.", "main.tf:3,1-2")]),
        ("unbalanced parens", "main.tf", "locals {\n  x = (1\n}\n", vec![("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "main.tf:3,1-2")]),
        ("json unclosed", "main.tf.json", "{\"locals\": {", vec![("Unclosed object", "No closing brace was found for this JSON object.", "main.tf.json:1,12-13")]),
        ("json equals", "main.tf.json", "{\"locals\" = {}}", vec![("Missing property value colon", "JSON uses a colon as its name/value delimiter, not an equals sign.", "main.tf.json:1,11-12")]),
        ("json trailing comma", "main.tf.json", "{\"locals\": {},}", vec![("Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", "main.tf.json:1,14-15")]),
        ("json keyword", "main.tf.json", "{\"locals\": nul}", vec![("Invalid JSON keyword", "\"nul\" is not a valid JSON keyword.", "main.tf.json:1,12-15")]),
        (
            // The template's own offsets map back into the file: HCL 2.24 points at the `${`.
            "json template",
            "main.tf.json",
            "{\"locals\": {\"a\": \"${var.x\"}}",
            vec![("Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.", "main.tf.json:1,19-21")],
        ),
        (
            // Escapes before the error: the range still lands on the extra `y`.
            "json template after escapes",
            "main.tf.json",
            "{\"locals\": {\"a\": \"\\u00e9\\\"${var.x y}\"}}",
            vec![("Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "main.tf.json:1,35-36")],
        ),
    ];
    let failures: Vec<String> =
        cases.iter().filter_map(|(n, file, text, want)| check(n, &[(file, text)], want)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// At the very end of a file an empty subject is widened one byte and one column past the end,
/// as `terraform validate -json` showed for `eof_after_op` and the other end-of-file cases of
/// tests/hcl_syntax_errors.rs (`views/json/diagnostic.go`).
#[test]
fn empty_range_at_end_of_file_is_widened_past_it() {
    let text = "locals {\n  x = 1 +";
    let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
    let l = load(&files, &LoadOptions::default());
    let d = l.diagnostics.iter().find(|d| d.summary == "Missing expression").expect("a missing expression");
    let r = d.range.as_ref().unwrap();
    assert_eq!((r.start.line, r.start.column, r.start.byte), (2, 10, text.len() as u32));
    assert_eq!((r.end.line, r.end.column, r.end.byte), (2, 11, text.len() as u32 + 1));
    assert_eq!(d.detail, "Expected the start of an expression, but found the end of the file.");
}

#[test]
fn loading_continues_past_a_syntax_error() {
    let files: BTreeMap<String, String> = [
        (
            "a.tf".to_string(),
            "resource \"a\" \"ok\" {}\nresource \"a\" \"broken\" {\n  x = \n  y = 1\n}\nresource \"a\" \"after\" {}\n"
                .to_string(),
        ),
        ("b.tf".to_string(), "variable \"v\" {}\n".to_string()),
    ]
    .into();
    let l = load(&files, &LoadOptions::default());
    assert_eq!(l.diagnostics.len(), 1);
    // HCL recovers after the broken argument: the broken block and those around it are kept, as
    // Terraform decodes them.
    let names: Vec<&str> = l.config.root.resources.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["ok", "broken", "after"]);
    assert_eq!(l.config.root.variables.len(), 1, "other files still load");
}

#[test]
fn too_deep_nesting_is_reported_at_the_spot() {
    let text = format!("locals {{\n  x = {}1{}\n}}\n", "[".repeat(300), "]".repeat(300));
    let got = diags_of(&[("main.tf", &text)]);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, "Expression too deeply nested");
    assert_eq!(got[0].1, "This expression nests more than 256 levels deep, which is more than this tool supports.");
    assert_eq!(got[0].2, "main.tf:2,262-263");
    let text = format!("locals {{\n  x = {}1{}\n}}\n", "(".repeat(300), ")".repeat(300));
    assert_eq!(diags_of(&[("main.tf", &text)])[0].0, "Expression too deeply nested");
    let text = format!("{{\"locals\": {}{}}}", "[".repeat(300), "]".repeat(300));
    let got = diags_of(&[("main.tf.json", &text)]);
    assert_eq!(got[0].0, "Expression too deeply nested");
}

#[test]
fn module_diagnostics() {
    let f = check(
        "not installed",
        &[("main.tf", "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n")],
        &[("Module not installed", "This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration.", "main.tf:2,12-43")],
    );
    assert!(f.is_none(), "{}", f.unwrap());
    let got = diags_of(&[("x/main.tf", "")]);
    assert_eq!(
        got,
        [(
            "No configuration files".to_string(),
            "The directory . contains no Terraform configuration files.".to_string(),
            String::new()
        )]
    );
}

#[test]
fn override_diagnostics() {
    let f = check(
        "override without base",
        &[
            ("main.tf", "locals {\n  a = 1\n}\n"),
            ("x_override.tf", "variable \"v\" {}\nlocals {\n  b = 1\n}\noutput \"o\" {}\nmodule \"m\" {}\nimport {\n  to = a.b\n  id = \"x\"\n}\n"),
        ],
        &[
            ("Missing base variable declaration to override", "There is no variable named \"v\". An override file can only override a variable that was already declared in a primary configuration file.", "x_override.tf:1,1-13"),
            ("Missing base local value definition to override", "There is no local value named \"b\". An override file can only override a local value that was already defined in a primary configuration file.", "x_override.tf:3,3-8"),
            ("Missing base output definition to override", "There is no output named \"o\". An override file can only override an output that was already defined in a primary configuration file.", "x_override.tf:5,1-11"),
            ("Missing module call to override", "There is no module call named \"m\". An override file can only override a module call that was defined in a primary configuration file.", "x_override.tf:6,1-11"),
            ("Cannot override 'import' blocks", "Import blocks can appear only in normal files, not in override files.", "x_override.tf:7,1-7"),
        ],
    );
    assert!(f.is_none(), "{}", f.unwrap());
}

#[test]
fn diagnostics_serialize_in_terraform_json_shape() {
    let files: BTreeMap<String, String> = [("main.tf".to_string(), "locals {\n  x = var\n}\n".to_string())].into();
    let l = load(&files, &LoadOptions::default());
    let v = serde_json::to_value(&l.diagnostics).unwrap();
    assert_eq!(v[0]["severity"], "error");
    assert_eq!(v[0]["summary"], "Invalid reference");
    assert_eq!(v[0]["range"]["filename"], "main.tf");
    assert_eq!(v[0]["range"]["start"], serde_json::json!({"line": 2, "column": 7, "byte": 15}));
    assert_eq!(v[0]["range"]["end"], serde_json::json!({"line": 2, "column": 10, "byte": 18}));
}

/// Terraform 1.15's `validateProviderConfigs` (`internal/configs/provider_validation.go`): a
/// child module's `provider` block that configures anything (or sets `version`) cannot take a
/// configuration passed in under the same name; an empty one is a proxy and can. The range is
/// the child-side name of the `providers` entry (`PassedProviderConfig.InChild.NameRange`); the
/// real Terraform 1.0.3 reports the first case at exactly `main.tf:8,5-9` (with its older
/// wording, "Provider mock is configured within the module module.child and cannot be
/// overridden.").
#[test]
fn provider_block_with_arguments_cannot_be_overridden() {
    let main = "provider \"mock\" {\n  alias = \"x\"\n  label = \"root-x\"\n}\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    mock = mock.x\n  }\n}\n";
    let resource = "resource \"mock_resource\" \"c\" {\n  name = \"c\"\n}\n";
    let detail = |m: &str, n: &str, p: &str| {
        format!("The configuration of {m} has its own local configuration for {n}, and so it cannot accept an overridden configuration provided by {p}.")
    };
    let configured = format!("provider \"mock\" {{\n  label = \"child\"\n}}\n{resource}");
    let d = detail("module.child", "mock", "the root module");
    // The child declares no `mock`: Terraform 1.15 also warns about that (see
    // `undefined_provider_names` below), at the same place.
    let undeclared = |m: &str, n: &str| {
        format!("There is no explicit declaration for local provider name {n:?} in {m}, so Terraform is assuming you mean to pass a configuration for \"hashicorp/mock\".\n\nIf you also control the child module, add a required_providers entry named {n:?} with the source address \"hashicorp/mock\".")
    };
    let u = undeclared("module.child", "mock");
    let redundant = |m: &str, aliases: &str| {
        format!("Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"mock\" blocks and then adding or updating an entry like the following to the required_providers block of {m}:\n    mock = {{\n      source = \"hashicorp/mock\"\n{aliases}    }}")
    };
    let mut failures: Vec<String> = Vec::new();
    failures.extend(check(
        "configured child block",
        &[("main.tf", main), ("child/main.tf", &configured)],
        &[
            ("Cannot override provider configuration", &d, "main.tf:8,5-9"),
            ("Reference to undefined provider", &u, "main.tf:8,5-9"),
        ],
    ));
    let version_only = format!("provider \"mock\" {{\n  version = \"1.0\"\n}}\n{resource}");
    failures.extend(check(
        "a version constraint counts as configured",
        &[("main.tf", main), ("child/main.tf", &version_only)],
        &[
            ("Cannot override provider configuration", &d, "main.tf:8,5-9"),
            ("Reference to undefined provider", &u, "main.tf:8,5-9"),
        ],
    ));
    let empty = format!("provider \"mock\" {{}}\n{resource}");
    failures.extend(check(
        "empty child block: a proxy",
        &[("main.tf", main), ("child/main.tf", &empty)],
        &[("Redundant empty provider block", &redundant("module.child", ""), "child/main.tf:1,1-16")],
    ));
    let aliased_empty = format!("provider \"mock\" {{\n  alias = \"y\"\n}}\n{resource}");
    let passes_alias = main.replace("mock = mock.x", "mock.y = mock.x");
    failures.extend(check(
        "empty aliased block",
        &[("main.tf", &passes_alias), ("child/main.tf", &aliased_empty)],
        &[(
            "Redundant empty provider block",
            &redundant("module.child", "      configuration_aliases = [\n        mock.y,\n      ]\n"),
            "child/main.tf:1,1-16",
        )],
    ));
    let aliased_configured = format!("provider \"mock\" {{\n  alias = \"y\"\n  label = \"y\"\n}}\n{resource}");
    let d_alias = detail("module.child", "mock.y", "the root module");
    failures.extend(check(
        "configured aliased block",
        &[("main.tf", &passes_alias), ("child/main.tf", &aliased_configured)],
        &[
            ("Cannot override provider configuration", &d_alias, "main.tf:8,5-9"),
            ("Reference to undefined provider", &undeclared("module.child", "mock.y"), "main.tf:8,5-9"),
        ],
    ));
    // One level down: the parent text names the calling module.
    let child_calls =
        format!("module \"g\" {{\n  source = \"./g\"\n  providers = {{\n    mock = mock\n  }}\n}}\n{empty}");
    let d_grand = detail("module.child.module.g", "mock", "module.child");
    failures.extend(check(
        "grandchild",
        &[("main.tf", main), ("child/main.tf", &child_calls), ("child/g/main.tf", &configured)],
        &[
            // Children first: module.child.module.g's own checks, then module.child's.
            ("Cannot override provider configuration", &d_grand, "child/main.tf:4,5-9"),
            ("Reference to undefined provider", &undeclared("module.child.module.g", "mock"), "child/main.tf:4,5-9"),
            // module.child passes on `mock` from an empty block, not a declaration.
            (
                "Reference to undefined provider",
                "There is no explicit declaration for local provider name \"mock\" in module.child, so Terraform is assuming you mean to pass a configuration for provider \"hashicorp/mock\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"mock\" with source = \"hashicorp/mock\", or a different source address if appropriate.",
                "child/main.tf:4,12-16",
            ),
            ("Redundant empty provider block", &redundant("module.child", ""), "child/main.tf:7,1-16"),
        ],
    ));
    // JSON syntax: HCL parses the key's contents from its opening quote (json.expression.AsTraversal
    // passes the string's SrcRange.Start), so the name range starts at the quote.
    let json = r#"{"module": {"child": {"source": "./child", "providers": {"mock": "mock.x"}}}, "provider": {"mock": {"alias": "x"}}}"#;
    failures.extend(check(
        "JSON call",
        &[("main.tf.json", json), ("child/main.tf", &configured)],
        &[
            ("Cannot override provider configuration", &d, "main.tf.json:1,58-62"),
            ("Reference to undefined provider", &u, "main.tf.json:1,58-62"),
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The loaded model says which blocks are empty.
    let files: BTreeMap<String, String> =
        [("main.tf".to_string(), main.to_string()), ("child/main.tf".to_string(), empty.clone())].into();
    let l = load(&files, &LoadOptions::default());
    assert!(!l.config.root.providers[0].empty, "alias and an argument");
    assert!(l.config.root.module_calls[0].module.as_ref().unwrap().providers[0].empty);
}

// ---- validateProviderConfigs (internal/configs/provider_validation.go) ----------------------
//
// Texts are Terraform 1.15's. Oracle 1.0.3 (`terraform validate -json` after `init`) has older
// wording for all of these; where noted it was run on the same configuration and agreed on the
// condition (and on the range, unless said otherwise).

/// Terraform's own fixtures for these checks (`internal/configs/testdata/config-diagnostics`,
/// `TestBuildConfigInvalidModules`): each expected line is a substring of some diagnostic's
/// `file:range: summary; detail`, and there are no other errors. Their module sources are
/// written relative to the module here (Terraform's test resolves them from the fixture root).
#[test]
fn terraform_config_diagnostics_fixtures() {
    let rp = |entries: &str| format!("terraform {{\n  required_providers {{\n{entries}  }}\n}}\n");
    let cases: Vec<(&str, Vec<(String, String)>, Vec<&str>, Vec<&str>)> = vec![
        (
            "empty-configs",
            vec![
                ("main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n    }\n    baz = {\n      source = \"hashicorp/baz\"\n    }\n") + "\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    foo = foo\n    foo.bar = foo\n    baz = baz\n    baz.bing = baz\n  }\n}\n"),
                ("mod/main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n      configuration_aliases = [ foo.bar ]\n    }\n") + "\nprovider \"foo\" {\n}\n\nprovider \"foo\" {\n  alias = \"bar\"\n}\n\nprovider \"baz\" {\n}\n\nprovider \"baz\" {\n  alias = \"bing\"\n}\n"),
            ],
            vec![],
            vec![
                "mod/main.tf:10,1-15: Redundant empty provider block; Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"foo\" blocks and then adding or updating an entry like the following to the required_providers block of module.mod:",
                "mod/main.tf:17,1-15: Redundant empty provider block; Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"baz\" blocks and then adding or updating an entry like the following to the required_providers block of module.mod:",
            ],
        ),
        (
            "incorrect-type",
            vec![
                ("main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n    }\n    baz = {\n      source = \"hashicorp/baz\"\n    }\n") + "\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    foo = foo\n    baz = baz\n  }\n}\n"),
                ("mod/main.tf".into(), rp("    foo = {\n      source = \"example.com/vendor/foo\"\n    }\n") + "\nresource \"foo_resource\" \"a\" {\n}\n\n// implied default provider baz\nresource \"baz_resource\" \"a\" {\n}\n"),
            ],
            vec!["main.tf:15,11-14: Provider type mismatch; The local name \"foo\" in the root module represents provider \"hashicorp/foo\", but \"foo\" in module.mod represents \"example.com/vendor/foo\"."],
            vec!["main.tf:16,5-8: Reference to undefined provider; There is no explicit declaration for local provider name \"baz\" in module.mod, so Terraform is assuming you mean to pass a configuration for \"hashicorp/baz\"."],
        ),
        (
            "nested-provider",
            vec![
                ("root.tf".into(), "module \"child\" {\n  count = 1\n  source = \"./child\"\n}\n".into()),
                ("child/main.tf".into(), "module \"child2\" {\n  source = \"./child2\"\n}\n".into()),
                ("child/child2/main.tf".into(), "provider \"aws\" {\n  value = \"foo\"\n}\n\noutput \"my_output\" {\n  value = \"my output\"\n}\n".into()),
            ],
            vec!["root.tf:2,11-12: Module is incompatible with count, for_each, and depends_on; The module at module.child.module.child2 is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments."],
            vec![],
        ),
        (
            "override-provider",
            vec![
                ("main.tf".into(), rp("    bar = {\n      version = \"~>1.0.0\"\n    }\n") + "\nprovider \"bar\" {\n  value = \"not ok\"\n}\n\n// this module configures its own provider, which cannot be overridden\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    bar = bar\n  }\n}\n"),
                ("mod/main.tf".into(), rp("    bar = {\n      version = \"~>1.0.0\"\n    }\n") + "\n// this configuration cannot be overridden from an outside module\nprovider \"bar\" {\n  value = \"ok\"\n}\n"),
            ],
            vec!["main.tf:17,5-8: Cannot override provider configuration; The configuration of module.mod has its own local configuration for bar, and so it cannot accept an overridden configuration provided by the root module."],
            vec![],
        ),
        (
            "pass-inherited-provider",
            vec![
                ("main.tf".into(), "provider \"test\" {\n  value = \"ok\"\n}\n\nmodule \"mod\" {\n  source = \"./mod\"\n}\n".into()),
                ("mod/main.tf".into(), rp("    test = {\n      source = \"hashicorp/test\"\n    }\n") + "\nmodule \"mod2\" {\n  source = \"../mod2\"\n\n  // the test provider is named here, but a config must be supplied from the\n  // parent module.\n  providers = {\n    test.foo = test\n  }\n}\n"),
                ("mod2/main.tf".into(), rp("    test = {\n      source = \"hashicorp/test\"\n      configuration_aliases = [test.foo]\n    }\n") + "\nresource \"test_resource\" \"foo\" {\n  provider = test.foo\n}\n"),
            ],
            vec![],
            vec!["main.tf:5,1-13: Missing required provider configuration; The configuration for module.mod expects to inherit a configuration for provider hashicorp/test with local name \"test\", but the root module doesn't pass a configuration under that name."],
        ),
        (
            "required-alias",
            vec![
                ("main.tf".into(), "module \"mod\" {\n  source = \"./mod\"\n  // missing providers with foo.bar provider config\n}\n".into()),
                ("mod/main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n      version = \"1.0.0\"\n      configuration_aliases = [ foo.bar ]\n    }\n") + "\nresource \"foo_resource\" \"a\" {\n  provider = foo.bar\n}\n"),
            ],
            vec!["main.tf:1,1-13: Missing required provider configuration; The child module requires an additional configuration for provider hashicorp/foo, with the local name \"foo.bar\"."],
            vec![],
        ),
        (
            "unexpected-provider",
            vec![
                ("main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n      version = \"1.0.0\"\n    }\n") + "\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    foo = foo\n  }\n}\n"),
                ("mod/main.tf".into(), "resource \"foo_resource\" \"a\" {\n}\n".into()),
            ],
            vec![],
            vec!["main.tf:13,5-8: Reference to undefined provider; There is no explicit declaration for local provider name \"foo\" in module.mod, so Terraform is assuming you mean to pass a configuration for \"hashicorp/foo\"."],
        ),
        (
            "unknown-root-provider",
            vec![
                ("main.tf".into(), "module \"mod\" {\n  source = \"./mod\"\n  providers = {\n    // bar may be required by the module, but the name is not defined here\n    bar = bar\n  }\n}\n".into()),
                ("mod/main.tf".into(), rp("    bar = {\n      version = \"~>1.0.0\"\n    }\n") + "\nresource \"bar_resource\" \"x\" {\n}\n"),
            ],
            vec![],
            vec!["main.tf:5,11-14: Reference to undefined provider; There is no explicit declaration for local provider name \"bar\" in the root module, so Terraform is assuming you mean to pass a configuration for provider \"hashicorp/bar\"."],
        ),
        (
            "with-depends-on",
            vec![
                ("main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n    }\n") + "\nmodule \"mod2\" {\n  source = \"./mod1\"\n  providers = {\n    foo = foo\n  }\n}\n"),
                ("mod1/main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n    }\n") + "\nresource \"foo_resource\" \"a\" {\n}\n\nmodule \"mod2\" {\n  depends_on = [foo_resource.a]\n  source = \"./mod2\"\n  providers = {\n    foo = foo\n  }\n}\n"),
                ("mod1/mod2/main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n    }\n") + "\nmodule \"mod3\" {\n  source = \"./mod3\"\n  providers = {\n    foo.bar = foo\n  }\n}\n"),
                ("mod1/mod2/mod3/main.tf".into(), rp("    foo = {\n      source = \"hashicorp/foo\"\n      configuration_aliases = [ foo.bar ]\n    }\n") + "\nresource \"foo_resource\" \"a\" {\n  provider = foo.bar\n}\n"),
            ],
            vec![],
            vec![],
        ),
    ];
    let mut failures = Vec::new();
    for (name, files, errors, warnings) in &cases {
        let list: Vec<(&str, &str)> = files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let l = load(&files, &LoadOptions::default());
        // HCL's `Diagnostic.Error()`: `file:range: summary; detail`.
        let shown: Vec<(bool, String)> = l
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.is_error(),
                    format!(
                        "{}: {}; {}",
                        d.range.as_ref().map(|r| r.to_string()).unwrap_or_default(),
                        d.summary,
                        d.detail
                    ),
                )
            })
            .collect();
        let has =
            |err: bool, want: &str| shown.iter().any(|(e, s)| *e == err && s.replace("\n\n", "\n").contains(want));
        for want in errors {
            if !has(true, want) {
                failures.push(format!("{name}: no error {want:?} in {shown:#?}"));
            }
        }
        for want in warnings {
            if !has(false, want) {
                failures.push(format!("{name}: no warning {want:?} in {shown:#?}"));
            }
        }
        for (e, s) in &shown {
            if *e && !errors.iter().any(|w| s.replace("\n\n", "\n").contains(w)) {
                failures.push(format!("{name}: unexpected error {s:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// validateProviderConfigs: "Module is incompatible with count, for_each, and depends_on", at the
/// nearest call with count / for_each (its expression) or depends_on (its first traversal).
/// Oracle 1.0.3 rejects the same three configurations ("Module module.child.module.g contains
/// provider configuration", with no range).
#[test]
fn provider_blocks_below_repeated_calls() {
    let detail = |m: &str, src: &str| {
        format!("The module at {m} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module {src:?}, consider updating this module to instead expect provider configurations to be passed by its caller.")
    };
    let s = "Module is incompatible with count, for_each, and depends_on";
    let configured = "provider \"mock\" {\n  label = \"g\"\n}\nresource \"mock_resource\" \"r\" {}\n";
    let mut failures = Vec::new();
    // Nested: count on the grandparent's call still forbids the grandchild's block.
    let main = "module \"child\" {\n  count  = 1\n  source = \"./child\"\n}\n";
    let child = "module \"g\" {\n  source = \"./g/\"\n}\n";
    failures.extend(check(
        "count, nested",
        &[("main.tf", main), ("child/main.tf", child), ("child/g/main.tf", configured)],
        &[(s, &detail("module.child.module.g", "./g"), "main.tf:2,12-13")],
    ));
    let fe = "module \"child\" {\n  for_each = toset([\"a\"])\n  source   = \"./child\"\n}\n";
    failures.extend(check(
        "for_each",
        &[("main.tf", fe), ("child/main.tf", configured)],
        &[(s, &detail("module.child", "./child"), "main.tf:2,14-26")],
    ));
    let dep = "module \"child\" {\n  source     = \"./child\"\n  depends_on = [mock_resource.x, mock_resource.y]\n}\nresource \"mock_resource\" \"x\" {}\nresource \"mock_resource\" \"y\" {}\n";
    failures.extend(check(
        "depends_on",
        &[("main.tf", dep), ("child/main.tf", configured)],
        &[(s, &detail("module.child", "./child"), "main.tf:3,17-32")],
    ));
    // The nearest call with count wins; a version argument counts as configured.
    let inner = "module \"g\" {\n  source = \"./g\"\n  count  = 2\n}\n";
    let version_only = "provider \"mock\" {\n  version = \"1.0\"\n}\n";
    failures.extend(check(
        "nearest call",
        &[("main.tf", main), ("child/main.tf", inner), ("child/g/main.tf", version_only)],
        &[(s, &detail("module.child.module.g", "./g"), "child/main.tf:3,12-13")],
    ));
    // Empty blocks are allowed (they only draw the deprecation warning).
    let got = diags_of(&[("main.tf", main), ("child/main.tf", "provider \"mock\" {}\n")]);
    if got.iter().any(|d| d.0 == s) {
        failures.push(format!("empty block: {got:?}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// validateProviderConfigs: `configuration_aliases` need a configuration (error), and a module
/// passing on a provider it did not get (warning). Oracle 1.0.3 gives the error at the same
/// range ("No configuration for provider mock.a").
#[test]
fn required_configuration_aliases() {
    let child = "terraform {\n  required_providers {\n    mock = {\n      source                = \"hashicorp/mock\"\n      configuration_aliases = [mock.a]\n    }\n  }\n}\nresource \"mock_resource\" \"r\" {\n  provider = mock.a\n}\n";
    let want = "The child module requires an additional configuration for provider hashicorp/mock, with the local name \"mock.a\".\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for mock.a in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.";
    let mut failures = Vec::new();
    let main = "module \"child\" {\n  source = \"./child\"\n}\n";
    failures.extend(check(
        "not passed",
        &[("main.tf", main), ("child/main.tf", child)],
        &[("Missing required provider configuration", want, "main.tf:1,1-15")],
    ));
    let passes = "provider \"mock\" {\n  alias = \"b\"\n}\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    mock.a = mock.b\n  }\n}\n";
    failures.extend(check("passed", &[("main.tf", passes), ("child/main.tf", child)], &[]));
    // An empty aliased block in the child is not a configuration (and draws the deprecation warning).
    let with_empty = format!("{child}provider \"mock\" {{\n  alias = \"a\"\n}}\n");
    let got: Vec<String> =
        diags_of(&[("main.tf", main), ("child/main.tf", &with_empty)]).into_iter().map(|d| d.0).collect();
    if got != ["Missing required provider configuration", "Redundant empty provider block"] {
        failures.push(format!("empty aliased block: {got:?}"));
    }
    // Terraform's pass-inherited-provider fixture, one level down: module.child declares `mock`
    // and passes it on, but the root passes it nothing.
    let middle = "terraform {\n  required_providers {\n    mock = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\nmodule \"g\" {\n  source = \"./g\"\n  providers = {\n    mock.a = mock\n  }\n}\n";
    failures.extend(check(
        "not inherited",
        &[("main.tf", main), ("child/main.tf", middle), ("child/g/main.tf", child)],
        &[(
            "Missing required provider configuration",
            "The configuration for module.child expects to inherit a configuration for provider hashicorp/mock with local name \"mock\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"mock\" to the \"providers\" argument in the module \"child\" block.",
            "main.tf:1,1-15",
        )],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// validateProviderConfigs: "Reference to undefined provider", from the caller's side (the value
/// names nothing declared there) and the child's side (the key names nothing declared there; an
/// error unless the type is a hashicorp/ one). Oracle 1.0.3 warns in the first two cases at
/// the same ranges ("Provider mock is undefined").
#[test]
fn undefined_provider_names() {
    let rp = "terraform {\n  required_providers {\n    mock = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\n";
    let call = "module \"child\" {\n  source = \"./child\"\n  providers = {\n    mock = mock\n  }\n}\n";
    let res = "resource \"mock_resource\" \"r\" {}\n";
    let mut failures = Vec::new();
    failures.extend(check(
        "caller side",
        &[("main.tf", call), ("child/main.tf", &format!("{rp}{res}"))],
        &[(
            "Reference to undefined provider",
            "There is no explicit declaration for local provider name \"mock\" in the root module, so Terraform is assuming you mean to pass a configuration for provider \"hashicorp/mock\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"mock\" with source = \"hashicorp/mock\", or a different source address if appropriate.",
            "main.tf:4,12-16",
        )],
    ));
    failures.extend(check(
        "child side",
        &[("main.tf", &format!("{rp}{call}")), ("child/main.tf", res)],
        &[(
            "Reference to undefined provider",
            "There is no explicit declaration for local provider name \"mock\" in module.child, so Terraform is assuming you mean to pass a configuration for \"hashicorp/mock\".\n\nIf you also control the child module, add a required_providers entry named \"mock\" with the source address \"hashicorp/mock\".",
            "main.tf:11,5-9",
        )],
    ));
    // resolveProviderTypes gives an entry the type any sibling call's child declares under its
    // child-side name: module.b takes that non-default type, and the warning becomes an error.
    let other =
        "terraform {\n  required_providers {\n    mock = {\n      source = \"example.com/other/mock\"\n    }\n  }\n}\n";
    let two = "module \"a\" {\n  source = \"./a\"\n  providers = {\n    mock = mock\n  }\n}\nmodule \"b\" {\n  source = \"./b\"\n  providers = {\n    mock = mock\n  }\n}\n";
    failures.extend(check(
        "child side, non-default type",
        &[("main.tf", &format!("{other}{two}")), ("a/main.tf", &format!("{other}{res}")), ("b/main.tf", res)],
        &[(
            "Reference to undefined provider",
            "The child module does not declare any provider requirement with the local name \"mock\".\n\nIf you also control the child module, you can add a required_providers entry named \"mock\" with the source address \"example.com/other/mock\" to accept this provider configuration.",
            "main.tf:17,5-9",
        )],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// validateProviderConfigs: "Provider type mismatch". Oracle 1.0.3 rejects the second case too
/// ("Invalid type for provider ...", at the child-side name where 1.15 points at the caller's).
#[test]
fn passed_provider_type_mismatch() {
    let call = "terraform {\n  required_providers {\n    mock = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    mock = mock\n  }\n}\n";
    let mut failures = Vec::new();
    // The child requires hashicorp/mock under another name: Terraform suggests that name (and
    // says "in the root module" for the child's local name, as its format string does).
    let renamed = "terraform {\n  required_providers {\n    mock = {\n      source = \"example.com/other/mock\"\n    }\n    hmock = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\n";
    failures.extend(check(
        "declared under another name",
        &[("main.tf", call), ("child/main.tf", renamed)],
        &[(
            "Provider type mismatch",
            "The assigned configuration is for provider \"hashicorp/mock\", but local name \"mock\" in the root module represents \"example.com/other/mock\".\n\nTo pass this configuration to the child module, use the local name \"hmock\" instead.",
            "main.tf:11,5-9",
        )],
    ));
    let other =
        "terraform {\n  required_providers {\n    mock = {\n      source = \"example.com/other/mock\"\n    }\n  }\n}\n";
    failures.extend(check(
        "not required by the child",
        &[("main.tf", call), ("child/main.tf", other)],
        &[(
            "Provider type mismatch",
            "The local name \"mock\" in the root module represents provider \"hashicorp/mock\", but \"mock\" in module.child represents \"example.com/other/mock\".\n\nEach provider has its own distinct configuration schema and provider types, so this module's \"mock\" can be assigned only a configuration for example.com/other/mock, which is not required by module.child.",
            "main.tf:11,12-16",
        )],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// validateProviderConfigs: "Redundant empty provider block", one per local name in a child
/// module, at the block whose range sorts first as text; aliased blocks list every empty
/// configuration of the name (the plain one too, as Terraform does). The root module's empty
/// blocks draw nothing. Oracle 1.0.3 warns about the same blocks, one warning per block, with
/// older text.
#[test]
fn redundant_empty_provider_blocks() {
    let text = |name: &str, m: &str, src: &str, aliases: &[&str]| {
        let mut d = format!("Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {name:?} blocks and then adding or updating an entry like the following to the required_providers block of {m}:\n    {name} = {{\n      source = {src:?}\n");
        if !aliases.is_empty() {
            d.push_str("      configuration_aliases = [\n");
            for a in aliases {
                d.push_str(&format!("        {a},\n"));
            }
            d.push_str("      ]\n");
        }
        d + "    }"
    };
    let main = "provider \"mock\" {}\nmodule \"child\" {\n  source = \"./child\"\n}\n";
    // Lines 2 and 10: "child/main.tf:10,…" sorts before "child/main.tf:2,…".
    let child = "terraform {\n  required_providers {\n    other = {\n      source = \"example.com/x/other\"\n    }\n  }\n}\nprovider \"other\" {}\nprovider \"mock\" {}\nprovider \"mock\" {\n  alias = \"b\"\n}\n";
    let child = format!("provider \"mock\" {{\n  alias = \"c\"\n}}\n{child}");
    let f = check(
        "child blocks",
        &[("main.tf", main), ("child/main.tf", &child)],
        &[
            (
                "Redundant empty provider block",
                &text("mock", "module.child", "hashicorp/mock", &["mock", "mock.b", "mock.c"]),
                "child/main.tf:1,1-16",
            ),
            (
                "Redundant empty provider block",
                &text("other", "module.child", "example.com/x/other", &[]),
                "child/main.tf:11,1-17",
            ),
        ],
    );
    assert!(f.is_none(), "{}", f.unwrap());
}

/// validateProviderConfigs: "Duplicate required provider" (warnings) and, for resources with an
/// implied provider, "Invalid provider local name" (error).
#[test]
fn duplicate_required_providers_and_implied_names() {
    let mut failures = Vec::new();
    let two = "terraform {\n  required_providers {\n    mock = {\n      source = \"hashicorp/mock\"\n    }\n    m2 = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\n";
    failures.extend(check(
        "same type twice",
        &[("main.tf", two)],
        &[(
            "Duplicate required provider",
            "Provider hashicorp/mock with the local name \"m2\" was previously required as \"mock\". A provider can only be required once within required_providers.",
            "main.tf:6,10-8,6",
        )],
    ));
    let renamed = "terraform {\n  required_providers {\n    m2 = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\nprovider \"mock\" {}\n";
    failures.extend(check(
        "configured under the type name",
        &[("main.tf", renamed)],
        &[(
            "Duplicate required provider",
            "Provider hashicorp/mock with the local name \"m2\" was implicitly required via a configuration block as \"mock\". The provider configuration block name must match the name used in required_providers.",
            "main.tf:3,10-5,6",
        )],
    ));
    let resource = "terraform {\n  required_providers {\n    m2 = {\n      source = \"hashicorp/mock\"\n    }\n  }\n}\nresource \"mock_resource\" \"r\" {}\ndata \"mock_data\" \"d\" {}\nresource \"mock_resource\" \"p\" {\n  provider = m2\n}\n";
    let implied = |addr: &str| {
        format!("Provider \"registry.terraform.io/hashicorp/mock\" was implicitly required via resource {addr:?}, but listed in required_providers as \"m2\". Either the local name in required_providers must match the resource name, or the \"m2\" provider must be assigned within the resource block.")
    };
    failures.extend(check(
        "implied by resources",
        &[("main.tf", resource)],
        &[
            ("Duplicate required provider", &implied("mock_resource.r"), "main.tf:8,1-29"),
            ("Duplicate required provider", &implied("data.mock_data.d"), "main.tf:9,1-21"),
        ],
    ));
    failures.extend(check(
        "invalid implied name",
        &[("main.tf", "resource \"mo--ck_resource\" \"r\" {}\nresource \"_x\" \"r\" {}\n")],
        &[
            (
                "Invalid provider local name",
                "\"mo--ck\" is an invalid implied provider local name: cannot use multiple consecutive dashes",
                "main.tf:1,1-31",
            ),
            (
                "Invalid provider local name",
                "\"\" is an invalid implied provider local name: must have at least one character",
                "main.tf:2,1-18",
            ),
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
