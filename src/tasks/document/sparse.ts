// The aggregation of a sparse document eval (fewer than half of its (case, run) cells have a kept
// line: e.g. 100,000 runs that each answer one case of 160). Its cost follows the kept lines, not
// cases × runs: cases.jsonl gets the sparse layout (docs/reports.md: a runs line, then run lines for
// kept lines only), and the sums are those of the range path (range.ts) bit for bit: each absent
// (case, run) still counts as the case's missing prediction, added in the same order.
import { outcomeCode } from "../../core/metrics/bootstrap.js";
import type { CaseOutcome } from "../../core/metrics/case-outcome.js";
import { countRewards, REWARD_HISTOGRAM_SLOTS } from "../../core/metrics/reward-histograms.js";
import { addBreakdownOutcomeAt, addOutcomeAt } from "../../core/metrics/run-sums.js";
import type { JudgmentColumns } from "../../core/metrics/setcons.js";
import type { SliceCase } from "../../io/slice.js";
import type { RejectionExample } from "../../report/types.js";
import { ByteSink, utf8 } from "./bytes.js";
import { BREAKDOWN_FIELDS, caseLine, cellKeysOf, cellOutcome, missingExample, rangeCases, rangeRuns, RUN_SUM_FIELDS, writeRunLine } from "./range.js";
import type { RunTable } from "./run-table.js";
import { EXAMPLES_PER_REASON, scoreCase, type ScoredPrediction, type ScoreOptions } from "./score.js";

/** What the aggregation adds up over the (case, run) cells, before metrics are computed from it. */
export interface CellTotals {
  /** Per run, RUN_SUM_FIELDS in order (run r at r · F). */
  sums: Float64Array;
  /** Per breakdown cell (`dimension\0value`), BREAKDOWN_FIELDS per run. */
  cellSums: Map<string, Float64Array>;
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
  const R = table.keys.length;
  const m = cases.length;
  const F = RUN_SUM_FIELDS.length;
  const BF = BREAKDOWN_FIELDS.length;
  const missing = cases.map((c) => missingOf(c, options));
  const missingOutcome = cases.map((c, k) => cellOutcome(c, missing[k]!, false, 1, false, 0, 0, 0, 0));

  // The kept lines per case (positions among `cases`; runs ascending) and per run (cases ascending).
  const byCase = table.entriesByCase();
  const caseStart = new Int32Array(m + 1);
  for (let k = 0; k < m; k++) {
    const i = cases[k]!.index;
    caseStart[k + 1] = caseStart[k]! + byCase.start[i + 1]! - byCase.start[i]!;
  }
  const P = caseStart[m]!;
  const caseRun = new Int32Array(P);
  const caseEntry = new Int32Array(P);
  const runStart = new Int32Array(R + 1);
  for (let k = 0, at = 0; k < m; k++) {
    const i = cases[k]!.index;
    for (let x = byCase.start[i]!; x < byCase.start[i + 1]!; x++, at++) {
      const e = byCase.entries[x]!;
      caseEntry[at] = e;
      caseRun[at] = table.entryRun[e]!;
      runStart[caseRun[at]! + 1]!++;
    }
  }
  for (let r = 0; r < R; r++) runStart[r + 1]! += runStart[r]!;
  const runFill = runStart.slice(0, R);
  const runCase = new Int32Array(P);
  const runEntry = new Int32Array(P);
  for (let k = 0; k < m; k++) {
    for (let at = caseStart[k]!; at < caseStart[k + 1]!; at++) {
      const to = runFill[caseRun[at]!]!++;
      runCase[to] = k;
      runEntry[to] = caseEntry[at]!;
    }
  }
  const outcomeOf = (k: number, e: number): CaseOutcome =>
    cellOutcome(
      cases[k]!,
      missing[k]!,
      true,
      table.reason[e]!,
      table.judgment[e] === 1,
      table.evLength[e]!,
      table.matched[e]!,
      table.coverage[e]!,
      table.rewardAccuracy[e]!,
    );

