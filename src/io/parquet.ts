// Parquet files (how Hugging Face datasets and verl store slices and rollouts), read with hyparquet
// (pure JS, no native build) and the codecs of hyparquet-compressors (snappy, gzip, zstd, brotli,
// lz4). A file is read one page at a time per column: memory is bounded by a page (and a column's
// dictionary), not by a row group, which pyarrow, pandas and HF datasets write up to a million rows
// long. Each row becomes the JSON object its JSONL twin's line holds: INT64 → number, a null → the
// field left out (as `null` everywhere, docs/eval.md "Inputs"), timestamps → ISO strings at their
// stored precision, a binary column → base64, LIST → arrays, structs → objects. Row N (1-based)
// stands where a JSONL input has line N.
//
// The bounded-input contract (input-contract.ts): every declared offset and size is checked against
// the file's size before it is read; a page decompresses to at most MAX_DECODED_RECORD_BYTES (and
// no more than its codec can expand); the schema nests at most MAX_JSON_DEPTH levels; a row group's
// `num_rows` must be the number of rows its columns hold; a page's CRC-32, when written, is checked; hyparquet runs inside the decoder boundary;
// a string that is not valid UTF-8 makes its row an invalid-UTF-8 line, never U+FFFD.
import { open, type FileHandle } from "node:fs/promises";
import type { Compressors, DecodedArray, FileMetaData, PageHeader, ParquetParsers, SchemaTree } from "hyparquet";
import type { ColumnDecoder } from "hyparquet/src/types.js";
import { dict } from "../core/dict.js";
import { MAX_JSON_DEPTH } from "../core/limits.js";
import { InputError, located } from "./errors.js";
import { decoderBoundary, decoderBoundaryAsync, declaredWithin, MAX_DECODED_RECORD_BYTES } from "./input-contract.js";
import { lineTooLong } from "./lines.js";

/** Values one page may declare: far above what any writer puts in a page, far below what would exhaust memory. */
export const MAX_PAGE_VALUES = 1 << 24;
/** Rows turned into lines at a time (each column holds at most a page beyond them). */
const BATCH_ROWS = 8192;
/** Bytes read for a page header first; a header with large statistics is read again, larger. */
const HEADER_WINDOW = 1 << 14;
const MAX_HEADER_BYTES = 1 << 24;

interface Library {
  hyparquet: typeof import("hyparquet");
  column: typeof import("hyparquet/src/column.js");
  convert: typeof import("hyparquet/src/convert.js");
  assemble: typeof import("hyparquet/src/assemble.js");
  schema: typeof import("hyparquet/src/schema.js");
  codecs: Compressors;
  crc32: (data: Uint8Array) => number;
}
let library: Promise<Library> | undefined;

/**
 * The reader and its codecs, loaded on the first Parquet file (the snappy codec compiles WebAssembly,
 * and node:zlib is a few milliseconds of every start): no other run pays for them.
 */
function parquetLibrary(): Promise<Library> {
  library ??= Promise.all([
    import("hyparquet"),
    import("hyparquet/src/column.js"),
    import("hyparquet/src/convert.js"),
    import("hyparquet/src/assemble.js"),
    import("hyparquet/src/schema.js"),
    import("hyparquet-compressors"),
    import("node:zlib"),
  ]).then(([hyparquet, column, convert, assemble, schema, { compressors }, { crc32, gunzipSync }]) => ({
    hyparquet,
    column,
    convert,
    assemble,
    schema,
    // Node's own zlib inflates gzip pages natively, never past the page's declared size.
    codecs: { ...compressors, GZIP: (input: Uint8Array, size: number) => new Uint8Array(gunzipSync(input, { maxOutputLength: Math.max(1, size) })) },
    crc32,
  }));
  return library;
}

