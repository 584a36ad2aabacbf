// Reads prediction dump lines (docs/eval.md, "Inputs", docs/comparable-reports.md): the three
// shapes (structured, cache `{case_id, prediction}`, raw completion), run keys, and the fixed order
// of line-level and per-prediction reason codes. Pure functions over one line's text, so the same
// code runs in-process and in pool workers.
import { exceedsDepth, parseBoundedJson, TOO_DEEP_MESSAGE } from "./depth.js";
import { MAX_JSON_DEPTH } from "../core/limits.js";
import { stripPythonWhitespace } from "../core/python/whitespace.js";
import { completionAsWritten, LAYOUT_TAGS, type CompletionEndRule } from "../core/document/completion-end.js";
import { isJsonObject, nullAsAbsent, parseJsonLine, type JsonObject, type LineRejection } from "./records.js";

/** Line-level rejections, in the order they are checked (a rejected line's code in the pool's results is its index here). */
export const LINE_REJECTIONS = ["invalid_utf8", "blank_line", "malformed_json", "not_an_object", "bad_case_id", "bad_run_key", "duplicate_prediction"] as const;
export type DumpLineRejection = (typeof LINE_REJECTIONS)[number];

/** The top-level fields that carry a prediction in one of the three shapes (structured, cache, raw completion). */
export const PREDICTION_FIELDS = ["judgment", "prediction", "completion"] as const;

/** Per-prediction reasons that make a kept line format-invalid (checked in this order). */
export type PredictionShapeReason = "bad_prediction_shape" | "bad_completion_format" | "bad_judgment" | "bad_evidence_field" | "bad_reasoning";

// JSON.parse turns `2.0` and `2e0` into the integer 2, but the reference rejects floats as IDs and
// run keys. Number tokens with a fraction or exponent are rewritten into this marker object before
// parsing, so every integer check downstream sees a non-integer.
export const FLOAT_MARKER = "$mari_float";
// A JSON float always has a digit right before its `.`, `e` or `E`.
const FLOAT_HINT = /\d[.eE]/;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * The index just past the string that opens at `open` (the text's length when it never closes). Its
 * closing quote is the first one after an even run of backslashes: each backslash escapes the next
 * character, so an odd run escapes the quote. Jumping from quote to quote keeps long strings (a
 * reasoning, a document in a request body) off the character-by-character loop.
 */
function stringEnd(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

/** Rewrites number tokens with a fraction or exponent (outside strings) into FLOAT_MARKER objects. */
export function markFloatTokens(text: string): string {
  let out = "";
  let copiedTo = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x2d /* - */ || isDigit(c)) {
      const start = i;
      let isFloat = false;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isDigit(d) || d === 0x2d || d === 0x2b /* + */) i++;
        else if (d === 0x2e || d === 0x65 || d === 0x45) {
          isFloat = true;
          i++;
        } else break;
      }
      if (isFloat) {
        out += text.slice(copiedTo, start) + `{"${FLOAT_MARKER}":"${text.slice(start, i)}"}`;
        copiedTo = i;
      }
      continue;
    }
    i++;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** Parses a dump line with float detection; rejections as in records.ts. */
export function parseDumpJson(text: string | null, maxDepth?: number): { record: JsonObject } | { error: { code: LineRejection; message: string } } {
  const parsed = parseJsonLine(text, maxDepth);
  if ("error" in parsed) return parsed;
  const marked = withFloatMarks(text!, parsed.record);
  return marked === parsed.record ? parsed : { record: marked };
}

/** `record`, parsed from `text`, with its float tokens as FLOAT_MARKER objects (itself when it has none). */
export function withFloatMarks(text: string, record: JsonObject): JsonObject {
  if (!FLOAT_HINT.test(text)) return record;
  const marked = markFloatTokens(text);
  return marked === text ? record : (JSON.parse(marked) as JsonObject);
}

/**
 * The top-level fields of a dump line that mari reads (any shape: structured, cache, raw
 * completion, batch output). Only these are bounded to MAX_JSON_DEPTH: a field nobody reads may nest
 * as deep as it likes, as in the reference, which scores such a line.
 */
export const READ_FIELDS = [
  "case_id",
  "id",
  "run",
  "sample",
  "judgment",
  "evidence_sentence_ids",
  "evidence",
  "reasoning",
  "prediction",
  "completion",
  "error",
  "custom_id",
  "response",
] as const;
const READ_FIELD_SET: ReadonlySet<string> = new Set(READ_FIELDS);

