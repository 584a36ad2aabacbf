// The Batch API route of `mari predict --judge openai`: `writePredictBatchRequests` writes a request
// file (no network, no key), `predictFromBatchResults` turns a batch output file into an ordinary
// dump with its DUMP.meta.json. Everything the two modes do except reading flags and printing.
import { InputError } from "../../io/errors.js";
import { parseDumpJson, isBatchOutputLine } from "../../io/dump.js";
import { readLines } from "../../io/lines.js";
import { inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { oneRunEach } from "../../io/output-guard.js";
import { writeBatchRequests, type BatchRequestOptions } from "../../judges/batch-requests.js";
import { readBatchOutputLine } from "../../judges/batch-results.js";
import { addUsage, type TokenUsage } from "../../judges/chat-request.js";
import { usageJson, writeDumpMeta } from "../../judges/dump-meta.js";
import { openDumpSink } from "../../judges/dump-writer.js";
import { OPENAI_JUDGE_VERSION } from "../../judges/openai.js";
import type { PromptTemplate } from "../../judges/prompt-template.js";
import { predictionLine, type JudgeCase, type PredictionBody } from "../../judges/types.js";
import { counted, readJudgeCases, type JudgeSliceSettings } from "./cases.js";

export interface BatchRequestsSettings extends JudgeSliceSettings {
  /** The request file to write (atomically). */
  requestsPath: string;
  /** What goes into every request body, and the runs per case. */
  request: BatchRequestOptions;
}

export interface BatchRequestsOutcome {
  cases: number;
  lines: number;
  bytes: number;
}

/** Writes one Batch API request line per case × run. */
export const writePredictBatchRequests = oneRunEach(async (settings: BatchRequestsSettings): Promise<BatchRequestsOutcome> => {
  const observer = settings.observer ?? SILENT_OBSERVER;
  const cases = await readJudgeCases(settings, observer);
  const { requestsPath, request } = settings;
  const written = await inPhase(observer, "write requests (lines)", cases.length * request.runs, (progress) =>
    writeBatchRequests(requestsPath, counted(cases, progress, request.runs), request),
  );
  return { cases: cases.length, ...written };
});

export interface BatchResultsSettings extends JudgeSliceSettings {
  /** A Batch API or vLLM run_batch output file. */
  resultsPath: string;
  /** Runs per case the requests were written with. */
  runs: number;
  /** The dump file (written atomically, with DUMP.meta.json beside it); absent or "-": stdout. */
  out?: string | undefined;
  /** Recorded in the meta; absent: the models the responses name. */
  model?: string | undefined;
  /** The template the requests were written with (its hash goes into the meta). */
  prompt?: PromptTemplate | undefined;
}

export interface BatchResultsOutcome {
  cases: number;
  summary: BatchResultsSummary;
}

/** Converts a batch output file into a dump in slice order and writes the dump's meta. */
export const predictFromBatchResults = oneRunEach(async (settings: BatchResultsSettings): Promise<BatchResultsOutcome> => {
  const observer = settings.observer ?? SILENT_OBSERVER;
  const cases = await readJudgeCases(settings, observer);
  const summary = await convertBatchResults(settings.resultsPath, cases, settings.runs, settings.out, observer);
  await writeDumpMeta(settings.out, {
    judge: "openai",
    judge_version: OPENAI_JUDGE_VERSION,
    source: "batch",
    ...(settings.sentences === "punkt" ? { sentences: "punkt" as const } : {}),
    base_url: null,
    // The model given, else the model(s) the output file's responses name.
    model: settings.model ?? (summary.models.length > 0 ? summary.models.join(", ") : null),
    temperature: null,
    max_tokens: null,
    max_tokens_field: null,
    runs: settings.runs,
    cases: cases.length,
    prompt_sha256: settings.prompt?.sha256 ?? null,
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
  return { cases: cases.length, summary };
});

/** The request itself failed (no answer to judge), as opposed to an answer that was judged. */
function isRequestFailure(body: PredictionBody): boolean {
  return body.error?.code === "request_failed" || body.error?.code === "no_choices";
}

export interface BatchResultsSummary {
  predictions: number;
  missing: number;
  orphans: number;
  duplicates: number;
  failed: number;
  malformed: number;
  usage: TokenUsage;
  /** The models that answered (the responses' `model`), in order of first appearance. */
  models: string[];
}

/**
 * Reads a batch output file into a dump in slice order × run order. Lines that are not batch output
 * lines are errors naming file:line; a line for a (case, run) outside the slice or the runs is an
 * orphan (counted, not written), and a line for a run at or past `runs` is an input error (the
 * requests had more runs); a (case, run) without a line is missing (not written, so `mari eval`
 * counts it as missing_prediction); a second line for a (case, run) is a duplicate: the first
 * answer wins, and an answer replaces a failed request recorded before it (a retry).
 */
export async function convertBatchResults(
  resultsPath: string,
  cases: readonly JudgeCase[],
  runs: number,
  outPath: string | undefined,
  observer: RunObserver = SILENT_OBSERVER,
): Promise<BatchResultsSummary> {
  const summary: BatchResultsSummary = {
    predictions: 0,
    missing: 0,
    orphans: 0,
    duplicates: 0,
    failed: 0,
    malformed: 0,
    usage: { promptTokens: 0, completionTokens: 0 },
    models: [],
  };
  const bodies = await inPhase(observer, "read batch results (lines)", undefined, (progress) =>
    readBatchBodies(resultsPath, cases, runs, summary, () => progress.tick()),
  );
  await inPhase(observer, "write dump (predictions)", bodies.length, (progress) =>
    writeBatchDump(bodies, cases, runs, outPath, summary, () => progress.tick()),
  );
  return summary;
}

/** The kept answer of each (case, run) slot, case-major; orphans, duplicates and usage counted into `summary`. */
async function readBatchBodies(
  resultsPath: string,
  cases: readonly JudgeCase[],
  runs: number,
  summary: BatchResultsSummary,
  onLine: () => void,
): Promise<(PredictionBody | undefined)[]> {
  const index = new Map<string, number>(cases.map((c, i) => [c.id, i]));
  const bodies: (PredictionBody | undefined)[] = new Array(cases.length * runs);
  const beyond = { lines: 0, maxRun: 0, firstLine: undefined as number | undefined };
  for await (const line of readLines(resultsPath)) {
    onLine();
    const parsed = parseDumpJson(line.text);
    if ("error" in parsed) {
      if (parsed.error.code === "blank_line") continue;
      throw new InputError(`${resultsPath}:${line.lineNo}: ${parsed.error.message}`);
    }
    if (!isBatchOutputLine(parsed.record))
      throw new InputError(`${resultsPath}:${line.lineNo}: not a batch output line (needs a string custom_id and response or error)`);
    const read = readBatchOutputLine(parsed.record);
    const caseIndex = "orphan" in read ? undefined : index.get(read.caseId);
    if ("orphan" in read || caseIndex === undefined) {
      summary.orphans++;
      continue;
    }
    if (read.run >= runs) {
      // A case of the slice with a run past --runs: the requests were written with more runs.
      beyond.lines++;
      beyond.maxRun = Math.max(beyond.maxRun, read.run);
      beyond.firstLine ??= line.lineNo;
      continue;
    }
    const slot = caseIndex * runs + read.run;
    const kept = bodies[slot];
    if (kept !== undefined) {
      summary.duplicates++;
      // A retried request: its answer replaces the failure the batch recorded first.
      if (!isRequestFailure(kept) || isRequestFailure(read.prediction)) continue;
    }
    bodies[slot] = read.prediction;
    addUsage(summary.usage, read.usage);
    if (read.model !== undefined && !summary.models.includes(read.model) && summary.models.length < 10) summary.models.push(read.model);
  }
  if (beyond.lines > 0) {
    throw new InputError(
      `${resultsPath}:${beyond.firstLine}: ${beyond.lines} output lines name runs up to ${beyond.maxRun} of slice cases, but --runs is ${runs}` +
        ` (the default is 1): give the --runs the requests were written with (--runs ${beyond.maxRun + 1})`,
    );
  }
  return bodies;
}

/** Writes the kept answers in slot order; a slot without one is counted missing (eval's missing_prediction). */
async function writeBatchDump(
  bodies: readonly (PredictionBody | undefined)[],
  cases: readonly JudgeCase[],
  runs: number,
  outPath: string | undefined,
  summary: BatchResultsSummary,
  onSlot: () => void,
): Promise<void> {
  const sink = await openDumpSink(outPath);
  try {
    for (let slot = 0; slot < bodies.length; slot++) {
      const body = bodies[slot];
      onSlot();
      if (body === undefined) {
        summary.missing++;
        continue;
      }
      if (isRequestFailure(body)) summary.failed++;
      else if (body.error) summary.malformed++;
      summary.predictions++;
      await sink.write(predictionLine(cases[Math.floor(slot / runs)]!.id, slot % runs, body));
    }
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
