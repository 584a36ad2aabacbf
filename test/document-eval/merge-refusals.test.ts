// `mari merge` of document shards refuses, with exit 2 and the file (and line) at fault, every
// set of shards that does not add up to one run: an unreadable or foreign report, mismatched shard
// counts, a shard given twice, another slice or dump, and cases.jsonl lines that do not belong.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { redigest } from "../support/cases.js";
import { evalShards } from "../support/shards.js";

const tmp = tempDir("mari-merge-refusals-");
afterAll(() => tmp.cleanup());

// The first 40 cases of a shipped slice: enough for two shards, quick to evaluate and merge.
const SLICE = join(tmp.dir, "slice.jsonl");
let shard0: string;
let shard1: string;
let variant = 0;

beforeAll(async () => {
  writeFileSync(SLICE, readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 40).join("\n") + "\n");
  [shard0, shard1] = await evalShards(tmp.dir, "shard", SLICE);
});

/** A copy of shard 1 with its report and/or cases.jsonl changed; returns its report path. */
function alteredShard1(change: { report?: (r: any) => unknown; reportText?: string; cases?: (lines: string[]) => string[] }): string {
  const dir = join(tmp.dir, `variant-${variant++}`);
  cpSync(shard1, dir, { recursive: true });
  const reportPath = join(dir, "report.json");
  if (change.reportText !== undefined) writeFileSync(reportPath, change.reportText);
  if (change.report) writeFileSync(reportPath, JSON.stringify(change.report(JSON.parse(readFileSync(reportPath, "utf8")))));
  if (change.cases) {
    const casesPath = join(dir, "cases.jsonl");
    const text = change.cases(readFileSync(casesPath, "utf8").trim().split("\n")).join("\n") + "\n";
    writeFileSync(casesPath, text);
    // A shard whose report vouches for the altered file (its cases digest), so the line checks are reached.
    const report = JSON.parse(readFileSync(reportPath, "utf8"));
    redigest(report, text);
    writeFileSync(reportPath, JSON.stringify(report));
  }
  return reportPath;
}

async function merge(second: string, first = join(shard0, "report.json")) {
  return runMari(["merge", first, second, "--out", join(tmp.dir, `merged-${variant++}`), "--quiet"]);
}

describe("mari merge (documents) refuses shards that are not one run", () => {
  it("an unreadable report, and a report that is not a document shard", async () => {
    const garbled = alteredShard1({ reportText: "{not json" });
    let r = await merge(garbled);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${garbled}: the shard report is not valid JSON`);
    const unsharded = alteredShard1({ report: (rep) => ({ ...rep, shard: undefined }) });
    r = await merge(unsharded);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${unsharded}: not a shard report of a document eval`);
  });

  it("shard counts that differ, a shard given twice, a shard missing", async () => {
    const ofThree = alteredShard1({ report: (rep) => ({ ...rep, shard: { ...rep.shard, count: 3 } }) });
    let r = await merge(ofThree);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${ofThree}: shard count 3 differs from 2`);
    r = await merge(join(shard0, "report.json"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("shard 0/2 given twice");
    r = await runMari(["merge", join(shard0, "report.json"), "--out", join(tmp.dir, "lonely"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("merge: shard(s) 1/2 missing");
  });

  it("a shard of another slice or another dump", async () => {
    const otherSlice = alteredShard1({ report: (rep) => ({ ...rep, dataset: { ...rep.dataset, sha256: "0".repeat(64) } }) });
    let r = await merge(otherSlice);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${otherSlice}: scored a different slice than the first report`);
    const otherDump = alteredShard1({ report: (rep) => ({ ...rep, predictions: { ...rep.predictions, sha256: "f".repeat(64) } }) });
    r = await merge(otherDump);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${otherDump}: scored a different dump than the first report`);
  });

  it("cases.jsonl lines that are not JSON, name another case, belong to the other shard, or an unknown run", async () => {
    // Compact layout: line 1 is the first case's case line, line 2 its first run line.
    const rows = readFileSync(join(shard1, "cases.jsonl"), "utf8").trim().split("\n");
    const first = JSON.parse(rows[0]!);
    const firstRun = JSON.parse(rows[1]!);
    const shard0Rows = readFileSync(join(shard0, "cases.jsonl"), "utf8").split("\n");
    const shard0Row = JSON.parse(shard0Rows[0]!);
    const cases = (report: string) => join(dirname(report), "cases.jsonl");
    const variants: Array<[(lines: string[]) => string[], (path: string) => string]> = [
      [(l) => ["{oops", ...l.slice(1)], (p) => `${p}:1: `],
      [(l) => [JSON.stringify({ ...first, case_id: "no-such-case" }), ...l.slice(1)], (p) => `${p}:1: case_index/case_id do not match the slice`],
      [(l) => [...l, shard0Rows[0]!, shard0Rows[1]!], (p) => `${p}:${rows.length + 1}: case ${JSON.stringify(shard0Row.case_id)} does not belong to shard 1/2`],
      [(l) => [l[0]!, JSON.stringify({ ...firstRun, line: firstRun.line ?? 1, run: "zzz" }), ...l.slice(2)], (p) => `${p}:2: unknown run or reason`],
      [(l) => [l[0]!, JSON.stringify({ ...firstRun, judgment: "yes" }), ...l.slice(2)], (p) => `${p}:2: not a valid run line: judgment is not a boolean`],
      [(l) => [JSON.stringify({ ...first, label: null }), ...l.slice(1)], (p) => `${p}:1: not a valid case line: label is not a boolean`],
      [(l) => l.slice(1), (p) => `${p}:1: a run line without a valid case line before it`],
    ];
    for (const [change, message] of variants) {
      const report = alteredShard1({ cases: change });
      const r = await merge(report);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message(cases(report)));
    }
  });
});
