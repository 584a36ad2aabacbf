// The sweep's unit of work: a chunk of labelled pairs classified under every config of the grid.
// Each text's features are extracted once and reused for all configs.
import { classifyFeatures, extractFeatures, type ClassifierConfig } from "../classifier/index.js";
import type { RevisionClass } from "./classes.js";
import { addPair, emptyTally, type PairTally } from "./tally.js";

/** What a sweep needs of a pair (plain data: it crosses into worker threads). */
export interface SweepPair {
  newText: string;
  oldText: string;
  gold: RevisionClass;
  kind: string | null;
}

/** One tally per config, in config order. */
export function tallyConfigs(pairs: readonly SweepPair[], configs: readonly ClassifierConfig[]): PairTally[] {
  const tallies = configs.map(() => emptyTally());
  for (const pair of pairs) {
    const newFeatures = extractFeatures(pair.newText);
    const oldFeatures = extractFeatures(pair.oldText);
    for (let c = 0; c < configs.length; c++) {
      const verdict = classifyFeatures(newFeatures, oldFeatures, configs[c]!);
      addPair(tallies[c]!, pair.gold, verdict.class, pair.kind);
    }
  }
  return tallies;
}
