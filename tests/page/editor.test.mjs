// The editor (www/src/editor.js) on a long file, in Debian's headless Chromium: past 3,000 lines
// its textarea holds only the lines around the visible ones (a 10,000-line textarea took
// Chromium 0.2-1.3 s to lay out), and yet it edits as one file: typing after scrolling lands at
// the line typed on, a node clicked selects its block far down the file, line numbers and the
// caret's position count in the whole file. A short file is held whole, as before.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openBrowser } from "./browser.mjs";
import { decodeSession, encodeSession } from "../../www/src/state.js";
import { layered } from "../../bench/page/configs.mjs";

let browser, url, page, problems, shot;

before(async () => {
  browser = await openBrowser();
  ({ url, page, problems, shot } = browser);
});

after(() => browser?.close());

const editor = () => page.getByTestId("editor");
/** The files as the page holds them: what its share link encodes. */
async function filesOfPage() {
  await page.getByTestId("share").click();
  const link = await page.getByTestId("share").getAttribute("data-link");
  return decodeSession(new URL(link).hash).files;
}
async function open(files, extra = {}) {
  await page.goto("about:blank");
  await page.goto(url + encodeSession({ files, open: "main.tf", view: "resources", reduce: true, ...extra }));
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
}
/** Scrolls the code so that 1-based `line` is the first visible one. */
async function scrollToLine(line) {
  await page.getByTestId("code-scroll").evaluate((s, line) => {
    const lh = parseFloat(getComputedStyle(document.querySelector("[data-testid=editor]")).lineHeight);
    s.scrollTop = (line - 1) * lh;
    s.dispatchEvent(new Event("scroll"));
  }, line);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
/** Clicks at the start of the visible `line` (1-based). */
async function clickLine(line) {
  const box = await page.getByTestId("code-scroll").boundingBox();
  const { lh, top } = await page.getByTestId("code-scroll").evaluate((s) => ({ lh: parseFloat(getComputedStyle(document.querySelector("[data-testid=editor]")).lineHeight), top: s.scrollTop }));
  await page.mouse.click(box.x + 16, box.y + 12 + (line - 1) * lh - top + lh / 2);
}

test("a 10,000-line file: the textarea holds a window of it, and typing far down edits the line typed on", async () => {
  const text = layered(2000, 40);
  const total = text.split("\n").length;
  assert.ok(total > 9000, `${total} lines`);
  await open({ "main.tf": text });
  const held = await editor().evaluate((t) => t.value.split("\n").length);
  assert.ok(held < 1000, `the textarea holds ${held} lines`);
  // The scroll range is the whole file's.
  const { scrollHeight, lh } = await page.getByTestId("code-scroll").evaluate((s) => ({ scrollHeight: s.scrollHeight, lh: parseFloat(getComputedStyle(document.querySelector("[data-testid=editor]")).lineHeight) }));
  assert.ok(Math.abs(scrollHeight - (total * lh + 24)) < lh, `scrollHeight ${scrollHeight} for ${total} lines of ${lh}px`);

  await scrollToLine(6000);
  const lines = text.split("\n");
  const target = 6003;
  await clickLine(target);
  assert.equal(await page.getByTestId("cursor").textContent(), `Ln ${target}, Col 1`);
  await page.keyboard.type("# typed here\n");
  const after = (await filesOfPage())["main.tf"].split("\n");
  assert.equal(after.length, total + 1);
  assert.equal(after[target - 1], "# typed here");
  assert.equal(after[target], lines[target - 1]);
  assert.deepEqual(after.slice(0, target - 1), lines.slice(0, target - 1));
  assert.deepEqual(after.slice(target), lines.slice(target - 1));
  // The gutter numbers the lines of the whole file.
  const gutter = await page.getByTestId("gutter").textContent();
  assert.ok(gutter.includes(`\n${target}\n`), "the gutter shows the line's number");
  await shot("editor-long-file.png");

  // Scrolled back to the top: the window follows, and typing there edits the first lines.
  await scrollToLine(1);
  await clickLine(2);
  await page.keyboard.type("#");
  await page.waitForTimeout(200);
  const top = (await filesOfPage())["main.tf"].split("\n");
  assert.equal(top[1], `#${lines[1]}`);
  assert.equal(top[target - 1], "# typed here");
  assert.deepEqual(problems, []);
});

test("a long file: the caret walks past the lines held, and the view follows it", async () => {
  const text = layered(2000, 40);
  await open({ "main.tf": text });
  await scrollToLine(5000);
  await clickLine(5002);
  for (let i = 0; i < 450; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await page.getByTestId("cursor").textContent(), "Ln 5452, Col 1");
  // The caret's line is on screen.
  const { top, height, lh } = await page.getByTestId("code-scroll").evaluate((s) => ({ top: s.scrollTop, height: s.clientHeight, lh: parseFloat(getComputedStyle(document.querySelector("[data-testid=editor]")).lineHeight) }));
  const y = 12 + 5451 * lh;
  assert.ok(y >= top && y + lh / 2 <= top + height, `line 5452 at ${y} in view ${top}-${top + height}`);
  await page.keyboard.type("#");
  const after = (await filesOfPage())["main.tf"].split("\n");
  assert.equal(after[5451], `#${text.split("\n")[5451]}`);
  assert.deepEqual(problems, []);
});

test("a long file: select-all takes the whole file, to copy and to replace", async () => {
  const text = layered(2000, 40);
  await open({ "main.tf": text });
  await scrollToLine(5000);
  await clickLine(5002);
  await page.keyboard.press("Control+A");
  // What a copy puts on the clipboard: the whole file, not the lines the textarea holds.
  const copied = await editor().evaluate((t) => {
    const data = new DataTransfer();
    t.dispatchEvent(new ClipboardEvent("copy", { clipboardData: data, bubbles: true, cancelable: true }));
    return data.getData("text/plain");
  });
  assert.equal(copied, text);
  await page.keyboard.type('resource "aws_s3_bucket" "only" {}\n');
  await page.waitForFunction(() => document.querySelector("[data-testid=resource-count]").textContent === "1", null, { timeout: 60_000 });
  assert.equal((await filesOfPage())["main.tf"], 'resource "aws_s3_bucket" "only" {}\n');
  assert.deepEqual(problems, []);
});

test("a long file: a node clicked on the graph selects its block in the editor, far down the file", async () => {
  const text = layered(2000, 40);
  await open({ "main.tf": text }, { view: "plan" });
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 300_000 });
  await page.getByTestId("search").fill("aws_instance.r1900");
  await page.getByTestId("search").press("Enter");
  await page.locator("[data-testid=graph-node].selected").waitFor();
  const line = text.split("\n").findIndex((l) => l === 'resource "aws_instance" "r1900" {') + 1;
  assert.equal(await page.getByTestId("cursor").textContent(), `Ln ${line}, Col 1`);
  const selected = await editor().evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.match(selected, /^resource "aws_instance" "r1900"/);
  assert.deepEqual(problems, []);
});

test("a short file is held whole: a click below the code puts the caret at its end", async () => {
  const text = 'resource "aws_s3_bucket" "b" {\n  bucket = "x"\n}\n';
  await open({ "main.tf": text });
  assert.equal(await editor().inputValue(), text);
  const box = await page.getByTestId("code-scroll").boundingBox();
  await page.mouse.click(box.x + 100, box.y + box.height - 20);
  assert.equal(await page.getByTestId("cursor").textContent(), "Ln 4, Col 1");
  await page.keyboard.type('resource "aws_s3_bucket" "c" {}\n');
  await page.waitForFunction(() => document.querySelector("[data-testid=resource-count]").textContent === "2");
  assert.deepEqual(problems, []);
});
