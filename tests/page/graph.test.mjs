// The playground's graph, node details, console, tabs, gallery, share link, build steps and walk,
// in Debian's headless Chromium via playwright-core. Expectations come from the package itself
// (pkg/index.js in Node): the page must draw exactly the graph the package builds and explain
// each edge with the package's sentences. Screenshots go to tests/artifacts/ (look at them).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { artifacts, openBrowser, injected } from "./browser.mjs";
import { buildGraph, evaluate, loadConfig } from "../../pkg/index.js";
import { GALLERY } from "../../www/src/examples.js";
import { resourceView } from "../../www/src/model.js";

const example = (id) => GALLERY.find((g) => g.id === id);
const STARTER = example("starter").files;

let browser, url, context, page, problems, watch, shot;

before(async () => {
  assert.ok(existsSync(fileURLToPath(new URL("../../www/vendor/viz.js", import.meta.url))), "www/vendor/viz.js is missing: run scripts/build");
  browser = await openBrowser();
  ({ url, context, page, problems, watch, shot } = browser);
  await fresh();
});

after(() => browser?.close());

const byTestId = (id) => page.getByTestId(id);
const graphReady = (p = page) => p.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });

async function fresh(hash = "") {
  // A new document each time (a hash-only change would not reload the page).
  await page.goto("about:blank");
  await page.goto(`${url}${hash}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await graphReady();
}

async function chooseExample(id) {
  await byTestId("gallery").selectOption(id);
  await graphReady();
}

async function chooseView(view) {
  await byTestId("view").selectOption(view);
  await graphReady();
}

const drawnNames = () => page.locator("[data-testid=graph-node]").evaluateAll((els) => els.map((e) => e.dataset.name).sort());
const drawnEdges = () => page.locator("[data-testid=graph-edge]").evaluateAll((els) => els.map((e) => `${e.dataset.from} -> ${e.dataset.to}`).sort());
const node = (name) => page.locator(`[data-testid=graph-node][data-name="${name.replace(/["\\]/g, "\\$&")}"]`);

test("each view draws exactly the package's graph: one SVG node per node, one edge per edge", async () => {
  await chooseExample("starter");
  for (const view of ["plan", "validate", "destroy", "apply"]) {
    await chooseView(view);
    const g = buildGraph(STARTER, { operation: view });
    assert.deepEqual(await drawnNames(), g.nodes().map((n) => n.name).sort(), view);
    assert.deepEqual(await drawnEdges(), g.edges().map((e) => `${e.from} -> ${e.to}`).sort(), view);
    assert.equal(await byTestId("node-count").textContent(), String(g.nodes().length));
    if (view === "plan") await shot("graph-plan-view.png");
    g.free();
  }
  await chooseView("resources");
  const g = buildGraph(STARTER);
  const rv = resourceView(g.nodes(), g.edges());
  assert.deepEqual(await drawnNames(), rv.nodes.map((n) => n.key).sort());
  assert.deepEqual(await drawnEdges(), rv.edges.map((e) => `${e.from} -> ${e.to}`).sort());
  assert.deepEqual(await drawnNames(), ["aws_eip.web", "aws_instance.web", "aws_security_group.web", "data.aws_ami.ubuntu"]);
  await shot("graph-resources-view.png");
});

test("reduction off draws the edges transitive reduction removes", async () => {
  await chooseExample("starter");
  await chooseView("plan");
  const reduced = buildGraph(STARTER);
  const full = buildGraph(STARTER, { reduce: false });
  assert.ok(full.edges().length > reduced.edges().length);
  await byTestId("reduce").uncheck();
  await graphReady();
  assert.deepEqual(await drawnEdges(), full.edges().map((e) => `${e.from} -> ${e.to}`).sort());
  await byTestId("reduce").check();
  await graphReady();
  assert.equal((await drawnEdges()).length, reduced.edges().length);
});

