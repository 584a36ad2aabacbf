// The conditions a run must meet (src/gates/spec.ts parses them).
import type { OptionSpec } from "./option.js";

const gateHelp = (example: string) =>
  `METRIC>=VALUE or METRIC<=VALUE, in quotes (the shell reads a bare > as a redirect), e.g. --gate '${example}' (repeatable)`;

export const GATE_OPTIONS = {
  gate: {
    flag: "--gate",
    value: "<condition>",
    help: {
      eval: gateHelp("accuracy>=0.6"),
      merge: gateHelp("accuracy>=0.6"),
      evidence: gateHelp("accepted_rate>=0.9"),
      sweep:
        "METRIC>=VALUE or METRIC<=VALUE every config must pass, in quotes, e.g. --gate 'update_recall>=0.7' (replaces the default gate on that metric; repeatable)",
      diff: "METRIC>=VALUE or METRIC<=VALUE on NEW, in quotes, e.g. --gate 'accuracy>=0.6' (repeatable)",
      trend: "gate on the last checkpoint, e.g. --gate 'accuracy>=0.6' (repeatable)",
    },
    repeatable: true,
    config: { key: "gate", value: "string-list", describe: '["accuracy>=0.6"], as --gate' },
    doc: {
      eval: {
        usage: "`--gate M>=V`",
        example: "`--gate macro_f1>=0.6`, `--gate setcons.judgment>=0.7`",
        meaning: "a bound on a headline metric or a dotted report path (repeatable)",
      },
      evidence: {
        usage: "`--gate M>=V` / `M<=V`",
        example: "`--gate accepted_rate>=0.9`, `--gate located_not_visible<=0`",
        meaning: "a bound on a metric (repeatable)",
      },
      "eval/pairs": { usage: "`--gate M>=V` / `M<=V`", example: "`--gate revision_cost<=0.3`", meaning: "extra or replacing gate (repeatable)" },
      sweep: {
        usage: "`--gate M>=V`",
        example: "`--gate update_recall>=0.75`",
        meaning:
          "gate every row must pass; replaces the default gate on that metric and direction (repeatable). Config-file `gate`s apply too; `max_drop`/`max_invalid_rate` do not apply to sweeps",
      },
    },
  },
  maxDrop: {
    flag: "--max-drop",
    value: "<metric=delta>",
    help: {
      "*": "largest allowed drop vs --baseline, e.g. macro_f1=0.02 (repeatable)",
      diff: "largest allowed drop from OLD to NEW, e.g. macro_f1=0.02 (repeatable)",
    },
    repeatable: true,
    config: { key: "max_drop", value: "drops", describe: '{"macro_f1": 0.02} or ["macro_f1=0.02"], as --max-drop' },
    doc: {
      eval: { usage: "`--max-drop M=D`", example: "`--max-drop accuracy=0.02`", meaning: "fail when the paired drop vs the baseline exceeds D (repeatable)" },
    },
  },
  maxInvalidRate: {
    flag: "--max-invalid-rate",
    value: "<r>",
    help: {
      "*": "largest share (0.05, 5%) or count (3) of format-invalid predictions",
      evidence: "largest share (0.05, 5%) or count (3) of rejected cases",
    },
    config: {
      key: "max_invalid_rate",
      value: "rate",
      describe: '0.05, "5%", 5 (a count) or "count:1", as --max-invalid-rate',
    },
    doc: {
      eval: {
        usage: "`--max-invalid-rate R`",
        example: "`--max-invalid-rate 0.05`, `5%`, `3`",
        meaning: "largest share (or count, when > 1) of format-invalid (case, run) predictions, `missing_prediction` included (`invalid` in report.json)",
      },
      evidence: {
        usage: "`--max-invalid-rate R`",
        example: "`--max-invalid-rate 5%`",
        meaning: "largest share (or count) of rejected cases (facts + located)",
      },
      "eval/pairs": { usage: "`--max-invalid-rate R`", example: "`--max-invalid-rate 0`", meaning: "rejected records / records read" },
    },
  },
  maxDropFromBest: {
    flag: "--max-drop-from-best",
    value: "<metric=delta>",
    help: "largest allowed paired drop of the last checkpoint from the best, e.g. macro_f1=0.02 (repeatable)",
    repeatable: true,
  },
} as const satisfies Record<string, OptionSpec>;
