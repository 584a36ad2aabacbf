// Compact per-(case, run) state of a document eval: one typed array per field, evidence in one shared
// growable buffer. This is all that is kept of the dump (memory is bounded by cases × runs, never
// by the number of dump lines), and everything the aggregation, SetCons and cases.jsonl need.
import type { WasmArena } from "../../core/wasm.js";
import { LINES_PER_CALL } from "../../io/v8-phases.js";
import { reasonIndex, type ChunkResult, type ScoredPrediction } from "./score.js";

/** A scored chunk's columns that `putChunk` reads: every line of it a prediction. */
export type PredictionChunk = Pick<
  ChunkResult,
  "firstLineNo" | "count" | "caseIndex" | "runKey" | "judgment" | "code" | "coverage" | "rewardAccuracy" | "matched" | "evStart" | "evData"
>;

/** What is kept of a scored (case, run) slot, one typed array per field: the run table's and a range payload's layout. */
export interface SlotColumns {
  /** Dump line number of the kept line; 0 = no kept line (missing). */
  line: Int32Array;
  judgment: Uint8Array;
  reason: Uint8Array;
  coverage: Float64Array;
  rewardAccuracy: Float64Array;
  matched: Int32Array;
  /** Where each slot's evidence starts (in the table's evidence buffer, or a payload's evData). */
  evStart: Int32Array;
}