test("a cluster per module and a shape per node kind", async () => {
  await chooseExample("module");
  assert.equal(await byTestId("view").inputValue(), "plan");
  const clusters = await page.locator("[data-testid=graph] g.cluster > title").allTextContents();
  assert.deepEqual(clusters, ["module.network"]);
  // The module's resources are drawn inside its cluster.
  const inCluster = await page.locator("[data-testid=graph] g.cluster").evaluate((c) => {
    const box = c.getBoundingClientRect();
    return [...document.querySelectorAll("[data-testid=graph-node]")]
      .filter((n) => {
        const r = n.getBoundingClientRect();
        return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
      })
      .map((n) => n.dataset.name)
      .sort();
  });
  assert.ok(inCluster.includes("module.network.aws_vpc.this (expand)"), inCluster.join(", "));
  assert.ok(!inCluster.includes("aws_instance.app (expand)"));
  const shapeOf = (name) => node(name).evaluate((g) => [g.getAttribute("class"), g.querySelector("polygon, ellipse, path")?.tagName, g.querySelectorAll("ellipse").length, g.querySelector("polygon")?.getAttribute("points").trim().split(/\s+/).length]);
  const provider = await shapeOf('provider["registry.terraform.io/hashicorp/aws"]');
  assert.match(provider[0], /kind-provider/);
  assert.equal(provider[3], 5, "a diamond: four corners and the closing point");
  const root = await shapeOf("root");
  assert.match(root[0], /kind-root/);
  assert.equal(root[2], 2, "root is a double circle");
  assert.match((await shapeOf("module.network.var.cidr (expand)"))[0], /kind-variable/);
  assert.match((await shapeOf("output.vpc_id (expand)"))[0], /kind-output/);
  assert.match((await shapeOf("aws_instance.app (expand)"))[0], /kind-resource/);
  await shot("graph-module-clusters.png");
});

test("click a node: its source in the editor, its dependencies and dependents, why each edge exists", async () => {
  await chooseExample("starter");
  await chooseView("plan");
  const name = "aws_instance.web (expand)";
  const g = buildGraph(STARTER);
  await node(name).click();
  await byTestId("node-details").waitFor();
  assert.equal(await byTestId("node-name").textContent(), name);
  // The source: the editor's caret moves to the block.
  const range = g.nodes().find((n) => n.name === name).range;
  assert.equal(await byTestId("cursor").textContent(), `Ln ${range.start.line}, Col ${range.start.column}`);
  const deps = await byTestId("dependencies").getByTestId("neighbour").evaluateAll((els) => els.map((e) => e.dataset.name));
  assert.deepEqual(deps, g.dependencies(name));
  const dependents = await byTestId("dependents").getByTestId("neighbour").evaluateAll((els) => els.map((e) => e.dataset.name));
  assert.deepEqual(dependents, g.dependents(name));
  // Each dependency's reasons are the package's explain() sentences.
  for (const d of deps) {
    const shown = await byTestId("dependencies").locator(`[data-testid=neighbour][data-name="${d.replace(/"/g, '\\"')}"] .why-text`).allTextContents();
    assert.deepEqual(shown, g.explain(name, d), d);
  }
  // The AMI reference: its expression highlighted in the editor.
  const ami = "data.aws_ami.ubuntu (expand)";
  const why = g.edges().find((e) => e.from === name && e.to === ami).why[0];
  await byTestId("dependencies").locator(`[data-testid=neighbour][data-name="${ami}"] [data-testid=why-go]`).click();
  const marked = await page.locator("[data-testid=mark-explain]").textContent();
  assert.equal(marked, STARTER["main.tf"].slice(why.range.start.byte, why.range.end.byte));
  assert.match(marked, /^data\.aws_ami\.ubuntu/);
  const selected = await byTestId("editor").evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.equal(selected, marked);
  // The node and its neighbours are highlighted, the rest dimmed.
  assert.match(await node(name).getAttribute("class"), /selected/);
  assert.match(await node(ami).getAttribute("class"), /neighbour/);
  await shot("graph-node-explained.png");
  g.free();
});

test("click an edge: why it exists; in the resources view, the path behind it hop by hop", async () => {
  await chooseExample("starter");
  await chooseView("plan");
  const g = buildGraph(STARTER);
  const from = "aws_eip.web (expand)";
  const to = "aws_instance.web (expand)";
  await page.locator(`[data-testid=graph-edge][data-from="${from}"][data-to="${to}"]`).click();
  await byTestId("edge-details").waitFor();
  assert.deepEqual(await byTestId("details").locator(".why-text").allTextContents(), g.explain(from, to));

  await chooseView("resources");
  await page.locator('[data-testid=graph-edge][data-from="aws_instance.web"][data-to="aws_security_group.web"]').click();
  await byTestId("edge-details").waitFor();
  const hops = await byTestId("hop").count();
  assert.ok(hops >= 1);
  assert.match(await byTestId("details").textContent(), /aws_instance\.web refers to aws_security_group\.web/);
  g.free();
});