/** A string value whose bytes are not UTF-8: its row becomes an invalid-UTF-8 line. */
const INVALID_UTF8: unique symbol = Symbol("invalid UTF-8");
class InvalidUtf8Row extends Error {}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** An ISO 8601 instant from a count of `unit`ths of a second, with `digits` fraction digits (the stored precision). */
function isoInstant(count: bigint, unit: bigint, digits: number): string {
  let seconds = count / unit;
  let fraction = count % unit;
  if (fraction < 0n) {
    fraction += unit;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new Error(`timestamp ${count} is outside the representable range`);
  return `${date.toISOString().slice(0, -5)}.${fraction.toString().padStart(digits, "0")}Z`;
}

const PARSERS: Partial<ParquetParsers> = {
  stringFromBytes: (bytes) => {
    if (bytes === undefined || bytes === null) return bytes;
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return INVALID_UTF8 as unknown as string;
    }
  },
  timestampFromMilliseconds: (millis) => isoInstant(BigInt(millis), 1000n, 3) as unknown as Date,
  timestampFromMicroseconds: (micros) => isoInstant(BigInt(micros), 1_000_000n, 6) as unknown as Date,
  timestampFromNanoseconds: (nanos) => isoInstant(BigInt(nanos), 1_000_000_000n, 9) as unknown as Date,
  dateFromDays: (days) => isoInstant(BigInt(days) * 86_400_000n, 1000n, 3) as unknown as Date,
};

/** A nested value (a list, a struct) as its JSONL twin would hold it. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value === INVALID_UTF8) throw new InvalidUtf8Row();
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) return value.map((v) => plain(v) ?? null);
  if (typeof value === "object") {
    const out = dict<unknown>();
    for (const [key, v] of Object.entries(value)) {
      const p = plain(v);
      if (p !== undefined) out[key] = p;
    }
    return out;
  }
  return value;
}

/** A column value as JSON text; undefined for a null (the field is left out of the row). */
function jsonOf(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    // An INT64 keeps its exact digits: beyond 2^53 the dump reader refuses it as it refuses the JSON number.
    case "bigint":
      return value.toString();
    case "number":
      return JSON.stringify(value);
    case "symbol":
      throw new InvalidUtf8Row();
    default:
      if (value === null || value === undefined) return undefined;
      if (Array.isArray(value) && value.every((v) => typeof v === "bigint")) return `[${value.join(",")}]`;
      return JSON.stringify(plain(value));
  }
}

