#!/usr/bin/env node
// `npm run bench [-- NAME ...]`: runs every bench/*.mjs (or only the named ones, e.g. `eval`),
// one after another in child processes, and stops at the first failure. Each benchmark writes its
// own bench/results/NAME.json. Needs a build (`npm run build`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BENCH = join(ROOT, "bench");
if (!existsSync(join(ROOT, "dist/cli/main.js"))) {
  console.error("bench: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const requested = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const available = readdirSync(BENCH)
  .filter((f) => f.endsWith(".mjs"))
  .map((f) => f.slice(0, -4))
  .sort();
const chosen = requested.length > 0 ? requested : available;
for (const name of chosen) {
  if (!available.includes(name)) {
    console.error(`bench: no bench/${name}.mjs (available: ${available.join(", ")})`);
    process.exit(2);
  }
  console.log(`== bench/${name}.mjs`);
  const r = spawnSync(process.execPath, [join(BENCH, `${name}.mjs`)], { stdio: "inherit", cwd: ROOT });
  if (r.status !== 0) {
    console.error(`bench: ${name} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}