  // Run sums. Per case range b: the fold of its cases' missing outcomes (what the range adds to a
  // run absent from all of them), and per field the prefix totals over ranges where all are integers.
  const step = rangeCases(R);
  const B = Math.ceil(m / step);
  const rangeMissing = new Float64Array(B * F);
  for (let b = 0; b < B; b++) for (let k = b * step; k < Math.min(m, (b + 1) * step); k++) addOutcomeAt(rangeMissing, b * F, missingOutcome[k]!);
  const integral = new Uint8Array(F).fill(1);
  for (let t = 0; t < B * F; t++) if (!Number.isInteger(rangeMissing[t]!)) integral[t % F] = 0;
  const prefix = new Float64Array((B + 1) * F);
  for (let b = 0; b < B; b++) for (let f = 0; f < F; f++) prefix[(b + 1) * F + f] = prefix[b * F + f]! + rangeMissing[b * F + f]!;
  const sums = into.sums;
  // Adds ranges from … to − 1 (no kept line of the run in them) to run sums at `base`.
  const addMissingRanges = (base: number, from: number, to: number): void => {
    if (from >= to) return;
    for (let f = 0; f < F; f++) {
      let acc = sums[base + f]!;
      if (integral[f] && Number.isInteger(acc)) acc += prefix[to * F + f]! - prefix[from * F + f]!;
      else {
        // Adding zero leaves a sum unchanged (sums here are never −0).
        for (let b = from; b < to; b++) {
          const v = rangeMissing[b * F + f]!;
          if (v !== 0) acc += v;
        }
      }
      sums[base + f] = acc;
    }
  };
  const rangeSum = new Float64Array(F);
  for (let r = 0; r < R; r++) {
    const base = r * F;
    let next = 0;
    let q = runStart[r]!;
    const end = runStart[r + 1]!;
    while (q < end) {
      const b = Math.floor(runCase[q]! / step);
      addMissingRanges(base, next, b);
      rangeSum.fill(0);
      for (let k = b * step; k < Math.min(m, (b + 1) * step); k++) {
        if (q < end && runCase[q] === k) addOutcomeAt(rangeSum, 0, outcomeOf(k, runEntry[q++]!));
        else addOutcomeAt(rangeSum, 0, missingOutcome[k]!);
      }
      for (let f = 0; f < F; f++) sums[base + f]! += rangeSum[f]!;
      next = b + 1;
    }
    addMissingRanges(base, next, B);
  }

  // Breakdown cells count (every field is a count, so the order of additions changes nothing):
  // every run starts from the missing counts of the cell's cases, and each kept line swaps its
  // case's missing outcome for its own.
  const cellsOf = cases.map((c) => cellKeysOf(c));
  const delta = new Float64Array(BF);
  for (let k = 0; k < m; k++) {
    for (const key of cellsOf[k]!) {
      let perRun = into.cellSums.get(key);
      if (!perRun) into.cellSums.set(key, (perRun = new Float64Array(R * BF)));
    }
  }
  for (const [key, perRun] of into.cellSums) {
    const total = new Float64Array(BF);
    for (let k = 0; k < m; k++) if (cellsOf[k]!.includes(key)) addBreakdownOutcomeAt(total, 0, missingOutcome[k]!);
    for (let r = 0; r < R; r++) perRun.set(total, r * BF);
  }
  for (let k = 0; k < m; k++) {
    if (cellsOf[k]!.length === 0) continue;
    const missingCounts = new Float64Array(BF);
    addBreakdownOutcomeAt(missingCounts, 0, missingOutcome[k]!);
    const cells = cellsOf[k]!.map((key) => into.cellSums.get(key)!);
    for (let at = caseStart[k]!; at < caseStart[k + 1]!; at++) {
      delta.fill(0);
      addBreakdownOutcomeAt(delta, 0, outcomeOf(k, caseEntry[at]!));
      const base = caseRun[at]! * BF;
      for (const perRun of cells) for (let f = 0; f < BF; f++) perRun[base + f] = perRun[base + f]! - missingCounts[f]! + delta[f]!;
    }
  }

