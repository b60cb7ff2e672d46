#!/usr/bin/env python3
"""Record the engine scenarios in tests/fixtures/engine/ with real Terraform (a development tool).

usage: scripts/engine-oracle.py [SCENARIO...]        (default: every scenario)

Each scenario is tests/fixtures/engine/NAME/ with an optional scenario.env and steps step1/, step2/, ...
Each step holds config/ (the .tf files) and an optional step.env. This script runs every step through
the oracle harness (a scratch copy of ../shared/oracle, set up on first use), step N starting from
step N-1's resulting state, and writes what Terraform produced next to config/, normalised (see
tests/fixtures/engine/README.md for the files and the normalisations).

Environment:
  ORACLE_DIR   the scratch oracle (default /tmp/tfgraph-oracle); created from ORACLE_SRC and ./setup
               (PyPI) when it has no .venv yet
  ORACLE_SRC   where to copy it from (default /work/shared/oracle)

scenario.env / step.env keys (step.env overrides scenario.env for that step):
  TERRAFORM=1.11   the Terraform on PATH (default), or TERRAFORM=1.0.3 for the oracle's own binary
  PARALLELISM=N    terraform -parallelism (default 10)
  DELAY_MS=MS      provider sleep per operation (default 300: waves stay apart on a busy machine)
  FAIL_NAME=a,b    MOCK_FAIL_NAME: `name`s whose operations fail
  MOCK_*=value     passed to the provider (MOCK_FAIL_OPS, MOCK_DELAY_BY_NAME, ...)
  DESTROY=1        this step is `terraform plan -destroy`, then its apply
  REFRESH=0        this step is `terraform plan -refresh=false` (through TF_CLI_ARGS_plan)
  PLAN_ARGS=...    more `terraform plan` arguments (`-target=mock_resource.a -replace=...`), through
                   TF_CLI_ARGS_plan; the saved plan carries them to its apply
  CONFIGURE_LOG=1  also write configure.json: each walk's provider log in order, configures included
                   (`{op, name, label}`: a configure's `name` is its configuration's `label`, any other
                   operation's `label` that of the configuration serving it)

The scratch oracle's mock provider gains an `import_` (the oracle's has none, so Terraform's import
would fail with "mock_resource does not support resource import"): importing ID gives an object
with `id` = ID and every other attribute null, logged as op `import`. The built-in `mock` provider
answers the same (src/providers/mock.rs). Its configure logs an unknown `label` as "<unknown>"
(the oracle's fails to log it, failing the configure).
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "engine")
ORACLE = os.environ.get("ORACLE_DIR", "/tmp/tfgraph-oracle")
ORACLE_SRC = os.environ.get("ORACLE_SRC", "/work/shared/oracle")

LINEAGE = "00000000-0000-0000-0000-000000000000"
OUTPUTS = ("plan.json", "plan.txt", "plan-cli.txt", "apply.txt", "ops.json", "configure.json", "state.tfstate",
           "state.json", "errors.txt", "exitcodes.txt", "input.tfstate", "terraform.txt")


def ensure_oracle():
    if os.path.exists(os.path.join(ORACLE, ".venv", "terraform.rc")):
        return
    if not os.path.exists(ORACLE):
        shutil.copytree(ORACLE_SRC, ORACLE)
        subprocess.run(["chmod", "-R", "u+w", ORACLE], check=True)
    subprocess.run(["./setup"], cwd=ORACLE, check=True)


MOCK_IMPORT = '''
    def import_(self, ctx, id):
        # tfgraph's extension (scripts/engine-oracle.py): the object with this id, nothing else known
        obj = {"id": id, "name": None, "input": None, "force_new": None, "output": None}
        return _op("import", ctx.type_name, obj, lambda: obj)
'''


# The oracle's configure_provider logs an unknown `label` as is, which json.dumps refuses (the
# configure then fails): logged as "<unknown>" instead.
CONFIGURE_LABEL = ('_log({"op": "configure", "type": "provider", "name": label,',
                   '_log({"op": "configure", "type": "provider", "name": "<unknown>" if label is Unknown else label,')


def extend_mock():
    """Adds MOCK_IMPORT to the scratch copy's mock_resource, and CONFIGURE_LABEL (idempotent)."""
    p = os.path.join(ORACLE, "provider", "mock_provider.py")
    src = open(p).read()
    if "def import_" not in src:
        anchor = "\n\nclass MockData(DataSource):"
        src = src.replace(anchor, MOCK_IMPORT.rstrip("\n") + "\n" + anchor, 1)
    src = src.replace(*CONFIGURE_LABEL)
    open(p, "w").write(src)


