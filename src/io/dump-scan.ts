// A dump line's fast path (docs/eval.md, "Performance"): one pass over the line's characters for
// the shapes judges write (structured, cache `{case_id, prediction}`, raw completion), giving the
// fields mari reads with the values `parseDumpLine` gives them, without JSON.parse, the float
// pre-scan or the depth walk (test/io/dump-scan.property.test.ts holds the two to that). Anything
// outside a narrow grammar returns undefined and the caller takes `parseDumpLine`, so every rule of
// that path (floats such as `2.0`, duplicate keys, depth, escapes, `null`, invalid UTF-8, blank
// lines, batch output lines) stays in one place:
//   line   = "{" [member ("," member)*] "}"      (JSON whitespace between tokens)
//   member = key ":" value      key: a string without escapes; a field mari reads at most once
//   value  = scalar | list | object              object (one level, inside a line only) of scalar | list
//   list   = "[" [scalar ("," scalar)*] "]"
//   scalar = string | true | false | integer      integer: 0 or 1-9 then digits, at most 15 of them
// Negative numbers, fractions, exponents and `null` are outside it on purpose.
import type { JsonObject } from "./records.js";
import { READ_FIELDS } from "./dump.js";
import { CONTROL, hasEscape, stringEnd, stringValue } from "./json-string.js";

/** Digits an integer may have here: every such value is exact in a double. */
const MAX_DIGITS = 15;

/** Why the scanner gave up: the caller falls back to the full parser. */
const FALLBACK = Symbol("fallback");
type Fallback = typeof FALLBACK;

/** Position in the line being scanned (a module-level cursor: no closure, no object per line). */
let text = "";
let at = 0;

function skipSpace(): void {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) at++;
    else return;
  }
}

/** Whether the line being scanned has a backslash anywhere (then each string is checked for one). */
let hasBackslash = false;

/** The string whose opening quote is at `at`; `at` moves past its closing quote. */
function scanString(allowEscapes: boolean): string | Fallback {
  const start = at + 1;
  const close = stringEnd(text, start, hasBackslash);
  if (close === -1) return FALLBACK;
  if (!allowEscapes && hasEscape(text, start, close, hasBackslash)) return FALLBACK;
  at = close + 1;
  return stringValue(text, start, close, hasBackslash) ?? FALLBACK;
}

function scanInteger(): number | Fallback {
  const start = at;
  let value = 0;
  let c = text.charCodeAt(at);
  while (c >= 0x30 && c <= 0x39) {
    value = value * 10 + (c - 0x30);
    c = text.charCodeAt(++at);
  }
  const digits = at - start;
  // A leading zero before more digits, a fraction or an exponent: the full parser's rules apply.
  if (digits > MAX_DIGITS || (digits > 1 && text.charCodeAt(start) === 0x30)) return FALLBACK;
  if (c === 0x2e || c === 0x65 || c === 0x45) return FALLBACK;
  return value;
}

function scanScalar(): string | number | boolean | Fallback {
  const c = text.charCodeAt(at);
  if (c === 0x22) return scanString(true);
  if (c >= 0x30 && c <= 0x39) return scanInteger();
  if (c === 0x74 /* t */ && text.startsWith("true", at)) {
    at += 4;
    return true;
  }
  if (c === 0x66 /* f */ && text.startsWith("false", at)) {
    at += 5;
    return false;
  }
  return FALLBACK;
}

function scanList(): unknown[] | Fallback {
  at++; // [
  const items: unknown[] = [];
  skipSpace();
  if (text.charCodeAt(at) === 0x5d /* ] */) {
    at++;
    return items;
  }
  for (;;) {
    skipSpace();
    const item = scanScalar();
    if (item === FALLBACK) return FALLBACK;
    items.push(item);
    skipSpace();
    const c = text.charCodeAt(at++);
    if (c === 0x5d) return items;
    if (c !== 0x2c /* , */) return FALLBACK;
  }
}

/**
 * The fields of a dump line mari reads, always in this one shape (an absent field is undefined,
 * which every reader of a dump record treats as absent): one hidden class for every line, where
 * assigning keys in each line's own order costs more than JSON.parse.
 */
