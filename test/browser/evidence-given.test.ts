// The evidence explorer shows what the model gave: a rejected facts case (refused whole, so no
// scored facts in cases.jsonl) shows its claims and quotes from the input line, and `--located`
// runs get an explorer of their own (issues per citation, each citation as given). Real CLI,
// real Chromium.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openFile } from "../support/browser.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const EV = join(ROOT, "datasets/evidence-example");
const { dir, cleanup } = tempDir("mari-evidence-given-");
let browser: Browser;
const jsonl = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  const launched = launchBrowser();
  for (const args of [
    ["--facts", join(EV, "facts.jsonl"), "--out", join(dir, "facts")],
    ["--located", join(EV, "located.jsonl"), "--materials", join(EV, "materials.jsonl"), "--out", join(dir, "located")],
  ]) {
    const r = await runMari(["evidence", join(EV, "docs.jsonl"), ...args, "--quiet", "--progress", "none"]);
    expect([0, 1]).toContain(r.code);
  }
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

async function openCase(page: import("playwright-core").Page, id: string): Promise<string> {
  await page.evaluate((caseId) => {
    ([...document.querySelectorAll("details.case")].find((d) => d.getAttribute("data-case") === caseId) as HTMLDetailsElement).open = true;
  }, id);
  await page.waitForSelector(`details.case[data-case="${id}"] > div`);
  return (await page.textContent(`details.case[data-case="${id}"]`)) ?? "";
}

describe("evidence explorer: what the model gave", () => {
  it("a rejected facts case shows its claims and quotes as given", async () => {
    const rejected = jsonl(join(dir, "facts", "cases.jsonl")).filter((l) => l["accepted"] === false);
    expect(rejected.length).toBeGreaterThan(0);
    const input = jsonl(join(EV, "facts.jsonl"));
    const { page, problems } = await openFile(browser, join(dir, "facts", "report.html"));
    for (const line of rejected) {
      const given = input[(line["line"] as number) - 1]!;
      const output = given["output"] as { facts: Array<{ claim: string; evidence: Array<{ quote: string }> }> } | string;
      const text = await openCase(page, line["case_id"] as string);
      // An output that is not a facts object (the model's prose) is shown as it is.
      if (typeof output === "string") expect(text).toContain(output);
      for (const fact of typeof output === "string" ? [] : output.facts) {
        expect(text).toContain(`claim: ${fact.claim}`);
        const marks = await page.$$eval(`details.case[data-case="${line["case_id"]}"] .given-input mark`, (m) => m.map((x) => x.textContent));
        for (const e of fact.evidence) expect(marks).toContain(typeof e === "object" ? e.quote : JSON.stringify(e));
      }
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("--located: filters count located.jsonl, each case shows its issues and citations", async () => {
    const lines = jsonl(join(dir, "located", "located.jsonl"));
    const input = jsonl(join(EV, "located.jsonl"));
    const { page, problems } = await openFile(browser, join(dir, "located", "report.html"));
    const rejected = lines.filter((l) => l["accepted"] !== true);
    expect(await page.textContent('button[data-filter="rejected"]')).toBe(`rejected (${rejected.length})`);
    const mismatch = lines.filter((l) => (l["issues"] as Array<{ kind: string }>).some((i) => i.kind === "quote_mismatch"));
    expect(await page.textContent('button[data-filter="issue:quote_mismatch"]')).toBe(`issue: quote_mismatch (${mismatch.length})`);
    for (const line of rejected) {
      const text = await openCase(page, line["case_id"] as string);
      for (const issue of line["issues"] as Array<{ detail: string }>) expect(text).toContain(issue.detail);
      const given = input[(line["line"] as number) - 1]!["evidence"] as Array<{ quote?: string }>;
      const marks = await page.$$eval(`details.case[data-case="${line["case_id"]}"] .given-input mark`, (m) => m.map((x) => x.textContent));
      expect(marks).toEqual(given.filter((g) => typeof g.quote === "string").map((g) => g.quote));
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
