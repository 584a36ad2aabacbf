// The aggregation of a sparse document eval (fewer than half of its (case, run) cells have a kept
// line: e.g. 100,000 runs that each answer one case of 160). Its cost follows the kept lines, not
// cases × runs: cases.jsonl gets the sparse layout (docs/reports.md: a runs line, then run lines for
// kept lines only), and the sums are those of the range path (range.ts) bit for bit: each absent
// (case, run) still counts as the case's missing prediction, added in the same order.
import { outcomeCode } from "../../core/metrics/bootstrap.js";
import type { CaseOutcome } from "../../core/metrics/case-outcome.js";
import { countRewards, REWARD_HISTOGRAM_SLOTS } from "../../core/metrics/reward-histograms.js";
import { addBreakdownOutcomeAt, addOutcomeAt, type CountColumn, countColumn, type RunSumsTable } from "../../core/metrics/run-sums.js";
import type { JudgmentColumns } from "../../core/metrics/setcons.js";
import type { SliceCase } from "../../io/slice.js";
import type { RejectionExample } from "../../report/types.js";
import { ByteSink, utf8 } from "./line-bytes.js";
import { BREAKDOWN_FIELDS, cellKeysOf, cellOutcome, missingExample, rangeCases, rangeRuns, RUN_SUM_FIELDS, writeCaseLine, writeRunLine } from "./range.js";
import type { RunTable } from "./run-table.js";
import { EXAMPLES_PER_REASON, scoreCase, type ScoredPrediction, type ScoreOptions } from "./score.js";

/** What the aggregation adds up over the (case, run) cells, before metrics are computed from it. */
export interface CellTotals {
  /** Per run, RUN_SUM_FIELDS. */
  sums: RunSumsTable;
  /** Per breakdown cell (`dimension\0value`), BREAKDOWN_FIELDS per run (run r at r · BREAKDOWN_FIELDS.length). */
  cellSums: Map<string, CountColumn>;
  /** Outcome codes per (run, case), run-major (shared with the bootstrap workers). */
  codes: Uint8Array;
  judgments: JudgmentColumns;
  /** Per CASE_REASONS index. */
  reasonCounts: Float64Array;
  histogramCounts: Float64Array;
  missingExamples: RejectionExample[];
}

/** cases.jsonl bytes are handed to the writer in blocks of about this size. */
const WRITE_BLOCK = 4 << 20;

/** The missing prediction of a case: what an absent (case, run) of it is scored as. */
function missingOf(c: SliceCase, options: ScoreOptions): ScoredPrediction {
  return scoreCase(c, null, options);
}

/**
 * Whether the eval is aggregated as sparse: fewer than half of its cells are kept lines, and every
 * case's missing prediction is the one the sparse layout's reader restores (judgment false, no
 * evidence, reference coverage 0; always so, checked rather than assumed).
 */
export function isSparse(cases: readonly SliceCase[], table: RunTable, options: ScoreOptions): boolean {
  const cells = table.keys.length * cases.length;
  if (cells === 0 || 2 * table.entries >= cells) return false;
  return cases.every((c) => {
    const m = missingOf(c, options);
    return !m.judgment && m.evidence.length === 0 && m.referenceCoverage === 0;
  });
}

/** The kept lines of the eval indexed both ways: per case (runs ascending) and per run (cases ascending). */
interface KeptLines {
  /** Case k's kept lines are at caseStart[k] … caseStart[k + 1] − 1 of caseRun / caseEntry. */
  caseStart: Int32Array;
  caseRun: Int32Array;
  caseEntry: Int32Array;
  /** Run r's kept lines are at runStart[r] … runStart[r + 1] − 1 of runCase / runEntry. */
  runStart: Int32Array;
  runCase: Int32Array;
  runEntry: Int32Array;
}

/** What every step of the sparse pass shares. */
interface SparsePass {
  cases: readonly SliceCase[];
  table: RunTable;
  into: CellTotals;
  runCount: number;
  caseCount: number;
  /** Each case's missing prediction and its outcome (what an absent cell of it counts as). */
  missing: ScoredPrediction[];
  missingOutcome: CaseOutcome[];
  kept: KeptLines;
  /** Cases per range (`rangeCases`) and the number of case ranges. */
  caseStep: number;
  rangeCount: number;
}

