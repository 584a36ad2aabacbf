// Every kind of page read on a 400 px screen: nothing makes the page wider than the screen (wide
// tables scroll in their own box, charts scale down), the bars of a column start at the same x,
// and only proportions get a bar (not revision_cost, not a reward mean that runs from -1 to 2).
// Real reports, real Chromium.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openFile } from "../support/browser.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const EV = join(ROOT, "datasets/evidence-example");
const { dir, cleanup } = tempDir("mari-narrow-");
let browser: Browser;
const pages = {
  documents: join(dir, "documents", "report.html"),
  pairs: join(dir, "pairs", "report.html"),
  sweep: join(dir, "sweep", "report.html"),
  evidence: join(dir, "evidence", "report.html"),
} satisfies Record<string, string>;

beforeAll(async () => {
  const launched = launchBrowser();
  // The pages are under test, not how they were made: the evaluations run in this process.
  await runTask({ task: "documents", slicePath: SLICE }, join(dir, "documents"));
  await runTask({ task: "pairs", pairs: PAIRS }, join(dir, "pairs"));
  await runTask({ task: "evidence", documents: join(EV, "docs.jsonl"), facts: join(EV, "facts.jsonl") }, join(dir, "evidence"));
  const r = await runMari(["sweep", PAIRS, "--out", join(dir, "sweep"), "--quiet", "--progress", "none"]);
  expect([0, 1]).toContain(r.code);
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

describe("pages at 400 px", () => {
  for (const [kind, path] of Object.entries(pages)) {
    it(`${kind}: no wider than the screen, each column's bars start at one x`, async () => {
      const { page } = await openFile(browser, path);
      await page.setViewportSize({ width: 400, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(400);
      const misaligned = await page.evaluate(() => {
        const out: string[] = [];
        document.querySelectorAll("table").forEach((table, t) => {
          const starts = new Map<number, Set<number>>();
          table.querySelectorAll("tbody tr").forEach((row) =>
            [...row.children].forEach((cell, c) => {
              const svg = cell.querySelector("svg.bar");
              if (svg) starts.set(c, (starts.get(c) ?? new Set()).add(Math.round(svg.getBoundingClientRect().left)));
            }),
          );
          for (const [c, xs] of starts) if (xs.size > 1) out.push(`table ${t} column ${c}: bars at x = ${[...xs].join(", ")}`);
        });
        return out;
      });
      expect(misaligned).toEqual([]);
      await page.close();
    });
  }

  it("only proportions get bars", async () => {
    for (const [path, unbarred] of [
      [pages.pairs, ["revision_cost"]],
      [pages.documents, ["reward_accuracy_mean", "tp", "cases"]],
    ] as const) {
      const { page } = await openFile(browser, path);
      const rows = await page.$$eval("section table tbody tr", (trs) =>
        trs.map((tr) => [tr.children[0]?.textContent ?? "", tr.querySelectorAll("svg.bar").length] as const),
      );
      for (const name of unbarred) {
        const found = rows.filter(([n]) => n === name);
        expect(found.length, name).toBeGreaterThan(0);
        for (const [, bars] of found) expect(bars, name).toBe(0);
      }
      // A proportion still has one.
      expect(rows.find(([n]) => n === "accuracy")![1]).toBeGreaterThan(0);
      await page.close();
    }
  });
});
