// Which other evaluation tool wrote a prediction dump, if any, told from its first bytes or line:
// an inspect_ai log or a promptfoo output (read by eval-logs.ts), an lm-evaluation-harness samples
// file (read by lm-eval-samples.ts). Apart from those readers because every dump is checked and few
// are such logs: only a run given one loads its reader (and the zip reader of inspect's `.eval`).
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { InputError } from "../io/errors.js";
import { MAX_WHOLE_FILE_BYTES } from "../io/input-contract.js";
import { fileStartsWith, readInputText, wholeFileTooLarge } from "../io/input-file.js";
import { firstNonBlankLine } from "../io/lines.js";
import { ZIP_MAGIC } from "../io/magic.js";
import { isJsonObject, type JsonObject } from "../io/records.js";

export type EvalLogKind = "inspect-eval" | "inspect-json" | "promptfoo-json" | "promptfoo-jsonl";

/** A JSON value's text without throwing on depth (a hostile file); undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A promptfoo result (an EvaluateResult): indices of its test and prompt, and a provider. */
export function isPromptfooResult(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.testIdx === "number" && typeof value.promptIdx === "number" && isJsonObject(value.provider);
}

function isInspectLog(value: unknown): value is JsonObject {
  return isJsonObject(value) && isJsonObject(value.eval) && typeof value.version === "number" && (value.samples === undefined || Array.isArray(value.samples));
}

export function promptfooResults(value: unknown): unknown[] | undefined {
  if (!isJsonObject(value)) return undefined;
  const summary = value.results;
  if (isJsonObject(summary) && Array.isArray(summary.results)) return summary.results;
  return undefined;
}

/**
 * Which tool wrote the file, if any: a zip (`PK\3\4`) is an inspect `.eval`; a file whose first
 * line is a promptfoo result is promptfoo JSONL; a whole-file JSON object that is an inspect log or
 * a promptfoo output is that. Anything else is left to the dump reader.
 */
export async function detectEvalLog(path: string): Promise<EvalLogKind | undefined> {
  if (await fileStartsWith(path, ZIP_MAGIC)) return "inspect-eval";
  const line = await firstNonBlankLine(path);
  if (line?.text === null) return undefined;
  const trimmed = (line?.text ?? "").trimStart();
  if (!trimmed.startsWith("{")) return undefined;
  const first = parseJson(trimmed);
  if (first !== undefined) {
    if (isPromptfooResult(first)) return "promptfoo-jsonl";
    // A one-line JSON document.
    if (isInspectLog(first)) return "inspect-json";
    if (promptfooResults(first) !== undefined) return "promptfoo-json";
    return undefined;
  }
  // A JSON document over several lines, as both tools write .json (indented: `{` alone on the first
  // line). Anything else, such as a JSONL dump with a malformed first line, is not read whole here.
  if (trimmed.trimEnd() !== "{") return undefined;
  if ((await stat(path)).size >= MAX_WHOLE_FILE_BYTES) throw wholeFileTooLarge(path);
  const text = await readInputText(path).catch(() => undefined);
  const whole = text === undefined ? undefined : parseJson(text.replace(/^\uFEFF/, ""));
  if (isInspectLog(whole)) return "inspect-json";
  if (promptfooResults(whole) !== undefined) return "promptfoo-json";
  return undefined;
}

/** A line of a samples file (a sample of any lm-eval task). */
export function isLmEvalSample(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.doc_id === "number" && isJsonObject(value.doc) && Array.isArray(value.resps);
}

/** lm-eval's results file: aggregate metrics per task, its task configs and versions. */
function isLmEvalResults(value: unknown): boolean {
  return (
    isJsonObject(value) && isJsonObject(value.results) && isJsonObject(value.configs) && (isJsonObject(value.versions) || isJsonObject(value["n-samples"]))
  );
}

const WHOLE_FILE_LIMIT = 64 * 1024 * 1024;

/**
 * Whether the file is an lm-eval samples file; throws the refusal when it is lm-eval's results
 * file. A file whose first line is not one of lm-eval's is left to the other readers.
 */
export async function detectLmEvalSamples(path: string, size: number): Promise<boolean> {
  const line = await firstNonBlankLine(path);
  if (line === null || line.text === null) return false;
  const head = line.text.trim();
  if (!head.startsWith("{")) return false;
  let first: unknown;
  try {
    first = JSON.parse(head);
  } catch {
    first = undefined;
  }
  if (isLmEvalSample(first)) return true;
  // The results file is indented JSON (`{` alone on its first line), or one line.
  if (first === undefined && (head !== "{" || size > WHOLE_FILE_LIMIT)) return false;
  let whole = first;
  if (whole === undefined) {
    try {
      whole = JSON.parse((await readInputText(path)).replace(/^\uFEFF/, ""));
    } catch {
      return false;
    }
  }
  if (isLmEvalResults(whole)) throw new InputError(`${path}: ${await resultsRefusal(path)}`);
  return false;
}

async function resultsRefusal(path: string): Promise<string> {
  const dir = dirname(path);
  const samples = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^samples_.+\.jsonl$/.test(name)).sort();
  const beside =
    samples.length > 0
      ? `: ${samples
          .slice(0, 3)
          .map((name) => join(dir, name))
          .join(", ")}${samples.length > 3 ? ", …" : ""}`
      : " (samples_<task>_<date>.jsonl, written beside it by lm_eval --log_samples)";
  return `this is lm-evaluation-harness's results file (${basename(path)}: aggregate metrics, no answers); give mari the per-sample file instead${beside}`;
}
