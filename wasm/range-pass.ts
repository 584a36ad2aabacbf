// AssemblyScript, compiled by scripts/build-wasm.mjs into src/tasks/document/range-pass-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The dense aggregation of a document eval, on the main thread (src/tasks/document/range-pass.ts):
// every (case, run) cell of the run table, range by range as range.ts cuts them, added into the
// eval's totals and written as cases.jsonl's lines. The sums are taken as range.ts takes them
// (a range's partial sums run by run, its cases in case order, then added into the totals in
// range order), so every float has the bits range.ts gives it; the lines are assembled from
// fragments JavaScript rendered (case ids and optional fields, run keys, judgment parts, coverage
// endings) and decimal integers (case indices, gold IDs, sentence counts, line numbers, evidence). test/document-eval/range-pass.test.ts holds the two to the same outputs.
//
// JavaScript lays every column out in the memory it gives the module and their addresses in a
// table, then calls setLayout once, sumRanges a slice of the cases at a time, and writeLines until
// linesDone.

import { COMMA, copyFragmentWide, fragmentLength, UINT_BYTES, WIDE_SLACK, writeUint } from "./fragments";

// The scored cases, by position i (their order in cases.jsonl).
let caseCount: i32 = 0;
/** i32: the case's index in the run table (its slice index). */
let caseSlot: usize = 0;
/** u8: the gold label. */
let caseLabel: usize = 0;
/** i32: gold sentences, and sentences (the denominator of its coverages). */
let caseGold: usize = 0;
let caseSentences: usize = 0;
/** The case's missing prediction (an absent cell): u8 judgment, i32 evidence count and matched, f64 coverage and accuracy reward. */
let missJudgment: usize = 0;
let missPredicted: usize = 0;
let missMatched: usize = 0;
let missCoverage: usize = 0;
let missAccuracy: usize = 0;
/** i32: case i's breakdown cells are cellIds[cellStart[i] … cellStart[i + 1]). */
let cellStart: usize = 0;
let cellIds: usize = 0;
/**
 * A case's line is assembled from its own parts, two fragments a case (its id as JSON writes
 * between the quotes, then its optional fields: range.ts's writeCaseLineTail), its gold IDs
 * (caseGoldIds[caseGoldStart[i] … caseGoldStart[i + 1])) and the fixed fragments of caseFixed
 * (range.ts's CASE_LINE_FRAGMENTS: id open, index, label-and-gold opening by label, sentence
 * count, end).
 */
let caseParts: usize = 0;
let caseGoldStart: usize = 0;
let caseGoldIds: usize = 0;
let caseFixed: usize = 0;
/** i32 per case: its coverage endings' fragment table (0: none). */
let tailTables: usize = 0;


// The run table: slot (run, table case) at run · tableCases + case holds its entry + 1 (0: none);
// each entry's fields in a column.
let runCount: i32 = 0;
let tableCases: i32 = 0;
let slots: usize = 0;
let entLine: usize = 0;
let entJudgment: usize = 0;
let entReason: usize = 0;
let entCoverage: usize = 0;
let entAccuracy: usize = 0;
let entMatched: usize = 0;
let entEvStart: usize = 0;
let entEvLength: usize = 0;
let evIds: usize = 0;


// The ranges (range.ts's rangeCases and rangeRuns) and the run lines' fragments.
let caseStep: i32 = 1;
let runStep: i32 = 1;
/** Fragment table of the run keys' JSON; of `{"run":` then `,"line":`; of the judgment parts (judgment · reasonCount + reason). */
let runKeys: usize = 0;
let fixed: usize = 0;
let judgmentTable: usize = 0;
let reasonCount: i32 = 0;

// The totals: per run, `fieldCount` f64 sums (run-sums.ts's RUN_SUM_FIELDS); per breakdown cell
// and run, `breakdownCount` i32 counts (BREAKDOWN_FIELDS). setLayout's field table gives, for each
// sum this module adds (the FIELD_* order below, then the BREAK_* order), its index among those.
let sums: usize = 0;
let fieldCount: i32 = 0;
let cellSums: usize = 0;
let breakdownCount: i32 = 0;
let codes: usize = 0;
let present: usize = 0;
let judgments: usize = 0;
let reasonCounts: usize = 0;
let histogram: usize = 0;
/** f64 × runStep × fieldCount: a range's partial sums. */
let partial: usize = 0;
/** RECORD_BYTES per cell, in cases.jsonl's order: what writeLines needs of each (addCell). */
let records: usize = 0;
/** i32 pairs (case position, run) of the first `missingMost` absent cells in cases.jsonl order. */
let missing: usize = 0;
let missingCount: i32 = 0;
let missingMost: i32 = 0;

