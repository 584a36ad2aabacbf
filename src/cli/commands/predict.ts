// `mari predict SLICE --judge lexical|openai`: runs a judge over a document slice and writes a
// prediction dump (JSONL) that `mari eval --predictions` reads (docs/judges.md).
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_COMPLETION_TOKENS, MAX_CONCURRENCY, MAX_JUDGE_RUNS, MAX_RETRIES, MAX_SEED, MAX_TIMER_MS } from "../../core/limits.js";
import { EXIT_OK } from "../exit-codes.js";
import { readDocumentSlice, type SentenceRule } from "../../io/slice.js";
import { sentenceRuleOf, sentencesOption, warnRejectedSliceRecords } from "../slice-flags.js";
import { isClosedPipe, openDumpSink, writePredictionDump } from "../../judges/dump-writer.js";
import { runLexicalJudge } from "../../judges/lexical.js";
import { OPENAI_JUDGE_VERSION, runOpenAIJudge } from "../../judges/openai.js";
import { ChatConfigError } from "../../judges/chat-client.js";
import { MAX_TOKENS_FIELDS, type MaxTokensField } from "../../judges/chat-request.js";
import { createProgress, progressModeFor } from "../progress.js";
import { readSecretEnv } from "../secret-env.js";
import { onInterrupt } from "../interrupt.js";
import { convertBatchResults, loadPromptFlag, predictBatchRequests, usageJson, writeDumpMeta } from "./predict-batch.js";
import { PREDICT_HELP } from "./predict-help.js";

