// The WebAssembly writer of a range's cases.jsonl bytes (src/tasks/document/range-write.ts, its
// source wasm/range-write.ts) against range.ts's JavaScript writer: for generated ranges (cases
// with odd ids, facets and sentence counts; run keys that need escapes; kept and missing lines;
// every reason; evidence lists), the bytes are the same whenever the module takes the range, it
// takes the ranges of ordinary values, and it leaves the others (a coverage that is not k / n, an
// evidence ID that is not a 31-bit non-negative integer) to the JavaScript writer.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SliceCase } from "../../src/io/slice.js";
import { coverageTailsOf, RangeLines, writeCaseLine, writeRangeLinesHere, type RangeInput } from "../../src/tasks/document/range.js";
import { writeRangeBytes, type RunLineFragments } from "../../src/tasks/document/range-write.js";
import { CASE_REASONS } from "../../src/tasks/document/score.js";
import { ByteSink, utf8 } from "../../src/tasks/document/line-bytes.js";

const FRAGMENTS: RunLineFragments = {
  run: utf8(`{"run":`),
  line: utf8(`,"line":`),
  judgment: [false, true].map((judgment) =>
    CASE_REASONS.map((reason) => utf8(`,"judgment":${judgment}${reason === null ? "" : `,"reason":"${reason}"`},"evidence_sentence_ids":[`)),
  ),
};

interface GeneratedRange {
  cases: SliceCase[];
  runKeys: string[];
  cells: { line: number; judgment: boolean; reason: number; k: number; ids: number[] }[];
}

const sliceCase = fc
  .record({
    id: fc.oneof(fc.constantFrom("c0", "3488771835_6", 'q"uote', "caf\u00e9", "tab\there", "\ud83d\ude00"), fc.string({ maxLength: 6 })),
    sentences: fc.integer({ min: 1, max: 40 }),
    label: fc.boolean(),
    gold: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
    scope: fc.constantFrom(null, "local", "global"),
    docType: fc.constantFrom(null, "story", "news\u00e9"),
    contraType: fc.constantFrom(null, "negation", ["a", "b"]),
    extra: fc.constantFrom({}, { truncated: true }, { note: "x\ny" }),
  })
  .map(
    (c): SliceCase =>
      ({
        index: 0,
        id: c.id,
        where: "slice:1",
        sentences: Array.from({ length: c.sentences }, (_, k) => `S${k}.`),
        sentenceCount: c.sentences,
        label: c.label,
        gold: [...new Set(c.gold)].sort((a, b) => a - b),
        scope: c.scope,
        docType: c.docType,
        contraType: c.contraType,
        extra: c.extra,
      }) as SliceCase,
  );

const range = fc
  .record({
    cases: fc.array(sliceCase, { minLength: 1, maxLength: 4 }),
    runKeys: fc.array(fc.oneof(fc.nat({ max: 5000 }).map(String), fc.constantFrom("a", 'r"1', "\u00e9", "x\\y", "7b")), { minLength: 1, maxLength: 6 }),
  })
  .chain(({ cases, runKeys }) =>
    fc
      .array(
        fc.record({
          line: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 31 - 1 })),
          judgment: fc.boolean(),
          reason: fc.integer({ min: 0, max: CASE_REASONS.length - 1 }),
          k: fc.nat({ max: 40 }),
          ids: fc.array(fc.oneof(fc.nat({ max: 50 }), fc.constant(2 ** 31 - 1)), { maxLength: 4 }),
        }),
        { minLength: cases.length * runKeys.length, maxLength: cases.length * runKeys.length },
      )
      .map((cells): GeneratedRange => ({ cases: cases.map((c, index) => ({ ...c, index })), runKeys, cells })),
  );

