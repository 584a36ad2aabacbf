// Every command-line option of mari, each declared once (see option.ts). A command lists the names
// of the options it takes (src/cli/options/command-options.ts).
import { COMPARISON_OPTIONS } from "./comparison.js";
import { DOCUMENT_OPTIONS } from "./documents.js";
import { EVIDENCE_OPTIONS } from "./evidence.js";
import { GATE_OPTIONS } from "./gates.js";
import { JUDGE_OPTIONS } from "./judge.js";
import { OUTPUT_OPTIONS } from "./output.js";
import { PAIR_OPTIONS } from "./pairs.js";
import { RUN_OPTIONS } from "./run.js";
import { SERVE_OPTIONS } from "./serve.js";
import { STATISTICS_OPTIONS } from "./statistics.js";
import type { OptionSpec } from "./option.js";

export const OPTIONS = {
  ...OUTPUT_OPTIONS,
  ...RUN_OPTIONS,
  ...STATISTICS_OPTIONS,
  ...DOCUMENT_OPTIONS,
  ...GATE_OPTIONS,
  ...PAIR_OPTIONS,
  ...JUDGE_OPTIONS,
  ...SERVE_OPTIONS,
  ...EVIDENCE_OPTIONS,
  ...COMPARISON_OPTIONS,
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export { defaultShown, optionHelp, withDefault, type ConfigKey, type ConfigValue, type OptionDoc, type OptionSpec } from "./option.js";
