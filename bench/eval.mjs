#!/usr/bin/env node
// `mari eval` at scale (docs/eval.md, "Performance"): a dump of ≥ 1,000,000 predictions over the
// 891-document ContraDoc set (1,123 runs × 891 cases) and the GRPO-shaped dump (37,500 generated
// documents of five sentences × 8 samples, bench/lib/dumps.mjs), each measured against the floor
// "read every line and JSON.parse it" in the same rounds: every round runs the floor and each
// variant once, interleaved, so a machine shared with other jobs slows them alike; the figures are
// medians over the rounds of wall time, CPU seconds (user + sys) and peak RSS of the child
// processes (bench/lib/measure-child.py), and each variant's CPU
// and wall as a RATIO to the floor's median. Each round also starts a bare `node -e ""`
// (`node_start`): what every process pays before it does anything, on both sides of a ratio.
// Variants: default reports and `--report json`, with
// `--workers 1` and `--workers 2`; on the GRPO dump also a cold compiled-slice cache (emptied
// before the run) beside the warm one (left by the previous run). One more variant on each dump,
// measured but no target's: `--report json` under `node --no-concurrent-recompilation`, which
// compiles hot functions on the main thread instead of V8's helper threads (docs/performance.md:
// what the JIT costs). Needs a build. Writes bench/results/eval.json.
// `--baseline` against the --workers 1 report of the 1M dump is measured too (peak RSS
// under 512 MB), with `--report json` and with the default reports (the explorer's regressed/fixed
// cases); `--baseline-only` measures just that and writes bench/results/eval-baseline.json.
// `--no-baseline` leaves it out of the main run (on a loaded machine, for time).
//   node bench/eval.mjs [--predictions N] [--repeat K] [--baseline-only | --no-baseline]
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_CACHE_HOME, flag, machineFacts, measureChild, median, middle, ROOT } from "./lib/measure.mjs";
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

/** `mari eval SLICE --predictions DUMP` with `flags`, into OUT/NAME. */
function evalArgs(slice, dump, name, flags) {
  return [MARI, "eval", slice, "--predictions", dump, "--out", join(OUT, name), "--progress", "none", "--quiet", ...flags];
}

/**
 * The floor and every variant (`{ name: { flags, cold?, node? } }`), REPEAT interleaved rounds;
 * each variant's medians and its ratios to the floor's medians. A cold variant empties the cache
 * first; `node` holds flags for node itself, before bin/mari.js.
 */