interface ScannedFields {
  case_id: unknown;
  id: unknown;
  run: unknown;
  sample: unknown;
  judgment: unknown;
  evidence_sentence_ids: unknown;
  evidence: unknown;
  reasoning: unknown;
  completion: unknown;
  prediction: unknown;
}

function emptyFields(): ScannedFields {
  return {
    case_id: undefined,
    id: undefined,
    run: undefined,
    sample: undefined,
    judgment: undefined,
    evidence_sentence_ids: undefined,
    evidence: undefined,
    reasoning: undefined,
    completion: undefined,
    prediction: undefined,
  };
}

/**
 * Fields mari reads that have no slot here (`error`, `custom_id`, `response`: their presence alone
 * changes a line's meaning), and `__proto__`: a line with one is left to the full parser.
 */
const LEFT_TO_PARSER: ReadonlySet<string> = new Set([...READ_FIELDS.filter((field) => !Object.hasOwn(emptyFields(), field)), "__proto__"]);

/**
 * An object whose opening brace is at `at`. A field mari reads lands in its slot (a `nested` object,
 * a cache-shaped line's `prediction`, has no `case_id`, `run` … of its own: those send it to the
 * parser); any other field's value is checked against the grammar and dropped, since nothing reads it.
 */
function scanObject(nested: boolean): ScannedFields | Fallback {
  at++; // {
  const record = emptyFields();
  skipSpace();
  if (text.charCodeAt(at) === 0x7d /* } */) {
    at++;
    return record;
  }
  for (;;) {
    skipSpace();
    if (text.charCodeAt(at) !== 0x22) return FALLBACK;
    const key = scanString(false);
    if (key === FALLBACK) return FALLBACK;
    skipSpace();
    if (text.charCodeAt(at++) !== 0x3a /* : */) return FALLBACK;
    skipSpace();
    const c = text.charCodeAt(at);
    const value = c === 0x5b ? scanList() : c === 0x7b ? (nested ? FALLBACK : scanObject(true)) : scanScalar();
    if (value === FALLBACK) return FALLBACK;
    // A repeated field is left to JSON.parse's rules (the last one wins).
    switch (key) {
      case "judgment":
        if (record.judgment !== undefined) return FALLBACK;
        record.judgment = value;
        break;
      case "evidence_sentence_ids":
        if (record.evidence_sentence_ids !== undefined) return FALLBACK;
        record.evidence_sentence_ids = value;
        break;
      case "evidence":
        if (record.evidence !== undefined) return FALLBACK;
        record.evidence = value;
        break;
      case "reasoning":
        if (record.reasoning !== undefined) return FALLBACK;
        record.reasoning = value;
        break;
      case "completion":
        if (record.completion !== undefined) return FALLBACK;
        record.completion = value;
        break;
      case "case_id":
        if (nested || record.case_id !== undefined) return FALLBACK;
        record.case_id = value;
        break;
      case "id":
        if (nested || record.id !== undefined) return FALLBACK;
        record.id = value;
        break;
      case "run":
        if (nested || record.run !== undefined) return FALLBACK;
        record.run = value;
        break;
      case "sample":
        if (nested || record.sample !== undefined) return FALLBACK;
        record.sample = value;
        break;
      case "prediction":
        if (nested || record.prediction !== undefined) return FALLBACK;
        record.prediction = value;
        break;
      default:
        if (LEFT_TO_PARSER.has(key)) return FALLBACK;
    }
    skipSpace();
    const next = text.charCodeAt(at++);
    if (next === 0x7d) return record;
    if (next !== 0x2c) return FALLBACK;
  }
}

/**
 * The record `parseDumpLine(line)` would give, for a line inside the scanner's grammar; undefined
 * for any other line (then `parseDumpLine` decides, rejections included).
 */
export function scanDumpLine(line: string | null): JsonObject | undefined {
  // A control character (JSON refuses one raw inside a string) sends the whole line to the full parser.
  if (line === null || line.charCodeAt(0) !== 0x7b || CONTROL.test(line)) return undefined;
  text = line;
  hasBackslash = line.includes("\\");
  at = 0;
  const record = scanObject(false);
  text = "";
  if (record === FALLBACK) return undefined;
  // Only whitespace may follow the closing brace.
  while (at < line.length) {
    const c = line.charCodeAt(at++);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return undefined;
  }
  return record as unknown as JsonObject;
}