// The case explorer's summary of each scored case (report/explorer-summary.ts's CaseSummary,
// filled by explorer.ts's tableSummary cell by cell), gathered here as the cells are summed: per
// case, whether a run fails (u8), the summary's bits (u8), its runs' accuracy rewards summed in run
// order (f64), and its reason codes in order of first appearance (u8 each, four in a u32).
let caseFailed: usize = 0;
let caseBits: usize = 0;
let caseRewardSum: usize = 0;
let caseReasons: usize = 0;
/** The summary's bit of each outcome (tp, fp, fn, tn, invalid), then of a localization miss, a positive and a negative judgment. */
const SUMMARY_BITS = 8;
const summaryBits = memory.data(SUMMARY_BITS << 2);
const BIT_INVALID = 4;
const BIT_LOC_MISS = 5;
const BIT_JUDGED_POSITIVE = 6;
const BIT_JUDGED_NEGATIVE = 7;
/** CASE_REASONS's index of missing_prediction: an absent cell's reason. */
const MISSING_REASON = 1;
/** Set when the summary does not stand for tableSummary's: a kept line without a line number, or a case with more than four reasons. */
let summaryLost = false;

@inline function summaryBit(k: i32): i32 {
  return load<i32>(summaryBits + (<usize>k << 2));
}

/** Notes reason `code` for case `ci` unless it has it already. */
function noteReason(ci: usize, code: i32): void {
  const at = caseReasons + (ci << 2);
  const packed = load<u32>(at);
  for (let s: u32 = 0; s < 32; s += 8) {
    const held = <i32>((packed >> s) & 0xff);
    if (held == code) return;
    if (held == 0) {
      store<u32>(at, packed | (<u32>code << s));
      return;
    }
  }
  summaryLost = true;
}

/** Whether the per-case summary stands (after every sumRanges call took its cells). */
export function summaryTaken(): bool {
  return !summaryLost;
}

const FIELD_CASES = 0;
const FIELD_TP = 1;
const FIELD_FP = 2;
const FIELD_FN = 3;
const FIELD_TN = 4;
const FIELD_HITS = 5;
const FIELD_EXACT = 6;
const FIELD_PRECISION_SUM = 7;
const FIELD_PRECISION_CASES = 8;
const FIELD_FORMAT_VALID = 9;
const FIELD_COVERAGE_SUM = 10;
const FIELD_ACCURACY_SUM = 11;
const FIELD_FORMAT_SUM = 12;
const FIELDS = 13;
const BREAK_CASES = 0;
const BREAK_CORRECT = 1;
const BREAK_POSITIVES = 2;
const BREAK_TRUE_POSITIVES = 3;
const BREAK_HITS = 4;
const BREAKS = 5;
/** Each FIELD_* and BREAK_* as a byte offset into a run's or a cell's sums (i32 each, in the module's own data). */
const fieldOffsets = memory.data(FIELDS << 2);
const breakOffsets = memory.data(BREAKS << 2);

@inline function fieldAt(field: i32): usize {
  return <usize>load<i32>(fieldOffsets + (<usize>field << 2));
}

@inline function breakAt(field: i32): usize {
  return <usize>load<i32>(breakOffsets + (<usize>field << 2));
}

/** The fixed fragments' bytes a case line takes at most (one label opening is longer). */
let caseFixedBytes: usize = 0;

/** Where setLayout reads next. */
let layoutAt: usize = 0;

@inline function next(): usize {
  const value = load<i32>(layoutAt);
  layoutAt += 4;
  return <usize>value;
}

/**
 * Takes the eval's layout from the i32 table at `table` (range-pass.ts's PASS_LAYOUT, in the order
 * read here): the counts and each column's address.
 */
