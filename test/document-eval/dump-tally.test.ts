// The dump pass's tally takes a chunk of predictions only at once (DumpTally.addChunk, through
// RunTable.putChunk) and any other chunk line by line (addLines). Both must leave the same state:
// the line kept per (case, run), runs in order of first appearance, rejection counts and examples,
// --rewards lines, shards and orphans. Generated chunks go through each path and are compared.
import { afterAll, describe, expect, it } from "vitest";
import { LINE_REJECTIONS } from "../../src/io/dump.js";
import type { DocumentSlice } from "../../src/io/slice.js";
import {
  CASE_REASONS,
  fixedReasonMessage,
  LINE_KIND_ORPHAN,
  LINE_KIND_PREDICTION,
  LINE_KIND_REJECTED,
  type ChunkResult,
} from "../../src/tasks/document/score.js";
import { DumpTally, type DocumentEvalOptions } from "../../src/tasks/document/score-dump.js";
import { tempDir } from "../support/cli.js";
import { lcg } from "../support/lcg.js";
import { generatedSlice } from "./generated-eval.js";

const tmp = tempDir("mari-dump-tally-");
afterAll(() => tmp.cleanup());

function options(extra: Partial<DocumentEvalOptions> = {}): DocumentEvalOptions {
  return { slicePath: "slice.jsonl", dumpPath: "dump.jsonl", outDir: "out", workers: 1, seed: 0, bootstrap: 0, lenientIds: false, ...extra };
}

interface Line {
  kind: number;
  caseIndex?: number;
  key?: string;
  code?: number;
  message?: string;
  orphan?: string;
  evidence?: number[];
}

/** A ChunkResult as the scoring writes it: run keys numbered in order of first appearance, evidence back to back. */
function chunkOf(firstLineNo: number, lines: readonly Line[], rand: (n: number) => number): ChunkResult {
  const count = lines.length;
  const chunk: ChunkResult = {
    firstLineNo,
    count,
    kind: new Uint8Array(count),
    code: new Uint8Array(count),
    caseIndex: new Int32Array(count).fill(-1),
    runKey: new Int32Array(count),
    runKeys: [],
    judgment: new Uint8Array(count),
    coverage: new Float64Array(count),
    rewardAccuracy: new Float64Array(count),
    matched: new Int32Array(count),
    evStart: new Int32Array(count + 1),
    evData: new Int32Array(0),
    messages: [],
    orphans: [],
  };
  const evidence: number[] = [];
  lines.forEach((line, i) => {
    chunk.evStart[i] = evidence.length;
    chunk.kind[i] = line.kind;
    chunk.code[i] = line.code ?? 0;
    if (line.message !== undefined) chunk.messages.push([i, line.message]);
    if (line.kind === LINE_KIND_ORPHAN) chunk.orphans.push([i, line.orphan!]);
    if (line.kind !== LINE_KIND_PREDICTION) return;
    chunk.caseIndex[i] = line.caseIndex!;
    let k = chunk.runKeys.indexOf(line.key!);
    if (k < 0) k = chunk.runKeys.push(line.key!) - 1;
    chunk.runKey[i] = k;
    chunk.judgment[i] = rand(2);
    chunk.coverage[i] = rand(5) / 4;
    chunk.rewardAccuracy[i] = rand(3) / 2;
    chunk.matched[i] = rand(3);
    evidence.push(...(line.evidence ?? []));
  });
  chunk.evStart[count] = evidence.length;
  chunk.evData = Int32Array.from(evidence);
  return chunk;
}

/**
 * `chunks` chunks of 1–40 lines over the slice's cases: most of predictions only (some on run keys
 * seen before, with repeated (case, run)s within and across chunks; some on new keys, every line
 * kept), a few mixed with rejected and orphan lines; format-invalid predictions with and without a
 * message of their own; integer, padded and text run keys, new ones appearing mid-chunk.
 */
