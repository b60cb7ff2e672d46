// The oracle's mock provider for the benchmarks that run Terraform beside tfgraph: ../shared/oracle
// copied into target/bench-oracle and set up once (PyPI, about a minute the first time).
// ($TFGRAPH_SHARED, when set, stands for ../shared.) Returns `{ rc, bin }` (the CLI configuration that points Terraform at the mock's filesystem
// mirror, and the oracle's Terraform 1.0.3), or null when ../shared/oracle is not there.

import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function oracle() {
  const shared = process.env.TFGRAPH_SHARED ?? resolve(repo, "../shared");
  const dir = join(repo, "target/bench-oracle");
  if (!existsSync(join(dir, ".venv/terraform.rc"))) {
    if (!existsSync(join(shared, "oracle/setup"))) return null;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    cpSync(join(shared, "oracle"), dir, { recursive: true });
    console.error("[bench] setting up the oracle's mock provider (first run: about a minute, needs PyPI)");
    execFileSync("./setup", { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  }
  return { rc: join(dir, ".venv/terraform.rc"), bin: join(dir, ".venv/terraform-real") };
}
