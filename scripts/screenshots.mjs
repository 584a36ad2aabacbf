#!/usr/bin/env node
// Takes the reference screenshots in docs/img/ from freshly written reports, in headless Chromium
// (Debian's chromium or MARI_CHROMIUM) at 1280×900, clicking the page as a user would.
// Run after `npm run build`: `node scripts/screenshots.mjs`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "docs/img");
const executablePath = [process.env.MARI_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p));
if (!executablePath) throw new Error("no Chromium (apt-get install chromium, or set MARI_CHROMIUM)");
const dir = mkdtempSync(join(tmpdir(), "mari-shots-"));
const mariIn = (cwd, ...args) => {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/mari.js"), ...args, "--quiet"], { cwd, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`mari ${args.join(" ")} exited ${r.status}`);
};
const mari = (...args) => mariIn(ROOT, ...args);
try {
  mari("eval", "datasets/contradoc/contradoc-160.jsonl", "--out", join(dir, "docs"));
  mari("eval", "datasets/memory-pairs/mari-pairs.jsonl", "--out", join(dir, "pairs"));
  mari("sweep", "datasets/memory-pairs/mari-pairs.jsonl", "--grid", "full", "--out", join(dir, "sweep"), "--progress", "none");
  // A dump whose first answer cites sentence 25 of a 20-sentence document (format-invalid).
  const firstId = JSON.parse(readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n")[0]).id;
  writeFileSync(
    join(dir, "failed.jsonl"),
    `${JSON.stringify({ case_id: firstId, judgment: true, evidence_sentence_ids: [25], reasoning: "Sentence [25] contradicts [2]." })}\n`,
  );
  // Run beside the dump, so the page names it as a user would have (failed.jsonl:1).
  mariIn(dir, "eval", join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "--predictions", "failed.jsonl", "--out", "failed", "--progress", "none");
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  const open = async (file) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    return page;
  };
  try {
    // The explorer after clicking "false negatives" and opening the first missed document.
    let page = await open(join(dir, "docs/report.html"));
    await page.click('button[data-filter="fn"]');
    await page.click("#explorer-list details.case summary");
    await page.evaluate(() => document.getElementById("cases").scrollIntoView());
    await page.screenshot({ path: join(OUT, "explorer-false-negatives.png") });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(OUT, "report-documents.png") });
    await page.close();
    // A format-invalid run: what the model gave (the offending value marked), why, and where.
    page = await open(join(dir, "failed/report.html"));
    await page.click('button[data-filter="invalid"]');
    await page.click("#explorer-list details.case summary");
    await page
      .locator("#explorer-list details.case")
      .first()
      .screenshot({ path: join(OUT, "explorer-failed-run.png") });
    await page.close();
    page = await open(join(dir, "pairs/report.html"));
    await page
      .locator("table.confusion")
      .first()
      .screenshot({ path: join(OUT, "pairs-confusion.png") });
    await page.close();
    page = await open(join(dir, "sweep/report.html"));
    await page
      .locator("svg")
      .first()
      .screenshot({ path: join(OUT, "sweep-pareto.png") });
    await page.close();
  } finally {
    await browser.close();
  }
  console.log(`wrote ${OUT}/{explorer-false-negatives,report-documents,explorer-failed-run,pairs-confusion,sweep-pareto}.png`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
