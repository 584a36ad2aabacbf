// Reads a table of records (dataset slices, pair corpora, document sets) from JSONL, CSV or a
// whole-file JSON container, detected from the content rather than the file extension, from a path
// or a stream read once (stdin). Every record, good or bad, comes out with its location so nothing
// is dropped silently (docs/hostile-input.md).
import { MAX_JSON_DEPTH } from "../core/limits.js";
import { exceedsDepth, parseBoundedJson, TOO_DEEP_MESSAGE } from "./depth.js";
import { Readable } from "node:stream";
import { parse as parseCsv } from "csv-parse";
import { readLines, sourceChunks, sourceName, type InputSource, type StreamSource } from "./lines.js";
import { firstInvalidLine, noteInvalidUtf8Lines } from "./csv-utf8.js";
import { readInputText } from "./input-file.js";

export type RecordFormat = "jsonl" | "csv" | "json";

/** Line-level rejection codes shared by all JSONL inputs (docs/comparable-reports.md). */
export type LineRejection = "invalid_utf8" | "blank_line" | "malformed_json" | "not_an_object";

export type JsonObject = Record<string, unknown>;

/** A record-level rejection: a line-level one, or a CSV record that cannot be read (`malformed_csv`). */
export type RecordRejection = LineRejection | "malformed_csv";

export type RecordItem =
  | { readonly where: string; readonly line?: number; readonly record: JsonObject; readonly error?: undefined }
  | {
      readonly where: string;
      readonly line?: number;
      readonly record?: undefined;
      readonly error: { readonly code: RecordRejection; readonly message: string };
    };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses one JSONL line. JSON.parse already rejects NaN/Infinity (not JSON) and keeps a
 * `__proto__` key as an own data property, so no prototype can be polluted here.
 */
export function parseJsonLine(
  text: string | null,
  maxDepth: number = MAX_JSON_DEPTH,
): { record: JsonObject } | { error: { code: LineRejection; message: string } } {
  if (text === null) return { error: { code: "invalid_utf8", message: "line is not valid UTF-8" } };
  if (text.trim() === "") return { error: { code: "blank_line", message: "blank line" } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: { code: "malformed_json", message: `malformed JSON: ${(err as Error).message}` } };
  }
  if (!isJsonObject(value)) return { error: { code: "not_an_object", message: "line is not a JSON object" } };
  if (maxDepth !== Number.POSITIVE_INFINITY && exceedsDepth(value, maxDepth)) return { error: { code: "malformed_json", message: TOO_DEEP_MESSAGE } };
  return { record: value };
}

const HEAD_CHUNK = 1 << 16;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Takes chunks up to and including the one that ends the first non-blank line (or all of them when
 * that line never ends), so that a first record longer than one chunk is still seen whole. The
 * iterator is left open just after the chunks taken.
 */
async function takeHead(chunks: AsyncIterator<Buffer>): Promise<Buffer[]> {
  const taken: Buffer[] = [];
  let offset = 0; // bytes before the current chunk
  let bomBytes = 0;
  let contentSeen = false;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) break;
    const chunk = next.value;
    taken.push(chunk);
    let at = 0;
    if (!contentSeen) {
      // Skip a UTF-8 BOM (even split across chunks) and ASCII whitespace; the first other byte starts the first line.
      while (at < chunk.length && bomBytes < UTF8_BOM.length && offset + at === bomBytes && chunk[at] === UTF8_BOM[bomBytes]) {
        bomBytes++;
        at++;
      }
      while (at < chunk.length && (chunk[at] === 0x20 || chunk[at] === 0x09 || chunk[at] === 0x0a || chunk[at] === 0x0d)) at++;
      offset += chunk.length;
      if (at === chunk.length) continue;
      contentSeen = true;
    }
    if (chunk.indexOf(0x0a, at) !== -1) break;
  }
  return taken;
}

async function readHead(path: string): Promise<string> {
  const iterator = sourceChunks(path, HEAD_CHUNK)[Symbol.asyncIterator]();
  try {
    return Buffer.concat(await takeHead(iterator)).toString("utf8");
  } finally {
    await iterator.return?.();
  }
}

/**
 * Reads a stream's head for sniffing and hands back a stream that replays it before the rest, so a
 * pipe is read once, front to back, with the same line numbers as a file.
 */
async function peekHead(source: StreamSource): Promise<{ head: string; replayed: StreamSource }> {
  const iterator = source.chunks[Symbol.asyncIterator]();
  const taken = await takeHead(iterator);
  const head = Buffer.concat(taken).toString("utf8");
  async function* replay(): AsyncGenerator<Buffer> {
    let exhausted = false;
    try {
      // Hand the head chunks over one by one so they are not held after being read.
      for (let chunk = taken.shift(); chunk !== undefined; chunk = taken.shift()) yield chunk;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        yield next.value;
      }
      exhausted = true;
    } finally {
      if (!exhausted) await iterator.return?.();
    }
  }
  return { head, replayed: { name: source.name, chunks: replay() } };
}

