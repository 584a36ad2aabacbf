// Scores a block's lines in WebAssembly (wasm/block-scan.ts's scoreRows), in the module that read
// them into rows (io/block-scan.ts), so that the block, its rows and numbers are already in its
// memory: a line whose row says all that scoring needs (its case ready, a true/false judgment or a
// raw completion in the layout, integer evidence, its references summed) is scored there as
// score-bytes.ts scores it, into columns laid out as the chunk's result's, which score.ts copies
// whole. Every other line keeps its row for score-bytes.ts. The slice's case facts (ids, sentence
// counts, gold) are laid out once per slice in memory kept from block scanning (reserveScanMemory).
// test/document-eval/score-bytes.property.test.ts holds these lines to the string path.
import type { DocumentContradictionErrorCode } from "../../core/document/index.js";
import { isCheckedGold } from "../../core/document/rewards.js";
import type { CompletionEndRule } from "../../core/document/completion-end.js";
import { blockScanInstance, reserveScanMemory, type BlockRows } from "../../io/block-scan.js";
import { scanLinesAhead } from "../../io/dump-bytes.js";
import type { ScoringSlice } from "../../io/compiled-slice.js";
import type { WasmMemory } from "../../core/wasm.js";
import { answerEndIsFinalFor, type CaseFacts, factsFor } from "./score-bytes.js";

interface RowScoreExports {
  memory: WasmMemory;
  useCaseFacts(idBytes: number, idStarts: number, caseOf: number, entries: number, table: number, tableSize: number, cases: number, gold: number): void;
  scoreRows(
    rows: number,
    lineCount: number,
    answerFinal: number,
    kinds: number,
    codes: number,
    caseIndexes: number,
    judgments: number,
    coverages: number,
    rewards: number,
    matches: number,
    idStarts: number,
    runs: number,
    ids: number,
    idRoom: number,
  ): number;
}

/**
 * The codes scoreRows writes for a scored line's reason: their CASE_REASONS indices (score.ts,
 * which imports this file; a test holds the two together).
 */
export const ROW_REASON_CODES = {
  evidence_out_of_document: 7,
  positive_without_evidence: 8,
  negative_with_evidence: 9,
  reasoning_reference_out_of_document: 11,
} as const satisfies Partial<Record<DocumentContradictionErrorCode, number>>;

/**
 * A block's lines as scoreRows left them, valid until the next block: per line the columns of a
 * chunk's result (score.ts's ChunkResult), a line left to JavaScript holding what a fresh chunk's
 * columns hold (its caseIndex -1).
 */
export interface RowScores {
  /** LINE_KIND_PREDICTION for a scored line. */
  kind: Uint8Array;
  /** A CASE_REASONS index. */
  code: Uint8Array;
  caseIndex: Int32Array;
  judgment: Uint8Array;
  coverage: Float64Array;
  rewardAccuracy: Float64Array;
  matched: Int32Array;
  /** Line i's evidence IDs are ids[evStart[i] .. evStart[i + 1]) (count + 1 entries). */
  evStart: Int32Array;
  /**
   * A scored line's run: an integer run's value below 2^31, 0 for an absent run (its key is the
   * integer 0's, "0"), else -1 (a string run, or a larger integer: its row says which).
   */
  run: Int32Array;
  /** The scored lines' evidence IDs, one line's after another's, in line order. */
  ids: Int32Array;
  /** The block's rows (a string run's place is in its row). */
  rows: BlockRows;
  /** How many lines were scored there. */
  scored: number;
}

/** The slice whose facts are in the module's memory (undefined: none, or they did not fit). */
let laidSlice: ScoringSlice | undefined;
let laid = false;

/** The cases' facts, laid out in the module's memory where block scanning never writes; false when they do not fit. */
function layCaseFacts(slice: ScoringSlice): boolean {
  const facts = factsFor(slice);
  const { bytes, starts, caseOf } = facts.ids;
  const entries = caseOf.length;
  const caseCount = slice.cases.length;
  // Room for every case's gold as read (a checked gold is never longer).
  const goldTotal = goldCount(slice.cases);
  let tableSize = 16;
  while (tableSize < 2 * entries) tableSize *= 2;
  const align16 = (n: number): number => (n + 15) & ~15;
  const idBytesOff = 0;
  const startsOff = align16(idBytesOff + starts[entries]!);
  const caseOfOff = align16(startsOff + 4 * (entries + 1));
  const tableOff = align16(caseOfOff + 4 * entries);
  const casesOff = align16(tableOff + 4 * tableSize);
  const goldOff = align16(casesOff + 16 * caseCount);
  const at = reserveScanMemory(goldOff + 4 * goldTotal);
  if (at === undefined) return false;
  const wasm = blockScanInstance() as unknown as RowScoreExports;
  const buffer = wasm.memory.buffer;
  new Uint8Array(buffer, at + idBytesOff, starts[entries]!).set(bytes.subarray(0, starts[entries]!));
  new Int32Array(buffer, at + startsOff, entries + 1).set(starts);
  new Int32Array(buffer, at + caseOfOff, entries).set(caseOf);
  const cases = new Int32Array(buffer, at + casesOff, 4 * caseCount);
  const gold = new Int32Array(buffer, at + goldOff, goldTotal);
  layFacts(slice, facts, cases, gold);
  wasm.useCaseFacts(at + idBytesOff, at + startsOff, at + caseOfOff, entries, at + tableOff, tableSize, at + casesOff, at + goldOff);
  return true;
}

