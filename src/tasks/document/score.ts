// Scores a block of dump lines against the slice (docs/core-document.md, docs/comparable-reports.md). Runs in-process or in a
// pool worker (it is the pool's task module: `init` + `processChunk`); results are columnar typed
// arrays so that a million lines cross the worker boundary cheaply. The lines the block's
// WebAssembly pass read and scored (row-scores.ts) have their outputs copied into the columns whole
// (only their run keys are looked up line by line); any other line takes the byte path
// (score-bytes.ts: read and scored on the block's bytes) when it is in the shapes judges write,
// else the string path (decoded alone, parsed, `scoreCase`); all three write the same columns.
import { DOCUMENT_CONTRADICTION_ERROR_MESSAGES, DocumentContradictionError, pythonTruthy } from "../../core/document/index.js";
import { accuracyReward, checkedGold, sortedOverlap } from "../../core/document/rewards.js";
import { checkDocumentContradiction, type CheckedJudgment } from "../../core/document/validation.js";
import type { CompletionEndRule } from "../../core/document/completion-end.js";
import { LineEnds } from "../../io/line-ends.js";
import { lineText, type Line } from "../../io/lines.js";
import { isUtf8 } from "node:buffer";
import {
  dumpCaseId,
  dumpRunKey,
  extractPrediction,
  isBatchOutputLine,
  LINE_REJECTIONS,
  parseDumpLine,
  runKeyProblem,
  type DumpLineRejection,
} from "../../io/dump.js";
import { scanDumpLine } from "../../io/dump-scan.js";
import type { JsonObject } from "../../io/records.js";
import { RUN_ABSENT, RUN_INTEGER } from "../../io/dump-bytes.js";
import { byteOutcome, scoreLineBytes } from "./score-bytes.js";
import { scoreBlockRows, type RowScores } from "./row-scores.js";
import { ROW_FIELDS, ROW_RUN_END, ROW_RUN_KIND, ROW_RUN_START, ROW_RUN_VALUE, type BlockRows } from "../../io/block-scan.js";
import { batchOutputRecord } from "../../judges/batch-results.js";
import { JUDGE_ERROR_CODES, type JudgeErrorCode } from "../../judges/types.js";
import type { DocumentSlice, SliceCase } from "../../io/slice.js";
import { compileSlice, openCompiledSlice, type CompiledSlice } from "../../io/compiled-slice.js";

/** Per-case reasons (index 0 = format-valid), in docs/comparable-reports.md order. */
export const CASE_REASONS = [
  null,
  "missing_prediction",
  "bad_prediction_shape",
  "bad_completion_format",
  "bad_judgment",
  "bad_evidence_field",
  "non_integer_evidence",
  "evidence_out_of_document",
  "positive_without_evidence",
  "negative_with_evidence",
  "bad_reasoning",
  "reasoning_reference_out_of_document",
  // A judge's own failure codes (src/judges/types.ts), kept when its dump line says why it failed.
  ...JUDGE_ERROR_CODES,
] as const;
export type CaseReason = Exclude<(typeof CASE_REASONS)[number], null>;
const REASON_INDEX = new Map<string, number>(CASE_REASONS.map((r, i) => [r ?? "", i]));

/**
 * The judge's own failure, when a dump line written by a mari judge carries one (`judgment: null`
 * plus `error: {code, message}` with a known code); undefined for any other line.
 */
function judgeErrorOf(line: Record<string, unknown>): { code: JudgeErrorCode; message: string } | undefined {
  // The structured shape carries the failure on the line, the cache shape (and a batch output
  // line, converted to it) inside `prediction`.
  const nested = line["prediction"];
  const record = nested !== null && typeof nested === "object" && !Array.isArray(nested) ? (nested as Record<string, unknown>) : line;
  const error = record["error"];
  // A judge writes `judgment: null`, which the null rule (io/records.ts) has made absent.
  if ((record["judgment"] !== undefined && record["judgment"] !== null) || error === null || typeof error !== "object" || Array.isArray(error))
    return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== "string" || !(JUDGE_ERROR_CODES as readonly string[]).includes(code)) return undefined;
  return { code: code as JudgeErrorCode, message: typeof message === "string" ? message : code };
}

