#!/usr/bin/env node
// The fourth round's fuzzers at full size: ≥ 2,000 mutated inspect_ai `.eval` zips and ≥ 2,000
// hostile inspect/promptfoo JSON logs, seeded, each read by mari's built readers and eval in a
// child process (batches of BATCH mutants; --max-old-space-size=512) with a 10 s watchdog per
// mutant. Counts crashes (anything but an input error, or the child dying), hangs (no answer in
// 10 s), silent changes (a damaged archive's sample scored as changed, invalid UTF-8 turned into
// U+FFFD, a sample not counted) and peak RSS. Needs a build. Writes bench/results/hostile-logs.json.
//   node bench/hostile-logs.mjs [--zips N] [--logs N] [--seed S]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { inspectEvalBytes, inspectJsonLog, inspectMembers, promptfooJsonLog, promptfooResults } from "./lib/eval-log-fixtures.mjs";
import { mutateJsonl, mutateJsonText, mutateZip, prng } from "./lib/log-fuzz.mjs";
import { flag, measureChild, ROOT } from "./lib/measure.mjs";
import { zipBytes } from "./lib/zip-writer.mjs";

const ZIPS = flag("--zips", 2_100);
const LOGS = flag("--logs", 2_100);
const SEED = flag("--seed", 4);
const BATCH = 50;
const WATCHDOG_MS = 10_000;
const STARTUP_MS = 120_000;
const HEAP_MB = 512;
const OUT = join(ROOT, "bench/out/hostile-logs");
const CHILD = join(ROOT, "bench/lib/hostile-logs-child.mjs");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const sliceLines = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .slice(0, 8);
const cases = sliceLines.map((l) => JSON.parse(l));
const slice = join(OUT, "slice.jsonl");
writeFileSync(slice, `${sliceLines.join("\n")}\n`);

const { evalLogLines } = await import(join(ROOT, "dist/judges/eval-logs.js"));
const { detectEvalLog } = await import(join(ROOT, "dist/judges/log-kind.js"));
const haveZstd = spawnSync("zstd", ["--version"]).status === 0;

/** The families: an honest log and how one mutant of it is made. */
const jsonlLines = promptfooResults(cases).map((r) => JSON.stringify(r));
const inspectText = JSON.stringify(inspectJsonLog(cases), null, 1);
const promptfooText = JSON.stringify(promptfooJsonLog(cases), null, 1);
const zipMethods = [["eval-deflate", 8], ["eval-stored", 0], ...(haveZstd ? [["eval-zstd", 93]] : [])];
const families = [
  ...zipMethods.map(([name, method]) => {
    const zip = inspectEvalBytes(cases, method);
    return { name, group: "zips", family: "zip", ext: "eval", honest: zip, count: Math.ceil(ZIPS / zipMethods.length), mutant: (r) => mutateZip(zip, r) };
  }),
  {
    name: "inspect-json",
    group: "logs",
    family: "json",
    ext: "json",
    honest: Buffer.from(inspectText),
    count: Math.ceil(LOGS / 3),
    mutant: (r) => mutateJsonText(inspectText, r),
  },
  {
    name: "promptfoo-json",
    group: "logs",
    family: "json",
    ext: "json",
    honest: Buffer.from(promptfooText),
    count: Math.ceil(LOGS / 3),
    mutant: (r) => mutateJsonText(promptfooText, r),
  },
  {
    name: "promptfoo-jsonl",
    group: "logs",
    family: "json",
    ext: "jsonl",
    honest: Buffer.from(`${jsonlLines.join("\n")}\n`),
    count: Math.ceil(LOGS / 3),
    mutant: (r) => mutateJsonl(jsonlLines, r),
  },
];

/** Runs one batch in a child; resolves with a record per file (a hang or a dead child included). */
function runBatch(family, files, honestPath) {
  const manifest = join(OUT, `${family.name}-batch.json`);
  writeFileSync(manifest, JSON.stringify({ family: family.family, honest: honestPath, slice, files }));
  return new Promise((resolve) => {
    const records = [];
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CHILD, manifest], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    let hung = false;
    let ready = false;
    let timer;
    const arm = (ms) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        hung = true;
        child.kill("SIGKILL");
      }, ms);
    };
    // Starting node and loading dist/ is not a mutant's time: it has its own, generous, limit.
    arm(STARTUP_MS);
    createInterface({ input: child.stdout }).on("line", (line) => {
      const record = JSON.parse(line);
      if (record.ready === true) ready = true;
      else records.push(record);
      arm(WATCHDOG_MS);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (!ready) throw new Error(`bench: a child did not start within ${STARTUP_MS} ms (code ${code}, signal ${signal}): ${stderr}`);
      if (records.length < files.length) {
        // The file in progress hung or killed its child; the rest of the batch runs again.
        const path = files[records.length];
        records.push({
          path,
          outcome: hung ? "hang" : "crash",
          detail: hung ? `no answer in ${WATCHDOG_MS} ms` : `child ended (code ${code}, signal ${signal}): ${stderr}`,
        });
      }
      resolve(records);
    });
  });
}

