// The run lines of a document cases.jsonl in mari's own shape, read a block at a time in
// WebAssembly (its source wasm/run-lines.ts, its bytes run-lines-wasm.ts): each such line of the
// block becomes a row of numbers (where its run key and reason lie, its judgment, its evidence IDs
// and coverage), with no string or object made for it. JavaScript scanned these lines at about a
// third of a microsecond each, half of what reading a baseline cost on the 1M bench. A line
// without a row is read by the general reader (side-reader.ts), which gives it the same outcome.
import { instantiateSized, WASM_OWN_BYTES } from "../core/wasm.js";
import { LINE_BLOCK_BYTES } from "../io/lines.js";
import { RUN_LINES_WASM } from "./run-lines-wasm.js";

interface RunLinesExports {
  heapBase(): number;
  scanRunLines(block: number, ends: number, lineCount: number, rows: number, rowLimit: number, coverage: number, ids: number, idLimit: number): number;
}

/** Int32 fields of a row, as wasm/run-lines.ts writes them. */
const ROW_FIELDS = 11;
const ROW_START = 0;
const ROW_RUN_START = 2;
const ROW_RUN_END = 3;
const ROW_JUDGMENT = 4;
const ROW_REASON_START = 5;
const ROW_REASON_END = 6;
const ROW_EVIDENCE_COUNT = 7;
const ROW_EVIDENCE_FROM = 8;
const ROW_COVERAGE_START = 9;
const ROW_COVERAGE_END = 10;

/** The shortest run line mari writes, newline included: a block holds at most its length / this many. */
const SHORTEST_LINE = '{"run":0,"judgment":true,"evidence_sentence_ids":[],"reference_coverage":0}\n'.length;

/** The bytes of a block the module takes (a longer one, made for a line longer than a block, is read by the general reader). */
const BLOCK_LIMIT = LINE_BLOCK_BYTES;
const ROW_LIMIT = Math.ceil(BLOCK_LIMIT / SHORTEST_LINE);
/** Each ID takes at least two bytes of its line (a digit and a comma or bracket). */
const ID_LIMIT = BLOCK_LIMIT / 2;
/** A line takes at least its newline. */
const LINE_LIMIT = BLOCK_LIMIT + 1;

function aligned(at: number): number {
  return Math.ceil(at / 8) * 8;
}

/** Instances no reading holds (a module's memory is 6 MB: `mari trend` reads hundreds of files one after another). */
const idle: RunLineRows[] = [];

/** Calls `read` with an instance of its own (reads may overlap: `mari diff` reads its two sides together). */
export async function withRunLineRows<T>(read: (rows: RunLineRows) => Promise<T>): Promise<T> {
  const rows = idle.pop() ?? new RunLineRows();
  try {
    return await read(rows);
  } finally {
    idle.push(rows);
  }
}

/** The run lines of the block scanned last, by their start in it, as they are visited in order. */
export class RunLineRows {
  private readonly exports: RunLinesExports;
  private readonly bytes: Uint8Array;
  private readonly rows: Int32Array;
  private readonly coverages: Float64Array;
  /** The evidence IDs of every row, a row's from its ROW_EVIDENCE_FROM on. */
  readonly ids: Float64Array;
  private readonly blockAt = WASM_OWN_BYTES;
  private readonly endsAt: number;
  private readonly ends: Int32Array;
  private readonly rowsAt: number;
  private readonly coverageAt: number;
  private readonly idsAt: number;
  private count = 0;
  private next = 0;
  /** The row `rowAt` found last. */
  private row = 0;
  private block: Buffer = Buffer.alloc(0);

  constructor() {
    // Each area 8-byte aligned (the f64 ones must be), with 8 bytes to spare after the block for keyAt's last word.
    this.endsAt = aligned(this.blockAt + BLOCK_LIMIT + 8);
    this.rowsAt = aligned(this.endsAt + LINE_LIMIT * 4);
    this.coverageAt = aligned(this.rowsAt + ROW_LIMIT * ROW_FIELDS * 4);
    this.idsAt = aligned(this.coverageAt + ROW_LIMIT * 8);
    const sized = instantiateSized<RunLinesExports>(RUN_LINES_WASM, "run-lines", this.idsAt + ID_LIMIT * 8 - WASM_OWN_BYTES);
    this.exports = sized.exports;
    this.bytes = new Uint8Array(sized.buffer);
    this.ends = new Int32Array(sized.buffer, this.endsAt, LINE_LIMIT);
    this.rows = new Int32Array(sized.buffer, this.rowsAt, ROW_LIMIT * ROW_FIELDS);
    this.coverages = new Float64Array(sized.buffer, this.coverageAt, ROW_LIMIT);
    this.ids = new Float64Array(sized.buffer, this.idsAt, ID_LIMIT);
  }

  /** Reads the run lines of a block whose lines end at `lineEnds` (fileLineBlocks's); none when the block is longer than the module takes. */
  scan(block: Buffer, lineEnds: Int32Array): void {
    this.block = block;
    this.next = 0;
    this.count = 0;
    if (block.length > BLOCK_LIMIT) return;
    this.bytes.set(block, this.blockAt);
    this.ends.set(lineEnds);
    this.count = this.exports.scanRunLines(this.blockAt, this.endsAt, lineEnds.length, this.rowsAt, ROW_LIMIT, this.coverageAt, this.idsAt, ID_LIMIT);
  }

  /** Whether the line starting at byte `start` of the block (lines asked for in order) is a run line in mari's shape; it is then the current row. */
  rowAt(start: number): boolean {
    const rows = this.rows;
    while (this.next < this.count && rows[this.next * ROW_FIELDS + ROW_START]! < start) this.next++;
    if (this.next === this.count || rows[this.next * ROW_FIELDS + ROW_START] !== start) return false;
    this.row = this.next * ROW_FIELDS;
    return true;
  }

  runStart(): number {
    return this.rows[this.row + ROW_RUN_START]!;
  }
  runEnd(): number {
    return this.rows[this.row + ROW_RUN_END]!;
  }
  judgment(): boolean {
    return this.rows[this.row + ROW_JUDGMENT] === 1;
  }
  /** The reason's bytes in the block (printable ASCII without escapes), start −1 when the run is format-valid. */
  reasonStart(): number {
    return this.rows[this.row + ROW_REASON_START]!;
  }
  reasonEnd(): number {
    return this.rows[this.row + ROW_REASON_END]!;
  }
  evidenceCount(): number {
    return this.rows[this.row + ROW_EVIDENCE_COUNT]!;
  }
  evidenceFrom(): number {
    return this.rows[this.row + ROW_EVIDENCE_FROM]!;
  }

  /** The coverage as JSON.parse reads it (the module's exact value, else Number() of its text, which may be infinite). */
  coverage(): number {
    const exact = this.coverages[this.row / ROW_FIELDS]!;
    if (exact === exact) return exact;
    const at = this.rows[this.row + ROW_COVERAGE_START]!;
    const stop = this.rows[this.row + ROW_COVERAGE_END]!;
    return Number(this.block.toString("latin1", at, stop));
  }
}
