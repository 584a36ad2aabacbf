// Reads a table of records (dataset slices, pair corpora, document sets) from JSONL, CSV or a
// whole-file JSON container, detected from the content rather than the file extension, from a path
// or a stream read once (stdin). Every record, good or bad, comes out with its location so nothing
// is dropped silently (docs/hostile-input.md).
import { MAX_JSON_DEPTH, MAX_LINE_BYTES } from "../core/limits.js";
import { exceedsDepth, parseBoundedJson, TOO_DEEP_MESSAGE } from "./depth.js";
import { Readable } from "node:stream";
import { readLineBatches, readLines, sourceChunks, sourceName, type InputSource, type Line, type StreamSource } from "./lines.js";
import { firstInvalidLine, noteInvalidUtf8Lines } from "./csv-utf8.js";
import { readInputBytes, readInputText, wholeFileTooLarge } from "./input-file.js";
import { InputError } from "./errors.js";
import { isParquetFile, PARQUET_MAGIC } from "./magic.js";

export type RecordFormat = "jsonl" | "csv" | "json" | "parquet";

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
 * THE null rule, for every format and every optional field of a slice record or a dump line: a
 * field whose value is `null` is absent. pandas and HF datasets (`to_json(lines=True)`) write every
 * column on every row, nulls included, and Parquet cannot tell a null from a missing field, so a
 * dump mixing shapes carries `"prediction": null` on its structured rows and `"judgment": null` on
 * its raw completions. Applied once per record as it is read: here for the record readers
 * (`readRecords`), and by `parseDumpLine` (io/dump.ts) right after a dump line is parsed. It reaches
 * one level into a nested `prediction` object (the cache shape), whose fields are a dump line's.
 * Returns `record` itself when it holds no null.
 */
export function nullAsAbsent(record: JsonObject): JsonObject {
  let out: JsonObject | undefined;
  for (const key in record) {
    const value = record[key];
    if (value === null) {
      out ??= { ...record };
      delete out[key];
    } else if (key === "prediction" && isJsonObject(value)) {
      const inner = nullAsAbsent(value);
      if (inner !== value) {
        out ??= { ...record };
        out[key] = inner;
      }
    }
  }
  return out ?? record;
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
  // A line that starts with `{` (nearly every line) is not blank: trim() copies the others only.
  if (text.charCodeAt(0) !== 0x7b && text.trim() === "") return { error: { code: "blank_line", message: "blank line" } };
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
/** Lines the format is sniffed from, and the bytes past the first line read to find them. */
const SNIFF_LINES = 32;
const SNIFF_BYTES = 1 << 18;

/**
 * Takes chunks up to and including the one that ends the first non-blank line (or all of them when
 * that line never ends), so that a first record longer than one chunk is still seen whole, and then
 * on until SNIFF_LINES lines or SNIFF_BYTES more bytes are in hand, so that the format is sniffed
 * from several lines rather than the first alone. The iterator is left open just after the chunks
 * taken.
 */
async function takeHead(chunks: AsyncIterator<Buffer>): Promise<Buffer[]> {
  const taken: Buffer[] = [];
  let offset = 0; // bytes before the current chunk
  let total = 0;
  let bomBytes = 0;
  let contentSeen = false;
  let firstLineEnded = false;
  let newlines = 0;
  let bytesAfterFirstLine = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) break;
    const chunk = next.value;
    taken.push(chunk);
    total += chunk.length;
    // A first line this long is refused by the line reader; the sniff stops holding it here.
    if (total >= MAX_LINE_BYTES) break;
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
    if (!firstLineEnded) {
      const end = chunk.indexOf(0x0a, at);
      if (end === -1) continue;
      firstLineEnded = true;
      at = end + 1;
    }
    bytesAfterFirstLine += chunk.length - at;
    for (let nl = chunk.indexOf(0x0a, at); nl !== -1; nl = chunk.indexOf(0x0a, nl + 1)) newlines++;
    if (newlines >= SNIFF_LINES || bytesAfterFirstLine >= SNIFF_BYTES) break;
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
 * The container, decided from the first SNIFF_LINES lines rather than the first alone (one bad
 * record never changes how the others are read):
 * - a first line that is a complete JSON value → JSONL, unless it is the whole file and an array
 *   or a ContraDoc container (whole-file JSON);
 * - content not starting with `{`/`[` → JSONL when most sampled lines are JSON values and at least
 *   one is an object (a first line `""`, `true` or garbage is then one rejection), CSV otherwise;
 * - a first line that is not a complete value (pretty-printed JSON, or a malformed first record) →
 *   JSONL when most later sampled lines are JSON objects, else `undecided`: whole-file JSON when
 *   the whole content parses as one value, JSONL otherwise.
 */
type HeadVerdict = RecordFormat | "undecided";

/** What the sampled lines are: how many, how many parse as JSON values, how many as objects. */
function sampleLines(lines: readonly string[]): { lines: number; values: number; objects: number } {
  let values = 0;
  let objects = 0;
  let counted = 0;
  for (let i = 0; i < lines.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch {
      // The head's last line may be cut short by the sample's end: it counts only when whole.
      if (i < lines.length - 1) counted++;
      continue;
    }
    counted++;
    values++;
    if (isJsonObject(value)) objects++;
  }
  return { lines: counted, values, objects };
}

function formatOfHead(headText: string): HeadVerdict {
  const trimmed = headText.replace(/^\uFEFF/, "").trimStart();
  const lines = trimmed
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");
  const firstLine = lines[0] ?? "";
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
    const all = sampleLines(lines);
    return all.objects > 0 && 2 * all.values > all.lines ? "jsonl" : "csv";
  }
  let value: unknown;
  try {
    value = JSON.parse(firstLine);
  } catch {
    const rest = sampleLines(lines.slice(1));
    return rest.lines > 0 && 2 * rest.objects > rest.lines ? "jsonl" : "undecided";
  }
  const wholeFile = firstLine.length === trimmed.trimEnd().length;
  if (wholeFile && (Array.isArray(value) || (isJsonObject(value) && isContainer(value)))) return "json";
  return "jsonl";
}

