// `mari predict SLICE --judge lexical|openai`: runs a judge over a document slice and writes a
// prediction dump (JSONL) that `mari eval --predictions` reads (docs/judges.md).
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_COMPLETION_TOKENS, MAX_CONCURRENCY, MAX_JUDGE_RUNS, MAX_RETRIES, MAX_SEED, MAX_TIMER_MS } from "../../core/limits.js";
import { EXIT_OK } from "../exit-codes.js";
import { sentenceRuleOf, sentencesOption, sliceCacheDirOf, addSliceCacheOptions } from "../slice-flags.js";
import { isClosedPipe } from "../../judges/dump-writer.js";
import { MAX_TOKENS_FIELDS, type MaxTokensField } from "../../judges/chat-request.js";
import { progressModeFor } from "../progress.js";
import { stopOpenPhases, terminalObserver } from "../observer.js";
import type { RunObserver } from "../../io/observer.js";
import { readSecretEnv } from "../secret-env.js";
import { onInterrupt } from "../interrupt.js";
import { predictLexical as judgeLexically } from "../../tasks/predict/lexical.js";
import { predictFromBatchResults, writePredictBatchRequests } from "../../tasks/predict/batch.js";
import { JUDGE_PHASE, predictOpenAI as judgeLive } from "../../tasks/predict/live.js";
import { loadPromptFlag } from "./predict-prompt.js";
import { PREDICT_HELP } from "./predict-help.js";