test("a cycle is drawn in red and explained edge by edge", async () => {
  await chooseExample("cycle");
  assert.equal(await byTestId("status").textContent(), "cycle");
  const files = example("cycle").files;
  const g = buildGraph(files);
  const [cycle] = g.cycles();
  const red = await page.locator("[data-testid=graph-edge].cycle").evaluateAll((els) => els.map((e) => [e.dataset.from, e.dataset.to, e.querySelector("path").getAttribute("stroke")]));
  assert.ok(red.length >= 2);
  for (const [from, to, stroke] of red) {
    assert.equal(stroke, "#d32f2f");
    assert.ok(cycle.includes(from) || cycle.some((n) => n.startsWith(from)), from);
    assert.ok(cycle.includes(to) || cycle.some((n) => n.startsWith(to)), to);
  }
  await chooseView("plan");
  const loop = await byTestId("cycle-edge").evaluateAll((els) => els.map((e) => [e.querySelector("code").textContent, [...e.querySelectorAll(".why-text")].map((w) => w.textContent)]));
  assert.ok(loop.length >= 2, "a loop has at least two edges");
  const ends = loop.map(([edge]) => edge.split(" → "));
  assert.equal(ends.at(-1)[1], ends[0][0], "the loop closes");
  for (const [[from, to], [, why]] of ends.map((e, i) => [e, loop[i]])) assert.deepEqual(why, g.explain(from, to));
  // The diagnostics list the package's cycle error.
  assert.equal(await byTestId("diagnostic-count").textContent(), String(g.diagnostics.length));
  await shot("graph-cycle.png");
  g.free();
});

test("search marks the matching nodes; Enter selects the first", async () => {
  await chooseExample("vpc");
  await chooseView("plan");
  await byTestId("search").fill("aws_");
  const names = await drawnNames();
  const matches = await page.locator("[data-testid=graph-node].match").evaluateAll((els) => els.map((e) => e.dataset.name).sort());
  assert.deepEqual(matches, names.filter((n) => n.toLowerCase().includes("aws_")));
  assert.equal(await byTestId("graph-note").textContent(), `${matches.length} matches`);
  await byTestId("search").press("Enter");
  await byTestId("node-details").waitFor();
  assert.ok(matches.includes(await byTestId("node-name").textContent()));
  await shot("graph-search.png");
  await byTestId("search").fill("");
});

test("zoom in, zoom out, wheel and fit change the view box", async () => {
  const box = () => page.locator("[data-testid=graph-svg]").getAttribute("viewBox").then((v) => v.split(" ").map(Number));
  await byTestId("zoom-fit").click();
  const fit = await box();
  await byTestId("zoom-in").click();
  const zin = await box();
  assert.ok(zin[2] < fit[2], "zoomed in: a narrower box");
  await byTestId("zoom-out").click();
  await byTestId("zoom-out").click();
  assert.ok((await box())[2] > zin[2]);
  const canvas = await byTestId("graph").boundingBox();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, -400);
  const wheeled = await box();
  // Drag pans.
  await page.mouse.down();
  await page.mouse.move(canvas.x + canvas.width / 2 + 80, canvas.y + canvas.height / 2 + 30, { steps: 5 });
  await page.mouse.up();
  const panned = await box();
  assert.ok(panned[0] < wheeled[0], "dragging right moves the view left");
  await byTestId("zoom-fit").click();
  assert.deepEqual(await box(), fit);
});

