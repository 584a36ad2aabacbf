#!/usr/bin/env node
// Load time of report.html in headless Chromium for the 891-document ContraDoc slice with 5 runs
// (target: under 2 s), and `mari eval` with `--report json,md,html` against `json,md`
// (the case explorer's cost); the same with 200 runs, where the explorer's cap (20,000 units)
// leaves cases out. The dump: the lexical judge's answers, with a seeded
// share of the cases answered the other way in runs 1-4 (so runs differ and cases flip), reasoning
// citing sentences. Load = navigation start to the explorer's case count being on the page,
// median of 5 loads (fresh page each). Results in bench/results/report-page.json.
// Needs `npm run build` and Chromium (Debian's chromium, or MARI_CHROMIUM=/path).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { chromiumOrExit, ROOT } from "./lib/measure.mjs";

const BIN = join(ROOT, "bin/mari.js");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const CONFIGS = [5, 200];
const LOADS = 5;
const executablePath = chromiumOrExit("report-page");

function mari(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`mari ${args.join(" ")} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const dir = mkdtempSync(join(tmpdir(), "mari-bench-page-"));
const results = [];
try {
  const lexicalPath = join(dir, "lexical.jsonl");
  mari(["predict", SLICE, "--judge", "lexical", "--out", lexicalPath]);
  const lexical = readFileSync(lexicalPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  for (const RUNS of CONFIGS) results.push(await measure(lexical, RUNS));
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/report-page.json"), JSON.stringify(results, null, 2) + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function measure(lexical, RUNS) {
  let state = 12345;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const lines = [];
  for (let run = 0; run < RUNS; run++) {
    for (const l of lexical) {
      const flip = run > 0 && random() < 0.15;
      const judgment = flip ? !l.judgment : l.judgment;
      const evidence = judgment ? (l.judgment ? l.evidence_sentence_ids : [1]) : [];
      lines.push(JSON.stringify({ ...l, run, judgment, evidence_sentence_ids: evidence, reasoning: `${l.reasoning} Compared [1] with [2]; run ${run}.` }));
    }
  }
  const dump = join(dir, `dump-${RUNS}.jsonl`);
  writeFileSync(dump, lines.join("\n") + "\n");
  const evalArgs = (out, report) => [
    "eval",
    SLICE,
    "--predictions",
    dump,
    "--out",
    join(dir, out),
    "--report",
    report,
    "--workers",
    "1",
    "--progress",
    "none",
    "--quiet",
  ];
  const evalMs = (report) => Math.min(...[0, 1, 2].map(() => mari(evalArgs(`o-${RUNS}-${report}`, report))));
  const withoutHtml = evalMs("json,md");
  const withHtml = evalMs("json,md,html");
  const page = join(dir, `o-${RUNS}-json,md,html`, "report.html");
  const bytes = statSync(page).size;

  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  const loads = [];
  let explorer = "";
  let selection = "";
  try {
    for (let i = 0; i < LOADS + 1; i++) {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await tab.goto(pathToFileURL(page).href, { waitUntil: "load" });
      await tab.waitForSelector("#explorer-count");
      const ms = await tab.evaluate(() => performance.now());
      explorer = await tab.textContent("#explorer-count");
      selection = await tab.textContent("#explorer-selection");
      if (i > 0) loads.push(ms); // the first load warms the file cache
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  loads.sort((a, b) => a - b);
  const result = {
    page: `report.html of mari eval datasets/contradoc/contradoc-891.jsonl with ${RUNS} runs (${lines.length} dump lines)`,
    page_bytes: bytes,
    explorer,
    selection,
    load_ms_median: Number(loads[Math.floor(loads.length / 2)].toFixed(0)),
    load_ms_max: Number(loads[loads.length - 1].toFixed(0)),
    loads: LOADS,
    target_ms: 2000,
    eval_ms_without_html: Number(withoutHtml.toFixed(0)),
    eval_ms_with_html: Number(withHtml.toFixed(0)),
    chromium: spawnSync(executablePath, ["--version"], { encoding: "utf8" }).stdout.trim(),
    node: process.version,
    measured_at: new Date().toISOString(),
  };
  console.log(
    `report.html (891 docs x ${RUNS} runs, ${(bytes / 1e6).toFixed(2)} MB): load median ${result.load_ms_median} ms, max ${result.load_ms_max} ms over ${LOADS} loads (target < 2000 ms); ` +
      `eval ${result.eval_ms_without_html} ms without html, ${result.eval_ms_with_html} ms with (best of 3). ${selection}`,
  );
  return result;
}
