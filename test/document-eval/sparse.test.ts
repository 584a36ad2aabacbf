// Sparse evals (fewer than half the (case, run) cells have a kept line) take the sparse path of the
// aggregation and the sparse cases.jsonl layout. In process: one run table aggregated both ways
// must give the same numbers to the last bit (every absent cell still counts as a missing
// prediction), cases.jsonl files whose records read back identical, and the same case explorer
// whether it reads the table, the dense file or the sparse one.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DocumentSlice } from "../../src/io/slice.js";
import type { Aggregate } from "../../src/tasks/document/aggregate.js";
import { buildDocumentExplorer, passSummary } from "../../src/tasks/document/explorer.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { scoreCase } from "../../src/tasks/document/score.js";
import { isSparse } from "../../src/tasks/document/sparse.js";
import { tempDir } from "../support/cli.js";
import { documentCaseRecords } from "../support/cases.js";
import { numberDifferences } from "../support/number-differences.js";
import { aggregateInProcess, generatedRunTable, generatedSlice, OPTIONS } from "./generated-eval.js";

const tmp = tempDir("mari-sparse-");
afterAll(() => tmp.cleanup());

async function aggregate(s: DocumentSlice, t: RunTable, layout: "dense" | "sparse", file: string): Promise<Aggregate> {
  const { result, bytes } = await aggregateInProcess(s, t, { layout });
  writeFileSync(file, bytes);
  return result;
}

describe("sparse aggregation", () => {
  // 40 runs: ranges of 8 cases; 4,100 runs: ranges of 7 cases; 33,000 runs: ranges of one case in two run blocks.
  it.each([
    [40, 20, 0.3],
    [40, 20, 0.9],
    [4100, 9, 0.03],
    [33_000, 2, 0.002],
  ])("%i runs × %i cases, %f of the cells kept: the same report numbers, cases.jsonl records and explorer as the dense path", async (runs, cases, share) => {
    const s = await generatedSlice(tmp.dir, cases, 5);
    const t = generatedRunTable(s, runs, share, runs);
    expect(isSparse(s.cases, t, OPTIONS)).toBe(share < 0.5);
    const denseFile = join(tmp.dir, `dense-${runs}-${share}.jsonl`);
    const sparseFile = join(tmp.dir, `sparse-${runs}-${share}.jsonl`);
    // The dense pass's case columns are the explorer's (range-pass.test.ts), not a number of the report.
    const { caseColumns, ...dense } = await aggregate(s, t, "dense", denseFile);
    const sparse = await aggregate(s, t, "sparse", sparseFile);
    expect(numberDifferences(dense, sparse)).toEqual([]);
    expect(dense.reasons.get("missing_prediction")).toBeGreaterThan(0);

    const sparseText = readFileSync(sparseFile, "utf8");
    expect(sparseText.startsWith(`{"runs":[${Array.from({ length: runs }, (_, r) => `"${r}"`).join(",")}]}\n`)).toBe(true);
    // Run lines for kept lines only: the runs line, a case line per case, a run line per kept line.
    expect(sparseText.split("\n").length - 1).toBe(1 + cases + t.entries);
    const records = await documentCaseRecords(denseFile);
    expect(records.length).toBe(runs * cases);
    expect(JSON.stringify(await documentCaseRecords(sparseFile)) === JSON.stringify(records)).toBe(true);

    const explorer = (outcomes: Parameters<typeof buildDocumentExplorer>[0]["outcomes"]) =>
      buildDocumentExplorer({ outcomes, slice: s, dumpPath: null, runs: t.keys, seed: 3, caseCap: 8 });
    const fromTable = await explorer({ cases: s.cases, table: t });
    expect(fromTable.shown).toBeGreaterThan(0);
    expect(JSON.stringify(await explorer(denseFile))).toBe(JSON.stringify(fromTable));
    expect(JSON.stringify(await explorer(sparseFile))).toBe(JSON.stringify(fromTable));
    if (caseColumns) {
      const fromColumns = await buildDocumentExplorer({
        outcomes: { cases: s.cases, table: t },
        summary: passSummary(s.cases, caseColumns, s.cases.length),
        slice: s,
        dumpPath: null,
        runs: t.keys,
        seed: 3,
        caseCap: 8,
      });
      expect(JSON.stringify(fromColumns)).toBe(JSON.stringify(fromTable));
    }
  });
});

describe("run keys in cases.jsonl", () => {
  // Run keys are written as pre-encoded bytes: plain ASCII ones byte by byte, others through
  // JSON.stringify. Every kind must read back as the key it was.
  it("writes every run key as JSON.stringify renders it, on both layouts", async () => {
    const s = await generatedSlice(tmp.dir, 3, 5);
    const keys = ["0", "plain run", 'say "hi"', "back\\slash", "é-accent", "emoji 🙂", "ctrl\u0001", "del\u007f", "", " 4", "\u2028"];
    const t = new RunTable(s.cases.length);
    keys.forEach((key, r) => {
      t.ensureRun(key);
      const c = s.cases[r % s.cases.length]!;
      t.put(r, c.index, r + 1, scoreCase(c, { case_id: c.id, run: key, judgment: c.label, evidence_sentence_ids: c.label ? [1] : [] }, OPTIONS));
    });
    for (const layout of ["dense", "sparse"] as const) {
      const file = join(tmp.dir, `keys-${layout}.jsonl`);
      await aggregate(s, t, layout, file);
      const text = readFileSync(file, "utf8");
      for (const key of keys) expect(text.includes(`{"run":${JSON.stringify(key)},`)).toBe(true);
      const runsRead = new Set((await documentCaseRecords(file)).map((record) => (record as { run: string }).run));
      expect([...runsRead].sort()).toEqual([...keys].sort());
    }
  });
});
