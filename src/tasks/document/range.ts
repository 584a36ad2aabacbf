// The pool task of the aggregation phase (pool workers, or in-process): a range of cases with all
// their runs becomes cases.jsonl bytes plus partial sums; a block of bootstrap resamples becomes
// their values. Ranges have a fixed size (RANGE_CASES), never tied to the worker count, and their
// partial sums are added in range order, so reports stay byte-identical for any --workers.
import { bootstrapMacroF1Values, outcomeCode } from "../../core/metrics/bootstrap.js";
import { type CaseOutcome, emptyCaseOutcome } from "../../core/metrics/case-outcome.js";
import { countRewards, REWARD_HISTOGRAM_SLOTS } from "../../core/metrics/reward-histograms.js";
import { addBreakdownOutcomeAt, addOutcomeAt, BREAKDOWN_FIELDS, RUN_SUM_FIELDS } from "../../core/metrics/run-sums.js";
import { NO_EXTRA_FIELDS, sliceHashOf, type SliceCase } from "../../io/slice-kept.js";
import { ByteSink, FRAGMENT_SLACK, FractionBytes, fragmentOf, NUMBER_BYTES, putFragment, utf8, writeNumber } from "./line-bytes.js";
import { type RunLineFragments, writeRangeBytes } from "./range-write.js";
import type { SlotColumns } from "./run-table.js";
import { scoreRows, type RowChunk } from "./score-rows.js";
import type { RejectionExample } from "../../report/types.js";
import {
  CASE_REASONS,
  EXAMPLES_PER_REASON,
  processChunk as scoreChunk,
  scoreCase,
  type ChunkResult,
  type LineBlock,
  type ScoredPrediction,
  type ScoreOptions,
  type ScoreState,
} from "./score.js";

export { init } from "./score.js";

/** Cases per aggregation range. */
export const RANGE_CASES = 8;

/** Above this many runs, ranges hold fewer cases, so that a range stays ≤ 8 × 4096 (case, run) lines. */
const RANGE_RUN_LIMIT = 4096;

/**
 * Cases per range for a dump of `runCount` runs: RANGE_CASES up to RANGE_RUN_LIMIT runs (the
 * ranges, and so the float sums, of every eval below that), fewer beyond (at 100,000 runs, one
 * case per range: the range's bytes would otherwise be 8 × 100,000 lines in one buffer). Depends on
 * the data only, never on workers or chunking.
 */
export function rangeCases(runCount: number): number {
  return runCount <= RANGE_RUN_LIMIT ? RANGE_CASES : Math.max(1, Math.floor((RANGE_CASES * RANGE_RUN_LIMIT) / runCount));
}

/**
 * Runs per range: all of them up to RANGE_CASES × RANGE_RUN_LIMIT, blocks of that many above it (a
 * range is then one case × a block of runs, still contiguous in cases.jsonl; at a million runs of
 * one case a single range would otherwise hold the whole file's bytes). Each run's sums still get
 * one addition per case, in case order, so no value depends on the blocks.
 */
export function rangeRuns(runCount: number): number {
  return Math.min(runCount, RANGE_CASES * RANGE_RUN_LIMIT);
}

export { BREAKDOWN_FIELDS, RUN_SUM_FIELDS };
export const BREAKDOWN_DIMENSIONS = ["scope", "doc_type", "contra_type"] as const;

/**
 * Where a range's (case, run) cells are: slot (r, j) (at r · w + j, run r of the block, case j of
 * the range) has its kept line at entry `entry[slot]` of the columns (−1: none); the entry's
 * evidence is evData[evStart[e] … evStart[e] + evLength[e]). A payload sent to a thread carries
 * its own columns; a range run on the thread that holds the run table reads the table's.
 */
export interface RangeCells extends SlotColumns {
  entry: Int32Array;
  evLength: Int32Array;
  evData: Int32Array;
}