export function setLayout(table: usize): void {
  layoutAt = table;
  caseCount = <i32>next(); caseSlot = next(); caseLabel = next(); caseGold = next(); caseSentences = next();
  missJudgment = next(); missPredicted = next(); missMatched = next(); missCoverage = next(); missAccuracy = next();
  cellStart = next(); cellIds = next(); caseParts = next(); caseGoldStart = next(); caseGoldIds = next();
  caseFixed = next(); tailTables = next();
  runCount = <i32>next(); tableCases = <i32>next(); slots = next(); entLine = next(); entJudgment = next();
  entReason = next(); entCoverage = next(); entAccuracy = next(); entMatched = next(); entEvStart = next();
  entEvLength = next(); evIds = next();
  caseStep = <i32>next(); runStep = <i32>next(); runKeys = next(); fixed = next(); judgmentTable = next();
  reasonCount = <i32>next();
  sums = next(); fieldCount = <i32>next(); cellSums = next(); breakdownCount = <i32>next();
  const fieldTable = next();
  for (let f = 0; f < FIELDS; f++) store<i32>(fieldOffsets + (<usize>f << 2), load<i32>(fieldTable + (<usize>f << 2)) << 3);
  for (let f = 0; f < BREAKS; f++) store<i32>(breakOffsets + (<usize>f << 2), load<i32>(fieldTable + (<usize>(FIELDS + f) << 2)) << 2);
  codes = next(); present = next(); judgments = next(); reasonCounts = next(); histogram = next();
  partial = next(); records = next(); missing = next(); missingMost = <i32>next();
  caseFailed = next(); caseBits = next(); caseRewardSum = next(); caseReasons = next();
  caseFixedBytes = 0;
  for (let k = 0; k < 6; k++) caseFixedBytes += fragmentLength(caseFixed, k);
  const bitTable = next();
  for (let k = 0; k < SUMMARY_BITS; k++) store<i32>(summaryBits + (<usize>k << 2), load<i32>(bitTable + (<usize>k << 2)));
}

// A cell as range.ts's sumRangeCells reads it (cellOutcome), set by `readCell`.
let cKept: bool = false;
let cPresent: bool = false;
let cLine: i32 = 0;
let cReason: i32 = 0;
let cJudgment: bool = false;
let cPredicted: i32 = 0;
let cMatched: i32 = 0;
let cCoverage: f64 = 0;
let cAccuracy: f64 = 0;
let cEvFrom: i32 = 0;
let cEvTo: i32 = 0;

@inline function readCell(i: i32, run: i32): void {
  const e = load<i32>(slots + ((<usize>run * <usize>tableCases + <usize>load<i32>(caseSlot + (<usize>i << 2))) << 2)) - 1;
  const kept = e >= 0;
  cKept = kept;
  const at = <usize>e;
  cLine = kept ? load<i32>(entLine + (at << 2)) : 0;
  cPresent = cLine != 0;
  cReason = cPresent ? <i32>load<u8>(entReason + at) : 1;
  cEvFrom = kept ? load<i32>(entEvStart + (at << 2)) : 0;
  cEvTo = kept ? cEvFrom + load<i32>(entEvLength + (at << 2)) : 0;
  const ci = <usize>i;
  if (cPresent) {
    cJudgment = load<u8>(entJudgment + at) == 1;
    cPredicted = cEvTo - cEvFrom;
    cMatched = load<i32>(entMatched + (at << 2));
    cCoverage = load<f64>(entCoverage + (at << 3));
    cAccuracy = load<f64>(entAccuracy + (at << 3));
  } else {
    cJudgment = load<u8>(missJudgment + ci) == 1;
    cPredicted = load<i32>(missPredicted + (ci << 2));
    cMatched = load<i32>(missMatched + (ci << 2));
    cCoverage = load<f64>(missCoverage + (ci << 3));
    cAccuracy = load<f64>(missAccuracy + (ci << 3));
  }
}

/** reward-histograms.ts's accuracy bin (−1, 0, 1, (1, 1.5], (1.5, 2]); −1 for any other value. */
@inline function accuracyBin(value: f64): i32 {
  if (value == -1) return 0;
  if (value == 0) return 1;
  if (value == 1) return 2;
  if (value > 1 && value <= 1.5) return 3;
  if (value > 1.5 && value <= 2) return 4;
  return -1;
}

const ACCURACY_BINS: i32 = 5;

/** reward-histograms.ts's coverage bin, its edges compared as written; −1 outside [0, 1]. */
@inline function coverageBin(value: f64): i32 {
  if (!(value >= 0 && value <= 1)) return -1;
  let bin = 0;
  if (value >= 0.1) bin++;
  if (value >= 0.2) bin++;
  if (value >= 0.3) bin++;
  if (value >= 0.4) bin++;
  if (value >= 0.5) bin++;
  if (value >= 0.6) bin++;
  if (value >= 0.7) bin++;
  if (value >= 0.8) bin++;
  if (value >= 0.9) bin++;
  return bin;
}

