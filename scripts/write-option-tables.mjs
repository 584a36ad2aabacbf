#!/usr/bin/env node
// Writes the flag tables of the docs pages from the option table (src/core/options/): the lines
// between `<!-- options: COMMAND COLUMNS -->` and `<!-- /options -->`. Run after `npm run build`:
//   node scripts/write-option-tables.mjs
// test/cli/option-tables.test.ts fails when a page is out of date.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const { writeOptionTables } = await import(join(ROOT, "dist/cli/options/doc-tables.js"));
for (const name of readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md"))) {
  const path = join(ROOT, "docs", name);
  const before = readFileSync(path, "utf8");
  const after = writeOptionTables(before);
  if (after !== before) {
    writeFileSync(path, after);
    process.stdout.write(`wrote ${path}\n`);
  }
}
