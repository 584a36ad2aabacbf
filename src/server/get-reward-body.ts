// `/get_reward`'s fast path (docs/serve.md, "Measured"): OpenRLHF's body read from its bytes.
// Each query repeats its whole prompt, so two thirds of the body is text the server only needs to
// recognise: the body is never decoded whole nor given whole to JSON.parse. The scan records where each
// string literal lies; a query whose bytes begin with its prompt's bytes has its response decoded
// from the bytes that follow (equal literal bytes decode to equal text, and a literal cut where
// another one ends is cut between two of its characters or escapes); each distinct prompt is decoded
// once. Anything outside this grammar returns undefined and the caller takes the JSON.parse path,
// so every other rule (errors, duplicate keys, `null` items, other fields) stays in one place:
//   body  = [BOM] "{" member ("," member)* "}"      (JSON whitespace between tokens)
//   member = ("query" | "prompts") ":" list  |  "labels" ":" (list | null)    each key at most once
//   list  = "[" [string ("," string)*] "]"
// A literal is checked as JSON.parse checks it when it is decoded (control characters, escapes);
// one that fails makes the caller fall back too (test/server/get-reward-body.test.ts holds the two
// paths to the same answers).
import { isAscii, isUtf8 } from "node:buffer";

/** Where each string literal of a list lies: its bytes between the quotes. */
export interface LiteralSpans {
  start: number[];
  end: number[];
}

export interface GetRewardBody {
  bytes: Buffer;
  /** ASCII bodies (what Python's json writes) are decoded as Latin-1: a copy, no second look. */
  ascii: boolean;
  query: LiteralSpans;
  prompts: LiteralSpans;
  /** Absent when the body has no labels or `"labels": null`. */
  labels: LiteralSpans | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
const BOM = [0xef, 0xbb, 0xbf];
const FIELDS = ["query", "prompts", "labels"];

function skipSpace(bytes: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const c = bytes[at];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
    else return at;
  }
}

function holdsBytes(bytes: Buffer, at: number, expected: readonly number[]): boolean {
  for (let k = 0; k < expected.length; k++) if (bytes[at + k] !== expected[k]) return false;
  return true;
}

/** The closing quote of the literal opened at `open` (one not escaped by an odd run of backslashes); -1 when none. */
function closingQuote(bytes: Buffer, open: number): number {
  for (let at = bytes.indexOf(QUOTE, open + 1); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let k = at - 1;
    while (bytes[k] === BACKSLASH) k--;
    if ((at - 1 - k) % 2 === 0) return at;
  }
  return -1;
}

/** The list at `from` into `spans`; the position after its `]`, or -1 outside the grammar. */
function readList(bytes: Buffer, from: number, spans: LiteralSpans): number {
  if (bytes[from] !== OPEN_LIST) return -1;
  let at = skipSpace(bytes, from + 1);
  if (bytes[at] === CLOSE_LIST) return at + 1;
  for (;;) {
    if (bytes[at] !== QUOTE) return -1;
    const close = closingQuote(bytes, at);
    if (close === -1) return -1;
    spans.start.push(at + 1);
    spans.end.push(close);
    at = skipSpace(bytes, close + 1);
    if (bytes[at] === CLOSE_LIST) return at + 1;
    if (bytes[at] !== COMMA) return -1;
    at = skipSpace(bytes, at + 1);
  }
}

/**
 * Spans are decoded in batches of about this many bytes: a batch's text stays a young string (one
 * text of the whole megabytes costs a third more to make and to collect).
 */
const BATCH_BYTES = 1 << 15;
/** The batch being written (reused: one thread decodes one body at a time). */
let scratch = Buffer.allocUnsafe(BATCH_BYTES);

/** Spans [from, to) written as a JSON array of string literals (`size` bytes), as text. */
function asJsonArray(
  body: Pick<GetRewardBody, "bytes" | "ascii">,
  starts: readonly number[],
  ends: readonly number[],
  from: number,
  to: number,
  size: number,
): string {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(size);
  const out = scratch;
  let at = 0;
  out[at++] = OPEN_LIST;
  for (let k = from; k < to; k++) {
    if (k > from) out[at++] = COMMA;
    out[at++] = QUOTE;
    at += body.bytes.copy(out, at, starts[k]!, ends[k]!);
    out[at++] = QUOTE;
  }
  out[at++] = CLOSE_LIST;
  return out.toString(body.ascii ? "latin1" : "utf8", 0, at);
}

/**
 * The texts of literal spans (each beginning and ending between two characters or escapes of its
 * literal), exactly as JSON.parse gives them; undefined when JSON.parse would refuse one. Spans are
 * written as JSON arrays and parsed a batch at a time: one JSON.parse per span costs twice as much.
 */
function literalTexts(body: Pick<GetRewardBody, "bytes" | "ascii">, starts: readonly number[], ends: readonly number[]): string[] | undefined {
  const texts: string[] = [];
  for (let from = 0; from < starts.length; ) {
    let size = 2 + ends[from]! - starts[from]! + 3;
    let to = from + 1;
    for (; to < starts.length && size + ends[to]! - starts[to]! + 3 <= BATCH_BYTES; to++) size += ends[to]! - starts[to]! + 3;
    let batch: string[];
    try {
      batch = JSON.parse(asJsonArray(body, starts, ends, from, to, size)) as string[];
    } catch {
      return undefined;
    }
    for (const text of batch) texts.push(text);
    from = to;
  }
  return texts;
}

