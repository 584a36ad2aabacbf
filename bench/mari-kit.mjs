#!/usr/bin/env node
// `mari eval` side by side with mari-kit's Python scoring (docs/eval.md, "Performance"), on the
// GRPO-shaped dump (bench/lib/dumps.mjs) and the same slice, interleaved, best of REPEAT:
// - mari-kit's benchmark loop as its `document-contradiction` suite writes it, once per dump line,
//   with its result files (bench/lib/mari-kit-harness.py --as-written): the target's comparison;
// - a leaner loop of the same scoring (each case's sentences and gold once, no files), for scale;
// - `mari eval --workers 1` with its default reports (report.json, report.md, report.html, JUnit,
//   cases.jsonl), and with `--report json`, which writes what the suite writes: an aggregate JSON
//   and one JSON line per (case, run).
// All must agree on the line count, accuracy, localization recall and summed accuracy reward.
// Only runs where Python can import mari_kit (MariHQ/mari-kit, e.g. `pip install
// git+https://github.com/MariHQ/mari-kit`); elsewhere it says so and exits 0. Writes
// bench/results/mari-kit.json. Needs a build.
//   node bench/mari-kit.mjs [--repeat K] [--python python3]
import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { cpus } from "node:os";
import { join } from "node:path";
import { best, flag, measureChild, measureCommand, ROOT } from "./lib/measure.mjs";
import { writeGrpo } from "./lib/dumps.mjs";

const REPEAT = flag("--repeat", 3);
const at = process.argv.indexOf("--python");
const PYTHON = at >= 0 ? process.argv[at + 1] : "python3";
const HARNESS = join(ROOT, "bench/lib/mari-kit-harness.py");

const probe = spawnSync(PYTHON, ["-c", "import mari_kit.verification.contradiction"], { encoding: "utf8" });
if (probe.status !== 0) {
  const why = probe.error ? `${PYTHON} not found` : (probe.stderr.trim().split("\n").pop() ?? "import failed");
  console.log(`bench/mari-kit: skipped: ${PYTHON} cannot import mari_kit (${why}); install MariHQ/mari-kit to run it`);
  process.exit(0);
}

const OUT = join(ROOT, "bench/out");
mkdirSync(OUT, { recursive: true });
const slice = join(OUT, "grpo-slice.jsonl");
const dump = join(OUT, "grpo-dump.jsonl");
if (!existsSync(dump)) await writeGrpo(slice, dump);

const asWrittenOut = join(OUT, "mari-kit-as-written");
const mari = [];
const mariJson = [];
const asWritten = [];
const lean = [];
const mariArgs = (out) => [
  join(ROOT, "bin/mari.js"),
  "eval",
  slice,
  "--predictions",
  dump,
  "--out",
  join(OUT, out),
  "--workers",
  "1",
  "--progress",
  "none",
  "--quiet",
];
for (let k = 0; k < REPEAT; k++) {
  mari.push(await measureChild(mariArgs("mari-kit-report")));
  mariJson.push(await measureChild([...mariArgs("mari-kit-report-json"), "--report", "json"]));
  asWritten.push(await measureCommand(PYTHON, [HARNESS, "--as-written", asWrittenOut, slice, dump]));
  lean.push(await measureCommand(PYTHON, [HARNESS, slice, dump], { stdout: true }));
}

/** The as-written loop's line count and summed accuracy reward, from the records it wrote. */
async function asWrittenSums() {
  let lines = 0;
  let accuracySum = 0;
  for await (const text of createInterface({ input: createReadStream(join(asWrittenOut, "document-contradiction.cases.jsonl")) })) {
    lines++;
    accuracySum += JSON.parse(text).rewards.accuracy;
  }
  return { lines, accuracySum };
}

// Every side must agree on what it measured: the same lines, accuracy, localization recall and rewards.
const report = JSON.parse(readFileSync(join(OUT, "mari-kit-report", "report.json"), "utf8")).metrics;
const reportJson = JSON.parse(readFileSync(join(OUT, "mari-kit-report-json", "report.json"), "utf8")).metrics;
const leanSaid = JSON.parse(lean.at(-1).stdout);
const written = JSON.parse(readFileSync(join(asWrittenOut, "document-contradiction.json"), "utf8")).metrics;
const writtenSums = await asWrittenSums();
const agreement = {
  lines: [writtenSums.lines, leanSaid.lines],
  accuracy: [written.accuracy, leanSaid.accuracy, report.accuracy, reportJson.accuracy],
  localization_recall: [written.localization_recall, leanSaid.localization_recall, report.localization_recall, reportJson.localization_recall],
  accuracy_reward_sum: [
    writtenSums.accuracySum,
    leanSaid.accuracy_sum,
    report.reward_accuracy_mean * leanSaid.lines,
    reportJson.reward_accuracy_mean * leanSaid.lines,
  ],
};
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
const agree = (values) => values.every((v) => close(v, values.at(-1)));
if (!(agree(agreement.lines) && agree(agreement.accuracy) && agree(agreement.localization_recall) && agree(agreement.accuracy_reward_sum))) {
  console.error(`bench/mari-kit: the loops and mari disagree: ${JSON.stringify(agreement)}`);
  process.exit(1);
}
const m = best(mari);
const mj = best(mariJson);
const w = best(asWritten);
const l = best(lean);
const ratio = (a, b) => Number((a / b).toFixed(2));
const result = {
  command: "node bench/mari-kit.mjs",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, python: spawnSync(PYTHON, ["--version"], { encoding: "utf8" }).stdout.trim() },
  dump: "bench/out/grpo-dump.jsonl (37,500 documents × 8 samples)",
  mari_eval_workers_1_default_reports: m,
  mari_eval_workers_1_report_json: mj,
  mari_kit_as_written: w,
  mari_kit_lean: l,
  agreement,
  // Against the suite's loop as written: mari writing what it writes (--report json), and mari with its default reports.
  speedup_cpu: ratio(w.cpu_seconds, mj.cpu_seconds),
  speedup_wall: ratio(w.wall_seconds, mj.wall_seconds),
  speedup_cpu_default_reports: ratio(w.cpu_seconds, m.cpu_seconds),
  speedup_wall_default_reports: ratio(w.wall_seconds, m.wall_seconds),
  lean_speedup_cpu_default_reports: ratio(l.cpu_seconds, m.cpu_seconds),
  lean_speedup_wall_default_reports: ratio(l.wall_seconds, m.wall_seconds),
  target_met: w.cpu_seconds / mj.cpu_seconds >= 10,
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/mari-kit.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
