// `mari predict`: which judge, and how the OpenAI-compatible one sends its requests.
import { MAX_COMPLETION_TOKENS, MAX_CONCURRENCY, MAX_JUDGE_RUNS, MAX_RETRIES, MAX_SEED, MAX_TIMER_MS } from "../limits.js";
import type { OptionSpec } from "./option.js";

export const JUDGES = ["lexical", "openai"] as const;

export const JUDGE_OPTIONS = {
  judge: {
    flag: "--judge",
    value: "<name>",
    help: "which judge",
    choices: JUDGES,
    mandatory: true,
    doc: { predict: { usage: "`--judge lexical\\|openai`", default: "required", meaning: "which judge" } },
  },
  baseUrl: {
    flag: "--base-url",
    value: "<url>",
    help: "openai: the API base URL (…/v1; /chat/completions is appended); default $OPENAI_BASE_URL",
    doc: {
      predict: {
        usage: "`--base-url URL`",
        default: "openai: `$OPENAI_BASE_URL`",
        meaning:
          "e.g. `https://api.openai.com/v1`; `/chat/completions` is appended unless already there. Credentials in the URL are refused. Required (flag or variable) for live requests",
      },
    },
  },
  model: {
    flag: "--model",
    value: "<name>",
    help: "openai: model name",
    doc: { predict: { usage: "`--model M`", default: "openai: required", meaning: "model name sent in each request" } },
  },
  apiKeyEnv: {
    flag: "--api-key-env",
    value: "<var>",
    help: "openai: NAME of the environment variable holding the API key",
    default: "OPENAI_API_KEY",
    doc: {
      predict: {
        usage: "`--api-key-env VAR`",
        default: "openai: `OPENAI_API_KEY`",
        meaning: "the **name** of the environment variable that holds the key (the OpenAI SDKs' variable by default). Unset or empty → exit 2",
      },
    },
  },
  prompt: {
    flag: "--prompt",
    value: "<file>",
    help: "openai: user prompt template ({{document}}, {{sentence_count}}, {{case_id}})",
    doc: {
      predict: {
        usage: "`--prompt FILE`",
        default: "built-in",
        meaning:
          "openai: a user prompt template ([placeholders](#prompt-templates)); its SHA-256 goes into the cache key and `DUMP.meta.json`. With JSON mode (the default) the template must contain the word JSON, or it is refused: OpenAI refuses a `json_object` request whose messages never say JSON, and the model must be asked for the JSON answer",
      },
    },
  },
  maxTokens: {
    flag: "--max-tokens",
    value: "<n>",
    help: "openai: completion-token limit of each request (sent as --max-tokens-field)",
    min: 1,
    max: MAX_COMPLETION_TOKENS,
    doc: {
      predict: {
        usage: "`--max-tokens N`",
        default: "server default",
        meaning: "openai: the completion-token limit of each request, sent as `--max-tokens-field`. An answer cut off there is `answer_truncated`",
      },
    },
  },
  maxTokensField: {
    flag: "--max-tokens-field",
    value: "<name>",
    help: "openai: the field --max-tokens is sent as: max_completion_tokens or max_tokens (older servers)",
    default: "max_completion_tokens",
    doc: {
      predict: {
        usage: "`--max-tokens-field F`",
        default: "`max_completion_tokens`",
        meaning:
          "openai: the request field `--max-tokens` goes in: `max_completion_tokens` (what OpenAI's reasoning models take; `max_tokens` is deprecated there) or `max_tokens` (servers that want the old name, e.g. older vLLM)",
      },
    },
  },
  batchRequests: {
    flag: "--batch-requests",
    value: "<file>",
    help: "openai: write a Batch API request file (one line per case × run) instead of calling the server",
    doc: {
      predict: {
        usage: "`--batch-requests FILE`",
        default: "—",
        meaning: "openai: write a Batch API request file (one line per case × run) instead of calling a server; no key, no URL needed",
      },
    },
  },
  batchResults: {
    flag: "--batch-results",
    value: "<file>",
    help: "openai: read a Batch API / vLLM run_batch output file into a dump (--out)",
    doc: {
      predict: {
        usage: "`--batch-results FILE`",
        default: "—",
        meaning: "openai: read a Batch API / vLLM `run_batch` output file into an ordinary dump (`--out`); no network",
      },
    },
  },
  runs: {
    flag: "--runs",
    value: "<k>",
    help: "openai: independent runs per case",
    default: 1,
    min: 1,
    max: MAX_JUDGE_RUNS,
    doc: { predict: { usage: "`--runs K`", meaning: "K independent runs per case (`run` 0…K−1). Lexical: only 1 (it is deterministic)" } },
  },
  cache: {
    flag: "--cache",
    value: "<file>",
    help: "openai: JSONL answer cache, appended as answers arrive (resume by rerunning)",
    doc: { predict: { usage: "`--cache FILE`", default: "none", meaning: "JSONL answer cache, appended as answers arrive; rerun the same command to resume" } },
  },
  concurrency: {
    flag: "--concurrency",
    value: "<n>",
    help: "openai: requests in flight",
    default: 4,
    min: 1,
    max: MAX_CONCURRENCY,
    doc: { predict: { usage: "`--concurrency N`", meaning: "requests in flight (`p-limit`)" } },
  },
  timeoutMs: {
    flag: "--timeout-ms",
    value: "<ms>",
    help: "openai: timeout per request attempt",
    default: 120000,
    min: 1,
    max: MAX_TIMER_MS,
    doc: { predict: { usage: "`--timeout-ms T`", meaning: "timeout of one request attempt (AbortController), body included" } },
  },
  maxRetries: {
    flag: "--max-retries",
    value: "<n>",
    help: "openai: retries on 429, 5xx, timeouts",
    default: 6,
    min: 0,
    max: MAX_RETRIES,
    doc: {
      predict: { usage: "`--max-retries R`", meaning: "retries per request on 429, 408, 5xx, timeouts, network errors, unreadable bodies" },
    },
  },
  retryBaseMs: {
    flag: "--retry-base-ms",
    value: "<ms>",
    help: "openai: first back-off delay (doubles per retry, jittered)",
    default: 1000,
    min: 0,
    max: MAX_TIMER_MS,
    doc: { predict: { usage: "`--retry-base-ms B`", meaning: "first back-off delay; doubles per retry" } },
  },
  retryMaxMs: {
    flag: "--retry-max-ms",
    value: "<ms>",
    help: "openai: longest back-off delay (Retry-After is honoured as given)",
    default: 60000,
    min: 0,
    max: MAX_TIMER_MS,
    doc: {
      predict: { usage: "`--retry-max-ms M`", meaning: "back-off ceiling (a server's `Retry-After` is honoured as given, up to 10 min)" },
    },
  },
  jitterSeed: {
    flag: "--seed",
    value: "<n>",
    help: "openai: seed of the back-off jitter",
    default: 0,
    min: 0,
    max: MAX_SEED,
    doc: { predict: { usage: "`--seed S`", meaning: "seed of the back-off jitter" } },
  },
  temperature: {
    flag: "--temperature",
    value: "<t>",
    help: "openai: sampling temperature (default not sent: the server's own; reasoning models accept no other)",
    doc: {
      predict: {
        usage: "`--temperature T`",
        default: "not sent",
        meaning:
          "sampling temperature; unless given, no `temperature` is sent and the server's default applies (OpenAI's reasoning models, the o-series and gpt-5, refuse any other)",
      },
    },
  },
  noJsonMode: {
    flag: "--no-json-mode",
    help: "openai: do not send response_format {type: json_object}",
    doc: { predict: { usage: "`--no-json-mode`", default: "off", meaning: 'do not send `response_format: {type: "json_object"}`' } },
  },
} as const satisfies Record<string, OptionSpec>;