/**
 * For an undecided head: one JSON value in the whole content → whole-file JSON, else JSONL. Invalid
 * UTF-8 somewhere does not decide it: in JSONL that is one line's rejection, and whole-file JSON
 * refuses it when read.
 */
function formatOfWhole(bytes: Buffer): RecordFormat {
  try {
    JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, ""));
    return "json";
  } catch {
    return "jsonl";
  }
}

/**
 * The field delimiter of a CSV file, from its header line: a comma when the line has one outside
 * quotes, else a tab or a semicolon (spreadsheet exports in many locales), else a comma.
 */
export function sniffCsvDelimiter(head: string): "," | ";" | "\t" {
  let quoted = false;
  const count = { ",": 0, ";": 0, "\t": 0 };
  for (const c of head) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && (c === "," || c === ";" || c === "\t")) count[c]++;
  }
  if (count[","] > 0) return ",";
  if (count["\t"] > 0 && count["\t"] >= count[";"]) return "\t";
  return count[";"] > 0 ? ";" : ",";
}

// csv-parse is loaded by the first CSV read: JSONL and Parquet inputs, by far the most common, never
// pay for it (it is a sixth of `mari serve`'s module loading).
let csvParse: typeof import("csv-parse") | undefined;
let csvParseSync: typeof import("csv-parse/sync") | undefined;

/** A CSV file's column names, from its first record; undefined when that record cannot be read. */
export async function csvColumns(path: string): Promise<string[] | undefined> {
  const head = (await readHead(path)).replace(/^\uFEFF/, "");
  csvParseSync ??= await import("csv-parse/sync");
  try {
    const rows = csvParseSync.parse(head, { to_line: 1, relax_column_count: true, delimiter: sniffCsvDelimiter(head) }) as string[][];
    return rows[0];
  } catch {
    return undefined;
  }
}

