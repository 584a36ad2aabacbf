// Aggregates a scored document eval (SPEC §1.4–§1.5): walks cases in slice order × runs in run
// order, writes one cases.jsonl line per (case, run), and accumulates the mergeable per-run sums,
// breakdowns, SetCons, majority vote and intervals. The walk order is fixed, so every float sum is
// added in the same order whatever the worker count or chunk size: reports are byte-identical.
import { bootstrapMacroF1, outcomeCode } from "../core/metrics/bootstrap.js";
import { localizationFields, type CaseOutcome } from "../core/metrics/case-outcome.js";
import {
  addBreakdownOutcome,
  addOutcome,
  breakdownMetrics,
  emptyBreakdownSums,
  emptyRunSums,
  runMetrics,
  type BreakdownSums,
  type RunSums,
} from "../core/metrics/run-sums.js";
import { spreadOf } from "../core/metrics/spread.js";
import { wilsonInterval } from "../core/metrics/wilson.js";
import { computeSetCons, majorityVote, type RunJudgments } from "../core/setcons.js";
import type { SliceCase } from "../io/slice.js";
import type { ConfidenceInterval, MetricValue, RejectionExample } from "../report/types.js";
import { CASE_REASONS, EXAMPLES_PER_REASON, scoreCase, type ScoreOptions } from "./document-score.js";
import type { RunTable } from "./document-table.js";

export const BREAKDOWN_DIMENSIONS = ["scope", "doc_type", "contra_type"] as const;
type Dimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export interface AggregateOptions extends ScoreOptions {
  seed: number;
  bootstrap: number;
  flippedCap: number;
  /** Slice file name for `missing_prediction` example locations. */
  sliceWhere?: (c: SliceCase) => string;
}

export interface Aggregate {
  metrics: Record<string, MetricValue>;
  runs: Record<string, Record<string, MetricValue>>;
  spread: Record<string, { std: number; min: number; max: number }>;
  ci: Record<string, ConfidenceInterval>;
  breakdowns: Record<string, Record<string, Record<string, MetricValue>>>;
  setcons: Record<string, unknown> | null;
  setconsReason: string | null;
  majority: Record<string, MetricValue> | null;
  /** Per-case reason → count (summed over runs; missing_prediction once per case and run). */
  reasons: Map<string, number>;
  missingExamples: RejectionExample[];
  invalid: { count: number; total: number };
  casesScored: number;
}

function dimensionValue(c: SliceCase, dim: Dimension): string | null {
  return dim === "scope" ? c.scope : dim === "doc_type" ? c.docType : c.contraType;
}

/** The breakdown cells a case falls in: `dimension\0value` for each dimension it has a value for. */
function cellKeysOf(c: SliceCase): string[] {
  const keys: string[] = [];
  for (const dim of BREAKDOWN_DIMENSIONS) {
    const value = dimensionValue(c, dim);
    if (value !== null) keys.push(`${dim}\u0000${value}`);
  }
  return keys;
}

/** The case-level, run-independent part of a cases.jsonl line, serialised once per case. */
function caseSuffix(c: SliceCase): string {
  return (
    `,"gold_sentence_ids":${JSON.stringify(c.gold)},"sentence_count":${c.sentences.length}` +
    `,"gold_evidence_count":${c.gold.length},"scope":${JSON.stringify(c.scope)}` +
    `,"doc_type":${JSON.stringify(c.docType)},"contra_type":${JSON.stringify(c.contraType)}` +
    `,"fields":${JSON.stringify(c.extra)}}\n`
  );
}

function jsonBool(value: boolean | null): string {
  return value === null ? "null" : value ? "true" : "false";
}

