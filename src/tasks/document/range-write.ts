// A range's cases.jsonl bytes written by a WebAssembly module (its source wasm/range-write.ts, its
// bytes range-write-wasm.ts): JavaScript renders every fragment once (a case's line, the run keys,
// the judgment-and-reason parts, a coverage's ending per numerator) and lays out each run line's
// numbers; the module assembles the lines, a range in one call. range.ts's own writer writes a
// range whose values the module does not take (a coverage that is not k / n of its case's
// sentence count, an evidence ID that is not a 31-bit non-negative integer) or that would not fit
// in its memory; both give the same bytes (test/document-eval/range-write.test.ts).
import { instantiateWasm, type WasmMemory } from "../../core/wasm.js";
import { type FractionBytes, isUint31 } from "./line-bytes.js";
import { RANGE_WRITE_WASM } from "./range-write-wasm.js";

interface RangeWriteExports {
  memory: WasmMemory;
  heapBase(): number;
  writeRange(
    out: number,
    caseCount: number,
    runCount: number,
    caseLines: number,
    runKeys: number,
    fixed: number,
    judgmentTable: number,
    reasonCount: number,
    tailTables: number,
    lines: number,
    judgments: number,
    reasons: number,
    numerators: number,
    idFrom: number,
    idTo: number,
    ids: number,
  ): number;
}

/** The run lines' cells of a range, case by case (cell t = j · R + r), as range.ts gathers them. */
export interface RangeLineCells {
  line: Int32Array;
  judgment: Uint8Array;
  reason: Uint8Array;
  coverage: Float64Array;
  /** Cell t's evidence: evData[evFrom[t] … evTo[t]). */
  evFrom: Int32Array;
  evTo: Int32Array;
}

/** The fixed parts of every run line: `{"run":`, `,"line":`, and the judgment part by judgment (0, 1) and reason index. */
export interface RunLineFragments {
  run: Uint8Array;
  line: Uint8Array;
  judgment: readonly (readonly Uint8Array[])[];
}

/** A range as the module writes it. */
export interface RangeWriteInput {
  /** Each case's line (its bytes, newline included), in case order. */
  caseLines: readonly Uint8Array[];
  /** Each case's coverage endings (those of its sentence count). */
  tails: readonly FractionBytes[];
  runs: number;
  /** Run r's key is runKeyData[runKeyStart[runKeyBase + r] … runKeyStart[runKeyBase + r + 1]). */
  runKeyData: Uint8Array;
  runKeyStart: Int32Array;
  runKeyBase: number;
  cells: RangeLineCells;
  evData: ArrayLike<number>;
}

/** Bytes at the start of the memory kept for the fixed fragments and coverage endings; a run's scratch comes after. */
const KEPT_BYTES = 1 << 21;
/** The most numerators a case's endings table is kept for (beyond: range.ts's writer). */
export const MOST_NUMERATORS = 1 << 14;
/** Bytes a decimal 31-bit integer and its comma take at most (as the modules count them: wasm/fragments.ts). */
export const UINT_BYTES = 11;

const align8 = (n: number): number => (n + 7) & ~7;

/** The size of a fragment table of `pieces`, as the modules read one: (start, length) per piece, then the pieces. */
export function fragmentTableBytes(pieces: readonly Uint8Array[]): number {
  let bytes = 8 * pieces.length;
  for (const piece of pieces) bytes += piece.length;
  return bytes;
}

/** Writes a fragment table of `pieces` at `at` of a module's memory (its bytes, and the same as 32-bit integers). */
export function putFragmentTable(bytes: Uint8Array, ints: Int32Array, at: number, pieces: readonly Uint8Array[]): void {
  let byteAt = at + 8 * pieces.length;
  pieces.forEach((piece, k) => {
    ints[(at >> 2) + 2 * k] = byteAt;
    ints[(at >> 2) + 2 * k + 1] = piece.length;
    bytes.set(piece, byteAt);
    byteAt += piece.length;
  });
}

/** The module and what its memory keeps from range to range (one per thread). */
class RangeWriter {
  private readonly wasm = instantiateWasm<RangeWriteExports>(RANGE_WRITE_WASM, "range-write");
  private readonly keptFrom: number;
  private keptEnd: number;
  /** Where the fixed fragments' table is, and the judgment table (2 × reasonCount entries). */
  private fixed = -1;
  private judgmentTable = -1;
  private reasonCount = 0;
  private longestJudgment = 0;
  private fragments: RunLineFragments | undefined;
  /** Each sentence count's table of coverage endings, by numerator. */
  private readonly tailTables = new Map<number, { at: number; longest: number }>();