/** The k with k / n exactly `value` (0 ≤ k ≤ n), as line-bytes.ts's FractionBytes finds it; −1 for none. */
@inline function numeratorOf(value: f64, n: i32): i32 {
  const x = value * <f64>n;
  let k = Math.floor(x);
  if (x - k >= 0.5) k += 1;
  if (!(k >= 0 && k <= <f64>n)) return -1;
  const ki = <i32>k;
  return <f64>ki / <f64>n == value ? ki : -1;
}

@inline function bump(at: usize): void {
  store<f64>(at, load<f64>(at) + 1);
}

@inline function bumpCount(at: usize): void {
  store<i32>(at, load<i32>(at) + 1);
}

/**
 * Adds cell (i, run) into the partial sums at `row` and into the totals range.ts adds directly,
 * and notes what its run line needs at `record` (RECORD_BYTES: the line number, the evidence's
 * bounds, the judgment part, the coverage's numerator), so that writeLines reads the cells in the
 * order it writes them (reading the run table case by case took a cache line per column and
 * run). 0, or why the module does not take the cell (range.ts then aggregates the eval): 2 a
 * coverage that is not k / n of its case's sentence count, 3 an accuracy reward outside its bins,
 * 4 a negative evidence ID.
 */
@inline function addCell(i: i32, run: i32, row: usize, record: usize): i32 {
  readCell(i, run);
  const ci = <usize>i;
  const numerator = numeratorOf(cCoverage, load<i32>(caseSentences + (ci << 2)));
  if (numerator < 0) return 2;
  if (accuracyBin(cAccuracy) < 0) return 3;
  for (let e = cEvFrom; e < cEvTo; e++) if (load<i32>(evIds + (<usize>e << 2)) < 0) return 4;
  store<i32>(record, cLine);
  store<i32>(record + 4, cEvFrom);
  store<i32>(record + 8, cEvTo);
  store<u16>(record + 12, <u16>((cJudgment ? 1 : 0) * reasonCount + cReason));
  store<u16>(record + 14, <u16>numerator);
  const label = load<u8>(caseLabel + ci) == 1;
  const judgment = cJudgment;
  const goldCount = load<i32>(caseGold + (ci << 2));
  // run-sums.ts's addOutcomeAt.
  bump(row + fieldAt(FIELD_CASES));
  if (label) {
    bump(row + fieldAt(judgment ? FIELD_TP : FIELD_FN));
    if (cMatched > 0) bump(row + fieldAt(FIELD_HITS));
    if (cMatched == goldCount && cPredicted == goldCount) bump(row + fieldAt(FIELD_EXACT));
    if (judgment && cPredicted > 0) {
      const at = row + fieldAt(FIELD_PRECISION_SUM);
      store<f64>(at, load<f64>(at) + <f64>cMatched / <f64>cPredicted);
      bump(row + fieldAt(FIELD_PRECISION_CASES));
    }
  } else bump(row + fieldAt(judgment ? FIELD_FP : FIELD_TN));
  if (cReason == 0) bump(row + fieldAt(FIELD_FORMAT_VALID));
  const coverageAt = row + fieldAt(FIELD_COVERAGE_SUM);
  store<f64>(coverageAt, load<f64>(coverageAt) + cCoverage);
  const accuracyAt = row + fieldAt(FIELD_ACCURACY_SUM);
  store<f64>(accuracyAt, load<f64>(accuracyAt) + cAccuracy);
  const formatAt = row + fieldAt(FIELD_FORMAT_SUM);
  store<f64>(formatAt, load<f64>(formatAt) + (cReason == 0 ? 1.0 : 0.0));
  // reward-histograms.ts's countRewards.
  bump(histogram + (<usize>accuracyBin(cAccuracy) << 3));
  bump(histogram + (<usize>(ACCURACY_BINS + coverageBin(cCoverage)) << 3));
  // run-sums.ts's addBreakdownOutcomeAt, for each of the case's cells.
  const last = load<i32>(cellStart + ((ci + 1) << 2));
  for (let x = load<i32>(cellStart + (ci << 2)); x < last; x++) {
    const cell = <usize>((<usize>load<i32>(cellIds + (<usize>x << 2)) * <usize>runCount + <usize>run) * <usize>breakdownCount) << 2;
    const at = cellSums + cell;
    bumpCount(at + breakAt(BREAK_CASES));
    if (judgment == label) bumpCount(at + breakAt(BREAK_CORRECT));
    if (label) {
      bumpCount(at + breakAt(BREAK_POSITIVES));
      if (judgment) bumpCount(at + breakAt(BREAK_TRUE_POSITIVES));
      if (cMatched > 0) bumpCount(at + breakAt(BREAK_HITS));
    }
  }
  const slot = <usize>run * <usize>caseCount + ci;
  store<u8>(codes + slot, <u8>((label ? 2 : 0) + (judgment ? 1 : 0)));
  store<u8>(present + slot, cPresent ? 1 : 0);
  store<u8>(judgments + slot, judgment ? 1 : 0);
  if (cReason != 0) bump(reasonCounts + (<usize>cReason << 3));
  // explorer-summary.ts's CaseSummary.add of the run as its cases.jsonl line reads (localization
  // is missed on a gold-positive case when no gold sentence is matched).
  const valid = cReason == 0;
  const locMiss = label && cMatched == 0;
  let bits = <i32>load<u8>(caseBits + ci) | summaryBit(valid ? (label ? (judgment ? 0 : 2) : judgment ? 1 : 3) : BIT_INVALID);
  if (locMiss) bits |= summaryBit(BIT_LOC_MISS);
  if (cReason != MISSING_REASON) bits |= summaryBit(judgment ? BIT_JUDGED_POSITIVE : BIT_JUDGED_NEGATIVE);
  store<u8>(caseBits + ci, <u8>bits);
  if (judgment != label || !valid || locMiss) store<u8>(caseFailed + ci, 1);
  const rewardAt = caseRewardSum + (ci << 3);
  store<f64>(rewardAt, load<f64>(rewardAt) + cAccuracy);
  if (cReason != 0) noteReason(ci, cReason);
  if (cKept && cLine < 1) summaryLost = true;
  return 0;
}