const results = {};
for (const family of families) {
  const honestPath = join(OUT, `${family.name}-honest.json`);
  const honestFile = join(OUT, `${family.name}-honest.${family.ext}`);
  writeFileSync(honestFile, family.honest);
  const kind = await detectEvalLog(honestFile);
  writeFileSync(honestPath, JSON.stringify(await evalLogLines(honestFile, kind)));
  const random = prng(SEED * 1000 + families.indexOf(family));
  const files = [];
  for (let i = 0; i < family.count; i++) {
    const path = join(OUT, `${family.name}-${i}.${family.ext}`);
    writeFileSync(path, family.mutant(random));
    files.push(path);
  }
  const counts = { mutants: files.length, "input-error": 0, read: 0, crash: 0, hang: 0, "silent-change": 0 };
  const failures = [];
  let maxMs = 0;
  let maxRss = 0;
  let pending = files;
  while (pending.length > 0) {
    const batch = pending.slice(0, BATCH);
    const records = await runBatch(family, batch, honestPath);
    for (const r of records) {
      counts[r.outcome]++;
      if (r.ms !== undefined) maxMs = Math.max(maxMs, r.ms);
      if (r.rss_mb !== undefined) maxRss = Math.max(maxRss, r.rss_mb);
      if (r.detail !== undefined && failures.length < 5) failures.push({ file: r.path.slice(OUT.length + 1), outcome: r.outcome, detail: r.detail });
    }
    pending = pending.slice(records.length);
    process.stdout.write(`\r${family.name}: ${files.length - pending.length}/${files.length}`);
  }
  process.stdout.write("\n");
  results[family.name] = { group: family.group, ...counts, max_ms: Math.round(maxMs), max_child_rss_mb: Math.round(maxRss), failures };
  console.log(JSON.stringify(results[family.name]));
}

const totals = {};
for (const group of ["zips", "logs"]) {
  const rows = Object.values(results).filter((r) => r.group === group);
  totals[group] = Object.fromEntries(["mutants", "input-error", "read", "crash", "hang", "silent-change"].map((k) => [k, rows.reduce((a, r) => a + r[k], 0)]));
  totals[group].max_ms = Math.max(...rows.map((r) => r.max_ms));
  totals[group].max_child_rss_mb = Math.max(...rows.map((r) => r.max_child_rss_mb));
}
// An honest archive whose zstd members declare a 256 MiB window and no content size (what a
// streaming writer may produce): before the round, each member allocated its window.
let honestWideWindow = null;
if (haveZstd) {
  const allCases = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const wideSlice = join(OUT, "slice-160.jsonl");
  writeFileSync(wideSlice, `${allCases.join("\n")}\n`);
  const wide = join(OUT, "wide-window.eval");
  writeFileSync(
    wide,
    zipBytes(
      inspectMembers(
        allCases.map((l) => JSON.parse(l)),
        4,
      ),
      93,
      ["--long=28", "--no-content-size"],
    ),
  );
  const m = await measureChild([
    "bin/mari.js",
    "eval",
    wideSlice,
    "--predictions",
    wide,
    "--out",
    join(OUT, "wide-out"),
    "--quiet",
    "--report",
    "json",
    "--workers",
    "1",
  ]);
  honestWideWindow = {
    members: 641,
    bytes: readFileSync(wide).length,
    window_mib: 256,
    wall_seconds: Number(m.wall_seconds.toFixed(2)),
    peak_rss_mb: Math.round(m.peak_rss_mb),
  };
  console.log(JSON.stringify({ honestWideWindow }));
}

const output = {
  command: `node bench/hostile-logs.mjs --zips ${ZIPS} --logs ${LOGS} --seed ${SEED}`,
  bounds: { per_mutant_ms: WATCHDOG_MS, child_heap_mb: HEAP_MB, mutants_per_child: BATCH },
  machine: { cpus: cpus().length, memory_gb: Math.round(totalmem() / 2 ** 30), load_average_1m_at_end: loadavg()[0] },
  node: process.version,
  zstd_members: haveZstd,
  totals,
  families: results,
  honest_wide_window_eval: honestWideWindow,
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/hostile-logs.json"), `${JSON.stringify(output, null, 2)}\n`);
rmSync(OUT, { recursive: true, force: true });
console.log(JSON.stringify(totals));
const bad = Object.values(totals).some((t) => t.crash + t.hang + t["silent-change"] > 0);
process.exit(bad ? 1 : 0);
