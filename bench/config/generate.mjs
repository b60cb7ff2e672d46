// Seeded generator of a large, realistic Terraform configuration for the loading benchmark.
//
// `generate({ seed, resources })` returns `{ files, root, stats }`: `files` maps slash-separated
// paths to contents (the shape `loadConfig` takes), the root module is the top level. The
// configuration looks like a big real one: `resource`/`data` blocks spread over many files, each
// referring to 1–3 recently declared resources (by `.id`, `[0].arn`, `["key"].name`, splats),
// variables and locals; some `count` / `for_each`, nested and `dynamic` blocks, `lifecycle`,
// `depends_on`, templates and heredocs; outputs; and a few local modules called with arguments
// (one with `count`, one with `for_each`). Same seed, same bytes.
//
// Run directly to write the files to a folder: `node bench/config/generate.mjs [outDir] [resources] [seed]`.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** mulberry32: a tiny deterministic PRNG (same seed → same configuration on every machine). */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const TYPES = [
  ["aws_instance", ["ami", "instance_type", "subnet_id", "key_name"]],
  ["aws_security_group", ["name", "description", "vpc_id"]],
  ["aws_subnet", ["vpc_id", "cidr_block", "availability_zone"]],
  ["aws_s3_bucket", ["bucket", "force_destroy"]],
  ["aws_iam_role", ["name", "assume_role_policy", "path"]],
  ["aws_iam_role_policy_attachment", ["role", "policy_arn"]],
  ["aws_lb", ["name", "internal", "load_balancer_type"]],
  ["aws_lb_target_group", ["name", "port", "protocol", "vpc_id"]],
  ["aws_route53_record", ["zone_id", "name", "type", "ttl"]],
  ["aws_cloudwatch_log_group", ["name", "retention_in_days", "kms_key_id"]],
  ["aws_kms_key", ["description", "deletion_window_in_days"]],
  ["aws_lambda_function", ["function_name", "role", "handler", "runtime"]],
  ["aws_sqs_queue", ["name", "visibility_timeout_seconds", "kms_master_key_id"]],
  ["aws_dynamodb_table", ["name", "billing_mode", "hash_key"]],
  ["google_compute_instance", ["name", "machine_type", "zone"]],
  ["azurerm_resource_group", ["name", "location"]],
  ["random_id", ["byte_length"]],
  ["null_resource", []],
];
const DATA_TYPES = ["aws_ami", "aws_caller_identity", "aws_iam_policy_document", "aws_availability_zones", "aws_vpc"];
const ATTRS = ["id", "arn", "name", "self_link", "output_base64sha256", "dns_name", "vpc_id"];

function literal(r, attr) {
  switch (r.int(0, 5)) {
    case 0: return String(r.int(1, 65535));
    case 1: return r.chance(0.5) ? "true" : "false";
    case 2: return `"${attr.replace(/_/g, "-")}-${r.int(0, 99999).toString(36)}"`;
    case 3: return `["${r.pick(["a", "b", "c"])}", "${r.pick(["x", "y", "z"])}"]`;
    default: return `"${r.pick(["t3.micro", "m5.large", "us-east-1a", "PAY_PER_REQUEST", "python3.12", "10.0.0.0/16"])}"`;
  }
}

