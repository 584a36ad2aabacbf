#!/usr/bin/env node
// Classifier throughput (docs/eval.md, "Performance"): pairs per second, single-threaded, over a 1,000,000-pair stream
// built from the shipped corpus, plus peak RSS; and the peak RSS of `mari classify` on a second,
// mixed stream of as many pairs, whose texts vary from line to line (the shipped pairs with words
// and numbers swapped for ones drawn from a seeded generator, so the vocabulary runs to tens of
// thousands of words), with the pairs of `--mix FILE` (any pairs JSONL, e.g. a reference parity
// corpus) cycled in when given. Imports the BUILT library: run `npm run build` first.
//   node bench/classify.mjs [--pairs N] [--runs R] [--mix FILE]
// Writes bench/results/classify.json, or classify-mix.json with --mix.
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { prng } from "./lib/log-fuzz.mjs";
import { measuredCommand, measuredFields } from "./lib/measure.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist/core/classifier/index.js");
const CORPUS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");

function flag(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const PAIRS = flag("--pairs", 1_000_000);
const RUNS = flag("--runs", 3);
const mixAt = process.argv.indexOf("--mix");
const MIX = mixAt >= 0 ? resolve(process.argv[mixAt + 1]) : undefined;

if (!existsSync(DIST)) {
  console.error("bench/classify.mjs: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const { classify } = await import(DIST);
const readPairs = (path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
const corpus = readPairs(CORPUS);
const mixed = MIX === undefined ? [] : readPairs(MIX);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/** The stream: `pairAt(i)` for PAIRS lines, each with a unique id (about 150 bytes a line). */
async function writeStream(path, pairAt) {
  const out = createWriteStream(path);
  let buffer = "";
  for (let i = 0; i < PAIRS; i++) {
    const p = pairAt(i);
    buffer += `${JSON.stringify({ id: `${p.id}#${i}`, new: p.new, old: p.old })}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "finish");
}

const ownPair = (i) => corpus[i % corpus.length];

// The mixed stream's texts: a third of the longer words and every number of a pair replaced, each
// time, by a pseudo-word of 2-4 syllables (about 70,000 possible) or a number below 100,000.
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "zo", "pe", "su", "da", "gri", "mon", "tel", "var", "xen"];
function varier(random) {
  const int = (n) => Math.floor(random() * n);
  const word = () => Array.from({ length: 2 + int(3) }, () => SYLLABLES[int(SYLLABLES.length)]).join("");
  return (text) => text.replace(/\b[a-z]{5,}\b/g, (w) => (int(3) === 0 ? word() : w)).replace(/\d+/g, () => String(int(100_000)));
}
const vary = varier(prng(20261204));
const mixSources = [...corpus, ...mixed];
/** Every other pair varied; the given --mix pairs cycled in among the shipped ones. */
const mixedPair = (i) => {
  const p = mixSources[i % mixSources.length];
  return i % 2 === 0 ? p : { id: p.id, new: vary(p.new), old: vary(p.old) };
};

// V8 caches regex results per subject string, so cycling the same 161 string objects would flatter
// the in-process figure: the core run cycles a pool of this many distinct string copies instead.
const POOL = 50_000;
const pool = Array.from({ length: Math.min(POOL, PAIRS) }, (_, i) => {
  const p = corpus[i % corpus.length];
  return JSON.parse(JSON.stringify({ new: p.new, old: p.old }));
});

/** In-process: classify() alone over PAIRS pairs (texts already in memory). */
function coreRun() {
  let updates = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < PAIRS; i++) {
    const p = pool[i % pool.length];
    if (classify(p.new, p.old).class === "update") updates++;
  }
  const wall = seconds(start);
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: wall, cpu: (cpu.user + cpu.system) / 1e6, updates };
}

/** The floor any JSONL tool pays: read every line and JSON.parse it. */
async function parseFloor(path) {
  const start = process.hrtime.bigint();
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (JSON.parse(line).id) n++;
  }
  return { seconds: seconds(start), lines: n };
}

/**
 * End to end, as users run it: `mari classify FILE` in a child process, its stdout's lines counted
 * here, measured from outside (bench/lib/measure-child.py: a preload would add Node's module
 * loader to the process measured).
 */
async function cliRun(path) {
  const [file, args] = measuredCommand(process.execPath, [join(ROOT, "bin/mari.js"), "classify", path]);
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdoutLines = 0;
  child.stdout.on("data", (chunk) => {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) stdoutLines++;
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const [code] = await once(child, "close");
  const { wall, user, sys, rssKb: maxRssKb } = measuredFields(stderr);
  const cpu = user === null || sys === null ? null : user + sys;
  if (code !== 0 || stdoutLines !== PAIRS || cpu === null || maxRssKb === null) {
    throw new Error(`mari classify failed (exit ${code}): ${stderr.slice(0, 500)}`);
  }
  return { wall, cpu, maxRssMb: maxRssKb / 1024 };
}

const streamPath = join(tmpdir(), `mari-bench-classify-${process.pid}.jsonl`);
const mixedPath = join(tmpdir(), `mari-bench-classify-mixed-${process.pid}.jsonl`);
try {
  await writeStream(streamPath, ownPair);
  await writeStream(mixedPath, mixedPair);
  const { statSync } = await import("node:fs");
  const streamBytes = statSync(streamPath).size;

  coreRun(); // warm-up (JIT)
  const core = Array.from({ length: RUNS }, coreRun);
  const floor = [];
  for (let i = 0; i < RUNS; i++) floor.push(await parseFloor(streamPath));
  // The two streams interleaved, so that both see the same load from other jobs.
  const cli = [];
  const cliMixed = [];
  for (let i = 0; i < RUNS; i++) {
    cli.push(await cliRun(streamPath));
    cliMixed.push(await cliRun(mixedPath));
  }

  const coreBest = Math.min(...core.map((r) => r.seconds));
  const cliWalls = cli.map((r) => r.wall);
  const result = {
    command: `node bench/classify.mjs --pairs ${PAIRS} --runs ${RUNS}${MIX === undefined ? "" : " --mix FILE"}`,
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      // Wall times are only meaningful on an idle machine; CPU seconds are robust to other load.
      loadAverage1mAtEnd: +loadavg()[0].toFixed(2),
    },
    stream: { pairs: PAIRS, bytes: streamBytes, source: "datasets/memory-pairs/mari-pairs.jsonl cycled, unique ids" },
    classifyCore: {
      what: `classify(new, old) in-process, single thread, over a pool of ${pool.length} distinct in-memory pairs`,
      seconds: core.map((r) => +r.seconds.toFixed(3)),
      bestPairsPerSecond: Math.round(PAIRS / coreBest),
      medianPairsPerSecond: Math.round(PAIRS / median(core.map((r) => r.seconds))),
      bestMicrosecondsPerPair: +((coreBest / PAIRS) * 1e6).toFixed(2),
      cpuSeconds: core.map((r) => +r.cpu.toFixed(3)),
      bestCpuPairsPerSecond: Math.round(PAIRS / Math.min(...core.map((r) => r.cpu))),
      peakRssMb: +(process.resourceUsage().maxRSS / 1024).toFixed(1),
    },
    jsonParseFloor: {
      what: "read every line and JSON.parse it (readline)",
      seconds: floor.map((r) => +r.seconds.toFixed(3)),
    },
    cli: {
      what: "mari classify STREAM > pipe (child process: read, validate, classify, write JSONL)",
      wallSeconds: cliWalls.map((s) => +s.toFixed(3)),
      cpuSeconds: cli.map((r) => +r.cpu.toFixed(3)),
      bestPairsPerSecond: Math.round(PAIRS / Math.min(...cliWalls)),
      medianPairsPerSecond: Math.round(PAIRS / median(cliWalls)),
      bestCpuPairsPerSecond: Math.round(PAIRS / Math.min(...cli.map((r) => r.cpu))),
      microsecondsPerPairCpu: +((Math.min(...cli.map((r) => r.cpu)) / PAIRS) * 1e6).toFixed(2),
      peakRssMb: +Math.max(...cli.map((r) => r.maxRssMb)).toFixed(1),
      peakRssMbPerRun: cli.map((r) => +r.maxRssMb.toFixed(1)),
    },
    cliMixed: {
      what: "the same command on the mixed stream (runs interleaved with the ones above)",
      stream: {
        pairs: PAIRS,
        bytes: statSync(mixedPath).size,
        source: `datasets/memory-pairs/mari-pairs.jsonl${MIX === undefined ? "" : ` and ${mixed.length} pairs of --mix`} cycled, every other pair's words and numbers varied (seeded), unique ids`,
      },
      wallSeconds: cliMixed.map((r) => +r.wall.toFixed(3)),
      cpuSeconds: cliMixed.map((r) => +r.cpu.toFixed(3)),
      bestCpuPairsPerSecond: Math.round(PAIRS / Math.min(...cliMixed.map((r) => r.cpu))),
      peakRssMb: +Math.max(...cliMixed.map((r) => r.maxRssMb)).toFixed(1),
      peakRssMbPerRun: cliMixed.map((r) => +r.maxRssMb.toFixed(1)),
    },
    target:
      "target: mari classify end to end ≥ 2× the Go reference on this stream (Go measured at 33–44k pairs/s single-threaded end to end, so ≥ 88k pairs/s), peak RSS < 64 MB",
  };
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const resultFile = MIX === undefined ? "classify.json" : "classify-mix.json";
  writeFileSync(join(ROOT, "bench/results", resultFile), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(streamPath, { force: true });
  rmSync(mixedPath, { force: true });
}
