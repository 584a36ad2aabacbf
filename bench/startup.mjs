#!/usr/bin/env node
// Start-up time of `mari --help` (docs/eval.md, "Performance" target: under 150 ms). Runs the built CLI 20 times in
// child processes and records the median and the slowest, in bench/results/startup.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/mari.js");
const RUNS = 20;

function once() {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, "--help"], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`mari --help exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

once(); // warm the file cache
const times = Array.from({ length: RUNS }, once).sort((a, b) => a - b);
const result = {
  command: "node bin/mari.js --help",
  runs: RUNS,
  median_ms: Number(times[Math.floor(RUNS / 2)].toFixed(1)),
  max_ms: Number(times[RUNS - 1].toFixed(1)),
  target_ms: 150,
  node: process.version,
  measured_at: new Date().toISOString(),
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/startup.json"), JSON.stringify(result, null, 2) + "\n");
console.log(`mari --help: median ${result.median_ms} ms, slowest ${result.max_ms} ms over ${RUNS} runs (target < 150 ms)`);
