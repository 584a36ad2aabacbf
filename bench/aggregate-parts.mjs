#!/usr/bin/env node
// The aggregation phase's parts of a document eval, each timed alone in this process (CPU time,
// `process.cpuUsage`), on inputs shaped like the eval bench's dumps: the macro-F1 bootstrap (1,000
// resamples) and SetCons on 1,123 runs × 891 cases (the 1M dump; about 70 % of judgments right,
// evidence two IDs of 30) and on 8 runs × 37,500 cases (the GRPO-shaped dump; IDs of 5), the
// bootstrap also on 100 runs × 37,500 cases of which 95 % every run judges alike,
// and one million cases.jsonl run lines. A CPU profile of a whole run on a loaded machine
// attributes waiting time to whatever was running; these figures do not. `--base DIR` times
// another build (a directory with its dist/, e.g. a copy from before a change) interleaved with
// this one; best of `--repeat` (default 5). Needs a build. Writes bench/results/aggregate-parts.json.
//   node bench/aggregate-parts.mjs [--repeat K] [--base DIR]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { flag, ROOT } from "./lib/measure.mjs";
import { lcg } from "./lib/dumps.mjs";

const REPEAT = flag("--repeat", 5);
const baseAt = process.argv.indexOf("--base");
const builds = [["this", ROOT], ...(baseAt > 0 ? [["base", resolve(process.argv[baseAt + 1])]] : [])];

const load = async (root) => {
  const dist = (path) => import(pathToFileURL(join(root, "dist", path)).href);
  return {
    bootstrap: await dist("core/metrics/bootstrap.js"),
    setcons: await dist("core/metrics/setcons.js"),
    range: await dist("tasks/document/range.js"),
    bytes: await dist("tasks/document/line-bytes.js"),
  };
};

/**
 * R runs × n cases, run-major: labels, outcome codes, presence, judgments, each cell's evidence
 * (sorted IDs of at most 2 of `ids`). `agree` percent of the cases are judged right by every run.
 */
function runsShaped(n, R, ids, seed, agree = 0) {
  const rand = lcg(seed);
  const labels = Uint8Array.from({ length: n }, () => rand(2));
  const alike = Uint8Array.from({ length: n }, () => (agree > 0 && rand(100) < agree ? 1 : 0));
  const codes = new Uint8Array(n * R);
  const judgment = new Uint8Array(n * R);
  const evidence = [];
  for (let r = 0; r < R; r++) {
    for (let i = 0; i < n; i++) {
      const j = alike[i] || rand(10) < 7 ? labels[i] : 1 - labels[i];
      codes[r * n + i] = 2 * labels[i] + j;
      judgment[r * n + i] = j;
      evidence.push(j ? [...new Set([1 + rand(ids), 1 + rand(ids)])].sort((a, b) => a - b) : []);
    }
  }
  return { n, R, labels, codes, judgment, present: new Uint8Array(n * R).fill(1), evidence };
}

/** The run table's evidence key (count and up to three IDs below 2^13 packed in a number). */
const packedKey = (ids) => ids.reduce((key, id, k) => key + id * 4 * 8192 ** k, ids.length);

function setconsOf(m, shape) {
  const { n, R, present, judgment, evidence } = shape;
  return m.setcons.computeSetCons({
    caseIds: Array.from({ length: n }, (_, i) => `c${i}`),
    runs: { runs: R, cases: n, present, judgment },
    evidenceOf: (r, i) => evidence[r * n + i],
    evidenceKey: (r, i) => packedKey(evidence[r * n + i]),
    flippedCap: 50,
  });
}