/** A range of cases × a block of runs, cut from the (case, run) table, with its cells copied (one entry per slot). */
export interface RangePayload extends RangeCells {
  kind: "range";
  /** Slice indices of the range's cases, in slice order (w of them). */
  caseIndices: Int32Array;
  /** Position of the range's first case among the scored cases, and of its first run. */
  caseFrom: number;
  runFrom: number;
  /** The block's run keys (runs runFrom … runFrom + runKeys.length − 1). */
  runKeys: string[];
  /** Their JSON renderings in UTF-8: run r's at runKeyData[runKeyStart[r] … runKeyStart[r + 1]). */
  runKeyData: Uint8Array;
  runKeyStart: Int32Array;
  /** A buffer already written out, to build this range's bytes in (null: allocate one). */
  spare: Uint8Array | null;
}

/** A range as `aggregateRangeCells` takes it: its cases and runs, where their cells are, and what to write into. */
export interface RangeInput {
  /** The range's w cases, in slice order. */
  cases: readonly SliceCase[];
  caseFrom: number;
  runFrom: number;
  /** Runs in the block. */
  runs: number;
  /** Run r of the block is `runKeys[runKeyBase + r]`, rendered at runKeyData[runKeyStart[runKeyBase + r] … runKeyStart[runKeyBase + r + 1]). */
  runKeys: readonly string[];
  runKeyData: Uint8Array;
  runKeyStart: Int32Array;
  runKeyBase: number;
  cells: RangeCells;
  spare: Uint8Array | null;
  /** The previous range's result, once added into the totals: its arrays are cleared and reused where their sizes fit (null: new ones). */
  reuse: RangeResult | null;
}

export interface BootstrapPayload {
  kind: "bootstrap";
  labels: Uint8Array;
  /** Outcome codes, run-major. */
  codes: Uint8Array;
  runCount: number;
  seed: number;
  from: number;
  to: number;
}

export interface RangeResult {
  kind: "range";
  /** The payload's caseFrom and runFrom. */
  caseFrom: number;
  runFrom: number;
  /** UTF-8 cases.jsonl lines of the range (case order × run order). */
  bytes: Uint8Array;
  /** Per run, RUN_SUM_FIELDS in order. */
  sums: Float64Array;
  /** Breakdown cells (`dimension\0value`) met in the range, and per cell × run the BREAKDOWN_FIELDS. */
  cellKeys: string[];
  cellSums: Float64Array;
  /** Per slot (r · w + j): outcome code, presence, judgment as scored. */
  codes: Uint8Array;
  present: Uint8Array;
  judgment: Uint8Array;
  /** Per CASE_REASONS index. */
  reasonCounts: Float64Array;
  /** Reward histogram counts over the range's (case, run) slots (core/metrics/reward-histograms.ts). */
  histogramCounts: Float64Array;
  missingExamples: RejectionExample[];
}

export interface BootstrapResult {
  kind: "bootstrap";
  values: Float64Array;
}

/** The slice's hash for the report (`sliceHashOf`), computed by a thread that holds the slice while this one aggregates. */
export interface SliceHashPayload {
  kind: "slice-hash";
}

export interface SliceHashResult {
  kind: "slice-hash";
  hash: string;
}

export type AggregatePayload = RangePayload | BootstrapPayload;
export type AggregateResult = RangeResult | BootstrapResult;
/** Everything the document pool runs: dump blocks (scoring), case ranges, bootstrap blocks, the slice hash. */
export type DocumentTaskPayload = LineBlock | RowChunk | AggregatePayload | SliceHashPayload;
export type DocumentTaskResult = ChunkResult | AggregateResult | SliceHashResult;

function dimensionValue(c: SliceCase, dim: (typeof BREAKDOWN_DIMENSIONS)[number]): string | readonly string[] | null {
  return dim === "scope" ? c.scope : dim === "doc_type" ? c.docType : c.contraType;
}

/**
 * The breakdown cells a case falls in: `dimension\0value` for each dimension it has a value for; a
 * case with several contra_types falls in the cell of each.
 */
export function cellKeysOf(c: SliceCase): string[] {
  const keys: string[] = [];
  for (const dim of BREAKDOWN_DIMENSIONS) {
    const value = dimensionValue(c, dim);
    if (value === null) continue;
    for (const v of typeof value === "string" ? [value] : value) keys.push(`${dim}\u0000${v}`);
  }
  return keys;
}