export async function detectRecordFormat(path: string): Promise<RecordFormat> {
  if (await isParquetFile(path)) return "parquet";
  const verdict = formatOfHead(await readHead(path));
  return verdict === "undecided" ? formatOfWhole(await readInputBytes(path)) : verdict;
}

/** `{"pos": {ID: {...}}, "neg": {ID: {...}}}` (ContraDoc's original layout). */
function isContainer(value: JsonObject): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => (k === "pos" || k === "neg") && isJsonObject(value[k]));
}

/** A JSONL line of the source named `name` as its record, as written. */
function jsonlItem(name: string, line: Line): RecordItem {
  const where = `${name}:${line.lineNo}`;
  const parsed = parseJsonLine(line.text);
  return "error" in parsed ? { where, line: line.lineNo, error: parsed.error } : { where, line: line.lineNo, record: parsed.record };
}

async function* readJsonl(source: InputSource): AsyncGenerator<RecordItem> {
  const name = sourceName(source);
  for await (const line of readLines(source)) yield jsonlItem(name, line);
}

/** The one CSV error the parser steps over itself: a record with the wrong number of fields. */
const RAGGED_CSV_RECORD = "CSV_RECORD_INCONSISTENT_COLUMNS";
/** After this many restarts past quote errors, the rest of the file is given up (each may re-read what follows). */
const MAX_CSV_RESTARTS = 100;

/**
 * The bytes fed to a CSV parser since the start of the record it is reading, so that after an
 * error it cannot step over (a stray quote) the parse can restart on the next line.
 */
class CsvTape {
  private held: Buffer[] = [];
  /** Line number of the first held byte (held bytes always start at a line start). */
  private line = 1;

  /** Holds a chunk read from the source; returns the part to parse (after the lines still to skip). */
  admit(chunk: Buffer): Buffer {
    let start = 0;
    while (this.line < this.skipTo && start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) return Buffer.alloc(0);
      start = nl + 1;
      this.line++;
    }
    const rest = start === 0 ? chunk : chunk.subarray(start);
    if (rest.length > 0) this.held.push(rest);
    return rest;
  }

  /** Lines up to this one (exclusive) are not parsed again: the rest of a bad line still unread is skipped. */
  private skipTo = 1;

  /** Forgets the bytes of the lines before `line`. */
  dropBefore(line: number): void {
    while (this.line < line && this.held.length > 0) {
      const first = this.held[0]!;
      const nl = first.indexOf(0x0a);
      if (nl === -1) {
        this.held.shift();
        continue;
      }
      if (nl + 1 < first.length) this.held[0] = first.subarray(nl + 1);
      else this.held.shift();
      this.line++;
    }
  }

  /** The held bytes from line `line` on, handed over (the tape is then empty; what the source still holds of earlier lines is skipped). */
  takeFrom(line: number): Buffer {
    this.dropBefore(line);
    const bytes = this.line === line ? Buffer.concat(this.held) : Buffer.alloc(0);
    this.held = [];
    this.skipTo = line;
    return bytes;
  }
}

/**
 * CSV records with the line each starts on. A record with the wrong number of fields is rejected on
 * its own and reading goes on. Any other CSV error (a stray quote) leaves the parser unsure where
 * later records start: that record's first line is rejected and parsing restarts on the next line
 * with the same header, so one bad quote costs one record, not the rest of the file.
 */
async function* readCsv(source: InputSource): AsyncGenerator<RecordItem> {
  const path = sourceName(source);
  csvParse ??= await import("csv-parse");
  const invalidLines = new Set<number>();
  const base = noteInvalidUtf8Lines(sourceChunks(source), invalidLines)[Symbol.asyncIterator]();
  const tape = new CsvTape();
  // The header line is read ahead for its delimiter, then parsed with the rest.
  const ahead: Buffer[] = [];
  let aheadBytes = 0;
  while (aheadBytes < CSV_SNIFF_BYTES && !ahead.some((chunk) => chunk.includes(0x0a))) {
    const next = await base.next();
    if (next.done === true) break;
    ahead.push(next.value);
    aheadBytes += next.value.length;
  }
  const replay = Buffer.concat(ahead);
  const delimiter = sniffCsvDelimiter(
    replay
      .subarray(0, CSV_SNIFF_BYTES)
      .toString("utf8")
      .replace(/^\uFEFF/, ""),
  );
  let segment: CsvSegment = { firstLine: 1, replay, header: undefined, delimiter };
  try {
    for (let restarts = 0; ; restarts++) {
      const next = yield* readCsvSegment(path, base, tape, invalidLines, segment, restarts < MAX_CSV_RESTARTS);
      if (next === undefined) return;
      segment = next;
    }
  } finally {
    await base.return?.(undefined);
  }
}