/**
 * A dump line parsed as `parseDumpJson` does, with the depth bound applied to the fields read only,
 * and a `null` field taken as absent (the one null rule, `nullAsAbsent` in io/records.ts). Any faster
 * reader of dump lines hands a line holding `null` to this function.
 */
export function parseDumpLine(text: string | null): { record: JsonObject } | { error: { code: LineRejection; message: string } } {
  const parsedAsWritten = parseDumpJson(text, Number.POSITIVE_INFINITY);
  if ("error" in parsedAsWritten) return parsedAsWritten;
  const parsed = text!.includes("null") ? { record: nullAsAbsent(parsedAsWritten.record) } : parsedAsWritten;
  // Each level of nesting takes an opening and a closing bracket: a line shorter than that for the
  // line's own level plus MAX_JSON_DEPTH cannot hold a field nested too deeply.
  if (text!.length < 2 * (MAX_JSON_DEPTH + 1)) return parsed;
  return readFieldTooDeep(parsed.record) ? { error: { code: "malformed_json", message: TOO_DEEP_MESSAGE } } : parsed;
}

/** Whether a field mari reads nests deeper than a dump line may (mari serve refuses such an item alike). */
export function readFieldTooDeep(record: JsonObject): boolean {
  // The line itself is level 1, so a field's value may nest one level less.
  // Over the line's own keys (a handful), not the list of fields read: only objects and arrays can be too deep.
  for (const key in record) {
    const value = record[key];
    if (typeof value === "object" && value !== null && READ_FIELD_SET.has(key) && exceedsDepth(value, MAX_JSON_DEPTH - 1)) return true;
  }
  return false;
}

function isFloatMarker(value: unknown): value is { [FLOAT_MARKER]: string } {
  return isJsonObject(value) && typeof value[FLOAT_MARKER] === "string";
}

function present(record: JsonObject, key: string): boolean {
  return Object.hasOwn(record, key) && record[key] !== undefined;
}

/**
 * A line of a batch output file (OpenAI Batch API / vLLM run_batch): a string `custom_id`, a
 * `response` or `error` key, and no `case_id`. Detected per line, so such lines may be mixed with
 * the other shapes; src/judges/batch-results.ts turns one into a prediction.
 */
export function isBatchOutputLine(record: JsonObject): boolean {
  return typeof record.custom_id === "string" && !present(record, "case_id") && (Object.hasOwn(record, "response") || Object.hasOwn(record, "error"));
}

/** Step 2: `case_id`, or `id` when `case_id` is absent; must be a string. */
export function dumpCaseId(record: JsonObject): string | undefined {
  const value = present(record, "case_id") ? record.case_id : record.id;
  return typeof value === "string" ? value : undefined;
}

/** Step 4: `run`, else `sample`, else "0"; integer 1 and string "1" are the same run. */
export function dumpRunKey(record: JsonObject): string | undefined {
  const value =
    record.run !== undefined && record.run !== null && Object.hasOwn(record, "run")
      ? record.run
      : record.sample !== undefined && record.sample !== null && Object.hasOwn(record, "sample")
        ? record.sample
        : "0";
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Why `dumpRunKey` refused a line's run key (an integer beyond 2^53 cannot be told from its neighbours). */
export function runKeyProblem(record: JsonObject): string {
  const value = Object.hasOwn(record, "run") && record.run !== null && record.run !== undefined ? record.run : record.sample;
  if (typeof value === "number" && Number.isInteger(value)) return "run (or sample) is an integer beyond 2^53 (9007199254740992): give it as a string";
  return "run (or sample) is neither a string nor an integer";
}

/** The fields of one prediction, before validation. */
export interface RawPrediction {
  judgment: boolean;
  /** Entries as given (validated later); absent/null → []. */
  evidence: unknown[];
  /** Absent/null → "". May be a non-string (then `bad_reasoning` after the evidence checks). */
  reasoning: unknown;
}

export type Extracted = { ok: true; prediction: RawPrediction } | { ok: false; reason: PredictionShapeReason | "evidence_out_of_document"; message: string };

const JUDGMENT_STRINGS: Readonly<Record<string, boolean>> = { yes: true, no: false, true: true, false: false };

/** A boolean, or exactly one of yes/no/true/false in any case (untrimmed). */
export function coerceJudgment(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && value.length <= 5) {
    // As written by most judges: no lower-cased copy to look up.
    if (value === "yes" || value === "true") return true;
    if (value === "no" || value === "false") return false;
    return JUDGMENT_STRINGS[value.toLowerCase()];
  }
  return undefined;
}