/**
 * Sums, outcome columns and cases.jsonl of a sparse eval into `into` (zeroed, sized for every run
 * and case). The run sums are folded as the range path folds them: within each case range (the
 * ranges of `rangeCases`) from zero in case order, then range after range; a range without a kept
 * line for a run adds its precomputed missing total, and where a field's running sum and the
 * missing totals ahead are integers, the totals of many ranges at once (integers add exactly).
 */
export async function aggregateSparse(
  cases: readonly SliceCase[],
  table: RunTable,
  options: ScoreOptions,
  writeBytes: (bytes: Uint8Array) => Promise<void>,
  into: CellTotals,
): Promise<void> {
  const runCount = table.keys.length;
  const missing = cases.map((c) => missingOf(c, options));
  const caseStep = rangeCases(runCount);
  const pass: SparsePass = {
    cases,
    table,
    into,
    runCount,
    caseCount: cases.length,
    missing,
    missingOutcome: cases.map((c, k) => cellOutcome(c, missing[k]!, false, 1, false, 0, 0, 0, 0)),
    kept: keptLines(cases, table),
    caseStep,
    rangeCount: Math.ceil(cases.length / caseStep),
  };
  addRunSums(pass);
  addBreakdownSums(pass);
  fillOutcomeColumns(pass);
  addAbsentCells(pass);
  collectMissingExamples(pass);
  await writeSparseCases(pass, writeBytes);
}

function keptLines(cases: readonly SliceCase[], table: RunTable): KeptLines {
  const runCount = table.keys.length;
  const caseCount = cases.length;
  const byCase = table.entriesByCase();
  const caseStart = new Int32Array(caseCount + 1);
  for (let k = 0; k < caseCount; k++) {
    const i = cases[k]!.index;
    caseStart[k + 1] = caseStart[k]! + byCase.start[i + 1]! - byCase.start[i]!;
  }
  const keptCount = caseStart[caseCount]!;
  const caseRun = new Int32Array(keptCount);
  const caseEntry = new Int32Array(keptCount);
  const runStart = new Int32Array(runCount + 1);
  for (let k = 0, at = 0; k < caseCount; k++) {
    const i = cases[k]!.index;
    for (let x = byCase.start[i]!; x < byCase.start[i + 1]!; x++, at++) {
      const e = byCase.entries[x]!;
      caseEntry[at] = e;
      caseRun[at] = table.entryRun[e]!;
      runStart[caseRun[at]! + 1]!++;
    }
  }
  for (let r = 0; r < runCount; r++) runStart[r + 1]! += runStart[r]!;
  const runFill = runStart.slice(0, runCount);
  const runCase = new Int32Array(keptCount);
  const runEntry = new Int32Array(keptCount);
  for (let k = 0; k < caseCount; k++) {
    for (let at = caseStart[k]!; at < caseStart[k + 1]!; at++) {
      const to = runFill[caseRun[at]!]!++;
      runCase[to] = k;
      runEntry[to] = caseEntry[at]!;
    }
  }
  return { caseStart, caseRun, caseEntry, runStart, runCase, runEntry };
}

/** The outcome of case k's kept line, table entry e. */
function keptOutcome(pass: SparsePass, k: number, e: number): CaseOutcome {
  const table = pass.table;
  return cellOutcome(
    pass.cases[k]!,
    pass.missing[k]!,
    true,
    table.reason[e]!,
    table.judgment[e] === 1,
    table.evLength[e]!,
    table.matched[e]!,
    table.coverage[e]!,
    table.rewardAccuracy[e]!,
  );
}

/** Per case range: the fold of its cases' missing outcomes, which fields are integral in every range, and prefix totals. */
interface MissingRanges {
  totals: Float64Array;
  integral: Uint8Array;
  prefix: Float64Array;
}

function missingRanges(pass: SparsePass): MissingRanges {
  const fields = RUN_SUM_FIELDS.length;
  const { caseStep, rangeCount, caseCount } = pass;
  const totals = new Float64Array(rangeCount * fields);
  for (let b = 0; b < rangeCount; b++) {
    for (let k = b * caseStep; k < Math.min(caseCount, (b + 1) * caseStep); k++) addOutcomeAt(totals, b * fields, pass.missingOutcome[k]!);
  }
  const integral = new Uint8Array(fields).fill(1);
  for (let t = 0; t < rangeCount * fields; t++) if (!Number.isInteger(totals[t]!)) integral[t % fields] = 0;
  const prefix = new Float64Array((rangeCount + 1) * fields);
  for (let b = 0; b < rangeCount; b++) {
    for (let f = 0; f < fields; f++) prefix[(b + 1) * fields + f] = prefix[b * fields + f]! + totals[b * fields + f]!;
  }
  return { totals, integral, prefix };
}

