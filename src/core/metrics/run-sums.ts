// Mergeable per-run sums (docs/eval.md, "Metrics"): every document metric of one run is a ratio of these, so
// chunks, workers and shards combine by adding fields. Float fields are summed in a fixed order by
// the caller (slice order), which keeps reports byte-identical however the work was split.
import { BINARY_METRIC_NAMES, binaryMetricValues, namedValues } from "./binary.js";
import { type CaseOutcome, evidencePrecision, exactLocalization, localizationHit } from "./case-outcome.js";
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

/** The flat form's field order: a run's sums at `at + RUN_SUM_FIELDS.indexOf(field)` of a Float64Array. */
export const RUN_SUM_FIELDS = Object.keys(emptyRunSums()) as (keyof RunSums)[];
const RS = Object.fromEntries(RUN_SUM_FIELDS.map((field, f) => [field, f])) as Record<keyof RunSums, number>;

/** Counts of at most a given size (cases, per run): 2 bytes each while they fit, else 4. */
export type CountColumn = Uint16Array | Uint32Array;

/** A zeroed count column of `length` counts, each at most `maxCount`. */
export function countColumn(length: number, maxCount: number): CountColumn {
  return maxCount <= 0xffff ? new Uint16Array(length) : new Uint32Array(length);
}

/** The RUN_SUM_FIELDS that are sums of fractions; the others only ever grow by 1 (counts of cases). */
const FRACTION_FIELDS: readonly (keyof RunSums)[] = ["localizationPrecisionSum", "referenceCoverageSum", "rewardAccuracySum", "rewardFormatSum"];
/** RUN_SUM_FIELDS indices of the count fields and of the fraction fields, each in field order. */
const COUNT_INDEX = Int32Array.from(RUN_SUM_FIELDS.flatMap((field, f) => (FRACTION_FIELDS.includes(field) ? [] : [f])));
const FRACTION_INDEX = Int32Array.from(RUN_SUM_FIELDS.flatMap((field, f) => (FRACTION_FIELDS.includes(field) ? [f] : [])));
const COUNT_FIELDS = COUNT_INDEX.length;
const FRACTIONS = FRACTION_INDEX.length;

/**
 * The sums of many runs (a million in one eval), dense: the count fields in a count column (no
 * count exceeds the cases summed, `maxCount`), the fraction sums in a Float64Array: 50 bytes a run
 * at up to 65,535 cases instead of 104. A run's sums move in and out as a row in RUN_SUM_FIELDS
 * order; every float stays a float64, so a sum built through the table has the bits of one built
 * in a Float64Array row.
 */
export class RunSumsTable {
  readonly counts: CountColumn;
  readonly fractions: Float64Array;

  constructor(
    readonly runs: number,
    maxCount: number,
  ) {
    this.counts = countColumn(runs * COUNT_FIELDS, maxCount);
    this.fractions = new Float64Array(runs * FRACTIONS);
  }

  /** Run r's sums into row[at …] (RUN_SUM_FIELDS order). */
  load(r: number, row: Float64Array, at = 0): void {
    const { counts, fractions } = this;
    for (let k = 0, c = r * COUNT_FIELDS; k < COUNT_FIELDS; k++) row[at + COUNT_INDEX[k]!] = counts[c + k]!;
    for (let k = 0, x = r * FRACTIONS; k < FRACTIONS; k++) row[at + FRACTION_INDEX[k]!] = fractions[x + k]!;
  }

  /** Sets run r's sums to row[at …]. */
  store(r: number, row: Float64Array, at = 0): void {
    const { counts, fractions } = this;
    for (let k = 0, c = r * COUNT_FIELDS; k < COUNT_FIELDS; k++) counts[c + k] = row[at + COUNT_INDEX[k]!]!;
    for (let k = 0, x = r * FRACTIONS; k < FRACTIONS; k++) fractions[x + k] = row[at + FRACTION_INDEX[k]!]!;
  }

  /** Adds row[at …] to run r's sums, field by field. */
  add(r: number, row: Float64Array, at = 0): void {
    const { counts, fractions } = this;
    for (let k = 0, c = r * COUNT_FIELDS; k < COUNT_FIELDS; k++) counts[c + k]! += row[at + COUNT_INDEX[k]!]!;
    for (let k = 0, x = r * FRACTIONS; k < FRACTIONS; k++) fractions[x + k]! += row[at + FRACTION_INDEX[k]!]!;
  }
}

export function addOutcome(sums: RunSums, o: CaseOutcome): void {
  withFlat(sums, RUN_SUM_FIELDS, (flat) => addOutcomeAt(flat, 0, o));
}

/** addOutcome on the flat form: the run's sums at `sums[at …]` (RUN_SUM_FIELDS order). */
export function addOutcomeAt(sums: Float64Array, at: number, o: CaseOutcome): void {
  sums[at + RS.cases]!++;
  if (o.label) {
    if (o.judgment) sums[at + RS.tp]!++;
    else sums[at + RS.fn]!++;
    if (localizationHit(o)) sums[at + RS.localizationHits]!++;
    if (exactLocalization(o)) sums[at + RS.exactLocalizations]!++;
    if (o.judgment && o.predictedCount > 0) {
      sums[at + RS.localizationPrecisionSum]! += evidencePrecision(o);
      sums[at + RS.localizationPrecisionCases]!++;
    }
  } else if (o.judgment) sums[at + RS.fp]!++;
  else sums[at + RS.tn]!++;
  if (o.formatValid) sums[at + RS.formatValid]!++;
  sums[at + RS.referenceCoverageSum]! += o.referenceCoverage;
  sums[at + RS.rewardAccuracySum]! += o.rewardAccuracy;
  sums[at + RS.rewardFormatSum]! += o.rewardFormat;
}

