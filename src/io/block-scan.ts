// The first pass over a block of dump lines, in WebAssembly (its source wasm/block-scan.ts, its
// bytes block-scan-wasm.ts). The lines of the commonest shapes (a structured prediction: case_id,
// run, judgment, evidence_sentence_ids and reasoning; the cache shape, those fields in a nested
// `prediction` object beside case_id and run; a raw completion in the layout) are read
// there, the whole block in one call, each into a row of numbers: where its strings and the
// layout's parts lie, its run, judgment and evidence, and the sentence references of its
// reasoning or think text. dump-bytes.ts then takes such a line from its row rather
// than reading its bytes again in JavaScript; a line of any other shape has a row that says so and
// is read by dump-bytes.ts's own scanner. JavaScript read these lines at about half a microsecond
// each, most of a 1M-line eval's scoring (docs/eval.md, "Performance"). The same module's other
// exports score the rows (tasks/document/row-scores.ts, through blockScanInstance): room after a
// block's rows is kept for their outputs, and room before the block for the slice's facts, which
// outlive blocks (reserveScanMemory).

import { BLOCK_SCAN_WASM } from "./block-scan-wasm.js";
import { instantiateWasm, WASM_PAGE_BYTES, type WasmMemory } from "../core/wasm.js";

/** A row's fields (Int32), ROW_FIELDS per line, as wasm/block-scan.ts writes them. */
export const ROW_FIELDS = 21;
/** 1: the line has the shape and the row holds it; 0: it is the JavaScript scanner's. */
export const ROW_STATUS = 0;
export const ROW_CASE_START = 1;
export const ROW_CASE_END = 2;
/** 0 absent, 1 an integer (its value at numbers[row[ROW_RUN_VALUE]]), 2 a string (ROW_RUN_START … ROW_RUN_END). */
export const ROW_RUN_KIND = 3;
export const ROW_RUN_START = 4;
export const ROW_RUN_END = 5;
export const ROW_RUN_VALUE = 6;
/** 0 absent, 1 true, 2 false. */
export const ROW_JUDGMENT = 7;
/** -1 absent, else how many IDs, from numbers[row[ROW_EVIDENCE_FROM]]. */
export const ROW_EVIDENCE_COUNT = 8;
export const ROW_EVIDENCE_FROM = 9;
/** -1 absent. */
export const ROW_REASONING_START = 10;
export const ROW_REASONING_END = 11;
export const ROW_REASONING_ESCAPED = 12;
/** The reasoning's references: ROW_REFERENCE_COUNT of them from reference row[ROW_REFERENCE_FROM] (three numbers each: first, last, where its `[` is). */
export const ROW_REFERENCE_FROM = 13;
export const ROW_REFERENCE_COUNT = 14;
/** -1 absent; else the completion's content, whose raw bytes hold the whole layout: its middle marker at ROW_LAYOUT_MIDDLE, its judgment line's newline at ROW_LAYOUT_NEWLINE. */
export const ROW_COMPLETION_START = 15;
export const ROW_COMPLETION_END = 16;
export const ROW_LAYOUT_MIDDLE = 17;
export const ROW_LAYOUT_NEWLINE = 18;
/**
 * What the line's references come to (see `summarizedReferenceCount`, core/document/references.ts):
 * -1 not said (more than 16 of them, one ending at 2^31 or beyond, or references in both a
 * reasoning and a completion: they are in the row, to be recorded), -2 rejected whatever the
 * sentence count, else the distinct IDs they cite, rejected when ROW_REFERENCE_HIGHEST is beyond it.
 */
export const ROW_REFERENCE_SUMMARY = 19;
export const ROW_REFERENCE_HIGHEST = 20;

/** The rows of the block read last, valid until the next call of scanBlockRows. */
export interface BlockRows {
  rows: Int32Array;
  numbers: Float64Array;
  references: Float64Array;
  /** Where the rows lie in the module's memory. */
  rowsAt: number;
  /** Where the caller's room after them lies (scanBlockRows's `tailBytes`), 16-byte aligned. */
  tailAt: number;
}

interface BlockScanExports {
  memory: WasmMemory;
  heapBase(): number;
  scanLines(
    block: number,
    ends: number,
    lineCount: number,
    rows: number,
    numbers: number,
    numberLimit: number,
    references: number,
    referenceLimit: number,
  ): void;
}

