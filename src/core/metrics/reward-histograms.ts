// Distributions of the document rewards over (case, run) predictions, for report.histograms
// (docs/reports.md, "Output files"). The bins are fixed, so counts from ranges, workers and shards merge by adding them
// slot by slot. All histograms share one flat count array: histogram h owns HISTOGRAMS[h].offset …
// offset + labels.length.
import { REWARD_RANGES } from "../document/reward-ranges.js";

/** The accuracy reward takes exactly −1 (its least), 0, 1, or a value in (1, 2] (1 + matched / |gold|, up to its greatest). */
const [ACCURACY_LEAST, ACCURACY_GREATEST] = REWARD_RANGES.accuracy;
const ACCURACY_LABELS = [String(ACCURACY_LEAST), "0", "1", "(1, 1.5]", `(1.5, ${ACCURACY_GREATEST}]`];

function accuracyBin(value: number): number {
  if (value === ACCURACY_LEAST) return 0;
  if (value === 0) return 1;
  if (value === 1) return 2;
  if (value > 1 && value <= 1.5) return 3;
  if (value > 1.5 && value <= ACCURACY_GREATEST) return 4;
  throw new RangeError(`accuracy reward ${value} is none of ${ACCURACY_LEAST}, 0, 1 or (1, ${ACCURACY_GREATEST}]`);
}

/** Reference coverage is in [0, 1]: ten bins [k/10, (k+1)/10), the last one closed. */
const COVERAGE_EDGES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const COVERAGE_LABELS = [
  "[0, 0.1)",
  "[0.1, 0.2)",
  "[0.2, 0.3)",
  "[0.3, 0.4)",
  "[0.4, 0.5)",
  "[0.5, 0.6)",
  "[0.6, 0.7)",
  "[0.7, 0.8)",
  "[0.8, 0.9)",
  "[0.9, 1]",
];

function coverageBin(value: number): number {
  const [least, greatest] = REWARD_RANGES.referenceCoverage;
  if (!(value >= least && value <= greatest)) throw new RangeError(`reference coverage ${value} is outside [${least}, ${greatest}]`);
  // Compared with the edges as written (not floor(10·v), whose rounding can move a value across one).
  let bin = 0;
  while (bin < COVERAGE_EDGES.length && value >= COVERAGE_EDGES[bin]!) bin++;
  return bin;
}

interface HistogramDef {
  /** The report key: the cases.jsonl field it counts. */
  name: string;
  labels: readonly string[];
  offset: number;
}

const HISTOGRAMS: readonly HistogramDef[] = [
  { name: "reward_accuracy", labels: ACCURACY_LABELS, offset: 0 },
  { name: "reference_coverage", labels: COVERAGE_LABELS, offset: ACCURACY_LABELS.length },
];

/** Length of the flat count array. */
export const REWARD_HISTOGRAM_SLOTS = ACCURACY_LABELS.length + COVERAGE_LABELS.length;

/** Counts one prediction's rewards into `counts` (REWARD_HISTOGRAM_SLOTS long). */
export function countRewards(counts: Float64Array, rewardAccuracy: number, referenceCoverage: number): void {
  counts[HISTOGRAMS[0]!.offset + accuracyBin(rewardAccuracy)]!++;
  counts[HISTOGRAMS[1]!.offset + coverageBin(referenceCoverage)]!++;
}

/** The labelled bins, in display order, of a flat count array. */
export function rewardHistograms(counts: Float64Array): Record<string, { bin: string; count: number }[]> {
  const out: Record<string, { bin: string; count: number }[]> = {};
  for (const h of HISTOGRAMS) out[h.name] = h.labels.map((bin, i) => ({ bin, count: counts[h.offset + i]! }));
  return out;
}
