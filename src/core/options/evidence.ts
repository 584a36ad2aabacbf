// `mari evidence`: the model's citations and the documents and materials they are checked against.
import type { OptionSpec } from "./option.js";

export const EVIDENCE_OPTIONS = {
  facts: {
    flag: "--facts",
    value: "<file>",
    help: "model outputs, JSONL: {case_id, documents?, output: {facts: [...]}, gold_state?}",
    doc: { evidence: { usage: "`--facts FILE`", example: "`--facts facts.jsonl`", meaning: "model outputs to check with `parseFacts`, one case a line" } },
  },
  located: {
    flag: "--located",
    value: "<file>",
    help: "structured citations, JSONL: {case_id, visible?, evidence: [{ref, locator?, quote?}]}",
    doc: {
      evidence: {
        usage: "`--located FILE`",
        example: "`--located located.jsonl`",
        meaning: "structured citations (ref + locator + quote), one case a line; needs `--materials`",
      },
    },
  },
  materials: {
    flag: "--materials",
    value: "<file>",
    help: "materials for --located, JSONL: {ref, material}",
    doc: { evidence: { usage: "`--materials FILE`", example: "`--materials materials.jsonl`", meaning: "the material of each revision ref, for `--located`" } },
  },
  current: {
    flag: "--current",
    value: "<docs>",
    help: "documents at their present revisions: report each case's dependency freshness",
    doc: {
      evidence: {
        usage: "`--current DOCS`",
        example: "`--current docs-today.jsonl`",
        meaning: "documents at their present revisions; each accepted case gets a freshness status",
      },
    },
  },
  threshold: {
    flag: "--threshold",
    value: "<p>",
    help: "score from which a caller's entailment/contradiction score counts",
    default: 0.5,
    doc: {
      evidence: {
        usage: "`--threshold P`",
        example: "`--threshold 0.7`",
        meaning: "score from which a caller's entailment or contradiction score counts (default {default})",
      },
    },
  },
} as const satisfies Record<string, OptionSpec>;