function depthOf(tree: SchemaTree): number {
  let deepest = 0;
  for (const child of tree.children) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

/** How far a codec can expand its input: a page claiming more is the file's error before anything is allocated. */
function maxExpansion(codec: string, compressed: number): number {
  switch (codec) {
    case "UNCOMPRESSED":
      return compressed;
    case "SNAPPY":
      return 32 * compressed + 64;
    case "LZ4":
    case "LZ4_RAW":
      return 256 * compressed + 64;
    case "GZIP":
      return 1032 * compressed + 64;
    default:
      return MAX_DECODED_RECORD_BYTES;
  }
}

/** One column chunk, read page by page: the rows decoded and not yet taken, at most a page's worth. */
class PageCursor {
  private position: number;
  private readonly end: number;
  private dictionary: DecodedArray | undefined;
  /** Rows decoded; those before `taken` were handed out already (no copy of the rest per batch). */
  private rows: DecodedArray = [];
  private taken = 0;
  exhausted = false;
  /** Whether a row may span pages (a list column). */
  private readonly repeated: boolean;

  constructor(
    private readonly lib: Library,
    private readonly handle: FileHandle,
    private readonly path: string,
    readonly decoder: ColumnDecoder,
    start: number,
    size: number,
    private readonly where: string,
  ) {
    this.position = start;
    this.end = start + size;
    this.repeated = decoder.schemaPath.some((s) => s.element.repetition_type === "REPEATED");
  }

  /** Rows that are whole: a repeated column's last row may go on in the next page. */
  get ready(): number {
    const left = this.rows.length - this.taken;
    return this.repeated && !this.exhausted ? Math.max(0, left - 1) : left;
  }

  take(count: number): DecodedArray {
    const rows = this.rows.slice(this.taken, this.taken + count);
    this.taken += count;
    return rows;
  }

  private async bytes(at: number, length: number): Promise<Uint8Array> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, at);
    if (bytesRead !== length) throw new InputError(located(this.path, undefined, `${this.where}: the file ends inside a page`));
    return buffer;
  }

  /** Reads the next page (a dictionary page, or data appended to the rows); at the chunk's end, marks it exhausted. */
  async readPage(): Promise<void> {
    const left = this.end - this.position;
    if (left <= 0) {
      this.exhausted = true;
      return;
    }
    const { column } = this.lib;
    let window = Math.min(HEADER_WINDOW, left);
    let bytes: Uint8Array;
    let header: PageHeader;
    let headerLength: number;
    for (;;) {
      bytes = await this.bytes(this.position, window);
      const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
      const parsed = (() => {
        try {
          return column.parquetHeader(reader);
        } catch (err) {
          if (window < left && window < MAX_HEADER_BYTES) return undefined;
          throw err;
        }
      })();
      if (parsed !== undefined && reader.offset <= window) {
        header = parsed;
        headerLength = reader.offset;
        break;
      }
      if (window >= left || window >= MAX_HEADER_BYTES)
        throw new InputError(located(this.path, undefined, `${this.where}: a page header runs past its column chunk`));
      window = Math.min(window * 4, left, MAX_HEADER_BYTES);
    }
    const compressed = declaredWithin(this.path, `${this.where}: a page's compressed size`, header.compressed_page_size, left - headerLength);
    const limit = Math.min(MAX_DECODED_RECORD_BYTES, maxExpansion(this.decoder.codec, compressed));
    declaredWithin(this.path, `${this.where}: a page's uncompressed size`, header.uncompressed_page_size, limit);
    checkPageHeader(this.path, this.where, header, compressed);
    const pageEnd = headerLength + compressed;
    if (pageEnd > bytes.length) bytes = await this.bytes(this.position, pageEnd);
    // A page that carries a CRC-32 (pyarrow's write_page_checksum) is checked before it is decoded.
    if (header.crc !== undefined && (this.lib.crc32(bytes.subarray(headerLength, pageEnd)) | 0) !== (header.crc | 0)) {
      throw new InputError(located(this.path, undefined, `${this.where}: a page's bytes do not match its CRC-32`));
    }
    this.position += pageEnd;
    if (header.type === "INDEX_PAGE") return;
    // A page is read once the rows are taken but for a repeated column's last one, which it may go on.
    if (this.taken > 0) {
      this.rows = this.rows.slice(this.taken);
      this.taken = 0;
    }
    const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, pageEnd), offset: headerLength };
    const previous = this.repeated ? this.rows : undefined;
    const result = column.readPage(reader, header, this.decoder, this.dictionary, previous, 0);
    if (header.type === "DICTIONARY_PAGE") {
      if (result.data !== undefined) this.dictionary = this.lib.convert.convert(result.data, this.decoder);
      return;
    }
    if (result.data === undefined || result.data === previous) return;
    this.rows = this.rows.length === 0 ? result.data : concatRows(this.rows, result.data);
  }
}

/**
 * The header fields hyparquet's page decoders take as given: a missing or out-of-range one (a
 * damaged header) would otherwise become a NaN offset or count inside the decoder, where it loops.
 */
