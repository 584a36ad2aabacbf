// `mari predict SLICE --judge lexical|openai`: runs a judge over a document slice and writes a
// prediction dump (JSONL) that `mari eval --predictions` reads (SPEC §6).
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { COMMANDS } from "../command-list.js";
import { InputError } from "../../io/errors.js";
import { EXIT_OK } from "../exit-codes.js";
import { readDocumentSlice } from "../../io/slice.js";
import { isClosedPipe, openDumpSink, writePredictionDump } from "../../judges/dump-writer.js";
import { runLexicalJudge } from "../../judges/lexical.js";
import { runOpenAIJudge } from "../../judges/openai.js";
import { ChatConfigError } from "../../judges/chat-client.js";
import { createProgress, parseProgressMode } from "../progress.js";
import { readSecretEnv } from "../secret-env.js";

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
  temperature: string;
  jsonMode: boolean;
  out?: string;
  quiet?: boolean;
  progress?: string;
}

function integerFlag(value: string, flag: string, min: number): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new InputError(`${flag} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
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

async function predictLexical(slicePath: string, options: PredictOptions): Promise<number> {
  if (integerFlag(options.runs, "--runs", 1) !== 1) {
    throw new InputError("--runs applies to --judge openai; the lexical judge is deterministic (every run would be identical)");
  }
  const slice = await readDocumentSlice(slicePath);
  const predictions = runLexicalJudge(slice.cases);
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

async function predictOpenAI(slicePath: string, options: PredictOptions): Promise<number> {
  const missing = (["baseUrl", "model", "apiKeyEnv"] as const).filter((k) => !options[k]);
  if (missing.length > 0) {
    const flags = { baseUrl: "--base-url URL", model: "--model M", apiKeyEnv: "--api-key-env VAR" };
    throw new InputError(`--judge openai needs ${missing.map((k) => flags[k]).join(", ")}`);
  }
  const apiKey = readSecretEnv(options.apiKeyEnv!, "--api-key-env");
  const settings = {
    baseUrl: checkBaseUrl(options.baseUrl!),
    model: options.model!,
    runs: integerFlag(options.runs, "--runs", 1),
    concurrency: integerFlag(options.concurrency, "--concurrency", 1),
    timeoutMs: integerFlag(options.timeoutMs, "--timeout-ms", 1),
    maxRetries: integerFlag(options.maxRetries, "--max-retries", 0),
    backoff: {
      baseMs: integerFlag(options.retryBaseMs, "--retry-base-ms", 0),
      maxMs: integerFlag(options.retryMaxMs, "--retry-max-ms", 0),
      seed: integerFlag(options.seed, "--seed", 0),
    },
    temperature: numberFlag(options.temperature, "--temperature"),
    jsonMode: options.jsonMode,
  };
  const progressMode = parseProgressMode(options.progress);
  const slice = await readDocumentSlice(slicePath);
  const log = (line: string) => {
    if (!options.quiet) process.stderr.write(`mari predict: ${line}\n`);
  };
  const sink = await openDumpSink(options.out);
  const progress = createProgress({
    mode: options.quiet ? "none" : progressMode,
    label: "mari predict",
    total: slice.cases.length * settings.runs,
  });
  let summary: Awaited<ReturnType<typeof runOpenAIJudge>>;
  try {
    summary = await runOpenAIJudge(slice.cases, { ...settings, apiKey, cachePath: options.cache, log }, async (p) => {
      await sink.write(p);
      progress.tick();
    });
    progress.done();
    if (summary.predictions > 0 && summary.failed === summary.predictions) {
      // Zero answers is an error, not an empty pass (most likely a wrong --base-url or a dead server).
      throw new InputError(`no request succeeded (${summary.failed} failed); first failure: ${summary.firstFailure}`);
    }
    await sink.commit();
  } catch (err) {
    progress.done();
    await sink.abort();
    if (err instanceof ChatConfigError) throw new InputError(`the server refused the request: ${err.message}`);
    if (isClosedPipe(err)) return EXIT_OK;
    throw err;
  }
  if (summary.skippedCacheLines.length > 0) {
    log(`ignored ${summary.skippedCacheLines.length} unreadable cache line(s) (e.g. line ${summary.skippedCacheLines[0]}; a torn last line after a kill is expected)`);
  }
  if (!summary.jsonMode && settings.jsonMode) log("the server rejected response_format json_object; asked without it");
  process.stderr.write(
    `mari predict: ${summary.predictions} predictions (${slice.cases.length} cases × ${settings.runs} run(s)): ` +
      `${summary.fromCache} from cache, ${summary.requested} requested, ${summary.retries} retries, ` +
      `${summary.malformed} malformed answers, ${summary.failed} failed requests\n`,
  );
  if (summary.failed > 0) {
    process.stderr.write(
      `mari predict: warning: ${summary.failed} request(s) failed after retries; they are in the dump as failed predictions ` +
        `(format-invalid for mari eval)${options.cache ? "; rerun with the same --cache to retry only those" : ""}\n`,
    );
  }
  return EXIT_OK;
}

export function registerPredict(program: Command, wrap: ActionWrapper): void {
  program
    .command("predict")
    .description(COMMANDS.predict.summary)
    .argument("<slice>", "document slice (JSONL, CSV or ContraDoc JSON)")
    .addOption(new Option("--judge <name>", "which judge").choices(["lexical", "openai"]).makeOptionMandatory())
    .option("--base-url <url>", "openai: the API base URL (…/v1; /chat/completions is appended)")
    .option("--model <name>", "openai: model name")
    .option("--api-key-env <var>", "openai: NAME of the environment variable holding the API key")
    .option("--runs <k>", "openai: independent runs per case", "1")
    .option("--cache <file>", "openai: JSONL answer cache, appended as answers arrive (resume by rerunning)")
    .option("--concurrency <n>", "openai: requests in flight", "4")
    .option("--timeout-ms <ms>", "openai: timeout per request attempt", "120000")
    .option("--max-retries <n>", "openai: retries on 429, 5xx, timeouts", "6")
    .option("--retry-base-ms <ms>", "openai: first back-off delay (doubles per retry, jittered)", "1000")
    .option("--retry-max-ms <ms>", "openai: longest back-off delay (Retry-After is honoured as given)", "60000")
    .option("--seed <n>", "openai: seed of the back-off jitter", "0")
    .option("--temperature <t>", "openai: sampling temperature", "0")
    .option("--no-json-mode", "openai: do not send response_format {type: json_object}")
    .option("--out <file>", "write the dump to FILE (atomically) instead of stdout")
    .option("--progress <mode>", "openai: progress on stderr: auto|bar|plain|none", "auto")
    .option("--quiet", "no progress or diagnostics on stderr beyond errors and the summary line")
    .action(
      wrap(async (slicePath: string, options: PredictOptions) =>
        options.judge === "lexical" ? predictLexical(slicePath, options) : predictOpenAI(slicePath, options),
      ),
    );
}
