// The case explorer's per-case summary and page of an eval read from the run table's columns must
// equal the ones read from the table's expanded records (what the explorer reads from a
// cases.jsonl): on random run tables with every reason code (missing_prediction kept lines
// included), absent runs in streaks, sparse tables, tables filled run by run and case by case,
// duplicate and out-of-range evidence, kept lines the reader refuses, and a shard's subset of the
// slice. Reward sums compared bit for bit.
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { CaseSummary } from "../../src/report/explorer-summary.js";
import { absentRunLine, caseHeader, expandRunLine } from "../../src/report/document-cases.js";
import type { JsonObject } from "../../src/io/records.js";
import type { SliceCase } from "../../src/io/slice.js";
import { buildDocumentExplorer, headerOf, recordSummary, tableSummary } from "../../src/tasks/document/explorer.js";
import { ByteSink } from "../../src/tasks/document/line-bytes.js";
import { writeCaseLine } from "../../src/tasks/document/range.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { CASE_REASONS } from "../../src/tasks/document/score.js";
import { tempDir } from "../support/cli.js";
import { writeJsonl } from "./helpers.js";
import { lcg } from "../support/lcg.js";

const tmp = tempDir("mari-explorer-summary-");
afterAll(() => tmp.cleanup());

async function slice(cases: number, seed: number): Promise<DocumentSlice> {
  const rand = lcg(seed);
  const rows = Array.from({ length: cases }, (_, i) => {
    const sentences = Array.from({ length: 2 + rand(6) }, (_, s) => `Case ${i} sentence ${s}.`);
    const label = rand(3) !== 0;
    return {
      id: `c${i}`,
      sentences,
      label,
      ...(label ? { gold_sentence_ids: rand(4) === 0 ? [1, sentences.length] : [1 + rand(sentences.length)] } : {}),
      ...(rand(3) !== 0 ? { scope: rand(2) ? "local" : "global", doc_type: rand(4) ? "news" : 7 } : {}),
      ...(rand(5) === 1 ? { contra_type: ["negation", "numeric"] } : {}),
    };
  });
  return readDocumentSlice(writeJsonl(tmp.dir, `slice-${seed}.jsonl`, rows), {});
}

/**
 * A random table: each (case, run) kept with probability share/100, any reason, odd evidence; its
 * kept lines put run by run, each case's runs together (a GRPO dump's groups), or run by run from
 * the last run back (a dump whose lines are not in run order).
 */
type Layout = "runs" | "cases" | "runs-backwards";

function table(s: DocumentSlice, runs: number, share: number, seed: number, layout: Layout = "runs"): RunTable {
  const rand = lcg(seed);
  const t = new RunTable(s.cases.length);
  const keys = Array.from({ length: runs }, (_, r) => t.ensureRun(rand(2) ? String(r) : `run-${r}`));
  let line = 0;
  const put = (run: number, c: SliceCase) => {
    line++;
    if (rand(100) >= share) return;
    const n = c.sentences.length;
    const reason = rand(3) === 0 ? rand(CASE_REASONS.length) : 0;
    const judgment = reason !== 0 ? (rand(4) === 0 ? 1 : 0) : rand(2);
    const ids = judgment ? Array.from({ length: rand(8) === 0 ? 9 + rand(4) : rand(4) }, () => rand(n + 2)) : [];
    const coverage = rand(40) === 0 ? Number.NaN : rand(5) / 4;
    const lineNo = rand(50) === 0 ? 0 : line;
    t.putColumns(run, c.index, lineNo, judgment, reason, coverage, 0, 0, ids, 0, ids.length);
  };
  if (layout === "cases") for (const c of s.cases) for (const run of keys) put(run, c);
  else for (const run of layout === "runs" ? keys : [...keys].reverse()) for (const c of s.cases) put(run, c);
  return t;
}

type CaseRecords = Parameters<typeof recordSummary>[1];

/**
 * The records the table's cases.jsonl gives back (its case lines and run lines expanded by the
 * reader's functions): the scored cases in slice order, each run in run order, absent cells in
 * streaks; a kept line the reader refuses gives none.
 */
function tableRecords(cases: readonly SliceCase[], t: RunTable): CaseRecords {
  return async (want, visit) => {
    for (const c of cases) {
      if (want !== undefined && !want(c.index)) continue;
      const header = headerOf(c);
      const absent = (r: number) => expandRunLine(header, absentRunLine(t.keys[r]!)) as JsonObject;
      const gap = (from: number, to: number) => {
        if (to > from) visit(absent(from), to - from, (k) => absent(from + k));
      };
      let next = 0;
      for (let r = 0; r < t.keys.length; r++) {
        const e = t.entry(r, c.index);
        if (e < 0) continue;
        gap(next, r);
        next = r + 1;
        const reason = CASE_REASONS[t.reason[e]!]!;
        const runLine: JsonObject = { run: t.keys[r]!, line: t.line[e]!, judgment: t.judgment[e] === 1 };
        if (reason !== null) runLine["reason"] = reason;
        runLine["evidence_sentence_ids"] = t.evidenceOf(r, c.index);
        runLine["reference_coverage"] = t.coverage[e]!;
        const record = expandRunLine(header, runLine);
        if (typeof record !== "string") visit(record, 1, () => record);
      }
      gap(next, t.keys.length);
    }
  };
}

