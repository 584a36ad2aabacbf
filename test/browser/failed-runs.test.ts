// A format-invalid run on report.html says why, in the model's own words: the fields as the dump
// gave them (the offending one marked), the raw text of an answer the judge could not read, the
// reason code with the scorer's message, and the dump's file:line. Real CLI, real Chromium.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { launchBrowser, openFile } from "../support/browser.js";

const { dir, cleanup } = tempDir("mari-failed-runs-");
const slice = join(dir, "slice.jsonl");
const dump = join(dir, "dump.jsonl");
let browser: Browser;
let ids: string[];
let stderr: string;

beforeAll(async () => {
  const launched = launchBrowser();
  const lines = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 5);
  writeFileSync(slice, `${lines.join("\n")}\n`);
  ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  const dumpLines = [
    { case_id: ids[0], judgment: true, evidence_sentence_ids: [25], reasoning: "Sentence [25] contradicts [2]." },
    { case_id: ids[1], completion: "I think yes, but without the tags" },
    { case_id: ids[2], judgment: "maybe", evidence_sentence_ids: [] },
    { case_id: ids[3], judgment: false, evidence_sentence_ids: [], reasoning: "fine" },
    {
      case_id: ids[4],
      prediction: {
        judgment: null,
        evidence_sentence_ids: null,
        reasoning: null,
        error: { code: "answer_not_json", message: "answer is not JSON: Unexpected token 'S'" },
        raw: "Sure! <b>yes</b>, sentence 3",
      },
    },
  ];
  writeFileSync(dump, `${dumpLines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  const r = await runMari(["eval", slice, "--predictions", dump, "--out", join(dir, "out"), "--quiet", "--progress", "none"]);
  expect(r.code).toBe(0);
  stderr = r.stderr;
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

/** Opens the case's card and returns the text of its failed-run block for run "0". */
async function failure(page: Page, id: string): Promise<{ text: string; marked: string[] }> {
  await page.evaluate((caseId) => {
    const card = [...document.querySelectorAll("details.case")].find((d) => d.getAttribute("data-case") === caseId) as HTMLDetailsElement;
    card.open = true;
  }, id);
  const selector = `details.case[data-case="${id}"] .run-failure[data-failed-run="0"]`;
  await page.waitForSelector(selector);
  return page.$eval(selector, (box) => ({ text: box.textContent ?? "", marked: [...box.querySelectorAll("mark")].map((m) => m.textContent ?? "") }));
}

describe("report.html: why each run failed", () => {
  it("shows the fields as given with the offending value marked, the message and the dump's file:line", async () => {
    const { page, problems } = await openFile(browser, join(dir, "out", "report.html"));
    const outOfDocument = await failure(page, ids[0]!);
    expect(outOfDocument.marked).toEqual(["[25]"]);
    expect(outOfDocument.text).toContain("evidence_out_of_document: evidence sentence ID is outside the document");
    expect(outOfDocument.text).toContain(`${dump}:1`);
    expect(outOfDocument.text).toContain("judgment: true");

    const badJudgment = await failure(page, ids[2]!);
    expect(badJudgment.marked).toEqual(['"maybe"']);
    expect(badJudgment.text).toContain(`bad_judgment: judgment "maybe" is not a boolean or yes/no/true/false`);
    expect(badJudgment.text).toContain(`${dump}:3`);

    const completion = await failure(page, ids[1]!);
    expect(completion.text).toContain("bad_completion_format: completion is not in the");
    expect(completion.text).toContain("I think yes, but without the tags");

    // A judge failure: its code, its message and the model's raw text (as text, never as markup).
    const judge = await failure(page, ids[4]!);
    expect(judge.text).toContain("answer_not_json: the judge failed: answer is not JSON: Unexpected token 'S'");
    expect(judge.text).toContain("Sure! <b>yes</b>, sentence 3");
    expect(judge.text).toContain(`${dump}:5`);
    expect(await page.$$eval(".run-failure b", (b) => b.length)).toBe(0);

    // The same messages the CLI printed for those lines.
    for (const line of [1, 3, 5]) expect(stderr).toContain(`${dump}:${line}: `);
    // A valid run has no failure block; its dump line is in the table.
    await page.evaluate((caseId) => {
      ([...document.querySelectorAll("details.case")].find((d) => d.getAttribute("data-case") === caseId) as HTMLDetailsElement).open = true;
    }, ids[3]!);
    await page.waitForSelector(`details.case[data-case="${ids[3]}"] table`);
    expect(await page.$$eval(`details.case[data-case="${ids[3]}"] .run-failure`, (b) => b.length)).toBe(0);
    expect(await page.$eval(`details.case[data-case="${ids[3]}"] table tbody td:nth-child(2)`, (td) => td.textContent)).toBe("4");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("finds a failed run by its message or raw text in the search box", async () => {
    const { page } = await openFile(browser, join(dir, "out", "report.html"));
    await page.fill("input[data-search]", "sure! <b>yes");
    expect(await page.textContent("#explorer-count")).toMatch(/^1 of 5 cases match/);
    await page.close();
  });
});
