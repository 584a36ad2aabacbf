// Logs of other evaluation tools read as prediction dumps: inspect_ai logs (`.json`, and `.eval`,
// a zip of `header.json`, `samples/<id>_epoch_<n>.json`, `summaries.json`, …) and promptfoo
// outputs (`-o results.json`, whose `results.results` is the list of results, or `-o
// results.jsonl`, one result per line). Each sample or result becomes one dump line: the case id
// from the sample id or a named field (`--id-field`), the run from the epoch (inspect) or the
// repeat (promptfoo: the how-many-th result of the same case, provider and prompt), and the
// model's answer read by the judges' own answer parser (a JSON answer), or kept as a completion
// when it is in the `<think>…</think><answer>…</answer>` layout. Line N of the result stands for
// the Nth sample or result, so every message points at it.
import { tooDeepLine } from "../io/depth.js";
import { parseCompletionLayout } from "../io/dump.js";
import { InputError } from "../io/errors.js";
import { MAX_VALUE_DEPTH, strictUtf8, tooDeep } from "../io/input-contract.js";
import { readInputText } from "../io/input-file.js";
import { readLines } from "../io/lines.js";
import { isJsonObject, type JsonObject } from "../io/records.js";
import { ZipError, ZipReader } from "../io/zip.js";
import { failedPrediction, parseJudgeAnswer } from "./answer.js";
import { isPromptfooResult, parseJson, promptfooResults, type EvalLogKind } from "./log-kind.js";
import type { PredictionBody } from "./types.js";

export interface EvalLogOptions {
  /** Where the case id is: a field of the sample's metadata (inspect) or of the test's vars (promptfoo). */
  idField?: string;
}

/** An answer as text and reasoning, from a string or a list of content blocks. */
function answerOf(content: unknown, attachments: JsonObject): { text: string | undefined; reasoning: string | undefined } {
  const resolve = (s: string) => {
    // inspect_ai moves long texts into the sample's `attachments`, leaving `attachment://<hash>`.
    const m = /^attachment:\/\/(.+)$/.exec(s);
    const stored = m ? attachments[m[1]!] : undefined;
    return typeof stored === "string" ? stored : s;
  };
  if (typeof content === "string") return { text: resolve(content), reasoning: undefined };
  if (!Array.isArray(content)) return { text: undefined, reasoning: undefined };
  const texts: string[] = [];
  const thoughts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") texts.push(resolve(block));
    if (!isJsonObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(resolve(block.text));
    // inspect_ai `reasoning` blocks; Anthropic-style `thinking` blocks in a promptfoo output.
    if (block.type === "reasoning" && typeof block.reasoning === "string") thoughts.push(resolve(block.reasoning));
    if (block.type === "thinking" && typeof block.thinking === "string") thoughts.push(resolve(block.thinking));
  }
  return { text: texts.length > 0 ? texts.join("") : undefined, reasoning: thoughts.length > 0 ? thoughts.join("\n") : undefined };
}

/** The dump line of one answer: a completion in the tagged layout, else the parsed JSON answer. */
export function lineOf(caseId: unknown, run: string, answer: { text: string | undefined; reasoning: string | undefined } | PredictionBody): string {
  const head = { case_id: caseId, run };
  if ("judgment" in answer) return JSON.stringify({ ...head, ...answer });
  if (answer.text !== undefined && parseCompletionLayout(answer.text) !== undefined) return JSON.stringify({ ...head, completion: answer.text });
  const body = parseJudgeAnswer(answer.text, typeof caseId === "string" ? caseId : "");
  // A JSON answer without its own reasoning takes the model's reasoning blocks.
  if (body.error === undefined && (body.reasoning === null || body.reasoning === undefined) && answer.reasoning !== undefined)
    body.reasoning = answer.reasoning;
  return JSON.stringify({ ...head, ...body });
}

export function idText(value: unknown): unknown {
  return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
}

/** One inspect_ai sample (EvalSample) → its dump line. */
function inspectLine(sample: unknown, options: EvalLogOptions): string {
  if (tooDeep(sample)) return tooDeepLine();
  if (!isJsonObject(sample)) return JSON.stringify(sample ?? null);
  const metadata = isJsonObject(sample.metadata) ? sample.metadata : {};
  const caseId = idText(options.idField !== undefined ? metadata[options.idField] : sample.id);
  const run = typeof sample.epoch === "number" ? String(sample.epoch) : "1";
  const output = isJsonObject(sample.output) ? sample.output : {};
  const failure = isJsonObject(sample.error)
    ? sample.error
    : isJsonObject(output.error)
      ? output.error
      : typeof output.error === "string"
        ? { message: output.error }
        : undefined;
  if (failure !== undefined) {
    return lineOf(caseId, run, failedPrediction("request_failed", `the sample ended in an error: ${String(failure.message ?? "unknown")}`));
  }
  const choice = Array.isArray(output.choices) && isJsonObject(output.choices[0]) ? output.choices[0] : undefined;
  const message = choice !== undefined && isJsonObject(choice.message) ? choice.message : undefined;
  const attachments = isJsonObject(sample.attachments) ? sample.attachments : {};
  return lineOf(caseId, run, answerOf(message?.content, attachments));
}

/**
 * promptfoo results → dump lines, the run being the repeat: the how-many-th result of its case,
 * provider and prompt. An item that is not a result keeps its own text (`raw`), so the dump reader
 * rejects it as it would in any dump (null: not valid UTF-8).
 */