/** Numbers and references a block's rows have room for beyond these per line: a line holding more is left to the JavaScript scanner. */
const NUMBERS_PER_LINE = 4;
const REFERENCES_PER_LINE = 8;
const EXTRA_ROOM = 1024;

let module: BlockScanExports | undefined;

/** The module's instance, made at first use (one per thread). */
function blockScan(): BlockScanExports {
  module ??= instantiateWasm<BlockScanExports>(BLOCK_SCAN_WASM, "block-scan");
  return module;
}

/**
 * The module's instance with all its exports, for a caller that runs its other exports over the
 * rows (tasks/document/row-scores.ts: the module's memory holds them and the block already).
 */
export function blockScanInstance(): BlockScanExports & Readonly<Record<string, unknown>> {
  return blockScan() as BlockScanExports & Readonly<Record<string, unknown>>;
}

const align16 = (n: number): number => (n + 15) & ~15;

/** Bytes kept at the start of the free memory for a caller's data (reserveScanMemory); blocks are read after them. */
let reservedBytes = 0;

/** Grows the memory to `size` bytes at least: false when it cannot. */
function memoryOf(wasm: BlockScanExports, size: number): boolean {
  const memory = wasm.memory;
  if (memory.buffer.byteLength >= size) return true;
  try {
    memory.grow(Math.ceil((size - memory.buffer.byteLength) / WASM_PAGE_BYTES));
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps `bytes` at the start of the module's free memory from block scanning (replacing what was
 * kept before), for data the caller lays out once and its exports read while rows are scored: its
 * address (16-byte aligned), or undefined when the memory cannot hold it.
 */
export function reserveScanMemory(bytes: number): number | undefined {
  const wasm = blockScan();
  const at = align16(wasm.heapBase());
  if (!memoryOf(wasm, at + bytes)) {
    reservedBytes = 0;
    return undefined;
  }
  reservedBytes = align16(bytes);
  return at;
}

/** Bytes a block's lines have on average at least, for them to be read here: a block of shorter lines would take more memory in rows than it holds. */
const LEAST_BYTES_PER_LINE = 16;

/**
 * Reads the block's lines, line k ending at ends[k] (its newline, or the block's end), into rows,
 * with `tailBytes` of room after them for the caller; undefined for a block of lines shorter than
 * LEAST_BYTES_PER_LINE on average (left to the JavaScript scanner).
 */
export function scanBlockRows(block: Uint8Array, ends: Int32Array, tailBytes = 0): BlockRows | undefined {
  const count = ends.length;
  if (count * LEAST_BYTES_PER_LINE > block.length) return undefined;
  const wasm = blockScan();
  const numberLimit = NUMBERS_PER_LINE * count + EXTRA_ROOM;
  const referenceLimit = REFERENCES_PER_LINE * count + EXTRA_ROOM;
  const blockAt = align16(wasm.heapBase()) + reservedBytes;
  const endsAt = align16(blockAt + block.length);
  const rowsAt = align16(endsAt + 4 * count);
  const numbersAt = align16(rowsAt + 4 * ROW_FIELDS * count);
  const referencesAt = align16(numbersAt + 8 * numberLimit);
  const tailAt = align16(referencesAt + 24 * referenceLimit);
  // Growing detaches the memory's old ArrayBuffer, and V8 then checks every typed array access of
  // the process for a detached buffer: the module starts with room for the blocks the readers cut
  // (wasm/ is compiled with 16 MiB), so only a block of a very long line makes it grow. No memory
  // to grow into: the block is the JavaScript scanner's.
  if (!memoryOf(wasm, tailAt + tailBytes)) return undefined;
  const buffer = wasm.memory.buffer;
  new Uint8Array(buffer, blockAt, block.length).set(block);
  new Int32Array(buffer, endsAt, count).set(ends);
  wasm.scanLines(blockAt, endsAt, count, rowsAt, numbersAt, numberLimit, referencesAt, referenceLimit);
  return {
    rows: new Int32Array(buffer, rowsAt, ROW_FIELDS * count),
    numbers: new Float64Array(buffer, numbersAt, numberLimit),
    references: new Float64Array(buffer, referencesAt, 3 * referenceLimit),
    rowsAt,
    tailAt,
  };
}