/** A typed array type a column is made of. */
interface ColumnType<T> {
  new (buffer: SharedArrayBuffer, at: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * A column of `length` in `arena` while it has room, else on a SharedArrayBuffer of its own, for
 * the reason WasmArena's memory is shared: the table lives until the eval ends, and V8 counts an
 * ArrayBuffer's bytes toward starting a full garbage collection, which frees none of it.
 */
function column<T>(type: ColumnType<T>, length: number, arena?: WasmArena): T {
  const bytes = type.BYTES_PER_ELEMENT * length;
  const at = arena?.claim(bytes);
  return arena === undefined || at === undefined ? new type(new SharedArrayBuffer(bytes), 0, length) : new type(arena.buffer, at, length);
}

/** The run table's entries grouped by case: case i's are `entries[start[i] .. start[i + 1])`. */
export interface EntriesByCase {
  readonly start: Int32Array;
  readonly entries: Int32Array;
}

/**
 * The (case, run) slots: one Int32 per slot (slot `run · caseCount + case`, grown geometrically as
 * runs appear) holding the slot's entry + 1 (0: no kept line, an absent cell), and one typed array
 * per field over the entries, i.e. over the kept lines only. A dump that answers few of its cases
 * per run (100,000 runs × 1 of 160 cases) costs 4 bytes per absent cell, not a row of every field.
 */
export class RunTable {
  /** Run keys in order of first appearance (in run order after `reorderRuns`); the run index is the position. */
  readonly keys: string[] = [];
  /** Run indices in order of first appearance: how runs are listed (report.json `runs`, predictions.runs). */
  listed: number[] = [];
  /**
   * Run index + 1 of each run key that is a canonical decimal integer, at the key's value (0: none),
   * while the values stay near the number of runs (a dump's runs are most often 0, 1, 2, …): at a
   * million runs a Map of the key strings cost a second to fill and look up, and 30 MB. Other keys
   * go in `index`.
   */
  private byValue = new Int32Array(0);
  private readonly index = new Map<string, number>();
  /** Made at the first IDs (in the arena when there is one). */
  private evidence: Int32Array = new Int32Array(0);
  private evidenceUsed = 0;
  /** Runs the slot column has room for. */
  private capacity = 0;
  /** Per slot: its entry + 1, 0 when the slot has no kept line. */
  cell: Int32Array = new Int32Array(0);
  /** Entries (kept lines) so far; entry e's fields are at index e of the entry columns. */
  entries = 0;
  /** Per entry: the dump line number of the kept line. */
  line: Int32Array = new Int32Array(16);
  judgment: Uint8Array = new Uint8Array(16);
  reason: Uint8Array = new Uint8Array(16);
  coverage: Float64Array = new Float64Array(16);
  rewardAccuracy: Float64Array = new Float64Array(16);
  matched: Int32Array = new Int32Array(16);
  evStart: Int32Array = new Int32Array(16);
  evLength: Int32Array = new Int32Array(16);
  /** The most evidence IDs an entry has had (the dense pass sizes its line buffers by it). */
  mostEvidence = 0;
  /** Per entry: its run and its case (slice index). */
  entryRun: Int32Array = new Int32Array(16);
  entryCase: Int32Array = new Int32Array(16);

  /** entriesByCase's answer, while it holds. */
  private byCase: EntriesByCase | undefined;

  /**
   * `arena`: where the columns the dense pass reads are claimed while it has room (range-pass.ts
   * lays out the pass after them, in the same memory); without one, or past its room, each is a
   * SharedArrayBuffer of its own, which the pass copies.
   */
  constructor(
    readonly caseCount: number,
    readonly arena?: WasmArena,
  ) {}

  runIndex(key: string): number | undefined {
    const value = integerKeyValue(key);
    if (value < this.byValue.length && this.byValue[value] !== 0) return this.byValue[value]! - 1;
    return this.index.size > 0 ? this.index.get(key) : undefined;
  }

  /** The run's index, registering it (in order of first appearance) when new. */
  ensureRun(key: string): number {
    let r = this.runIndex(key);
    if (r !== undefined) return r;
    r = this.keys.length;
    if (r >= this.capacity) {
      const runs = Math.max(4, this.capacity * 2);
      const cell = column(Int32Array, runs * this.caseCount, this.arena);
      cell.set(this.cell);
      this.cell = cell;
      this.capacity = runs;
    }
    this.keys.push(key);
    this.listed.push(r);
    const value = integerKeyValue(key);
    if (value >= this.byValue.length && value < 2 * r + 1024) {
      const byValue = new Int32Array(Math.max(value + 1, 2 * this.byValue.length));
      byValue.set(this.byValue);
      this.byValue = byValue;
    }
    this.indexRun(key, r);
    return r;
  }

  /** Files run r under its key: by value when the key is an integer that fits, else in the Map. */
  private indexRun(key: string, r: number): void {
    const value = integerKeyValue(key);
    if (value < this.byValue.length) this.byValue[value] = r + 1;
    else this.index.set(key, r);
  }

  /**
   * Puts the runs in the order `order` gives (`order[r]` is the present index of the run that
   * becomes run r): the keys, their index and the slots move, so that everything after (sums,
   * cases.jsonl) follows it; `listed` keeps the order of first appearance.
   */
  reorderRuns(order: readonly number[]): void {
    // Runs that came in run order (most dumps: 0, 1, 2, …) stay as they are: moving every entry's
    // run to where it already is took 12 ms of the 1M bench.
    let moved = false;
    for (let r = 0; r < order.length && !moved; r++) moved = order[r] !== r;
    if (!moved) return;
    const n = this.caseCount;
    // Sized for the runs there are (the doubling's spare room is a quarter of the column or more).
    const cell = column(Int32Array, this.keys.length * n, this.arena);
    order.forEach((old, r) => cell.set(this.cell.subarray(old * n, (old + 1) * n), r * n));
    this.cell = cell;
    this.capacity = this.keys.length;
    const position = new Int32Array(order.length);
    order.forEach((old, r) => (position[old] = r));
    const keys = order.map((old) => this.keys[old]!);
    // Element by element: spreading a million keys into one call overflows the stack.
    for (let r = 0; r < keys.length; r++) this.keys[r] = keys[r]!;
    this.index.clear();
    this.byValue.fill(0);
    keys.forEach((key, r) => this.indexRun(key, r));
    this.listed = this.listed.map((old) => position[old]!);
    for (let e = 0; e < this.entries; e++) this.entryRun[e] = position[this.entryRun[e]!]!;
    this.byCase = undefined;
  }

  /**
   * The entries grouped by case (slice index), each case's in run order: case i's are
   * `entries[start[i] .. start[i + 1])` (two counting sorts: cost follows the kept lines, not the
   * slots). Worked out once until an entry is added or the runs reordered (the explorer's summary
   * and its records both ask); the arrays are shared, not to be written.
   */
  entriesByCase(): EntriesByCase {
    if (this.byCase === undefined) this.byCase = this.groupEntriesByCase();
    return this.byCase;
  }

  private groupEntriesByCase(): EntriesByCase {
    const byRun = new Int32Array(this.entries);
    const runStart = new Int32Array(this.keys.length + 1);
    for (let e = 0; e < this.entries; e++) runStart[this.entryRun[e]! + 1]!++;
    for (let r = 0; r < this.keys.length; r++) runStart[r + 1]! += runStart[r]!;
    for (let e = 0; e < this.entries; e++) byRun[runStart[this.entryRun[e]!]!++] = e;
    const start = new Int32Array(this.caseCount + 1);
    for (let e = 0; e < this.entries; e++) start[this.entryCase[e]! + 1]!++;
    for (let i = 0; i < this.caseCount; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, this.caseCount);
    const entries = new Int32Array(this.entries);
    for (const e of byRun) entries[fill[this.entryCase[e]!]!++] = e;
    return { start, entries };
  }

  /** The slot of (run, case). */
  slot(run: number, caseIndex: number): number {
    return run * this.caseCount + caseIndex;
  }

  /** The entry of (run, case), −1 when it has no kept line. */
  entry(run: number, caseIndex: number): number {
    return this.cell[run * this.caseCount + caseIndex]! - 1;
  }

  has(run: number, caseIndex: number): boolean {
    return this.cell[run * this.caseCount + caseIndex] !== 0;
  }

  /**
   * Whether entry e's cases.jsonl line is one the file's reader refuses (no line number, a coverage
   * that is not a number): what reads the table as that file reads gives it no run.
   */
  refusedOnReadBack(e: number): boolean {
    return this.line[e]! < 1 || !Number.isFinite(this.coverage[e]!);
  }

  /** The dump line kept for (run, case), 0 when none. */
  lineOf(run: number, caseIndex: number): number {
    const e = this.entry(run, caseIndex);
    return e < 0 ? 0 : this.line[e]!;
  }

  put(run: number, caseIndex: number, line: number, p: Omit<ScoredPrediction, "message" | "evidence"> & { evidence: ArrayLike<number> }): void {
    this.putColumns(
      run,
      caseIndex,
      line,
      p.judgment ? 1 : 0,
      reasonIndex(p.reason),
      p.referenceCoverage,
      p.rewardAccuracy,
      p.matched,
      p.evidence,
      0,
      p.evidence.length,
    );
  }

  /** `put` from columnar values (the dump pass: no object or view per line); evidence is ids[from .. to). */
  putColumns(
    run: number,
    caseIndex: number,
    line: number,
    judgment: number,
    reason: number,
    coverage: number,
    rewardAccuracy: number,
    matched: number,
    ids: ArrayLike<number>,
    from: number,
    to: number,
  ): void {
    const s = run * this.caseCount + caseIndex;
    let e = this.cell[s]! - 1;
    if (e < 0) {
      e = this.entries++;
      if (e >= this.line.length) this.growEntries(this.line.length * 2);
      this.cell[s] = e + 1;
      this.entryRun[e] = run;
      this.entryCase[e] = caseIndex;
      this.byCase = undefined;
    }
    this.line[e] = line;
    this.judgment[e] = judgment;
    this.reason[e] = reason;
    this.coverage[e] = coverage;
    this.rewardAccuracy[e] = rewardAccuracy;
    this.matched[e] = matched;
    this.evStart[e] = this.appendEvidence(ids, from, to);
    this.evLength[e] = to - from;
    if (to - from > this.mostEvidence) this.mostEvidence = to - from;
  }

  /**
   * `putColumns` for each line of a chunk of predictions, in line order, kept only when its
   * (case, run) has no kept line yet (in the table or earlier in the chunk) and `keep` has its case;
   * a line dropped for an existing kept line is passed to `duplicate` with that line's number.
   * `runOf` maps the chunk's run keys to runs the table has already. The columns grow once, and
   * when every line is kept (most chunks) the chunk's columns and evidence are copied whole.
   */
  putChunk(chunk: PredictionChunk, runOf: Int32Array, keep: Uint8Array, duplicate: (i: number, firstLine: number) => void): void {
    const count = chunk.count;
    const first = this.entries;
    if (first + count > this.line.length) this.growEntries(Math.max(2 * this.line.length, first + count));
    const { cell, line, entryRun, entryCase, caseCount } = this;
    const { caseIndex, runKey, firstLineNo } = chunk;
    // The lines placeLines takes (nearly all), each other one here: dropped for its shard, or a
    // duplicate of a kept line.
    let e = first;
    for (let i = 0; i < count; ) {
      const to = Math.min(count, i + LINES_PER_CALL);
      const stop = placeLines(caseIndex, runKey, runOf, keep, cell, caseCount, line, entryRun, entryCase, firstLineNo, i, to, e);
      e += stop - i;
      i = stop;
      if (i === to) continue;
      const c = caseIndex[i]!;
      if (keep[c] !== 0) duplicate(i, line[cell[runOf[runKey[i]!]! * caseCount + c]! - 1]!);
      i++;
    }
    this.entries = e;
    this.byCase = undefined;
    const { evStart, evData } = chunk;
    if (e - first === count) {
      // Entry first + i is line i: whole columns. The lines' evidence ranges follow one another, so
      // the chunk's evidence is copied as one block and each start shifted by the same amount.
      this.judgment.set(chunk.judgment.subarray(0, count), first);
      this.reason.set(chunk.code.subarray(0, count), first);
      this.coverage.set(chunk.coverage.subarray(0, count), first);
      this.rewardAccuracy.set(chunk.rewardAccuracy.subarray(0, count), first);
      this.matched.set(chunk.matched.subarray(0, count), first);
      const from = evStart[0]!;
      const at = this.reserveEvidence(evStart[count]! - from);
      this.evidence.set(evData.subarray(from, evStart[count]!), at);
      for (let i = 0; i < count; i += LINES_PER_CALL)
        this.mostEvidence = shiftStarts(evStart, i, Math.min(count, i + LINES_PER_CALL), at - from, this.evStart, this.evLength, first, this.mostEvidence);
      return;
    }
    // Some lines dropped: each entry's fields from its line, found by its line number.
    for (let x = first; x < e; x++) {
      const i = line[x]! - firstLineNo;
      this.judgment[x] = chunk.judgment[i]!;
      this.reason[x] = chunk.code[i]!;
      this.coverage[x] = chunk.coverage[i]!;
      this.rewardAccuracy[x] = chunk.rewardAccuracy[i]!;
      this.matched[x] = chunk.matched[i]!;
      this.evStart[x] = this.appendEvidence(evData, evStart[i]!, evStart[i + 1]!);
      this.evLength[x] = evStart[i + 1]! - evStart[i]!;
      if (this.evLength[x]! > this.mostEvidence) this.mostEvidence = this.evLength[x]!;
    }
  }

  /**
   * Room for `entries` entries in all, made now when the columns have less: the dump pass guesses
   * the count from its first chunk, so that the columns are made once rather than doubled and
   * copied a dozen times (28 ms of the 1M bench's main thread). Pages the guess leaves unused are
   * never written, so a guess too high costs address space, not memory.
   */
  reserveEntries(entries: number): void {
    if (entries > this.line.length) this.growEntries(entries);
  }

  private growEntries(size: number): void {
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(from: T, make: (k: number) => T): T => {
      const to = make(size);
      to.set(from);
      return to;
    };
    const { arena } = this;
    this.line = grown(this.line, (k) => column(Int32Array, k, arena));
    this.judgment = grown(this.judgment, (k) => column(Uint8Array, k, arena));
    this.reason = grown(this.reason, (k) => column(Uint8Array, k, arena));
    this.coverage = grown(this.coverage, (k) => column(Float64Array, k, arena));
    this.rewardAccuracy = grown(this.rewardAccuracy, (k) => column(Float64Array, k, arena));
    this.matched = grown(this.matched, (k) => column(Int32Array, k, arena));
    this.evStart = grown(this.evStart, (k) => column(Int32Array, k, arena));
    this.evLength = grown(this.evLength, (k) => column(Int32Array, k, arena));
    // Not read by the dense pass: outside the arena.
    this.entryRun = grown(this.entryRun, (k) => column(Int32Array, k));
    this.entryCase = grown(this.entryCase, (k) => column(Int32Array, k));
  }

  /** Appends the evidence IDs of (run, case) to `into`. */
  copyEvidence(run: number, caseIndex: number, into: EvidenceBuffer): void {
    const e = this.entry(run, caseIndex);
    if (e < 0) return;
    const start = this.evStart[e]!;
    into.appendFrom(this.evidence, start, start + this.evLength[e]!);
  }

  /** Every entry's evidence IDs back to back: entry e's are `[evStart[e], evStart[e] + evLength[e])` (valid until the next `put`). */
  get evidenceIds(): Int32Array {
    return this.evidence;
  }

  /** How many of evidenceIds's IDs are entries' (the rest is room to grow). */
  get evidenceLength(): number {
    return this.evidenceUsed;
  }

  /** The evidence IDs of (run, case) (none when it has no kept line). */
  evidenceOf(run: number, caseIndex: number): number[] {
    const e = this.entry(run, caseIndex);
    if (e < 0) return [];
    const start = this.evStart[e]!;
    // Copied one by one: no view made for it (SetCons asks for one list per distinct set of every case).
    const ids: number[] = new Array(this.evLength[e]!);
    for (let k = 0; k < ids.length; k++) ids[k] = this.evidence[start + k]!;
    return ids;
  }

  private appendEvidence(ids: ArrayLike<number>, from: number, to: number): number {
    const start = this.reserveEvidence(to - from);
    for (let k = from; k < to; k++) this.evidence[start + k - from] = ids[k]!;
    return start;
  }

  /** Where `count` more evidence IDs go: the buffer grown to hold them and counted as used. */
  private reserveEvidence(count: number): number {
    const start = this.evidenceUsed;
    if (start + count > this.evidence.length) {
      const grown = column(Int32Array, Math.max(this.evidence.length * 2, start + count, 1 << 12), this.arena);
      grown.set(this.evidence.subarray(0, start));
      this.evidence = grown;
    }
    this.evidenceUsed += count;
    return start;
  }
}

// putChunk's two loops over a chunk's lines, each in a function that ends with it: V8 compiles a
// loop on the fly, and code after it (or a rare case inside it) that had not run yet sent that code
// back to the interpreter; the functions also take no property of an object before their loop, code
// that ran on the first call before V8 kept any type feedback for the function.

/**
 * Places lines from … of a chunk as entries e, e + 1, … (cell, line, run and case of each) while
 * each is kept and new (its case in `keep`, its (case, run) without a kept line); returns the line
 * it stopped at.
 */
function placeLines(
  caseIndex: Int32Array,
  runKey: Int32Array,
  runOf: Int32Array,
  keep: Uint8Array,
  cell: Int32Array,
  caseCount: number,
  line: Int32Array,
  entryRun: Int32Array,
  entryCase: Int32Array,
  firstLineNo: number,
  from: number,
  count: number,
  e: number,
): number {
  for (let i = from; i < count; i++, e++) {
    const c = caseIndex[i]!;
    if (keep[c] === 0) return i;
    const run = runOf[runKey[i]!]!;
    const s = run * caseCount + c;
    if (cell[s] !== 0) return i;
    cell[s] = e + 1;
    line[e] = firstLineNo + i;
    entryRun[e] = run;
    entryCase[e] = c;
  }
  return count;
}

/**
 * The evidence starts and lengths of entries first + from … first + to − 1 from a chunk's lines'
 * (`evStart`, one more than the lines), each start shifted by `shift`; returns the larger of `most`
 * and the longest.
 */
function shiftStarts(
  evStart: Int32Array,
  from: number,
  to: number,
  shift: number,
  toStart: Int32Array,
  toLength: Int32Array,
  first: number,
  most: number,
): number {
  for (let i = from; i < to; i++) {
    const length = evStart[i + 1]! - evStart[i]!;
    toStart[first + i] = evStart[i]! + shift;
    toLength[first + i] = length;
    if (length > most) most = length;
  }
  return most;
}

/**
 * The value of a run key that is a canonical decimal integer ("0", "17"; not "017", "-1" or "1e3")
 * of at most 9 digits, else 2^31 (above any index).
 */
function integerKeyValue(key: string): number {
  const NOT_AN_INTEGER = 2 ** 31;
  const length = key.length;
  if (length === 0 || length > 9 || (length > 1 && key.charCodeAt(0) === 48)) return NOT_AN_INTEGER;
  let value = 0;
  for (let k = 0; k < length; k++) {
    const digit = key.charCodeAt(k) - 48;
    if (digit < 0 || digit > 9) return NOT_AN_INTEGER;
    value = value * 10 + digit;
  }
  return value;
}

/** A growable Int32 list (evidence IDs of many slots, back to back). */
export class EvidenceBuffer {
  /** The IDs at [0, length); the array is replaced as it grows. */
  data = new Int32Array(1 << 10);
  length = 0;

  /** Appends source[from .. to) (no view allocated: this runs once per (case, run)). */
  appendFrom(source: Int32Array, from: number, to: number): void {
    const count = to - from;
    if (this.length + count > this.data.length) {
      const grown = new Int32Array(Math.max(this.data.length * 2, this.length + count));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    const data = this.data;
    let at = this.length;
    for (let k = from; k < to; k++) data[at++] = source[k]!;
    this.length = at;
  }

  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}