function plain(summary: CaseSummary): unknown {
  return {
    present: [...summary.present],
    failed: [...summary.failed],
    bits: [...summary.bits],
    runCount: [...summary.runCount],
    rewardCount: [...summary.rewardCount],
    // Bit for bit: the text of each float64's bytes.
    rewardSum: Buffer.from(summary.rewardSum.buffer, summary.rewardSum.byteOffset, summary.rewardSum.byteLength).toString("hex"),
    reasons: [...summary.reasonsOf.entries()].sort((a, b) => a[0] - b[0]),
    facets: Array.from(summary.facetsOf, (f) => f ?? null),
  };
}

describe("explorer summary from run table columns", () => {
  it.each([
    [1, 12, 7, 90, "runs"],
    [2, 40, 30, 50, "runs"],
    [3, 25, 200, 4, "runs"],
    [4, 9, 1, 100, "runs"],
    [5, 30, 60, 0, "runs"],
    [6, 18, 500, 1, "runs"],
    [7, 40, 8, 95, "cases"],
    [8, 12, 30, 70, "cases"],
    [9, 30, 20, 80, "runs-backwards"],
    [10, 25, 60, 5, "runs-backwards"],
  ] as const)("seed %i: %i cases × %i runs, %i %% kept, put by %s: the same summary as the expanded records", async (seed, cases, runs, share, layout) => {
    const s = await slice(cases, seed);
    const t = table(s, runs, share, seed * 31, layout);
    // A shard scores a subset of the slice's cases.
    const scored = seed % 2 === 0 ? s.cases.filter((c) => c.index % 3 !== 1) : s.cases;
    const fromRecords = await recordSummary(s.cases.length, tableRecords(scored, t));
    const fromColumns = tableSummary(scored, t, s.cases.length);
    expect(plain(fromColumns)).toEqual(plain(fromRecords));
    if (share > 0) expect(fromColumns.present.some((p) => p === 1)).toBe(true);
  });

  it.each([
    [25, 35, "runs"],
    [25, 35, "cases"],
    [9, 90, "cases"],
    [9, 90, "runs-backwards"],
    [25, 35, "runs-backwards"],
  ] as const)("%i runs, %i %% kept, put by %s: the explorer page from the table's columns is the one from its records", async (runs, share, layout) => {
    const s = await slice(40, 11);
    const t = table(s, runs, share, 99, layout);
    const page = (outcomes: Parameters<typeof buildDocumentExplorer>[0]["outcomes"], summary?: CaseSummary) =>
      buildDocumentExplorer({ outcomes, ...(summary ? { summary } : {}), slice: s, dumpPath: null, runs: t.keys, seed: 5, caseCap: 30 });
    const fromRecords = await page(tableRecords(s.cases, t));
    expect(fromRecords.shown).toBeGreaterThan(0);
    expect(fromRecords.cases.some((c) => c.doc!.runs.some((r) => r.reason === "missing_prediction" && r.line === undefined))).toBe(true);
    expect(JSON.stringify(await page({ cases: s.cases, table: t }))).toBe(JSON.stringify(fromRecords));
    expect(JSON.stringify(await page(tableRecords(s.cases, t), tableSummary(s.cases, t, s.cases.length)))).toBe(JSON.stringify(fromRecords));
  });

  it("a case's header is the one its case line reads back as", async () => {
    const extras = [{}, { source: "wiki", tokens: [1, -0, 2.5e-7], nested: { "é\u0000": null } }, JSON.parse('{"__proto__":1,"k":"v"}')];
    const rows = extras.map((extra, i) => ({
      ...JSON.parse(JSON.stringify(extra)),
      id: `x\ud800${i}é`,
      sentences: ["One.", "Two.", "Three."],
      label: i !== 0,
      ...(i !== 0 ? { gold_sentence_ids: [3, 1] } : {}),
      ...(i === 1 ? { scope: "local", doc_type: 7, contra_type: ["negation", "numeric"] } : {}),
      ...(i === 2 ? { contra_type: "temporal" } : {}),
    }));
    const s = await readDocumentSlice(writeJsonl(tmp.dir, "slice-headers.jsonl", rows), {});
    expect(s.cases.map((c) => Object.keys(c.extra).length)).toEqual([0, 3, 2]);
    const more = await slice(30, 8);
    for (const c of [...s.cases, ...more.cases]) {
      const out = new ByteSink();
      writeCaseLine(out, c);
      expect(headerOf(c)).toEqual(caseHeader(JSON.parse(Buffer.from(out.take()).toString("utf8"))));
    }
  });
});