/** Runs `update` on `object`'s `fields` as a Float64Array and writes them back. */
function withFlat<T>(object: T, fields: readonly (keyof T)[], update: (flat: Float64Array) => void): void {
  const flat = Float64Array.from(fields, (field) => object[field] as number);
  update(flat);
  fields.forEach((field, f) => ((object[field] as number) = flat[f]!));
}

export function mergeRunSums(into: RunSums, other: RunSums): void {
  for (const key of Object.keys(into) as (keyof RunSums)[]) into[key] += other[key];
}

/** The per-run metric table's keys, in report order: the report contract (docs/eval.md, "Metrics"). */
export const RUN_METRIC_NAMES = [
  "cases",
  ...BINARY_METRIC_NAMES,
  "localization_recall",
  "localization_precision",
  "exact_localization",
  "format_valid_rate",
  "format_invalid",
  "reference_coverage_mean",
  "reward_accuracy_mean",
  "reward_format_mean",
] as const;

/** The per-run metric table. */
export function runMetrics(s: RunSums): Record<string, number> {
  const values = new Float64Array(RUN_METRIC_NAMES.length);
  runMetricValues(
    Float64Array.from(RUN_SUM_FIELDS, (field) => s[field]),
    0,
    values,
  );
  return namedValues(RUN_METRIC_NAMES, values);
}

/** runMetrics of the flat sums at sums[at …] into `out`, in RUN_METRIC_NAMES order (no object: this runs once per run). */
export function runMetricValues(sums: Float64Array, at: number, out: Float64Array): void {
  const cases = sums[at + RS.cases]!;
  const tp = sums[at + RS.tp]!;
  const fn = sums[at + RS.fn]!;
  const positives = tp + fn;
  const formatValid = sums[at + RS.formatValid]!;
  out[0] = cases;
  binaryMetricValues(tp, sums[at + RS.fp]!, fn, sums[at + RS.tn]!, out, 1);
  const k = 1 + BINARY_METRIC_NAMES.length;
  out[k] = rate(sums[at + RS.localizationHits]!, positives);
  out[k + 1] = rate(sums[at + RS.localizationPrecisionSum]!, sums[at + RS.localizationPrecisionCases]!);
  out[k + 2] = rate(sums[at + RS.exactLocalizations]!, positives);
  out[k + 3] = rate(formatValid, cases);
  out[k + 4] = cases - formatValid;
  out[k + 5] = rate(sums[at + RS.referenceCoverageSum]!, cases);
  out[k + 6] = rate(sums[at + RS.rewardAccuracySum]!, cases);
  out[k + 7] = rate(sums[at + RS.rewardFormatSum]!, cases);
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

/** The flat form's field order of breakdown sums (as RUN_SUM_FIELDS for run sums). */
export const BREAKDOWN_FIELDS = Object.keys(emptyBreakdownSums()) as (keyof BreakdownSums)[];
const BS = Object.fromEntries(BREAKDOWN_FIELDS.map((field, f) => [field, f])) as Record<keyof BreakdownSums, number>;

export function addBreakdownOutcome(sums: BreakdownSums, o: CaseOutcome): void {
  withFlat(sums, BREAKDOWN_FIELDS, (flat) => addBreakdownOutcomeAt(flat, 0, o));
}

/** addBreakdownOutcome on the flat form (BREAKDOWN_FIELDS order from `at`). */
export function addBreakdownOutcomeAt(sums: Float64Array, at: number, o: CaseOutcome): void {
  sums[at + BS.cases]!++;
  if (o.judgment === o.label) sums[at + BS.correct]!++;
  if (o.label) {
    sums[at + BS.positives]!++;
    if (o.judgment) sums[at + BS.truePositives]!++;
    if (o.matched > 0) sums[at + BS.localizationHits]!++;
  }
}

/** A breakdown cell's metric keys, in report order. */
export const BREAKDOWN_METRIC_NAMES = ["cases", "accuracy", "positive_recall", "localization_recall"] as const;

export function breakdownMetrics(s: BreakdownSums): Record<string, number> {
  const values = new Float64Array(BREAKDOWN_METRIC_NAMES.length);
  breakdownMetricValues(
    Float64Array.from(BREAKDOWN_FIELDS, (field) => s[field]),
    0,
    values,
  );
  return namedValues(BREAKDOWN_METRIC_NAMES, values);
}

/** breakdownMetrics of the flat sums at sums[at …] into `out`, in BREAKDOWN_METRIC_NAMES order. */
export function breakdownMetricValues(sums: ArrayLike<number>, at: number, out: Float64Array): void {
  const cases = sums[at + BS.cases]!;
  const positives = sums[at + BS.positives]!;
  out[0] = cases;
  out[1] = rate(sums[at + BS.correct]!, cases);
  out[2] = rate(sums[at + BS.truePositives]!, positives);
  out[3] = rate(sums[at + BS.localizationHits]!, positives);
}