interface CsvSegment {
  /** Line number of the segment's first line. */
  firstLine: number;
  /** Bytes already read from the source that the segment starts with. */
  replay: Buffer | undefined;
  /** The file's columns, once read (a restarted segment has no header line). */
  header: string[] | undefined;
  /** The field delimiter, sniffed from the header line (sniffCsvDelimiter). */
  delimiter: string;
}

const DELIMITER_NAMES: Readonly<Record<string, string>> = { ",": "comma-separated", ";": "semicolon-separated", "\t": "tab-separated" };

/** Bytes of a CSV file read ahead to find its header line's delimiter. */
const CSV_SNIFF_BYTES = 64 * 1024;

/** The state of one parse of a CSV segment, shared by the parser's callbacks and the record loop. */
class CsvSegmentParse {
  /** Segment line k is file line offset + k. */
  readonly offset: number;
  /** Records the parser skipped, with their file line, in order. */
  readonly skipped: Array<{ line: number; code: string; message: string }> = [];
  header: string[] | undefined;
  headerProblem: string | undefined;
  /** The last file line read: the header row, or the line before the segment. */
  previousEnd: number;
  nextSkipped = 0;
  /** Set when the parser cannot go on past a record. */
  stop: { message: string } | undefined;

  constructor(
    readonly path: string,
    readonly segment: CsvSegment,
  ) {
    this.offset = segment.firstLine - 1;
    this.header = segment.header;
    this.previousEnd = segment.header === undefined ? 1 : this.offset;
  }

  /** The header row's names. A repeated column name would let the last column win silently: the header is refused. */
  readonly columns = (names: string[]): string[] => {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) {
        this.headerProblem = `the header names column ${JSON.stringify(name)} more than once`;
        throw new Error(this.headerProblem);
      }
      seen.add(name);
    }
    this.header = names;
    return names;
  };

  /** csv-parse counts lines from the segment's start: its messages are given the file's numbers. */
  fileLines(message: string): string {
    const offset = this.offset;
    return offset === 0 ? message : message.replace(/\b(at|on) line (\d+)/g, (_m, word: string, n: string) => `${word} line ${offset + Number(n)}`);
  }

  /** The skipped records that end before `line`, in order; stops at one the parser cannot step over. */
  *skippedBefore(line: number): Generator<RecordItem> {
    while (this.stop === undefined && this.nextSkipped < this.skipped.length && this.skipped[this.nextSkipped]!.line < line) {
      const s = this.skipped[this.nextSkipped++]!;
      if (s.code === RAGGED_CSV_RECORD) {
        this.previousEnd = Math.max(this.previousEnd, s.line);
        yield { where: `${this.path}:${s.line}`, line: s.line, error: { code: "malformed_csv", message: `malformed CSV: ${s.message}` } };
      } else this.stop = { message: s.message };
    }
  }
}

