// Terraform's approval prompt (command/ui_input.go): the question, its description indented
// by two spaces, "  Enter a value: ", one line read from standard input (trailing spaces
// dropped, leading ones kept: " yes" is not yes), then a newline.

import { createInterface } from "node:readline";

/** Why no answer came: standard input ended ("EOF") or the run was interrupted. */
export class PromptError extends Error {}

/**
 * Prints the prompt and resolves to the line typed (without its newline). Rejects with
 * PromptError("EOF") when standard input ends first, PromptError("interrupted") on `signal`.
 */
export function ask(query, description, signal) {
  process.stdout.write(`${query}\n${description.split("\n").map((l) => `  ${l}\n`).join("")}\n  Enter a value: `);
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin, terminal: false });
    // A newline after an answer or an interrupt, none after EOF (ui_input.go).
    const done = (fn, value, newline = true) => {
      signal?.removeEventListener("abort", onAbort);
      rl.removeAllListeners();
      rl.close();
      process.stdin.pause();
      if (newline) process.stdout.write("\n");
      fn(value);
    };
    const onAbort = () => done(reject, new PromptError("interrupted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    rl.once("line", (line) => done(resolve, line.trimEnd()));
    rl.once("close", () => done(reject, new PromptError("EOF"), false));
  });
}