function checkPageHeader(path: string, where: string, header: PageHeader, compressed: number): void {
  const field = (what: string, value: unknown, limit: number) => {
    if (typeof value !== "number" && typeof value !== "bigint") throw new InputError(located(path, undefined, `${where}: a page header has no ${what}`));
    declaredWithin(path, `${where}: a page's ${what}`, value, limit);
  };
  const v1 = header.data_page_header;
  const v2 = header.data_page_header_v2;
  if (header.type === "DATA_PAGE") {
    if (v1 === undefined || v1.encoding === undefined) throw new InputError(located(path, undefined, `${where}: a data page header is incomplete`));
    field("value count", v1.num_values, MAX_PAGE_VALUES);
  } else if (header.type === "DATA_PAGE_V2") {
    if (v2 === undefined || v2.encoding === undefined) throw new InputError(located(path, undefined, `${where}: a data page header is incomplete`));
    field("value count", v2.num_values, MAX_PAGE_VALUES);
    field("null count", v2.num_nulls, v2.num_values);
    field("row count", v2.num_rows, v2.num_values);
    field("repetition levels' length", v2.repetition_levels_byte_length, compressed);
    field("definition levels' length", v2.definition_levels_byte_length, compressed - v2.repetition_levels_byte_length);
  } else if (header.type === "DICTIONARY_PAGE") {
    if (header.dictionary_page_header === undefined) throw new InputError(located(path, undefined, `${where}: a dictionary page header is incomplete`));
    field("dictionary size", header.dictionary_page_header.num_values, MAX_PAGE_VALUES);
  } else if (header.type !== "INDEX_PAGE") {
    throw new InputError(located(path, undefined, `${where}: a page of unknown type`));
  }
}

function concatRows(a: DecodedArray, b: DecodedArray): DecodedArray {
  const out = new Array<unknown>(a.length + b.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i];
  for (let i = 0; i < b.length; i++) out[a.length + i] = b[i];
  return out as DecodedArray;
}

export interface ParquetBatch {
  /** 1-based number of the batch's first row in the file. */
  firstRow: number;
  /** One JSON object per row; null for a row holding a string that is not valid UTF-8. */
  lines: (string | null)[];
  /** The part of its row group's compressed size these rows stand for (progress in bytes). */
  fileBytes: number;
}

/** A batch of rows as decoded, column by column (what a row's JSON line is written from). */
export interface ParquetColumnBatch {
  /** 1-based number of the batch's first row in the file. */
  firstRow: number;
  count: number;
  /** The top-level columns' names, in schema order. */
  names: string[];
  /** Their values for the batch's rows (a struct: objects, a list: arrays, a null: null or undefined); undefined for a column without leaves. */
  columns: (DecodedArray | undefined)[];
  /** The part of its row group's compressed size these rows stand for (progress in bytes). */
  fileBytes: number;
}

interface TopColumn {
  name: string;
  tree: SchemaTree;
  /** Indices of its leaves among the row group's column chunks. */
  leaves: number[];
  /** Their paths, dotted, as the nested assembly names them. */
  leafPaths: string[];
}