/** Adds ranges from … to − 1 (no kept line of the run in them) to the run sums at `base`. */
function addMissingRanges(sums: Float64Array, base: number, ranges: MissingRanges, from: number, to: number): void {
  if (from >= to) return;
  const fields = RUN_SUM_FIELDS.length;
  for (let f = 0; f < fields; f++) {
    let acc = sums[base + f]!;
    if (ranges.integral[f] && Number.isInteger(acc)) acc += ranges.prefix[to * fields + f]! - ranges.prefix[from * fields + f]!;
    else {
      // Adding zero leaves a sum unchanged (sums here are never −0).
      for (let b = from; b < to; b++) {
        const v = ranges.totals[b * fields + f]!;
        if (v !== 0) acc += v;
      }
    }
    sums[base + f] = acc;
  }
}

/** Run sums, range by range as the range path adds them (a range with kept lines is folded case by case). */
function addRunSums(pass: SparsePass): void {
  const fields = RUN_SUM_FIELDS.length;
  const { caseStep, rangeCount, caseCount, kept } = pass;
  const ranges = missingRanges(pass);
  const rangeSum = new Float64Array(fields);
  // One run's sums at a time, in a float64 row (the table holds them densely).
  const sums = new Float64Array(fields);
  for (let r = 0; r < pass.runCount; r++) {
    pass.into.sums.load(r, sums);
    let next = 0;
    let q = kept.runStart[r]!;
    const end = kept.runStart[r + 1]!;
    while (q < end) {
      const b = Math.floor(kept.runCase[q]! / caseStep);
      addMissingRanges(sums, 0, ranges, next, b);
      rangeSum.fill(0);
      for (let k = b * caseStep; k < Math.min(caseCount, (b + 1) * caseStep); k++) {
        if (q < end && kept.runCase[q] === k) addOutcomeAt(rangeSum, 0, keptOutcome(pass, k, kept.runEntry[q++]!));
        else addOutcomeAt(rangeSum, 0, pass.missingOutcome[k]!);
      }
      for (let f = 0; f < fields; f++) sums[f]! += rangeSum[f]!;
      next = b + 1;
    }
    addMissingRanges(sums, 0, ranges, next, rangeCount);
    pass.into.sums.store(r, sums);
  }
}

/**
 * Breakdown cells count (every field is a count, so the order of additions changes nothing):
 * every run starts from the missing counts of the cell's cases, and each kept line swaps its
 * case's missing outcome for its own.
 */
function addBreakdownSums(pass: SparsePass): void {
  const cellFields = BREAKDOWN_FIELDS.length;
  const { cases, caseCount, runCount, kept, into } = pass;
  const cellsOf = cases.map((c) => cellKeysOf(c));
  const delta = new Float64Array(cellFields);
  for (let k = 0; k < caseCount; k++) {
    for (const key of cellsOf[k]!) {
      let perRun = into.cellSums.get(key);
      if (!perRun) into.cellSums.set(key, (perRun = countColumn(runCount * cellFields, caseCount)));
    }
  }
  for (const [key, perRun] of into.cellSums) {
    const total = new Float64Array(cellFields);
    for (let k = 0; k < caseCount; k++) if (cellsOf[k]!.includes(key)) addBreakdownOutcomeAt(total, 0, pass.missingOutcome[k]!);
    for (let r = 0; r < runCount; r++) perRun.set(total, r * cellFields);
  }
  for (let k = 0; k < caseCount; k++) {
    if (cellsOf[k]!.length === 0) continue;
    const missingCounts = new Float64Array(cellFields);
    addBreakdownOutcomeAt(missingCounts, 0, pass.missingOutcome[k]!);
    const cells = cellsOf[k]!.map((key) => into.cellSums.get(key)!);
    for (let at = kept.caseStart[k]!; at < kept.caseStart[k + 1]!; at++) {
      delta.fill(0);
      addBreakdownOutcomeAt(delta, 0, keptOutcome(pass, k, kept.caseEntry[at]!));
      const base = kept.caseRun[at]! * cellFields;
      for (const perRun of cells) {
        for (let f = 0; f < cellFields; f++) perRun[base + f] = perRun[base + f]! - missingCounts[f]! + delta[f]!;
      }
    }
  }
}