/**
 * The container, decided from more than the first record (one bad record never changes how the
 * others are read):
 * - content not starting with `{`/`[` → CSV;
 * - a first line that is a complete JSON value → JSONL, unless it is the whole file and an array
 *   or a ContraDoc container (whole-file JSON);
 * - a first line that is not a complete value (pretty-printed JSON, or a malformed first record) →
 *   `undecided`: whole-file JSON when the whole content parses as one value, JSONL otherwise, so a
 *   malformed first line is one counted rejection and every later record is still read.
 */
type HeadVerdict = RecordFormat | "undecided";

function formatOfHead(headText: string): HeadVerdict {
  const head = headText.replace(/^\uFEFF/, "");
  const trimmed = head.trimStart();
  const firstLine = trimmed.split("\n", 1)[0]!.replace(/\r$/, "");
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
    // A JSONL file whose first line is `null`, `true` or a number (not an object: one rejection)
    // is still JSONL when the next line is an object; no CSV header parses as such a value.
    const next = trimmed.slice(firstLine.length).trimStart();
    return next.startsWith("{") && isJsonScalar(firstLine) ? "jsonl" : "csv";
  }
  let value: unknown;
  try {
    value = JSON.parse(firstLine);
  } catch {
    return "undecided";
  }
  const wholeFile = firstLine.length === trimmed.trimEnd().length;
  if (wholeFile && (Array.isArray(value) || (isJsonObject(value) && isContainer(value)))) return "json";
  return "jsonl";
}

function isJsonScalar(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value === null || typeof value === "number" || typeof value === "boolean";
  } catch {
    return false;
  }
}

/** For an undecided head: one JSON value in the whole text → whole-file JSON, else JSONL. */
function formatOfWhole(text: string): RecordFormat {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return "json";
  } catch {
    return "jsonl";
  }
}

export async function detectRecordFormat(path: string): Promise<RecordFormat> {
  const verdict = formatOfHead(await readHead(path));
  return verdict === "undecided" ? formatOfWhole(await readInputText(path)) : verdict;
}

/** `{"pos": {ID: {...}}, "neg": {ID: {...}}}` (ContraDoc's original layout). */
function isContainer(value: JsonObject): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => (k === "pos" || k === "neg") && isJsonObject(value[k]));
}

async function* readJsonl(source: InputSource): AsyncGenerator<RecordItem> {
  const name = sourceName(source);
  for await (const line of readLines(source)) {
    const where = `${name}:${line.lineNo}`;
    const parsed = parseJsonLine(line.text);
    if ("error" in parsed) yield { where, line: line.lineNo, error: parsed.error };
    else yield { where, line: line.lineNo, record: parsed.record };
  }
}

/** The one CSV error a reader can step over: a record with the wrong number of fields. */
const RAGGED_CSV_RECORD = "CSV_RECORD_INCONSISTENT_COLUMNS";

/**
 * CSV records with the line each starts on. A record with the wrong number of fields is rejected on
 * its own and reading goes on. Any other CSV error (a stray quote) leaves the parser unsure where
 * later records start, so reading stops there with an error that says so: records are never
 * dropped without a message.
 */
