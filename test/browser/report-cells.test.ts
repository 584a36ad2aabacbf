// report.html read the way a person reads it: in Chromium, each table as header → cell text. The
// spread columns (std, min, max) and the baseline comparison's columns (baseline, current) hold
// values that differ from each other, so a swapped or misplaced cell shows.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/report/html.js";
import { launchBrowser, openFile } from "../support/browser.js";
import { tempDir } from "../support/cli.js";
import { fixtureComparison, fixtureReport } from "../report/fixture.js";

let browser: Browser;
const { dir, cleanup } = tempDir("mari-cells-");

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  cleanup();
});

/** The table under the section heading `title`: one record per body row, keyed by header text. */
async function sectionTable(path: string, title: string): Promise<Record<string, string>[]> {
  const { page, problems } = await openFile(browser, path);
  const rows = await page.evaluate((wanted) => {
    const heading = [...document.querySelectorAll("section > h2")].find((h) => h.textContent === wanted);
    const table = heading?.parentElement?.querySelector("table");
    if (!table) return null;
    const headers = [...table.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
    return [...table.querySelectorAll("tbody tr")].map((tr) =>
      Object.fromEntries([...tr.children].map((cell, c) => [headers[c] || `column ${c}`, (cell.textContent ?? "").trim()])),
    );
  }, title);
  await page.close();
  expect(problems).toEqual([]);
  expect(rows, `a "${title}" table`).not.toBeNull();
  return rows!;
}

describe("report.html cells", () => {
  it("the metrics table puts each run-spread value under its own header", async () => {
    const report = fixtureReport({
      metrics: { accuracy: 0.75, macro_f1: 0.7 },
      spread: { accuracy: { std: 0.125, min: 0.5, max: 0.875 }, macro_f1: { std: 0.0625, min: 0.625, max: 0.8125 } },
    });
    const path = join(dir, "spread.html");
    writeFileSync(path, renderHtml(report));
    const rows = await sectionTable(path, "Metrics");
    const byMetric = Object.fromEntries(rows.map((row) => [row["metric"], row]));
    expect(byMetric["accuracy"]).toMatchObject({ value: "0.7500", std: "0.1250", min: "0.5000", max: "0.8750" });
    expect(byMetric["macro_f1"]).toMatchObject({ value: "0.7000", std: "0.0625", min: "0.6250", max: "0.8125" });
  });

  it("the baseline table has the baseline's value under baseline and the current one under current", async () => {
    const report = fixtureReport({
      baseline: fixtureComparison({
        accuracy: { current: 0.8, baseline: 0.6, difference: 0.2, low: 0.1, high: 0.3 },
        macro_f1: { current: 0.55, baseline: 0.65, difference: -0.1, low: -0.2, high: -0.05 },
      }),
    });
    const path = join(dir, "baseline.html");
    writeFileSync(path, renderHtml(report));
    const rows = await sectionTable(path, "Baseline comparison");
    expect(rows).toEqual([
      { metric: "accuracy", baseline: "0.6000", current: "0.8000", difference: "+0.2000", "95% CI": "[+0.1000, +0.3000]" },
      { metric: "macro_f1", baseline: "0.6500", current: "0.5500", difference: "-0.1000", "95% CI": "[-0.2000, -0.0500]" },
    ]);
  });
});
