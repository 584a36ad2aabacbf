// `mari predict --judge openai --batch-requests FILE` (write a batch request file, no network) and
// `--batch-results FILE` (turn a batch output file into an ordinary dump), plus what both share
// with the live run: the prompt template flag and the DUMP.meta.json sidecar.
import { readFile } from "node:fs/promises";
import { InputError } from "../../io/errors.js";
import { parseDumpJson, isBatchOutputLine } from "../../io/dump.js";
import { readLines } from "../../io/lines.js";
import { writeBatchRequests, type BatchRequestOptions } from "../../judges/batch-requests.js";
import { readBatchOutputLine } from "../../judges/batch-results.js";
import { addUsage, type TokenUsage } from "../../judges/chat-request.js";
export { usageJson, writeDumpMeta } from "../../judges/dump-meta.js";
import { openDumpSink } from "../../judges/dump-writer.js";
import { makePromptTemplate, promptTemplateProblems, type PromptTemplate } from "../../judges/prompt-template.js";
import { predictionLine, type JudgeCase, type PredictionBody } from "../../judges/types.js";

/**
 * Reads and checks `--prompt FILE`. With JSON mode the template must say "JSON": OpenAI refuses a
 * `response_format: json_object` request whose messages never mention JSON, and a prompt that does
 * not ask for the JSON answer leaves the model to guess the shape the answer parser needs.
 */
export async function loadPromptFlag(path: string | undefined, jsonMode: boolean): Promise<PromptTemplate | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new InputError(`--prompt ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const problems = promptTemplateProblems(text);
  if (jsonMode && !/json/i.test(text)) {
    problems.push(
      "with JSON mode (response_format json_object) the prompt must contain the word JSON: OpenAI refuses such a request otherwise, and the model must be asked for the JSON answer; ask for it in the template, or pass --no-json-mode",
    );
  }
  if (problems.length > 0) throw new InputError(`--prompt ${path}: ${problems.join("; ")}`);
  return makePromptTemplate(text);
}

export async function predictBatchRequests(path: string, cases: readonly JudgeCase[], options: BatchRequestOptions): Promise<string> {
  const { lines, bytes } = await writeBatchRequests(path, cases, options);
  return `mari predict: wrote ${lines} batch requests (${cases.length} cases × ${options.runs} run(s), ${bytes} bytes) to ${path}`;
}

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
): Promise<BatchResultsSummary> {
  const index = new Map<string, number>(cases.map((c, i) => [c.id, i]));
  const bodies: (PredictionBody | undefined)[] = new Array(cases.length * runs);
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
  const beyond = { lines: 0, maxRun: 0, firstLine: undefined as number | undefined };
  for await (const line of readLines(resultsPath)) {
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
  const sink = await openDumpSink(outPath);
  try {
    for (let slot = 0; slot < bodies.length; slot++) {
      const body = bodies[slot];
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
  return summary;
}
