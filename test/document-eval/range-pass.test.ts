// The WebAssembly dense pass (src/tasks/document/range-pass.ts, its source wasm/range-pass.ts)
// against range.ts's ranges, the aggregation it replaces: one generated run table
// aggregated both ways must give the same numbers to the bit, the same cases.jsonl bytes and the
// same missing-prediction examples, for every shape of ranges (8 cases, fewer cases above 4,096
// runs, run blocks above 32,768 runs, a last range of fewer cases), with absent cells,
// format-invalid lines and fractional coverages, with one worker and with two; and an eval the
// pass does not take (a coverage that is not k / n, a negative evidence ID) goes to the ranges with
// the same result.
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { Aggregate } from "../../src/tasks/document/aggregate.js";
import { passSummary, tableSummary } from "../../src/tasks/document/explorer.js";
import { denseRangePass, passArena } from "../../src/tasks/document/range-pass.js";
import { WasmArena } from "../../src/core/wasm.js";
import type { CaseSummary } from "../../src/report/explorer-summary.js";
import type { RunTable } from "../../src/tasks/document/run-table.js";
import { tempDir } from "../support/cli.js";
import { numberDifferences } from "../support/number-differences.js";
import { aggregateInProcess, generatedRunTable, generatedSlice, OPTIONS } from "./generated-eval.js";
import { writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-range-pass-");
afterAll(() => tmp.cleanup());

/** A key that needs escapes every eleventh run. */
const runKey = (r: number): string => (r % 11 === 5 ? `run "${r}"` : String(r));

/** A case summary's every field, its reward sums as bytes (so that every bit is compared). */
function summaryFields(summary: CaseSummary) {
  return {
    present: [...summary.present],
    failed: [...summary.failed],
    bits: [...summary.bits],
    runCount: [...summary.runCount],
    rewardSum: Buffer.from(summary.rewardSum.buffer).toString("hex"),
    rewardCount: [...summary.rewardCount],
    reasonsOf: [...summary.reasonsOf].sort((a, b) => a[0] - b[0]),
    facetsOf: summary.facetsOf,
  };
}

/**
 * The eval aggregated by the pass and by range.ts's ranges (on `workers`), held to the same numbers,
 * bytes and examples, and the pass's case columns (when they stand) to the case explorer's summary
 * read from the run table: the pass's.
 */
async function sameAsRanges(s: DocumentSlice, t: RunTable, workers = 1): Promise<{ result: Aggregate; bytes: Buffer }> {
  const pass = await aggregateInProcess(s, t, { layout: "dense" }, workers);
  const ranges = await aggregateInProcess(s, t, { layout: "dense", rangePass: false }, workers);
  // The pass's case columns are its own (checked below).
  const { caseColumns: columns, ...numbers } = pass.result;
  expect(numberDifferences(ranges.result, numbers)).toEqual([]);
  expect(pass.bytes.equals(ranges.bytes)).toBe(true);
  expect(pass.result.missingExamples).toEqual(ranges.result.missingExamples);
  if (columns) expect(summaryFields(passSummary(s.cases, columns, s.cases.length))).toEqual(summaryFields(tableSummary(s.cases, t, s.cases.length)));
  expect(ranges.result.caseColumns).toBeUndefined();
  return pass;
}

describe("the WebAssembly dense pass", () => {
  // 8 runs: GRPO's shape, a last range of fewer cases; 4,100 runs: ranges of 7 cases; 33,000 runs:
  // ranges of one case in two run blocks.
  it.each([
    [8, 37, 0.95, 1],
    [40, 20, 0.9, 2],
    [40, 20, 0.5, 3],
    [300, 3, 1, 4],
    [4100, 9, 0.6, 5],
    [33_000, 2, 0.7, 6],
  ])("%i runs × %i cases, %f of the cells kept: the numbers, cases.jsonl and examples of range.ts's ranges", async (runs, cases, share, seed) => {
    const s = await generatedSlice(tmp.dir, cases, seed);
    const t = generatedRunTable(s, runs, share, seed, runKey);
    // The pass takes this eval (else the comparison below would compare the ranges with themselves).
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(runs + 1) }, OPTIONS)?.sum()).toBe(true);
    const pass = await sameAsRanges(s, t);
    // Its case columns stand (else the explorer's summary above was not compared).
    expect(pass.result.caseColumns).toBeDefined();
    if (share < 1) expect(pass.result.missingExamples.length).toBe(5);
    expect(pass.bytes.length).toBeGreaterThan(0);
  });

  it("takes the eval whatever the worker count; range.ts's ranges on worker threads give the same", async () => {
    const s = await generatedSlice(tmp.dir, 30, 8);
    // 200 runs: ranges of 8 cases × 200 runs, past the cells below which ranges stay on this thread.
    const t = generatedRunTable(s, 200, 0.9, 8, runKey);
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(201) }, OPTIONS)?.sum()).toBe(true);
    expect((await sameAsRanges(s, t, 2)).bytes.length).toBeGreaterThan(0);
  });

  it("reads a run table made in its arena where it lies, and one whose arena ran out of room from a copy, with range.ts's result", async () => {
    const s = await generatedSlice(tmp.dir, 37, 13);
    const inArena = generatedRunTable(s, 8, 0.9, 13, runKey, passArena());
    const columnsOf = (t: RunTable) => [t.cell, t.line, t.judgment, t.reason, t.coverage, t.rewardAccuracy, t.matched, t.evStart, t.evLength, t.evidenceIds];
    // Every column the pass reads lies in the arena (else the pass would read a copy of it).
    expect(columnsOf(inArena).map((column) => inArena.arena?.holds(column))).toEqual(columnsOf(inArena).map(() => true));
    // An arena with room for all but the last columns: those are made on their own.
    const small = WasmArena.create((inArena.arena?.end ?? 0) - 4096);
    const outgrown = generatedRunTable(s, 8, 0.9, 13, runKey, small);
    expect(new Set(columnsOf(outgrown).map((column) => small?.holds(column)))).toEqual(new Set([true, false]));
    const copied = generatedRunTable(s, 8, 0.9, 13, runKey);
    const bytes = await Promise.all([inArena, outgrown, copied].map(async (t) => (await sameAsRanges(s, t)).bytes));
    expect(bytes[0]!.length).toBeGreaterThan(0);
    expect(bytes[1]!.equals(bytes[0]!)).toBe(true);
    expect(bytes[2]!.equals(bytes[0]!)).toBe(true);
  });

  it("leaves to range.ts's ranges an eval with a coverage that is not k / n of its case's sentences, with the same result", async () => {
    const s = await generatedSlice(tmp.dir, 12, 7);
    const t = generatedRunTable(s, 6, 0.8, 7, runKey);
    // A coverage no reference list of a case of at most 12 sentences gives: written as it is by both.
    const extra = t.ensureRun("extra");
    t.put(extra, s.cases[4]!.index, 999, { judgment: true, reason: null, evidence: [1], referenceCoverage: 0.123456, rewardAccuracy: 1, matched: 0 });
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(8) }, OPTIONS)?.sum()).toBe(false);
    expect((await sameAsRanges(s, t)).bytes.includes(Buffer.from('"reference_coverage":0.123456}'))).toBe(true);
  });

  it("assembles every case line as range.ts writes it: ids needing every kind of escape, many gold IDs, optional fields", async () => {
    const ids = ["plain", 'q"uote', "back\\slash", "tab\there", "line\u2028sep", "caf\u00e9", "emoji \u{1f600}", "lone \ud800", "\u007f", "nul \u0000 end"];
    const rows = ids.map((id, i) => {
      const sentences = Array.from({ length: 1 + ((i * 7) % 40) }, (_, s) => `Sentence ${s} of ${i}.`);
      const label = i % 3 !== 0;
      // Up to 12 gold IDs, two-digit ones among them, not in order.
      const gold = label ? [...new Set(Array.from({ length: 1 + (i % 12) }, (_, k) => 1 + ((k * 13 + i) % sentences.length)))] : [];
      return {
        id,
        sentences,
        label,
        ...(label ? { gold_sentence_ids: gold } : {}),
        ...(i % 2 ? { scope: `scope "${i}"\u00e9` } : {}),
        ...(i % 4 === 1 ? { contra_type: "negation" } : {}),
        ...(i % 3 === 1 ? { source: { page: i, note: "\u00fc" } } : {}),
      };
    });
    const s = await readDocumentSlice(writeJsonl(tmp.dir, "escapes.jsonl", rows), {});
    expect(s.cases.map((c) => c.id)).toEqual(ids);
    const t = generatedRunTable(s, 5, 0.8, 11, runKey);
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(6) }, OPTIONS)?.sum()).toBe(true);
    const { bytes } = await sameAsRanges(s, t);
    // The lines are those of cases.jsonl's reader's format: each case line parses back to its case.
    const caseLines = bytes
      .toString("utf8")
      .split("\n")
      .filter((line) => line.startsWith('{"case_id":'))
      .map((line) => JSON.parse(line));
    expect(caseLines.map((line) => line.case_id)).toEqual(ids);
    expect(caseLines.map((line) => line.gold_sentence_ids)).toEqual(s.cases.map((c) => c.gold));
  });

  it("scores absent cells of cases whose gold the check sorts as range.ts's ranges do", async () => {
    const read = await generatedSlice(tmp.dir, 24, 12);
    // Positive cases' gold given unsorted and repeated (the check sorts it and drops the repeat).
    const cases = read.cases.map((c) => (c.label && c.sentenceCount > 1 ? { ...c, gold: [c.sentenceCount, 1, c.sentenceCount] } : c));
    expect(cases.filter((c) => c.gold.length === 3).length).toBeGreaterThan(4);
    const s = { ...read, cases } as DocumentSlice;
    const t = generatedRunTable(s, 9, 0.6, 12, runKey);
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(10) }, OPTIONS)?.sum()).toBe(true);
    // The numbers, bytes and examples (not the explorer's summary: the slice reader never gives such
    // gold, and the explorer reads it as given).
    const pass = await aggregateInProcess(s, t, { layout: "dense" }, 1);
    const ranges = await aggregateInProcess(s, t, { layout: "dense", rangePass: false }, 1);
    const { caseColumns, ...numbers } = pass.result;
    expect(caseColumns).toBeDefined();
    expect(numberDifferences(ranges.result, numbers)).toEqual([]);
    expect(pass.bytes.equals(ranges.bytes)).toBe(true);
    expect(pass.result.missingExamples).toEqual(ranges.result.missingExamples);
    expect(pass.result.missingExamples.length).toBe(5);
  });

  it("leaves to range.ts's ranges an eval with a negative evidence ID, with the same result", async () => {
    const s = await generatedSlice(tmp.dir, 12, 9);
    const t = generatedRunTable(s, 6, 0.8, 9, runKey);
    // An ID the module's writer does not write (range.ts writes it as JavaScript renders it).
    const extra = t.ensureRun("extra");
    t.put(extra, s.cases[3]!.index, 999, {
      judgment: true,
      reason: "evidence_out_of_document",
      evidence: [-3],
      referenceCoverage: 0,
      rewardAccuracy: 0,
      matched: 0,
    });
    expect(denseRangePass(s.cases, t, { data: new Uint8Array(0), start: new Int32Array(8) }, OPTIONS)?.sum()).toBe(false);
    expect((await sameAsRanges(s, t)).bytes.includes(Buffer.from('"evidence_sentence_ids":[-3]'))).toBe(true);
  });
});
