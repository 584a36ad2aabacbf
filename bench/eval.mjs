#!/usr/bin/env node
// `mari eval` at scale (docs/eval.md, "Performance"): a dump of ≥ 1,000,000 predictions over the 891-document ContraDoc
// set, many runs (a sampling sweep: 1,123 runs × 891 cases), scored with --workers 1 and 2 and
// compared with the floor "read every line and JSON.parse it", all measured in this run, as wall
// time and peak RSS of child processes (/usr/bin/time -v when present, else a resourceUsage
// wrapper), plus CPU seconds (user + sys) and the 1-minute load average, since wall times on a
// shared machine say little on their own. Then the same for the GRPO-shaped dump (37,500
// generated documents of five sentences × 8 samples, bench/lib/dumps.mjs) with the default
// reports. Needs a build. Writes bench/results/eval.json.
// `--baseline` against the --workers 1 report of the 1M dump is measured too (peak RSS
// under 512 MB), with `--report json` and with the default reports (the explorer's regressed/fixed
// cases); `--baseline-only` measures just that and writes bench/results/eval-baseline.json.
//   node bench/eval.mjs [--predictions N] [--repeat K] [--baseline-only]
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { best, flag, measureChild, median, ROOT } from "./lib/measure.mjs";
import { casesWithSentenceCounts, writeGrpo } from "./lib/dumps.mjs";
import { once } from "node:events";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const OUT = join(ROOT, "bench/out");
const DUMP = join(OUT, "eval-dump.jsonl");
const MARI = join(ROOT, "bin/mari.js");

const PREDICTIONS = flag("--predictions", 1_000_000);
const REPEAT = flag("--repeat", 3);

mkdirSync(OUT, { recursive: true });
const cases = await casesWithSentenceCounts(ROOT, SLICE);
const runs = Math.ceil(PREDICTIONS / cases.length);

/** Deterministic LCG so the dump is the same on every machine. */
let state = 12345;
const rand = (n) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};

