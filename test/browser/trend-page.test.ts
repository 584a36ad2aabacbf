// trend.html in headless Chromium: each point is drawn where its value is on the chart's own axis,
// the best and kept points are marked where trend.json says, nothing is fetched, no script runs
// (a checkpoint directory named like an HTML tag stays text), and the page reads at 400 px.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openFile, tableAlignment } from "../support/browser.js";
import { runMari, tempDir } from "../support/cli.js";
import { checkpoint, writeRun } from "../trend/fixture.js";

const { dir, cleanup } = tempDir("mari-trend-page-");
// A directory name cannot hold "/", so no closing tags: an image and an SVG with handlers.
const HOSTILE = `ckpt-600<img src=x onerror="__mariInjected('img')"><svg onload="__mariInjected('svg')">`;
let browser: Browser;
let trend: {
  points: Array<{ name: string; values: Record<string, number | null> }>;
  series: Array<{ metric: string; best: { index: number } | null }>;
  keep: { metric: string; kept: { index: number } };
};

beforeAll(async () => {
  const slice = await writeRun(dir);
  await checkpoint(join(dir, "reports"), slice, HOSTILE, (i) => i >= 4);
  const r = await runMari(["trend", join(dir, "reports"), "--out", join(dir, "t"), "--quiet"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  trend = JSON.parse(readFileSync(join(dir, "t/trend.json"), "utf8"));
  // The same points by name: the x labels are names, the hostile one long.
  expect((await runMari(["trend", join(dir, "reports"), "--x", "name", "--out", join(dir, "t-name"), "--quiet"])).code).toBe(0);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

describe("trend.html in Chromium", () => {
  it("draws every point at its value on the chart's axis, best and kept marked", async () => {
    const { page, requests, problems } = await openFile(browser, join(dir, "t/trend.html"));
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll("section.series")].map((section) => {
        const centre = (el: Element) => {
          const r = el.getBoundingClientRect();
          return r.top + r.height / 2;
        };
        return {
          metric: section.querySelector("h2")!.textContent,
          ticks: [...section.querySelectorAll("line.tick")].map((l) => ({ value: Number(l.getAttribute("data-value")), y: centre(l) })),
          points: [...section.querySelectorAll("circle.point")].map((c) => ({
            index: Number(c.getAttribute("data-index")),
            value: Number(c.getAttribute("data-value")),
            y: centre(c),
            x: c.getBoundingClientRect().left,
            best: c.classList.contains("best"),
            kept: c.classList.contains("kept"),
          })),
        };
      }),
    );
    expect(charts.map((c) => c.metric)).toEqual(trend.series.map((s) => s.metric));
    for (const chart of charts) {
      const series = trend.series.find((s) => s.metric === chart.metric)!;
      const values = trend.points.map((p) => p.values[series.metric]);
      expect(chart.points.map((p) => p.value)).toEqual(values);
      // The screen y of a value, from two grid lines as the browser drew them.
      const [a, b] = [chart.ticks[0]!, chart.ticks.at(-1)!];
      const yOf = (v: number) => a.y + ((v - a.value) / (b.value - a.value)) * (b.y - a.y);
      for (const p of chart.points) expect(Math.abs(p.y - yOf(p.value))).toBeLessThan(1);
      // Left to right in checkpoint order.
      expect(chart.points.map((p) => p.x)).toEqual([...chart.points.map((p) => p.x)].sort((x, y) => x - y));
      expect(chart.points.filter((p) => p.best).map((p) => p.index)).toEqual([series.best!.index]);
      const kept = chart.points.filter((p) => p.kept).map((p) => p.index);
      expect(kept).toEqual(series.metric === trend.keep.metric ? [trend.keep.kept.index] : []);
    }
    expect(await tableAlignment(page)).toEqual([]);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps a hostile checkpoint name as text: no script runs, nothing is fetched", async () => {
    const { page, requests, problems } = await openFile(browser, join(dir, "t/trend.html"));
    expect(trend.points.at(-1)!.name).toBe(HOSTILE);
    expect(await page.evaluate(() => document.querySelectorAll("script, img, iframe, object, svg:not(.trend)").length)).toBe(0);
    expect(await page.textContent("body")).toContain(HOSTILE);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(["t", "t-name"])("%s/trend.html reads at 400 px: no sideways scrolling, charts fit, no chart labels overlap", async (out) => {
    const { page, problems } = await openFile(browser, join(dir, out, "trend.html"));
    await page.setViewportSize({ width: 400, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const widths = await page.evaluate(() => [...document.querySelectorAll("svg.trend")].map((s) => s.getBoundingClientRect().right));
    for (const right of widths) expect(right).toBeLessThanOrEqual(400);
    const overlaps = await page.evaluate(() => {
      const found: string[] = [];
      document.querySelectorAll("svg.trend").forEach((svg) => {
        const boxes = [...svg.querySelectorAll("text")].map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }));
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i]!.r;
            const b = boxes[j]!.r;
            if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
              found.push(`${boxes[i]!.t} / ${boxes[j]!.t}`);
          }
      });
      return found;
    });
    expect(overlaps).toEqual([]);
    // Chart text stays legible when the chart shrinks to the phone's width.
    const smallest = await page.evaluate(() => Math.min(...[...document.querySelectorAll("svg.trend text")].map((t) => t.getBoundingClientRect().height)));
    expect(smallest).toBeGreaterThanOrEqual(8);
    expect(problems).toEqual([]);
    await page.close();
  });
});