async function fileMetadata(lib: Library, path: string): Promise<FileMetaData> {
  const file = await decoderBoundaryAsync(path, "the Parquet footer", () => lib.hyparquet.asyncBufferFromFile(path));
  try {
    return await lib.hyparquet.parquetMetadataAsync(file, { parsers: PARSERS });
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${path}: starts like a Parquet file (PAR1) but cannot be read as one: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The file's rows as JSON lines, in batches of at most BATCH_ROWS rows, each column read one page at
 * a time. Each line is written from the decoded columns directly (no object per row).
 */
export async function* parquetBatches(path: string): AsyncGenerator<ParquetBatch> {
  for await (const batch of parquetColumnBatches(path)) {
    const keys = batch.names.map((name) => `${JSON.stringify(name)}:`);
    const lines = new Array<string | null>(batch.count);
    for (let row = 0; row < batch.count; row++) lines[row] = rowLine(path, batch.firstRow + row, keys, batch.columns, row);
    yield { firstRow: batch.firstRow, lines, fileBytes: batch.fileBytes };
  }
}

/** The file's rows in batches of at most BATCH_ROWS rows, column by column, each column read one page at a time. */
export async function* parquetColumnBatches(path: string): AsyncGenerator<ParquetColumnBatch> {
  const lib = await parquetLibrary();
  const metadata = await fileMetadata(lib, path);
  const handle = await open(path, "r");
  try {
    const fileSize = (await handle.stat()).size;
    const schema = decoderBoundary(path, "the Parquet schema", () => lib.hyparquet.parquetSchema(metadata));
    const depth = depthOf(schema) - 1;
    if (depth > MAX_JSON_DEPTH) {
      throw new InputError(located(path, undefined, `the Parquet schema nests ${depth} levels; at most ${MAX_JSON_DEPTH} are read`));
    }
    let firstRow = 1;
    for (const [index, group] of metadata.row_groups.entries()) {
      const declared = declaredWithin(path, `row group ${index}'s num_rows`, group.num_rows, Number.MAX_SAFE_INTEGER);
      const rows = yield* rowGroupBatches(lib, path, handle, fileSize, schema, index, group, firstRow, declared);
      firstRow += rows;
    }
  } finally {
    await handle.close();
  }
}

async function* rowGroupBatches(
  lib: Library,
  path: string,
  handle: FileHandle,
  fileSize: number,
  schema: SchemaTree,
  index: number,
  group: FileMetaData["row_groups"][number],
  firstRow: number,
  declared: number,
): AsyncGenerator<ParquetColumnBatch, number> {
  const where = `row group ${index}`;
  const cursors = group.columns.map((chunk, c) => {
    const meta = chunk.meta_data;
    if (meta === undefined) throw new InputError(located(path, undefined, `${where}: column chunk ${c} has no metadata`));
    const start = declaredWithin(
      path,
      `${where}: column ${meta.path_in_schema.join(".")}'s offset`,
      meta.dictionary_page_offset || meta.data_page_offset,
      fileSize,
    );
    const size = declaredWithin(path, `${where}: column ${meta.path_in_schema.join(".")}'s size`, meta.total_compressed_size, fileSize - start);
    const schemaPath = decoderBoundary(path, `${where}'s columns`, () => lib.schema.getTreePath(schema, meta.path_in_schema));
    const decoder: ColumnDecoder = {
      pathInSchema: meta.path_in_schema,
      type: meta.type,
      element: schemaPath[schemaPath.length - 1]!.element,
      schemaPath,
      codec: meta.codec,
      parsers: { ...lib.convert.DEFAULT_PARSERS, ...PARSERS },
      compressors: lib.codecs,
      utf8: false,
    };
    return new PageCursor(lib, handle, path, decoder, start, size, `${where}, column ${meta.path_in_schema.join(".")}`);
  });
  const tops: TopColumn[] = schema.children.map((tree) => {
    const leaves = cursors.flatMap((c, i) => (c.decoder.pathInSchema[0] === tree.element.name ? [i] : []));
    return {
      name: tree.element.name,
      tree,
      leaves,
      leafPaths: leaves.map((i) => cursors[i]!.decoder.pathInSchema.join(".")),
    };
  });
  const groupBytes = Number(group.total_compressed_size ?? group.total_byte_size);
  let done = 0;
  for (;;) {
    for (const cursor of cursors) {
      while (cursor.ready === 0 && !cursor.exhausted) {
        await decoderBoundaryAsync(path, `${where}, rows ${firstRow + done}…`, () => cursor.readPage());
      }
    }
    const count = Math.min(BATCH_ROWS, ...cursors.map((c) => c.ready));
    if (count === 0 || cursors.length === 0) {
      const short = cursors.find((c) => c.ready > 0);
      if (short !== undefined || done !== declared) {
        throw new InputError(
          located(
            path,
            undefined,
            `${where} declares ${declared} rows but its columns hold ${short === undefined ? done : "different numbers of rows"}; the rest of the file is not read`,
          ),
        );
      }
      return done;
    }
    if (done + count > declared) {
      throw new InputError(located(path, undefined, `${where} declares ${declared} rows but its columns hold more; the rest of the file is not read`));
    }
    const leafRows = cursors.map((c) => c.take(count));
    const columns = decoderBoundary(path, `${where}, rows ${firstRow + done}…`, () => tops.map((top) => topColumn(lib, top, leafRows)));
    const fileBytes = declared === 0 ? 0 : Math.round((groupBytes * count) / declared);
    yield { firstRow: firstRow + done, count, names: tops.map((top) => top.name), columns, fileBytes };
    done += count;
  }
}

/** A top-level column's values for the batch: a leaf's own, or a list or struct assembled from its leaves. */
function topColumn(lib: Library, top: TopColumn, leafRows: DecodedArray[]): DecodedArray | undefined {
  if (top.leaves.length === 0) return undefined;
  if (top.tree.children.length === 0) return leafRows[top.leaves[0]!];
  const sub = new Map<string, DecodedArray>();
  top.leaves.forEach((leaf, i) => sub.set(top.leafPaths[i]!, Array.from(leafRows[leaf]!) as DecodedArray));
  lib.assemble.assembleNested(sub, top.tree, { ...lib.convert.DEFAULT_PARSERS, ...PARSERS });
  return sub.get(top.name);
}

/**
 * Row `row` of a batch as its JSON line (`rowNo` its number in the file; `keys` the columns' names
 * as JSON keys): a null value leaves its field out; null for a row holding a string that is not valid UTF-8.
 */
export function rowLine(path: string, rowNo: number, keys: readonly string[], columns: readonly (DecodedArray | undefined)[], row: number): string | null {
  const parts: string[] = [];
  try {
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c];
      if (column === undefined) continue;
      const json = jsonOf(column[row]);
      if (json !== undefined) parts.push(keys[c]! + json);
    }
    const line = `{${parts.join(",")}}`;
    if (line.length * 3 >= MAX_DECODED_RECORD_BYTES && Buffer.byteLength(line) >= MAX_DECODED_RECORD_BYTES) throw lineTooLong(path, rowNo);
    return line;
  } catch (err) {
    if (err instanceof InvalidUtf8Row) return null;
    if (err instanceof RangeError) throw lineTooLong(path, rowNo);
    throw err;
  }
}

