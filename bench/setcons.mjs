#!/usr/bin/env node
// SetCons and the run table at many runs: `mari eval` on 100,000 runs × 10 cases and
// on 1,000,000 runs × 1 case (targets: under 10 s and 1 GB; under 30 s), as wall time, CPU and
// peak RSS of the child process, with a time limit per run so that a quadratic regression ends
// as a failed target rather than a hung benchmark. Needs a build. Writes bench/results/setcons.json.
//   node bench/setcons.mjs [--repeat K] [--limit SECONDS]
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { flag, measureChild, ROOT } from "./lib/measure.mjs";
import { lcg } from "./lib/dumps.mjs";

const OUT = join(ROOT, "bench/out/setcons");
const MARI = join(ROOT, "bin/mari.js");
const REPEAT = flag("--repeat", 1);
const LIMIT = flag("--limit", 120);
mkdirSync(OUT, { recursive: true });

const source = readFileSync(join(ROOT, "datasets/contradoc/contradoc-891.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));

function writeInputs(name, runs, caseCount) {
  const rand = lcg(31 + caseCount);
  const cases = source.slice(0, caseCount);
  const slice = join(OUT, `${name}-slice.jsonl`);
  const dump = join(OUT, `${name}-dump.jsonl`);
  writeFileSync(slice, cases.map((c) => JSON.stringify(c)).join("\n") + "\n");
  const parts = [];
  for (let run = 0; run < runs; run++) {
    for (const c of cases) {
      const judgment = rand(10) < 7 ? c.label : !c.label;
      const ids = judgment ? [1 + rand(3)] : [];
      parts.push(`{"case_id":${JSON.stringify(c.id)},"run":${run},"judgment":${judgment},"evidence_sentence_ids":[${ids}],"reasoning":"see [1]"}\n`);
    }
  }
  writeFileSync(dump, parts.join(""));
  return { slice, dump };
}

const configs = [
  { name: "runs100k-cases10", runs: 100_000, cases: 10, target_seconds: 10, target_rss_mb: 1024 },
  { name: "runs1m-cases1", runs: 1_000_000, cases: 1, target_seconds: 30, target_rss_mb: null },
];
const results = [];
for (const config of configs) {
  const { slice, dump } = writeInputs(config.name, config.runs, config.cases);
  const samples = [];
  for (let k = 0; k < REPEAT; k++) {
    const out = join(OUT, `${config.name}-report`);
    const args = [MARI, "eval", slice, "--predictions", dump, "--out", out, "--workers", "1", "--progress", "none", "--quiet", "--report", "json"];
    // A child that overruns the limit is stopped and recorded as such.
    const probe = spawnSync("timeout", [String(LIMIT), "true"]);
    const sample =
      probe.status === 0
        ? await measureChild([
            "--input-type=module",
            "-e",
            `import { spawnSync } from "node:child_process"; const r = spawnSync("timeout", [${JSON.stringify(String(LIMIT))}, process.execPath, ...${JSON.stringify(args)}], { stdio: "inherit" }); process.exit(r.status === 124 ? 0 : r.status ?? 3);`,
          ]).catch((err) => ({ error: String(err.message).slice(0, 500) }))
        : await measureChild(args);
    sample.timed_out = sample.wall_seconds !== undefined && sample.wall_seconds >= LIMIT;
    samples.push(sample);
    console.log(config.name, JSON.stringify(sample));
  }
  const ok = samples.filter((s) => s.wall_seconds !== undefined && !s.timed_out);
  const wall = ok.length ? ok.map((s) => s.wall_seconds).sort((a, b) => a - b)[Math.floor(ok.length / 2)] : null;
  const rss = ok.length ? Math.max(...ok.map((s) => s.peak_rss_mb ?? 0)) : null;
  results.push({
    ...config,
    median_wall_seconds: wall,
    peak_rss_mb: rss,
    samples,
    met: wall !== null && wall < config.target_seconds && (config.target_rss_mb === null || rss < config.target_rss_mb),
  });
}
const summary = {
  command: "npm run bench -- setcons   (node bench/setcons.mjs)",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, load_average_1m_at_end: loadavg()[0] },
  limit_seconds: LIMIT,
  results,
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/setcons.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(
  JSON.stringify(
    results.map(({ samples, ...r }) => r),
    null,
    2,
  ),
);
