// The playground page (www/) in headless Chromium, driven by playwright-core: it loads the
// package, lists the example's resources, and reports a syntax error at its line:col.
// Screenshots go to tests/artifacts/ (look at them: they are what a person sees).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { EXAMPLE } from "../../www/src/example.js";
import { loadConfig, TfgraphError } from "../../pkg/index.js";

const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url), "utf8"));

// toolchain.md: Debian's chromium; never a downloaded browser.
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let server;
let url;
let profile;
let context;
let page;
const problems = [];

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  ({ server, url } = await startServer({ port: 0 }));
  profile = mkdtempSync(join(tmpdir(), "tfgraph-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 820 },
    deviceScaleFactor: 1,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const byTestId = (id) => page.getByTestId(id);

test("shows the package version", async () => {
  assert.equal(await byTestId("version").textContent(), `v${manifest.version}`);
});

test("lists the example's resources with providers and reference positions", async () => {
  const expected = loadConfig({ "main.tf": EXAMPLE }).root.resources;
  assert.ok(expected.length >= 3, "the example has a few resources");
  assert.equal(await byTestId("resource-count").textContent(), String(expected.length));
  const addresses = await byTestId("resource").evaluateAll((els) => els.map((e) => e.dataset.address));
  assert.deepEqual(addresses, expected.map((r) => r.address));
  assert.equal(await byTestId("status").textContent(), "loaded");

  // aws_instance.web's reference to the AMI, at the line:col where it is written.
  const offset = EXAMPLE.indexOf("data.aws_ami.ubuntu.id");
  const before = EXAMPLE.slice(0, offset).split("\n");
  const at = `${before.length}:${before.at(-1).length + 1}`;
  const web = page.locator('[data-testid=resource][data-address="aws_instance.web"]');
  const refs = await web.getByTestId("reference").allTextContents();
  assert.ok(refs.some((r) => r.startsWith(at) && r.includes("data.aws_ami.ubuntu")), `${at} not in ${refs}`);
  await page.screenshot({ path: join(artifacts, "page-example.png") });
});

test("types a syntax error and shows it at its line:col; clicking it moves the caret", async () => {
  const broken = 'resource "aws_instance" "web" {\n  ami = "ami-123"\n  instance_type = \n}\n';
  let expected;
  try {
    loadConfig({ "main.tf": broken });
    assert.fail("the broken config should not load");
  } catch (e) {
    assert.ok(e instanceof TfgraphError, String(e));
    expected = e.diagnostics.find((d) => d.severity === "error");
  }
  const where = `main.tf:${expected.range.start.line}:${expected.range.start.column}`;

  const editor = byTestId("editor");
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await editor.pressSequentially(broken, { delay: 2 });
  const error = page.locator("[data-testid=diagnostic][data-severity=error]").first();
  await error.waitFor();
  assert.equal(await error.getByTestId("location").textContent(), where);
  assert.equal(await error.getByTestId("summary").textContent(), expected.summary);
  assert.equal(await byTestId("status").textContent(), "errors");
  await page.screenshot({ path: join(artifacts, "page-syntax-error.png") });

  await error.getByTestId("location").click();
  const { line, column } = expected.range.start;
  assert.equal(await byTestId("cursor").textContent(), `Ln ${line}, Col ${column}`);
});

test("fixing the error clears the diagnostics", async () => {
  const editor = byTestId("editor");
  await editor.fill('resource "aws_instance" "web" {\n  ami = "ami-123"\n}\n');
  await page.waitForFunction(() => document.querySelector("[data-testid=status]").textContent === "loaded");
  assert.equal(await byTestId("resource-count").textContent(), "1");
  assert.equal(await byTestId("diagnostic-count").textContent(), "0");
});

test("the page logged no errors and every request succeeded", () => {
  assert.deepEqual(problems, []);
});
