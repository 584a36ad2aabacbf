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

/** The named judgment metrics, keys as the report uses them. */
export function binaryMetrics(c: BinaryCounts): Record<string, number> {
  const cases = c.tp + c.fp + c.fn + c.tn;
  const positivePrecision = c.tp / Math.max(1, c.tp + c.fp);
  const positiveRecall = c.tp / Math.max(1, c.tp + c.fn);
  const negativePrecision = c.tn / Math.max(1, c.tn + c.fn);
  const negativeRecall = c.tn / Math.max(1, c.tn + c.fp);
  const positiveF1 = f1(positivePrecision, positiveRecall);
  const negativeF1 = f1(negativePrecision, negativeRecall);
  return {
    accuracy: cases > 0 ? (c.tp + c.tn) / cases : 0,
    positive_precision: positivePrecision,
    positive_recall: positiveRecall,
    positive_f1: positiveF1,
    negative_precision: negativePrecision,
    negative_recall: negativeRecall,
    negative_f1: negativeF1,
    macro_f1: (positiveF1 + negativeF1) / 2,
    tp: c.tp,
    fp: c.fp,
    fn: c.fn,
    tn: c.tn,
  };
}