// Fixed parts of a case line, pre-encoded.
const CASE_ID_KEY = utf8(`{"case_id":`);
const CASE_INDEX_KEY = utf8(`,"case_index":`);
const LABEL_GOLD = [false, true].map((label) => utf8(`,"label":${label},"gold_sentence_ids":[`));
const SENTENCE_COUNT_KEY = utf8(`],"sentence_count":`);
const SCOPE_KEY = utf8(`,"scope":`);
const DOC_TYPE_KEY = utf8(`,"doc_type":`);
const CONTRA_TYPE_KEY = utf8(`,"contra_type":`);
const FIELDS_KEY = utf8(`,"fields":`);
const CASE_END = utf8("}\n");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A string as JSON.stringify renders it: printable ASCII without quote or backslash as is, the rest through JSON.stringify. */
function writeJsonString(out: ByteSink, text: string): void {
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) {
      out.text(JSON.stringify(text));
      return;
    }
  }
  out.ascii('"');
  out.ascii(text);
  out.ascii('"');
}

/**
 * The fixed parts of a case line around its own values, for a writer that assembles the line
 * itself (range-pass.ts's module): `{"case_id":"` ID `","case_index":` INDEX, the label and gold
 * opening by label, GOLD `],"sentence_count":` COUNT, then the optional fields (writeCaseLineTail)
 * and the end. The ID goes between the quotes as JSON.stringify writes its content.
 */
export const CASE_LINE_FRAGMENTS = {
  idOpen: Buffer.concat([CASE_ID_KEY, utf8('"')]),
  index: Buffer.concat([utf8('"'), CASE_INDEX_KEY]),
  labelGold: LABEL_GOLD,
  sentenceCount: SENTENCE_COUNT_KEY,
  end: CASE_END,
};

/**
 * Writes the case line of a case in cases.jsonl (docs/reports.md): the case-level fields once,
 * before its run lines; null facets and empty `fields` are left out (the reader restores them).
 * Written as bytes, not built as a string: a line per case was much of an eval's garbage.
 */
export function writeCaseLine(out: ByteSink, c: SliceCase): void {
  out.bytes(CASE_ID_KEY);
  writeJsonString(out, c.id);
  out.bytes(CASE_INDEX_KEY);
  out.number(c.index);
  out.bytes(LABEL_GOLD[c.label ? 1 : 0]!);
  const gold = c.gold;
  for (let k = 0; k < gold.length; k++) {
    if (k > 0) out.ascii(",");
    out.number(gold[k]!);
  }
  out.bytes(SENTENCE_COUNT_KEY);
  out.number(c.sentenceCount);
  writeCaseLineTail(out, c);
  out.bytes(CASE_END);
}

/** Whether a case line has optional fields (writeCaseLineTail writes any). */
export function hasCaseLineTail(c: SliceCase): boolean {
  // Most cases share the reader's one empty `extra` object: no key list made for it.
  return c.scope !== null || c.docType !== null || c.contraType !== null || (c.extra !== NO_EXTRA_FIELDS && Object.keys(c.extra).length > 0);
}

/** The optional fields of a case line, after its sentence count. */
export function writeCaseLineTail(out: ByteSink, c: SliceCase): void {
  if (c.scope !== null) {
    out.bytes(SCOPE_KEY);
    writeJsonString(out, c.scope);
  }
  if (c.docType !== null) {
    out.bytes(DOC_TYPE_KEY);
    writeJsonString(out, c.docType);
  }
  const contra = c.contraType;
  if (contra !== null) {
    out.bytes(CONTRA_TYPE_KEY);
    if (typeof contra === "string") writeJsonString(out, contra);
    else out.text(JSON.stringify(contra));
  }
  if (Object.keys(c.extra).length > 0) {
    out.bytes(FIELDS_KEY);
    out.text(JSON.stringify(c.extra));
  }
}

// Fixed fragments of a run line, pre-encoded. JUDGMENT: by judgment and reason index (no `reason`
// key on a format-valid prediction); the run line of a missing prediction has no `line`.
const RUN_KEY = fragmentOf(utf8(`{"run":`));
const LINE_KEY = fragmentOf(utf8(`,"line":`));
const JUDGMENT = [false, true].map((judgment) =>
  CASE_REASONS.map((reason) => fragmentOf(utf8(`,"judgment":${judgment}${reason === null ? "" : `,"reason":"${reason}"`},"evidence_sentence_ids":[`))),
);
const COMMA = 0x2c;