interface PredictOptions {
  judge: "lexical" | "openai";
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  runs: string;
  /** The answer cache file (`--cache FILE`); otherwise true, or false under `--no-cache` (no cache of any kind). */
  cache?: string | boolean;
  cacheDir?: string;
  concurrency: string;
  timeoutMs: string;
  maxRetries: string;
  retryBaseMs: string;
  retryMaxMs: string;
  seed: string;
  temperature?: string;
  maxTokensField: string;
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

/** `--cache FILE`, the answer cache (`--no-cache`, defined for the slice cache, gives the flag a boolean otherwise). */
function answerCacheOf(options: PredictOptions): string | undefined {
  return typeof options.cache === "string" ? options.cache : undefined;
}

/** `--limit N`: judge only the first N cases of the slice (a cheap smoke test). */
function limitFlag(limit: string | undefined): { limit?: number } {
  return limit === undefined ? {} : { limit: boundedInteger("--limit", limit, 1, Number.MAX_SAFE_INTEGER) };
}

/**
 * The display and messages of a predict run on stderr: the phases, slice warnings as they are, the
 * judge's diagnostics as `mari predict: …` notes (silenced by --quiet).
 */
function predictObserver(options: PredictOptions): RunObserver {
  return terminalObserver(progressModeFor(options.progress, options.quiet === true), options.quiet === true, {
    logPrefix: "",
    notePrefix: "mari predict: ",
  });
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
function samplingFlags(options: PredictOptions): { temperature?: number; maxTokens?: number; maxTokensField: MaxTokensField } {
  const field = MAX_TOKENS_FIELDS.find((f) => f === options.maxTokensField);
  if (field === undefined)
    throw new InputError(`--max-tokens-field must be one of ${MAX_TOKENS_FIELDS.join(", ")}, got ${JSON.stringify(options.maxTokensField)}`);
  return {
    ...(options.temperature !== undefined ? { temperature: numberFlag(options.temperature, "--temperature") } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: boundedInteger("--max-tokens", options.maxTokens, 1, MAX_COMPLETION_TOKENS) } : {}),
    maxTokensField: field,
  };
}

async function predictLexical(slicePath: string, options: PredictOptions): Promise<number> {
  const openaiOnly = (["batchRequests", "batchResults", "prompt", "maxTokens"] as const).filter((k) => options[k] !== undefined);
  if (openaiOnly.length > 0) {
    const names = { batchRequests: "--batch-requests", batchResults: "--batch-results", prompt: "--prompt", maxTokens: "--max-tokens" };
    throw new InputError(`${openaiOnly.map((k) => names[k]).join(", ")}: only for --judge openai (the lexical judge sends no requests)`);
  }
  if (boundedInteger("--runs", options.runs, 1, MAX_JUDGE_RUNS) !== 1) {
    throw new InputError("--runs applies to --judge openai; the lexical judge is deterministic (every run would be identical)");
  }
  const outcome = await judgeLexically({
    slicePath,
    sentences: sentenceRuleOf(options),
    sliceCacheDir: sliceCacheDirOf(options),
    ...limitFlag(options.limit),
    out: options.out,
    observer: predictObserver(options),
  });
  if (!options.quiet) {
    process.stderr.write(`mari predict: lexical judge: ${outcome.cases} cases, ${outcome.positives} judged contradictory\n`);
  }
  return EXIT_OK;
}

/** `--batch-requests` (no network, no key) and `--batch-results` (no network). */
async function predictBatch(slicePath: string, options: PredictOptions): Promise<number> {
  if (options.batchRequests !== undefined && options.batchResults !== undefined) {
    throw new InputError("--batch-requests writes a request file and --batch-results reads an output file: give one of them");
  }
  const runs = boundedInteger("--runs", options.runs, 1, MAX_JUDGE_RUNS);
  const slice = {
    slicePath,
    sentences: sentenceRuleOf(options),
    sliceCacheDir: sliceCacheDirOf(options),
    ...limitFlag(options.limit),
    observer: predictObserver(options),
  };
  if (options.batchRequests !== undefined) {
    if (!options.model) throw new InputError("--batch-requests needs --model M (it goes into every request body)");
    const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
    const request = { model: options.model, ...samplingFlags(options), runs, jsonMode: options.jsonMode, prompt };
    const { cases, lines, bytes } = await writePredictBatchRequests({ ...slice, requestsPath: options.batchRequests, request });
    process.stderr.write(`mari predict: wrote ${lines} batch requests (${cases} cases × ${runs} run(s), ${bytes} bytes) to ${options.batchRequests}\n`);
    return EXIT_OK;
  }
  const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
  let outcome: Awaited<ReturnType<typeof predictFromBatchResults>>;
  try {
    outcome = await predictFromBatchResults({ ...slice, resultsPath: options.batchResults!, runs, out: options.out, model: options.model, prompt });
  } catch (err) {
    if (isClosedPipe(err)) return EXIT_OK;
    throw err;
  }
  const { cases, summary } = outcome;
  process.stderr.write(
    `mari predict: ${summary.predictions} predictions from ${options.batchResults} (${cases} cases × ${runs} run(s)): ` +
      `${summary.missing} missing, ${summary.failed} failed requests, ${summary.malformed} malformed answers, ` +
      `${summary.orphans} orphan lines, ${summary.duplicates} duplicates; ` +
      `tokens: ${summary.usage.promptTokens} prompt, ${summary.usage.completionTokens} completion\n`,
  );
  return EXIT_OK;
}

async function predictOpenAI(slicePath: string, options: PredictOptions): Promise<number> {
  if (options.batchRequests !== undefined || options.batchResults !== undefined) return predictBatch(slicePath, options);
  // The OpenAI SDKs' conventions: OPENAI_BASE_URL and OPENAI_API_KEY unless flags say otherwise.
  const baseUrl = options.baseUrl ?? process.env["OPENAI_BASE_URL"];
  const apiKeyEnv = options.apiKeyEnv ?? "OPENAI_API_KEY";
  const missing = [...(baseUrl ? [] : ["--base-url URL (or OPENAI_BASE_URL)"]), ...(options.model ? [] : ["--model M"])];
  if (missing.length > 0) throw new InputError(`--judge openai needs ${missing.join(", ")}`);
  const apiKey = readSecretEnv(apiKeyEnv, "--api-key-env");
  const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
  const judge = {
    baseUrl: checkBaseUrl(baseUrl!),
    apiKey,
    model: options.model!,
    ...samplingFlags(options),
    runs: boundedInteger("--runs", options.runs, 1, MAX_JUDGE_RUNS),
    concurrency: boundedInteger("--concurrency", options.concurrency, 1, MAX_CONCURRENCY),
    timeoutMs: boundedInteger("--timeout-ms", options.timeoutMs, 1, MAX_TIMER_MS),
    maxRetries: boundedInteger("--max-retries", options.maxRetries, 0, MAX_RETRIES),
    backoff: {
      baseMs: boundedInteger("--retry-base-ms", options.retryBaseMs, 0, MAX_TIMER_MS),
      maxMs: boundedInteger("--retry-max-ms", options.retryMaxMs, 0, MAX_TIMER_MS),
      seed: boundedInteger("--seed", options.seed, 0, MAX_SEED),
    },
    jsonMode: options.jsonMode,
    cachePath: answerCacheOf(options),
    prompt,
  };
  const limit = limitFlag(options.limit);
  const observer = interruptibleJudging(predictObserver(options), answerCacheOf(options));
  let outcome: Awaited<ReturnType<typeof judgeLive>>;
  try {
    outcome = await judgeLive({
      slicePath,
      sentences: sentenceRuleOf(options),
      sliceCacheDir: sliceCacheDirOf(options),
      ...limit,
      judge,
      out: options.out,
      observer,
    });
  } catch (err) {
    if (isClosedPipe(err)) return EXIT_OK;
    throw err;
  }
  const { cases, summary } = outcome;
  // The warning first, the summary last: its line is the one left above the prompt.
  if (summary.failed > 0) {
    process.stderr.write(
      `mari predict: warning: ${summary.failed} request(s) failed after retries; they are in the dump as failed predictions ` +
        `(format-invalid for mari eval)${answerCacheOf(options) !== undefined ? "; rerun with the same --cache to retry only those" : ""}\n`,
    );
  }
  process.stderr.write(
    `mari predict: ${summary.predictions} predictions (${cases} cases × ${judge.runs} run(s)): ` +
      `${summary.fromCache} from cache, ${summary.requested} requested, ${summary.retries} retries, ` +
      `${summary.malformed} malformed answers, ${summary.failed} failed requests` +
      `${summary.malformedFromCache > 0 ? ` (${summary.malformedFromCache} of the malformed answers from cache)` : ""}; ` +
      `tokens: ${summary.usage.promptTokens} prompt, ${summary.usage.completionTokens} completion\n`,
  );
  return EXIT_OK;
}

/**
 * Ctrl-C while the answers come in: the display stops, the temp dump goes (temp-files.ts) and the
 * message counts the answers received (each cached as it arrived), not the lines written so far
 * (answers arrive in any order and are written in slice order).
 */
function interruptibleJudging(observer: RunObserver, cache: string | undefined): RunObserver {
  return {
    ...observer,
    progress: (label, total) => {
      const progress = observer.progress(label, total);
      if (label !== JUDGE_PHASE) return progress;
      let answered = 0;
      const stopInterrupt = onInterrupt(async () => {
        stopOpenPhases();
        const where = cache
          ? `the answers so far are in ${cache}; rerun the same command to resume`
          : "rerun with --cache FILE to keep answers across interrupted runs";
        process.stderr.write(`mari predict: interrupted after ${answered} of ${total} answers; no dump written; ${where}\n`);
      });
      return {
        tick: (n = 1) => {
          answered += n;
          progress.tick(n);
        },
        done: (completed) => {
          stopInterrupt();
          progress.done(completed);
        },
      };
    },
  };
}

export function registerPredict(program: Command, wrap: ActionWrapper, summary: string): void {
  addSliceCacheOptions(program.command("predict"))
    .description(summary)
    .argument("<slice>", "document slice (JSONL, CSV or ContraDoc JSON)")
    .addOption(new Option("--judge <name>", "which judge").choices(["lexical", "openai"]).makeOptionMandatory())
    .option("--base-url <url>", "openai: the API base URL (…/v1; /chat/completions is appended); default $OPENAI_BASE_URL")
    .option("--model <name>", "openai: model name")
    .option("--api-key-env <var>", "openai: NAME of the environment variable holding the API key (default OPENAI_API_KEY)")
    .option("--limit <n>", "judge only the first N cases of the slice (a smoke test)")
    .option("--prompt <file>", "openai: user prompt template ({{document}}, {{sentence_count}}, {{case_id}})")
    .option("--max-tokens <n>", "openai: completion-token limit of each request (sent as --max-tokens-field)")
    .option(
      "--max-tokens-field <name>",
      "openai: the field --max-tokens is sent as: max_completion_tokens or max_tokens (older servers)",
      "max_completion_tokens",
    )
    .option("--batch-requests <file>", "openai: write a Batch API request file (one line per case × run) instead of calling the server")
    .option("--batch-results <file>", "openai: read a Batch API / vLLM run_batch output file into a dump (--out)")
    .option("--runs <k>", "openai: independent runs per case", "1")
    .option("--cache <file>", "openai: JSONL answer cache, appended as answers arrive (resume by rerunning)")
    .option("--concurrency <n>", "openai: requests in flight", "4")
    .option("--timeout-ms <ms>", "openai: timeout per request attempt", "120000")
    .option("--max-retries <n>", "openai: retries on 429, 5xx, timeouts", "6")
    .option("--retry-base-ms <ms>", "openai: first back-off delay (doubles per retry, jittered)", "1000")
    .option("--retry-max-ms <ms>", "openai: longest back-off delay (Retry-After is honoured as given)", "60000")
    .option("--seed <n>", "openai: seed of the back-off jitter", "0")
    .option("--temperature <t>", "openai: sampling temperature (default not sent: the server's own; reasoning models accept no other)")
    .option("--no-json-mode", "openai: do not send response_format {type: json_object}")
    .option("--out <file>", "write the dump to FILE (atomically) instead of stdout")
    .option("--progress <mode>", "auto|bar|plain|none (stderr)")
    .option("--quiet", "no notes or diagnostics, and no progress display unless --progress asks for one (errors and the summary line stay)")
    .addOption(sentencesOption())
    .addHelpText("after", PREDICT_HELP)
    .action(
      wrap(async (slicePath: string, options: PredictOptions) =>
        options.judge === "lexical" ? predictLexical(slicePath, options) : predictOpenAI(slicePath, options),
      ),
    );
}
