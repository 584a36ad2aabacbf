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
  writeLine: (text: string) => Promise<void> | void,
): Promise<Aggregate> {
  const runCount = table.runs.length;
  const m = cases.length;
  const sums: RunSums[] = table.runs.map(() => emptyRunSums());
  const breakdownSums: Map<string, BreakdownSums>[] = table.runs.map(() => new Map());
  const usedDimensions = new Set<Dimension>();
  const labels = new Uint8Array(m);
  const codes = table.runs.map(() => new Uint8Array(m));
  const judgments: RunJudgments[] = table.runs.map(() => ({ present: new Uint8Array(m), judgment: new Uint8Array(m) }));
  const reasons = new Map<string, number>();
  const missingExamples: RejectionExample[] = [];
  let invalid = 0;

  for (let k = 0; k < m; k++) {
    const c = cases[k]!;
    const i = c.index;
    labels[k] = c.label ? 1 : 0;
    const prefix = `{"case_id":${JSON.stringify(c.id)},"case_index":${i},"label":${c.label},"run":`;
    const suffix = caseSuffix(c);
    const missing = runCount > 0 ? scoreCase(c, null, options) : null;
    for (const dim of BREAKDOWN_DIMENSIONS) if (dimensionValue(c, dim) !== null) usedDimensions.add(dim);
    for (let r = 0; r < runCount; r++) {
      const cols = table.runs[r]!;
      const line = cols.line[i]!;
      const present = line !== 0;
      const reasonIdx = present ? cols.reason[i]! : 1;
      const reason = CASE_REASONS[reasonIdx]!;
      const judgment = present ? cols.judgment[i] === 1 : missing!.judgment;
      const evidence = present ? table.evidenceOf(r, i) : missing!.evidence;
      const outcome: CaseOutcome = {
        label: c.label,
        judgment,
        formatValid: reason === null,
        predictedCount: evidence.length,
        matched: present ? cols.matched[i]! : missing!.matched,
        goldCount: c.gold.length,
        referenceCoverage: present ? cols.coverage[i]! : missing!.referenceCoverage,
        rewardAccuracy: present ? cols.rewardAccuracy[i]! : missing!.rewardAccuracy,
        rewardFormat: reason === null ? 1 : 0,
      };
      addOutcome(sums[r]!, outcome);
      for (const dim of BREAKDOWN_DIMENSIONS) {
        const value = dimensionValue(c, dim);
        if (value === null) continue;
        const key = `${dim}\u0000${value}`;
        let cell = breakdownSums[r]!.get(key);
        if (!cell) breakdownSums[r]!.set(key, (cell = emptyBreakdownSums()));
        addBreakdownOutcome(cell, outcome);
      }
      codes[r]![k] = outcomeCode(c.label, judgment);
      judgments[r]!.present[k] = present ? 1 : 0;
      judgments[r]!.judgment[k] = judgment ? 1 : 0;
      if (reason !== null) {
        invalid++;
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        if (!present && missingExamples.length < EXAMPLES_PER_REASON) {
          missingExamples.push({
            where: options.sliceWhere?.(c) ?? c.where,
            reason,
            message: `no prediction for case ${JSON.stringify(c.id)} in run ${JSON.stringify(cols.key)}`,
          });
        }
      }
      const loc = localizationFields(outcome);
      await writeLine(
        `${prefix}${JSON.stringify(cols.key)},"line":${present ? line : "null"},"judgment":${judgment}` +
          `,"format_valid":${reason === null},"reason":${reason === null ? "null" : `"${reason}"`}` +
          `,"evidence_sentence_ids":[${evidence.join(",")}],"judgment_correct":${judgment === c.label}` +
          `,"localization_hit":${jsonBool(loc.localization_hit)},"exact_localization":${jsonBool(loc.exact_localization)}` +
          `,"evidence_precision":${loc.evidence_precision}` +
          `,"evidence_recall":${loc.evidence_recall},"reward_accuracy":${outcome.rewardAccuracy}` +
          `,"reference_coverage":${outcome.referenceCoverage},"reward_format":${outcome.rewardFormat}` +
          `,"matched_evidence_count":${outcome.matched}${suffix}`,
      );
    }
  }

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
  const cellKeys = [...new Set(breakdownSums.flatMap((map) => [...map.keys()]))].sort();
  for (const dim of BREAKDOWN_DIMENSIONS) {
    if (!usedDimensions.has(dim)) continue;
    breakdowns[dim] = {};
    for (const key of cellKeys) {
      const [d, value] = key.split("\u0000") as [string, string];
      if (d !== dim) continue;
      const rows = breakdownSums.map((map) => breakdownMetrics(map.get(key) ?? emptyBreakdownSums()));
      const cell: Record<string, MetricValue> = {};
      for (const name of Object.keys(rows[0]!)) cell[name] = spreadOf(rows.map((row) => row[name]!)).mean;
      breakdowns[dim]![value] = cell;
    }
  }

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
    breakdowns,
    setcons,
    setconsReason: "reason" in setconsOutcome ? setconsOutcome.reason : null,
    majority: runCount > 0 ? majorityVote(labels, judgments) : null,
    reasons,
    missingExamples,
    invalid: { count: invalid, total: m * runCount },
    casesScored: m * runCount,
  };
}