/** The end of a run line, `],"reference_coverage":X}\n`, for coverages k / n: one FractionBytes per n, shared by the cases of n sentences. */
const coverageTails = new Map<number, FractionBytes>();

/** The run-line ends of coverages k / `sentenceCount`. */
export function coverageTailsOf(sentenceCount: number): FractionBytes {
  let tails = coverageTails.get(sentenceCount);
  if (tails === undefined) coverageTails.set(sentenceCount, (tails = new FractionBytes(sentenceCount, `],"reference_coverage":`, "}\n")));
  return tails;
}

/** The run-line end of any coverage (no denominator known: each is rendered as it comes). */
const ANY_COVERAGE_TAIL = new FractionBytes(0, `],"reference_coverage":`, "}\n");

/**
 * One run line: `{"run":KEY` (KEY: keyData[keyFrom .. keyTo), the key's JSON), `"line"` when the
 * (case, run) has a kept line (line > 0), the judgment, the reason unless valid, the evidence
 * evData[evFrom .. evTo) and the reference coverage (through `coverageTails`, those of the case's
 * sentence count, when given).
 */
export function writeRunLine(
  out: ByteSink,
  keyData: Uint8Array,
  keyFrom: number,
  keyTo: number,
  line: number,
  judgment: boolean,
  reasonIdx: number,
  evData: ArrayLike<number>,
  evFrom: number,
  evTo: number,
  coverage: number,
  coverageTails?: FractionBytes,
): void {
  const decided = JUDGMENT[judgment ? 1 : 0]![reasonIdx]!;
  // One capacity check for the whole line: each number takes at most NUMBER_BYTES, a comma included.
  const tail = coverageTails ?? ANY_COVERAGE_TAIL;
  const most =
    RUN_KEY.bytes.length +
    (keyTo - keyFrom) +
    LINE_KEY.bytes.length +
    NUMBER_BYTES +
    decided.bytes.length +
    FRAGMENT_SLACK +
    (evTo - evFrom) * NUMBER_BYTES +
    tail.most;
  const buf = out.room(most);
  const view = out.view;
  let at = putFragment(view, out.length, RUN_KEY);
  for (let k = keyFrom; k < keyTo; k++) buf[at++] = keyData[k]!;
  if (line !== 0) {
    at = putFragment(view, at, LINE_KEY);
    at = writeNumber(buf, at, line);
  }
  at = putFragment(view, at, decided);
  for (let e = evFrom; e < evTo; e++) {
    if (e > evFrom) buf[at++] = COMMA;
    at = writeNumber(buf, at, evData[e]!);
  }
  out.advance(tail.write(buf, view, at, coverage));
}

/**
 * What one (case, run) adds to the sums: its kept line's values, or for an absent (case, run)
 * (`present` false) the case's missing prediction `missing` (scoreCase with no line). Written into
 * `into` when given (the range loop reuses one object for all its cells), else a new object.
 */
export function cellOutcome(
  c: SliceCase,
  missing: ScoredPrediction,
  present: boolean,
  reasonIdx: number,
  judgment: boolean,
  predictedCount: number,
  matched: number,
  coverage: number,
  rewardAccuracy: number,
  into: CaseOutcome = emptyCaseOutcome(),
): CaseOutcome {
  into.label = c.label;
  into.judgment = present ? judgment : missing.judgment;
  into.formatValid = reasonIdx === 0;
  into.predictedCount = present ? predictedCount : missing.evidence.length;
  into.matched = present ? matched : missing.matched;
  into.goldCount = c.gold.length;
  into.referenceCoverage = present ? coverage : missing.referenceCoverage;
  into.rewardAccuracy = present ? rewardAccuracy : missing.rewardAccuracy;
  into.rewardFormat = reasonIdx === 0 ? 1 : 0;
  return into;
}

