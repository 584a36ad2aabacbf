// lm-evaluation-harness's per-sample logs (`lm_eval … --log_samples --output_path DIR` writes
// `samples_<task>_<date>.jsonl`, one line per document and filter: `doc_id`, `doc`, `resps`,
// `filtered_resps`, `filter`, `target`) read as prediction dumps. Each response becomes one dump
// line: the case id from `doc_id` (or, with `--id-field NAME`, the document's field NAME), the run
// from the repeat (the task's `repeats`: the i-th response), and the answer from `filtered_resps`
// when the task's filters kept one per repeat, else from the raw `resps`, read by the judges' own
// answer parser as every other log is. Several filters in one file are several runs of their own
// (`FILTER/REPEAT`). Its `results_<date>.json` holds aggregate metrics and no answer: it is refused,
// naming the samples file beside it.
import { readLines } from "../io/lines.js";
import type { JsonObject } from "../io/records.js";
import { idText, lineOf } from "./eval-logs.js";
import { isLmEvalSample } from "./log-kind.js";

export interface LmEvalOptions {
  /** A field of the sample's `doc` that holds the case id (instead of `doc_id`). */
  idField?: string;
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
