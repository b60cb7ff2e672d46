// Dropping a configuration onto the playground (www/src/drop.js): a folder after
// `terraform init` (through DataTransferItem.webkitGetAsEntry) and the same folder as a .zip
// (through the vendored fflate). The installed modules' resources, found through
// .terraform/modules/modules.json, appear in the resource list.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync, strToU8 } from "fflate";
import { openBrowser } from "./browser.mjs";

const fixture = fileURLToPath(new URL("../fixtures/config/manifest-installed/", import.meta.url));

/** The fixture's files, `{ path: contents }`, paths relative to the fixture folder. */
function readFixture(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p).split(sep).join("/")] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

const FILES = readFixture(fixture);
// Resources only the installed modules hold (registry, nested registry, git, //subdir, local-in-installed).
const INSTALLED = [
  "module.vpc.aws_vpc.this",
  "module.vpc.module.subnets.aws_subnet.this",
  "module.vpc.module.flow.aws_flow_log.this",
  "module.sg.aws_security_group.this",
  "module.role.aws_iam_role.this",
  "module.role.module.policy.aws_iam_role_policy.this",
  "module.app.module.label.null_resource.label",
];

let browser, page, url, problems, shot;

before(async () => {
  browser = await openBrowser();
  ({ page, url, problems, shot } = browser);
});

after(() => browser?.close());

async function fresh() {
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
}

async function addresses() {
  return page.locator("[data-testid=resource]").evaluateAll((els) => els.map((e) => e.dataset.address));
}

async function expectInstalled(what) {
  for (const a of INSTALLED) {
    await page.locator(`[data-testid=resource][data-address="${a}"]`).waitFor({ state: "attached", timeout: 10_000 });
  }
  const got = await addresses();
  for (const a of [...INSTALLED, "module.app.aws_instance.web"]) assert.ok(got.includes(a), `${what}: ${a} missing from ${got}`);
  assert.equal(await page.locator("[data-testid=status]").textContent(), "loaded");
  assert.deepEqual(problems, []);
}

test("a dropped folder (webkitGetAsEntry entries) loads the installed modules", async () => {
  await fresh();
  await page.evaluate((files) => {
    // A FileSystemDirectoryEntry tree like the one Chromium hands over for a dropped folder,
    // named "infra" (its paths become relative to it).
    const dir = (name, children) => ({
      name, isFile: false, isDirectory: true,
      createReader() {
        let done = false;
        return { readEntries(ok) { ok(done ? [] : ((done = true), children)); } };
      },
    });
    const file = (name, text) => ({ name, isFile: true, isDirectory: false, file(ok) { ok(new File([text], name)); } });
    const build = (paths, prefix) => {
      const kids = new Map();
      for (const p of paths) {
        const [head, ...rest] = p.slice(prefix.length).split("/");
        if (!kids.has(head)) kids.set(head, rest.length ? "dir" : "file");
      }
      return [...kids].map(([name, kind]) =>
        kind === "file" ? file(name, files[prefix + name]) : dir(name, build(paths.filter((p) => p.startsWith(`${prefix}${name}/`)), `${prefix}${name}/`)),
      );
    };
    const root = dir("infra", build(Object.keys(files), ""));
    const dataTransfer = { items: [{ kind: "file", webkitGetAsEntry: () => root }], files: [] };
    const event = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(event, "dataTransfer", { value: dataTransfer });
    document.body.dispatchEvent(event);
  }, FILES);
  await expectInstalled("folder");
  await shot("playground-drop-folder.png");
});

test("a dropped .zip of the folder loads the installed modules", async () => {
  await fresh();
  const zip = zipSync(Object.fromEntries(Object.entries(FILES).map(([p, t]) => [`infra/${p}`, strToU8(t)])));
  await page.evaluate((bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], "infra.zip", { type: "application/zip" }));
    document.body.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, [...zip]);
  await expectInstalled("zip");
  // The editor shows the dropped root's main.tf.
  assert.match(await page.locator("[data-testid=editor]").inputValue(), /module "vpc"/);
});