test("XSS probe: hostile names and values show as text, in the graph's SVG too", async () => {
  const P = `<img src=x onerror="window.__xss=1">'"<script>window.__xss=2</script>`;
  const NAME = `<img src=x onerror="window.__xss=3">'"`; // a file name: no slash
  const state = JSON.stringify({
    version: 4, terraform_version: "1.11.4", serial: 1, lineage: "x", outputs: {},
    resources: [{ mode: "managed", type: "aws_instance", name: "old", provider: 'provider["registry.terraform.io/hashicorp/aws"]', instances: [{ index_key: P, schema_version: 0, attributes: { id: "i-1" } }] }],
  });
  const files = {
    "main.tf": `variable "probe" {\n  default = ${JSON.stringify(P)}\n}\n\nresource "aws_instance" "new" {\n  tags = { Name = var.probe }\n}\n`,
    "terraform.tfstate": state,
    [`${NAME}.tf`]: `# ${P}\nlocals {\n  x = ${JSON.stringify(P)}\n  broken = \n}\n`,
  };
  const { encodeSession } = await import("../../www/src/state.js");
  await page.evaluate(() => (window.__xss = 0));
  await fresh(encodeSession({ files, open: "main.tf", view: "plan", reduce: true }));
  await page.evaluate(() => (window.__xss = 0));
  // The broken file: an error diagnostic naming the hostile file; no graph.
  assert.equal(await byTestId("status").textContent(), "errors");
  const tabs = await byTestId("file-tab").evaluateAll((els) => els.map((e) => e.dataset.path));
  assert.ok(tabs.includes(`${NAME}.tf`));
  assert.match(await byTestId("diagnostics").textContent(), /<img src=x onerror=/);
  // Fix it: the graph draws the orphan instance whose key is the probe.
  page.once("dialog", (d) => d.accept());
  await page.locator(`[data-testid=file-tab][data-path="${`${NAME}.tf`.replace(/["\\]/g, "\\$&")}"] [data-testid=file-close]`).click();
  await page.waitForFunction(() => document.querySelector("[data-testid=status]").textContent === "loaded");
  await graphReady();
  const orphan = (await drawnNames()).find((n) => n.includes("(orphan)"));
  // The key is printed quoted, as Terraform prints an instance key.
  assert.ok(orphan?.includes("<script>window.__xss=2</script>") && orphan.includes("<img src=x onerror="), orphan);
  const svgText = await node(orphan).locator("text").textContent();
  assert.ok(svgText.includes("<img src=x onerror="), svgText);
  // The console prints the value as text too.
  await byTestId("tab-console").click();
  await byTestId("console-input").fill("var.probe");
  await byTestId("console-input").press("Enter");
  const { "main.tf": main, "terraform.tfstate": tfstate } = files;
  assert.equal(await byTestId("console-output").last().textContent(), evaluate({ "main.tf": main }, "var.probe", { state: tfstate }).rendered);
  await node(orphan).click();
  await byTestId("node-details").waitFor();
  assert.equal(await byTestId("node-name").textContent(), orphan);
  assert.deepEqual(await injected(page), { xss: 0, imgs: 0, scripts: ["importmap", `${url}src/main.js`], svgForeign: 0 });
  await shot("graph-xss-probe.png");
});

test("the console evaluates against the configuration as terraform console prints", async () => {
  await fresh();
  await byTestId("tab-console").click();
  const run = async (expression) => {
    await byTestId("console-input").fill(expression);
    await byTestId("console-input").press("Enter");
    return byTestId("console-entry").last();
  };
  for (const expression of ["var.region", "upper(var.region)", "{ a = [1, 2], b = var.region }", "aws_instance.web"]) {
    const expected = evaluate(STARTER, expression);
    const entry = await run(expression);
    assert.equal(await entry.getByTestId("console-output").textContent(), expected.rendered, expression);
    assert.equal(await entry.getByTestId("console-type").textContent(), `type: ${expected.type}`);
  }
  // Types span lines as terraform console (1.11.4) prints `type(["a", "b"])`: as shown, not
  // only in the text (innerText is what the page renders).
  const tuple = "tuple([\n    string,\n    string,\n])";
  const listed = await run('["a", "b"]');
  assert.equal(await listed.getByTestId("console-type").innerText(), `type: ${tuple}`);
  assert.equal(await (await run('type(["a", "b"])')).getByTestId("console-output").innerText(), tuple);
  const bad = await run("var.nope");
  // Exactly what `terraform console` (1.11.4) printed for `var.nope`, colours removed.
  assert.equal(
    await bad.getByTestId("console-error").textContent(),
    [
      "╷",
      "│ Error: Reference to undeclared input variable",
      "│ ",
      "│   on <console-input> line 1:",
      "│   (source code not available)",
      "│ ",
      '│ An input variable with the name "nope" has not been declared. This variable',
      '│ can be declared with a variable "nope" {} block.',
      "╵",
    ].join("\n"),
  );
  await byTestId("console-input").press("ArrowUp");
  assert.equal(await byTestId("console-input").inputValue(), "var.nope");
  await shot("console.png");
});

