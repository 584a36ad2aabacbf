// What a document eval reads and how it reads it: the dump, the slice's sentences, completions' ends.
import type { OptionSpec } from "./option.js";

/** The sentence numberings of a slice (`--sentences`). */
export const SENTENCE_RULES = ["mari", "punkt"] as const;

export const DOCUMENT_OPTIONS = {
  predictions: {
    flag: "--predictions",
    value: "<dump>",
    help: "prediction dump (JSONL: structured, cache or raw-completion lines); without it, the built-in lexical judge (a baseline) produces one",
  },
  rewards: {
    flag: "--rewards",
    value: "<file>",
    help: "write one JSONL reward line per scored prediction, in input order",
    config: { key: "rewards", value: "path" },
  },
  baseline: {
    flag: "--baseline",
    value: "<report>",
    help: {
      eval: "a previous report.json (with its cases.jsonl) for --max-drop gates",
      merge: "documents: a previous report.json (with its cases.jsonl) for --max-drop (default the shards' baseline)",
    },
    config: { key: "baseline", value: "path", describe: "a previous report.json (or its directory), as --baseline" },
  },
  lenientIds: {
    flag: "--lenient-ids",
    help: {
      "*": 'accept "3", "[3]" and 3.0 as evidence sentence IDs',
      serve: 'accept "3", "[3]" and 3.0 as evidence sentence IDs (as mari eval --lenient-ids)',
    },
    default: false,
    config: { key: "lenient_ids", value: "boolean" },
  },
  idField: {
    flag: "--id-field",
    value: "<name>",
    help: "an inspect_ai or promptfoo log as --predictions: the sample metadata field or test var holding the case id",
  },
  sentences: {
    flag: "--sentences",
    value: "<rule>",
    help: "how slice texts become numbered sentences: mari (default, mari's own split) or punkt (nltk 3.8 sent_tokenize, as RRC-built prompts number them)",
    default: "mari",
    showDefault: false,
    choices: SENTENCE_RULES,
    config: { key: "sentences", value: "choice", choices: SENTENCE_RULES, describe: "sentence numbering of the slice, as --sentences" },
  },
  keepSpecialTokens: {
    flag: "--keep-special-tokens",
    help: "score raw completions exactly as sent: no trailing end-of-turn/end-of-text marker or whitespace is removed",
  },
  specialToken: {
    flag: "--special-token",
    value: "<tok>",
    help: "a further trailing marker to remove from raw completions, besides the built-in list (repeatable)",
    repeatable: true,
  },
  slice: { flag: "--slice", value: "<path>", help: "the slice, when it is not at the path recorded in the reports" },
} as const satisfies Record<string, OptionSpec>;