export function reasonIndex(reason: CaseReason | null): number {
  return reason === null ? 0 : REASON_INDEX.get(reason)!;
}

export const LINE_KIND_REJECTED = 0;
export const LINE_KIND_ORPHAN = 1;
export const LINE_KIND_PREDICTION = 2;

/**
 * Heap cap of document-eval pool workers (MB): their live data is the slice plus a few chunks in
 * flight; without a cap V8 lets garbage pile up to several hundred MB per worker.
 */
export const WORKER_HEAP_MB = 192;

/**
 * Examples kept per reason by each part of the work (a chunk's line-level rejections, a range's
 * missing predictions): the report's are the first of them in line order, since the main thread
 * takes every one it is sent.
 */
export const EXAMPLES_PER_REASON = 5;

/**
 * The message a format-invalid prediction of `reason` gives when it is the validator's own (the
 * same for every line of that reason; undefined for a reason whose message quotes the line).
 */
export function fixedReasonMessage(reason: CaseReason): string | undefined {
  return (DOCUMENT_CONTRADICTION_ERROR_MESSAGES as Readonly<Record<string, string>>)[reason];
}

export interface ScoreOptions {
  lenientIds: boolean;
  /** What is removed from a raw completion's end before the layout check (default: the end markers). */
  completionEnd?: CompletionEndRule;
}

export interface ScoreState {
  slice: DocumentSlice;
  options: ScoreOptions;
}

/** One prediction as scored: what the tables, cases.jsonl and --rewards need. */
export interface ScoredPrediction {
  judgment: boolean;
  reason: CaseReason | null;
  message: string | null;
  evidence: number[];
  referenceCoverage: number;
  rewardAccuracy: number;
  matched: number;
}

export interface ChunkResult {
  firstLineNo: number;
  count: number;
  kind: Uint8Array;
  /** Rejected: index into LINE_REJECTIONS. Prediction: index into CASE_REASONS. */
  code: Uint8Array;
  caseIndex: Int32Array;
  /** Run key of line i: runKeys[runKey[i]] (each distinct key once per chunk: cheaper to send and look up). */
  runKey: Int32Array;
  runKeys: string[];
  judgment: Uint8Array;
  coverage: Float64Array;
  rewardAccuracy: Float64Array;
  matched: Int32Array;
  /** Evidence of line i is evData[evStart[i] .. evStart[i + 1]). */
  evStart: Int32Array;
  evData: Int32Array;
  /**
   * Sparse: chunk-relative line index → message: a line-level rejection's (the first
   * EXAMPLES_PER_REASON of each code), a format-invalid prediction's unless fixedReasonMessage gives it.
   */
  messages: Array<[number, string]>;
  /** Sparse: chunk-relative line index → orphan case id. */
  orphans: Array<[number, string]>;
}

export interface ScoreInit {
  /** The slice as the main thread read it, compiled into shared memory (every worker maps the same bytes). */
  compiled: CompiledSlice;
  options: ScoreOptions;
}

/** What a pool worker is started with: the slice already read, split and aligned, not its path. */
export function scoreInit(slice: DocumentSlice, options: ScoreOptions): ScoreInit {
  return { compiled: compileSlice(slice), options };
}

/**
 * Pool entry. Workers decode the main thread's compiled slice: reading the slice again cost each
 * worker as much as the main thread (sentence splitting and gold alignment), and a structured
 * clone of every case per worker slowed its start-up more than the scoring it then did.
 */
export function init(data: ScoreInit): ScoreState {
  return { slice: openCompiledSlice(data.compiled), options: data.options };
}