def read_env(path):
    env = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                env[k.strip()] = v.strip()
    return env


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Keys:
    """Deposed-object keys are random: map each to a stable fake key in order of first appearance."""

    def __init__(self):
        self.map = {}

    def fake(self, k):
        if k not in self.map:
            self.map[k] = "%08x" % (len(self.map) + 1)
        return self.map[k]

    def text(self, s):
        s = re.sub(r"(deposed object )([0-9a-f]{8})", lambda m: m.group(1) + self.fake(m.group(2)), s)
        s = re.sub(r'("deposed": ")([0-9a-f]{8})(")', lambda m: m.group(1) + self.fake(m.group(2)) + m.group(3), s)
        s = re.sub(r"(destroy deposed )([0-9a-f]{8})", lambda m: m.group(1) + self.fake(m.group(2)), s)
        return s


def norm_json(obj, keys):
    """Placeholders for what changes from run to run; everything else verbatim, in Terraform's key order."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k == "lineage" and isinstance(v, str):
                v = LINEAGE
            elif k == "terraform_version" and isinstance(v, str):
                v = "<terraform_version>"
            elif k == "timestamp" and isinstance(v, str):
                v = "<timestamp>"
            elif k == "deposed" and isinstance(v, str) and re.fullmatch(r"[0-9a-f]{8}", v):
                v = keys.fake(v)
            else:
                v = norm_json(v, keys)
            out[k] = v
        return out
    if isinstance(obj, list):
        return [norm_json(v, keys) for v in obj]
    return obj


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


def norm_text(s, keys, workdir):
    s = s.replace(workdir, "<workdir>")
    # `terraform graph` has no -no-color: its errors carry ANSI colours
    s = re.sub(r"\x1b\[[0-9;]*m", "", s)
    s = keys.text(s)
    # elapsed times depend on the machine
    s = re.sub(r"(complete after )\d+(m\d+)?s", r"\1<t>", s)
    s = re.sub(r"\[\d+(m\d+)?s elapsed\]", "[<t> elapsed]", s)
    return s


def waves(ops, delay_ms):
    """Ops grouped by start time: a new wave when an op starts more than delay/2 after the wave's first."""
    tol = max(20.0, delay_ms / 2)
    res, first = [], None
    for r in sorted(ops, key=lambda r: r["start_ms"]):
        if first is None or r["start_ms"] - first > tol:
            res.append([])
            first = r["start_ms"]
        res[-1].append(r)
    return res


def op_label(r, addr_by_name, addr_by_import_id):
    # an imported object has no name until its update: the import id tells which it is
    addr = addr_by_import_id.get(r.get("id")) if r.get("name") is None else None
    addr = addr or addr_by_name.get((r["type"].startswith("mock_data"), r.get("name")))
    s = f'{r["op"]} {addr or r["type"] + "(name=" + str(r.get("name")) + ")"}'
    if r.get("alias_label"):
        s += f' (provider label {r["alias_label"]})'
    if not r.get("ok", True):
        s += " FAILED"
    return s


def max_concurrency(ops):
    ev = sorted([(r["start_ms"], 1) for r in ops] + [(r["end_ms"], -1) for r in ops])
    cur = best = 0
    for _, d in ev:
        cur += d
        best = max(best, cur)
    return best