export async function aggregateDocumentEval(
  cases: readonly SliceCase[],
  table: RunTable,
  options: AggregateOptions,
  /** Returns a promise only when the consumer needs the caller to wait (back-pressure). */
  writeLine: (text: string) => Promise<void> | undefined,
): Promise<Aggregate> {
  const runCount = table.runs.length;
  const m = cases.length;
  const sums: RunSums[] = table.runs.map(() => emptyRunSums());
  // Breakdown cells are numbered once (sorted "dimension\0value" keys); each case knows its cells.
  const cellKeys = [...new Set(cases.flatMap((c) => cellKeysOf(c)))].sort();
  const cellIndex = new Map(cellKeys.map((key, id) => [key, id]));
  const breakdownSums: BreakdownSums[][] = table.runs.map(() => cellKeys.map(() => emptyBreakdownSums()));
  const labels = new Uint8Array(m);
  const codes = table.runs.map(() => new Uint8Array(m));
  const judgments: RunJudgments[] = table.runs.map(() => ({ present: new Uint8Array(m), judgment: new Uint8Array(m) }));
  const reasonCounts = new Float64Array(CASE_REASONS.length);
  const missingExamples: RejectionExample[] = [];
  const runKeyJson = table.runs.map((cols) => JSON.stringify(cols.key));
  let invalid = 0;

  for (let k = 0; k < m; k++) {
    const c = cases[k]!;
    const i = c.index;
    labels[k] = c.label ? 1 : 0;
    const prefix = `{"case_id":${JSON.stringify(c.id)},"case_index":${i},"label":${c.label},"run":`;
    const suffix = caseSuffix(c);
    const cells = cellKeysOf(c).map((key) => cellIndex.get(key)!);
    const missing = runCount > 0 ? scoreCase(c, null, options) : null;
    const missingEvidence = missing ? missing.evidence.join(",") : "";
    for (let r = 0; r < runCount; r++) {
      const cols = table.runs[r]!;
      const line = cols.line[i]!;
      const present = line !== 0;
      const reasonIdx = present ? cols.reason[i]! : 1;
      const reason = CASE_REASONS[reasonIdx]!;
      const judgment = present ? cols.judgment[i] === 1 : missing!.judgment;
      const outcome: CaseOutcome = {
        label: c.label,
        judgment,
        formatValid: reasonIdx === 0,
        predictedCount: present ? cols.evLength[i]! : missing!.evidence.length,
        matched: present ? cols.matched[i]! : missing!.matched,
        goldCount: c.gold.length,
        referenceCoverage: present ? cols.coverage[i]! : missing!.referenceCoverage,
        rewardAccuracy: present ? cols.rewardAccuracy[i]! : missing!.rewardAccuracy,
        rewardFormat: reasonIdx === 0 ? 1 : 0,
      };
      addOutcome(sums[r]!, outcome);
      const runCells = breakdownSums[r]!;
      for (const cell of cells) addBreakdownOutcome(runCells[cell]!, outcome);
      codes[r]![k] = outcomeCode(c.label, judgment);
      judgments[r]!.present[k] = present ? 1 : 0;
      judgments[r]!.judgment[k] = judgment ? 1 : 0;
      if (reasonIdx !== 0) {
        invalid++;
        reasonCounts[reasonIdx]!++;
        if (!present && missingExamples.length < EXAMPLES_PER_REASON) {
          missingExamples.push({
            where: options.sliceWhere?.(c) ?? c.where,
            reason: reason!,
            message: `no prediction for case ${JSON.stringify(c.id)} in run ${runKeyJson[r]}`,
          });
        }
      }
      const loc = localizationFields(outcome);
      const pending = writeLine(
        `${prefix}${runKeyJson[r]},"line":${present ? line : "null"},"judgment":${judgment}` +
          `,"format_valid":${reasonIdx === 0},"reason":${reason === null ? "null" : `"${reason}"`}` +
          `,"evidence_sentence_ids":[${present ? table.evidenceText(r, i) : missingEvidence}],"judgment_correct":${judgment === c.label}` +
          `,"localization_hit":${jsonBool(loc.localization_hit)},"exact_localization":${jsonBool(loc.exact_localization)}` +
          `,"evidence_precision":${loc.evidence_precision}` +
          `,"evidence_recall":${loc.evidence_recall},"reward_accuracy":${outcome.rewardAccuracy}` +
          `,"reference_coverage":${outcome.referenceCoverage},"reward_format":${outcome.rewardFormat}` +
          `,"matched_evidence_count":${outcome.matched}${suffix}`,
      );
      if (pending) await pending;
    }
  }
  const reasons = new Map<string, number>();
  CASE_REASONS.forEach((reason, idx) => {
    if (reason !== null && reasonCounts[idx]! > 0) reasons.set(reason, reasonCounts[idx]!);
  });

  const runs: Record<string, Record<string, MetricValue>> = {};
  const perRun = sums.map((s) => runMetrics(s));
  table.runs.forEach((cols, r) => (runs[cols.key] = perRun[r]!));
  const metrics: Record<string, MetricValue> = {};
  const spread: Record<string, { std: number; min: number; max: number }> = {};
  for (const name of Object.keys(runMetrics(emptyRunSums()))) {
    const s = spreadOf(perRun.map((row) => row[name]!));
    metrics[name] = s.mean;
    spread[name] = { std: s.std, min: s.min, max: s.max };
  }

  const pooled = emptyRunSums();
  for (const s of sums) for (const key of Object.keys(pooled) as (keyof RunSums)[]) pooled[key] += s[key];
  const wilson = (successes: number, n: number): ConfidenceInterval => ({ ...wilsonInterval(successes, n), method: "wilson", n });
  const macro = bootstrapMacroF1(labels, codes, options.seed, options.bootstrap);
  const ci: Record<string, ConfidenceInterval> = {
    accuracy: wilson(pooled.tp + pooled.tn, pooled.cases),
    localization_recall: wilson(pooled.localizationHits, pooled.tp + pooled.fn),
    format_valid_rate: wilson(pooled.formatValid, pooled.cases),
    macro_f1: { low: macro.low, high: macro.high, method: "bootstrap", n: macro.n, seed: macro.seed, resamples: macro.resamples },
  };

  const breakdowns: Record<string, Record<string, Record<string, MetricValue>>> = {};
  cellKeys.forEach((key, cell) => {
    const [dim, value] = key.split("\u0000") as [string, string];
    const rows = breakdownSums.map((runCells) => breakdownMetrics(runCells[cell]!));
    const metricsOfCell: Record<string, MetricValue> = {};
    for (const name of Object.keys(breakdownMetrics(emptyBreakdownSums()))) {
      metricsOfCell[name] = spreadOf(rows.map((row) => row[name]!)).mean;
    }
    (breakdowns[dim] ??= {})[value] = metricsOfCell;
  });
  // Dimensions in their fixed order, whatever order the sorted cell keys gave.
  const orderedBreakdowns: typeof breakdowns = {};
  for (const dim of BREAKDOWN_DIMENSIONS) if (breakdowns[dim]) orderedBreakdowns[dim] = breakdowns[dim]!;

  const setconsOutcome = computeSetCons({
    caseIds: cases.map((c) => c.id),
    runs: judgments,
    evidenceOf: (r, k) => table.evidenceOf(r, cases[k]!.index),
    flippedCap: options.flippedCap,
  });
  const setcons = "reason" in setconsOutcome ? null : (setconsOutcome as unknown as Record<string, unknown>);
  return {
    metrics,
    runs,
    spread,
    ci,
    breakdowns: orderedBreakdowns,
    setcons,
    setconsReason: "reason" in setconsOutcome ? setconsOutcome.reason : null,
    majority: runCount > 0 ? majorityVote(labels, judgments) : null,
    reasons,
    missingExamples,
    invalid: { count: invalid, total: m * runCount },
    casesScored: m * runCount,
  };
}