/** Whether the bytes [start, start + length) equal those at `other`. */
function sameBytes(bytes: Buffer, start: number, other: number, length: number): boolean {
  return bytes.compare(bytes, other, other + length, start, start + length) === 0;
}

/** Distinct prompts of one byte length told apart per request (more are decoded each time they come). */
const PROMPTS_PER_LENGTH = 16;

/** Each query's texts, as JSON.parse would give the body's, without decoding what the queries repeat. */
export interface QueryTexts {
  /** Each query's prompt (the queries of a prompt's group share one string). */
  prompt: string[];
  /** Each query's prompt as a number, equal for prompts known to be equal (the same bytes). */
  promptKey: number[];
  /** Each query's label, undefined without labels. */
  label: Array<string | undefined>;
  /** The text after the prompt when the query's bytes begin with the prompt's (`afterPrompt`), else the whole query. */
  rest: string[];
  afterPrompt: boolean[];
}

/**
 * The texts of a body read by `readGetRewardBody` whose lists have one length (labels: that length
 * or none): each distinct prompt, each label, and of each query only the part after its prompt when
 * its bytes begin with the prompt's bytes (equal bytes decode to equal text; the prompt literal ends
 * between two of the query's characters or escapes). Undefined when a literal is one JSON.parse
 * refuses. Every literal's bytes are checked: a query's prompt part is the checked prompt's bytes.
 */
export function queryTexts(body: GetRewardBody): QueryTexts | undefined {
  const { bytes, query, prompts, labels } = body;
  const count = query.start.length;
  const starts: number[] = [];
  const ends: number[] = [];
  const slot = (start: number, end: number): number => starts.push(start) && ends.push(end) - 1;
  const byLength = new Map<number, Array<{ start: number; slot: number }>>();
  const promptSlot: number[] = [];
  const labelSlot: number[] = [];
  const restSlot: number[] = [];
  const afterPrompt: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const start = prompts.start[i]!;
    const length = prompts.end[i]! - start;
    let known = byLength.get(length);
    if (known === undefined) byLength.set(length, (known = []));
    let found = known.find((k) => sameBytes(bytes, start, k.start, length));
    if (found === undefined) {
      found = { start, slot: slot(start, start + length) };
      if (known.length < PROMPTS_PER_LENGTH) known.push(found);
    }
    promptSlot.push(found.slot);
    if (labels !== undefined && labels.start.length > 0) labelSlot.push(slot(labels.start[i]!, labels.end[i]!));
    const queryStart = query.start[i]!;
    const queryEnd = query.end[i]!;
    const after = queryEnd - queryStart >= length && sameBytes(bytes, queryStart, start, length);
    afterPrompt.push(after);
    restSlot.push(slot(after ? queryStart + length : queryStart, queryEnd));
  }
  const texts = literalTexts(body, starts, ends);
  if (texts === undefined) return undefined;
  return {
    prompt: promptSlot.map((k) => texts[k]!),
    promptKey: promptSlot,
    label: labelSlot.length > 0 ? labelSlot.map((k) => texts[k]!) : new Array<undefined>(count).fill(undefined),
    rest: restSlot.map((k) => texts[k]!),
    afterPrompt,
  };
}

/** The text of one literal span, as `literalTexts`. */
function literalText(body: Pick<GetRewardBody, "bytes" | "ascii">, start: number, end: number): string | undefined {
  return literalTexts(body, [start], [end])?.[0];
}

/** The body's lists, or undefined when it is outside the grammar above (or not UTF-8). */
export function readGetRewardBody(input: Uint8Array): GetRewardBody | undefined {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const ascii = isAscii(bytes);
  if (!ascii && !isUtf8(bytes)) return undefined;
  const body: GetRewardBody = { bytes, ascii, query: { start: [], end: [] }, prompts: { start: [], end: [] }, labels: undefined };
  const seen = new Set<string>();
  let at = skipSpace(bytes, !ascii && holdsBytes(bytes, 0, BOM) ? BOM.length : 0);
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  at = skipSpace(bytes, at + 1);
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    const close = closingQuote(bytes, at);
    const key = close === -1 ? undefined : literalText(body, at + 1, close);
    if (key === undefined || !FIELDS.includes(key) || seen.has(key)) return undefined;
    seen.add(key);
    at = skipSpace(bytes, close + 1);
    if (bytes[at] !== COLON) return undefined;
    at = skipSpace(bytes, at + 1);
    if (key === "labels" && holdsBytes(bytes, at, NULL)) {
      at += NULL.length;
    } else {
      const spans: LiteralSpans = { start: [], end: [] };
      at = readList(bytes, at, spans);
      if (at === -1) return undefined;
      if (key === "query") body.query = spans;
      else if (key === "prompts") body.prompts = spans;
      else body.labels = spans;
    }
    at = skipSpace(bytes, at);
    if (bytes[at] === CLOSE_OBJECT) break;
    if (bytes[at] !== COMMA) return undefined;
    at = skipSpace(bytes, at + 1);
  }
  if (skipSpace(bytes, at + 1) !== bytes.length || !seen.has("query") || !seen.has("prompts")) return undefined;
  return body;
}
