// The seeded bootstrap every interval and paired comparison draws.
import { MAX_BOOTSTRAP, MAX_SEED } from "../limits.js";
import type { OptionSpec } from "./option.js";

export const STATISTICS_OPTIONS = {
  seed: {
    flag: "--seed",
    value: "<s>",
    help: "bootstrap seed",
    default: 0,
    min: 0,
    max: MAX_SEED,
    config: { key: "seed", value: "integer" },
    doc: { eval: { usage: "`--seed S`", example: "`--seed 7`", meaning: "bootstrap seed (default {default})" } },
  },
  bootstrap: {
    flag: "--bootstrap",
    value: "<b>",
    help: {
      eval: "bootstrap resamples for the macro-F1 interval",
      diff: "bootstrap resamples for the paired intervals",
      trend: "bootstrap resamples of the paired comparisons",
    },
    default: 1000,
    min: 0,
    max: MAX_BOOTSTRAP,
    config: { key: "bootstrap", value: "integer" },
    doc: {
      eval: {
        usage: "`--bootstrap B`",
        example: "`--bootstrap 2000`",
        meaning: "bootstrap resamples (default {default}; 0 skips it, and report.json then has no `ci.macro_f1`)",
      },
    },
  },
} as const satisfies Record<string, OptionSpec>;
