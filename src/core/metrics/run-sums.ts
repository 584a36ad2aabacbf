// Mergeable per-run sums (SPEC §1.4): every document metric of one run is a ratio of these, so
// chunks, workers and shards combine by adding fields. Float fields are summed in a fixed order by
// the caller (slice order), which keeps reports byte-identical however the work was split.
import { binaryMetrics } from "./binary.js";
import { localizationFields, type CaseOutcome } from "./case-outcome.js";
import { rate } from "./ratio.js";

export interface RunSums {
  cases: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Gold-positive cases whose prediction shares a sentence with gold. */
  localizationHits: number;
  exactLocalizations: number;
  /** Σ |gold ∩ pred| / |pred| over gold-positive, predicted-positive cases, and their count. */
  localizationPrecisionSum: number;
  localizationPrecisionCases: number;
  formatValid: number;
  referenceCoverageSum: number;
  rewardAccuracySum: number;
  rewardFormatSum: number;
}

export function emptyRunSums(): RunSums {
  return {
    cases: 0,
    tp: 0,
    fp: 0,
    fn: 0,
    tn: 0,
    localizationHits: 0,
    exactLocalizations: 0,
    localizationPrecisionSum: 0,
    localizationPrecisionCases: 0,
    formatValid: 0,
    referenceCoverageSum: 0,
    rewardAccuracySum: 0,
    rewardFormatSum: 0,
  };
}

export function addOutcome(sums: RunSums, o: CaseOutcome): void {
  sums.cases++;
  if (o.label) {
    if (o.judgment) sums.tp++;
    else sums.fn++;
    const loc = localizationFields(o);
    if (loc.localization_hit) sums.localizationHits++;
    if (loc.exact_localization) sums.exactLocalizations++;
    if (o.judgment && o.predictedCount > 0) {
      sums.localizationPrecisionSum += loc.evidence_precision!;
      sums.localizationPrecisionCases++;
    }
  } else if (o.judgment) sums.fp++;
  else sums.tn++;
  if (o.formatValid) sums.formatValid++;
  sums.referenceCoverageSum += o.referenceCoverage;
  sums.rewardAccuracySum += o.rewardAccuracy;
  sums.rewardFormatSum += o.rewardFormat;
}

export function mergeRunSums(into: RunSums, other: RunSums): void {
  for (const key of Object.keys(into) as (keyof RunSums)[]) into[key] += other[key];
}

/** The per-run metric table; key names are the report contract (SPEC §1.4). */
export function runMetrics(s: RunSums): Record<string, number> {
  const positives = s.tp + s.fn;
  return {
    cases: s.cases,
    ...binaryMetrics(s),
    localization_recall: rate(s.localizationHits, positives),
    localization_precision: rate(s.localizationPrecisionSum, s.localizationPrecisionCases),
    exact_localization: rate(s.exactLocalizations, positives),
    format_valid_rate: rate(s.formatValid, s.cases),
    format_invalid: s.cases - s.formatValid,
    reference_coverage_mean: rate(s.referenceCoverageSum, s.cases),
    reward_accuracy_mean: rate(s.rewardAccuracySum, s.cases),
    reward_format_mean: rate(s.rewardFormatSum, s.cases),
  };
}

/** Breakdown cell sums (accuracy, positive recall, localization recall by scope/doc_type/…). */
export interface BreakdownSums {
  cases: number;
  correct: number;
  positives: number;
  truePositives: number;
  localizationHits: number;
}

export function emptyBreakdownSums(): BreakdownSums {
  return { cases: 0, correct: 0, positives: 0, truePositives: 0, localizationHits: 0 };
}

export function addBreakdownOutcome(sums: BreakdownSums, o: CaseOutcome): void {
  sums.cases++;
  if (o.judgment === o.label) sums.correct++;
  if (o.label) {
    sums.positives++;
    if (o.judgment) sums.truePositives++;
    if (o.matched > 0) sums.localizationHits++;
  }
}

export function breakdownMetrics(s: BreakdownSums): Record<string, number> {
  return {
    cases: s.cases,
    accuracy: rate(s.correct, s.cases),
    positive_recall: rate(s.truePositives, s.positives),
    localization_recall: rate(s.localizationHits, s.positives),
  };
}