  /** The whole memory, as bytes and as 32-bit integers (it never grows, so these stay valid). */
  private readonly bytes: Uint8Array;
  private readonly ints: Int32Array;

  constructor() {
    this.keptFrom = align8(this.wasm.heapBase());
    this.keptEnd = this.keptFrom;
    this.bytes = new Uint8Array(this.wasm.memory.buffer);
    this.ints = new Int32Array(this.wasm.memory.buffer);
  }

  /** Room for `size` bytes among the kept ones: their start, or -1. */
  private keep(size: number): number {
    const at = this.keptEnd;
    if (at + size > this.keptFrom + KEPT_BYTES) return -1;
    this.keptEnd = align8(at + size);
    return at;
  }

  /** A table of `pieces` (start, length) with their bytes after it, among the kept bytes: its start, or -1. */
  private keepTable(pieces: readonly Uint8Array[]): number {
    const at = this.keep(fragmentTableBytes(pieces));
    if (at >= 0) putFragmentTable(this.bytes, this.ints, at, pieces);
    return at;
  }

  /** Lays the fixed fragments down once (they are range.ts's constants: the same object every time). */
  private fixFragments(fragments: RunLineFragments): boolean {
    return this.fragments === fragments || this.startKept(fragments);
  }

  /** Empties the kept bytes (the endings tables go) and lays `fragments` down first: whether they fit. */
  private startKept(fragments: RunLineFragments): boolean {
    this.tailTables.clear();
    this.keptEnd = this.keptFrom;
    this.fixed = this.keepTable([fragments.run, fragments.line]);
    this.reasonCount = fragments.judgment[0]!.length;
    this.judgmentTable = this.keepTable(fragments.judgment.flat());
    this.longestJudgment = Math.max(...fragments.judgment.flat().map((f) => f.length));
    const fits = this.fixed >= 0 && this.judgmentTable >= 0;
    this.fragments = fits ? fragments : undefined;
    return fits;
  }

  /** The table of a sentence count's coverage endings, laid down at first use; undefined when it does not fit among the kept bytes. */
  private tailTable(tails: FractionBytes): { at: number; longest: number } | undefined {
    const n = tails.denominator;
    let table = this.tailTables.get(n);
    if (table !== undefined) return table;
    if (n < 1 || n >= MOST_NUMERATORS) return undefined;
    const pieces = Array.from({ length: n + 1 }, (_, k) => tails.bytesOf(k));
    const at = this.keepTable(pieces);
    if (at < 0) return undefined;
    table = { at, longest: Math.max(...pieces.map((p) => p.length)) };
    this.tailTables.set(n, table);
    return table;
  }

  /** The endings tables of the range's cases; when the kept bytes are full, they are started again once. */
  private tailTablesOf(caseTails: readonly FractionBytes[]): { at: number; longest: number }[] | undefined {
    for (let attempt = 0; attempt < 2; attempt++) {
      const tables: { at: number; longest: number }[] = [];
      for (const t of caseTails) {
        const table = this.tailTable(t);
        if (table === undefined) break;
        tables.push(table);
      }
      if (tables.length === caseTails.length) return tables;
      if (!this.startKept(this.fragments!)) return undefined;
    }
    return undefined;
  }