interface PredictOptions {
  judge: "lexical" | "openai";
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  runs: string;
  cache?: string;
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

/** The first N cases of the slice with `--limit N` (a cheap smoke test), else all. */
async function readLimitedSlice(slicePath: string, limit: string | undefined, sentences: SentenceRule) {
  const slice = await readDocumentSlice(slicePath, { sentences });
  warnRejectedSliceRecords(slice);
  if (limit === undefined) return slice.cases;
  return slice.cases.slice(0, boundedInteger("--limit", limit, 1, Number.MAX_SAFE_INTEGER));
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
  const predictions = runLexicalJudge(await readLimitedSlice(slicePath, options.limit, sentenceRuleOf(options)));
  if (options.out === undefined || options.out === "-") {
    const sink = await openDumpSink();
    try {
      for (const p of predictions) await sink.write(p);
      await sink.commit();
    } catch (err) {
      if (!isClosedPipe(err)) throw err; // the reader went away (`| head`): nothing left to do
    }
  } else {
    await writePredictionDump(options.out, predictions);
  }
  const positives = predictions.filter((p) => p.judgment === true).length;
  if (!options.quiet) {
    process.stderr.write(`mari predict: lexical judge: ${predictions.length} cases, ${positives} judged contradictory\n`);
  }
  return EXIT_OK;
}

/** `--batch-requests` (no network, no key) and `--batch-results` (no network). */
async function predictBatch(slicePath: string, options: PredictOptions): Promise<number> {
  if (options.batchRequests !== undefined && options.batchResults !== undefined) {
    throw new InputError("--batch-requests writes a request file and --batch-results reads an output file: give one of them");
  }
  const runs = boundedInteger("--runs", options.runs, 1, MAX_JUDGE_RUNS);
  if (options.batchRequests !== undefined) {
    if (!options.model) throw new InputError("--batch-requests needs --model M (it goes into every request body)");
    const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
    const cases = await readLimitedSlice(slicePath, options.limit, sentenceRuleOf(options));
    const line = await predictBatchRequests(options.batchRequests, cases, {
      model: options.model,
      ...samplingFlags(options),
      runs,
      jsonMode: options.jsonMode,
      prompt,
    });
    process.stderr.write(`${line}\n`);
    return EXIT_OK;
  }
  const cases = await readLimitedSlice(slicePath, options.limit, sentenceRuleOf(options));
  let summary: Awaited<ReturnType<typeof convertBatchResults>>;
  try {
    summary = await convertBatchResults(options.batchResults!, cases, runs, options.out);
  } catch (err) {
    if (isClosedPipe(err)) return EXIT_OK;
    throw err;
  }
  await writeDumpMeta(options.out, {
    judge: "openai",
    judge_version: OPENAI_JUDGE_VERSION,
    source: "batch",
    ...(sentenceRuleOf(options) === "punkt" ? { sentences: "punkt" as const } : {}),
    base_url: null,
    // --model when given, else the model(s) the output file's responses name.
    model: options.model ?? (summary.models.length > 0 ? summary.models.join(", ") : null),
    temperature: null,
    max_tokens: null,
    max_tokens_field: null,
    runs,
    cases: cases.length,
    prompt_sha256: (await loadPromptFlag(options.prompt, options.jsonMode))?.sha256 ?? null,
    usage: usageJson(summary.usage),
    batch: {
      predictions: summary.predictions,
      missing: summary.missing,
      failed: summary.failed,
      malformed: summary.malformed,
      orphans: summary.orphans,
      duplicates: summary.duplicates,
    },
  });
  process.stderr.write(
    `mari predict: ${summary.predictions} predictions from ${options.batchResults} (${cases.length} cases × ${runs} run(s)): ` +
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
  const settings = {
    baseUrl: checkBaseUrl(baseUrl!),
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
  };
  const progressMode = progressModeFor(options.progress, options.quiet === true);
  const cases = await readLimitedSlice(slicePath, options.limit, sentenceRuleOf(options));
  const sink = await openDumpSink(options.out);
  const progress = createProgress({
    mode: progressMode,
    label: "mari predict",
    total: cases.length * settings.runs,
  });
  // Diagnostics go through the progress display, so a bar is cleared and redrawn around them.
  const log = (line: string) => {
    if (!options.quiet) progress.log(`mari predict: ${line}`);
  };
  // Answers arrive in any order and are written in slice order: the interrupt message counts the
  // answers received (each cached as it arrives), not the lines written so far.
  let answered = 0;
  const stopInterrupt = onInterrupt(async () => {
    progress.done(false);
    await sink.abort();
    const where = options.cache
      ? `the answers so far are in ${options.cache}; rerun the same command to resume`
      : "rerun with --cache FILE to keep answers across interrupted runs";
    process.stderr.write(`mari predict: interrupted after ${answered} of ${cases.length * settings.runs} answers; no dump written; ${where}\n`);
  });
  let summary: Awaited<ReturnType<typeof runOpenAIJudge>>;
  try {
    const onSettled = () => {
      answered++;
      progress.tick();
    };
    summary = await runOpenAIJudge(cases, { ...settings, apiKey, cachePath: options.cache, log, prompt, onSettled }, async (p) => {
      await sink.write(p);
    });
    progress.done();
    if (summary.predictions > 0 && summary.failed === summary.predictions) {
      // Zero answers is an error, not an empty pass (most likely a wrong --base-url or a dead server).
      throw new InputError(`no request succeeded (${summary.failed} failed); first failure: ${summary.firstFailure}`);
    }
    await sink.commit();
  } catch (err) {
    progress.done(false);
    await sink.abort();
    if (err instanceof ChatConfigError) {
      throw new InputError(err.message.startsWith("cannot reach ") ? err.message : `the server refused the request: ${err.message}`);
    }
    if (isClosedPipe(err)) return EXIT_OK;
    throw err;
  } finally {
    stopInterrupt();
  }
  await writeDumpMeta(options.out, {
    judge: "openai",
    judge_version: OPENAI_JUDGE_VERSION,
    source: "live",
    ...(sentenceRuleOf(options) === "punkt" ? { sentences: "punkt" as const } : {}),
    base_url: settings.baseUrl,
    model: settings.model,
    temperature: settings.temperature ?? null,
    max_tokens: settings.maxTokens ?? null,
    max_tokens_field: settings.maxTokens !== undefined ? settings.maxTokensField : null,
    runs: settings.runs,
    cases: cases.length,
    prompt_sha256: prompt?.sha256 ?? null,
    usage: usageJson(summary.usage),
  });
  if (summary.skippedCacheLines.length > 0) {
    log(
      `ignored ${summary.skippedCacheLines.length} unreadable cache line(s) (e.g. line ${summary.skippedCacheLines[0]}; a torn last line after a kill is expected)`,
    );
  }
  if (!summary.jsonMode && settings.jsonMode) log("the server rejected response_format json_object; asked without it");
  process.stderr.write(
    `mari predict: ${summary.predictions} predictions (${cases.length} cases × ${settings.runs} run(s)): ` +
      `${summary.fromCache} from cache, ${summary.requested} requested, ${summary.retries} retries, ` +
      `${summary.malformed} malformed answers, ${summary.failed} failed requests` +
      `${summary.malformedFromCache > 0 ? ` (${summary.malformedFromCache} of the malformed answers from cache)` : ""}; ` +
      `tokens: ${summary.usage.promptTokens} prompt, ${summary.usage.completionTokens} completion\n`,
  );
  if (summary.failed > 0) {
    process.stderr.write(
      `mari predict: warning: ${summary.failed} request(s) failed after retries; they are in the dump as failed predictions ` +
        `(format-invalid for mari eval)${options.cache ? "; rerun with the same --cache to retry only those" : ""}\n`,
    );
  }
  return EXIT_OK;
}

export function registerPredict(program: Command, wrap: ActionWrapper, summary: string): void {
  program
    .command("predict")
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
    .option("--progress <mode>", "openai: progress on stderr: auto|bar|plain|none", "auto")
    .option("--quiet", "no progress or diagnostics on stderr beyond errors and the summary line")
    .addOption(sentencesOption())
    .addHelpText("after", PREDICT_HELP)
    .action(
      wrap(async (slicePath: string, options: PredictOptions) =>
        options.judge === "lexical" ? predictLexical(slicePath, options) : predictOpenAI(slicePath, options),
      ),
    );
}