const LENIENT_ID = /^\s*\[?\s*(\d{1,9})\s*\]?\s*$/;

/** `--lenient-ids`: "3", "[3]" and integral floats such as 2.0 become integers; the rest stays. */
export function lenientId(value: unknown): unknown {
  if (typeof value === "string") {
    const m = LENIENT_ID.exec(value);
    return m ? Number(m[1]) : value;
  }
  if (isFloatMarker(value)) {
    const number = Number(value[FLOAT_MARKER]);
    return Number.isInteger(number) ? number : value;
  }
  return value;
}

const [THINK, THINK_CLOSE, ANSWER, ANSWER_CLOSE] = LAYOUT_TAGS as [string, string, string, string];

/** `<` where none of the four tags starts: the text between the tags may hold such a `<` only. */
const LONE_LT = `<(?!${LAYOUT_TAGS.map((tag) => tag.slice(1)).join("|")})`;
/** Text without a tag in it (the think text), and the same within one line (an answer's value). */
const UNTAGGED = `[^<]*(?:${LONE_LT}[^<]*)*`;
const UNTAGGED_LINE = `[^<\\n]*(?:${LONE_LT}[^<\\n]*)*`;

/**
 * The tagged layout, exactly: `<think>\n…\n</think>\n<answer>\nJudgment: X\nEvidence: [...]\n</answer>`,
 * each tag once, nothing before or after; an empty think text may share its newline with
 * `<think>\n`. One regular expression, run as V8's compiled regexp code: the case explorer reads
 * the think text of thousands of lines in a process that never ran the layout as JavaScript (the
 * scorer reads completions as bytes), where a parse by string searches cost 2.6 times as much
 * (20.6 against 7.9 ms of CPU for the 16,000 completions of the GRPO bench's page).
 */
const LAYOUT = new RegExp(
  `^${THINK}\\n(?:(${UNTAGGED})\\n)?${THINK_CLOSE}\\n${ANSWER}\\nJudgment: (${UNTAGGED_LINE})\\nEvidence: (${UNTAGGED_LINE})\\n${ANSWER_CLOSE}$`,
);

/** The tagged layout (LAYOUT): the think text and the two answer values. */
export function parseCompletionLayout(completion: string): { think: string; judgment: string; evidence: string } | undefined {
  const match = LAYOUT.exec(completion);
  if (match === null) return undefined;
  return { think: match[1] ?? "", judgment: match[2]!, evidence: match[3]! };
}

/** Maps a quoted sentence to the first sentence that contains it or that it contains (case-insensitive). */
function sentenceForQuote(quote: string, lowered: readonly string[]): number | undefined {
  const q = stripPythonWhitespace(quote).toLowerCase();
  if (q.length === 0) return undefined;
  for (let i = 0; i < lowered.length; i++) {
    const s = lowered[i]!;
    if (s.includes(q) || (s.length > 0 && q.includes(s))) return i + 1;
  }
  return undefined;
}

// `[]` or `[3, 12]` as a model writes it: JSON integers (no sign, no leading zero) joined by ", ".
const PLAIN_ID_LIST = /^\[(?:(?:0|[1-9]\d{0,8})(?:, (?:0|[1-9]\d{0,8}))*)?\]$/;

/** The integers of an `Evidence:` list in the plain form, as JSON.parse reads them; undefined for any other text. */
function plainIdList(text: string): number[] | undefined {
  if (!PLAIN_ID_LIST.test(text)) return undefined;
  const ids: number[] = [];
  let value = 0;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) value = value * 10 + (code - 0x30);
    else if (code === 0x2c || (code === 0x5d && i > 1)) {
      ids.push(value);
      value = 0;
      i += code === 0x2c ? 1 : 0;
    }
  }
  return ids;
}