test("files in tabs: add (a module folder), rename, delete; the graph follows", async () => {
  await fresh();
  await chooseView("resources");
  const answer = (text) => page.once("dialog", (d) => d.accept(text));
  answer("modules/logs/main.tf");
  await byTestId("file-add").click();
  assert.equal(await byTestId("filename").textContent(), "modules/logs/main.tf");
  await byTestId("editor").fill('resource "aws_s3_bucket" "logs" {\n  bucket = var.name\n}\n\nvariable "name" {}\n');
  answer("logs.tf");
  await byTestId("file-add").click();
  await byTestId("editor").fill('module "logs" {\n  source = "./modules/logs"\n  name   = "tfgraph-logs"\n}\n');
  await page.locator('[data-testid=graph-node][data-name="module.logs.aws_s3_bucket.logs"]').waitFor();
  assert.deepEqual(await byTestId("file-tab").evaluateAll((els) => els.map((e) => e.dataset.path)), ["logs.tf", "main.tf", "modules/logs/main.tf"]);
  await shot("editor-tabs-module.png");
  // Rename: double-click the tab.
  answer("buckets.tf");
  await page.locator('[data-testid=file-tab][data-path="logs.tf"] .tab-name').dblclick();
  await page.locator('[data-testid=file-tab][data-path="buckets.tf"]').waitFor();
  // Delete: the module call goes, and with it the module's resource.
  page.once("dialog", (d) => d.accept());
  await page.locator('[data-testid=file-tab][data-path="buckets.tf"] [data-testid=file-close]').click();
  await page.locator('[data-testid=graph-node][data-name="module.logs.aws_s3_bucket.logs"]').waitFor({ state: "detached" });
  assert.deepEqual(await byTestId("file-tab").evaluateAll((els) => els.map((e) => e.dataset.path)), ["main.tf", "modules/logs/main.tf"]);
});

test("a syntax error is marked at its line in the gutter and under the text", async () => {
  await fresh();
  const broken = 'resource "aws_instance" "web" {\n  ami = "ami-123"\n  instance_type = \n}\n';
  let line;
  try {
    loadConfig({ "main.tf": broken });
  } catch (e) {
    line = e.diagnostics.find((d) => d.severity === "error").range.start.line;
  }
  await byTestId("editor").fill(broken);
  await byTestId("gutter-error").waitFor();
  assert.equal(await byTestId("gutter-error").getAttribute("data-line"), String(line));
  assert.equal(await page.locator("[data-testid=mark-error]").count(), 1);
  assert.equal(await byTestId("status").textContent(), "errors");
  await shot("editor-syntax-error.png");
});