/** Scores a prediction whose shape was already extracted; any failure scores negative, format-invalid. */
export function scoreCase(c: SliceCase, record: Record<string, unknown> | null, options: ScoreOptions): ScoredPrediction {
  const n = c.sentenceCount;
  // A case the slice reader let through always has sentences and a consistent gold; a broken one
  // throws, as validating a prediction against it would.
  if (!(n >= 1)) throw new DocumentContradictionError("sentence_count_not_positive");
  const expectedPositive = pythonTruthy(c.label);
  const gold = checkedGold(c.gold, n, expectedPositive);
  if (typeof gold === "string") throw new DocumentContradictionError(gold);
  let reason: CaseReason | null = null;
  let message: string | null = null;
  let checked: CheckedJudgment | undefined;
  if (record === null) {
    reason = "missing_prediction";
    message = "no prediction for this case in this run";
  } else {
    const extracted = extractPrediction(record, c.sentences, options.lenientIds, options.completionEnd);
    const judgeError = extracted.ok ? undefined : judgeErrorOf(record);
    if (judgeError !== undefined) {
      reason = judgeError.code;
      message = `the judge failed: ${judgeError.message}`;
    } else if (!extracted.ok) {
      reason = extracted.reason;
      message = extracted.message;
    } else {
      const p = extracted.prediction;
      const reasoningIsText = typeof p.reasoning === "string";
      const outcome = checkDocumentContradiction(n, p.judgment, p.evidence, reasoningIsText ? p.reasoning : "");
      if (typeof outcome === "string") {
        reason = outcome as CaseReason;
        message = DOCUMENT_CONTRADICTION_ERROR_MESSAGES[outcome];
      } else if (!reasoningIsText) {
        reason = "bad_reasoning";
        message = "reasoning is not a string";
      } else checked = outcome;
    }
  }
  // A format-invalid prediction scores as a negative judgment without evidence or references.
  const judgment = checked?.judgment ?? false;
  const evidence = checked?.evidenceSentenceIds ?? [];
  const matched = sortedOverlap(evidence, gold);
  return {
    judgment,
    reason,
    message,
    evidence,
    referenceCoverage: checked === undefined ? 0 : checked.referenceCount / n,
    rewardAccuracy: accuracyReward(expectedPositive, judgment === expectedPositive, matched, gold.length),
    matched,
  };
}

/** A chunk's typed-array columns (ChunkResult's), `count` lines long (evStart one more). */
type ChunkColumnArrays = Pick<ChunkResult, "kind" | "code" | "caseIndex" | "runKey" | "judgment" | "coverage" | "rewardAccuracy" | "matched" | "evStart">;

/**
 * Columns of chunks the main thread has put in its run table (`reuseChunkColumns`), whole, for
 * the next chunks scored on this thread: each chunk's columns were new memory, faulted in a page at
 * a time (1,592 faults of the GRPO bench's `--report json` eval, `perf record -e page-faults`), and
 * their buffers, external to V8's heap, set off collections of it.
 */
const spareColumns: ChunkColumnArrays[] = [];
/** At most this many sets are kept (a pool has a few chunks in flight). */
const MOST_SPARE_COLUMNS = 4;

/** Columns for a chunk of `count` lines: views of a spare set long enough, else new arrays. Not cleared. */
function chunkColumns(count: number): ChunkColumnArrays {
  const k = spareColumns.findIndex((set) => set.kind.length >= count);
  if (k < 0) {
    return {
      kind: new Uint8Array(count),
      code: new Uint8Array(count),
      caseIndex: new Int32Array(count),
      runKey: new Int32Array(count),
      judgment: new Uint8Array(count),
      coverage: new Float64Array(count),
      rewardAccuracy: new Float64Array(count),
      matched: new Int32Array(count),
      evStart: new Int32Array(count + 1),
    };
  }
  const set = spareColumns.splice(k, 1)[0]!;
  return {
    kind: set.kind.subarray(0, count),
    code: set.code.subarray(0, count),
    caseIndex: set.caseIndex.subarray(0, count),
    runKey: set.runKey.subarray(0, count),
    judgment: set.judgment.subarray(0, count),
    coverage: set.coverage.subarray(0, count),
    rewardAccuracy: set.rewardAccuracy.subarray(0, count),
    matched: set.matched.subarray(0, count),
    evStart: set.evStart.subarray(0, count + 1),
  };
}