async function generate() {
  const out = createWriteStream(DUMP);
  let lines = 0;
  for (let run = 0; run < runs; run++) {
    let block = "";
    for (const c of cases) {
      if (lines >= runs * cases.length) break;
      const judgment = rand(10) < 7 ? c.label : !c.label;
      // Mostly valid predictions (IDs inside the document), about 2% citing a sentence past the end.
      const ids = judgment ? [1 + rand(c.n), 1 + rand(c.n + (rand(50) === 0 ? 5 : 0))] : [];
      const a = 1 + rand(c.n);
      const reasoning = `Sentence [${a}] says one thing; [${1 + rand(c.n)}]-[${Math.min(c.n, a + 1)}] agree, so the document ${judgment ? "contradicts itself" : "is consistent"}.`;
      const shape = rand(100);
      let row;
      if (shape < 5) {
        row = {
          case_id: c.id,
          run,
          completion: `<think>\n${reasoning}\n</think>\n<answer>\nJudgment: ${judgment ? "yes" : "no"}\nEvidence: [${ids.join(", ")}]\n</answer>`,
        };
      } else if (shape < 10) {
        row = { case_id: c.id, run, prediction: { judgment, evidence_sentence_ids: ids, reasoning } };
      } else {
        row = { case_id: c.id, run, judgment, evidence_sentence_ids: ids, reasoning };
      }
      block += `${JSON.stringify(row)}\n`;
      lines++;
    }
    if (!out.write(block)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return lines;
}

const FLOOR_SCRIPT = `
import { readLineBatches } from ${JSON.stringify(join(ROOT, "dist/io/lines.js"))};
let n = 0;
for await (const batch of readLineBatches(process.argv[1])) for (const line of batch) { if (line.text) { JSON.parse(line.text); n++; } }
console.log(n);
`;

const lines = await generate();
const size = (await import("node:fs")).statSync(DUMP).size;
console.log(`dump: ${lines} predictions, ${runs} runs × ${cases.length} cases, ${(size / 1e6).toFixed(1)} MB`);

/** Floor and `mari eval` with --workers 1 and 2, REPEAT times, interleaved; best of each. */
async function measureDump(slice, dump, name, reports) {
  const results = { floor: [], workers_1: [], workers_2: [] };
  for (let k = 0; k < REPEAT; k++) {
    results.floor.push(await measureChild(["--input-type=module", "-e", FLOOR_SCRIPT, dump]));
    for (const workers of [1, 2]) {
      const out = join(OUT, `${name}-report-w${workers}`);
      results[`workers_${workers}`].push(
        await measureChild([
          MARI,
          "eval",
          slice,
          "--predictions",
          dump,
          "--out",
          out,
          "--workers",
          String(workers),
          "--progress",
          "none",
          "--quiet",
          ...reports,
        ]),
      );
    }
  }
  return { floor: best(results.floor), w1: best(results.workers_1), w2: best(results.workers_2) };
}

/** `mari eval … --baseline` of the 1M dump against its own --workers 1 report, REPEAT times; median. */
async function measureBaseline() {
  const base = join(OUT, "eval-report-w1");
  const run = (name, reports) =>
    measureChild([
      MARI,
      "eval",
      SLICE,
      "--predictions",
      DUMP,
      "--out",
      join(OUT, name),
      "--baseline",
      join(base, "report.json"),
      "--workers",
      "1",
      "--progress",
      "none",
      "--quiet",
      ...reports,
    ]);
  if (!(await import("node:fs")).existsSync(join(base, "cases.jsonl"))) {
    await measureChild([MARI, "eval", SLICE, "--predictions", DUMP, "--out", base, "--workers", "1", "--progress", "none", "--quiet", "--report", "json"]);
  }
  const json = [];
  const all = [];
  for (let k = 0; k < REPEAT; k++) {
    json.push(await run("eval-baseline-json", ["--report", "json"]));
    all.push(await run("eval-baseline-default", []));
  }
  // report.html of 1M predictions is 5 MB: not left in the tree for `npm run lint` (Biome) to trip over.
  rmSync(join(OUT, "eval-baseline-default"), { recursive: true, force: true });
  return { report_json: median(json), default_reports: median(all), samples: { report_json: json, default_reports: all } };
}

if (process.argv.includes("--baseline-only")) {
  const baseline = await measureBaseline();
  const result = {
    command: "node bench/eval.mjs --baseline-only [--repeat K]",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
    dump: { predictions: lines, runs, cases: cases.length, bytes: size },
    repeat: REPEAT,
    baseline,
    peak_rss_under_512_mb: Math.max(baseline.report_json.peak_rss_mb, baseline.default_reports.peak_rss_mb) < 512,
  };
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/eval-baseline.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}

const { floor, w1, w2 } = await measureDump(SLICE, DUMP, "eval", ["--report", "json"]);
const baselineRun = await measureBaseline();

// The GRPO-shaped dump: 37,500 generated documents of five sentences, 8 samples each,
// all default reports (json, md, html, junit, and cases.jsonl).
const GRPO_SLICE = join(OUT, "grpo-slice.jsonl");
const GRPO_DUMP = join(OUT, "grpo-dump.jsonl");
const grpoLines = await writeGrpo(GRPO_SLICE, GRPO_DUMP);
const grpo = await measureDump(GRPO_SLICE, GRPO_DUMP, "grpo", []);
console.log(`grpo dump: ${grpoLines} predictions`);
const summary = {
  command: "npm run bench -- eval   (node bench/eval.mjs)",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
  dump: { predictions: lines, runs, cases: cases.length, bytes: size },
  repeat: REPEAT,
  floor,
  workers_1: { ...w1, ratio_to_floor: w1.wall_seconds / floor.wall_seconds },
  workers_2: { ...w2, ratio_to_floor: w2.wall_seconds / floor.wall_seconds },
  baseline: baselineRun,
  grpo: {
    dump: {
      predictions: grpoLines,
      documents: 37_500,
      samples: 8,
      bytes: (await import("node:fs")).statSync(GRPO_DUMP).size,
      reports: "default (json, md, html, junit, cases.jsonl)",
    },
    floor: grpo.floor,
    workers_1: { ...grpo.w1, ratio_to_floor: grpo.w1.wall_seconds / grpo.floor.wall_seconds },
    workers_2: { ...grpo.w2, ratio_to_floor: grpo.w2.wall_seconds / grpo.floor.wall_seconds },
  },
  targets: {
    within_2x_floor: { workers_1: w1.wall_seconds <= 2 * floor.wall_seconds, workers_2: w2.wall_seconds <= 2 * floor.wall_seconds },
    peak_rss_under_512_mb: Math.max(w1.peak_rss_mb, w2.peak_rss_mb, baselineRun.report_json.peak_rss_mb, baselineRun.default_reports.peak_rss_mb) < 512,
    workers_2_faster_than_1: w2.wall_seconds < w1.wall_seconds,
  },
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/eval.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
if (process.argv.includes("--clean")) rmSync(OUT, { recursive: true, force: true });