/** Outcome codes and judgments (absent cells: the missing judgment); the kept lines' reasons and rewards. */
function fillOutcomeColumns(pass: SparsePass): void {
  const { cases, table, into, caseCount, kept } = pass;
  const absentCodes = Uint8Array.from(cases, (c, k) => outcomeCode(c.label, pass.missing[k]!.judgment));
  const absentJudgments = Uint8Array.from(pass.missing, (p) => (p.judgment ? 1 : 0));
  for (let r = 0; r < pass.runCount; r++) {
    into.codes.set(absentCodes, r * caseCount);
    into.judgments.judgment.set(absentJudgments, r * caseCount);
    for (let q = kept.runStart[r]!; q < kept.runStart[r + 1]!; q++) {
      const k = kept.runCase[q]!;
      const e = kept.runEntry[q]!;
      into.codes[r * caseCount + k] = outcomeCode(cases[k]!.label, table.judgment[e] === 1);
      into.judgments.judgment[r * caseCount + k] = table.judgment[e]!;
      into.judgments.present[r * caseCount + k] = 1;
      if (table.reason[e] !== 0) into.reasonCounts[table.reason[e]!]!++;
      countRewards(into.histogramCounts, table.rewardAccuracy[e]!, table.coverage[e]!);
    }
  }
}

/** The absent cells' missing_prediction reasons and reward histogram counts, case by case. */
function addAbsentCells(pass: SparsePass): void {
  const { into, kept } = pass;
  const missingBins = new Float64Array(REWARD_HISTOGRAM_SLOTS);
  for (let k = 0; k < pass.caseCount; k++) {
    const absent = pass.runCount - (kept.caseStart[k + 1]! - kept.caseStart[k]!);
    into.reasonCounts[1]! += absent;
    missingBins.fill(0);
    countRewards(missingBins, pass.missing[k]!.rewardAccuracy, pass.missing[k]!.referenceCoverage);
    for (let t = 0; t < REWARD_HISTOGRAM_SLOTS; t++) into.histogramCounts[t]! += missingBins[t]! * absent;
  }
}

/** The first absent cells in the range path's order: case ranges, run blocks, cases, runs. */
function collectMissingExamples(pass: SparsePass): void {
  const { cases, table, into, runCount, caseCount, caseStep } = pass;
  const runStep = Math.max(1, rangeRuns(runCount));
  search: for (let b = 0; b < pass.rangeCount; b++) {
    for (let runFrom = 0; runFrom < runCount; runFrom += runStep) {
      for (let k = b * caseStep; k < Math.min(caseCount, (b + 1) * caseStep); k++) {
        for (let r = runFrom; r < Math.min(runCount, runFrom + runStep); r++) {
          if (into.missingExamples.length >= EXAMPLES_PER_REASON) break search;
          if (!into.judgments.present[r * caseCount + k]) into.missingExamples.push(missingExample(cases[k]!, table.keys[r]!));
        }
      }
    }
  }
}

/**
 * cases.jsonl, sparse layout: the runs line, then per case its case line and the run lines of its
 * kept lines, in run order.
 */
async function writeSparseCases(pass: SparsePass, writeBytes: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  const { cases, table, kept } = pass;
  const keyJson = table.keys.map((key) => utf8(JSON.stringify(key)));
  let out = new ByteSink();
  const flush = async (): Promise<void> => {
    if (out.length === 0) return;
    const bytes = out.take();
    out = new ByteSink();
    await writeBytes(bytes);
  };
  out.bytes(utf8('{"runs":['));
  for (let r = 0; r < pass.runCount; r++) {
    if (r > 0) out.bytes(utf8(","));
    out.bytes(keyJson[r]!);
    if (out.length >= WRITE_BLOCK) await flush();
  }
  out.bytes(utf8("]}\n"));
  for (let k = 0; k < pass.caseCount; k++) {
    writeCaseLine(out, cases[k]!);
    for (let at = kept.caseStart[k]!; at < kept.caseStart[k + 1]!; at++) {
      const r = kept.caseRun[at]!;
      const e = kept.caseEntry[at]!;
      const ids = table.evidenceOf(r, cases[k]!.index);
      const key = keyJson[r]!;
      writeRunLine(out, key, 0, key.length, table.line[e]!, table.judgment[e] === 1, table.reason[e]!, ids, 0, ids.length, table.coverage[e]!);
      if (out.length >= WRITE_BLOCK) await flush();
    }
  }
  await flush();
}
