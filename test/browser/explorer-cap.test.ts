// The case explorer's bounds and counts: the page's cap bounds (case, run) entries, not only cases
// (many runs of few cases stay a small page), the filter buttons count every case of the report and
// say how many the page carries, `--explorer-cases N` moves the cap, and "flipped across runs" is
// SetCons' flipped_count. Real reports (written by the task in this process), real Chromium.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPLORER_UNIT_CAP } from "../../src/report/explorer.js";
import { launchBrowser, openFile } from "../support/browser.js";
import { documentCaseRecords } from "../support/cases.js";
import { ROOT, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const { dir, cleanup } = tempDir("mari-explorer-cap-");
let browser: Browser;
const sliceLines = readFileSync(SLICE, "utf8").split("\n").filter(Boolean);
const ids = sliceLines.map((l) => (JSON.parse(l) as { id: string }).id);

function embedded(html: string): { cases: Array<{ doc: { runs: unknown[] }; runs_total?: number }>; counts: { tags: Record<string, number> } } {
  const m = /<script type="application\/json" id="mari-explorer-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(m![1]!);
}

beforeAll(async () => {
  const launched = launchBrowser();
  // Ten cases; the first has 2,500 runs (the others one each, so 2,499 missing predictions each).
  writeFileSync(join(dir, "slice10.jsonl"), `${sliceLines.slice(0, 10).join("\n")}\n`);
  const many: string[] = ids.slice(1, 10).map((id) => JSON.stringify({ case_id: id, run: 0, judgment: false, evidence_sentence_ids: [] }));
  for (let r = 0; r < 2500; r++) {
    many.push(JSON.stringify({ case_id: ids[0], run: r, judgment: r % 3 === 0, evidence_sentence_ids: r % 3 === 0 ? [1] : [], reasoning: `run ${r}` }));
  }
  writeFileSync(join(dir, "many.jsonl"), `${many.join("\n")}\n`);
  // The reports are the pages under test, not how they were made: the runs are in this process.
  await runTask({ task: "documents", slicePath: join(dir, "slice10.jsonl"), dumpPath: join(dir, "many.jsonl") }, join(dir, "many"));
  // Two runs of the 160 documents: run 1 answers "maybe" on the first five (format-invalid, scored
  // negative), so those cases flip for SetCons when run 0 said yes.
  await runTask({ task: "documents", slicePath: SLICE }, join(dir, "lexical"));
  const lexical = readFileSync(join(dir, "lexical", "lexical.predictions.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean);
  const two = [0, 1].flatMap((run) =>
    lexical.map((line, i) => {
      const l: Record<string, unknown> = { ...(JSON.parse(line) as Record<string, unknown>), run };
      if (run === 0 && i < 5) Object.assign(l, { judgment: true, evidence_sentence_ids: [1] });
      if (run === 1 && i < 5) l["judgment"] = "maybe";
      return JSON.stringify(l);
    }),
  );
  writeFileSync(join(dir, "two.jsonl"), `${two.join("\n")}\n`);
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: join(dir, "two.jsonl") }, join(dir, "two"));
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: join(dir, "two.jsonl"), explorerCases: 20 }, join(dir, "two-capped"));
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

describe("the case explorer's cap and counts", () => {
  it("bounds (case, run) entries: ten cases with 2,500 runs carry at most the unit cap, failing runs first", async () => {
    const html = readFileSync(join(dir, "many", "report.html"), "utf8");
    const data = embedded(html);
    const units = data.cases.reduce((sum, c) => sum + c.doc.runs.length, 0);
    expect(data.cases).toHaveLength(10);
    expect(units).toBeLessThanOrEqual(EXPLORER_UNIT_CAP);
    expect(data.cases[0]!.runs_total).toBe(2500);
    expect(statSync(join(dir, "many", "report.html")).size).toBeLessThan(8_000_000);
    const { page, problems } = await openFile(browser, join(dir, "many", "report.html"));
    expect(await page.textContent("#explorer-selection")).toContain(`10 of them carry ${EXPLORER_UNIT_CAP / 10} of their runs (failing runs first).`);
    await page.evaluate(() => ((document.querySelector("details.case") as HTMLDetailsElement).open = true));
    await page.waitForSelector("details.case table");
    expect(await page.textContent("details.case")).toContain(`${EXPLORER_UNIT_CAP / 10} of this case's 2500 runs are on this page (its failing runs first)`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("counts every case in the filters and says how many the page carries (--explorer-cases 20)", async () => {
    const lines = await documentCaseRecords(join(dir, "two-capped", "cases.jsonl"));
    const fn = new Set(lines.filter((l) => l["label"] === true && l["format_valid"] === true && l["judgment"] === false).map((l) => l["case_id"]));
    const data = embedded(readFileSync(join(dir, "two-capped", "report.html"), "utf8"));
    expect(data.cases).toHaveLength(20);
    const { page } = await openFile(browser, join(dir, "two-capped", "report.html"));
    const onPage = data.cases.filter((c) => (c as unknown as { tags: string[] }).tags.includes("fn")).length;
    expect(await page.textContent('button[data-filter="fn"]')).toBe(`false negatives (${fn.size}; ${onPage} on this page)`);
    expect(await page.textContent('button[data-filter="all"]')).toBe("all (160; 20 on this page)");
    const scope = await page.$$eval('select[data-facet="scope"] option', (o) => o.map((x) => x.textContent));
    const local = new Set(lines.filter((l) => l["scope"] === "local").map((l) => l["case_id"])).size;
    expect(scope).toContain(
      `scope: local (${local}; ${data.cases.filter((c) => (c as unknown as { facets: Record<string, string> }).facets["scope"] === "local").length} on this page)`,
    );
    await page.close();
  });

  it("'flipped across runs' is SetCons' flipped_count, format-invalid runs counted as scored", async () => {
    const report = JSON.parse(readFileSync(join(dir, "two", "report.json"), "utf8"));
    const { page } = await openFile(browser, join(dir, "two", "report.html"));
    const text = await page.textContent('button[data-filter="flipped"]');
    expect(text).toBe(`flipped across runs (${report.setcons.flipped_count})`);
    expect(report.setcons.flipped_count).toBeGreaterThanOrEqual(5);
    await page.close();
  });
});