function generatedChunks(s: DocumentSlice, seed: number, chunks: number): ChunkResult[] {
  const rand = lcg(seed);
  const cases = s.cases.length;
  const keys = ["0", "1", "2"];
  const out: ChunkResult[] = [];
  let lineNo = 1;
  for (let c = 0; c < chunks; c++) {
    const mode = rand(4);
    const count = 1 + rand(40);
    const lines: Line[] = [];
    const fresh = [`${keys.length}`, `r${c}`, "007", `${1_000_000_000 + c}`][rand(4)]!;
    if (!keys.includes(fresh)) keys.push(fresh);
    for (let i = 0; i < count; i++) {
      if (mode === 3 && rand(4) === 0) {
        lines.push(
          rand(2) === 0
            ? { kind: LINE_KIND_ORPHAN, orphan: `lost${rand(25)}` }
            : { kind: LINE_KIND_REJECTED, code: rand(LINE_REJECTIONS.length - 1), ...(rand(2) === 0 ? { message: `rejected ${lineNo + i}` } : {}) },
        );
        continue;
      }
      // A chunk on a new key (mode 0): its cases in turn, none repeated while they last.
      const key = mode === 0 && i < cases ? fresh : keys[rand(keys.length)]!;
      const caseIndex = mode === 0 && i < cases ? i : rand(cases);
      const code = rand(4) === 0 ? 1 + rand(CASE_REASONS.length - 1) : 0;
      const reason = CASE_REASONS[code];
      const own = reason !== null && reason !== undefined && (fixedReasonMessage(reason) === undefined || rand(2) === 0);
      const evidence = Array.from({ length: rand(4) }, () => 1 + rand(20));
      lines.push({ kind: LINE_KIND_PREDICTION, caseIndex, key, code, evidence, ...(own ? { message: `invalid ${lineNo + i}` } : {}) });
    }
    out.push(chunkOf(lineNo, lines, rand));
    lineNo += count;
  }
  return out;
}

/** Everything the tally holds that the run's outputs are made from. */
function stateOf(tally: DumpTally, rewards: string): unknown {
  const t = tally.table;
  const entries = Array.from({ length: t.entries }, (_, e) => ({
    line: t.line[e],
    run: t.entryRun[e],
    case: t.entryCase[e],
    judgment: t.judgment[e],
    reason: t.reason[e],
    coverage: t.coverage[e],
    rewardAccuracy: t.rewardAccuracy[e],
    matched: t.matched[e],
    evidence: [...t.evidenceIds.subarray(t.evStart[e]!, t.evStart[e]! + t.evLength[e]!)],
  }));
  return {
    keys: t.keys,
    listed: t.listed,
    cell: [...t.cell.subarray(0, t.keys.length * t.caseCount)],
    entries,
    evidence: [...t.evidenceIds.subarray(0, t.evidenceLength)],
    lines: tally.lines,
    runFirstLines: tally.runFirstLines,
    // Key order included: the counts are an object.
    lineRejections: JSON.stringify(tally.lineRejections),
    // By reason: the run's examples are regrouped by reason, each reason's in line order.
    examples: [...tally.examples].sort(([a], [b]) => (a < b ? -1 : 1)),
    orphans: tally.orphans,
    orphanFirstLines: tally.orphanFirstLines,
    rewards,
  };
}

/**
 * Feeds the chunks to a tally, at once where it can (`addChunk`) or all line by line (`addLines`),
 * its table given room for `reserve` entries first.
 */
function tallied(s: DocumentSlice, opts: DocumentEvalOptions, rewards: boolean, chunks: readonly ChunkResult[], lineByLine: boolean, reserve = 0) {
  const tally = new DumpTally(s, opts, rewards);
  tally.table.reserveEntries(reserve);
  let atOnce = 0;
  const putChunk = tally.table.putChunk.bind(tally.table);
  tally.table.putChunk = (...args) => {
    atOnce++;
    putChunk(...args);
  };
  let text = "";
  for (const chunk of chunks) {
    if (lineByLine) tally.addLines(chunk);
    else tally.addChunk(chunk);
    text += tally.rewardsText;
    tally.rewardsText = "";
  }
  return { state: stateOf(tally, text), atOnce, tally };
}