/** The rejection example of an absent (case, run). */
export function missingExample(c: SliceCase, runKey: string): RejectionExample {
  return { where: c.where, reason: "missing_prediction", message: `no prediction for case ${JSON.stringify(c.id)} in run ${JSON.stringify(runKey)}` };
}

/** A payload's range, its cases taken from the slice this worker holds. */
export function aggregateRange(state: ScoreState, p: RangePayload): RangeResult {
  return aggregateRangeCells(
    {
      cases: Array.from(p.caseIndices, (i) => state.slice.cases[i]!),
      caseFrom: p.caseFrom,
      runFrom: p.runFrom,
      runs: p.runKeys.length,
      runKeys: p.runKeys,
      runKeyData: p.runKeyData,
      runKeyStart: p.runKeyStart,
      runKeyBase: 0,
      cells: p,
      spare: p.spare,
      reuse: null,
    },
    state.options,
  );
}

/**
 * A range's run lines, slot by slot in cases.jsonl order (case j's runs at j · R …), each line's
 * evidence where the cells keep it (evFrom … evTo of their evData). Gathered while the sums are
 * taken run by run, i.e. in the order the run table lays out a dump written run after run (reading
 * it case by case touched a cache line per column and run), and written out case by case after
 * (written at once into a buffer per case, the lines took a quarter longer). Grown, never shrunk:
 * one per thread.
 */
export class RangeLines {
  line = new Int32Array(0);
  judgment = new Uint8Array(0);
  reason = new Uint8Array(0);
  coverage = new Float64Array(0);
  evFrom = new Int32Array(0);
  evTo = new Int32Array(0);

  reset(slots: number): void {
    if (this.line.length >= slots) return;
    this.line = new Int32Array(slots);
    this.judgment = new Uint8Array(slots);
    this.reason = new Uint8Array(slots);
    this.coverage = new Float64Array(slots);
    this.evFrom = new Int32Array(slots);
    this.evTo = new Int32Array(slots);
  }
}
const rangeLines = new RangeLines();

/** Distinct reward accuracies a case's histogram slots are remembered for (beyond: countRewards every time). */
const ACCURACY_WAYS = 8;

/** Runs of a range below which its cases' histogram slots are not remembered: a few runs cost less to bin than a table to remember them in. */
export const REMEMBERED_REWARD_RUNS = 64;

/**
 * countRewards of each case's runs, remembered per (case, reward accuracy, coverage): binning a
 * pair was a fifth of a range's time, and a case's runs give few distinct pairs (40 on average on
 * the 1M bench). A pair's two counts are found by counting it once through countRewards and seeing
 * which counts moved; a pair is known by its coverage's reference count (k of coverage k / n) and
 * its accuracy's position among the case's distinct accuracies. One object for the range's cases,
 * in flat arrays (an object per case was made afresh for every range, and V8 compiled the range's
 * loop again when their shape settled).
 */
class RangeRewardCounts {
  /** Case j's distinct accuracies at j · ACCURACY_WAYS, accuracyCount[j] of them. */
  private readonly accuracies: Float64Array;
  private readonly accuracyCount: Int32Array;
  /** Case j's slots from slotStart[j], per (k, accuracy position): 0 unknown, else (first count + 1) | (second count + 1) << 16. */
  private readonly slots: Int32Array;
  private readonly slotStart: Int32Array;
  private readonly sentenceCount: Int32Array;
  private readonly before = new Float64Array(REWARD_HISTOGRAM_SLOTS);

  constructor(
    private readonly counts: Float64Array,
    cases: readonly SliceCase[],
  ) {
    const w = cases.length;
    this.accuracies = new Float64Array(w * ACCURACY_WAYS);
    this.accuracyCount = new Int32Array(w);
    this.sentenceCount = new Int32Array(w);
    this.slotStart = new Int32Array(w + 1);
    for (let j = 0; j < w; j++) {
      const n = cases[j]!.sentenceCount;
      this.sentenceCount[j] = n;
      this.slotStart[j + 1] = this.slotStart[j]! + (n + 1) * ACCURACY_WAYS;
    }
    this.slots = new Int32Array(this.slotStart[w]!);
  }

