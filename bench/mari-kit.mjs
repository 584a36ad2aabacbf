#!/usr/bin/env node
// `mari eval` side by side with mari-kit's Python harness (docs/eval.md, "Performance"), on the
// GRPO-shaped dump (bench/lib/dumps.mjs) and the same slice: the harness scores every line with
// mari-kit's own validation and rewards (bench/lib/mari-kit-harness.py) and does nothing else, and
// `mari eval` writes its default reports. Only runs where Python can import mari_kit (MariHQ/mari-kit,
// e.g. `pip install git+https://github.com/MariHQ/mari-kit`); elsewhere it says so and exits 0.
// Writes bench/results/mari-kit.json. Needs a build.
//   node bench/mari-kit.mjs [--repeat K] [--python python3]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

const mari = [];
const harness = [];
for (let k = 0; k < REPEAT; k++) {
  const args = ["eval", slice, "--predictions", dump, "--out", join(OUT, "mari-kit-report"), "--workers", "1", "--progress", "none", "--quiet"];
  mari.push(await measureChild([join(ROOT, "bin/mari.js"), ...args]));
  harness.push(await measureCommand(PYTHON, [HARNESS, slice, dump], { stdout: true }));
}
// Both sides must agree on what they measured: the same lines, accuracy and rewards.
const said = JSON.parse(harness.at(-1).stdout);
const report = JSON.parse(readFileSync(join(OUT, "mari-kit-report", "report.json"), "utf8")).metrics;
const agreement = {
  lines: said.lines,
  accuracy: [said.accuracy, report.accuracy],
  localization_recall: [said.localization_recall, report.localization_recall],
  accuracy_reward_sum: [said.accuracy_sum, report.reward_accuracy_mean * said.lines],
};
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
if (![agreement.accuracy, agreement.localization_recall, agreement.accuracy_reward_sum].every(([a, b]) => close(a, b))) {
  console.error(`bench/mari-kit: the harness and mari disagree: ${JSON.stringify(agreement)}`);
  process.exit(1);
}
const m = best(mari);
const h = best(harness);
const result = {
  command: "node bench/mari-kit.mjs",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, python: spawnSync(PYTHON, ["--version"], { encoding: "utf8" }).stdout.trim() },
  dump: "bench/out/grpo-dump.jsonl (37,500 documents × 8 samples)",
  mari_eval_workers_1_default_reports: m,
  mari_kit_harness: h,
  agreement,
  speedup_cpu: h.cpu_seconds / m.cpu_seconds,
  speedup_wall: h.wall_seconds / m.wall_seconds,
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/mari-kit.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