/** Bytes of a cell's record (addCell). */
const RECORD_BYTES: usize = 16;

/**
 * The cells of the ranges from case `first` (the first case of a range) to case `last` into the
 * totals, in range order, their records in cases.jsonl's order; the caller goes over every range,
 * in order, a slice at a time (V8 compiles a WebAssembly function's faster code for its next call,
 * not the one under way). 0, or why the module does not take the eval (addCell; 1: a case with no
 * coverage endings table), and the totals are then not to be read.
 */
export function sumRanges(first: i32, last: i32): i32 {
  const rowBytes = <usize>fieldCount << 3;
  for (let caseFrom = first; caseFrom < last; caseFrom += caseStep) {
    const caseTo = min(caseCount, caseFrom + caseStep);
    const w = caseTo - caseFrom;
    for (let i = caseFrom; i < caseTo; i++) if (load<i32>(tailTables + (<usize>i << 2)) == 0) return 1;
    for (let r0 = 0; r0 < runCount; r0 += runStep) {
      const runs = min(runCount, r0 + runStep) - r0;
      // The range's cells in cases.jsonl: after every case before it (all runs), and the blocks of runs before r0.
      const base = records + (<usize>caseFrom * <usize>runCount + <usize>r0 * <usize>w) * RECORD_BYTES;
      memory.fill(partial, 0, <usize>runs * rowBytes);
      for (let r = 0; r < runs; r++) {
        const row = partial + <usize>r * rowBytes;
        for (let i = caseFrom; i < caseTo; i++) {
          const status = addCell(i, r0 + r, row, base + (<usize>(i - caseFrom) * <usize>runs + <usize>r) * RECORD_BYTES);
          if (status != 0) return status;
        }
      }
      // run-sums.ts's RunSumsTable.add, run by run.
      for (let r = 0; r < runs; r++) {
        const from = partial + <usize>r * rowBytes;
        const to = sums + <usize>(r0 + r) * rowBytes;
        for (let f: usize = 0; f < rowBytes; f += 8) store<f64>(to + f, load<f64>(to + f) + load<f64>(from + f));
      }
    }
  }
  return 0;
}

// Where writeLines stopped: the range (its first case and run), the case in it, and the next run
// of the block (−1: the case's line is next).
let wCaseFrom: i32 = 0;
let wRunFrom: i32 = 0;
let wCase: i32 = 0;
let wRun: i32 = -1;
/** The next run line's record. */
let wRecord: usize = 0;

/** Starts writeLines from the first line again. */
export function startLines(): void {
  wCaseFrom = 0;
  wRunFrom = 0;
  wCase = 0;
  wRun = -1;
  wRecord = records;
  missingCount = 0;
}

