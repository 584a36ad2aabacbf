// `mari predict`: which judge, and how the OpenAI-compatible one sends its requests.
import { MAX_COMPLETION_TOKENS, MAX_CONCURRENCY, MAX_JUDGE_RUNS, MAX_RETRIES, MAX_SEED, MAX_TIMER_MS } from "../limits.js";
import type { OptionSpec } from "./option.js";

export const JUDGES = ["lexical", "openai"] as const;

export const JUDGE_OPTIONS = {
  judge: { flag: "--judge", value: "<name>", help: "which judge", choices: JUDGES, mandatory: true },
  baseUrl: {
    flag: "--base-url",
    value: "<url>",
    help: "openai: the API base URL (…/v1; /chat/completions is appended); default $OPENAI_BASE_URL",
  },
  model: { flag: "--model", value: "<name>", help: "openai: model name" },
  apiKeyEnv: {
    flag: "--api-key-env",
    value: "<var>",
    help: "openai: NAME of the environment variable holding the API key",
    default: "OPENAI_API_KEY",
  },
  prompt: { flag: "--prompt", value: "<file>", help: "openai: user prompt template ({{document}}, {{sentence_count}}, {{case_id}})" },
  maxTokens: {
    flag: "--max-tokens",
    value: "<n>",
    help: "openai: completion-token limit of each request (sent as --max-tokens-field)",
    min: 1,
    max: MAX_COMPLETION_TOKENS,
  },
  maxTokensField: {
    flag: "--max-tokens-field",
    value: "<name>",
    help: "openai: the field --max-tokens is sent as: max_completion_tokens or max_tokens (older servers)",
    default: "max_completion_tokens",
  },
  batchRequests: {
    flag: "--batch-requests",
    value: "<file>",
    help: "openai: write a Batch API request file (one line per case × run) instead of calling the server",
  },
  batchResults: { flag: "--batch-results", value: "<file>", help: "openai: read a Batch API / vLLM run_batch output file into a dump (--out)" },
  runs: { flag: "--runs", value: "<k>", help: "openai: independent runs per case", default: 1, min: 1, max: MAX_JUDGE_RUNS },
  cache: { flag: "--cache", value: "<file>", help: "openai: JSONL answer cache, appended as answers arrive (resume by rerunning)" },
  concurrency: { flag: "--concurrency", value: "<n>", help: "openai: requests in flight", default: 4, min: 1, max: MAX_CONCURRENCY },
  timeoutMs: { flag: "--timeout-ms", value: "<ms>", help: "openai: timeout per request attempt", default: 120000, min: 1, max: MAX_TIMER_MS },
  maxRetries: { flag: "--max-retries", value: "<n>", help: "openai: retries on 429, 5xx, timeouts", default: 6, min: 0, max: MAX_RETRIES },
  retryBaseMs: {
    flag: "--retry-base-ms",
    value: "<ms>",
    help: "openai: first back-off delay (doubles per retry, jittered)",
    default: 1000,
    min: 0,
    max: MAX_TIMER_MS,
  },
  retryMaxMs: {
    flag: "--retry-max-ms",
    value: "<ms>",
    help: "openai: longest back-off delay (Retry-After is honoured as given)",
    default: 60000,
    min: 0,
    max: MAX_TIMER_MS,
  },
  jitterSeed: { flag: "--seed", value: "<n>", help: "openai: seed of the back-off jitter", default: 0, min: 0, max: MAX_SEED },
  temperature: {
    flag: "--temperature",
    value: "<t>",
    help: "openai: sampling temperature (default not sent: the server's own; reasoning models accept no other)",
  },
  noJsonMode: { flag: "--no-json-mode", help: "openai: do not send response_format {type: json_object}" },
} as const satisfies Record<string, OptionSpec>;