test("the share link reproduces the session: files, open file, view, reduction, selection, the Run tab's settings", async () => {
  await chooseExample("module");
  await chooseView("validate");
  await byTestId("reduce").uncheck();
  await graphReady();
  await page.locator('[data-testid=file-tab][data-path="modules/network/outputs.tf"] .tab-name').click();
  await byTestId("editor").fill('output "vpc_id" {\n  value = aws_vpc.this.id\n}\n\noutput "subnet_ids" {\n  value = aws_subnet.this[*].id\n}\n\noutput "cidr" {\n  value = var.cidr\n}\n');
  await graphReady();
  await page.locator('[data-testid=graph-node][data-name="module.network.output.cidr (expand)"]').waitFor();
  await node("module.network.output.cidr (expand)").click();
  // The Run tab's settings, the selected node as the one to fail.
  await byTestId("tab-run").click();
  for (const [id, value] of [["parallelism", "4"], ["latency", "120"], ["jitter", "20"], ["seed", "77"]]) await byTestId(id).fill(value);
  await byTestId("fail-selected").click();
  assert.equal(await byTestId("fail-node").inputValue(), "module.network.output.cidr (expand)");
  await byTestId("share").click();
  const link = await byTestId("share").getAttribute("data-link");
  assert.ok(link.startsWith(url));
  const other = await context.newPage();
  watch(other);
  await other.goto(link);
  await other.waitForSelector("body[data-ready=true]");
  await graphReady(other);
  const get = (p) =>
    p.evaluate(() => ({
      view: document.querySelector("[data-testid=view]").value,
      reduce: document.querySelector("[data-testid=reduce]").checked,
      file: document.querySelector("[data-testid=filename]").textContent,
      text: document.querySelector("[data-testid=editor]").value,
      tabs: [...document.querySelectorAll("[data-testid=file-tab]")].map((t) => t.dataset.path),
      nodes: [...document.querySelectorAll("[data-testid=graph-node]")].map((n) => n.dataset.name).sort(),
      selected: document.querySelector("[data-testid=node-name]")?.textContent ?? null,
      run: ["parallelism", "latency", "jitter", "seed", "fail-node"].map((id) => document.querySelector(`[data-testid="${id}"]`).value),
    }));
  const mine = await get(page);
  const theirs = await get(other);
  assert.deepEqual(theirs, mine);
  assert.equal(theirs.view, "validate");
  assert.equal(theirs.reduce, false);
  assert.equal(theirs.selected, "module.network.output.cidr (expand)");
  assert.deepEqual(theirs.run, ["4", "120", "20", "77", "module.network.output.cidr (expand)"]);
  await other.screenshot({ path: join(artifacts, "share-link-reopened.png") });
  await other.close();
});

test("every gallery example loads and draws without errors (fan-out: 501 resources)", async () => {
  const times = {};
  for (const ex of GALLERY) {
    await chooseExample(ex.id);
    const count = Number(await byTestId("node-count").textContent());
    assert.ok(count > 0, ex.id);
    times[ex.id] = Number(await page.evaluate(() => document.body.dataset.renderMs));
    const g = buildGraph(ex.files, { state: ex.files["terraform.tfstate"], operation: (ex.view ?? "resources") === "resources" ? "plan" : ex.view });
    if ((ex.view ?? "resources") !== "resources") assert.equal(count, g.nodes().length, ex.id);
    g.free();
    if (ex.id === "orphan" || ex.id === "fan-out" || ex.id === "replace") await shot(`gallery-${ex.id}.png`);
  }
  assert.equal(Number(await byTestId("node-count").textContent()), 501);
  console.log(`# Graphviz layout ms per example: ${JSON.stringify(times)}`);
});

test("build steps: the graph after each transformer, with added and removed edges highlighted", async () => {
  await chooseExample("starter");
  await chooseView("plan");
  await byTestId("reduce").check();
  await graphReady();
  await byTestId("tab-steps").click();
  const g = buildGraph(STARTER, { traceSteps: true });
  assert.equal(await byTestId("step").count(), g.steps.length);
  const i = g.steps.findIndex((s) => s.name === "ReferenceTransformer");
  assert.ok(i > 0);
  await byTestId("step").nth(i).locator("button").click();
  await page.waitForSelector(`[data-testid=steps][data-drawn="${i}"]`);
  assert.equal(await byTestId("step-name").textContent(), "ReferenceTransformer");
  assert.equal(await byTestId("step-reason").textContent(), g.steps[i].reason);
  assert.equal(await byTestId("step-position").textContent(), `step ${i + 1} of ${g.steps.length}`);
  const added = await page.locator("[data-testid=graph-edge].added").count();
  assert.ok(added > 0, "the reference step adds edges");
  assert.match(await byTestId("step-delta").textContent(), new RegExp(`^\\+${added} edges`));
  assert.equal(await page.locator("[data-testid=graph-node]").count(), g.steps[i].nodes);
  await shot("steps-reference-transformer.png");
  // A step that removes edges: transitive reduction.
  const t = g.steps.findIndex((s) => s.name === "TransitiveReductionTransformer");
  if (t >= 0) {
    await byTestId("step").nth(t).locator("button").click();
    await page.waitForSelector(`[data-testid=steps][data-drawn="${t}"]`);
    assert.ok((await page.locator("[data-testid=graph-edge].removed").count()) > 0, "reduction removes edges");
    await shot("steps-transitive-reduction.png");
  }
  await byTestId("step-prev").click();
  await byTestId("step-final").click();
  await page.waitForSelector(`[data-testid=steps][data-drawn="-1"]`);
  assert.equal(await page.locator("[data-testid=graph-node]").count(), g.nodes().length);
  g.free();
});

