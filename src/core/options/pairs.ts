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
    doc: {
      "eval/pairs": { usage: "`--costs FILE`", example: "`--costs prices.json`", meaning: "unit prices for RevisionCost (also `costs` in `mari.config.json`)" },
      sweep: { usage: "`--costs FILE`", example: "`--costs prices.json`", meaning: "unit prices, as for eval" },
    },
  },
  classifier: {
    flag: "--classifier",
    value: "<key=value>",
    help: {
      eval: "pairs: classifier threshold, e.g. residueMax=1 (repeatable)",
      classify: "classifier threshold, repeatable: overlapFloor, residueMax, negOverlapFloor, aliasPrefixMin (as mari eval --classifier)",
    },
    repeatable: true,
    doc: {
      "eval/pairs": {
        usage: "`--classifier K=V`",
        example: "`--classifier residueMax=1`",
        meaning:
          "classifier threshold (repeatable; `overlapFloor`, `residueMax`, `negOverlapFloor`, `aliasPrefixMin`; snake_case and kebab-case spellings work)",
      },
    },
  },
  classifierOldSpelling: { flag: "--config", value: "<key=value>", help: "deprecated spelling of --classifier", repeatable: true, hidden: true },
  grid: {
    flag: "--grid",
    value: "<grid>",
    help: "default (one field at a time), full (cartesian product) or a JSON file of value lists per field",
    default: "default",
    config: { key: "grid", value: "path-or-choice", choices: BUILT_IN_GRIDS, describe: 'sweep grid: "default", "full" or a JSON file' },
    doc: {
      sweep: [
        {
          usage: "`--grid default`",
          meaning:
            "one field at a time around the default: the default, then overlapFloor 0.4/0.6, residueMax 1/3, negOverlapFloor 0.5/0.75, aliasPrefixMin 3/5 (9 rows; the default appears once)",
        },
        { usage: "`--grid full`", meaning: "the cartesian product of those values (81 rows; the last field varies fastest)" },
        {
          usage: "`--grid FILE`",
          example: '`--grid grid.json` with `{"overlapFloor": [0.45, 0.5, 0.55], "residueMax": [1, 2]}`',
          meaning:
            "a JSON object of value lists per config field; fields left out stay at the default; rows are the cartesian product in the field order above. Unknown fields, non-lists, empty lists, non-numbers and configs the classifier rejects (e.g. `overlapFloor` 0) are exit 2 naming the file. A value repeated in a list is used once.",
        },
      ],
    },
  },
} as const satisfies Record<string, OptionSpec>;
