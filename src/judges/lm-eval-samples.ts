// lm-evaluation-harness's per-sample logs (`lm_eval … --log_samples --output_path DIR` writes
// `samples_<task>_<date>.jsonl`, one line per document and filter: `doc_id`, `doc`, `resps`,
// `filtered_resps`, `filter`, `target`) read as prediction dumps. Each response becomes one dump
// line: the case id from `doc_id` (or, with `--id-field NAME`, the document's field NAME), the run
// from the repeat (the task's `repeats`: the i-th response), and the answer from `filtered_resps`
// when the task's filters kept one per repeat, else from the raw `resps`, read by the judges' own
// answer parser as every other log is. Several filters in one file are several runs of their own
// (`FILTER/REPEAT`). Its `results_<date>.json` holds aggregate metrics and no answer: it is refused,
// naming the samples file beside it.
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { InputError } from "../io/errors.js";
import { readInputText } from "../io/input-file.js";
import { readLines } from "../io/lines.js";
import { isJsonObject, type JsonObject } from "../io/records.js";
import { idText, lineOf } from "./eval-logs.js";

export interface LmEvalOptions {
  /** A field of the sample's `doc` that holds the case id (instead of `doc_id`). */
  idField?: string;
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
  let head: string | undefined;
  for await (const line of readLines(path)) {
    if (line.text === null) return false;
    if (line.text.trim() === "") continue;
    head = line.text.trim();
    break;
  }
  if (head === undefined || !head.startsWith("{")) return false;
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

/** The responses of one sample, one per repeat: filtered ones when the filters kept one per repeat, else the raw ones. */
function responsesOf(sample: JsonObject): unknown[] {
  const raw = (sample.resps as unknown[]).flat();
  const filtered = Array.isArray(sample.filtered_resps) ? sample.filtered_resps.flat() : [];
  return filtered.length === raw.length ? filtered : raw;
}

/** The samples file as dump lines: one per (sample, repeat), in the file's order; a line that is not a sample keeps its text. */
export async function lmEvalSampleLines(path: string, options: LmEvalOptions = {}): Promise<(string | null)[]> {
  const samples: { text: string | null; sample: JsonObject | undefined }[] = [];
  const filters = new Set<string>();
  for await (const line of readLines(path)) {
    if (line.text === null || line.text.trim() === "") {
      samples.push({ text: line.text, sample: undefined });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      value = undefined;
    }
    const sample = isLmEvalSample(value) ? value : undefined;
    if (sample !== undefined) filters.add(typeof sample.filter === "string" ? sample.filter : "");
    samples.push({ text: line.text, sample });
  }
  const lines: (string | null)[] = [];
  for (const { text, sample } of samples) {
    if (sample === undefined) {
      lines.push(text);
      continue;
    }
    const caseId = idText(options.idField !== undefined ? (sample.doc as JsonObject)[options.idField] : sample.doc_id);
    const filter = typeof sample.filter === "string" ? sample.filter : "";
    responsesOf(sample).forEach((response, repeat) => {
      const run = filters.size > 1 ? `${filter}/${repeat}` : String(repeat);
      lines.push(lineOf(caseId, run, { text: typeof response === "string" ? response : undefined, reasoning: undefined }));
    });
  }
  return lines;
}
