#!/usr/bin/env node
// `mari view` over 1,000 reports: 50 training runs × 20 checkpoint folders (run-I/ckpt-J), each a
// report.json made from one real `mari eval` report with its metrics, dump name and date varied,
// and its report.html beside it. Measured: `mari view` wall time (best of 3), and in headless
// Chromium the page's load (navigation start to the load event, the script's first pass included),
// one filter keystroke and one re-sort, each the median of 5 fresh pages (target: load < 2 s).
// Results in bench/results/view.json. Needs `npm run build` and Chromium (Debian's, or MARI_CHROMIUM).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { chromiumOrExit, ROOT } from "./lib/measure.mjs";

const BIN = join(ROOT, "bin/mari.js");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const RUNS = 50;
const CHECKPOINTS = 20;
const LOADS = 5;
const executablePath = chromiumOrExit("view");

function mari(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`mari ${args.join(" ")} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), "mari-bench-view-"));
try {
  mari(["eval", SLICE, "--out", join(dir, "template"), "--progress", "none", "--quiet"]);
  const template = JSON.parse(readFileSync(join(dir, "template/report.json"), "utf8"));
  let state = 7;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let run = 0; run < RUNS; run++)
    for (let c = 1; c <= CHECKPOINTS; c++) {
      const folder = join(dir, "reports", `run-${run}`, `ckpt-${c * 100}`);
      mkdirSync(folder, { recursive: true });
      const report = structuredClone(template);
      for (const name of Object.keys(report.ci)) {
        const v = Math.min(1, Math.max(0, report.metrics[name] + (random() - 0.5) * 0.2));
        report.metrics[name] = v;
        report.ci[name] = { ...report.ci[name], low: Math.max(0, v - 0.07), high: Math.min(1, v + 0.07) };
      }
      report.predictions = { path: `run-${run}/ckpt-${c * 100}.jsonl`, sha256: "0".repeat(64), lines: 160, runs: ["0"] };
      const file = join(folder, "report.json");
      writeFileSync(file, JSON.stringify(report, null, 2));
      copyFileSync(join(dir, "template/report.html"), join(folder, "report.html"));
      const at = 1_800_000_000 + run * 3600 + c * 60;
      utimesSync(file, at, at);
    }
  const out = join(dir, "view");
  const cliMs = Math.min(...[0, 1, 2].map(() => mari(["view", join(dir, "reports"), "--out", out, "--progress", "none", "--quiet"])));
  const page = join(out, "view.html");
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  const loads = [];
  const filters = [];
  const sorts = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await p.goto(pathToFileURL(page).href, { waitUntil: "load" });
      const rows = await p.evaluate(() => document.querySelectorAll("tr.entry").length);
      if (rows !== RUNS * CHECKPOINTS) throw new Error(`view.html has ${rows} rows, not ${RUNS * CHECKPOINTS}`);
      loads.push(await p.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd));
      filters.push(
        await p.evaluate(() => {
          const input = document.getElementById("view-filter");
          const start = performance.now();
          input.value = "ckpt-1000";
          input.dispatchEvent(new Event("input"));
          document.body.getBoundingClientRect();
          return performance.now() - start;
        }),
      );
      sorts.push(
        await p.evaluate(() => {
          const sort = document.getElementById("view-sort");
          const start = performance.now();
          sort.value = "metric-desc";
          sort.dispatchEvent(new Event("change"));
          document.body.getBoundingClientRect();
          return performance.now() - start;
        }),
      );
      await p.close();
    }
  } finally {
    await browser.close();
  }
  const result = {
    reports: RUNS * CHECKPOINTS,
    page_bytes: statSync(page).size,
    mari_view_ms_best_of_3: Math.round(cliMs),
    chromium_load_ms_median: Math.round(median(loads)),
    chromium_load_ms: loads.map(Math.round),
    filter_ms_median: Math.round(median(filters)),
    sort_ms_median: Math.round(median(sorts)),
    target: "load < 2000 ms",
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/view.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