/**
 * Gives a chunk's columns back for the next chunks scored on this thread, once nothing reads them
 * again (the run table has copied what it keeps). Its other fields are left alone.
 */
export function reuseChunkColumns(chunk: ChunkResult): void {
  if (spareColumns.length >= MOST_SPARE_COLUMNS) return;
  // Each column whole again: a view of its own buffer from the start (chunkColumns gives views of a part).
  spareColumns.push({
    kind: new Uint8Array(chunk.kind.buffer),
    code: new Uint8Array(chunk.code.buffer),
    caseIndex: new Int32Array(chunk.caseIndex.buffer),
    runKey: new Int32Array(chunk.runKey.buffer),
    judgment: new Uint8Array(chunk.judgment.buffer),
    coverage: new Float64Array(chunk.coverage.buffer),
    rewardAccuracy: new Float64Array(chunk.rewardAccuracy.buffer),
    matched: new Int32Array(chunk.matched.buffer),
    evStart: new Int32Array(chunk.evStart.buffer),
  });
}

// The chunk's run keys, messages and orphans as they are met, copied into its result at the end:
// lists made afresh for each chunk began as lists of small integers, and the scoring loop, compiled
// for the first chunk's, was compiled again when a later chunk's held strings.
const chunkRunKeys: string[] = [];
const chunkMessages: Array<[number, string]> = [];
const chunkOrphans: Array<[number, string]> = [];

/**
 * A chunk's columns: copied whole from the lines scored in WebAssembly, when the block's were, then
 * filled line by line for the others (by the byte path or the string path alike).
 */
class ChunkColumns {
  readonly r: ChunkResult;
  private evidence = new Int32Array(1024);
  private evidenceCount = 0;
  /** The lines scored in WebAssembly (the other lines' outputs there are a fresh chunk's). */
  private readonly scored: RowScores | undefined;
  /** Lines before this have their evidence in `evidence` (the scored lines' IDs are taken up to each other line). */
  private taken = 0;
  private readonly runKeyIndex = new Map<string, number>();
  /** Chunk run-key index of the integer runs below INTEGER_RUNS_CACHED (-1: not seen yet). */
  readonly integerRuns = new Int32Array(INTEGER_RUNS_CACHED).fill(-1);
  private readonly examplesPerCode = new Map<string, number>();

  constructor(firstLineNo: number, count: number, scored?: RowScores) {
    chunkRunKeys.length = 0;
    chunkMessages.length = 0;
    chunkOrphans.length = 0;
    this.scored = scored;
    const c = chunkColumns(count);
    if (scored === undefined) {
      c.kind.fill(0);
      c.code.fill(0);
      c.caseIndex.fill(-1);
      c.judgment.fill(0);
      c.coverage.fill(0);
      c.rewardAccuracy.fill(0);
      c.matched.fill(0);
      c.evStart.fill(0);
    } else {
      c.kind.set(scored.kind);
      c.code.set(scored.code);
      c.caseIndex.set(scored.caseIndex);
      c.judgment.set(scored.judgment);
      c.coverage.set(scored.coverage);
      c.rewardAccuracy.set(scored.rewardAccuracy);
      c.matched.set(scored.matched);
      // A scored line's start among the scored lines' IDs, moved up by the other lines' IDs before it (takeScored).
      c.evStart.set(scored.evStart);
    }
    // Filled line by line: a run key's index is its order of first appearance in the chunk.
    c.runKey.fill(0);
    this.r = {
      firstLineNo,
      count,
      kind: c.kind,
      code: c.code,
      caseIndex: c.caseIndex,
      runKey: c.runKey,
      runKeys: [],
      judgment: c.judgment,
      coverage: c.coverage,
      rewardAccuracy: c.rewardAccuracy,
      matched: c.matched,
      evStart: c.evStart,
      evData: new Int32Array(0),
      messages: [],
      orphans: [],
    };
  }

  /** Line i, one not scored in WebAssembly, starts: its evidence (if any) follows the previous lines'. */
  startLine(i: number): void {
    this.takeScored(i);
    this.taken = i + 1;
    this.r.evStart[i] = this.evidenceCount;
  }