  add(j: number, rewardAccuracy: number, coverage: number): void {
    const n = this.sentenceCount[j]!;
    const k = Math.round(coverage * n);
    const first = j * ACCURACY_WAYS;
    const known = this.accuracyCount[j]!;
    let a = 0;
    while (a < known && this.accuracies[first + a] !== rewardAccuracy) a++;
    if (!(k >= 0 && k <= n && k / n === coverage) || a === ACCURACY_WAYS) {
      countRewards(this.counts, rewardAccuracy, coverage);
      return;
    }
    const at = this.slotStart[j]! + k * ACCURACY_WAYS + a;
    const packed = this.slots[at]!;
    if (packed !== 0) {
      this.counts[(packed & 0xffff) - 1]!++;
      this.counts[(packed >>> 16) - 1]!++;
      return;
    }
    this.before.set(this.counts);
    countRewards(this.counts, rewardAccuracy, coverage);
    if (a === known) {
      this.accuracies[first + a] = rewardAccuracy;
      this.accuracyCount[j] = known + 1;
    }
    let firstSlot = -1;
    let second = -1;
    for (let slot = 0; slot < REWARD_HISTOGRAM_SLOTS; slot++) {
      const moved = this.counts[slot]! - this.before[slot]!;
      if (moved === 0) continue;
      // Anything but two counts moved by one each is counted afresh every time.
      if (moved !== 1 || second >= 0) return;
      if (firstSlot < 0) firstSlot = slot;
      else second = slot;
    }
    if (second >= 0) this.slots[at] = (firstSlot + 1) | ((second + 1) << 16);
  }
}

/** A range's cases.jsonl bytes and partial sums. */
export function aggregateRangeCells(p: RangeInput, options: ScoreOptions): RangeResult {
  const w = p.cases.length;
  const R = p.runs;
  const F = RUN_SUM_FIELDS.length;
  const BF = BREAKDOWN_FIELDS.length;
  // Sums live in flat arrays (run r's fields at r · F; breakdown cell k's run r at (k · R + r) · BF): no object per run.
  // The range's cells, numbered in order of first appearance, are known before any sum: case j's
  // are cellIds[cellStart[j] … cellStart[j + 1]).
  const cellIndex = new Map<string, number>();
  const cellStart = new Int32Array(w + 1);
  const cellList: number[] = [];
  p.cases.forEach((c, j) => {
    for (const key of cellKeysOf(c)) {
      let id = cellIndex.get(key);
      if (id === undefined) cellIndex.set(key, (id = cellIndex.size));
      cellList.push(id);
    }
    cellStart[j + 1] = cellList.length;
  });
  const reuse = p.reuse;
  const fits = (a: { length: number } | undefined, length: number): boolean => a !== undefined && a.length === length;
  const result: RangeResult = {
    kind: "range",
    caseFrom: p.caseFrom,
    runFrom: p.runFrom,
    bytes: new Uint8Array(0),
    sums: fits(reuse?.sums, R * F) ? reuse!.sums.fill(0) : new Float64Array(R * F),
    cellKeys: [...cellIndex.keys()],
    cellSums: fits(reuse?.cellSums, cellIndex.size * R * BF) ? reuse!.cellSums.fill(0) : new Float64Array(cellIndex.size * R * BF),
    // Every slot's code, presence and judgment is written by sumRangeCells.
    codes: fits(reuse?.codes, R * w) ? reuse!.codes : new Uint8Array(R * w),
    present: fits(reuse?.present, R * w) ? reuse!.present : new Uint8Array(R * w),
    judgment: fits(reuse?.judgment, R * w) ? reuse!.judgment : new Uint8Array(R * w),
    reasonCounts: reuse ? reuse.reasonCounts.fill(0) : new Float64Array(CASE_REASONS.length),
    histogramCounts: reuse ? reuse.histogramCounts.fill(0) : new Float64Array(REWARD_HISTOGRAM_SLOTS),
    missingExamples: [],
  };
  rangeLines.reset(R * w);
  // Two functions, one loop each: optimized as one, the code compiled for the first loop gave way
  // to the interpreter when the second was reached, range after range, as long as the first took.
  sumRangeCells(p, missingPredictions(p.cases, options), cellStart, Int32Array.from(cellList), result, rangeLines);
  result.bytes = writeRangeLines(p, rangeLines, result.missingExamples);
  return result;
}

