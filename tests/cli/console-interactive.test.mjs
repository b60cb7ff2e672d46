// `tfgraph console` in a terminal: the keys of tests/fixtures/cli-console/interactive-keys.json
// sent to it in a tmux pane, and the pane compared with Terraform 1.11.4's (same keys, same
// pane size): multi-line entry under the prompt `: `, Ctrl-C, errors and results as printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = join(repo, "tests/fixtures/cli-console");
const tmux = (...args) => execFileSync("tmux", args, { encoding: "utf8" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The pane's text without trailing blank lines. */
const screen = (name) => tmux("capture-pane", "-t", name, "-p").replace(/\s+$/, "");

/** Waits until the pane has not changed for a while and its cursor line is a prompt. */
async function settled(name, before) {
  let last = null;
  let stableSince = Date.now();
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
    const now = screen(name);
    if (now !== last) [last, stableSince] = [now, Date.now()];
    const cursorLine = now.split("\n").at(-1) ?? "";
    const prompted = /^[>:] ?/.test(cursorLine) || cursorLine.endsWith("exit");
    if (now !== before && prompted && Date.now() - stableSince > 250) return now;
  }
  return last;
}

test("interactive console: multi-line entries, Ctrl-C and errors as terraform console shows them", async () => {
  const name = `tfgraph-console-${process.pid}`;
  const keys = JSON.parse(readFileSync(join(fixture, "interactive-keys.json"), "utf8"));
  const command = `cd '${fixture}' && NO_COLOR=1 '${process.execPath}' '${join(repo, "pkg/cli.js")}' console; sleep 30`;
  tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "60", command);
  try {
    let now = await settled(name, null);
    for (const k of keys) {
      tmux("send-keys", "-t", name, ...k);
      now = await settled(name, now);
    }
    assert.equal(now, readFileSync(join(fixture, "interactive-screen.txt"), "utf8").replace(/\s+$/, ""));
  } finally {
    try {
      tmux("kill-session", "-t", name);
    } catch {}
  }
});