/** The range's input and cells, with coverage `coverageOf(k, n)` for each cell. */
function laidOut(g: GeneratedRange, coverageOf: (k: number, n: number) => number, idOf: (id: number) => number = (id) => id) {
  const R = g.runKeys.length;
  const keyBytes = g.runKeys.map((key) => utf8(JSON.stringify(key)));
  const runKeyStart = new Int32Array(R + 1);
  keyBytes.forEach((bytes, r) => {
    runKeyStart[r + 1] = runKeyStart[r]! + bytes.length;
  });
  const runKeyData = new Uint8Array(runKeyStart[R]!);
  keyBytes.forEach((bytes, r) => runKeyData.set(bytes, runKeyStart[r]!));
  const lines = new RangeLines();
  lines.reset(g.cells.length);
  const evData: number[] = [];
  g.cells.forEach((cell, t) => {
    const n = g.cases[Math.floor(t / R)]!.sentences.length;
    lines.line[t] = cell.line;
    lines.judgment[t] = cell.judgment ? 1 : 0;
    lines.reason[t] = cell.reason;
    lines.coverage[t] = coverageOf(Math.min(cell.k, n), n);
    lines.evFrom[t] = evData.length;
    for (const id of cell.ids) evData.push(idOf(id));
    lines.evTo[t] = evData.length;
  });
  const input = {
    cases: g.cases,
    runs: R,
    runKeys: g.runKeys,
    runKeyData,
    runKeyStart,
    runKeyBase: 0,
    cells: { evData: Float64Array.from(evData) },
    spare: null,
  };
  return { input: input as unknown as RangeInput, lines, evData: Float64Array.from(evData) };
}

/** The module's bytes for the range, or undefined when it leaves the range to the JavaScript writer. */
function wasmBytes(p: RangeInput, lines: RangeLines, evData: Float64Array): Uint8Array | undefined {
  const caseLines = p.cases.map((c) => {
    const sink = new ByteSink();
    writeCaseLine(sink, c);
    return sink.take().slice();
  });
  const input = {
    caseLines,
    tails: p.cases.map((c) => coverageTailsOf(c.sentences.length)),
    runs: p.runs,
    runKeyData: p.runKeyData,
    runKeyStart: p.runKeyStart,
    runKeyBase: p.runKeyBase,
    cells: lines,
    evData,
  };
  return writeRangeBytes(input, FRAGMENTS, null);
}

const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8"));

describe("the WebAssembly writer of a range's cases.jsonl bytes (range-write.ts)", () => {
  it("writes every range of ordinary values, byte for byte as the JavaScript writer does", () => {
    fc.assert(
      fc.property(range, (g) => {
        const { input, lines, evData } = laidOut(g, (k, n) => k / n);
        const fromWasm = wasmBytes(input, lines, evData);
        expect(fromWasm).toBeDefined();
        expect(text(fromWasm)).toBe(text(writeRangeLinesHere(input, lines)));
      }),
      { numRuns: 1500 },
    );
  });

  it("leaves to the JavaScript writer a coverage that is not k / n and an evidence ID it does not write", () => {
    fc.assert(
      fc.property(range, fc.constantFrom(0.3333, -0.5, Number.NaN, 2), (g, odd) => {
        // The cells of numerator 0 get `odd`, which is no k / n of a sentence count up to 40.
        const { input, lines, evData } = laidOut(g, (k, n) => (k === 0 ? odd : k / n));
        const fromWasm = wasmBytes(input, lines, evData);
        if (g.cells.some((cell) => cell.k === 0)) expect(fromWasm).toBeUndefined();
        else expect(text(fromWasm)).toBe(text(writeRangeLinesHere(input, lines)));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(range, fc.constantFrom(-1, 2 ** 31, 1.5), (g, odd) => {
        const { input, lines, evData } = laidOut(
          g,
          (k, n) => k / n,
          (id) => (id === 0 ? odd : id),
        );
        const fromWasm = wasmBytes(input, lines, evData);
        if (g.cells.some((cell) => cell.ids.includes(0))) expect(fromWasm).toBeUndefined();
        else expect(text(fromWasm)).toBe(text(writeRangeLinesHere(input, lines)));
      }),
      { numRuns: 300 },
    );
  });

  it("writes ranges whose case endings fill its kept memory, starting it again", () => {
    // Sentence counts of a few thousand: their endings tables fill the kept bytes after a few hundred cases.
    for (let n = 3000; n < 3400; n += 7) {
      const g: GeneratedRange = {
        cases: [
          {
            index: 0,
            id: `c${n}`,
            where: "s:1",
            sentences: Array.from({ length: n }, () => "S."),
            sentenceCount: n,
            label: true,
            gold: [1],
            scope: null,
            docType: null,
            contraType: null,
            extra: {},
          },
        ],
        runKeys: ["0", "1"],
        cells: [
          { line: 3, judgment: true, reason: 0, k: 1, ids: [1, 2] },
          { line: 0, judgment: false, reason: 1, k: 0, ids: [] },
        ],
      };
      const { input, lines, evData } = laidOut(g, (k, m) => (k === 1 ? n - 1 : k) / m);
      expect(text(wasmBytes(input, lines, evData))).toBe(text(writeRangeLinesHere(input, lines)));
    }
  });
});
