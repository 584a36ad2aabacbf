// `mari predict SLICE --judge lexical|openai`: runs a judge over a document slice and writes a
// prediction dump (JSONL) that `mari eval --predictions` reads (docs/judges.md).
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { EXIT_OK } from "../exit-codes.js";
import { sentenceRuleOf, sliceCacheDirOf } from "../slice-flags.js";
import { isClosedPipe } from "../../judges/dump-writer.js";
import { progressModeFor } from "../progress.js";
import { stopOpenPhases, terminalObserver } from "../observer.js";
import type { RunObserver } from "../../io/observer.js";
import { onInterrupt } from "../interrupt.js";
import { predictLexical as judgeLexically } from "../../tasks/predict/lexical.js";
import { predictFromBatchResults, writePredictBatchRequests } from "../../tasks/predict/batch.js";
import { JUDGE_PHASE, predictOpenAI as judgeLive } from "../../tasks/predict/live.js";
import { loadPromptFlag } from "./predict-prompt.js";
import { PREDICT_HELP } from "./predict-help.js";
import { addOptions } from "../options/add-options.js";
import { answerCacheOf, judgeAccess, limitOf, liveJudgeSettings, runsOf, samplingOf, type PredictOptions } from "./predict-settings.js";

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

async function predictLexical(slicePath: string, options: PredictOptions): Promise<number> {
  const openaiOnly = (["batchRequests", "batchResults", "prompt", "maxTokens"] as const).filter((k) => options[k] !== undefined);
  if (openaiOnly.length > 0) {
    const names = { batchRequests: "--batch-requests", batchResults: "--batch-results", prompt: "--prompt", maxTokens: "--max-tokens" };
    throw new InputError(`${openaiOnly.map((k) => names[k]).join(", ")}: only for --judge openai (the lexical judge sends no requests)`);
  }
  if (runsOf(options) !== 1) {
    throw new InputError("--runs applies to --judge openai; the lexical judge is deterministic (every run would be identical)");
  }
  const outcome = await judgeLexically({
    slicePath,
    sentences: sentenceRuleOf(options),
    sliceCacheDir: sliceCacheDirOf(options),
    ...limitOf(options),
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
  const runs = runsOf(options);
  const slice = {
    slicePath,
    sentences: sentenceRuleOf(options),
    sliceCacheDir: sliceCacheDirOf(options),
    ...limitOf(options),
    observer: predictObserver(options),
  };
  if (options.batchRequests !== undefined) {
    if (!options.model) throw new InputError("--batch-requests needs --model M (it goes into every request body)");
    const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
    const request = { model: options.model, ...samplingOf(options), runs, jsonMode: options.jsonMode, prompt };
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
  const access = judgeAccess(options, process.env);
  const prompt = await loadPromptFlag(options.prompt, options.jsonMode);
  const judge = liveJudgeSettings(options, access, prompt);
  const limit = limitOf(options);
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
  const command = program.command("predict").description(summary).argument("<slice>", "document slice (JSONL, CSV or ContraDoc JSON)");
  addOptions(command, "predict")
    .addHelpText("after", PREDICT_HELP)
    .action(
      wrap(async (slicePath: string, options: PredictOptions) =>
        options.judge === "lexical" ? predictLexical(slicePath, options) : predictOpenAI(slicePath, options),
      ),
    );
}
