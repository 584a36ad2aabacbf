// Judgment-level metrics of a binary confusion matrix (docs/eval.md, "Metrics"): precision and recall divide by
// max(1, denominator), F1 is 0 when P + R = 0, macro-F1 is the mean of the two classes' F1.

export interface BinaryCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function f1(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

export function macroF1(c: BinaryCounts): number {
  const posF1 = f1(c.tp / Math.max(1, c.tp + c.fp), c.tp / Math.max(1, c.tp + c.fn));
  const negF1 = f1(c.tn / Math.max(1, c.tn + c.fn), c.tn / Math.max(1, c.tn + c.fp));
  return (posF1 + negF1) / 2;
}

/** The named judgment metrics' keys, in the order the report lists them. */
export const BINARY_METRIC_NAMES = [
  "accuracy",
  "positive_precision",
  "positive_recall",
  "positive_f1",
  "negative_precision",
  "negative_recall",
  "negative_f1",
  "macro_f1",
  "tp",
  "fp",
  "fn",
  "tn",
] as const;

/** The named judgment metrics, keys as the report uses them. */
export function binaryMetrics(c: BinaryCounts): Record<string, number> {
  const values = new Float64Array(BINARY_METRIC_NAMES.length);
  binaryMetricValues(c.tp, c.fp, c.fn, c.tn, values, 0);
  return namedValues(BINARY_METRIC_NAMES, values);
}

/** binaryMetrics' values into out[at …] in BINARY_METRIC_NAMES order (no object: this runs once per run). */
export function binaryMetricValues(tp: number, fp: number, fn: number, tn: number, out: Float64Array, at: number): void {
  const cases = tp + fp + fn + tn;
  const positivePrecision = tp / Math.max(1, tp + fp);
  const positiveRecall = tp / Math.max(1, tp + fn);
  const negativePrecision = tn / Math.max(1, tn + fn);
  const negativeRecall = tn / Math.max(1, tn + fp);
  const positiveF1 = f1(positivePrecision, positiveRecall);
  const negativeF1 = f1(negativePrecision, negativeRecall);
  out[at] = cases > 0 ? (tp + tn) / cases : 0;
  out[at + 1] = positivePrecision;
  out[at + 2] = positiveRecall;
  out[at + 3] = positiveF1;
  out[at + 4] = negativePrecision;
  out[at + 5] = negativeRecall;
  out[at + 6] = negativeF1;
  out[at + 7] = (positiveF1 + negativeF1) / 2;
  out[at + 8] = tp;
  out[at + 9] = fp;
  out[at + 10] = fn;
  out[at + 11] = tn;
}

/** `{ names[k]: values[k] }` in the order of `names`. */
export function namedValues(names: readonly string[], values: Float64Array): Record<string, number> {
  const named: Record<string, number> = {};
  for (let k = 0; k < names.length; k++) named[names[k]!] = values[k]!;
  return named;
}
