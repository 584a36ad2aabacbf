// `mari view` in headless Chromium: every report file under the folder is one row (eval, pairs,
// evidence, diff, trend, and the unreadable ones with their reason), newest first, the checkpoints
// under their trend; the filters and sort work; links open existing pages; a hostile folder name
// stays text; nothing is fetched; the page reads at 400 px.
import { existsSync, mkdirSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_VIEW_FILE_BYTES } from "../../src/core/limits.js";
import { launchBrowser, openFile } from "../support/browser.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { scaled } from "../support/time-limits.js";
import { checkpoint, RUN, writeSlice } from "../trend/fixture.js";

const { dir, cleanup } = tempDir("mari-view-page-");
const runs = join(dir, "runs");
const HOSTILE = `x<img src=x onerror="__mariInjected('img')">`;
let browser: Browser;
/** Report files and the time each was given (seconds), newest last. */
const files: Array<{ file: string; at: number }> = [];
const stamp = (file: string) => {
  const at = 1_800_000_000 + files.length * 60;
  utimesSync(file, at, at);
  files.push({ file, at });
};

async function mari(args: string[], code = 0) {
  const r = await runMari(args);
  expect(r.code, r.stderr).toBe(code);
  return r;
}

beforeAll(async () => {
  const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
  await mari(["eval", slice, "--out", join(runs, "lexical"), "--quiet"]);
  stamp(join(runs, "lexical/report.json"));
  await mari(["eval", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--out", join(runs, "pairs"), "--quiet"], 1);
  stamp(join(runs, "pairs/report.json"));
  const ev = join(ROOT, "datasets/evidence-example");
  await mari(["evidence", join(ev, "docs.jsonl"), "--facts", join(ev, "facts.jsonl"), "--out", join(runs, "evidence"), "--quiet"]);
  stamp(join(runs, "evidence/report.json"));
  // A training run: three checkpoints, their trend and a diff of the last two.
  const train = join(runs, "train");
  mkdirSync(train, { recursive: true });
  const constructed = writeSlice(train);
  for (const [name, right] of RUN.slice(0, 3)) {
    await checkpoint(train, constructed, name, right);
    await mari(
      ["eval", constructed, "--predictions", join(train, "dumps", `${name}.jsonl`), "--out", join(train, name), "--quiet", "--gate", "accuracy>=0.9"],
      name === "ckpt-100" ? 1 : 0,
    );
    stamp(join(train, name, "report.json"));
  }
  await mari(["trend", join(train, "ckpt-*"), "--out", join(runs, "train-trend"), "--quiet"]);
  stamp(join(runs, "train-trend/trend.json"));
  await mari(["diff", join(train, "ckpt-200"), join(train, "ckpt-300"), "--out", join(runs, "diff-200-300"), "--quiet"]);
  stamp(join(runs, "diff-200-300/diff.json"));
  // Files no run wrote: bad JSON, too deep, not a report, too large (sparse), a hostile folder name.
  const junk: Array<[string, string]> = [
    ["bad/report.json", '{"task": '],
    ["deep/report.json", `${"[".repeat(200)}${"]".repeat(200)}`],
    ["foreign/report.json", '{"name": "something else"}'],
    [`${HOSTILE}/report.json`, JSON.stringify({ task: "documents", metrics: { accuracy: 0.5 }, ci: {}, gates: [] })],
    ["huge/report.json", ""],
  ];
  for (const [path, text] of junk) {
    mkdirSync(dirname(join(runs, path)), { recursive: true });
    writeFileSync(join(runs, path), text);
  }
  truncateSync(join(runs, "huge/report.json"), MAX_VIEW_FILE_BYTES + 1);
  for (const [path] of junk) stamp(join(runs, path));
  await mari(["view", runs, "--out", join(dir, "view"), "--quiet"]);
  browser = await launchBrowser();
}, scaled(300_000));

afterAll(async () => {
  await browser?.close();
  cleanup();
});

interface Row {
  kind: string;
  verdict: string;
  file: string;
  model: string;
  member: boolean;
  hidden: boolean;
  href: string | null;
  metrics: string;
  /** The names of the metrics the row shows, in its order. */
  metricNames: string[];
}

function rows(page: import("playwright-core").Page): Promise<Row[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableRowElement>("tr.entry")].map((tr) => {
      const a = tr.querySelector<HTMLAnchorElement>("td.name a");
      return {
        kind: tr.dataset["kind"] ?? "",
        verdict: tr.dataset["verdict"] ?? "",
        file: tr.querySelector("td.name small")?.textContent ?? "",
        model: tr.children[4]?.textContent ?? "",
        member: tr.classList.contains("member"),
        hidden: tr.hidden === true || (tr.parentElement as HTMLElement).hidden === true,
        href: a === null ? null : a.href,
        metrics: tr.querySelector("td.metrics")?.textContent ?? "",
        metricNames: [...tr.querySelectorAll("td.metrics .mn")].map((n) => n.textContent ?? ""),
      };
    }),
  );
}

