#!/usr/bin/env node
// The size of a document eval's cases.jsonl and what writing and reading it costs (target
// 3), on the GRPO-shaped dump (37,500 generated documents of five sentences × 8 samples,
// bench/lib/dumps.mjs): `mari eval` with the default reports (json, md, html with its case explorer,
// junit, cases.jsonl), then `mari eval … --baseline` against that report and `mari diff` of the two
// (both read cases.jsonl back), each --workers 1, REPEAT times interleaved; best wall and CPU.
// `--mari PATH` measures another build's bin/mari.js (e.g. a checkout of the commit before) and
// `--name NAME` writes bench/results/NAME.json (default: cases). Needs a build.
//   node bench/cases.mjs [--repeat K] [--mari PATH] [--name NAME]
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { best, flag, measureChild, ROOT } from "./lib/measure.mjs";
import { writeGrpo } from "./lib/dumps.mjs";

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const REPEAT = flag("--repeat", 3);
const MARI = option("--mari", join(ROOT, "bin/mari.js"));
const NAME = option("--name", "cases");
const OUT = join(ROOT, "bench/out/cases");
mkdirSync(OUT, { recursive: true });
const slice = join(OUT, "grpo-slice.jsonl");
const dump = join(OUT, "grpo-dump.jsonl");
const predictions = await writeGrpo(slice, dump);

const quiet = ["--workers", "1", "--progress", "none", "--quiet"];
const base = join(OUT, "base");
const runs = { eval: [], baseline: [], diff: [] };
for (let k = 0; k < REPEAT; k++) {
  runs.eval.push(await measureChild([MARI, "eval", slice, "--predictions", dump, "--out", base, ...quiet]));
  runs.baseline.push(await measureChild([MARI, "eval", slice, "--predictions", dump, "--out", join(OUT, "current"), "--baseline", base, ...quiet]));
  runs.diff.push(await measureChild([MARI, "diff", base, join(OUT, "current"), "--out", join(OUT, "diff"), "--quiet"]));
}
const result = {
  command: `node bench/cases.mjs --repeat ${REPEAT}${MARI === join(ROOT, "bin/mari.js") ? "" : " --mari PATH"}`,
  mari: MARI,
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
  dump: { predictions, documents: 37_500, samples: 8, bytes: statSync(dump).size },
  cases_jsonl_bytes: statSync(join(base, "cases.jsonl")).size,
  report_html_bytes: statSync(join(base, "report.html")).size,
  repeat: REPEAT,
  eval_default_reports: best(runs.eval),
  eval_with_baseline: best(runs.baseline),
  diff: best(runs.diff),
};
result.cases_jsonl_not_bigger_than_dump = result.cases_jsonl_bytes <= result.dump.bytes;
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, `bench/results/${NAME}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
rmSync(OUT, { recursive: true, force: true });
