#!/usr/bin/env node
// Byte-mutated Parquet files against the reader's input contract (docs/hostile-input.md): seed
// files (a slice and a mixed-shape dump, snappy, gzip and uncompressed, written by hyparquet-writer;
// with the suite's virtualenv also pyarrow's default and with page CRC-32s), each mutated
// MUTANTS / seeds times by a seeded generator (1–8 random bytes overwritten, a bit flipped, or a run
// of bytes zeroed), read whole by mari's record reader, each in a worker thread of its own (a 512 MB
// heap limit, ended after 10 s, so a hang is counted rather than waited for). Each read must end as: the
// same rows as the seed, other rows, or an input error (exit 2 in the CLI). Counted as failures: a
// crash (any other exception), a hang (a read over 10 s), a peak RSS over 512 MB, and a silent
// change: other rows from a file whose pages carry CRC-32s, where the mutation hit page bytes, or
// a row holding U+FFFD that the seed did not. The peak RSS reported is the whole process's. Writes bench/results/parquet-fuzz.json. Needs a build.
//   node bench/parquet-fuzz.mjs [--mutants N] [--seed S]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { flag, ROOT } from "./lib/measure.mjs";

const MUTANTS = flag("--mutants", 2400);
const SEED = flag("--seed", 20261204);
const OUT = join(ROOT, "bench/out/parquet-fuzz");
const HANG_MS = 10_000;
const RSS_LIMIT_MB = 512;
const RECORDS = join(ROOT, "dist/io/records.js");
const ERRORS = join(ROOT, "dist/io/errors.js");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

