// What a document eval reads and how it reads it: the dump, the slice's sentences, completions' ends.
import type { OptionSpec } from "./option.js";

/** The sentence numberings of a slice (`--sentences`). */
export const SENTENCE_RULES = ["mari", "punkt"] as const;

export const DOCUMENT_OPTIONS = {
  predictions: {
    flag: "--predictions",
    value: "<dump>",
    help: "prediction dump (JSONL: structured, cache or raw-completion lines); without it, the built-in lexical judge (a baseline) produces one",
    doc: {
      eval: {
        usage: "`--predictions DUMP`",
        example: "`--predictions run.jsonl`",
        meaning:
          "the prediction dump (JSONL). Without it, the built-in lexical judge (a baseline, docs/judges.md) writes `lexical.predictions.jsonl` into `--out` and that is scored; the report says so (`system.judge`).",
      },
    },
  },
  rewards: {
    flag: "--rewards",
    value: "<file>",
    help: "write one JSONL reward line per scored prediction, in input order",
    config: { key: "rewards", value: "path" },
    doc: { eval: { usage: "`--rewards FILE`", example: "`--rewards rewards.jsonl`", meaning: "one JSONL line per scored prediction, in dump order (§1.6)" } },
  },
  baseline: {
    flag: "--baseline",
    value: "<report>",
    help: {
      eval: "a previous report.json (with its cases.jsonl) for --max-drop gates",
      merge: "documents: a previous report.json (with its cases.jsonl) for --max-drop (default the shards' baseline)",
    },
    config: { key: "baseline", value: "path", describe: "a previous report.json (or its directory), as --baseline" },
    doc: {
      eval: {
        usage: "`--baseline REPORT`",
        example: "`--baseline old/report.json`",
        meaning: "a previous report (its `cases.jsonl` must sit beside it) for `--max-drop`",
      },
    },
  },
  lenientIds: {
    flag: "--lenient-ids",
    help: {
      "*": 'accept "3", "[3]" and 3.0 as evidence sentence IDs',
      serve: 'accept "3", "[3]" and 3.0 as evidence sentence IDs (as mari eval --lenient-ids)',
    },
    default: false,
    config: { key: "lenient_ids", value: "boolean" },
    doc: {
      eval: { usage: "`--lenient-ids`", meaning: 'accept `"3"`, `"[3]"` and `3.0` as evidence IDs (otherwise `non_integer_evidence`)' },
      serve: { usage: "`--lenient-ids`", default: "—", meaning: 'as `mari eval --lenient-ids`: `"3"`, `"[3]"`, `3.0` count as evidence IDs' },
    },
  },
  phase: {
    flag: "--phase",
    value: "<phase>",
    help: "a mari serve --log whose items carry their generation identity: replay the train (default) or eval phase",
    choices: ["train", "eval"],
    doc: {
      eval: {
        usage: "`--phase PHASE`",
        example: "`--phase eval`",
        meaning: "a `mari serve --log` whose items carried their generation identity: replay the `train` (default) or `eval` phase ([serve.md](serve.md))",
      },
    },
  },
  cacheDir: {
    flag: "--cache-dir",
    value: "<dir>",
    help: "where the compiled slice is kept between runs (default $XDG_CACHE_HOME/mari, else ~/.cache/mari)",
    doc: {
      eval: {
        usage: "`--cache-dir DIR`",
        meaning: "where the compiled slice is kept between runs (default `$XDG_CACHE_HOME/mari`, else `~/.cache/mari`); it changes no output byte",
      },
      predict: {
        usage: "`--cache-dir DIR`",
        default: "`$XDG_CACHE_HOME/mari`",
        meaning: "where the compiled slice is kept between runs; it changes no output byte",
      },
      serve: {
        usage: "`--cache-dir DIR`",
        default: "`$XDG_CACHE_HOME/mari`, else `~/.cache/mari`",
        meaning: "where the compiled slice is kept between runs (as `mari eval --cache-dir`, [eval.md](eval.md#performance))",
      },
    },
  },
  noCache: {
    flag: "--no-cache",
    help: "read the slice afresh and keep nothing on disk",
    doc: {
      eval: { usage: "`--no-cache`", meaning: "read the slice afresh and keep nothing on disk" },
      predict: { usage: "`--no-cache`", default: "off", meaning: "read the slice afresh and keep nothing on disk" },
      serve: { usage: "`--no-cache`", default: "", meaning: "read the slice afresh and keep nothing on disk" },
    },
  },
  idField: {
    flag: "--id-field",
    value: "<name>",
    help: "an inspect_ai or promptfoo log as --predictions: the sample metadata field or test var holding the case id",
    doc: {
      eval: {
        usage: "`--id-field NAME`",
        example: "`--id-field doc_id`",
        meaning:
          "an inspect_ai log or promptfoo output as `--predictions`: the sample-metadata field (inspect_ai) or test var (promptfoo) that holds the case id (see *Logs of other evaluation tools*)",
      },
    },
  },
  sentences: {
    flag: "--sentences",
    value: "<rule>",
    help: "how slice texts become numbered sentences: mari (default, mari's own split) or punkt (nltk 3.8 sent_tokenize, as RRC-built prompts number them)",
    default: "mari",
    showDefault: false,
    choices: SENTENCE_RULES,
    config: { key: "sentences", value: "choice", choices: SENTENCE_RULES, describe: "sentence numbering of the slice, as --sentences" },
    doc: {
      eval: {
        usage: "`--sentences RULE`",
        example: "`--sentences punkt`",
        meaning:
          "how slice texts become numbered sentences: `mari` (default) or `punkt` (nltk 3.8 `sent_tokenize`, as RRC-built prompts number them; [core-document.md](core-document.md#two-sentence-numberings-mari-and-punkt))",
      },
      predict: {
        usage: "`--sentences RULE`",
        default: "`mari`",
        meaning:
          "number the slice's sentences in the prompt with mari's rule or `punkt` (nltk 3.8 `sent_tokenize`, [core-document.md](core-document.md#two-sentence-numberings-mari-and-punkt)); score the dump with the same `mari eval --sentences`",
      },
      serve: {
        usage: "`--sentences RULE`",
        default: "`mari`",
        meaning:
          "number the slice's sentences with mari's rule or `punkt` (nltk 3.8 `sent_tokenize`; [core-document.md](core-document.md#two-sentence-numberings-mari-and-punkt)); the slice hash `/health` reports includes the rule",
      },
    },
  },
  keepSpecialTokens: {
    flag: "--keep-special-tokens",
    help: "score raw completions exactly as sent: no trailing end-of-turn/end-of-text marker or whitespace is removed",
    doc: {
      eval: {
        usage: "`--keep-special-tokens`",
        meaning: "score raw completions exactly as written: no trailing end marker or whitespace is removed (the reference's behaviour)",
      },
      serve: { usage: "`--keep-special-tokens`", default: "—", meaning: 'score raw completions exactly as sent (see "What the model wrote")' },
    },
  },
  specialToken: {
    flag: "--special-token",
    value: "<tok>",
    help: "a further trailing marker to remove from raw completions, besides the built-in list (repeatable)",
    repeatable: true,
    doc: {
      eval: {
        usage: "`--special-token TOK`",
        example: "`--special-token '<|my_end|>'`",
        meaning: "one more trailing marker to remove from raw completions (repeatable)",
      },
      serve: { usage: "`--special-token TOK`", default: "—", meaning: "one more end marker to remove (repeatable)" },
    },
  },
  slice: { flag: "--slice", value: "<path>", help: "the slice, when it is not at the path recorded in the reports" },
} as const satisfies Record<string, OptionSpec>;
