// A block of slice lines read into cases by WebAssembly (its source wasm/slice-lines.ts, its bytes
// slice-lines-wasm.ts): a line whose strings are all ASCII and whose fields are the common ones
// (`id`, `text`, a boolean `label`, `evidence`, `scope`, `doc_type`, fields of the case's own
// holding strings or booleans) comes out split into sentences, its evidence aligned, with its
// content hash's JSON written, and no JavaScript object made for it. Every other line is left to
// the general reader (slice.ts). A cold read of the GRPO bench slice had spent most of its CPU on
// JSON.parse, the sentence rule, the alignment and the hash's JSON, one case at a time, and on V8
// compiling that JavaScript (docs/eval.md, "Performance").
import { instantiateOn, WASM_OWN_BYTES, WasmArena } from "../core/wasm.js";
import { LINE_BLOCK_BYTES } from "./line-ends.js";
import { SLICE_LINES_WASM } from "./slice-lines-wasm.js";

interface SliceLinesExports {
  heapBase(): number;
  recordInts(): number;
  readBlock(
    block: number,
    length: number,
    records: number,
    recordRoom: number,
    out: number,
    outEnd: number,
    sentences: number,
    sentencesEnd: number,
    scratch: number,
    scratchEnd: number,
  ): number;
}

// A line's record (wasm/slice-lines.ts, R_*).
const R_IS_CASE = 0;
const R_LABEL = 1;
const R_ID_AT = 2;
const R_ID_LENGTH = 3;
const R_SCOPE_AT = 4;
const R_SCOPE_LENGTH = 5;
const R_DOC_TYPE_AT = 6;
const R_DOC_TYPE_LENGTH = 7;
const R_EXTRA_AT = 8;
const R_EXTRA_LENGTH = 9;
const R_SENTENCES_AT = 10;
const R_SENTENCES_LENGTH = 11;
const R_SENTENCE_LENGTHS_AT = 12;
const R_SENTENCE_COUNT = 13;
const R_GOLD = 14;
const R_JSON_AT = 15;
const R_JSON_LENGTH = 16;
const RECORD_INTS = 17;

/**
 * The largest block read here (a larger one is JavaScript's): twice the readers' blocks, as a
 * block cut from a stream's chunks holds the end of the chunk before (lines.ts, readLineBlocks).
 */
const MOST_BLOCK_BYTES = 2 * LINE_BLOCK_BYTES;
/** Lines a block may have records for: 32 bytes a line on average (a block of shorter lines leaves the rest to JavaScript). */
const RECORD_ROOM = MOST_BLOCK_BYTES / 32;
/** Room for the cases' outputs (a line's take at most ten times its bytes; the module stops short of the room). */
const OUT_BYTES = 12 * LINE_BLOCK_BYTES;
/** Room for the block's cases' sentences, end to end (they are its text's bytes at most). */
const SENTENCE_BYTES = MOST_BLOCK_BYTES + 64;
/** Room for a case's sentence bounds and alignment tokens: a text of up to about 180 kB (a longer one is JavaScript's). */
const SCRATCH_BYTES = 4 * LINE_BLOCK_BYTES;

/** The records of the block read last, and the cases' outputs they point to: valid until the next block. */
export class SliceLineScan {
  readonly #exports: SliceLinesExports;
  readonly #bytes: Buffer;
  /** The module's memory, as bytes and as Int32s (sentence lengths are read from it where they are). */
  readonly units: Uint8Array;
  readonly ints: Int32Array;
  readonly #blockAt = WASM_OWN_BYTES;
  readonly #recordsAt = WASM_OWN_BYTES + MOST_BLOCK_BYTES;
  readonly #outAt: number;
  readonly #sentencesAt: number;
  readonly #scratchAt: number;

  constructor(exports: SliceLinesExports, buffer: SharedArrayBuffer) {
    this.#exports = exports;
    this.#bytes = Buffer.from(buffer);
    this.units = new Uint8Array(buffer);
    this.ints = new Int32Array(buffer);
    this.#outAt = this.#recordsAt + 4 * RECORD_INTS * RECORD_ROOM;
    this.#sentencesAt = this.#outAt + OUT_BYTES;
    this.#scratchAt = this.#sentencesAt + SENTENCE_BYTES;
  }

