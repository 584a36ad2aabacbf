// Every kind of report.html rendered in headless Chromium (one browser for the file): table cells
// sit under their headers, the case explorer's filters show the counts the cases.jsonl files imply,
// nothing but the page's own script runs (the injection corpus tries <script>, <img onerror>,
// javascript: links and </script> in reasoning) and nothing is fetched.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { readJsonl, type JsonLine } from "../support/jsonl.js";
import { launchBrowser, openFile, tableAlignment } from "../support/browser.js";
import { documentCaseRecords } from "../support/cases.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const EV = join(ROOT, "datasets/evidence-example");

type Line = JsonLine;
const jsonl = readJsonl;

let browser: Browser;
const { dir, cleanup } = tempDir("mari-browser-");
const out = (name: string) => join(dir, name);

async function mari(args: string[]): Promise<void> {
  const r = await runMari([...args, "--quiet"]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`mari ${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
}

beforeAll(async () => {
  const launched = launchBrowser();
  // The reports are the pages under test, not how they were made: the runs are in this process.
  await runTask({ task: "documents", slicePath: SLICE }, out("single"));
  // Three runs; the baseline has the lexical answer in every run, the current run flips some.
  const lexical = jsonl(join(out("single"), "lexical.predictions.jsonl"));
  const runs = (edit: (line: Line, i: number, run: number) => Line) =>
    [0, 1, 2].flatMap((run) => lexical.map((line, i) => JSON.stringify(edit({ ...line, run }, i, run)))).join("\n") + "\n";
  writeFileSync(
    out("base.jsonl"),
    runs((l) => l),
  );
  writeFileSync(
    out("current.jsonl"),
    runs((l, i, run) =>
      run === 1 && i < 12
        ? { ...l, judgment: !l["judgment"], evidence_sentence_ids: l["judgment"] ? [] : [1] }
        : run === 2 && i === 5
          ? { ...l, judgment: "maybe" }
          : l,
    ),
  );
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: out("base.jsonl") }, out("base"));
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: out("current.jsonl"), baselinePath: out("base") }, out("multi"));
  await runTask({ task: "pairs", pairs: PAIRS }, out("pairs"));
  await mari(["sweep", PAIRS, "--grid", "full", "--out", out("sweep"), "--progress", "none"]);
  await runTask({ task: "evidence", documents: join(EV, "docs.jsonl"), facts: join(EV, "facts.jsonl"), current: join(EV, "current.jsonl") }, out("evidence"));
  // The injection corpus: hostile ids, sentences and reasoning.
  const hostile = [
    { id: `<script>__mariInjected("id")</script>`, text: `First <img src=x onerror="__mariInjected('img')">. Second sentence here.`, label: false },
    { id: "x</script><script>__mariInjected('close')</script>", text: `A <a href="javascript:__mariInjected('href')">link</a>. Another one.`, label: false },
  ];
  writeFileSync(out("hostile.jsonl"), hostile.map((h) => JSON.stringify({ id: h.id, text: h.text, label: h.label })).join("\n") + "\n");
  writeFileSync(
    out("hostile.predictions.jsonl"),
    [
      JSON.stringify({
        case_id: hostile[0]!.id,
        judgment: true,
        evidence_sentence_ids: [1],
        reasoning: `see [1] </script><script>__mariInjected("reasoning")</script> <img src=x onerror=__mariInjected("r-img")> javascript:__mariInjected("js")`,
      }),
      // A raw completion: its think text is the reasoning, and the completion itself is shown too.
      JSON.stringify({
        case_id: hostile[1]!.id,
        completion: `<think>\ncompare [2] </script><img src=x onerror=__mariInjected("think")>\n</think>\n<answer>\nJudgment: No\nEvidence: []\n</answer>`,
      }),
    ].join("\n") + "\n",
  );
  await runTask({ task: "documents", slicePath: out("hostile.jsonl"), dumpPath: out("hostile.predictions.jsonl") }, out("hostile"));
  await mari(["diff", out("base"), out("multi"), "--out", out("diff")]);
  browser = await launched;
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

const PAGES = ["single", "multi", "pairs", "sweep", "evidence", "hostile"];

describe("report.html in Chromium", () => {
  it.each(PAGES)("%s: tables line up, only the page's script runs, nothing is fetched, nothing overflows", async (name) => {
    const { page, requests, problems } = await openFile(browser, join(out(name), "report.html"));
    expect(await tableAlignment(page)).toEqual([]);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    // Wide tables scroll inside their container; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // No two text labels of a chart overlap (histogram bins, Pareto points).
    const overlaps = await page.evaluate(() => {
      const found: string[] = [];
      document.querySelectorAll("svg").forEach((svg) => {
        const boxes = [...svg.querySelectorAll("text")].map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }));
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i]!.r,
              b = boxes[j]!.r;
            if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
              found.push(`${boxes[i]!.t} / ${boxes[j]!.t}`);
          }
      });
      return found;
    });
    expect(overlaps).toEqual([]);
    await page.close();
  });

  it("single run: 'false negatives' lists every missed document, gold sentences marked", async () => {
    const lines = await documentCaseRecords(join(out("single"), "cases.jsonl"));
    const missed = lines.filter((l) => l["label"] === true && l["format_valid"] === true && l["judgment"] === false);
    expect(missed.length).toBeGreaterThan(0);
    const { page } = await openFile(browser, join(out("single"), "report.html"));
    expect(await page.textContent("#explorer-selection")).toContain(`All ${lines.length} cases are shown.`);
    // The 2×2 matrix of a document report.
    const matrix = await page.$$eval("table.confusion tbody td", (cells) => cells.map((c) => Number(c.textContent)));
    const m = JSON.parse(readFileSync(join(out("single"), "report.json"), "utf8")).metrics;
    expect(matrix).toEqual([m.tp, m.fn, m.fp, m.tn]);
    await page.click('button[data-filter="fn"]');
    expect(await page.textContent("#explorer-count")).toMatch(new RegExp(`^${missed.length} of ${lines.length} cases match`));
    const listed = await page.$$eval("#explorer-list details.case", (d) => d.map((x) => x.getAttribute("data-case")));
    expect(listed).toEqual(missed.slice(0, 50).map((l) => l["case_id"]));
    const first = missed[0]!;
    await page.click("#explorer-list details.case summary");
    // The case's body is built on the details' toggle event, which fires after the click returns.
    await page.waitForSelector("#explorer-list details.case ol.sentences li");
    const gold = await page.$$eval("#explorer-list details.case ol.sentences li", (lis) =>
      lis.flatMap((li, k) => (li.className === "gold" || li.className === "both" ? [k + 1] : [])),
    );
    expect(gold).toEqual(first["gold_sentence_ids"]);
    const sentences = await page.$$eval("#explorer-list details.case ol.sentences li", (lis) => lis.length);
    expect(sentences).toBe(first["sentence_count"]);
    // A facet filter on top of the outcome filter, then sorting by reward.
    const local = missed.filter((l) => l["scope"] === "local");
    await page.selectOption('select[data-facet="scope"]', "local");
    expect(await page.textContent("#explorer-count")).toMatch(new RegExp(`^${local.length} of `));
    await page.selectOption('select[data-facet="scope"]', "");
    await page.click('button[data-filter="all"]');
    await page.selectOption("select[data-sort]", "score-desc");
    const best = Math.max(...lines.map((l) => l["reward_accuracy"] as number));
    const top = await page.$eval("#explorer-list details.case", (d) => d.getAttribute("data-case"));
    expect(lines.find((l) => l["case_id"] === top)!["reward_accuracy"]).toBe(best);
    await page.close();
  });

  it("several runs with a baseline: flipped, invalid, regressed and fixed counts", async () => {
    const lines = await documentCaseRecords(join(out("multi"), "cases.jsonl"));
    const base = await documentCaseRecords(join(out("base"), "cases.jsonl"));
    const byCase = (ls: Line[]) => {
      const m = new Map<string, Line[]>();
      for (const l of ls) m.set(l["case_id"] as string, [...(m.get(l["case_id"] as string) ?? []), l]);
      return m;
    };
    const now = byCase(lines);
    const before = byCase(base);
    const key = (l: Line) => String(l["run"]);
    let regressed = 0;
    let fixed = 0;
    let flipped = 0;
    for (const [id, ls] of now) {
      const old = new Map(before.get(id)!.map((l) => [key(l), l]));
      // Format-invalid lines have no class, so the paired comparison leaves them out.
      const pairs = ls.filter((l) => l["format_valid"]).map((l) => [old.get(key(l))!, l] as const);
      const r = pairs.some(([o, c]) => o["judgment_correct"] && !c["judgment_correct"]);
      const f = pairs.some(([o, c]) => !o["judgment_correct"] && c["judgment_correct"]);
      if (r && !f) regressed++;
      if (f && !r) fixed++;
      // As SetCons counts them: every run with a kept line, a format-invalid one judged negative.
      if (new Set(ls.filter((l) => l["reason"] !== "missing_prediction").map((l) => l["judgment"])).size > 1) flipped++;
    }
    expect(regressed + fixed).toBeGreaterThan(0);
    const invalid = new Set(lines.filter((l) => !l["format_valid"]).map((l) => l["case_id"])).size;
    const { page } = await openFile(browser, join(out("multi"), "report.html"));
    const countOf = async (filter: string) => {
      await page.click(`button[data-filter="${filter}"]`);
      return Number((await page.textContent("#explorer-count"))!.split(" ")[0]);
    };
    expect(await countOf("flipped")).toBe(flipped);
    expect(await countOf("invalid:bad_judgment")).toBe(invalid);
    expect(await countOf("regressed")).toBe(regressed);
    expect(await countOf("fixed")).toBe(fixed);
    // Each run's judgment side by side in the case's run table.
    await page.click("#explorer-list details.case summary");
    await page.waitForSelector("#explorer-list details.case tbody tr");
    expect(await page.$$eval("#explorer-list details.case tbody tr", (rows) => rows.length)).toBe(3);
    // Text search over ids.
    await page.click('button[data-filter="all"]');
    await page.fill("input[data-search]", String(lines[0]!["case_id"]));
    expect(await page.textContent("#explorer-count")).toMatch(/^1 of /);
    await page.close();
  });

  it("pairs and evidence: the filters count what cases.jsonl holds", async () => {
    const pairs = jsonl(join(out("pairs"), "cases.jsonl"));
    const wrong = pairs.filter((l) => typeof l["gold"] === "string" && l["gold"] !== l["class"]).length;
    const p = await openFile(browser, join(out("pairs"), "report.html"));
    await p.page.click('button[data-filter="wrong"]');
    expect(await p.page.textContent("#explorer-count")).toMatch(new RegExp(`^${wrong} of ${pairs.length} cases match`));
    await p.page.click("#explorer-list details.case summary");
    await p.page.waitForSelector("#explorer-list details.case .pairtext");
    expect(await p.page.$$eval("#explorer-list details.case mark", (m) => m.length)).toBeGreaterThan(0);
    await p.page.close();
    const evidence = jsonl(join(out("evidence"), "cases.jsonl"));
    const rejected = evidence.filter((l) => l["accepted"] !== true).length;
    const e = await openFile(browser, join(out("evidence"), "report.html"));
    await e.page.click('button[data-filter="rejected"]');
    expect(await e.page.textContent("#explorer-count")).toMatch(new RegExp(`^${rejected} of ${evidence.length} cases match`));
    // An accepted case's quote is shown marked inside its section's text.
    const accepted = evidence.find((l) => l["accepted"] === true)!;
    const quote = ((accepted["facts"] as Line[])[0]!["evidence"] as Line[])[0]!;
    await e.page.click('button[data-filter="accepted"]');
    await e.page.click(`#explorer-list details.case[data-case="${accepted["case_id"]}"] summary`);
    const section = e.page.locator(`#explorer-list details.case[data-case="${accepted["case_id"]}"] div[data-section="${quote["section_id"]}"]`).first();
    expect(await section.locator("mark").textContent()).toBe(quote["quote"]);
    expect((await section.textContent())!.length).toBeGreaterThan(String(quote["quote"]).length);
    await e.page.close();
  });

  it("diff.html: aligned tables, and the explorer's regressed filter lists diff.json's regressed cases", async () => {
    const diff = JSON.parse(readFileSync(join(out("diff"), "diff.json"), "utf8"));
    const { page, requests, problems } = await openFile(browser, join(out("diff"), "diff.html"));
    expect(await tableAlignment(page)).toEqual([]);
    await page.click('button[data-filter="regressed"]');
    const listed = await page.$$eval("#explorer-list details.case", (d) => d.map((x) => x.getAttribute("data-case")));
    expect(listed).toEqual(diff.regressed.map((c: Line) => c["case_id"]));
    expect(listed.length).toBeGreaterThan(0);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("hostile text stays text: no injected script, image or javascript: link", async () => {
    const { page, problems } = await openFile(browser, join(out("hostile"), "report.html"));
    for (const summary of await page.$$("#explorer-list details.case summary")) await summary.click();
    await page.waitForFunction(() => document.querySelectorAll("#explorer-list .reasoning").length === 2);
    expect(problems).toEqual([]);
    expect(await page.$$eval("script", (s) => s.length)).toBe(2);
    expect(await page.$$eval("img", (i) => i.length)).toBe(0);
    expect(await page.$$eval("a", (as) => as.filter((a) => !(a.getAttribute("href") ?? "").startsWith("#")).length)).toBe(0);
    const text = await page.textContent("#explorer-list");
    expect(text).toContain(`<script>__mariInjected("id")</script>`);
    expect(text).toContain(`</script><script>__mariInjected("reasoning")</script>`);
    // The reasoning's [i] link to the case's sentences; the raw completion is there as text.
    expect(await page.$$eval("#explorer-list .reasoning a", (as) => as.map((a) => a.getAttribute("href")))).toEqual(["#c0-s1", "#c1-s2"]);
    expect(await page.$$eval("#explorer-list pre.raw", (pre) => pre.map((p) => p.textContent))).toEqual([
      `<think>\ncompare [2] </script><img src=x onerror=__mariInjected("think")>\n</think>\n<answer>\nJudgment: No\nEvidence: []\n</answer>`,
    ]);
    await page.close();
  });
});