function lcg(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

// Seeds: the first 40 ContraDoc cases as a slice, and a dump of three shapes over them.
const cases = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8")
  .trimEnd()
  .split("\n")
  .slice(0, 40)
  .map((l) => JSON.parse(l));
const seeds = [];
const compressors = { GZIP: (input) => new Uint8Array(gzipSync(input)) };
for (const codec of ["SNAPPY", "GZIP", "UNCOMPRESSED"]) {
  const slice = join(OUT, `seed-slice-${codec}.parquet`);
  parquetWriteFile({
    filename: slice,
    codec,
    compressors,
    rowGroupSize: 16,
    columnData: [
      { name: "id", data: cases.map((c) => c.id), type: "STRING" },
      { name: "text", data: cases.map((c) => c.text), type: "STRING" },
      { name: "label", data: cases.map((c) => c.label), type: "BOOLEAN" },
      { name: "evidence", data: cases.map((c) => c.evidence ?? null), type: "STRING" },
    ],
  });
  seeds.push({ path: slice, checksummed: false });
  const dump = join(OUT, `seed-dump-${codec}.parquet`);
  parquetWriteFile({
    filename: dump,
    codec,
    compressors,
    rowGroupSize: 25,
    columnData: [
      { name: "case_id", data: cases.map((c) => c.id), type: "STRING" },
      { name: "run", data: cases.map((_, i) => BigInt(i % 3)), type: "INT64" },
      { name: "judgment", data: cases.map((c, i) => (i % 5 === 0 ? null : c.label)), type: "BOOLEAN" },
      { name: "reasoning", data: cases.map((_, i) => (i % 5 === 0 ? null : `Compare [${1 + (i % 3)}] with [2].`)), type: "STRING" },
      {
        name: "completion",
        data: cases.map((c, i) => (i % 5 === 0 ? `<think>\nx\n</think>\n<answer>\nJudgment: ${c.label ? "yes" : "no"}\nEvidence: []\n</answer>` : null)),
        type: "STRING",
      },
    ],
  });
  seeds.push({ path: dump, checksummed: false });
}
const python = join(ROOT, ".venv/bin/python");
if (existsSync(python)) {
  const script = `
import json, sys
import pyarrow as pa, pyarrow.parquet as pq
rows = [json.loads(l) for l in open(sys.argv[1])][:40]
t = pa.Table.from_struct_array(pa.array(rows))
pq.write_table(t, sys.argv[2] + "/seed-pyarrow.parquet")
pq.write_table(t, sys.argv[2] + "/seed-pyarrow-crc.parquet", write_page_checksum=True, row_group_size=10)
`;
  const r = spawnSync(python, ["-c", script, join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), OUT], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  seeds.push({ path: join(OUT, "seed-pyarrow.parquet"), checksummed: false });
  seeds.push({ path: join(OUT, "seed-pyarrow-crc.parquet"), checksummed: true });
}

// The worker: reads each file it is sent whole and posts its rows (JSON text per record, or the
// record's error code) or how it failed. One worker serves every read until one hangs or runs out
// of memory; then it is ended and a new one started.
const READER = `
import { parentPort, workerData } from "node:worker_threads";
const { readRecords } = await import(workerData.records);
const { InputError } = await import(workerData.errors);
parentPort.on("message", async (path) => {
  const rows = [];
  try {
    for await (const item of readRecords(path, "parquet")) rows.push(item.record !== undefined ? JSON.stringify(item.record) : "error:" + item.error.code);
    parentPort.postMessage({ outcome: "read", rows });
  } catch (err) {
    parentPort.postMessage(err instanceof InputError ? { outcome: "refused", message: err.message } : { outcome: "crash", message: String(err?.stack ?? err) });
  }
});
`;

let worker;
let pending;
function startWorker() {
  worker = new Worker(READER, { eval: true, workerData: { records: RECORDS, errors: ERRORS }, resourceLimits: { maxOldGenerationSizeMb: RSS_LIMIT_MB } });
  worker.on("message", (m) => pending?.(m));
  worker.on("error", (err) =>
    pending?.({ outcome: err?.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash", message: String(err?.stack ?? err), dead: true }),
  );
  worker.on("exit", (code) => pending?.({ outcome: "crash", message: `worker exited with ${code}`, dead: true }));
}
startWorker();

/** How reading `path` ends, in the worker, ended after HANG_MS. */
function readAll(path) {
  const started = Date.now();
  return new Promise((resolve) => {
    const finish = (result) => {
      if (pending === undefined) return;
      pending = undefined;
      clearTimeout(timer);
      if (result.outcome === "hang" || result.dead) {
        const old = worker;
        old.removeAllListeners();
        void old.terminate();
        startWorker();
      }
      resolve({ ...result, ms: Date.now() - started });
    };
    pending = finish;
    const timer = setTimeout(() => finish({ outcome: "hang" }), HANG_MS);
    worker.postMessage(path);
  });
}

/** Where a seed's footer starts: a mutation past it changes metadata, before it page bytes (or headers). */
function footerStart(bytes) {
  return bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8);
}

const counts = { same: 0, changed: 0, refused: 0, crash: 0, hang: 0, memory: 0, silent_change: 0, changed_no_checksum: 0 };
const failures = [];
let slowestMs = 0;
const rand = lcg(SEED);
const originals = [];
for (const seed of seeds) {
  const r = await readAll(seed.path);
  if (r.outcome !== "read") throw new Error(`seed ${seed.path} does not read: ${r.message}`);
  originals.push({ ...seed, bytes: readFileSync(seed.path), rows: r.rows });
}
const mutant = join(OUT, "mutant.parquet");
for (let m = 0; m < MUTANTS; m++) {
  const seed = originals[m % originals.length];
  const bytes = Buffer.from(seed.bytes);
  const kind = rand(3);
  const touched = [];
  // Never the magic bytes at either end: those decide whether the file is Parquet at all.
  const position = () => 4 + rand(bytes.length - 8);
  if (kind === 0) {
    for (let k = 1 + rand(8); k > 0; k--) {
      const at = position();
      bytes[at] = rand(256);
      touched.push(at);
    }
  } else if (kind === 1) {
    const at = position();
    bytes[at] ^= 1 << rand(8);
    touched.push(at);
  } else {
    const at = position();
    const end = Math.min(bytes.length - 4, at + 1 + rand(16));
    bytes.fill(0, at, end);
    for (let i = at; i < end; i++) touched.push(i);
  }
  writeFileSync(mutant, bytes);
  const r = await readAll(mutant);
  slowestMs = Math.max(slowestMs, r.ms);
  const record = { mutant: m, seed: seed.path.replace(`${ROOT}/`, ""), touched: touched.slice(0, 4), outcome: r.outcome };
  if (r.outcome === "read") {
    const same = r.rows.length === seed.rows.length && r.rows.every((row, i) => row === seed.rows[i]);
    if (same) counts.same++;
    else {
      counts.changed++;
      const inPages = touched.some((at) => at < footerStart(seed.bytes));
      const replacement = r.rows.some((row, i) => row.includes("\ufffd") && !(seed.rows[i] ?? "").includes("\ufffd"));
      if (replacement || (seed.checksummed && inPages)) {
        counts.silent_change++;
        failures.push({ ...record, why: replacement ? "U+FFFD in a row" : "page bytes changed under a CRC-32" });
      } else counts.changed_no_checksum++;
    }
  } else {
    counts[r.outcome]++;
    if (r.outcome !== "refused") failures.push({ ...record, message: r.message?.slice(0, 400) });
  }
}
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
const result = {
  mutants: MUTANTS,
  prng_seed: SEED,
  seeds: originals.map((s) => ({ file: s.path.replace(`${ROOT}/`, ""), bytes: s.bytes.length, rows: s.rows.length, page_crc32: s.checksummed })),
  counts,
  slowest_read_ms: slowestMs,
  peak_rss_mb: peakRssMb,
  over_rss_limit: peakRssMb > RSS_LIMIT_MB,
  failures: failures.slice(0, 50),
  node: process.version,
  date: new Date().toISOString(),
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/parquet-fuzz.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ mutants: MUTANTS, counts, slowest_read_ms: slowestMs, peak_rss_mb: peakRssMb }));
await worker.terminate();
if (counts.crash + counts.hang + counts.memory + counts.silent_change > 0 || result.over_rss_limit) process.exit(1);