async function measureDump(slice, dump, prefix, variants) {
  const samples = { floor: [], node_start: [] };
  for (const name of Object.keys(variants)) samples[name] = [];
  for (let k = 0; k < REPEAT; k++) {
    samples.node_start.push(await measureChild(["-e", ""]));
    samples.floor.push(await measureChild(["--input-type=module", "-e", FLOOR_SCRIPT, dump]));
    for (const [name, { flags, cold, node = [] }] of Object.entries(variants)) {
      if (cold) rmSync(BENCH_CACHE_HOME, { recursive: true, force: true });
      samples[name].push(await measureChild([...node, ...evalArgs(slice, dump, `${prefix}-${name}`, flags)]));
    }
  }
  const floor = median(samples.floor);
  // What a node process costs before it does anything (`node -e ""`), in the floor and in every
  // variant alike: a fixed cost on both sides of each ratio.
  const result = { node_start: median(samples.node_start), floor: { ...floor, samples: samples.floor } };
  for (const name of Object.keys(variants)) {
    const m = median(samples[name]);
    const node = variants[name].node ?? [];
    // Each round's own ratio (the variant's CPU over the floor's, run minutes apart at most): the
    // machine's speed drifts from round to round by more than some targets' margins, and a ratio
    // within a round cancels the drift that a ratio of medians over all rounds keeps.
    const rounds = samples[name].map((s, k) => s.cpu_seconds / samples.floor[k].cpu_seconds);
    result[name] = {
      command: `${node.length > 0 ? `node ${node.join(" ")} bin/mari.js` : "mari"} eval ${slice.replace(`${ROOT}/`, "")} --predictions ${dump.replace(`${ROOT}/`, "")} ${variants[name].flags.join(" ")}${variants[name].cold ? "   (compiled-slice cache emptied first)" : ""}`,
      ...m,
      cpu_ratio_to_floor: Number((m.cpu_seconds / floor.cpu_seconds).toFixed(2)),
      cpu_ratio_by_round: rounds.map((r) => Number(r.toFixed(3))),
      cpu_ratio_paired: Number(middle(rounds).toFixed(2)),
      wall_ratio_to_floor: Number((m.wall_seconds / floor.wall_seconds).toFixed(2)),
      samples: samples[name],
    };
  }
  return result;
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
    machine: machineFacts(),
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

const JSON_REPORT = ["--report", "json"];
/** The JIT's optimizing compiles on the main thread, as they happen (V8's flag; no target is measured with it). */
const SYNC_JIT = ["--no-concurrent-recompilation"];
// The 1M dump first runs once untimed, so the compiled-slice cache is warm for every timed run.
await measureChild(evalArgs(SLICE, DUMP, "eval-warmup", ["--workers", "1", ...JSON_REPORT]));
const million = await measureDump(SLICE, DUMP, "eval", {
  default_workers_1: { flags: ["--workers", "1"] },
  default_workers_2: { flags: ["--workers", "2"] },
  json_workers_1: { flags: ["--workers", "1", ...JSON_REPORT] },
  json_workers_2: { flags: ["--workers", "2", ...JSON_REPORT] },
  json_workers_1_sync_jit: { flags: ["--workers", "1", ...JSON_REPORT], node: SYNC_JIT },
});
const baselineRun = process.argv.includes("--no-baseline") ? null : await measureBaseline();

// The GRPO-shaped dump: 37,500 generated documents of five sentences, 8 samples each.
const GRPO_SLICE = join(OUT, "grpo-slice.jsonl");
const GRPO_DUMP = join(OUT, "grpo-dump.jsonl");
const grpoLines = await writeGrpo(GRPO_SLICE, GRPO_DUMP);
const grpo = await measureDump(GRPO_SLICE, GRPO_DUMP, "grpo", {
  default_workers_1_cold: { flags: ["--workers", "1"], cold: true },
  default_workers_1: { flags: ["--workers", "1"] },
  default_workers_2: { flags: ["--workers", "2"] },
  json_workers_1: { flags: ["--workers", "1", ...JSON_REPORT] },
  json_workers_2: { flags: ["--workers", "2", ...JSON_REPORT] },
  json_workers_1_sync_jit: { flags: ["--workers", "1", ...JSON_REPORT], node: SYNC_JIT },
});
console.log(`grpo dump: ${grpoLines} predictions`);
const peaks = [million, grpo].flatMap((m) => Object.values(m).map((v) => v.max_peak_rss_mb ?? 0));
// Each target is judged by the median of the rounds' own ratios (cpu_ratio_paired); the ratio of
// the medians (cpu_ratio_to_floor) is recorded beside it.
const cpu = (m, name) => m[name].cpu_ratio_paired;
const summary = {
  command: `npm run bench -- eval   (node bench/eval.mjs ${process.argv.slice(2).join(" ")})`,
  date: new Date().toISOString(),
  machine: machineFacts(),
  method: `${REPEAT} rounds, each running the floor and every variant once, interleaved; medians; cpu_ratio_paired (what the targets are judged by) is the median over the rounds of a variant's CPU over the floor's in the same round, cpu_ratio_to_floor a variant's median over the floor's median`,
  dump: { predictions: lines, runs, cases: cases.length, bytes: size },
  repeat: REPEAT,
  million,
  baseline: baselineRun,
  grpo: {
    dump: { predictions: grpoLines, documents: 37_500, samples: 8, bytes: (await import("node:fs")).statSync(GRPO_DUMP).size },
    ...grpo,
  },
  // The same `--report json` run with the JIT's compiles on the main thread, over the run as mari
  // runs it: CPU and wall (medians of the same rounds). Informational: no target.
  sync_jit_over_default_jit: Object.fromEntries(
    [
      ["million", million],
      ["grpo", grpo],
    ].map(([name, m]) => [
      name,
      {
        cpu: Number((m.json_workers_1_sync_jit.cpu_seconds / m.json_workers_1.cpu_seconds).toFixed(3)),
        wall: Number((m.json_workers_1_sync_jit.wall_seconds / m.json_workers_1.wall_seconds).toFixed(3)),
      },
    ]),
  ),
  targets: {
    million_default_cpu_within_2x_floor: cpu(million, "default_workers_1") <= 2,
    million_json_cpu_within_1_5x_floor: cpu(million, "json_workers_1") <= 1.5,
    grpo_default_warm_cpu_within_2_5x_floor: cpu(grpo, "default_workers_1") <= 2.5,
    grpo_default_cold_cpu_within_3_5x_floor: cpu(grpo, "default_workers_1_cold") <= 3.5,
    grpo_json_cpu_within_1_5x_floor: cpu(grpo, "json_workers_1") <= 1.5,
    workers_2_faster_than_1_wall: {
      million: million.default_workers_2.wall_seconds < million.default_workers_1.wall_seconds,
      grpo: grpo.default_workers_2.wall_seconds < grpo.default_workers_1.wall_seconds,
    },
    peak_rss_under_512_mb: Math.max(...peaks, baselineRun?.report_json.max_peak_rss_mb ?? 0, baselineRun?.default_reports.max_peak_rss_mb ?? 0) < 512,
  },
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/eval.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary.targets, null, 2));
if (process.argv.includes("--clean")) rmSync(OUT, { recursive: true, force: true });