  write(input: RangeWriteInput, fragments: RunLineFragments, spare: Uint8Array | null): Uint8Array | undefined {
    if (!this.fixFragments(fragments)) return undefined;
    const w = input.caseLines.length;
    const R = input.runs;
    const cells = w * R;
    const tails = this.tailTablesOf(input.tails);
    if (tails === undefined) return undefined;
    const { runKeyData, runKeyStart, runKeyBase, evData } = input;
    const { line, judgment, reason, coverage, evFrom, evTo } = input.cells;
    let idCount = 0;
    for (let t = 0; t < cells; t++) idCount += evTo[t]! - evFrom[t]!;
    const keyBytes = runKeyStart[runKeyBase + R]! - runKeyStart[runKeyBase]!;
    let longestKey = 0;
    for (let r = 0; r < R; r++) longestKey = Math.max(longestKey, runKeyStart[runKeyBase + r + 1]! - runKeyStart[runKeyBase + r]!);
    let caseBytes = 0;
    for (const c of input.caseLines) caseBytes += c.length;
    let longestTail = 0;
    for (const t of tails) longestTail = Math.max(longestTail, t.longest);
    const most =
      caseBytes + cells * (fragments.run.length + longestKey + fragments.line.length + UINT_BYTES + this.longestJudgment + longestTail) + idCount * UINT_BYTES;
    // The scratch: case lines and run keys (tables and bytes), each case's endings table, the cells' numbers, the IDs, then the output.
    const caseTableAt = align8(this.keptFrom + KEPT_BYTES);
    const caseBytesAt = caseTableAt + 8 * w;
    const keyTableAt = align8(caseBytesAt + caseBytes);
    const keyBytesAt = keyTableAt + 8 * R;
    const tailTablesAt = align8(keyBytesAt + keyBytes);
    const linesAt = align8(tailTablesAt + 4 * w);
    const numeratorsAt = linesAt + 4 * cells;
    const idFromAt = numeratorsAt + 4 * cells;
    const idToAt = idFromAt + 4 * cells;
    const idsAt = idToAt + 4 * cells;
    const judgmentsAt = idsAt + 4 * idCount;
    const reasonsAt = judgmentsAt + cells;
    const outAt = align8(reasonsAt + cells);
    // The module's memory never grows here (growing would detach its buffer, which makes V8 check
    // every typed array access of the process): a range beyond it is range.ts's writer's.
    if (outAt + most > this.bytes.length) return undefined;
    const memory = this.bytes;
    const ints = this.ints;
    let at = caseBytesAt;
    for (let j = 0; j < w; j++) {
      const bytes = input.caseLines[j]!;
      ints[(caseTableAt >> 2) + 2 * j] = at;
      ints[(caseTableAt >> 2) + 2 * j + 1] = bytes.length;
      memory.set(bytes, at);
      at += bytes.length;
      ints[(tailTablesAt >> 2) + j] = tails[j]!.at;
    }
    const firstKey = runKeyStart[runKeyBase]!;
    memory.set(runKeyData.subarray(firstKey, firstKey + keyBytes), keyBytesAt);
    for (let r = 0; r < R; r++) {
      ints[(keyTableAt >> 2) + 2 * r] = keyBytesAt + runKeyStart[runKeyBase + r]! - firstKey;
      ints[(keyTableAt >> 2) + 2 * r + 1] = runKeyStart[runKeyBase + r + 1]! - runKeyStart[runKeyBase + r]!;
    }
    ints.set(line.subarray(0, cells), linesAt >> 2);
    memory.set(judgment.subarray(0, cells), judgmentsAt);
    memory.set(reason.subarray(0, cells), reasonsAt);
    const numerators = numeratorsAt >> 2;
    const idFrom = idFromAt >> 2;
    const idTo = idToAt >> 2;
    let next = idsAt >> 2;
    for (let j = 0, t = 0; j < w; j++) {
      const caseTails = input.tails[j]!;
      for (let r = 0; r < R; r++, t++) {
        // A coverage that is not k / n of the case's sentence count is range.ts's writer's.
        const k = caseTails.numeratorOf(coverage[t]!);
        if (k < 0) return undefined;
        ints[numerators + t] = k;
        ints[idFrom + t] = next - (idsAt >> 2);
        for (let e = evFrom[t]!; e < evTo[t]!; e++) {
          const id = evData[e]!;
          if (!isUint31(id)) return undefined;
          ints[next++] = id;
        }
        ints[idTo + t] = next - (idsAt >> 2);
      }
    }
    const end = this.wasm.writeRange(
      outAt,
      w,
      R,
      caseTableAt,
      keyTableAt,
      this.fixed,
      this.judgmentTable,
      this.reasonCount,
      tailTablesAt,
      linesAt,
      judgmentsAt,
      reasonsAt,
      numeratorsAt,
      idFromAt,
      idToAt,
      idsAt,
    );
    const length = end - outAt;
    const out = spare !== null && spare.length >= length ? spare.subarray(0, length) : new Uint8Array(length);
    out.set(memory.subarray(outAt, end));
    return out;
  }
}

let writer: RangeWriter | undefined;

/**
 * The range's cases.jsonl bytes (its case lines, each followed by its run lines), written by the
 * module into `spare` when it has room, else into new memory; undefined when the range is one
 * range.ts's writer writes (see the top of this file).
 */
export function writeRangeBytes(input: RangeWriteInput, fragments: RunLineFragments, spare: Uint8Array | null): Uint8Array | undefined {
  writer ??= new RangeWriter();
  return writer.write(input, fragments, spare);
}