def ops_summary(out, delay_ms):
    summary = json.load(open(os.path.join(out, "summary.json")))
    addr_by_name = {}
    for phase in ("plan", "apply"):
        for r in summary.get(f"{phase}_ops", []):
            if r.get("address"):
                addr_by_name[(r["type"].startswith("mock_data"), r.get("name"))] = r["address"]
    addr_by_import_id = {}
    if os.path.exists(os.path.join(out, "plan.json")):
        for rc in json.load(open(os.path.join(out, "plan.json"))).get("resource_changes", []):
            # as summarize.py names by the plan over the state: an errored plan's JSON comes
            # after it ran, and a moved object's prior address is not where the plan put it
            for side in ("before", "after"):
                v = rc.get("change", {}).get(side) or {}
                if isinstance(v.get("name"), str):
                    addr_by_name[(rc["mode"] == "data", v["name"])] = rc["address"]
            imp = rc.get("change", {}).get("importing") or {}
            if imp.get("id") is not None:
                addr_by_import_id[imp["id"]] = rc["address"]
    res = {}
    for phase in ("plan", "apply"):
        p = os.path.join(out, f"{phase}-log.jsonl")
        recs = []
        if os.path.exists(p):
            recs = [json.loads(l) for l in open(p) if l.strip()]
        recs = [r for r in recs if r["op"] != "configure"]
        res[phase] = {
            "ops": len(recs),
            "max_concurrency": max_concurrency(recs),
            "waves": [sorted(op_label(r, addr_by_name, addr_by_import_id) for r in w) for w in waves(recs, delay_ms)],
        }
    return res


