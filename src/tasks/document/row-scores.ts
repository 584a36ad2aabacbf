// Scores a block's lines in WebAssembly (wasm/block-scan.ts's scoreRows), in the module that read
// them into rows (io/block-scan.ts), so that the block, its rows and numbers are already in its
// memory: a line whose row says all that scoring needs (its case ready, a true/false judgment or a
// raw completion in the layout, integer evidence, its references summed) is scored there as
// score-bytes.ts scores it, into per-line outputs score.ts copies into its columns. Every other
// line keeps its row for score-bytes.ts. The slice's case facts (ids, sentence counts, gold) are
// laid out once per slice in memory kept from block scanning (reserveScanMemory).
// test/document-eval/score-bytes.property.test.ts holds these lines to the string path.
import type { DocumentContradictionErrorCode } from "../../core/document/index.js";
import type { CompletionEndRule } from "../../core/document/completion-end.js";
import { blockScanInstance, reserveScanMemory, type BlockRows } from "../../io/block-scan.js";
import { scanLinesAhead } from "../../io/dump-bytes.js";
import type { ScoringSlice } from "../../io/compiled-slice.js";
import type { WasmMemory } from "../../core/wasm.js";
import { answerEndIsFinalFor, factsFor } from "./score-bytes.js";

interface RowScoreExports {
  memory: WasmMemory;
  useCaseFacts(idBytes: number, idStarts: number, caseOf: number, entries: number, table: number, tableSize: number, cases: number, gold: number): void;
  scoreRows(rows: number, lineCount: number, answerFinal: number, scores: number, values: number, ids: number, idRoom: number): number;
}

/** The reasons of a scored line's flags (their low four bits), as scoreRows numbers them. */
export const ROW_REASONS: readonly (DocumentContradictionErrorCode | null)[] = [
  null,
  "evidence_out_of_document",
  "positive_without_evidence",
  "negative_with_evidence",
  "reasoning_reference_out_of_document",
];

/** Per line SCORE_FIELDS i32: the case (-1: not scored there), flags, matched, evidence count. */
export const SCORE_FIELDS = 4;
export const SCORE_CASE = 0;
/** reason (ROW_REASONS) | judgment << 4 | run kind << 5 (the row's: 0 absent, 1 integer, 2 string). */
export const SCORE_FLAGS = 1;
export const SCORE_MATCHED = 2;
export const SCORE_EVIDENCE_COUNT = 3;
/** Per line VALUE_FIELDS f64: coverage, accuracy reward, an integer run's value. */
export const VALUE_FIELDS = 3;
export const VALUE_COVERAGE = 0;
export const VALUE_REWARD = 1;
export const VALUE_RUN = 2;

/** A block's lines as scoreRows left them, valid until the next block. */
export interface RowScores {
  scores: Int32Array;
  values: Float64Array;
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
  // Every case worked out now (CaseFacts does it on a case's first line): 0 sentences marks one not ready.
  let goldTotal = 0;
  for (let k = 0; k < caseCount; k++) if (facts.ready(k)) goldTotal += facts.gold[k]!.length;
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
  let goldAt = 0;
  for (let k = 0; k < caseCount; k++) {
    const ready = facts.ready(k);
    const ids = ready ? facts.gold[k]! : [];
    cases[4 * k] = ready ? facts.sentenceCount[k]! : 0;
    cases[4 * k + 1] = ready ? facts.positive[k]! : 0;
    cases[4 * k + 2] = goldAt;
    cases[4 * k + 3] = ids.length;
    gold.set(ids, goldAt);
    goldAt += ids.length;
  }
  wasm.useCaseFacts(at + idBytesOff, at + startsOff, at + caseOfOff, entries, at + tableOff, tableSize, at + casesOff, at + goldOff);
  return true;
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
  const tail = laid ? 4 * SCORE_FIELDS * count + 8 * VALUE_FIELDS * count + 4 * idRoom : 0;
  const rows = scanLinesAhead(block, ends, tail);
  if (rows === undefined || !laid) return undefined;
  const wasm = blockScanInstance() as unknown as RowScoreExports;
  const scoresAt = rows.tailAt;
  const valuesAt = scoresAt + 4 * SCORE_FIELDS * count;
  const idsAt = valuesAt + 8 * VALUE_FIELDS * count;
  const scored = wasm.scoreRows(rows.rowsAt, count, answerEndIsFinalFor(completionEnd) ? 1 : 0, scoresAt, valuesAt, idsAt, idRoom);
  const buffer = wasm.memory.buffer;
  return {
    scores: new Int32Array(buffer, scoresAt, SCORE_FIELDS * count),
    values: new Float64Array(buffer, valuesAt, VALUE_FIELDS * count),
    ids: new Int32Array(buffer, idsAt, idRoom),
    rows,
    scored,
  };
}
