// Is this file a prediction dump at all? Checked before scoring, so a wrong file is an input error
// that says what was expected and what the file holds, instead of a report of zeros or of
// "accuracy ≈ 0.5" from every line scored as a format-invalid negative.
// - A JSON array, or one JSON object spread over several lines: "expected JSONL, one prediction
//   per line". A first line that is an array by itself is one only when no prediction line follows.
// - Lines that parse, none carrying a prediction field (`judgment`, `prediction`, `completion`): not a dump; when
//   the first line looks like a slice case, "did you swap the arguments?".
// The scan stops at the first line with a prediction field (the first line of any real dump), so a
// dump is read once more only as far as that line.
import { open, readFile, stat } from "node:fs/promises";
import { InputError, located } from "../../io/errors.js";
import { dumpLines, type DumpSourceOptions } from "./dump-source.js";
import { isBatchOutputLine, parseDumpLine, PREDICTION_FIELDS } from "../../io/dump.js";
import { isJsonObject } from "../../io/records.js";

const EXAMPLE = '{"case_id": "…", "judgment": true, "evidence_sentence_ids": [2]}';
/** Above this size a first line that is not JSON is not re-read as one whole JSON document. */
const WHOLE_FILE_LIMIT = 64 * 1024 * 1024;
/** Fields that make a record look like a document-slice case. */
const SLICE_FIELDS = ["sentences", "text", "document", "gold_sentence_ids", "label"];

function summarise(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function holds(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  return keys.length === 0
    ? "an empty object"
    : `an object with keys ${keys
        .slice(0, 8)
        .map((k) => `"${k}"`)
        .join(", ")}${keys.length > 8 ? ", …" : ""}`;
}

/** Bytes of a dump's head that its form is told from. */
const FORM_HEAD_BYTES = 1 << 16;
const JSON_FLAGS = "-o out.json or -o out.jsonl";

/**
 * A form mari does not read as a dump, told from the file's head: promptfoo's YAML, text, CSV, HTML
 * and XML outputs (each named with the flag that writes a readable one), and any other YAML, CSV,
 * HTML or XML file. Undefined for anything else (JSONL, Parquet, a zip, a JSON log).
 */
export function unreadableForm(head: string): string | undefined {
  const text = head.replace(/^\uFEFF/, "").trimStart();
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n")).replace(/\r$/, "");
  const promptfoo = (form: string, flag: string) =>
    `a promptfoo output in ${form} (${flag}), which mari does not read: write it with ${JSON_FLAGS} (promptfoo eval -o FILE takes several)`;
  if (/^evalId: /.test(firstLine) && /^results:\s*$/m.test(text)) return promptfoo("YAML or text", "-o out.yaml / out.txt");
  if (/^<promptfoo>/.test(firstLine)) return promptfoo("XML", "-o out.xml");
  if (/,Status,Score,Named Scores,Grader Reason,Comment(,|$)/.test(firstLine)) return promptfoo("CSV", "-o out.csv");
  if (/^<(!doctype html|html)[\s>]/i.test(text)) {
    return /promptfoo|<title>Eval Output<\/title>/i.test(text) ? promptfoo("HTML", "-o out.html") : "an HTML page, not a dump";
  }
  if (/^<\?xml[\s?]/.test(text) || /^<[A-Za-z][\w.-]*>\s*$/.test(firstLine)) return "an XML document, not a dump";
  if (/^---\s*$/.test(firstLine) || /^[A-Za-z_][\w.-]*:( |$)/.test(firstLine)) return "a YAML or text document, not a dump";
  return undefined;
}

async function headOf(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(FORM_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, FORM_HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

export async function assertPredictionDump(dumpPath: string, source: DumpSourceOptions = {}): Promise<void> {
  // Sniffed before any line is read as JSONL: a file in another form is refused whole, never scored line by line.
  const form = unreadableForm(await headOf(dumpPath));
  if (form !== undefined) {
    const what = form.startsWith("a promptfoo output") ? "" : `; a dump is JSONL, one prediction per line (${EXAMPLE}), Parquet or an eval-tool log`;
    throw new InputError(`${dumpPath}: ${form}${what}`);
  }
  let first: { text: string; lineNo: number } | null = null;
  let firstRecord: Record<string, unknown> | null = null;
  let sawObject = false;
  const jsonArray = (lineNo: number) =>
    new InputError(located(dumpPath, lineNo, `expected JSONL, one prediction per line (${EXAMPLE}); this file is a JSON array (convert it: jq -c '.[]' FILE)`));
  // A first line that is a whole JSON array by itself: a JSON array on one line, unless a
  // prediction line follows it (then a JSONL line like any other, counted as not_an_object).
  let arrayLine = false;
  for await (const line of dumpLines(dumpPath, source)) {
    if (line.text === null || line.text.trim() === "") continue;
    const parsed = parseDumpLine(line.text);
    if (first === null) {
      first = { text: line.text, lineNo: line.lineNo };
      const trimmed = line.text.trimStart();
      if (trimmed.startsWith("[")) {
        if (!("error" in parsed && parsed.error.code === "not_an_object")) throw jsonArray(line.lineNo);
        arrayLine = true;
        continue;
      }
      if ("error" in parsed && trimmed.startsWith("{") && (await isOneJsonObject(dumpPath))) {
        throw new InputError(
          located(dumpPath, line.lineNo, `expected JSONL, one prediction per line (${EXAMPLE}); this file is a single JSON object spread over several lines`),
        );
      }
      if (!("error" in parsed)) firstRecord = parsed.record;
    }
    if ("error" in parsed) continue;
    const record = parsed.record;
    sawObject = true;
    // A Batch API / vLLM output line carries its prediction inside `response`.
    if (PREDICTION_FIELDS.some((field) => Object.hasOwn(record, field)) || isBatchOutputLine(record)) return;
  }
  if (arrayLine) throw jsonArray(first!.lineNo);
  // An empty dump, or one whose lines are all unreadable: the run counts each line's rejection.
  if (first === null || !sawObject) return;
  const what = firstRecord !== null ? holds(firstRecord) : `"${summarise(first.text)}"`;
  const swapped = firstRecord !== null && SLICE_FIELDS.filter((f) => Object.hasOwn(firstRecord!, f)).length >= 2;
  // `mari serve --log` lines carry the request, the item and its rewards; the answer only with --log-predictions.
  const servedLog = firstRecord !== null && SERVE_LOG_FIELDS.every((f) => Object.hasOwn(firstRecord!, f));
  const hint = swapped
    ? ". It looks like a document slice: did you swap the arguments? (mari eval SLICE --predictions DUMP)"
    : servedLog
      ? ". It looks like a mari serve --log written without --log-predictions: it holds the rewards, not the answers; serve with --log FILE --log-predictions to replay the log with mari eval"
      : "";
  throw new InputError(
    `${dumpPath}: not a prediction dump: no line has a ${PREDICTION_FIELDS.map((f) => `"${f}"`).join(", ")} field (expected JSONL, one prediction per line: ${EXAMPLE}); its first line (line ${first.lineNo}) holds ${what}${hint}`,
  );
}

/** Fields every `mari serve --log` line has. */
const SERVE_LOG_FIELDS = ["request", "item", "case_id", "format_valid"];

async function isOneJsonObject(path: string): Promise<boolean> {
  try {
    if ((await stat(path)).size > WHOLE_FILE_LIMIT) return false;
    return isJsonObject(JSON.parse(await readFile(path, "utf8")));
  } catch {
    return false;
  }
}