function runLines(m) {
  const keys = Array.from({ length: 1123 }, (_, r) => JSON.stringify(String(r))).join("");
  const keyData = new TextEncoder().encode(keys);
  const keyStart = new Int32Array(1124);
  for (let r = 0; r < 1123; r++) keyStart[r + 1] = keyStart[r] + String(r).length + 2;
  const ids = Int32Array.from({ length: 4096 }, (_, k) => 1 + ((k * 7) % 30));
  const coverages = [0, 0.5, 1 / 3, 0.25, 1, 2 / 3];
  // A run writes coverage through its case's table of k / n renderings (builds that have one); every
  // coverage below is k / 12.
  const tails = m.range.coverageTailsOf?.(12);
  let sink = new m.bytes.ByteSink(new Uint8Array(1 << 20));
  let bytes = 0;
  for (let k = 0; k < 1_000_000; k++) {
    const r = k % 1123;
    const from = k % 4000;
    const count = k % 3 === 0 ? 0 : 2;
    m.range.writeRunLine(
      sink,
      keyData,
      keyStart[r],
      keyStart[r + 1],
      k % 7 === 0 ? 0 : k + 1,
      k % 2 === 1,
      k % 11 === 0 ? 3 : 0,
      ids,
      from,
      from + count,
      coverages[k % 6],
      tails,
    );
    if (sink.length > (1 << 20) - 512) {
      const full = sink.take();
      bytes += full.length;
      sink = new m.bytes.ByteSink(new Uint8Array(full.buffer));
    }
  }
  return bytes + sink.take().length;
}

const million = runsShaped(891, 1123, 30, 5);
const grpo = runsShaped(37_500, 8, 5, 6);
// A judge that agrees with itself on most cases: a few huge signature groups and many of one case.
const steady = runsShaped(37_500, 100, 5, 7, 95);
const parts = {
  "bootstrap 1,000 resamples, 1,123 runs × 891 cases": (m) => m.bootstrap.bootstrapMacroF1Values(million.labels, million.codes, million.R, 42, 0, 1000)[999],
  "bootstrap 1,000 resamples, 8 runs × 37,500 cases": (m) => m.bootstrap.bootstrapMacroF1Values(grpo.labels, grpo.codes, grpo.R, 42, 0, 1000)[999],
  "bootstrap 1,000 resamples, 100 runs × 37,500 cases, 95 % judged alike by every run": (m) =>
    m.bootstrap.bootstrapMacroF1Values(steady.labels, steady.codes, steady.R, 42, 0, 1000)[999],
  "SetCons, 1,123 runs × 891 cases": (m) => setconsOf(m, million).evidence,
  "SetCons, 8 runs × 37,500 cases": (m) => setconsOf(m, grpo).evidence,
  "1,000,000 cases.jsonl run lines": runLines,
};

const modules = Object.fromEntries(await Promise.all(builds.map(async ([name, root]) => [name, await load(root)])));
const results = [];
for (const [part, run] of Object.entries(parts)) {
  const best = Object.fromEntries(builds.map(([name]) => [name, Infinity]));
  const values = {};
  for (let k = 0; k < REPEAT; k++) {
    for (const [name] of builds) {
      const start = process.cpuUsage();
      values[name] = run(modules[name]);
      const used = process.cpuUsage(start);
      best[name] = Math.min(best[name], (used.user + used.system) / 1000);
    }
  }
  // The builds must agree on what they computed.
  if (new Set(Object.values(values)).size !== 1) throw new Error(`${part}: the builds disagree: ${JSON.stringify(values)}`);
  const row = { part, ...Object.fromEntries(builds.map(([name]) => [`${name}_cpu_ms`, Math.round(best[name])])) };
  console.log(JSON.stringify(row));
  results.push(row);
}
writeFileSync(
  join(ROOT, "bench/results/aggregate-parts.json"),
  `${JSON.stringify(
    {
      command: `node bench/aggregate-parts.mjs --repeat ${REPEAT}${baseAt > 0 ? " --base DIR" : ""}`,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version, load_average_1m_at_end: Number(loadavg()[0].toFixed(2)) },
      note: "best of --repeat, CPU milliseconds in this process; base_cpu_ms: the build before the change (bench/results/HISTORY.md)",
      results,
    },
    null,
    2,
  )}\n`,
);
