#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled package (run `npm run build` first).
import { main } from "../dist/cli/main.js";

// A reader that goes away (`mari … | head`) is not an error of ours: stop quietly.
process.stdout.on("error", (err) => {
  if (err && err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`mari: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 3;
  },
);