  // Outcome codes and judgments (absent cells: the missing judgment), reasons, reward histograms.
  const absentCodes = Uint8Array.from(cases, (c, k) => outcomeCode(c.label, missing[k]!.judgment));
  const absentJudgments = Uint8Array.from(missing, (p) => (p.judgment ? 1 : 0));
  for (let r = 0; r < R; r++) {
    into.codes.set(absentCodes, r * m);
    into.judgments.judgment.set(absentJudgments, r * m);
    for (let q = runStart[r]!; q < runStart[r + 1]!; q++) {
      const k = runCase[q]!;
      const e = runEntry[q]!;
      into.codes[r * m + k] = outcomeCode(cases[k]!.label, table.judgment[e] === 1);
      into.judgments.judgment[r * m + k] = table.judgment[e]!;
      into.judgments.present[r * m + k] = 1;
      if (table.reason[e] !== 0) into.reasonCounts[table.reason[e]!]!++;
      countRewards(into.histogramCounts, table.rewardAccuracy[e]!, table.coverage[e]!);
    }
  }
  const missingBins = new Float64Array(REWARD_HISTOGRAM_SLOTS);
  for (let k = 0; k < m; k++) {
    const absent = R - (caseStart[k + 1]! - caseStart[k]!);
    into.reasonCounts[1]! += absent;
    missingBins.fill(0);
    countRewards(missingBins, missing[k]!.rewardAccuracy, missing[k]!.referenceCoverage);
    for (let t = 0; t < REWARD_HISTOGRAM_SLOTS; t++) into.histogramCounts[t]! += missingBins[t]! * absent;
  }
  // The first absent cells in the range path's order: case ranges, run blocks, cases, runs.
  const runStep = Math.max(1, rangeRuns(R));
  search: for (let b = 0; b < B; b++) {
    for (let r0 = 0; r0 < R; r0 += runStep) {
      for (let k = b * step; k < Math.min(m, (b + 1) * step); k++) {
        for (let r = r0; r < Math.min(R, r0 + runStep); r++) {
          if (into.missingExamples.length >= EXAMPLES_PER_REASON) break search;
          if (!into.judgments.present[r * m + k]) into.missingExamples.push(missingExample(cases[k]!, table.keys[r]!));
        }
      }
    }
  }

  // cases.jsonl, sparse layout: the runs line, then per case its case line and the run lines of
  // its kept lines, in run order.
  const keyJson = table.keys.map((key) => utf8(JSON.stringify(key)));
  let out = new ByteSink();
  const flush = async (): Promise<void> => {
    if (out.length === 0) return;
    const bytes = out.take();
    out = new ByteSink();
    await writeBytes(bytes);
  };
  out.bytes(utf8('{"runs":['));
  for (let r = 0; r < R; r++) {
    if (r > 0) out.bytes(utf8(","));
    out.bytes(keyJson[r]!);
    if (out.length >= WRITE_BLOCK) await flush();
  }
  out.bytes(utf8("]}\n"));
  for (let k = 0; k < m; k++) {
    out.bytes(utf8(caseLine(cases[k]!)));
    for (let at = caseStart[k]!; at < caseStart[k + 1]!; at++) {
      const r = caseRun[at]!;
      const e = caseEntry[at]!;
      const ids = table.evidenceOf(r, cases[k]!.index);
      const key = keyJson[r]!;
      writeRunLine(out, key, 0, key.length, table.line[e]!, table.judgment[e] === 1, table.reason[e]!, ids, 0, ids.length, table.coverage[e]!);
      if (out.length >= WRITE_BLOCK) await flush();
    }
  }
  await flush();
}