function extractCompletion(completion: unknown, sentences: readonly string[], end: CompletionEndRule | undefined): Extracted {
  const layout = typeof completion === "string" ? parseCompletionLayout(completionAsWritten(completion, end)) : undefined;
  if (!layout) return { ok: false, reason: "bad_completion_format", message: "completion is not in the <think>…</think><answer>…</answer> layout" };
  const judgment = coerceJudgment(layout.judgment);
  if (judgment === undefined) return { ok: false, reason: "bad_judgment", message: `judgment ${JSON.stringify(layout.judgment)} is not yes/no/true/false` };
  let items: unknown = plainIdList(layout.evidence);
  if (items === undefined) {
    try {
      items = parseBoundedJson(markFloatTokens(layout.evidence));
    } catch {
      return { ok: false, reason: "bad_completion_format", message: "Evidence: is not a JSON list" };
    }
  }
  if (!Array.isArray(items)) return { ok: false, reason: "bad_completion_format", message: "Evidence: is not a JSON list" };
  // `items` was parsed here and is nobody else's: quoted sentences are replaced by their IDs in place.
  let lowered: string[] | undefined;
  for (let k = 0; k < items.length; k++) {
    const item: unknown = items[k];
    if (typeof item !== "string") continue;
    lowered ??= sentences.map((s) => s.toLowerCase());
    const id = sentenceForQuote(item, lowered);
    if (id === undefined)
      return { ok: false, reason: "evidence_out_of_document", message: `quoted evidence ${JSON.stringify(item.slice(0, 80))} is not in the document` };
    items[k] = id;
  }
  return { ok: true, prediction: { judgment, evidence: items, reasoning: layout.think } };
}

/**
 * The prediction carried by a kept line, or the first shape failure (docs/comparable-reports.md order:
 * bad_prediction_shape, bad_completion_format, bad_judgment, bad_evidence_field). Validation of the
 * evidence and reasoning follows in the scorer.
 */
export function extractPrediction(record: JsonObject, sentences: readonly string[], lenientIds: boolean, end?: CompletionEndRule): Extracted {
  let source = record;
  if (present(record, "prediction")) {
    if (!isJsonObject(record.prediction)) return { ok: false, reason: "bad_prediction_shape", message: "`prediction` is not an object" };
    source = record.prediction;
  }
  let extracted: Extracted;
  if (!present(source, "judgment") && present(source, "completion")) {
    extracted = extractCompletion(source.completion, sentences, end);
  } else {
    const judgment = coerceJudgment(source.judgment);
    if (judgment === undefined) {
      const judgeError = isJsonObject(source.error) && typeof source.error.code === "string" ? ` (judge error: ${source.error.code})` : "";
      return {
        ok: false,
        reason: "bad_judgment",
        message: `judgment ${describe(source.judgment)} is not a boolean or yes/no/true/false${judgeError}${numericJudgmentHint(source.judgment)}`,
      };
    }
    const field = present(source, "evidence_sentence_ids") ? source.evidence_sentence_ids : source.evidence;
    if (field !== undefined && field !== null && !Array.isArray(field)) {
      return { ok: false, reason: "bad_evidence_field", message: `evidence_sentence_ids ${describe(field)} is not a list` };
    }
    const reasoning = source.reasoning ?? "";
    extracted = { ok: true, prediction: { judgment, evidence: (field as unknown[] | null | undefined) ?? [], reasoning } };
  }
  if (extracted.ok && lenientIds) extracted.prediction.evidence = extracted.prediction.evidence.map(lenientId);
  return extracted;
}

/**
 * Where a judgment of 1.0 or 0.0 comes from, and how to avoid it: pandas reads a true/false column
 * with missing values (a dump mixing shapes) as float64, and writes it back so.
 */
function numericJudgmentHint(value: unknown): string {
  const number = isFloatMarker(value) ? Number(value[FLOAT_MARKER]) : value;
  if (number !== 0 && number !== 1) return "";
  return " (pandas writes 1.0/0.0 for a true/false column with missing values, e.g. after read_json of a dump mixing shapes: read it with dtype={'judgment': object} or write the column with .astype('boolean') before to_json)";
}

const FLOAT_MARKER_JSON = new RegExp(`\\{"\\${FLOAT_MARKER}":"([^"]*)"\\}`, "g");

/** A short, safe rendering of a value for a message (model text beyond `maxChars` is truncated). */
export function describe(value: unknown, maxChars = 60): string {
  if (value === undefined) return "(missing)";
  if (isFloatMarker(value)) return value[FLOAT_MARKER];
  let text: string;
  try {
    // Numbers inside lists and objects are shown as written (`[3.0]`, not the parser's marker).
    text = JSON.stringify(value) ?? String(value);
    // The marker's name is in the text wherever the pattern could match: most texts skip the search.
    if (text.includes(FLOAT_MARKER)) text = text.replace(FLOAT_MARKER_JSON, "$1");
  } catch {
    // A value nested deeper than the stack allows (a hostile line or request body).
    return "(a value nested too deeply to show)";
  }
  return text.length > maxChars ? `${text.slice(0, maxChars - 3)}...` : text;
}