/** The file's rows, a batch at a time, as the JSON objects of their lines (null: a row that is not valid UTF-8). */
export async function* parquetRowGroups(path: string): AsyncGenerator<{ firstRow: number; rows: (Record<string, unknown> | null)[] }> {
  for await (const batch of parquetBatches(path)) {
    yield { firstRow: batch.firstRow, rows: batch.lines.map((line) => (line === null ? null : (JSON.parse(line) as Record<string, unknown>))) };
  }
}

const RUN_CHARS = 1 << 24;

/** An invalid-UTF-8 line: the line reader rejects it as such, at its row's number. */
const INVALID_UTF8_LINE = Buffer.from([0xff, 0x0a]);

/**
 * The rows as JSONL blocks (one JSON line per row), numbered as lines, for the readers that take
 * lines: a Parquet dump is scored by the very code that scores its JSONL twin.
 */
export async function* parquetLineBlocks(path: string): AsyncGenerator<{ firstLineNo: number; block: Buffer; fileBytes: number }> {
  for await (const batch of parquetBatches(path)) {
    const parts: Buffer[] = [];
    let run: string[] = [];
    let runChars = 0;
    const flush = () => {
      if (run.length > 0) parts.push(Buffer.from(`${run.join("\n")}\n`, "utf8"));
      run = [];
      runChars = 0;
    };
    for (const line of batch.lines) {
      if (line === null) {
        flush();
        parts.push(INVALID_UTF8_LINE);
        continue;
      }
      // Long rows are joined a few at a time: one string of them all could pass V8's string limit.
      if (runChars + line.length > RUN_CHARS) flush();
      run.push(line);
      runChars += line.length;
    }
    flush();
    yield { firstLineNo: batch.firstRow, block: parts.length === 1 ? parts[0]! : Buffer.concat(parts), fileBytes: batch.fileBytes };
  }
}