test("walk with a failure: the failed node red, its dependents skipped, the rest done; timeline and what-if", async () => {
  await chooseExample("failure");
  await byTestId("tab-run").click();
  // Plan, Apply and Destroy live in the Plan / Apply tab now (tests/page/engine.test.mjs).
  assert.equal(await byTestId("plan").isDisabled(), false);
  await byTestId("latency").fill("40");
  await byTestId("fail-node").fill("aws_db_instance.main");
  await byTestId("walk").click();
  await page.waitForSelector("[data-testid=run][data-walk=failed]", { timeout: 30_000 });
  const state = (n) => node(n).getAttribute("data-state");
  assert.equal(await state("aws_db_instance.main"), "failed");
  assert.equal(await state("aws_instance.api"), "skipped");
  for (const n of ["aws_vpc.main", "aws_subnet.a", "aws_subnet.b", "aws_db_subnet_group.main", "aws_instance.worker"]) assert.equal(await state(n), "done", n);
  assert.match(await byTestId("walk-summary").textContent(), /^5 done · 1 failed · 1 skipped · 0 cancelled/);
  assert.equal(await byTestId("gantt-bar").count(), 6);
  assert.ok((await page.locator("[data-testid=gantt-bar].critical").count()) >= 3);
  assert.equal(await byTestId("whatif-point").count(), 32);
  await page.getByTestId("walk-charts").scrollIntoViewIfNeeded();
  await shot("walk-failure.png");
});

test("cancel stops new starts: running visits finish, the rest are cancelled", async () => {
  await chooseExample("fan-out");
  await byTestId("tab-run").click();
  await byTestId("latency").fill("400");
  await byTestId("fail-node").fill("");
  await byTestId("walk").click();
  await page.waitForSelector("[data-testid=graph-node][data-state=running]", { state: "attached" });
  await shot("walk-running.png");
  await byTestId("cancel").click();
  await page.waitForSelector("[data-testid=run][data-walk=cancelled]", { timeout: 30_000 });
  const counts = await page.evaluate(() => {
    const c = {};
    for (const n of document.querySelectorAll("[data-testid=graph-node]")) c[n.dataset.state] = (c[n.dataset.state] ?? 0) + 1;
    return c;
  });
  assert.ok(counts.cancelled > 400, JSON.stringify(counts));
  assert.equal(counts.done + counts.cancelled, 501, JSON.stringify(counts));
  assert.equal(counts.running ?? 0, 0);
  assert.match(await byTestId("walk-summary").textContent(), /cancelled/);
});

test("a dropped terraform.tfstate becomes the prior state: the plan graph gets the orphan", async () => {
  await fresh();
  await chooseView("plan");
  const state = JSON.stringify({
    version: 4, terraform_version: "1.11.4", serial: 1, lineage: "x", outputs: {},
    resources: [{ mode: "managed", type: "aws_s3_bucket", name: "gone", provider: 'provider["registry.terraform.io/hashicorp/aws"]', instances: [{ schema_version: 0, attributes: { id: "b-1" } }] }],
  });
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "prod.tfstate", { type: "application/json" }));
    document.body.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, state);
  await page.locator('[data-testid=file-tab][data-path="terraform.tfstate"]').waitFor();
  const expected = buildGraph({ ...STARTER, "terraform.tfstate": state }, { state }).nodes().map((n) => n.name).sort();
  assert.ok(expected.some((n) => n.startsWith("aws_s3_bucket.gone") && n.includes("orphan")), expected.join(", "));
  await page.locator('[data-testid=graph-node][data-name^="aws_s3_bucket.gone"]').waitFor();
  await graphReady();
  assert.deepEqual(await drawnNames(), expected);
  assert.ok((await byTestId("file-tab").count()) === 2, "the configuration stays");
});

test("the page logged no errors and reached nothing but its own server", () => {
  assert.deepEqual(problems, []);
});
