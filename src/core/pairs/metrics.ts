// Pair metrics (docs/pairs.md, "Default gates", docs/comparable-reports.md): every value is a function of a confusion matrix and
// the unit prices, so it can be recomputed exactly from merged tallies.
import { dict } from "../dict.js";
import { PAIR_CLASSES, type RevisionClass } from "./classes.js";
import { costMatrix, totalCost, type CostMatrix, type UnitPrices } from "./costs.js";
import { rate } from "../metrics/ratio.js";
import { labelledCount, sortedKinds, type Confusion, type PairTally } from "./tally.js";

/** Headline pair metric names, exactly as docs/comparable-reports.md lists them. */
export const PAIR_HEADLINE_METRICS = [
  "revision_cost",
  "revision_cost_total",
  "update_precision",
  "update_recall",
  "macro_f1",
  "accuracy",
  "restatement_to_update",
  "restatement_to_update_rate",
  "distinct_to_update",
  "distinct_to_update_rate",
] as const;

function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

export interface ClassScores {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision and recall use max(1, denominator) (docs/comparable-reports.md). */
export function classScores(confusion: Confusion, cls: RevisionClass): ClassScores {
  const tp = confusion[cls][cls];
  let predicted = 0;
  let gold = 0;
  for (const other of PAIR_CLASSES) {
    predicted += confusion[other][cls];
    gold += confusion[cls][other];
  }
  const precision = tp / Math.max(1, predicted);
  const recall = tp / Math.max(1, gold);
  return { precision, recall, f1: f1(precision, recall) };
}

function goldCount(confusion: Confusion, cls: RevisionClass): number {
  let n = 0;
  for (const pred of PAIR_CLASSES) n += confusion[cls][pred];
  return n;
}

/**
 * All pair metrics of one confusion matrix: the docs/comparable-reports.md headline keys, then per-class
 * `<class>_precision`, `<class>_recall`, `<class>_f1`.
 */
export function pairMetrics(confusion: Confusion, matrix: CostMatrix): Record<string, number> {
  const labelled = labelledCount(confusion);
  const scores = Object.fromEntries(PAIR_CLASSES.map((c) => [c, classScores(confusion, c)])) as Record<RevisionClass, ClassScores>;
  const correct = PAIR_CLASSES.reduce((sum, c) => sum + confusion[c][c], 0);
  const total = totalCost(confusion, matrix);
  const restatementToUpdate = confusion.restatement.update;
  const distinctToUpdate = confusion.distinct.update;
  const metrics: Record<string, number> = {
    revision_cost: rate(total, labelled),
    revision_cost_total: total,
    update_precision: scores.update.precision,
    update_recall: scores.update.recall,
    macro_f1: (scores.restatement.f1 + scores.update.f1 + scores.distinct.f1) / 3,
    accuracy: rate(correct, labelled),
    restatement_to_update: restatementToUpdate,
    restatement_to_update_rate: rate(restatementToUpdate, goldCount(confusion, "restatement")),
    distinct_to_update: distinctToUpdate,
    distinct_to_update_rate: rate(distinctToUpdate, goldCount(confusion, "distinct")),
  };
  for (const c of PAIR_CLASSES) {
    metrics[`${c}_precision`] = scores[c].precision;
    metrics[`${c}_recall`] = scores[c].recall;
    metrics[`${c}_f1`] = scores[c].f1;
  }
  return metrics;
}

/**
 * Per `kind` (in sorted order): the pair count, gold updates and how many were detected (the
 * reference reports "value 17/22"), update precision/recall, the two costly confusions, accuracy
 * and revision_cost. The full metric set of a kind follows from `confusion_by_kind`.
 */
export function pairMetricsByKind(tally: PairTally, matrix: CostMatrix): Record<string, Record<string, number>> {
  const out = dict<Record<string, number>>();
  for (const kind of sortedKinds(tally)) {
    const confusion = tally.byKind[kind]!;
    const m = pairMetrics(confusion, matrix);
    out[kind] = {
      pairs: labelledCount(confusion),
      updates: goldCount(confusion, "update"),
      updates_detected: confusion.update.update,
      update_precision: m.update_precision!,
      update_recall: m.update_recall!,
      restatement_to_update: m.restatement_to_update!,
      distinct_to_update: m.distinct_to_update!,
      accuracy: m.accuracy!,
      revision_cost: m.revision_cost!,
    };
  }
  return out;
}

export interface RevisionCostCell {
  gold: RevisionClass;
  predicted: RevisionClass;
  count: number;
  unit_cost: number;
  cost: number;
}

/** The `revision_cost` detail object of report.json: prices, matrix, and each cell's count and cost. */
export interface RevisionCostDetail {
  unit_prices: UnitPrices;
  matrix: CostMatrix;
  cells: RevisionCostCell[];
  total: number;
  labelled_pairs: number;
  mean: number;
}

export function revisionCostDetail(confusion: Confusion, prices: UnitPrices): RevisionCostDetail {
  const matrix = costMatrix(prices);
  const cells: RevisionCostCell[] = [];
  for (const gold of PAIR_CLASSES) {
    for (const predicted of PAIR_CLASSES) {
      const count = confusion[gold][predicted];
      const unitCost = matrix[gold][predicted];
      cells.push({ gold, predicted, count, unit_cost: unitCost, cost: count * unitCost });
    }
  }
  const total = totalCost(confusion, matrix);
  const labelled = labelledCount(confusion);
  return { unit_prices: { ...prices }, matrix, cells, total, labelled_pairs: labelled, mean: rate(total, labelled) };
}
