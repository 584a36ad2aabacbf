// diff.html shows a changed case's OLD and NEW runs side by side: each side's table holds that
// side's outcomes (from its own cases.jsonl), and a format-invalid OLD run is explained with OLD's
// dump line. Real mari diff (the reports it compares written in this process), real Chromium.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openFile } from "../support/browser.js";
import { documentCaseRecords } from "../support/cases.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const { dir, cleanup } = tempDir("mari-diff-sides-");
let browser: Browser;

async function mari(args: string[]): Promise<void> {
  const r = await runMari([...args, "--quiet"]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`mari ${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
}

beforeAll(async () => {
  const launched = launchBrowser();
  // The reports are diff's inputs: the runs are in this process.
  await runTask({ task: "documents", slicePath: SLICE }, join(dir, "lexical"));
  const lexical = readFileSync(join(dir, "lexical", "lexical.predictions.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const dump = (edit: (l: Record<string, unknown>, i: number, run: number) => void) =>
    `${[0, 1]
      .flatMap((run) =>
        lexical.map((line, i) => {
          const l = { ...line, run };
          edit(l, i, run);
          return JSON.stringify(l);
        }),
      )
      .join("\n")}\n`;
  // OLD: the lexical answers, run 1 of the second case format-invalid. NEW: the first six cases flipped.
  writeFileSync(
    join(dir, "old.jsonl"),
    dump((l, i, run) => {
      if (i === 1 && run === 1) l["judgment"] = "maybe";
    }),
  );
  writeFileSync(
    join(dir, "new.jsonl"),
    dump((l, i) => {
      if (i < 6) Object.assign(l, { judgment: !l["judgment"], evidence_sentence_ids: l["judgment"] ? [] : [1] });
    }),
  );
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: join(dir, "old.jsonl") }, join(dir, "old"));
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: join(dir, "new.jsonl") }, join(dir, "new"));
  await mari(["diff", join(dir, "old"), join(dir, "new"), "--out", join(dir, "diff")]);
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

describe("diff.html: OLD and NEW side by side", () => {
  it("each side's table holds that side's runs, OLD's failures explained with OLD's dump line", async () => {
    const diff = JSON.parse(readFileSync(join(dir, "diff", "diff.json"), "utf8"));
    const changed = [...diff.regressed, ...diff.fixed].map((c: { case_id: string }) => c.case_id);
    expect(changed.length).toBeGreaterThan(0);
    const oldLines = await documentCaseRecords(join(dir, "old", "cases.jsonl"));
    const newLines = await documentCaseRecords(join(dir, "new", "cases.jsonl"));
    const outcome = (l: Record<string, unknown>) =>
      l["format_valid"] !== true ? `invalid (${l["reason"]})` : `${l["judgment"] === l["label"] ? "t" : "f"}${l["judgment"] ? "p" : "n"}`;
    const { page, problems } = await openFile(browser, join(dir, "diff", "diff.html"));
    for (const id of changed) {
      await page.evaluate((caseId) => {
        ([...document.querySelectorAll("details.case")].find((d) => d.getAttribute("data-case") === caseId) as HTMLDetailsElement).open = true;
      }, id);
      for (const [side, lines] of [
        ["old", oldLines],
        ["new", newLines],
      ] as const) {
        const selector = `details.case[data-case="${id}"] .side[data-side="${side}"] table tbody tr`;
        await page.waitForSelector(selector);
        const shown = await page.$$eval(selector, (rows) => rows.map((r) => r.children[3]!.textContent));
        expect(shown, `${id} ${side}`).toEqual(lines.filter((l) => l["case_id"] === id).map(outcome));
      }
    }
    const second = oldLines.find((l) => l["reason"] === "bad_judgment")!;
    expect(changed).toContain(second["case_id"]);
    const failure = await page.textContent(`details.case[data-case="${second["case_id"]}"] .side[data-side="old"] .run-failure`);
    expect(failure).toContain(`OLD run 1 is format-invalid (${join(dir, "old.jsonl")}:${second["line"]})`);
    expect(failure).toContain('judgment "maybe" is not a boolean');
    expect(problems).toEqual([]);
    await page.close();
  });
});
