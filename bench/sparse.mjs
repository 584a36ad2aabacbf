#!/usr/bin/env node
// Sparse runs: `mari eval` on 100,000 runs that each answer one case of a 160-case slice (the case
// drawn at random per run), with the default reports (json, md, html, junit, cases.jsonl). Targets:
// under 10 s CPU, under 512 MB peak RSS, cases.jsonl at most 2× the dump, report.html under 10 MB.
// Needs a build. Writes bench/results/sparse.json (or --name NAME → bench/results/NAME.json).
//   node bench/sparse.mjs [--repeat K] [--mari PATH/bin/mari.js] [--name NAME]
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { flag, measureChild, median, ROOT, TIMER } from "./lib/measure.mjs";
import { lcg } from "./lib/dumps.mjs";

const OUT = join(ROOT, "bench/out/sparse");
const REPEAT = flag("--repeat", 3);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const MARI = arg("--mari", join(ROOT, "bin/mari.js"));
const NAME = arg("--name", "sparse");
const RUNS = 100_000;
const CASES = 160;
mkdirSync(OUT, { recursive: true });

const cases = readFileSync(join(ROOT, "datasets/contradoc/contradoc-891.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .slice(0, CASES)
  .map((l) => JSON.parse(l));
const slice = join(OUT, "slice.jsonl");
const dump = join(OUT, "dump.jsonl");
writeFileSync(slice, cases.map((c) => JSON.stringify(c)).join("\n") + "\n");
const rand = lcg(160);
const parts = [];
for (let run = 0; run < RUNS; run++) {
  const c = cases[rand(CASES)];
  const judgment = rand(10) < 7 ? c.label : !c.label;
  const ids = judgment ? [1 + rand(3)] : [];
  parts.push(`{"case_id":${JSON.stringify(c.id)},"run":${run},"judgment":${judgment},"evidence_sentence_ids":[${ids}],"reasoning":"see [1]"}\n`);
}
writeFileSync(dump, parts.join(""));

const report = join(OUT, `${NAME}-report`);
const args = [MARI, "eval", slice, "--predictions", dump, "--out", report, "--workers", "1", "--progress", "none", "--quiet"];
const samples = [];
for (let k = 0; k < REPEAT; k++) {
  const sample = await measureChild(args);
  samples.push(sample);
  console.log(NAME, JSON.stringify(sample));
}
const size = (file) => statSync(join(report, file)).size;
const m = median(samples);
const dumpBytes = statSync(dump).size;
const result = {
  command: `npm run bench -- sparse   (node bench/sparse.mjs --repeat ${REPEAT})`,
  eval: `node ${args.map((a) => a.replace(`${ROOT}/`, "")).join(" ")}`,
  timer: TIMER,
  cores: cpus().length,
  runs: RUNS,
  cases: CASES,
  dump_bytes: dumpBytes,
  cases_jsonl_bytes: size("cases.jsonl"),
  cases_jsonl_over_dump: Number((size("cases.jsonl") / dumpBytes).toFixed(3)),
  report_html_bytes: size("report.html"),
  median_cpu_seconds: m.cpu_seconds,
  median_wall_seconds: m.wall_seconds,
  peak_rss_mb: Math.max(...samples.map((s) => s.peak_rss_mb ?? 0)),
  targets: { cpu_seconds: 10, peak_rss_mb: 512, cases_jsonl_over_dump: 2, report_html_bytes: 10_000_000 },
  samples,
};
result.met = result.median_cpu_seconds < 10 && result.peak_rss_mb < 512 && result.cases_jsonl_over_dump <= 2 && result.report_html_bytes < 10_000_000;
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, `bench/results/${NAME}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ ...result, samples: undefined }, null, 2));