function promptfooLines(results: readonly unknown[], options: EvalLogOptions, raw: readonly (string | null)[] = []): (string | null)[] {
  const seen = new Map<string, number>();
  const pairs = new Set<string>();
  // A result nested too deep is never walked (String() and JSON.stringify recurse).
  const deep = results.map(tooDeep);
  for (const [i, r] of results.entries()) if (!deep[i] && isPromptfooResult(r)) pairs.add(pairOf(r));
  // In test order, so the repeats of a case count up as promptfoo ran them.
  const order = results.map((r, i) => ({ r, i })).sort((a, b) => testIdxOf(a.r) - testIdxOf(b.r) || a.i - b.i);
  const lines = new Array<string | null>(results.length);
  for (const { r, i } of order) {
    if (deep[i]) {
      lines[i] = tooDeepLine();
      continue;
    }
    if (!isPromptfooResult(r)) {
      lines[i] = raw[i] !== undefined ? raw[i]! : JSON.stringify(r ?? null);
      continue;
    }
    const vars = isJsonObject(r.vars) ? r.vars : isJsonObject(r.testCase) && isJsonObject(r.testCase.vars) ? r.testCase.vars : {};
    const caseId = idText(options.idField !== undefined ? vars[options.idField] : (vars.case_id ?? vars.id));
    const pair = pairOf(r);
    const key = `${JSON.stringify(caseId)}\u0000${pair}`;
    const repeat = seen.get(key) ?? 0;
    seen.set(key, repeat + 1);
    // Several providers or prompts in one output are several judges: their runs are told apart.
    const run = pairs.size > 1 ? `${pair}/${repeat}` : String(repeat);
    const response = isJsonObject(r.response) ? r.response : {};
    const error = typeof r.error === "string" && r.error !== "" ? r.error : typeof response.error === "string" ? response.error : undefined;
    if (error !== undefined) {
      lines[i] = lineOf(caseId, run, failedPrediction("request_failed", `the provider call failed: ${error}`));
      continue;
    }
    const output = response.output;
    // A provider that returns the parsed JSON object: that object is the answer.
    const answer = isJsonObject(output) ? { text: JSON.stringify(output), reasoning: undefined } : answerOf(output, {});
    lines[i] = lineOf(caseId, run, answer);
  }
  return lines;
}

function pairOf(r: JsonObject): string {
  const provider = isJsonObject(r.provider) ? r.provider : {};
  const name = typeof provider.label === "string" && provider.label !== "" ? provider.label : String(provider.id ?? "");
  return `${name}#${String(r.promptIdx)}`;
}

function testIdxOf(r: unknown): number {
  return isJsonObject(r) && typeof r.testIdx === "number" ? r.testIdx : Number.POSITIVE_INFINITY;
}

/** A sample member that cannot be read: a failed prediction for the case and epoch its name gives. */
function unreadableSample(name: string, why: string): string {
  const m = /^samples\/(.+)_epoch_(\d+)\.json$/.exec(name);
  return lineOf(m?.[1], m?.[2] ?? "1", failedPrediction("request_failed", `${name} ${why}`));
}

/** inspect_ai `.eval`: the samples/ members, in (epoch, name) order. */
async function inspectEvalLines(path: string, options: EvalLogOptions): Promise<string[]> {
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(path);
  } catch (err) {
    throw new InputError(`${path}: starts like a zip archive (an inspect_ai .eval log) but cannot be read as one: ${(err as Error).message}`);
  }
  try {
    const samples = zip.entries
      .filter((e) => /^samples\/.+\.json$/.test(e.name))
      .map((e) => ({ e, epoch: Number(/_epoch_(\d+)\.json$/.exec(e.name)?.[1] ?? 0) }))
      .sort((a, b) => a.epoch - b.epoch || (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0));
    const lines: string[] = [];
    for (const { e } of samples) {
      let text: string | null;
      try {
        text = strictUtf8(await zip.read(e));
      } catch (err) {
        const why = err instanceof ZipError ? err.message : `cannot be decompressed (${(err as Error).message})`;
        lines.push(unreadableSample(e.name, why));
        continue;
      }
      if (text === null) {
        lines.push(unreadableSample(e.name, "is not valid UTF-8"));
        continue;
      }
      const sample = parseJson(text);
      if (sample === undefined) lines.push(unreadableSample(e.name, "is not JSON"));
      else if (tooDeep(sample)) lines.push(unreadableSample(e.name, `nests deeper than ${MAX_VALUE_DEPTH} levels (the documented limit)`));
      else lines.push(inspectLine(sample, options));
    }
    return lines;
  } finally {
    await zip.close();
  }
}

/** The log's samples or results as dump lines (one per sample or result, in the log's order; null: not valid UTF-8). */
export async function evalLogLines(path: string, kind: EvalLogKind, options: EvalLogOptions = {}): Promise<(string | null)[]> {
  if (kind === "inspect-eval") return inspectEvalLines(path, options);
  if (kind === "promptfoo-jsonl") {
    const results: unknown[] = [];
    const raw: (string | null)[] = [];
    for await (const line of readLines(path)) {
      raw.push(line.text);
      results.push(line.text === null ? undefined : parseJson(line.text));
    }
    return promptfooLines(results, options, raw);
  }
  // Bounded (MAX_WHOLE_FILE_BYTES) and strict UTF-8: a log too large to be one string is refused.
  const whole = parseJson((await readInputText(path)).replace(/^\uFEFF/, ""));
  if (kind === "inspect-json") {
    const samples = isJsonObject(whole) && Array.isArray(whole.samples) ? whole.samples : [];
    return samples.map((s) => inspectLine(s, options));
  }
  return promptfooLines(promptfooResults(whole) ?? [], options);
}
