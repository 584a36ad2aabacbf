// The case explorer's per-case summary of an eval read from the run table's columns must equal the
// one read from the table's expanded records (what the explorer did before, and what it reads from
// a cases.jsonl): on random run tables with every reason code (missing_prediction kept lines
// included), absent runs in streaks, sparse tables, duplicate and out-of-range evidence, kept lines
// the reader refuses, and a shard's subset of the slice. Reward sums compared bit for bit.
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { CaseSummary } from "../../src/report/explorer-summary.js";
import { caseHeader } from "../../src/report/document-cases.js";
import { buildDocumentExplorer, headerOf, recordSummary, tableRecords, tableSummary } from "../../src/tasks/document/explorer.js";
import { ByteSink } from "../../src/tasks/document/line-bytes.js";
import { writeCaseLine } from "../../src/tasks/document/range.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { CASE_REASONS } from "../../src/tasks/document/score.js";
import { tempDir } from "../support/cli.js";
import { writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-explorer-summary-");
afterAll(() => tmp.cleanup());

function lcg(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

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

/** A random table: each (case, run) kept with probability share/100, any reason, odd evidence. */
function table(s: DocumentSlice, runs: number, share: number, seed: number): RunTable {
  const rand = lcg(seed);
  const t = new RunTable(s.cases.length);
  let line = 0;
  for (let r = 0; r < runs; r++) {
    const run = t.ensureRun(rand(2) ? String(r) : `run-${r}`);
    for (const c of s.cases) {
      line++;
      if (rand(100) >= share) continue;
      const n = c.sentences.length;
      const reason = rand(3) === 0 ? rand(CASE_REASONS.length) : 0;
      const judgment = reason !== 0 ? (rand(4) === 0 ? 1 : 0) : rand(2);
      const ids = judgment ? Array.from({ length: rand(8) === 0 ? 9 + rand(4) : rand(4) }, () => rand(n + 2)) : [];
      const coverage = rand(40) === 0 ? Number.NaN : rand(5) / 4;
      const lineNo = rand(50) === 0 ? 0 : line;
      t.putColumns(run, c.index, lineNo, judgment, reason, coverage, 0, 0, ids, 0, ids.length);
    }
  }
  return t;
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
    [1, 12, 7, 90],
    [2, 40, 30, 50],
    [3, 25, 200, 4],
    [4, 9, 1, 100],
    [5, 30, 60, 0],
    [6, 18, 500, 1],
  ])("seed %i: %i cases × %i runs, %i %% kept: the same summary as the expanded records", async (seed, cases, runs, share) => {
    const s = await slice(cases, seed);
    const t = table(s, runs, share, seed * 31);
    // A shard scores a subset of the slice's cases.
    const scored = seed % 2 === 0 ? s.cases.filter((c) => c.index % 3 !== 1) : s.cases;
    const fromRecords = await recordSummary(s.cases.length, tableRecords(scored, t));
    const fromColumns = tableSummary(scored, t, s.cases.length);
    expect(plain(fromColumns)).toEqual(plain(fromRecords));
    if (share > 0) expect(fromColumns.present.some((p) => p === 1)).toBe(true);
  });

  it("the explorer page is the same with the column summary as without", async () => {
    const s = await slice(40, 11);
    const t = table(s, 25, 35, 99);
    const page = (summary: CaseSummary | undefined) =>
      buildDocumentExplorer({
        records: tableRecords(s.cases, t),
        ...(summary ? { summary } : {}),
        slice: s,
        dumpPath: null,
        runs: t.keys,
        seed: 5,
        caseCap: 30,
      });
    const without = await page(undefined);
    expect(without.shown).toBeGreaterThan(0);
    expect(JSON.stringify(await page(tableSummary(s.cases, t, s.cases.length)))).toBe(JSON.stringify(without));
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