  /** The evidence of the scored lines from `taken` to line `to` (excluded), after that of the lines before them. */
  private takeScored(to: number): void {
    const scored = this.scored;
    const from = this.taken;
    if (scored === undefined || from >= to) return;
    const first = scored.evStart[from]!;
    const shift = this.evidenceCount - first;
    if (shift !== 0) for (let k = from; k < to; k++) this.r.evStart[k]! += shift;
    this.pushEvidenceList(scored.ids, first, scored.evStart[to]! - first);
  }

  reject(i: number, code: DumpLineRejection, message: string): void {
    this.r.kind[i] = LINE_KIND_REJECTED;
    this.r.code[i] = LINE_REJECTIONS.indexOf(code);
    const seen = this.examplesPerCode.get(code) ?? 0;
    if (seen >= EXAMPLES_PER_REASON) return;
    this.examplesPerCode.set(code, seen + 1);
    chunkMessages.push([i, message]);
  }

  /**
   * The message of prediction i, format-invalid for `reason`. Not capped per chunk: the main thread
   * drops some predictions (a repeated (case, run), a case of another shard), so the first lines of
   * a reason in a chunk need not be the ones the report's examples take, whatever the chunk size.
   * Only a message the main thread cannot tell from the reason is sent (fixedReasonMessage).
   */
  noteReason(i: number, reason: CaseReason, message: string): void {
    if (message !== fixedReasonMessage(reason)) chunkMessages.push([i, message]);
  }

  orphan(i: number, caseId: string): void {
    this.r.kind[i] = LINE_KIND_ORPHAN;
    chunkOrphans.push([i, caseId]);
  }

  runKeyOf(key: string): number {
    let k = this.runKeyIndex.get(key);
    if (k === undefined) {
      k = chunkRunKeys.length;
      this.runKeyIndex.set(key, k);
      chunkRunKeys.push(key);
    }
    return k;
  }

  /** The chunk's index of the run key of an integer run (its decimal text, as `dumpRunKey` gives it). */
  integerRunKeyOf(value: number): number {
    if (value >= INTEGER_RUNS_CACHED) return this.runKeyOf(String(value));
    let k = this.integerRuns[value]!;
    if (k < 0) this.integerRuns[value] = k = this.runKeyOf(String(value));
    return k;
  }

  prediction(i: number, caseIndex: number, runKey: number, reason: number, judgment: boolean, coverage: number, rewardAccuracy: number, matched: number): void {
    const r = this.r;
    r.kind[i] = LINE_KIND_PREDICTION;
    r.caseIndex[i] = caseIndex;
    r.runKey[i] = runKey;
    r.code[i] = reason;
    r.judgment[i] = judgment ? 1 : 0;
    r.coverage[i] = coverage;
    r.rewardAccuracy[i] = rewardAccuracy;
    r.matched[i] = matched;
  }

  /** ids[from .. from + count), the evidence of the lines they are. */
  private pushEvidenceList(ids: Int32Array, from: number, count: number): void {
    while (this.evidenceCount + count > this.evidence.length) {
      const grown = new Int32Array(2 * this.evidence.length);
      grown.set(this.evidence);
      this.evidence = grown;
    }
    this.evidence.set(ids.subarray(from, from + count), this.evidenceCount);
    this.evidenceCount += count;
  }

  pushEvidence(id: number): void {
    if (this.evidenceCount === this.evidence.length) {
      const grown = new Int32Array(2 * this.evidence.length);
      grown.set(this.evidence);
      this.evidence = grown;
    }
    this.evidence[this.evidenceCount++] = id;
  }

  finish(): ChunkResult {
    this.takeScored(this.r.count);
    this.r.runKeys = chunkRunKeys.slice();
    this.r.messages = chunkMessages.slice();
    this.r.orphans = chunkOrphans.slice();
    this.r.evStart[this.r.count] = this.evidenceCount;
    // A copy of its own: the result's buffers move to the main thread whole.
    this.r.evData = this.evidence.slice(0, this.evidenceCount);
    return this.r;
  }
}

