// The sweep's chunk task for the shared pool (src/pool): the grid is sent once per worker, then
// each chunk of labelled pairs comes back as one tally per config.
import { tallyConfigs, type PairTally, type SweepPair } from "../../core/pairs/index.js";
import type { ClassifierConfig } from "../../core/classifier/index.js";

export interface SweepInit {
  configs: ClassifierConfig[];
}

export function init(initData: unknown): ClassifierConfig[] {
  return (initData as SweepInit).configs;
}

export function processChunk(configs: ClassifierConfig[], pairs: SweepPair[]): PairTally[] {
  return tallyConfigs(pairs, configs);
}
