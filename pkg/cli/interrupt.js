// Ctrl-C as Terraform handles it during an operation (command/meta.go, views/operation.go):
// the first SIGINT prints "Interrupt received. ... Gracefully shutting down..." and asks the
// operation to stop (no new provider operations; those in flight finish; the state is
// written); a second one prints "Two interrupts received. Exiting immediately. ..." to stderr
// and exits at once with status 1.

import { wordWrap } from "./common.js";

const INTERRUPTED = "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n";
const FATAL = "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n";

/**
 * Installs the handler for one operation. Returns `{ signal, interrupted, dispose }`:
 * `signal` aborts on the first SIGINT; `dispose()` removes the handler.
 */
export function onInterrupt() {
  const controller = new AbortController();
  let count = 0;
  const handler = () => {
    count++;
    if (count === 1) {
      process.stdout.write(`${wordWrap(INTERRUPTED)}\n`);
      controller.abort(new Error("interrupted"));
    } else {
      process.stderr.write(`${wordWrap(FATAL)}\n`);
      process.exit(1);
    }
  };
  process.on("SIGINT", handler);
  return {
    signal: controller.signal,
    get interrupted() {
      return count > 0;
    },
    dispose: () => process.off("SIGINT", handler),
  };
}
