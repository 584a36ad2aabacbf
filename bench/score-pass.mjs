#!/usr/bin/env node
// The dump pass's scoring alone, in process: every block of the bench dumps through the pool's
// task entry (`processChunk` of dist/tasks/document/score.js) on one thread, CPU seconds per pass
// (the first pass pays for compiling the scoring code, as a run does). With `--base DIR` (a copy of
// bin/ + dist/ from before a change) the two builds run in alternating child processes, so a
// loaded machine slows both alike. Needs the dumps bench/eval.mjs writes (bench/out/eval-dump.jsonl;
// the GRPO-shaped one is written here when missing).
//   node bench/score-pass.mjs [--base DIR] [--repeat N]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { flag, ROOT } from "./lib/measure.mjs";
import { writeGrpo } from "./lib/dumps.mjs";

const PASSES = 3;

if (process.argv[2] === "--child") {
  // In a child: one build's passes over one dump, printed as JSON.
  const [, , , build, slicePath, dumpPath] = process.argv;
  const { readFileSync } = await import("node:fs");
  const { readDocumentSlice } = await import(join(build, "dist/io/slice.js"));
  const { processChunk } = await import(join(build, "dist/tasks/document/score.js"));
  const slice = await readDocumentSlice(slicePath);
  const data = readFileSync(dumpPath);
  const blocks = [];
  let line = 1;
  for (let start = 0; start < data.length; ) {
    let end = data.lastIndexOf(10, Math.min(data.length, start + (1 << 20)) - 1) + 1;
    if (end <= start) end = data.length;
    blocks.push({ firstLineNo: line, block: new Uint8Array(data.subarray(start, end)) });
    for (let at = data.indexOf(10, start); at !== -1 && at < end; at = data.indexOf(10, at + 1)) line++;
    start = end;
  }
  const state = { slice, options: { lenientIds: false } };
  const passes = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const before = process.cpuUsage();
    let lines = 0;
    for (const block of blocks) lines += processChunk(state, block).count;
    const used = process.cpuUsage(before);
    passes.push({ lines, cpu_seconds: Number(((used.user + used.system) / 1e6).toFixed(3)) });
  }
  console.log(JSON.stringify(passes));
  process.exit(0);
}

const baseIndex = process.argv.indexOf("--base");
const base = baseIndex > 0 ? process.argv[baseIndex + 1] : undefined;
const repeat = flag("--repeat", 2);
const out = join(ROOT, "bench/out");
mkdirSync(out, { recursive: true });
const grpoSlice = join(out, "grpo-slice.jsonl");
const grpoDump = join(out, "grpo-dump.jsonl");
if (!existsSync(grpoDump)) await writeGrpo(grpoSlice, grpoDump);
const dumps = [{ name: "grpo", slice: grpoSlice, dump: grpoDump }];
const million = join(out, "eval-dump.jsonl");
if (existsSync(million)) dumps.unshift({ name: "million", slice: join(ROOT, "datasets/contradoc/contradoc-891.jsonl"), dump: million });
else console.log("bench/out/eval-dump.jsonl is missing (node bench/eval.mjs writes it): the 1M dump is skipped");

const builds = base ? { base, this: ROOT } : { this: ROOT };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = {};
for (const { name, slice, dump } of dumps) {
  const samples = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
  for (let round = 0; round < repeat; round++) {
    for (const [build, dir] of Object.entries(builds)) {
      const passes = JSON.parse(execFileSync(process.execPath, [import.meta.filename, "--child", dir, slice, dump], { encoding: "utf8" }));
      samples[build].push(passes);
      console.log(`${name} ${build}: ${passes.map((p) => p.cpu_seconds).join(" / ")} s CPU (${passes[0].lines} lines)`);
    }
  }
  results[name] = Object.fromEntries(
    Object.entries(samples).map(([build, runs]) => [
      build,
      { first_pass_cpu_seconds: median(runs.map((r) => r[0].cpu_seconds)), last_pass_cpu_seconds: median(runs.map((r) => r.at(-1).cpu_seconds)), runs },
    ]),
  );
}
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/score-pass.json"), `${JSON.stringify({ repeat, passes: PASSES, results }, null, 2)}\n`);