/**
 * Each case's missing prediction (scoreCase with no line), in a list of the same kind for every
 * range: `map` gave some ranges a list of another kind, and the optimized range loop was dropped
 * at the first.
 */
function missingPredictions(cases: readonly SliceCase[], options: ScoreOptions): ScoredPrediction[] {
  const missing: ScoredPrediction[] = [];
  for (const c of cases) missing.push(scoreCase(c, null, options));
  return missing;
}

/**
 * Adds each (case, run) cell of the range into `into`'s sums, run by run, each run's cases in case
 * order (the order of every float sum), and notes its run line in `lines`. `missing[j]`: case j's
 * missing prediction; its breakdown cells are cellIds[cellStart[j] … cellStart[j + 1]).
 */
function sumRangeCells(
  p: RangeInput,
  missing: readonly ScoredPrediction[],
  cellStart: Int32Array,
  cellIds: Int32Array,
  into: RangeResult,
  lines: RangeLines,
): void {
  const w = p.cases.length;
  const R = p.runs;
  const cells = p.cells;
  const F = RUN_SUM_FIELDS.length;
  const BF = BREAKDOWN_FIELDS.length;
  const { sums, cellSums, codes, present, judgment: judgments, reasonCounts } = into;
  const counts = into.histogramCounts;
  const rewards = R < REMEMBERED_REWARD_RUNS ? null : new RangeRewardCounts(counts, p.cases);
  const scratch = emptyCaseOutcome();
  for (let r = 0; r < R; r++) {
    for (let j = 0; j < w; j++) {
      const c = p.cases[j]!;
      const s = r * w + j;
      const e = cells.entry[s]!;
      const kept = e >= 0;
      const line = kept ? cells.line[e]! : 0;
      const isPresent = line !== 0;
      const reasonIdx = isPresent ? cells.reason[e]! : 1;
      const evFrom = kept ? cells.evStart[e]! : 0;
      const evTo = kept ? evFrom + cells.evLength[e]! : 0;
      const outcome = cellOutcome(
        c,
        missing[j]!,
        isPresent,
        reasonIdx,
        kept && cells.judgment[e] === 1,
        evTo - evFrom,
        kept ? cells.matched[e]! : 0,
        kept ? cells.coverage[e]! : 0,
        kept ? cells.rewardAccuracy[e]! : 0,
        scratch,
      );
      const judgment = outcome.judgment;
      addOutcomeAt(sums, r * F, outcome);
      if (rewards === null) countRewards(counts, outcome.rewardAccuracy, outcome.referenceCoverage);
      else rewards.add(j, outcome.rewardAccuracy, outcome.referenceCoverage);
      for (let x = cellStart[j]!; x < cellStart[j + 1]!; x++) addBreakdownOutcomeAt(cellSums, (cellIds[x]! * R + r) * BF, outcome);
      codes[s] = outcomeCode(c.label, judgment);
      present[s] = isPresent ? 1 : 0;
      judgments[s] = judgment ? 1 : 0;
      if (reasonIdx !== 0) reasonCounts[reasonIdx]!++;
      const t = j * R + r;
      lines.line[t] = line;
      lines.judgment[t] = judgment ? 1 : 0;
      lines.reason[t] = reasonIdx;
      lines.coverage[t] = outcome.referenceCoverage;
      lines.evFrom[t] = evFrom;
      lines.evTo[t] = evTo;
    }
  }
}

/** The run lines' fixed parts, as the WebAssembly writer takes them (range-write.ts). */
export const RUN_LINE_FRAGMENTS: RunLineFragments = { run: RUN_KEY.bytes, line: LINE_KEY.bytes, judgment: JUDGMENT.map((row) => row.map((f) => f.bytes)) };

/**
 * Cells a range has at least for the WebAssembly writer to write it: its work per range (laying
 * the case lines, run keys and cells out in its memory) costs more than it saves on a range of a
 * few runs (a GRPO-shaped dump's 8 cases × 8 samples).
 */
