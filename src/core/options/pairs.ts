// The memory-pair classifier and its sweep.
import type { OptionSpec } from "./option.js";

const COSTS = "JSON unit prices for RevisionCost (downrank_live, lost_corroboration, stale_kept, false_corroboration)";

/** The built-in sweep grids; any other `--grid` value is a JSON file. */
export const BUILT_IN_GRIDS = ["default", "full"] as const;

export const PAIR_OPTIONS = {
  costs: {
    flag: "--costs",
    value: "<file>",
    help: { eval: `pairs: ${COSTS}`, sweep: COSTS },
    config: { key: "costs", value: "path" },
  },
  classifier: {
    flag: "--classifier",
    value: "<key=value>",
    help: {
      eval: "pairs: classifier threshold, e.g. residueMax=1 (repeatable)",
      classify: "classifier threshold, repeatable: overlapFloor, residueMax, negOverlapFloor, aliasPrefixMin (as mari eval --classifier)",
    },
    repeatable: true,
  },
  classifierOldSpelling: { flag: "--config", value: "<key=value>", help: "deprecated spelling of --classifier", repeatable: true, hidden: true },
  grid: {
    flag: "--grid",
    value: "<grid>",
    help: "default (one field at a time), full (cartesian product) or a JSON file of value lists per field",
    default: "default",
    config: { key: "grid", value: "path-or-choice", choices: BUILT_IN_GRIDS, describe: 'sweep grid: "default", "full" or a JSON file' },
  },
} as const satisfies Record<string, OptionSpec>;