def configure_log(out, keys):
    """Each walk's provider operations in log order, configures included."""
    res = {}
    for phase in ("plan", "apply"):
        p = os.path.join(out, f"{phase}-log.jsonl")
        recs = [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []
        res[phase] = [{"op": r["op"], "name": r.get("name"), "label": r.get("alias_label")} for r in recs]
    return norm_json(res, keys)


def record_step(name, sdir, prev_state, base_env):
    env = dict(base_env)
    env.update(read_env(os.path.join(sdir, "step.env")))
    tf = env.get("TERRAFORM", "1.11")
    par = env.get("PARALLELISM", "10")
    delay = env.get("DELAY_MS", "300")
    args = [os.path.join(ORACLE, "run"), "-k", "-p", par, "-d", delay]
    if env.get("FAIL_NAME"):
        args += ["-f", env["FAIL_NAME"]]
    if env.get("DESTROY") == "1":
        args += ["-D"]
    if prev_state:
        args += ["-s", prev_state]
    penv = dict(os.environ)
    for k in list(penv):
        if k.startswith("MOCK_") or k.startswith("TF_"):
            del penv[k]
    if tf != "1.0.3":
        penv["TERRAFORM"] = "terraform"
    for k, v in env.items():
        if k.startswith("MOCK_"):
            penv[k] = v
    # The oracle's ./run has no flags for these; Terraform adds TF_CLI_ARGS_plan to every plan.
    # Terraform splits TF_CLI_ARGS_plan as a shell does: each argument quoted keeps `["k"]` whole.
    plan_args = " ".join(shlex.quote(x) for x in ["-refresh=false"] * (env.get("REFRESH") == "0") + env.get("PLAN_ARGS", "").split())
    if plan_args:
        penv["TF_CLI_ARGS_plan"] = plan_args
    out = tempfile.mkdtemp(prefix=f"eo-{name}-")
    r = run(args + [os.path.join(sdir, "config"), out], env=penv)
    m = re.search(r"^workdir: (.*)$", r.stderr, re.M)
    if not m:
        sys.exit(f"{name}/{os.path.basename(sdir)}: the oracle run failed:\n{r.stdout}{r.stderr}")
    workdir = m.group(1).strip()
    tfbin = "terraform" if tf != "1.0.3" else os.path.join(ORACLE, ".venv", "terraform-real")
    tenv = dict(penv, TF_CLI_CONFIG_FILE=os.path.join(ORACLE, ".venv", "terraform.rc"), CHECKPOINT_DISABLE="1",
                TF_IN_AUTOMATION="1")
    version = run([tfbin, "version", "-json"], env=tenv, cwd=workdir)
    schemas = run([tfbin, "providers", "schema", "-json"], env=tenv, cwd=workdir)
    if schemas.returncode == 0 and tf != "1.0.3":
        write_json(os.path.join(FIXTURES, "mock-provider-schemas.json"), json.loads(schemas.stdout))
    show = None
    if os.path.exists(os.path.join(workdir, "plan.tfplan")):
        show = run([tfbin, "show", "-no-color", "plan.tfplan"], env=tenv, cwd=workdir).stdout
        if not os.path.exists(os.path.join(out, "plan.json")):
            # a failed plan still saves an (errored) plan file: its JSON goes with its text
            js = run([tfbin, "show", "-json", "plan.tfplan"], env=tenv, cwd=workdir)
            if js.returncode == 0:
                open(os.path.join(out, "plan.json"), "w").write(js.stdout)

    for f in OUTPUTS:
        p = os.path.join(sdir, f)
        if os.path.exists(p):
            os.remove(p)
    keys = Keys()
    # JSON documents: placeholders, deposed keys first so text files reuse the same fake keys
    for src, dst in (("input.tfstate", "input.tfstate"), ("plan.json", "plan.json"),
                     ("terraform.tfstate", "state.tfstate"), ("state.json", "state.json")):
        p = os.path.join(out, src)
        if os.path.exists(p) and os.path.getsize(p) > 0:
            write_json(os.path.join(sdir, dst), norm_json(json.load(open(p)), keys))
    if show is not None:
        open(os.path.join(sdir, "plan.txt"), "w").write(norm_text(show, keys, workdir))
    p = os.path.join(out, "plan.stdout")
    if os.path.exists(p):
        cli = norm_text(open(p).read(), keys, workdir)
        if show is None or cli != norm_text(show, keys, workdir):
            open(os.path.join(sdir, "plan-cli.txt"), "w").write(cli)
    for src, dst in (("apply.stdout", "apply.txt"), ("errors.txt", "errors.txt"),
                     ("exitcodes.txt", "exitcodes.txt")):
        p = os.path.join(out, src)
        if os.path.exists(p):
            open(os.path.join(sdir, dst), "w").write(norm_text(open(p).read(), keys, workdir))
    write_json(os.path.join(sdir, "ops.json"), ops_summary(out, float(delay)))
    if env.get("CONFIGURE_LOG") == "1":
        write_json(os.path.join(sdir, "configure.json"), configure_log(out, keys))
    v = json.loads(version.stdout)["terraform_version"]
    params = open(os.path.join(out, "params.txt")).read().strip()
    extra = " ".join(f"{k}={v}" for k, v in sorted(env.items()) if k.startswith("MOCK_") or k == "PLAN_ARGS")
    if env.get("REFRESH") == "0":
        extra = " ".join(x for x in (extra, "refresh=false") if x)
    open(os.path.join(sdir, "terraform.txt"), "w").write(
        f"terraform {v}\n{params}{(' ' + extra) if extra else ''}\n")

    raw_state = os.path.join(out, "terraform.tfstate")
    state = None
    if os.path.exists(raw_state):
        state = tempfile.mktemp(prefix=f"eo-{name}-", suffix=".tfstate")
        shutil.copy(raw_state, state)
    shutil.rmtree(workdir, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    codes = open(os.path.join(sdir, "exitcodes.txt")).read().split("\n")
    print(f"{name}/{os.path.basename(sdir)}: terraform {v}: " + " ".join(c for c in codes if c))
    return state


def record(name):
    sdir = os.path.join(FIXTURES, name)
    base_env = read_env(os.path.join(sdir, "scenario.env"))
    steps = sorted((d for d in os.listdir(sdir) if re.fullmatch(r"step\d+", d)), key=lambda d: int(d[4:]))
    prev = None
    for s in steps:
        state = record_step(name, os.path.join(sdir, s), prev, base_env)
        if prev:
            os.remove(prev)
        prev = state
    if prev:
        os.remove(prev)


def main():
    ensure_oracle()
    extend_mock()
    names = sys.argv[1:] or sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
    for n in names:
        record(n)


if __name__ == "__main__":
    main()
