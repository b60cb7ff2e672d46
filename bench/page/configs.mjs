// Generated configurations for bench/page/run.mjs and tests/page/responsive.test.mjs.

const HEAD = 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n';

/**
 * `n` resources in layers of `width`: each refers to one or two resources of the previous layer
 * (a DAG with depth, unlike the gallery's one-level fan-out).
 */
export function layered(n, width = 20) {
  const out = [HEAD];
  for (let i = 0; i < n; i++) {
    const layer = Math.floor(i / width);
    const refs = layer === 0 ? [] : [((layer - 1) * width) + (i % width), ((layer - 1) * width) + ((i * 7 + 3) % width)];
    const uniq = [...new Set(refs)];
    out.push(`resource "aws_instance" "r${i}" {\n  ami  = "ami-${i}"\n  tags = { deps = "${uniq.map((r) => `\${aws_instance.r${r}.id}`).join(",")}" }\n}\n`);
  }
  return out.join("\n");
}