describe("DumpTally: a chunk of predictions at once, as line by line", () => {
  const variants: Array<[string, Partial<DocumentEvalOptions>, boolean]> = [
    ["every case", {}, false],
    ["every case, --rewards", {}, true],
    ["shard 1 of 3, --rewards", { shard: { index: 1, count: 3 } }, true],
    ["shard 0 of 2", { shard: { index: 0, count: 2 } }, false],
    ["--limit 7", { limit: 7 }, false],
  ];
  for (const [name, extra, rewards] of variants) {
    it(`leaves the same table, counts, examples and --rewards lines: ${name}`, async () => {
      const s = await generatedSlice(tmp.dir, 12, 5);
      for (const seed of [1, 2, 3, 4]) {
        const chunks = generatedChunks(s, seed, 60);
        const atOnce = tallied(s, options(extra), rewards, chunks, false);
        const byLine = tallied(s, options(extra), rewards, chunks, true);
        expect(atOnce.atOnce).toBeGreaterThan(30);
        expect(byLine.atOnce).toBe(0);
        expect(atOnce.state).toEqual(byLine.state);
        // The comparison has something to compare: kept lines, repeats, runs, examples.
        expect(atOnce.tally.table.entries).toBeGreaterThan(20);
        expect(atOnce.tally.lineRejections.duplicate_prediction).toBeGreaterThan(20);
        expect(atOnce.tally.table.keys.length).toBeGreaterThan(10);
      }
    });
  }

  it("fills a table given room first as one that grew, making its columns once", async () => {
    const s = await generatedSlice(tmp.dir, 12, 5);
    const chunks = generatedChunks(s, 6, 60);
    const grown = tallied(s, options(), true, chunks, false);
    const lines = chunks.reduce((sum, c) => sum + c.count, 0);
    const roomy = tallied(s, options(), true, chunks, false, lines);
    expect(roomy.state).toEqual(grown.state);
    // The room covers every kept line: the columns made by reserveEntries are the ones filled.
    expect(roomy.tally.table.line.length).toBe(lines);
    expect(grown.tally.table.line.length).toBeGreaterThan(grown.tally.table.entries);
    const small = tallied(s, options(), true, chunks, false, 5);
    expect(small.state).toEqual(grown.state);
  });

  it("keeps a repeated (case, run)'s first line and lists runs by their first kept line", async () => {
    const s = await generatedSlice(tmp.dir, 3, 9);
    const rand = lcg(1);
    const p = (caseIndex: number, key: string): Line => ({ kind: LINE_KIND_PREDICTION, caseIndex, key, evidence: [caseIndex + 1] });
    const tally = new DumpTally(s, options(), false);
    tally.addChunk(chunkOf(1, [p(0, "5"), p(1, "5"), p(0, "x"), p(0, "5")], rand));
    tally.addChunk(chunkOf(5, [p(1, "x"), p(1, "5"), p(2, "2"), p(2, "2")], rand));
    const t = tally.table;
    expect(t.keys).toEqual(["5", "x", "2"]);
    expect(tally.runFirstLines).toEqual([1, 3, 7]);
    expect([t.lineOf(0, 0), t.lineOf(0, 1), t.lineOf(1, 0), t.lineOf(1, 1), t.lineOf(2, 2), t.lineOf(2, 0)]).toEqual([1, 2, 3, 5, 7, 0]);
    expect(t.evidenceOf(1, 1)).toEqual([2]);
    expect(tally.lineRejections).toEqual({ duplicate_prediction: 3 });
    expect(tally.examples.get("duplicate_prediction")!.map((x) => [x.where, x.message])).toEqual([
      ["dump.jsonl:4", `duplicate prediction for case ${JSON.stringify(s.cases[0]!.id)} in run "5" (first at line 1; kept)`],
      ["dump.jsonl:6", `duplicate prediction for case ${JSON.stringify(s.cases[1]!.id)} in run "5" (first at line 2; kept)`],
      ["dump.jsonl:8", `duplicate prediction for case ${JSON.stringify(s.cases[2]!.id)} in run "2" (first at line 7; kept)`],
    ]);
  });
});