/** Whether writeLines has written every line. */
export function linesDone(): bool {
  return wCaseFrom >= caseCount;
}

/** Absent cells noted (at most `missingMost`), their (case, run) at `missing`. */
export function missingNoted(): i32 {
  return missingCount;
}

/**
 * Writes cases.jsonl's next lines at `out`, as many whole lines as fit before `end`, in range
 * order: each case of a range, its line, then its runs' lines in the range's block of runs.
 * Returns where the bytes end; linesDone() tells whether there are more.
 */
export function writeLines(out: usize, end: usize): usize {
  while (wCaseFrom < caseCount) {
    const caseTo = min(caseCount, wCaseFrom + caseStep);
    const runTo = min(runCount, wRunFrom + runStep);
    while (wCase < caseTo) {
      const ci = <usize>wCase;
      if (wRun < 0) {
        const goldFrom = load<i32>(caseGoldStart + (ci << 2));
        const goldTo = load<i32>(caseGoldStart + (ci << 2) + 4);
        const most =
          caseFixedBytes +
          fragmentLength(caseParts, 2 * wCase) +
          fragmentLength(caseParts, 2 * wCase + 1) +
          <usize>(goldTo - goldFrom + 2) * UINT_BYTES +
          WIDE_SLACK;
        if (out + most > end) return out;
        out = copyFragmentWide(caseFixed, 0, out);
        out = copyFragmentWide(caseParts, 2 * wCase, out);
        out = copyFragmentWide(caseFixed, 1, out);
        out = writeUint(out, <u32>load<i32>(caseSlot + (ci << 2)));
        out = copyFragmentWide(caseFixed, 2 + <i32>load<u8>(caseLabel + ci), out);
        for (let g = goldFrom; g < goldTo; g++) {
          if (g > goldFrom) store<u8>(out++, COMMA);
          out = writeUint(out, <u32>load<i32>(caseGoldIds + (<usize>g << 2)));
        }
        out = copyFragmentWide(caseFixed, 4, out);
        out = writeUint(out, <u32>load<i32>(caseSentences + (ci << 2)));
        out = copyFragmentWide(caseParts, 2 * wCase + 1, out);
        out = copyFragmentWide(caseFixed, 5, out);
        wRun = wRunFrom;
      }
      const tails = <usize>load<i32>(tailTables + (ci << 2));
      while (wRun < runTo) {
        const line = load<i32>(wRecord);
        const evFrom = load<i32>(wRecord + 4);
        const evTo = load<i32>(wRecord + 8);
        const judgmentEntry = <i32>load<u16>(wRecord + 12);
        const numerator = <i32>load<u16>(wRecord + 14);
        const most =
          fragmentLength(fixed, 0) +
          fragmentLength(runKeys, wRun) +
          fragmentLength(fixed, 1) +
          UINT_BYTES +
          fragmentLength(judgmentTable, judgmentEntry) +
          <usize>(evTo - evFrom) * UINT_BYTES +
          fragmentLength(tails, numerator) +
          WIDE_SLACK;
        if (out + most > end) return out;
        // No line: an absent cell (range.ts's missing prediction).
        if (line == 0 && missingCount < missingMost) {
          store<i32>(missing + (<usize>missingCount << 3), wCase);
          store<i32>(missing + (<usize>missingCount << 3) + 4, wRun);
          missingCount++;
        }
        out = copyFragmentWide(fixed, 0, out);
        out = copyFragmentWide(runKeys, wRun, out);
        if (line != 0) {
          out = copyFragmentWide(fixed, 1, out);
          out = writeUint(out, <u32>line);
        }
        out = copyFragmentWide(judgmentTable, judgmentEntry, out);
        for (let e = evFrom; e < evTo; e++) {
          if (e > evFrom) store<u8>(out++, COMMA);
          out = writeUint(out, <u32>load<i32>(evIds + (<usize>e << 2)));
        }
        out = copyFragmentWide(tails, numerator, out);
        wRun++;
        wRecord += RECORD_BYTES;
      }
      wCase++;
      wRun = -1;
    }
    // The range's block of runs is written: the next block of the same cases, else the next cases.
    if (runTo < runCount) {
      wRunFrom = runTo;
      wCase = wCaseFrom;
    } else {
      wRunFrom = 0;
      wCaseFrom = caseTo;
      wCase = caseTo;
    }
  }
  return out;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