describe("view.html in Chromium", () => {
  it("lists every report file once, newest first, checkpoints under their trend, junk as unreadable", async () => {
    const { page, requests, problems } = await openFile(browser, join(dir, "view/view.html"));
    const shown = await rows(page);
    expect(shown.map((r) => r.file).sort()).toEqual(files.map((f) => f.file).sort());
    const kindOf = (suffix: string) => shown.find((r) => r.file.endsWith(suffix))!;
    expect(kindOf("lexical/report.json").kind).toBe("eval");
    expect(kindOf("lexical/report.json").model).toBe("lexical.predictions.jsonl");
    expect(kindOf("lexical/report.json").metrics).toMatch(/accuracy 0\.5500 \[0\.\d{4}, 0\.\d{4}\]/);
    expect(kindOf("pairs/report.json").kind).toBe("pairs");
    expect(kindOf("pairs/report.json").verdict).toBe("failed");
    expect(kindOf("evidence/report.json").kind).toBe("evidence");
    expect(kindOf("diff.json").kind).toBe("diff");
    expect(kindOf("diff.json").model).toBe("ckpt-200.jsonl → ckpt-300.jsonl");
    expect(kindOf("trend.json").kind).toBe("trend");
    expect(kindOf("ckpt-100/report.json").verdict).toBe("failed");
    expect(kindOf("ckpt-300/report.json").verdict).toBe("passed");
    // Eval, trend and diff rows show their metrics in one order, the declared one (not each file's own:
    // report.json's ci lists macro_f1 last, a trend its series first).
    const declared = ["accuracy", "macro_f1", "localization_recall", "format_valid_rate"];
    expect(kindOf("ckpt-300/report.json").metricNames).toEqual(declared);
    expect(kindOf("trend.json").metricNames).toEqual(declared.map((name) => `last ${name}`));
    // A diff's are those compared case by case, exact_localization among them.
    expect(kindOf("diff.json").metricNames).toEqual(["accuracy", "macro_f1", "localization_recall", "exact_localization"].map((name) => `Δ ${name}`));
    for (const junk of ["bad", "deep", "foreign", "huge"]) expect(kindOf(`${junk}/report.json`).kind, junk).toBe("unreadable");
    expect(kindOf("bad/report.json").metrics).toContain("not valid JSON");
    expect(kindOf("deep/report.json").metrics).toContain("nested deeper");
    expect(kindOf("foreign/report.json").metrics).toContain("not a mari report");
    expect(kindOf("huge/report.json").metrics).toContain("larger than");
    // Newest first: the row groups by their newest file; the trend's group holds its checkpoints in step order.
    const units = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("tbody.unit")].map((u) => ({
        date: Number(u.dataset["date"]),
        files: [...u.querySelectorAll("tr.entry td.name small")].map((s) => s.textContent ?? ""),
      })),
    );
    const dates = units.map((u) => u.date);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const group = units.find((u) => u.files.some((f) => f.endsWith("trend.json")))!;
    expect(group.files.map((f) => f.split("/").slice(-2, -1)[0])).toEqual(["train-trend", "ckpt-100", "ckpt-200", "ckpt-300"]);
    // Every link opens a page that exists, beside its report file.
    for (const r of shown.filter((x) => x.href !== null)) expect(existsSync(fileURLToPath(r.href!)), r.href!).toBe(true);
    expect(
      shown
        .filter((r) => r.href === null)
        .map((r) => r.kind)
        .sort(),
    ).toEqual(["eval", "unreadable", "unreadable", "unreadable", "unreadable"]);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("filters by text, kind and gates, and sorts, in the page", async () => {
    const { page, problems } = await openFile(browser, join(dir, "view/view.html"));
    const visible = async () => (await rows(page)).filter((r) => !r.hidden);
    await page.fill("#view-filter", "ckpt-2");
    expect((await visible()).map((r) => r.file.split("/").slice(-2)[0]).sort()).toEqual(["ckpt-200", "diff-200-300"]);
    expect(await page.textContent("#view-shown")).toBe(`2 of ${files.length} shown`);
    await page.fill("#view-filter", "");
    await page.selectOption("#view-kind", "unreadable");
    expect((await visible()).map((r) => r.kind)).toEqual(["unreadable", "unreadable", "unreadable", "unreadable"]);
    await page.selectOption("#view-kind", "");
    await page.selectOption("#view-verdict", "failed");
    expect((await visible()).map((r) => r.file.split("/").slice(-2)[0]).sort()).toEqual(["ckpt-100", "pairs"]);
    await page.selectOption("#view-verdict", "");
    await page.selectOption("#view-sort", "date-asc");
    const order = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>("tbody.unit")].map((u) => Number(u.dataset["date"])));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps a hostile folder name as text: no script but the page's own, nothing fetched", async () => {
    const { page, requests, problems } = await openFile(browser, join(dir, "view/view.html"));
    expect(await page.evaluate(() => document.querySelectorAll("img, iframe, object").length)).toBe(0);
    expect(await page.textContent("body")).toContain(HOSTILE);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("reads at 400 px: no sideways scrolling", async () => {
    const { page, problems } = await openFile(browser, join(dir, "view/view.html"));
    await page.setViewportSize({ width: 400, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("serves the page and the pages it links to on 127.0.0.1 with --serve, nothing else", async () => {
    const { spawn } = await import("node:child_process");
    const { MARI_COMMAND } = await import("../support/cli.js");
    const { endWithTest } = await import("../support/children.js");
    const child = endWithTest(
      spawn(process.execPath, [...MARI_COMMAND, "view", runs, "--out", join(dir, "served"), "--quiet", "--serve", "--port", "0"], {
        stdio: ["ignore", "ignore", "pipe"],
      }),
    );
    try {
      const url = await new Promise<string>((done, fail) => {
        let text = "";
        child.stderr.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const m = /serving (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(text);
          if (m) done(m[1]!);
        });
        child.on("exit", (code) => fail(new Error(`exited ${code}: ${text}`)));
      });
      const page = await browser.newPage();
      await page.goto(url);
      const link = page.locator("a", { hasText: "ckpt-300" }).first();
      await link.click();
      await page.waitForLoadState("load");
      expect(await page.title()).toContain("ckpt-300");
      const origin = new URL(url).origin;
      expect((await fetch(`${origin}/${resolve(runs).split("/").slice(-1)[0]}/train/ckpt-300/cases.jsonl`)).status).toBe(404);
      expect((await fetch(`${origin}/../../etc/passwd`)).status).toBe(404);
      await page.close();
    } finally {
      child.kill("SIGINT");
    }
  });
});