/** csv-parse over the segment's bytes: the replayed ones, then the source's, each admitted to the tape. */
function openCsvParser(parse: CsvSegmentParse, base: AsyncIterator<Buffer>, tape: CsvTape) {
  const segment = parse.segment;
  async function* feed(): AsyncGenerator<Buffer> {
    if (segment.replay !== undefined && segment.replay.length > 0) yield tape.admit(segment.replay);
    // Pulled one by one (no for-await), so stopping this parse never closes the source.
    for (;;) {
      const next = await base.next();
      if (next.done === true) return;
      const part = tape.admit(next.value);
      if (part.length > 0) yield part;
    }
  }
  const bytes = Readable.from(feed(), { objectMode: false });
  const parser = bytes.pipe(
    csvParse!.parse({
      columns: segment.header ?? parse.columns,
      delimiter: segment.delimiter,
      bom: true,
      skip_empty_lines: true,
      info: true,
      relax_column_count: false,
      skip_records_with_error: true,
    }),
  );
  // pipe() does not forward a source error (stdin refused as UTF-16): hand it to the parser, so the
  // record loop ends with it instead of the process crashing on an unhandled `error` event.
  bytes.on("error", (err) => parser.destroy(err));
  parser.on("skip", (err: Error & { lines?: number; code?: string }) => {
    parse.skipped.push({ line: parse.offset + (err.lines ?? 0), code: err.code ?? "", message: parse.fileLines(err.message) });
  });
  return parser;
}

/** One parse of the CSV from a line on; returns where to restart after a quote error, if anywhere. */
async function* readCsvSegment(
  path: string,
  base: AsyncIterator<Buffer>,
  tape: CsvTape,
  invalidLines: ReadonlySet<number>,
  segment: CsvSegment,
  mayRestart: boolean,
): AsyncGenerator<RecordItem, CsvSegment | undefined> {
  const parse = new CsvSegmentParse(path, segment);
  const parser = openCsvParser(parse, base, tape);
  try {
    for await (const item of parser as AsyncIterable<{ record: JsonObject; info: { lines: number } }>) {
      yield* parse.skippedBefore(parse.offset + item.info.lines);
      if (parse.stop !== undefined) break;
      // A quoted field may span lines: report the line where the record starts.
      const line = parse.previousEnd + 1;
      parse.previousEnd = parse.offset + item.info.lines;
      tape.dropBefore(parse.previousEnd + 1);
      if (segment.header === undefined && invalidLines.has(1)) {
        yield { where: `${path}:1`, line: 1, error: { code: "invalid_utf8", message: "the CSV header is not valid UTF-8; the file is not read" } };
        return undefined;
      }
      const badLine = firstInvalidLine(invalidLines, line, parse.previousEnd);
      if (badLine !== undefined) {
        yield { where: `${path}:${badLine}`, line: badLine, error: { code: "invalid_utf8", message: "line is not valid UTF-8" } };
        continue;
      }
      yield { where: `${path}:${line}`, line, record: { ...item.record } };
    }
    if (parse.stop === undefined) yield* parse.skippedBefore(Infinity);
  } catch (err) {
    if (err instanceof InputError) throw err;
    if (parse.headerProblem !== undefined) {
      yield { where: `${path}:1`, line: 1, error: { code: "malformed_csv", message: `malformed CSV: ${parse.headerProblem}; the file is not read` } };
      return undefined;
    }
    parse.stop = {
      message: `${parse.fileLines((err as Error).message)} (fields read as ${DELIMITER_NAMES[parse.segment.delimiter] ?? "delimited"}, as the header line has them)`,
    };
  } finally {
    parser.destroy();
  }
  return yield* stoppedAt(parse, tape, mayRestart);
}

/** After a record the parser could not read: its error, and where to restart (if the parse may and a header is known). */
async function* stoppedAt(parse: CsvSegmentParse, tape: CsvTape, mayRestart: boolean): AsyncGenerator<RecordItem, CsvSegment | undefined> {
  const { path, stop, header } = parse;
  if (stop === undefined) return undefined;
  // The record that the parser could not read starts on the line after the last one it read.
  const bad = parse.previousEnd + 1;
  if (!mayRestart || header === undefined) {
    yield {
      where: `${path}:${bad}`,
      line: bad,
      error: { code: "malformed_csv", message: `malformed CSV: ${stop.message}; the rest of the file (after line ${bad}) is not read` },
    };
    return undefined;
  }
  yield { where: `${path}:${bad}`, line: bad, error: { code: "malformed_csv", message: `malformed CSV: ${stop.message}; reading goes on at line ${bad + 1}` } };
  return { firstLine: bad + 1, replay: tape.takeFrom(bad + 1), header, delimiter: parse.segment.delimiter };
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
  let bytes = 0;
  for await (const chunk of source.chunks) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes >= MAX_LINE_BYTES) throw wholeFileTooLarge(source.name);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A Parquet file's rows, row N at `FILE:N`. */
