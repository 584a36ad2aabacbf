// Pages that lead with the answer, in headless Chromium: report.html's title and heading name the
// dump and the slice; the verdict, gates, headline metrics and rejections come first; "No gates."
// once; every number formatted; per-run metrics drawn as one SVG per headline metric with the
// table folded; diff.html at 400 px shows the difference and its interval without sideways
// scrolling, and draws the deltas. MARI_SCREENSHOTS=DIR keeps screenshots at 1400 and 400 px.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openFile } from "../support/browser.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { scaled } from "../support/time-limits.js";

const { dir, cleanup } = tempDir("mari-answer-first-");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const RUNS = 12;
let browser: Browser;

async function mari(args: string[], code = 0): Promise<void> {
  const r = await runMari([...args, "--quiet"]);
  expect(r.code, r.stderr).toBe(code);
}

async function screenshots(page: Page, name: string): Promise<void> {
  const into = process.env["MARI_SCREENSHOTS"];
  if (!into) return;
  mkdirSync(into, { recursive: true });
  for (const width of [1400, 400]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: join(into, `${name}-${width}.png`), fullPage: width === 400 });
  }
}

beforeAll(async () => {
  const lexical = join(dir, "lexical.jsonl");
  await mari(["predict", SLICE, "--judge", "lexical", "--out", lexical]);
  // Several runs that differ (a seeded share of answers flipped): per-run plots and fractional confusion counts.
  let state = 3;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const answers = readFileSync(lexical, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const lines: string[] = [];
  for (let run = 0; run < RUNS; run++)
    for (const a of answers) {
      const judgment = run > 0 && random() < 0.2 ? !a.judgment : a.judgment;
      lines.push(JSON.stringify({ ...a, run, judgment, evidence_sentence_ids: judgment ? (a.judgment ? a.evidence_sentence_ids : [1]) : [] }));
    }
  writeFileSync(join(dir, "model-a.jsonl"), `${lines.join("\n")}\n`);
  await mari(["eval", SLICE, "--predictions", join(dir, "model-a.jsonl"), "--out", join(dir, "multi"), "--gate", "accuracy>=0.9"], 1);
  await mari(["eval", SLICE, "--predictions", lexical, "--out", join(dir, "single")]);
  await mari(["diff", join(dir, "single"), join(dir, "multi"), "--out", join(dir, "diff")]);
  browser = await launchBrowser();
}, scaled(300_000));

afterAll(async () => {
  await browser?.close();
  cleanup();
});

/** The page's text nodes, each apart (cells do not run together), without scripts (the explorer's embedded data). */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.parentElement?.closest("script, style") == null) parts.push(node.nodeValue ?? "");
    }
    return parts.join(" ");
  });
}

function sectionTitles(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll("section > h2")].map((h) => h.textContent ?? ""));
}

describe("report.html leads with the answer", () => {
  it("names the dump and slice, then verdict, gates, metrics, rejections; runs as plots, the table folded", async () => {
    const { page, problems, requests } = await openFile(browser, join(dir, "multi/report.html"));
    expect(await page.title()).toBe("model-a.jsonl on contradoc-160.jsonl · mari documents");
    expect(await page.textContent("h1")).toBe("model-a.jsonl on contradoc-160.jsonl");
    expect((await page.textContent("p.verdict"))?.trim()).toBe("The gate failed.");
    expect((await sectionTitles(page)).slice(0, 3)).toEqual(["Gates", "Metrics", "Rejections"]);
    // One plot per headline metric (those with an interval), a dot per run, the table folded.
    const report = JSON.parse(readFileSync(join(dir, "multi/report.json"), "utf8"));
    const plots = await page.evaluate(() =>
      [...document.querySelectorAll("figure.runplot")].map((f) => ({
        caption: f.querySelector("figcaption")?.textContent ?? "",
        dots: f.querySelectorAll("circle").length,
      })),
    );
    expect(plots.map((p) => p.caption.split(" ")[0])).toEqual(Object.keys(report.ci));
    for (const p of plots) expect(p.dots).toBe(RUNS);
    expect(await page.evaluate(() => [...document.querySelectorAll("details")].some((d) => !d.open && d.querySelector("table") !== null))).toBe(true);
    // Numbers formatted everywhere: no long decimal fractions (the confusion matrix holds means over runs).
    expect(report.metrics.tp % 1).not.toBe(0);
    expect((await visibleText(page)).match(/\d\.\d{5,}/g)).toBeNull();
    await screenshots(page, "report-multi");
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says "No gates." once when no gate was set', async () => {
    const { page, problems } = await openFile(browser, join(dir, "single/report.html"));
    const text = await visibleText(page);
    expect(text.match(/No gates/g)).toEqual(["No gates"]);
    expect((await sectionTitles(page)).slice(0, 2)).toEqual(["Metrics", "Rejections"]);
    expect(await page.title()).toBe("lexical.jsonl on contradoc-160.jsonl · mari documents");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("diff.html at 400 px", () => {
  it("shows each difference and its interval without sideways scrolling, and draws them", async () => {
    const { page, problems, requests } = await openFile(browser, join(dir, "diff/diff.html"));
    const diff = JSON.parse(readFileSync(join(dir, "diff/diff.json"), "utf8"));
    expect(await page.title()).toBe("lexical.jsonl → model-a.jsonl · mari diff");
    await screenshots(page, "diff");
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll("svg.deltas g.delta")].map((g) => ({
        metric: g.getAttribute("data-metric"),
        difference: Number(g.getAttribute("data-difference")),
      })),
    );
    expect(drawn).toEqual(Object.entries(diff.comparison.metrics).map(([metric, d]) => ({ metric, difference: (d as { difference: number }).difference })));
    expect(await page.evaluate(() => document.querySelector("svg.deltas")!.getBoundingClientRect().right)).toBeLessThanOrEqual(400);
    // The metrics table's difference and 95% CI columns are on screen without scrolling it sideways.
    const right = await page.evaluate(() => {
      const table = [...document.querySelectorAll("table")].find((t) => t.querySelector("th")?.textContent === "metric")!;
      const headers = [...table.querySelectorAll("thead th")];
      return headers.filter((h) => h.textContent === "difference" || h.textContent === "95% CI").map((h) => h.getBoundingClientRect().right);
    });
    expect(right).toHaveLength(2);
    for (const r of right) expect(r).toBeLessThanOrEqual(400);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
