// The playground page (www/) in headless Chromium, driven by playwright-core: it loads the
// package, lists the example's resources, and reports a syntax error at its line:col.
// Screenshots go to tests/artifacts/ (look at them: they are what a person sees).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openBrowser } from "./browser.mjs";
import { EXAMPLE } from "../../www/src/example.js";
import { loadConfig, TfgraphError } from "../../pkg/index.js";

const manifest = JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url), "utf8"));

let browser, page, problems, shot;

before(async () => {
  browser = await openBrowser();
  ({ page, problems, shot } = browser);
  await page.goto(browser.url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});

after(() => browser?.close());

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
  await shot("page-example.png");
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
  await shot("page-syntax-error.png");

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

test("a narrow window (a phone, a half screen): nothing is wider than the window, the header's controls stay on it", async () => {
  for (const [width, height] of [[390, 844], [800, 700]]) {
    await page.setViewportSize({ width, height });
    await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width, `no sideways scrolling at ${width} px`);
    for (const id of ["gallery", "share", "version", "view", "search", "zoom-fit"]) {
      const box = await byTestId(id).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${id} within ${width} px: ${JSON.stringify(box)}`);
    }
    // The one-node drawing is fitted again to the narrowed panel (it kept the wide scale and
    // centre, a small box low in the panel), and the panel's middle, where it sits, is on screen.
    const m = await byTestId("graph-svg").evaluate((svg) => {
      const panel = svg.parentElement.getBoundingClientRect();
      const node = svg.querySelector("g.node").getBoundingClientRect();
      return { panel: [panel.top, panel.bottom], node: [node.top, node.bottom, node.width] };
    });
    const centre = (m.node[0] + m.node[1]) / 2;
    assert.ok(Math.abs(centre - (m.panel[0] + m.panel[1]) / 2) < 2, `centred in its panel at ${width} px: ${JSON.stringify(m)}`);
    assert.ok(m.node[1] < height - 60, `on the first screen at ${width} px: ${JSON.stringify(m)}`);
    assert.ok(m.node[2] > 150, `drawn at the fitted scale (1.5×), not the wide window's: ${JSON.stringify(m)}`);
    await shot(`page-narrow-${width}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 820 });
});

test("the Example menu says an example was edited; choosing it again loads it as it was", async () => {
  const gallery = byTestId("gallery");
  const label = () => gallery.evaluate((s) => s.selectedOptions[0]?.textContent);
  await gallery.selectOption("depends-on");
  const title = await label();
  const original = await byTestId("editor").inputValue();
  await byTestId("editor").fill(`${original}\n# a comment\n`);
  await page.waitForFunction(() => document.querySelector("[data-testid=gallery]").value === "edited");
  assert.equal(await label(), `(edited) ${title}`);
  await shot("page-gallery-edited.png");
  // Undoing the edit makes it the example again.
  await byTestId("editor").fill(original);
  await page.waitForFunction(() => document.querySelector("[data-testid=gallery]").value === "depends-on");
  assert.equal(await label(), title);
  // Edited, then chosen again from the menu: the example as it was.
  await byTestId("editor").fill("# mine\n");
  await page.waitForFunction(() => document.querySelector("[data-testid=gallery]").value === "edited");
  await gallery.selectOption("depends-on");
  assert.equal(await byTestId("editor").inputValue(), original);
  assert.equal(await label(), title);
  // A share link of an edited example opens as one.
  await byTestId("editor").fill("# mine\n");
  await page.waitForFunction(() => document.querySelector("[data-testid=gallery]").value === "edited");
  await page.waitForTimeout(300); // the session is saved to the URL 150 ms after an edit
  const link = page.url();
  const other = await browser.context.newPage();
  browser.watch(other);
  await other.goto(link);
  await other.waitForSelector("body[data-ready=true]");
  assert.equal(await other.getByTestId("editor").inputValue(), "# mine\n");
  assert.equal(await other.getByTestId("gallery").evaluate((s) => s.selectedOptions[0]?.textContent), `(edited) ${title}`);
  await other.close();
  await gallery.selectOption("starter");
});

test("the page logged no errors and every request succeeded", () => {
  assert.deepEqual(problems, []);
});
