// `mari predict`'s flags turned into the judge's settings: pure functions (the environment is
// passed in, the prompt file is read by the caller between the two steps, as the checks' order
// wants), tested in process (test/cli/predict-settings.test.ts). Defaults and bounds are the
// option table's (src/core/options/judge.ts).
import { OPTIONS } from "../../core/options/index.js";
import { InputError } from "../../io/errors.js";
import { MAX_TOKENS_FIELDS, type MaxTokensField } from "../../judges/chat-request.js";
import type { PromptTemplate } from "../../judges/prompt-template.js";
import { integerOption } from "../options/add-options.js";
import { readSecretEnv } from "../secret-env.js";

export interface PredictOptions {
  judge: "lexical" | "openai";
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  runs?: string;
  /** The answer cache file (`--cache FILE`); otherwise true, or false under `--no-cache` (the slice cache's flag). */
  cache?: string | boolean;
  cacheDir?: string;
  concurrency?: string;
  timeoutMs?: string;
  maxRetries?: string;
  retryBaseMs?: string;
  retryMaxMs?: string;
  seed?: string;
  temperature?: string;
  maxTokensField?: string;
  jsonMode: boolean;
  out?: string;
  quiet?: boolean;
  progress?: string;
  limit?: string;
  prompt?: string;
  maxTokens?: string;
  batchRequests?: string;
  batchResults?: string;
  sentences?: string;
}

/** `--runs K` (default 1). */
export function runsOf(options: PredictOptions): number {
  return integerOption("runs", options.runs) ?? OPTIONS.runs.default;
}

/** `--limit N`: judge only the first N cases of the slice (a cheap smoke test). */
export function limitOf(options: PredictOptions): { limit?: number } {
  const limit = integerOption("limit", options.limit);
  return limit === undefined ? {} : { limit };
}

function numberFlag(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InputError(`${flag} must be a number ≥ 0, got ${JSON.stringify(value)}`);
  return n;
}

function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`--base-url is not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InputError("--base-url must be http(s)");
  if (url.username || url.password) throw new InputError("--base-url must not carry credentials; use --api-key-env");
  return text;
}

/** `--temperature`, `--max-tokens` and `--max-tokens-field`: only what the user gave is sent. */
export function samplingOf(options: PredictOptions): { temperature?: number; maxTokens?: number; maxTokensField: MaxTokensField } {
  const asked = options.maxTokensField ?? OPTIONS.maxTokensField.default;
  const field = MAX_TOKENS_FIELDS.find((f) => f === asked);
  if (field === undefined) throw new InputError(`--max-tokens-field must be one of ${MAX_TOKENS_FIELDS.join(", ")}, got ${JSON.stringify(asked)}`);
  const maxTokens = integerOption("maxTokens", options.maxTokens);
  return {
    ...(options.temperature !== undefined ? { temperature: numberFlag(options.temperature, "--temperature") } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    maxTokensField: field,
  };
}

/** Where a live judge sends its requests and with which key: the OpenAI SDKs' variables unless flags say otherwise. */
export interface JudgeAccess {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export function judgeAccess(options: PredictOptions, env: NodeJS.ProcessEnv): JudgeAccess {
  const baseUrl = options.baseUrl ?? env["OPENAI_BASE_URL"];
  const apiKeyEnv = options.apiKeyEnv ?? OPTIONS.apiKeyEnv.default;
  const missing = [...(baseUrl ? [] : ["--base-url URL (or OPENAI_BASE_URL)"]), ...(options.model ? [] : ["--model M"])];
  if (missing.length > 0) throw new InputError(`--judge openai needs ${missing.join(", ")}`);
  return { baseUrl: baseUrl!, apiKey: readSecretEnv(apiKeyEnv, "--api-key-env", env), model: options.model! };
}

/** The live judge's settings, checked in the order the flags are listed. */
export function liveJudgeSettings(options: PredictOptions, access: JudgeAccess, prompt: PromptTemplate | undefined) {
  const integer = (name: "concurrency" | "timeoutMs" | "maxRetries" | "retryBaseMs" | "retryMaxMs" | "jitterSeed", text: string | undefined) =>
    integerOption(name, text) ?? OPTIONS[name].default;
  return {
    baseUrl: checkBaseUrl(access.baseUrl),
    apiKey: access.apiKey,
    model: access.model,
    ...samplingOf(options),
    runs: runsOf(options),
    concurrency: integer("concurrency", options.concurrency),
    timeoutMs: integer("timeoutMs", options.timeoutMs),
    maxRetries: integer("maxRetries", options.maxRetries),
    backoff: {
      baseMs: integer("retryBaseMs", options.retryBaseMs),
      maxMs: integer("retryMaxMs", options.retryMaxMs),
      seed: integer("jitterSeed", options.seed),
    },
    jsonMode: options.jsonMode,
    cachePath: answerCacheOf(options),
    prompt,
  };
}

/** `--cache FILE`, the answer cache: `--no-cache` (the compiled slice's flag) shares commander's attribute and makes it a boolean otherwise. */
export function answerCacheOf(options: PredictOptions): string | undefined {
  return typeof options.cache === "string" ? options.cache : undefined;
}
