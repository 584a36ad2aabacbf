// `mari evidence`: the model's citations and the documents and materials they are checked against.
import type { OptionSpec } from "./option.js";

export const EVIDENCE_OPTIONS = {
  facts: { flag: "--facts", value: "<file>", help: "model outputs, JSONL: {case_id, documents?, output: {facts: [...]}, gold_state?}" },
  located: { flag: "--located", value: "<file>", help: "structured citations, JSONL: {case_id, visible?, evidence: [{ref, locator?, quote?}]}" },
  materials: { flag: "--materials", value: "<file>", help: "materials for --located, JSONL: {ref, material}" },
  current: { flag: "--current", value: "<docs>", help: "documents at their present revisions: report each case's dependency freshness" },
  threshold: {
    flag: "--threshold",
    value: "<p>",
    help: "score from which a caller's entailment/contradiction score counts",
    default: 0.5,
  },
} as const satisfies Record<string, OptionSpec>;