async function* readParquet(source: InputSource): AsyncGenerator<RecordItem> {
  if (typeof source !== "string") {
    throw new InputError(`${source.name}: a Parquet file cannot be read from a stream (its index is at its end): give its path`);
  }
  // The Parquet reader is loaded by the first Parquet input: no other run pays for it.
  const { parquetRowGroups } = await import("./parquet.js");
  for await (const group of parquetRowGroups(source)) {
    for (let i = 0; i < group.rows.length; i++) {
      const line = group.firstRow + i;
      const record = group.rows[i]!;
      if (record === null) yield { where: `${source}:${line}`, line, error: { code: "invalid_utf8", message: "row holds a string that is not valid UTF-8" } };
      else yield { where: `${source}:${line}`, line, record };
    }
  }
}

/** A record item under the null rule (`nullAsAbsent`). */
function underNullRule(item: RecordItem): RecordItem {
  if (item.record === undefined) return item;
  const record = nullAsAbsent(item.record);
  return record === item.record ? item : { ...item, record };
}

/** Records from a path or a stream (`-` on the command line), each under the null rule (`nullAsAbsent`). */
export async function* readRecords(source: InputSource, format?: RecordFormat): AsyncGenerator<RecordItem> {
  for await (const item of readRecordsAsWritten(source, format)) yield underNullRule(item);
}

/**
 * `readRecords` of a source in a known format, a batch at a time: a JSONL file's come a block of
 * lines at a time, one turn of the async generators per block rather than four per record (a
 * 37,500-record slice's read spent about as much in those turns as in parsing its lines). A
 * batch's lines are parsed as it is iterated, each when its turn comes: parsed all at once, a
 * block's records (≈ 3 MB of them on the GRPO bench's slice) were alive through every young
 * collection during the block, and copied by each.
 */
export async function* readRecordBatches(source: InputSource, format: RecordFormat): AsyncGenerator<Iterable<RecordItem>> {
  if (format !== "jsonl") {
    for await (const item of readRecords(source, format)) yield [item];
    return;
  }
  const name = sourceName(source);
  for await (const lines of readLineBatches(source)) yield parsedInTurn(name, lines);
}

/** The records of `lines`, each parsed when the iteration reaches it. */
function* parsedInTurn(name: string, lines: readonly Line[]): Generator<RecordItem> {
  for (const line of lines) yield jsonlRecordItem(name, line);
}

/** The record item of one line of JSONL file `name`, as `readRecords` gives it. */
export function jsonlRecordItem(name: string, line: Line): RecordItem {
  return underNullRule(jsonlItem(name, line));
}

/** Records as the file holds them; a stream is sniffed from its head, then replayed. */
async function* readRecordsAsWritten(source: InputSource, format?: RecordFormat): AsyncGenerator<RecordItem> {
  let input = source;
  let detected = format;
  if (detected === undefined) {
    if (typeof source === "string") detected = await detectRecordFormat(source);
    else {
      const peeked = await peekHead(source);
      const verdict = peeked.head.startsWith(PARQUET_MAGIC) ? "parquet" : formatOfHead(peeked.head);
      input = peeked.replayed;
      if (verdict === "undecided") {
        // Only here is a stream held whole: whole-file JSON must be anyway.
        const chunks: Buffer[] = [];
        for await (const chunk of peeked.replayed.chunks) chunks.push(chunk);
        const whole = Buffer.concat(chunks);
        detected = formatOfWhole(whole);
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
  else if (detected === "parquet") yield* readParquet(input);
  else yield* readJsonContainer(input);
}