/** How many gold IDs the cases have. */
function goldCount(cases: ScoringSlice["cases"]): number {
  let total = 0;
  for (let k = 0; k < cases.length; k++) total += cases[k]!.gold.length;
  return total;
}

/**
 * Each case's facts into `cases` (sentence count, gold label, where its gold starts in `gold`, how
 * many) and its gold IDs into `gold`. Every case worked out now (CaseFacts does it on a case's
 * first line): 0 sentences marks one not ready. A case whose gold is already what the check
 * returns is laid out as it is, without CaseFacts' checked copy (checkedGold's arrays and compiles
 * were most of this function's cost). The loop is all the function does (as goldCount's): V8
 * compiles a loop on the fly, and code after it that had not run yet sent it back to the interpreter.
 */
function layFacts(slice: ScoringSlice, facts: CaseFacts, cases: Int32Array, gold: Int32Array): void {
  let goldAt = 0;
  for (let k = 0; k < slice.cases.length; k++) {
    const c = slice.cases[k]!;
    let ids: readonly number[] = c.gold;
    let n = c.sentenceCount;
    let positive = c.label === true;
    if (!isCheckedGold(ids, n, c.label)) {
      const ready = facts.ready(k);
      ids = ready ? facts.gold[k]! : [];
      n = ready ? facts.sentenceCount[k]! : 0;
      positive = ready && facts.positive[k] === 1;
    }
    cases[4 * k] = n;
    cases[4 * k + 1] = positive ? 1 : 0;
    cases[4 * k + 2] = goldAt;
    cases[4 * k + 3] = ids.length;
    for (let g = 0; g < ids.length; g++) gold[goldAt++] = ids[g]!;
  }
}

/** Evidence IDs the outputs have room for beyond these per line (a line whose IDs do not fit is left to JavaScript). */
const IDS_PER_LINE = 8;
const EXTRA_IDS = 1024;

/**
 * Reads the block's lines ahead (io/dump-bytes.ts's scanLinesAhead, as score-bytes.ts then takes
 * them) and scores in WebAssembly those it can: their outputs, or undefined when none was read
 * there. The block must be valid UTF-8.
 */
export function scoreBlockRows(slice: ScoringSlice, completionEnd: CompletionEndRule | undefined, block: Uint8Array, ends: Int32Array): RowScores | undefined {
  if (slice !== laidSlice) {
    laid = layCaseFacts(slice);
    laidSlice = slice;
  }
  const count = ends.length;
  const idRoom = IDS_PER_LINE * count + EXTRA_IDS;
  // The columns after the rows, each 8-byte aligned (the f64 ones first).
  const align8 = (n: number): number => (n + 7) & ~7;
  const coverageAt = 0;
  const rewardAt = coverageAt + 8 * count;
  const caseIndexAt = rewardAt + 8 * count;
  const matchedAt = align8(caseIndexAt + 4 * count);
  const evStartAt = align8(matchedAt + 4 * count);
  const runAt = align8(evStartAt + 4 * (count + 1));
  const idsAt = align8(runAt + 4 * count);
  const kindAt = align8(idsAt + 4 * idRoom);
  const codeAt = align8(kindAt + count);
  const judgmentAt = align8(codeAt + count);
  const tail = laid ? judgmentAt + count : 0;
  const rows = scanLinesAhead(block, ends, tail);
  if (rows === undefined || !laid) return undefined;
  const wasm = blockScanInstance() as unknown as RowScoreExports;
  const at = rows.tailAt;
  const scored = wasm.scoreRows(
    rows.rowsAt,
    count,
    answerEndIsFinalFor(completionEnd) ? 1 : 0,
    at + kindAt,
    at + codeAt,
    at + caseIndexAt,
    at + judgmentAt,
    at + coverageAt,
    at + rewardAt,
    at + matchedAt,
    at + evStartAt,
    at + runAt,
    at + idsAt,
    idRoom,
  );
  const buffer = wasm.memory.buffer;
  return {
    kind: new Uint8Array(buffer, at + kindAt, count),
    code: new Uint8Array(buffer, at + codeAt, count),
    caseIndex: new Int32Array(buffer, at + caseIndexAt, count),
    judgment: new Uint8Array(buffer, at + judgmentAt, count),
    coverage: new Float64Array(buffer, at + coverageAt, count),
    rewardAccuracy: new Float64Array(buffer, at + rewardAt, count),
    matched: new Int32Array(buffer, at + matchedAt, count),
    evStart: new Int32Array(buffer, at + evStartAt, count + 1),
    run: new Int32Array(buffer, at + runAt, count),
    ids: new Int32Array(buffer, at + idsAt, idRoom),
    rows,
    scored,
  };
}
