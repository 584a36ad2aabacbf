// Choosing among sweep rows: the best config under the gates, and the Pareto front.
import type { ClassifierConfig } from "../classifier/index.js";
import { distanceFromDefault } from "./sweep-grid.js";

export interface SweepCandidate {
  config: ClassifierConfig;
  revisionCost: number;
  updateRecall: number;
  restatementToUpdateRate: number;
  passedAllGates: boolean;
}

/**
 * Index of the config with the lowest revision_cost among those passing every gate; ties go to the
 * config nearest the default (see `distanceFromDefault`), then to the earlier row. null when no
 * config passes.
 */
export function bestConfigIndex(rows: readonly SweepCandidate[]): number | null {
  let best: number | null = null;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!row.passedAllGates) continue;
    if (best === null || isBetter(row, rows[best]!)) best = i;
  }
  return best;
}

function isBetter(a: SweepCandidate, b: SweepCandidate): boolean {
  if (a.revisionCost !== b.revisionCost) return a.revisionCost < b.revisionCost;
  const [da, ra] = distanceFromDefault(a.config);
  const [db, rb] = distanceFromDefault(b.config);
  if (da !== db) return da < db;
  return ra < rb; // equal distance: the earlier row (already `b`) stays
}

/**
 * Rows no other row dominates on (update recall ↑, restatement→update rate ↓), over all rows
 * whether or not they pass the gates. Rows with identical points are all kept. Ordered by recall
 * descending, then rate ascending, then row order. O(n log n).
 */
export function paretoFront(rows: readonly SweepCandidate[]): number[] {
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const a = rows[i]!;
    const b = rows[j]!;
    if (a.updateRecall !== b.updateRecall) return b.updateRecall - a.updateRecall;
    if (a.restatementToUpdateRate !== b.restatementToUpdateRate) return a.restatementToUpdateRate - b.restatementToUpdateRate;
    return i - j;
  });
  const front: number[] = [];
  let bestRateAbove = Infinity; // lowest rate among rows with strictly higher recall
  let k = 0;
  while (k < order.length) {
    const recall = rows[order[k]!]!.updateRecall;
    const groupMin = rows[order[k]!]!.restatementToUpdateRate;
    while (k < order.length && rows[order[k]!]!.updateRecall === recall) {
      const index = order[k]!;
      if (rows[index]!.restatementToUpdateRate === groupMin && groupMin < bestRateAbove) front.push(index);
      k++;
    }
    bestRateAbove = Math.min(bestRateAbove, groupMin);
  }
  return front;
}
