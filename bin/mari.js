#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled package (run `npm run build` first).
import { main } from "../dist/cli/main.js";

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`mari: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 3;
  },
);
