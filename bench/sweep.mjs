#!/usr/bin/env node
// `mari sweep` wall time: the default grid (9 configs) and the full grid (81) over the
// shipped 161-pair corpus, and the full grid over that corpus repeated 50 times (8,050 pairs) and
// 1,250 times (201,250 pairs, one run each) with --workers 1 and 2. Runs the BUILT CLI in child processes: run `npm run build` first.
//   node bench/sweep.mjs [--runs R]
// Writes bench/results/sweep.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/mari.js");
const CORPUS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 5;
const REPEAT = 50;
const REPEAT_LARGE = 1250;

if (!existsSync(join(ROOT, "dist/cli/main.js"))) {
  console.error("bench/sweep.mjs: dist/ is missing; run `npm run build` first");
  process.exit(2);
}

// Reports the child's own peak RSS and CPU time on exit (stderr), without a wrapper binary.
const USAGE_HOOK =
  'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();' +
  'process.stderr.write("\\nBENCH_USAGE "+JSON.stringify({maxRssKb:u.maxRSS,cpuUs:u.userCPUTime+u.systemCPUTime})+"\\n")})';

const work = mkdtempSync(join(tmpdir(), "mari-bench-sweep-"));
/** The corpus repeated `times` times, ids made unique. */
function repeatedCorpus(times) {
  const path = join(work, `corpus-x${times}.jsonl`);
  const lines = readFileSync(CORPUS, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const out = [];
  for (let k = 0; k < times; k++) {
    for (const line of lines) {
      const record = JSON.parse(line);
      record.id = `${record.id}#${k}`;
      out.push(JSON.stringify(record));
    }
  }
  writeFileSync(path, `${out.join("\n")}\n`);
  return path;
}
const big = repeatedCorpus(REPEAT);
const large = repeatedCorpus(REPEAT_LARGE);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function run(name, pairs, grid, workers, runs = RUNS) {
  const walls = [];
  const sweeps = [];
  let usage;
  for (let r = 0; r < runs; r++) {
    const out = join(work, `${name}-${r}`);
    const started = process.hrtime.bigint();
    const child = spawnSync(
      process.execPath,
      ["--import", USAGE_HOOK, BIN, "sweep", pairs, "--grid", grid, "--workers", String(workers), "--out", out, "--quiet", "--progress", "none"],
      { encoding: "utf8", cwd: ROOT },
    );
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (child.status !== 0 && child.status !== 1) {
      console.error(child.stderr);
      throw new Error(`${name}: mari sweep exited ${child.status}`);
    }
    walls.push(wall);
    const swept = /in ([0-9.]+) s \(/.exec(child.stderr);
    if (swept) sweeps.push(Number(swept[1]));
    usage = JSON.parse(/BENCH_USAGE (.*)/.exec(child.stderr)[1]);
  }
  const result = {
    name,
    command: `mari sweep ${pairs === CORPUS ? "datasets/memory-pairs/mari-pairs.jsonl" : `<corpus x${pairs === big ? REPEAT : REPEAT_LARGE}>`} --grid ${grid} --workers ${workers}`,
    runs,
    wallSecondsMedian: +median(walls).toFixed(3),
    wallSecondsMin: +Math.min(...walls).toFixed(3),
    sweepSecondsMedian: sweeps.length ? +median(sweeps).toFixed(3) : null,
    peakRssMb: +(usage.maxRssKb / 1024).toFixed(1),
  };
  console.log(
    `${name}: wall median ${result.wallSecondsMedian} s (min ${result.wallSecondsMin}), sweep ${result.sweepSecondsMedian} s, peak RSS ${result.peakRssMb} MB`,
  );
  return result;
}

try {
  const results = [
    run("default-grid-w1", CORPUS, "default", 1),
    run("default-grid-w2", CORPUS, "default", 2),
    run("full-grid-w1", CORPUS, "full", 1),
    run(`full-grid-x${REPEAT}-w1`, big, "full", 1),
    run(`full-grid-x${REPEAT}-w2`, big, "full", 2),
    run(`full-grid-x${REPEAT_LARGE}-w1`, large, "full", 1, 1),
    run(`full-grid-x${REPEAT_LARGE}-w2`, large, "full", 2, 1),
  ];
  const report = {
    benchmark: "sweep",
    command: "node bench/sweep.mjs",
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    loadAverage1mAtEnd: +loadavg()[0].toFixed(2),
    note: "wall = the whole CLI process (Node start-up included); sweep = the sweep itself as the CLI reports it on stderr",
    results,
  };
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/sweep.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