/** Generate one module's worth of blocks into `out` (an array of file texts); returns the declared names. */
function moduleBody(r, nResources, nVars, nLocals, nOutputs, filesPerModule, prefix) {
  const vars = [];
  const locals = [];
  const declared = []; // { addr, kind: "plain" | "count" | "for_each" }
  let v = "";
  for (let i = 0; i < nVars; i++) {
    const name = `${prefix}var_${i}`;
    vars.push(name);
    const type = r.pick(["string", "number", "bool", "list(string)", "map(string)"]);
    const def = type === "string" ? `"${name}-default"` : type === "number" ? String(r.int(0, 9)) : type === "bool" ? "false" : type === "list(string)" ? `["a", "b"]` : `{ k = "v" }`;
    v += `variable "${name}" {\n  description = "Variable ${i} of the generated configuration."\n  type        = ${type}\n  default     = ${def}\n`;
    if (r.chance(0.1)) v += `\n  validation {\n    condition     = var.${name} != null\n    error_message = "The ${name} value must not be null."\n  }\n`;
    v += `}\n\n`;
  }
  let l = "locals {\n";
  for (let i = 0; i < nLocals; i++) {
    const name = `${prefix}local_${i}`;
    const a = r.pick(vars);
    const kind = r.int(0, 4);
    if (kind === 0) l += `  ${name} = "\${var.${a}}-${i}"\n`;
    else if (kind === 1) l += `  ${name} = merge({ Name = var.${a} }, { Index = ${i} })\n`;
    else if (kind === 2) l += `  ${name} = { for k in ["a", "b", "c"] : k => "\${k}-\${var.${a}}" }\n`;
    else if (kind === 3 && locals.length) l += `  ${name} = coalesce(local.${r.pick(locals)}, var.${a})\n`;
    else l += `  ${name} = var.${a} == null ? "none" : lower(tostring(var.${a}))\n`;
    locals.push(name);
  }
  l += "}\n";

  const files = [];
  const perFile = Math.ceil(nResources / filesPerModule);
  let text = "";
  for (let i = 0; i < nResources; i++) {
    const isData = r.chance(0.05);
    const [type, attrs] = isData ? [r.pick(DATA_TYPES), ["filter_name"]] : r.pick(TYPES);
    const name = `${prefix}r${i}`;
    const roll = r.next();
    const kind = isData ? "plain" : roll < 0.1 ? "count" : roll < 0.2 ? "for_each" : "plain";
    text += `${isData ? "data" : "resource"} "${type}" "${name}" {\n`;
    if (kind === "count") text += `  count = var.${r.pick(vars)} == null ? 0 : ${r.int(1, 3)}\n\n`;
    if (kind === "for_each") text += `  for_each = toset(["a", "b", "c"])\n\n`;
    // 1–3 references to recently declared resources, in attributes and templates.
    const nRefs = declared.length ? r.int(1, 3) : 0;
    for (const attr of attrs) text += `  ${attr} = ${literal(r, attr)}\n`;
    for (let k = 0; k < nRefs; k++) {
      const target = declared[Math.max(0, declared.length - r.int(1, 50))];
      const attr = r.pick(ATTRS);
      const ref = target.kind === "count" ? `${target.addr}[0].${attr}` : target.kind === "for_each" ? `${target.addr}["a"].${attr}` : `${target.addr}.${attr}`;
      const form = r.int(0, 3);
      if (form === 0) text += `  ref_${k} = ${ref}\n`;
      else if (form === 1) text += `  ref_${k} = "\${${ref}}/\${var.${r.pick(vars)}}"\n`;
      else if (form === 2 && target.kind === "count") text += `  ref_${k} = ${target.addr}[*].${attr}\n`;
      else text += `  ref_${k} = try(${ref}, local.${r.pick(locals)})\n`;
    }
    if (kind === "count") text += `  index_name = "\${local.${r.pick(locals)}}-\${count.index}"\n`;
    if (kind === "for_each") text += `  key_name_${i} = each.key\n  value_of    = each.value\n`;
    text += `\n  tags = merge(local.${r.pick(locals)}, {\n    Name        = "${name}"\n    Environment = var.${r.pick(vars)}\n  })\n`;
    if (r.chance(0.3)) text += `\n  nested_block {\n    enabled = true\n    setting = var.${r.pick(vars)}\n  }\n`;
    if (r.chance(0.1)) text += `\n  dynamic "rule" {\n    for_each = local.${r.pick(locals)}\n    content {\n      key   = rule.key\n      value = rule.value\n    }\n  }\n`;
    if (r.chance(0.05)) text += `\n  policy = <<-EOT\n    {\n      "Version": "2012-10-17",\n      "Resource": "\${var.${r.pick(vars)}}"\n    }\n  EOT\n`;
    if (!isData && r.chance(0.08)) text += `\n  lifecycle {\n    create_before_destroy = true\n    ignore_changes        = [tags]\n  }\n`;
    if (declared.length && r.chance(0.04)) text += `\n  depends_on = [${declared[declared.length - 1].addr}]\n`;
    text += `}\n\n`;
    declared.push({ addr: isData ? `data.${type}.${name}` : `${type}.${name}`, kind });
    if ((i + 1) % perFile === 0 || i === nResources - 1) {
      files.push(text);
      text = "";
    }
  }
  let o = "";
  for (let i = 0; i < nOutputs; i++) {
    const t = declared[r.int(0, declared.length - 1)];
    const expr = t.kind === "count" ? `${t.addr}[*].id` : t.kind === "for_each" ? `{ for k, v in ${t.addr} : k => v.id }` : `${t.addr}.id`;
    o += `output "${prefix}out_${i}" {\n  description = "Output ${i}."\n  value       = ${expr}\n}\n\n`;
  }
  return { variables: v, locals: l, resources: files, outputs: o, vars, declared };
}

