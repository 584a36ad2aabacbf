// Injected fault for the exit-code-3 tests, preloaded into a child CLI with
// NODE_OPTIONS=--import: node:crypto's createHash throws a plain Error (not an InputError), in the
// main thread or, with MARI_FAULT_THREAD=worker, only in worker threads. No test hook in src/.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { isMainThread } from "node:worker_threads";

const where = process.env.MARI_FAULT_THREAD ?? "main";
if ((where === "main") === isMainThread) {
  crypto.createHash = () => {
    throw new Error(`injected fault: createHash in the ${isMainThread ? "main thread" : "worker thread"}`);
  };
  // Named imports (`import { createHash } from "node:crypto"`) see the replacement too.
  syncBuiltinESMExports();
}
