#!/usr/bin/env node
// `mari trend` over a training run of 200 checkpoint reports (target: under 5 s). The
// reports are real `mari eval` reports (evaluateDocuments from dist/, one run each) on the
// 891-document ContraDoc slice; checkpoint k answers like the lexical judge with a seeded share of
// cases set right that grows with k, and the last ten checkpoints lose part of it again (a
// regression, so --max-drop-from-best has work to do). Measured: the CLI end to end as a child
// process (wall, CPU, peak RSS), with and without the gate; the comparisons the kept-checkpoint
// scan made are recorded. Needs a build. Writes bench/results/trend.json.
//   node bench/trend.mjs [--checkpoints N] [--repeat K]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { flag, measureChild, median, ROOT } from "./lib/measure.mjs";
import { lcg } from "./lib/dumps.mjs";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const OUT = join(ROOT, "bench/out/trend");
const MARI = join(ROOT, "bin/mari.js");
const CHECKPOINTS = flag("--checkpoints", 200);
const REPEAT = flag("--repeat", 3);
const TARGET_SECONDS = 5;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "dumps"), { recursive: true });
const mari = await import(join(ROOT, "dist/index.js"));

const slice = readFileSync(SLICE, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
await mari.evaluateDocuments({ slicePath: SLICE, outDir: join(OUT, "lexical"), formats: ["json"], workers: 1 });
const lexical = readFileSync(join(OUT, "lexical", mari.LEXICAL_DUMP_NAME), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));

const built = process.hrtime.bigint();
for (let k = 1; k <= CHECKPOINTS; k++) {
  // Share of cases answered right: rises to 0.6 by the end, then the last ten fall back by 0.15.
  const share = 0.6 * (k / CHECKPOINTS) - (k > CHECKPOINTS - 10 ? 0.15 : 0);
  const draw = lcg(1000 + k);
  const lines = lexical.map((line, i) => {
    if (draw(1_000_000) / 1_000_000 >= share) return JSON.stringify(line);
    const gold = slice[i];
    const evidence = gold.label ? (gold.gold_sentence_ids ?? [1]).slice(0, 1) : [];
    return JSON.stringify({ ...line, judgment: gold.label, evidence_sentence_ids: evidence.length ? evidence : gold.label ? [1] : [] });
  });
  const dump = join(OUT, "dumps", `step${k * 50}.jsonl`);
  writeFileSync(dump, `${lines.join("\n")}\n`);
  await mari.evaluateDocuments({ slicePath: SLICE, dumpPath: dump, outDir: join(OUT, "reports", `global_step_${k * 50}`), formats: ["json"], workers: 1 });
}
const buildSeconds = Number(process.hrtime.bigint() - built) / 1e9;

const results = [];
for (const [name, extra] of [
  ["default", []],
  // Thresholds that pass (measureChild takes any other exit as a failure); the comparison is made either way.
  ["with --max-drop-from-best macro_f1=0.5 and --gate", ["--max-drop-from-best", "macro_f1=0.5", "--gate", "accuracy>=0.5"]],
]) {
  const samples = [];
  for (let r = 0; r < REPEAT; r++) {
    const args = [MARI, "trend", join(OUT, "reports"), "--out", join(OUT, "trend"), "--quiet", ...extra];
    samples.push(await measureChild(args).catch((err) => ({ error: String(err.message).slice(0, 200) })));
  }
  const ok = samples.filter((s) => s.error === undefined);
  const trend = JSON.parse(readFileSync(join(OUT, "trend", "trend.json"), "utf8"));
  const m = ok.length ? median(ok) : null;
  results.push({
    name,
    checkpoints: trend.points.length,
    predictions_per_report: slice.length,
    kept: trend.keep?.kept.name ?? null,
    best: trend.keep?.best.name ?? null,
    paired_comparisons: (trend.keep?.comparisons.length ?? 0) + trend.drop_comparisons.length,
    gates: trend.gates.map((g) => `${g.passed ? "pass" : "FAIL"} ${g.name}`),
    median_wall_seconds: m?.wall_seconds ?? null,
    median_cpu_seconds: m?.cpu_seconds ?? null,
    peak_rss_mb: m?.max_peak_rss_mb ?? null,
    target_seconds: TARGET_SECONDS,
    met: m !== null && m.wall_seconds < TARGET_SECONDS,
    samples: samples.map((s) =>
      s.error ? s : { wall_seconds: Number(s.wall_seconds.toFixed(3)), cpu_seconds: s.cpu_seconds, load_average_1m: Number(s.load_average_1m.toFixed(2)) },
    ),
  });
  console.log(
    `${name}: ${results.at(-1).median_wall_seconds?.toFixed(2)} s over ${trend.points.length} reports (${results.at(-1).paired_comparisons} paired comparisons)`,
  );
}

mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(
  join(ROOT, "bench/results/trend.json"),
  `${JSON.stringify(
    {
      command: "npm run bench -- trend   (node bench/trend.mjs)",
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      reports_built_seconds: Number(buildSeconds.toFixed(1)),
      results,
    },
    null,
    2,
  )}\n`,
);