const WASM_RANGE_CELLS = 512;

/** A buffer the case lines of a range are written into, kept from range to range. */
let caseLineScratch: Uint8Array = new Uint8Array(1 << 12);

/**
 * The range's cases.jsonl bytes: case by case, its case line then its runs' lines in run order,
 * written by the WebAssembly writer (range-write.ts) when the range is big enough and it takes
 * it, else by writeRangeLinesHere; the first missing predictions' examples into `missingExamples`.
 */
function writeRangeLines(p: RangeInput, lines: RangeLines, missingExamples: RejectionExample[]): Uint8Array {
  const R = p.runs;
  const w = p.cases.length;
  for (let j = 0; j < w && missingExamples.length < EXAMPLES_PER_REASON; j++) {
    for (let r = 0, t = j * R; r < R && missingExamples.length < EXAMPLES_PER_REASON; r++, t++) {
      if (lines.line[t] === 0 && lines.reason[t] !== 0) missingExamples.push(missingExample(p.cases[j]!, p.runKeys[p.runKeyBase + r]!));
    }
  }
  if (R * w < WASM_RANGE_CELLS) return writeRangeLinesHere(p, lines);
  const sink = new ByteSink(caseLineScratch);
  const ends: number[] = [];
  for (const c of p.cases) {
    writeCaseLine(sink, c);
    ends.push(sink.length);
  }
  caseLineScratch = sink.room(0);
  const caseLines = ends.map((end, j) => caseLineScratch.subarray(j === 0 ? 0 : ends[j - 1]!, end));
  const input = {
    caseLines,
    tails: p.cases.map((c) => coverageTailsOf(c.sentenceCount)),
    runs: R,
    runKeyData: p.runKeyData,
    runKeyStart: p.runKeyStart,
    runKeyBase: p.runKeyBase,
    cells: lines,
    evData: p.cells.evData,
  };
  return writeRangeBytes(input, RUN_LINE_FRAGMENTS, p.spare) ?? writeRangeLinesHere(p, lines);
}

/** writeRangeLines in JavaScript: the writer of the ranges the WebAssembly one does not take. */
export function writeRangeLinesHere(p: RangeInput, lines: RangeLines): Uint8Array {
  const R = p.runs;
  const keyData = p.runKeyData;
  const keyStart = p.runKeyStart;
  const keyBase = p.runKeyBase;
  const evData = p.cells.evData;
  const out = new ByteSink(p.spare ?? undefined);
  for (let j = 0; j < p.cases.length; j++) {
    const c = p.cases[j]!;
    writeCaseLine(out, c);
    const tails = coverageTailsOf(c.sentenceCount);
    for (let r = 0, t = j * R; r < R; r++, t++) {
      writeRunLine(
        out,
        keyData,
        keyStart[keyBase + r]!,
        keyStart[keyBase + r + 1]!,
        lines.line[t]!,
        lines.judgment[t] === 1,
        lines.reason[t]!,
        evData,
        lines.evFrom[t]!,
        lines.evTo[t]!,
        lines.coverage[t]!,
        tails,
      );
    }
  }
  return out.take();
}

export function processChunk(state: ScoreState, payload: DocumentTaskPayload): DocumentTaskResult {
  if (!("kind" in payload)) return scoreChunk(state, payload);
  if (payload.kind === "rows") return scoreRows(state, payload);
  if (payload.kind === "slice-hash") return { kind: "slice-hash", hash: sliceHashOf(state.slice) };
  if (payload.kind === "bootstrap") {
    return {
      kind: "bootstrap",
      values: bootstrapMacroF1Values(payload.labels, payload.codes, payload.runCount, payload.seed, payload.from, payload.to),
    };
  }
  return aggregateRange(state, payload);
}

/** The buffers of an object's typed-array fields (for objects whose arrays were made for them alone). */
export function ownedBuffers(object: object): ArrayBuffer[] {
  return Object.values(object).flatMap((value) => (ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : []));
}

/** Pool hook: every typed array of these results is allocated for that result alone, so it can move. */
export function transferablesOf(result: DocumentTaskResult): ArrayBuffer[] {
  return ownedBuffers(result);
}
