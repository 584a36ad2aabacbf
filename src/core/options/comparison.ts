// `mari diff` and `mari trend`: reports compared with each other.
import type { OptionSpec } from "./option.js";

/** How `mari trend` orders its points. */
export const TREND_AXES = ["step", "name", "time"] as const;

export const COMPARISON_OPTIONS = {
  allowDifferentSlice: {
    flag: "--allow-different-slice",
    help: {
      diff: "compare reports of different slices on the case ids they share",
      trend: "draw reports of different slices; checkpoints are then compared on the case ids they share",
    },
    default: false,
  },
  metric: {
    flag: "--metric",
    value: "<name>",
    help: "a metric to draw (repeatable; default: accuracy, macro-F1, localization, format-valid rate, SetCons, reward means)",
    repeatable: true,
  },
  keepBy: {
    flag: "--keep-by",
    value: "<metric>",
    help: "the metric the checkpoint to keep is chosen by",
    defaultText: "macro_f1; accepted_rate for evidence",
  },
  x: {
    flag: "--x",
    value: "<axis>",
    help: "order of the points: step (the number in ckpt-400, global_step_400, step400), name or time (default: step when every name has one, else name)",
  },
  pairedScan: {
    flag: "--paired-scan",
    help: "pair every earlier checkpoint with the best when choosing the one to keep, not only those inside the best's interval (slow on long runs)",
    default: false,
  },
} as const satisfies Record<string, OptionSpec>;
