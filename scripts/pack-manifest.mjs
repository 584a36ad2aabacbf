#!/usr/bin/env node
// `npm pack` / `npm publish` hooks: the published package.json has no `prepare` script (it builds
// dist/ from a clone; the tarball ships dist/ built, and npm would otherwise try to run it on a
// consumer's install from git-like sources and warn). `strip` (prepack) saves package.json and
// writes it without `prepare`; `restore` (postpack) puts the saved file back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const MANIFEST = join(ROOT, "package.json");
const SAVED = join(ROOT, ".package.json.prepack");

const action = process.argv[2];
if (action === "strip") {
  const text = readFileSync(MANIFEST, "utf8");
  if (!existsSync(SAVED)) writeFileSync(SAVED, text);
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (action === "restore") {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
