// Parquet files (how Hugging Face datasets and verl store slices and rollouts), read with hyparquet
// (pure JS, no native build) and the codecs of hyparquet-compressors (snappy, gzip, zstd, brotli,
// lz4). A file is read one row group at a time, so memory is bounded by a row group, not the file.
// Each row becomes the JSON object its JSONL twin's line holds: INT64 → number, a null (Parquet
// cannot tell it from an absent field) → the field left out, timestamps → ISO strings, LIST →
// arrays, structs → objects. Row N (1-based) stands where a JSONL input has line N.
import { gunzipSync } from "node:zlib";
import type { AsyncBuffer, Compressors, FileMetaData } from "hyparquet";
import { dict } from "../core/dict.js";
import { InputError } from "./errors.js";
import { fileStartsWith } from "./input-file.js";

/** The four bytes a Parquet file starts and ends with. */
export const PARQUET_MAGIC = "PAR1";

type Hyparquet = typeof import("hyparquet");
let library: Promise<{ hyparquet: Hyparquet; codecs: Compressors }> | undefined;

/** The reader and its codecs, loaded on the first Parquet file (the snappy codec compiles WebAssembly): no other run pays for them. */
function parquetLibrary(): Promise<{ hyparquet: Hyparquet; codecs: Compressors }> {
  library ??= Promise.all([import("hyparquet"), import("hyparquet-compressors")]).then(([hyparquet, { compressors }]) => ({
    hyparquet,
    // Node's own zlib inflates gzip pages natively; the library's codecs do the rest.
    codecs: { ...compressors, GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) },
  }));
  return library;
}

/** Whether the file at `path` starts with the Parquet magic bytes (false for a missing or short file). */
export function isParquetFile(path: string): Promise<boolean> {
  return fileStartsWith(path, PARQUET_MAGIC);
}

/** A nested value (a list, a struct) as its JSONL twin would hold it. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
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
    default:
      if (value === null || value === undefined) return undefined;
      if (Array.isArray(value) && value.every((v) => typeof v === "bigint")) return `[${value.join(",")}]`;
      return JSON.stringify(plain(value));
  }
}

async function metadataOf(hyparquet: Hyparquet, path: string): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  const file = await hyparquet.asyncBufferFromFile(path);
  try {
    return { file, metadata: await hyparquet.parquetMetadataAsync(file) };
  } catch (err) {
    throw new InputError(`${path}: starts like a Parquet file (PAR1) but cannot be read as one: ${(err as Error).message}`);
  }
}

export interface ParquetLines {
  /** 1-based number of the group's first row in the file. */
  firstRow: number;
  /** One JSON object per row, each ending in "\n". */
  text: string;
  rows: number;
  /** The group's compressed size in the file (for progress in bytes). */
  fileBytes: number;
}

/**
 * The file's rows as JSON lines, one row group at a time. The columns are decoded whole and each
 * line is written from them directly (no object per row): on a million-row dump this is what keeps
 * Parquet within reach of JSONL's speed.
 */
export async function* parquetRowGroupLines(path: string): AsyncGenerator<ParquetLines> {
  const { hyparquet, codecs } = await parquetLibrary();
  const { file, metadata } = await metadataOf(hyparquet, path);
  const names = hyparquet.parquetSchema(metadata).children.map((c) => c.element.name);
  const keys = names.map((name) => `${JSON.stringify(name)}:`);
  let start = 0;
  for (const [index, group] of metadata.row_groups.entries()) {
    const count = Number(group.num_rows);
    const columns = names.map(() => new Array<unknown>(count));
    const slot = new Map(names.map((name, i) => [name, columns[i]!]));
    try {
      await hyparquet.parquetRead({
        file,
        metadata,
        rowStart: start,
        rowEnd: start + count,
        compressors: codecs,
        onChunk: ({ columnName, columnData, rowStart }) => {
          const column = slot.get(columnName);
          if (column === undefined) return;
          for (let i = 0; i < columnData.length; i++) {
            const row = rowStart - start + i;
            if (row >= 0 && row < count) column[row] = columnData[i];
          }
        },
      });
    } catch (err) {
      throw new InputError(
        `${path}: rows ${start + 1}–${start + count} (row group ${index}) cannot be read: ${(err as Error).message}; the rest of the file is not read`,
      );
    }
    const lines = new Array<string>(count);
    const parts: string[] = [];
    for (let row = 0; row < count; row++) {
      parts.length = 0;
      for (let c = 0; c < columns.length; c++) {
        const json = jsonOf(columns[c]![row]);
        if (json !== undefined) parts.push(keys[c]! + json);
      }
      lines[row] = `{${parts.join(",")}}`;
    }
    const text = count === 0 ? "" : `${lines.join("\n")}\n`;
    yield { firstRow: start + 1, text, rows: count, fileBytes: Number(group.total_compressed_size ?? group.total_byte_size) };
    start += count;
  }
}

/** The file's rows, one row group at a time, as the JSON objects of their lines. */
export async function* parquetRowGroups(path: string): AsyncGenerator<{ firstRow: number; rows: Record<string, unknown>[] }> {
  for await (const group of parquetRowGroupLines(path)) {
    const rows = group.text.split("\n", group.rows).map((line) => JSON.parse(line) as Record<string, unknown>);
    yield { firstRow: group.firstRow, rows };
  }
}

/**
 * The rows as JSONL blocks (one JSON line per row, each block a row group), numbered as lines, for
 * the readers that take lines: a Parquet dump is scored by the very code that scores its JSONL twin.
 */
export async function* parquetLineBlocks(path: string): AsyncGenerator<{ firstLineNo: number; block: Buffer; fileBytes: number }> {
  for await (const group of parquetRowGroupLines(path)) {
    // Blocks of about BLOCK_BYTES, as a JSONL file is read, so the workers share a large row group.
    const bytes = Buffer.from(group.text, "utf8");
    let start = 0;
    let lineNo = group.firstRow;
    while (start < bytes.length) {
      let end = bytes.indexOf(0x0a, Math.min(bytes.length - 1, start + BLOCK_BYTES)) + 1;
      if (end === 0) end = bytes.length;
      const block = bytes.subarray(start, end);
      yield { firstLineNo: lineNo, block, fileBytes: Math.round((group.fileBytes * block.length) / bytes.length) };
      lineNo += countLines(block);
      start = end;
    }
  }
}

const BLOCK_BYTES = 1 << 20;

function countLines(block: Buffer): number {
  let n = 0;
  for (let at = block.indexOf(0x0a); at !== -1; at = block.indexOf(0x0a, at + 1)) n++;
  return n;
}