async function* readCsv(source: InputSource): AsyncGenerator<RecordItem> {
  const path = sourceName(source);
  const skipped: Array<{ line: number; code: string; message: string }> = [];
  const invalidLines = new Set<number>();
  const bytes = Readable.from(noteInvalidUtf8Lines(sourceChunks(source), invalidLines), { objectMode: false });
  let headerProblem: string | undefined;
  // A repeated column name would let the last column win silently: the header is refused.
  const columns = (header: string[]): string[] => {
    const seen = new Set<string>();
    for (const name of header) {
      if (seen.has(name)) {
        headerProblem = `the header names column ${JSON.stringify(name)} more than once`;
        throw new Error(headerProblem);
      }
      seen.add(name);
    }
    return header;
  };
  const parser = bytes.pipe(parseCsv({ columns, bom: true, skip_empty_lines: true, info: true, relax_column_count: false, skip_records_with_error: true }));
  parser.on("skip", (err: Error & { lines?: number; code?: string }) => {
    skipped.push({ line: err.lines ?? 0, code: err.code ?? "", message: err.message });
  });
  let previousEnd = 1; // the header row
  let nextSkipped = 0;
  let stopped = false;
  // The skipped records that end before `line`, in order; after an unrecoverable one, nothing more.
  function* skippedBefore(line: number): Generator<RecordItem> {
    while (!stopped && nextSkipped < skipped.length && skipped[nextSkipped]!.line < line) {
      const s = skipped[nextSkipped++]!;
      previousEnd = Math.max(previousEnd, s.line);
      if (s.code === RAGGED_CSV_RECORD) {
        yield { where: `${path}:${s.line}`, line: s.line, error: { code: "malformed_csv", message: `malformed CSV: ${s.message}` } };
      } else {
        stopped = true;
        const message = `malformed CSV: ${s.message}; the rest of the file (after line ${s.line}) is not read`;
        yield { where: `${path}:${s.line}`, line: s.line, error: { code: "malformed_csv", message } };
      }
    }
  }
  try {
    for await (const item of parser as AsyncIterable<{ record: JsonObject; info: { lines: number } }>) {
      yield* skippedBefore(item.info.lines);
      if (stopped) break;
      // A quoted field may span lines: report the line where the record starts.
      const line = previousEnd + 1;
      previousEnd = item.info.lines;
      if (invalidLines.has(1)) {
        yield { where: `${path}:1`, line: 1, error: { code: "invalid_utf8", message: "the CSV header is not valid UTF-8; the file is not read" } };
        stopped = true;
        break;
      }
      const badLine = firstInvalidLine(invalidLines, line, item.info.lines);
      if (badLine !== undefined) {
        yield { where: `${path}:${badLine}`, line: badLine, error: { code: "invalid_utf8", message: "line is not valid UTF-8" } };
        continue;
      }
      yield { where: `${path}:${line}`, line, record: { ...item.record } };
    }
    yield* skippedBefore(Infinity);
  } catch (err) {
    const e = err as Error & { lines?: number };
    if (headerProblem !== undefined) {
      yield { where: `${path}:1`, line: 1, error: { code: "malformed_csv", message: `malformed CSV: ${headerProblem}; the file is not read` } };
      return;
    }
    const line = e.lines ?? previousEnd + 1;
    yield { where: `${path}:${line}`, line, error: { code: "malformed_csv", message: `malformed CSV: ${e.message}` } };
  } finally {
    parser.destroy();
  }
}

/** Whole-file JSON: an array of records, or a ContraDoc container whose keys become ids. */
async function* readJsonContainer(source: InputSource): AsyncGenerator<RecordItem> {
  const path = sourceName(source);
  const text = (await readWhole(source)).replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = parseBoundedJson(text);
  } catch (err) {
    yield { where: path, error: { code: "malformed_json", message: `malformed JSON: ${(err as Error).message}` } };
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const where = `${path}[${i}]`;
      const item = value[i];
      if (isJsonObject(item)) yield { where, record: item };
      else yield { where, error: { code: "not_an_object", message: "array item is not a JSON object" } };
    }
    return;
  }
  if (!isJsonObject(value) || !isContainer(value)) {
    yield { where: path, error: { code: "not_an_object", message: 'expected a JSON array or {"pos": {...}, "neg": {...}}' } };
    return;
  }
  for (const group of ["pos", "neg"] as const) {
    const members = value[group];
    if (!isJsonObject(members)) continue;
    for (const [id, item] of Object.entries(members)) {
      const where = `${path}#${group}/${id}`;
      if (!isJsonObject(item)) {
        yield { where, error: { code: "not_an_object", message: "entry is not a JSON object" } };
        continue;
      }
      // The container's key is the id and its group the label (docs/eval.md, "Inputs").
      yield { where, record: { ...item, id, label: group === "pos" } };
    }
  }
}

async function readWhole(source: InputSource): Promise<string> {
  if (typeof source === "string") return readInputText(source);
  const chunks: Buffer[] = [];
  for await (const chunk of source.chunks) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Records from a path or a stream (`-` on the command line); a stream is sniffed from its head, then replayed. */
export async function* readRecords(source: InputSource, format?: RecordFormat): AsyncGenerator<RecordItem> {
  let input = source;
  let detected = format;
  if (detected === undefined) {
    if (typeof source === "string") detected = await detectRecordFormat(source);
    else {
      const peeked = await peekHead(source);
      const verdict = formatOfHead(peeked.head);
      input = peeked.replayed;
      if (verdict === "undecided") {
        // Only here is a stream held whole: whole-file JSON must be anyway.
        const chunks: Buffer[] = [];
        for await (const chunk of peeked.replayed.chunks) chunks.push(chunk);
        const whole = Buffer.concat(chunks);
        detected = formatOfWhole(whole.toString("utf8"));
        input = {
          name: source.name,
          chunks: (async function* () {
            yield whole;
          })(),
        };
      } else detected = verdict;
    }
  }
  if (detected === "jsonl") yield* readJsonl(input);
  else if (detected === "csv") yield* readCsv(input);
  else yield* readJsonContainer(input);
}
