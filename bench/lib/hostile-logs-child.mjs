// One child of bench/hostile-logs.mjs: reads a batch of mutants (a JSON manifest) through mari's
// built readers and eval, one after another, and prints one JSON line per mutant: its outcome,
// milliseconds, and the process's peak RSS so far. Run with --max-old-space-size, so a heap
// blow-up ends the child (the parent counts it as a crash of the mutant in progress).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { checkMutant } from "./log-fuzz.mjs";
import { ROOT } from "./measure.mjs";

const { evaluateDocuments, InputError } = await import(join(ROOT, "dist/index.js"));
const { evalLogLines } = await import(join(ROOT, "dist/judges/eval-logs.js"));
const { detectEvalLog } = await import(join(ROOT, "dist/judges/log-kind.js"));
const api = { detectEvalLog, evalLogLines, evaluateDocuments, InputError };

// Loaded: the parent's per-mutant watchdog starts now, not while a loaded machine starts node.
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
const honest = new Set(JSON.parse(readFileSync(manifest.honest, "utf8")));
for (const path of manifest.files) {
  const started = process.hrtime.bigint();
  const outDir = `${path}.out`;
  let outcome;
  let detail;
  try {
    outcome = await checkMutant(api, { path, bytes: readFileSync(path), family: manifest.family, honest, slicePath: manifest.slice, outDir });
  } catch (err) {
    outcome = err?.kind ?? "crash";
    detail = String(err?.message ?? err).slice(0, 500);
  }
  rmSync(outDir, { recursive: true, force: true });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(`${JSON.stringify({ path, outcome, ms, rss_mb: process.resourceUsage().maxRSS / 1024, ...(detail ? { detail } : {}) })}\n`);
}