/** Integer runs below this are looked up in an array per chunk, not by their text. */
const INTEGER_RUNS_CACHED = 256;

/** The string path: line i's text (null: not UTF-8) parsed as a whole (or its record as already read), then scored by `scoreCase`. */
function scoreLineText(state: ScoreState, i: number, text: string | null, out: ChunkColumns, read?: JsonObject): void {
  // The string scanner reads the shapes judges write; any other line takes the full parser.
  let record = read ?? scanDumpLine(text);
  if (record === undefined) {
    const parsed = parseDumpLine(text);
    if ("error" in parsed) {
      out.reject(i, parsed.error.code, parsed.error.message);
      return;
    }
    record = parsed.record;
  }
  if (isBatchOutputLine(record)) {
    const converted = batchOutputRecord(record);
    if ("orphan" in converted) {
      out.orphan(i, converted.orphan);
      return;
    }
    record = converted.record;
  }
  const caseId = dumpCaseId(record);
  if (caseId === undefined) {
    out.reject(i, "bad_case_id", "case_id (or id) is missing or not a string");
    return;
  }
  const caseIndex = state.slice.byId.get(caseId);
  if (caseIndex === undefined) {
    out.orphan(i, caseId);
    return;
  }
  const runKey = dumpRunKey(record);
  if (runKey === undefined) {
    out.reject(i, "bad_run_key", runKeyProblem(record));
    return;
  }
  const scored = scoreCase(state.slice.cases[caseIndex]!, record, state.options);
  out.prediction(
    i,
    caseIndex,
    out.runKeyOf(runKey),
    reasonIndex(scored.reason),
    scored.judgment,
    scored.referenceCoverage,
    scored.rewardAccuracy,
    scored.matched,
  );
  for (const id of scored.evidence) out.pushEvidence(id);
  if (scored.reason !== null) out.noteReason(i, scored.reason, scored.message!);
}

/** The byte path (score-bytes.ts): line i read from `block[start .. end)` into the columns; false to take the string path. */
function scoreLineOfBytes(state: ScoreState, i: number, block: Buffer, start: number, end: number, out: ChunkColumns): boolean {
  if (!scoreLineBytes(state.slice, state.options.completionEnd, block, start, end, i)) return false;
  const o = byteOutcome;
  if (o.caseIndex < 0) {
    out.orphan(i, o.orphanId);
    return true;
  }
  const runKey = o.runKind === RUN_INTEGER ? out.integerRunKeyOf(o.runValue) : out.runKeyOf(o.runKind === RUN_ABSENT ? "0" : o.runKey);
  const reason = o.reason === null ? 0 : reasonIndex(o.reason as CaseReason);
  out.prediction(i, o.caseIndex, runKey, reason, o.judgment, o.coverage, o.rewardAccuracy, o.matched);
  for (let k = 0; k < o.evidenceCount; k++) out.pushEvidence(o.evidence[k]!);
  // The byte path's messages are the validator's own: the main thread gives them (fixedReasonMessage).
  return true;
}

/**
 * The chunk's run-key index of line i, scored in WebAssembly, whose run is not in its run column:
 * a string, or an integer of 2^31 or more.
 */
function runKeyOfRow(rows: BlockRows, i: number, block: Buffer, out: ChunkColumns): number {
  const row = i * ROW_FIELDS;
  const r = rows.rows;
  if (r[row + ROW_RUN_KIND] === RUN_INTEGER) return out.integerRunKeyOf(rows.numbers[r[row + ROW_RUN_VALUE]!]!);
  return out.runKeyOf(block.toString("utf8", r[row + ROW_RUN_START]!, r[row + ROW_RUN_END]!));
}

/** Line i, not scored in WebAssembly, from `block[start .. end)`: by the byte path, else the string path. */
function scoreLineLeft(state: ScoreState, i: number, block: Buffer, start: number, end: number, valid: boolean, firstLineNo: number, out: ChunkColumns): void {
  // The line's text drops one final "\r" (lineText).
  const textEnd = end > start && block[end - 1] === 0x0d ? end - 1 : end;
  if (valid && scoreLineOfBytes(state, i, block, start, textEnd, out)) return;
  const text = valid || isUtf8(block.subarray(start, end)) ? lineText(block.toString("utf8", start, end), firstLineNo + i) : null;
  scoreLineText(state, i, text, out);
}

