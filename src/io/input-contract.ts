// The bounded-input contract every reader follows (Parquet, zip, eval-tool logs, trend inputs,
// serve bodies): a size, count or offset that a file declares is checked against the file's real
// size and a documented bound before anything is allocated for it; decompression spends from a
// byte budget derived from the line bound; a third-party decoder runs inside mari's error
// boundary, so whatever it throws becomes a located input error (exit 2), never a crash; a value
// read from a file nests at most MAX_VALUE_DEPTH levels (JSON.stringify and every recursive walk
// stay far from the stack's end), one nested deeper is its record's error; a checksum a format
// carries (a zip member's CRC-32) is checked; a read that keeps what it reads (a slice) stops, with
// the file's error, before it fills Node's heap. docs/hostile-input.md tabulates the bounds.
import { getHeapStatistics } from "node:v8";
import { MAX_HELD_INPUT_HEAP_SHARE, MAX_JSON_DEPTH, MAX_LINE_BYTES } from "../core/limits.js";
import { exceedsDepth } from "./depth.js";
import { InputError, located } from "./errors.js";

/** What one record (a line, a row, a zip member's entry) may decode to, in bytes. */
export const MAX_DECODED_RECORD_BYTES = MAX_LINE_BYTES;

/**
 * What all the records of one compressed file (a zip's members) may decode to together: the
 * budget that keeps a small archive from costing gigabytes.
 */
export const MAX_DECODED_FILE_BYTES = 4 * MAX_DECODED_RECORD_BYTES;

/** A file read whole (a JSON document: a report, a config, an inspect `.json` log) is under this many bytes. */
export const MAX_WHOLE_FILE_BYTES = MAX_LINE_BYTES;

/** How deep a value read from any input may nest (objects and arrays; a scalar is depth 0). */
export const MAX_VALUE_DEPTH = MAX_JSON_DEPTH;

/** Whether a record's value nests deeper than MAX_VALUE_DEPTH (checked without recursion past the bound). */
export function tooDeep(value: unknown): boolean {
  return exceedsDepth(value, MAX_VALUE_DEPTH);
}

/**
 * A count, size or offset read from a file, as a safe integer in [0, limit]; anything else (a
 * negative, fractional or huge value, a bigint past 2^53) is the file's error, named by `what`.
 */
export function declaredWithin(file: string, what: string, declared: number | bigint, limit: number, line?: number): number {
  const value = typeof declared === "bigint" ? Number(declared) : declared;
  if (!Number.isSafeInteger(value) || value < 0 || value > limit) {
    throw new InputError(located(file, line, `${what} is ${String(declared)}, outside 0…${limit}`));
  }
  return value;
}

/** The young generation's most (two 16 MB semi-spaces and a large-object space as large), which V8 counts in its heap limit. */
const YOUNG_GENERATION_BYTES = 48 * 2 ** 20;

/** The bytes of V8's heap in use now (what `heapWithin` counts from). */
export function heapInUse(): number {
  return getHeapStatistics().used_heap_size;
}

/** How full the heap as a whole may be during such a read, whatever the read itself holds: near the end, V8 aborts. */
const MOST_HEAP_IN_USE = 0.85;

/**
 * Throws the file's input error when what it has been read into so far (the heap in use beyond
 * `from`, `heapInUse()` when the read began, and the `outsideHeap` bytes it holds in buffers) fills
 * more than MAX_HELD_INPUT_HEAP_SHARE of the old generation Node may use, or the heap as a whole
 * more than MOST_HEAP_IN_USE of it: checked as the read goes, so that a file too large for the heap
 * is an error naming it, and how to give the process more, before V8 runs out and ends the process.
 * The message says how far the read got: `count` `unit` (e.g. 61,440 "records"), formatted only
 * when it is thrown.
 */
export function heapWithin(file: string, what: string, from: number, count: number, unit: string, outsideHeap = 0): void {
  const share = MAX_HELD_INPUT_HEAP_SHARE;
  const { used_heap_size: used, heap_size_limit: heapLimit } = getHeapStatistics();
  // V8 runs out when its old generation is full, and reports the young generation's room beside it
  // in heap_size_limit: Node 20's is --max-old-space-size plus YOUNG_GENERATION_BYTES.
  const limit = Math.max(heapLimit - YOUNG_GENERATION_BYTES, 2 ** 20);
  const read = Math.max(0, used - from) + outsideHeap;
  if (read <= share * limit && used <= MOST_HEAP_IN_USE * limit) return;
  const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
  throw new InputError(
    located(
      file,
      undefined,
      `${what} is too large for this process's memory: after ${count.toLocaleString("en-US")} ${unit} read it holds ${mb(read)} and the heap ${mb(used)} of the ${mb(limit)} Node may use (the read may take ${Math.round(share * 100)} % of it); give Node more (NODE_OPTIONS=--max-old-space-size=MB) or split the file`,
    ),
  );
}

/** Runs a third-party decoder: an input error passes through, anything else it throws is the file's error. */
export function decoderBoundary<T>(file: string, what: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw asDecodeError(file, what, err);
  }
}

/** `decoderBoundary` for a decoder that returns a promise. */
export async function decoderBoundaryAsync<T>(file: string, what: string, decode: () => Promise<T>): Promise<T> {
  try {
    return await decode();
  } catch (err) {
    throw asDecodeError(file, what, err);
  }
}

function asDecodeError(file: string, what: string, err: unknown): InputError {
  if (err instanceof InputError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new InputError(located(file, undefined, `cannot read ${what}: ${message}`));
}

/** Bytes a reader may still decompress; spending past it is the file's error. */
export class DecodeBudget {
  private left: number;
  constructor(
    private readonly file: string,
    readonly limit: number,
  ) {
    this.left = limit;
  }

  spend(bytes: number, what: string): void {
    this.left -= bytes;
    if (this.left < 0) {
      throw new InputError(located(this.file, undefined, `${what} decodes to more than ${this.limit} bytes`));
    }
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A record's bytes as text, or null when they are not valid UTF-8 (never U+FFFD in their place). */
export function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}