/**
 * @param {{ seed?: number, resources?: number }} opts
 * @returns {{ files: Record<string, string>, root: string, stats: { files: number, bytes: number, resources: number, modules: number } }}
 */
export function generate({ seed = 42, resources = 10000 } = {}) {
  const r = rng(seed);
  const files = {};
  const moduleNames = ["network", "compute", "storage", "iam"];
  const perModule = 100;
  const modules = {};
  for (const m of moduleNames) {
    const body = moduleBody(r, perModule, 12, 10, 8, 2, "");
    files[`modules/${m}/variables.tf`] = body.variables;
    files[`modules/${m}/locals.tf`] = body.locals;
    body.resources.forEach((t, i) => (files[`modules/${m}/main${i ? "_" + i : ""}.tf`] = t));
    files[`modules/${m}/outputs.tf`] = body.outputs;
    modules[m] = body;
  }
  const rootResources = resources - perModule * moduleNames.length;
  const root = moduleBody(r, rootResources, 200, 100, 300, 40, "");
  files["versions.tf"] =
    `terraform {\n  required_version = ">= 1.5"\n\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = ">= 5.0"\n    }\n` +
    `    google = {\n      source = "hashicorp/google"\n    }\n    azurerm = {\n      source = "hashicorp/azurerm"\n    }\n  }\n}\n`;
  files["providers.tf"] =
    `provider "aws" {\n  region = var.var_0\n}\n\nprovider "aws" {\n  alias  = "west"\n  region = "us-west-2"\n}\n\nprovider "google" {\n  project = var.var_1\n}\n\nprovider "azurerm" {\n  features {}\n}\n`;
  files["variables.tf"] = root.variables;
  files["locals.tf"] = root.locals;
  root.resources.forEach((t, i) => (files[`main_${String(i).padStart(2, "0")}.tf`] = t));
  files["outputs.tf"] = root.outputs;
  let calls = "";
  moduleNames.forEach((m, i) => {
    const body = modules[m];
    const head = i === 1 ? `  count = 2\n` : i === 2 ? `  for_each = toset(["blue", "green"])\n` : "";
    calls += `module "${m}" {\n  source = "./modules/${m}"\n${head}\n`;
    for (const v of body.vars) {
      const t = root.declared[r.int(0, root.declared.length - 1)];
      const ref = t.kind === "count" ? `${t.addr}[0].id` : t.kind === "for_each" ? `${t.addr}["a"].id` : `${t.addr}.id`;
      calls += `  ${v} = ${r.chance(0.5) ? ref : `var.${r.pick(root.vars)}`}\n`;
    }
    if (i === 0) calls += `\n  providers = {\n    aws = aws.west\n  }\n`;
    if (i === 3) calls += `\n  depends_on = [module.network]\n`;
    calls += `}\n\n`;
  });
  calls += `output "network_first" {\n  value = module.network.out_0\n}\n`;
  files["modules.tf"] = calls;
  const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
  return { files, root: "", stats: { files: Object.keys(files).length, bytes, resources, modules: moduleNames.length } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? "bench/results/generated";
  const { files, stats } = generate({ resources: Number(process.argv[3] ?? 10000), seed: Number(process.argv[4] ?? 42) });
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(out, p)), { recursive: true });
    writeFileSync(join(out, p), t);
  }
  console.log(`wrote ${stats.files} files, ${(stats.bytes / 1e6).toFixed(2)} MB, ${stats.resources} resources to ${out}`);
}