/** The ends of the lines of a block scored without them (a block a thread was sent, a `--chunk-size` part). */
const blockLineEnds = new LineEnds();

/**
 * Scores a block of whole lines (as `splitBlock` splits them: same line numbers, same texts). Each
 * line of a UTF-8 block tries the byte path first; a line it does not take is decoded alone (never
 * the whole block) and takes the string path.
 */
export function scoreBlock(state: ScoreState, firstLineNo: number, block: Buffer, lineEnds?: Int32Array): ChunkResult {
  // Rejected predictions are expected data, not bugs: capturing a stack trace for each of the
  // validator's errors cost more than scoring the line.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // Found by the reader when it read the block (LineEnds), else here.
    const ends = lineEnds ?? blockLineEnds.of(block);
    const count = ends.length;
    const valid = isUtf8(block);
    // Read ahead, and scored in WebAssembly where it can (row-scores.ts): those lines' columns are
    // copied whole, and only their run keys are looked up here, in line order as the others'.
    const scores = valid ? scoreBlockRows(state.slice, state.options.completionEnd, block, ends) : undefined;
    const out = new ChunkColumns(firstLineNo, count, scores);
    const scoredCase = scores?.caseIndex;
    const runs = scores?.run;
    const runKey = out.r.runKey;
    for (let i = 0; i < count; i++) {
      if (scoredCase !== undefined && (i = knownRunKeys(scoredCase, runs!, out.integerRuns, runKey, i, count)) === count) break;
      if (scoredCase !== undefined && scoredCase[i]! >= 0) {
        const run = runs![i]!;
        runKey[i] = run >= 0 ? out.integerRunKeyOf(run) : runKeyOfRow(scores!.rows, i, block, out);
        continue;
      }
      out.startLine(i);
      scoreLineLeft(state, i, block, i === 0 ? 0 : ends[i - 1]! + 1, ends[i]!, valid, firstLineNo, out);
    }
    return out.finish();
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/**
 * The run keys of lines from … of a block whose lines scored in WebAssembly have integer runs the
 * chunk has met (`known[run]`: as integerRunKeyOf gives them); returns the first line that is not
 * one. The loop is all it does, and the rest of a line's handling is scoreBlock's: V8 compiles the
 * loop on the fly, and code that had not run yet sent that code back to the interpreter.
 */
function knownRunKeys(scoredCase: Int32Array, runs: Int32Array, known: Int32Array, runKey: Int32Array, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const run = runs[i]!;
    if (scoredCase[i]! < 0 || run < 0 || run >= known.length || known[run]! < 0) return i;
    runKey[i] = known[run]!;
  }
  return to;
}

/**
 * Scores lines given as texts, `records[i]` (when given) being line i's record already read (a
 * Parquet row's, score-rows.ts): its text is then not scanned.
 */
export function scoreLines(state: ScoreState, firstLineNo: number, lines: readonly Line[], records?: readonly (JsonObject | undefined)[]): ChunkResult {
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const out = new ChunkColumns(firstLineNo, lines.length);
    for (let i = 0; i < lines.length; i++) {
      out.startLine(i);
      scoreLineText(state, i, lines[i]!.text, out, records?.[i]);
    }
    return out.finish();
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

export interface LineBlock {
  firstLineNo: number;
  block: Uint8Array;
  /** The ends of the block's lines (`LineEnds`), when its reader found them. */
  lineEnds?: Int32Array;
}

/** Pool entry: score one raw block of whole lines. */
export function processChunk(state: ScoreState, chunk: LineBlock): ChunkResult {
  return scoreBlock(state, chunk.firstLineNo, Buffer.from(chunk.block.buffer, chunk.block.byteOffset, chunk.block.byteLength), chunk.lineEnds);
}
