// Parquet files (how Hugging Face datasets and verl store slices and rollouts), read with hyparquet
// (pure JS, no native build) and the codecs of hyparquet-compressors (snappy, gzip, zstd, brotli,
// lz4). A file is read one row group at a time, so memory is bounded by a row group, not the file.
// Each row becomes the JSON object its JSONL twin's line holds: INT64 → number, a null (Parquet
// cannot tell it from an absent field) → the field left out, timestamps → ISO strings, LIST →
// arrays, structs → objects. Row N (1-based) stands where a JSONL input has line N.
import { open } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type Compressors, type FileMetaData } from "hyparquet";
import { compressors as codecLibrary } from "hyparquet-compressors";
import { dict } from "../core/dict.js";
import { InputError } from "./errors.js";
import { assertRegularFile } from "./input-file.js";

/** The four bytes a Parquet file starts and ends with. */
export const PARQUET_MAGIC = "PAR1";

// Node's own zlib inflates gzip pages natively; the library's codecs do the rest.
const CODECS: Compressors = { ...codecLibrary, GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };

/** Whether the file at `path` starts with the Parquet magic bytes (false for a missing or short file). */
export async function isParquetFile(path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    await assertRegularFile(path);
    handle = await open(path, "r");
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString("latin1") === PARQUET_MAGIC;
  } catch (err) {
    if (err instanceof InputError) throw err;
    return false;
  } finally {
    await handle?.close();
  }
}

/** A value as its JSONL twin would hold it. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "bigint") return Number(value); // beyond 2^53 the readers refuse it as they refuse such a JSON number
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) return value.map((v) => plain(v) ?? null);
  if (typeof value === "object") return plainObject(value as Record<string, unknown>);
  return value;
}

function plainObject(row: Record<string, unknown>): Record<string, unknown> {
  const out = dict<unknown>();
  for (const key of Object.keys(row)) {
    const v = plain(row[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

async function metadataOf(path: string): Promise<{ file: Awaited<ReturnType<typeof asyncBufferFromFile>>; metadata: FileMetaData }> {
  const file = await asyncBufferFromFile(path);
  try {
    return { file, metadata: await parquetMetadataAsync(file) };
  } catch (err) {
    throw new InputError(`${path}: starts like a Parquet file (PAR1) but cannot be read as one: ${(err as Error).message}`);
  }
}

export interface ParquetRowGroup {
  /** 1-based number of the group's first row in the file. */
  firstRow: number;
  rows: Record<string, unknown>[];
  /** The group's compressed size in the file (for progress in bytes). */
  fileBytes: number;
}

/** The file's rows, one row group at a time, as plain JSON objects. */
export async function* parquetRowGroups(path: string): AsyncGenerator<ParquetRowGroup> {
  const { file, metadata } = await metadataOf(path);
  let start = 0;
  for (const [index, group] of metadata.row_groups.entries()) {
    const count = Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: start + count, compressors: CODECS });
    } catch (err) {
      throw new InputError(
        `${path}: rows ${start + 1}–${start + count} (row group ${index}) cannot be read: ${(err as Error).message}; the rest of the file is not read`,
      );
    }
    yield {
      firstRow: start + 1,
      rows: rows.slice(0, count).map(plainObject),
      fileBytes: Number(group.total_compressed_size ?? group.total_byte_size),
    };
    start += count;
  }
}

/**
 * The rows as JSONL blocks (one JSON line per row, each block a row group), numbered as lines, for
 * the readers that take lines: a Parquet dump is scored by the very code that scores its JSONL twin.
 */
export async function* parquetLineBlocks(path: string): AsyncGenerator<{ firstLineNo: number; block: Buffer; fileBytes: number }> {
  for await (const group of parquetRowGroups(path)) {
    let text = "";
    for (const row of group.rows) text += `${JSON.stringify(row)}\n`;
    yield { firstLineNo: group.firstRow, block: Buffer.from(text, "utf8"), fileBytes: group.fileBytes };
  }
}