  /** Reads `block` (whole lines): how many of its lines, from the first, have records (0 for a block too large). */
  read(block: Uint8Array): number {
    if (block.length > MOST_BLOCK_BYTES) return 0;
    this.units.set(block, this.#blockAt);
    return this.#exports.readBlock(
      this.#blockAt,
      block.length,
      this.#recordsAt,
      RECORD_ROOM,
      this.#outAt,
      this.#outAt + OUT_BYTES,
      this.#sentencesAt,
      this.#sentencesAt + SENTENCE_BYTES,
      this.#scratchAt,
      this.#scratchAt + SCRATCH_BYTES,
    );
  }

  #field(line: number, field: number): number {
    return this.ints[(this.#recordsAt >> 2) + line * RECORD_INTS + field]!;
  }

  /** Whether line `line` (with a record) is a case read here. */
  isCase(line: number): boolean {
    return this.#field(line, R_IS_CASE) === 1;
  }

  #text(line: number, at: number, length: number): string {
    const bytes = this.#field(line, length);
    if (bytes === 0) return "";
    const from = this.#field(line, at);
    return this.#bytes.toString("latin1", from, from + bytes);
  }

  id(line: number): string {
    return this.#text(line, R_ID_AT, R_ID_LENGTH);
  }

  label(line: number): boolean {
    return this.#field(line, R_LABEL) === 1;
  }

  /** `scope`, "" when absent. */
  scope(line: number): string {
    return this.#text(line, R_SCOPE_AT, R_SCOPE_LENGTH);
  }

  /** `doc_type`, "" when absent. */
  docType(line: number): string {
    return this.#text(line, R_DOC_TYPE_AT, R_DOC_TYPE_LENGTH);
  }

  /** The case's own fields as JSON.stringify writes them, "" when it has none. */
  extra(line: number): string {
    return this.#text(line, R_EXTRA_AT, R_EXTRA_LENGTH);
  }

  /** The gold sentence ID of a positive case (1-based), 0 for a negative one. */
  gold(line: number): number {
    return this.#field(line, R_GOLD);
  }

  /** Where the sentences' bytes (ASCII) start in `units`, the block's cases' end to end. */
  sentencesAt(line: number): number {
    return this.#field(line, R_SENTENCES_AT);
  }

  /** How many bytes the sentences take. */
  sentencesLength(line: number): number {
    return this.#field(line, R_SENTENCES_LENGTH);
  }

  /** Where the sentences' lengths start in `ints`. */
  sentenceLengthsAt(line: number): number {
    return this.#field(line, R_SENTENCE_LENGTHS_AT) >> 2;
  }

  sentenceCount(line: number): number {
    return this.#field(line, R_SENTENCE_COUNT);
  }

  /** The JSON sliceCaseHash hashes (slice-kept.ts): {gold, id, label, sentences}, as JSON.stringify writes it. */
  hashedJson(line: number): Uint8Array {
    const from = this.#field(line, R_JSON_AT);
    return this.units.subarray(from, from + this.#field(line, R_JSON_LENGTH));
  }
}

/** The scan of this thread, made at first use; null when the module cannot be had (every line is then JavaScript's). */
let scan: SliceLineScan | null | undefined;

export function sliceLineScan(): SliceLineScan | null {
  if (scan !== undefined) return scan;
  try {
    const bytes = MOST_BLOCK_BYTES + 4 * RECORD_INTS * RECORD_ROOM + OUT_BYTES + SENTENCE_BYTES + SCRATCH_BYTES;
    // A shared memory (WasmArena), which V8 does not count as external memory: its 21 MB, which
    // live as long as the process, had it start full garbage collections that free nothing
    // (`node --trace-gc`: "external memory pressure").
    const arena = WasmArena.create(WASM_OWN_BYTES + bytes);
    if (arena === undefined || arena.claim(bytes) !== WASM_OWN_BYTES) throw new Error("slice-lines: no memory");
    const exports = instantiateOn<SliceLinesExports>(SLICE_LINES_WASM, "slice-lines", arena);
    if (exports.recordInts() !== RECORD_INTS) throw new Error("slice-lines: the module's records are not this reader's");
    scan = new SliceLineScan(exports, arena.buffer);
  } catch {
    scan = null;
  }
  return scan;
}
