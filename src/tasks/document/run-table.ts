// Compact per-(case, run) state of a document eval: typed arrays per run, evidence in one shared
// growable buffer. This is all that is kept of the dump (memory is bounded by cases × runs, never
// by the number of dump lines), and everything the aggregation, SetCons and cases.jsonl need.
import { reasonIndex, type ScoredPrediction } from "./score.js";

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

/** One run's slots, indexed by slice case; evidence lives in the table's shared buffer. */
export interface RunColumns extends SlotColumns {
  key: string;
  evLength: Int32Array;
}

/** IDs below this pack into a numeric evidence key: 2 + 3 × 13 bits, exact in a float64. */
const PACKED_ID_LIMIT = 1 << 13;

export class RunTable {
  readonly runs: RunColumns[] = [];
  private readonly index = new Map<string, number>();
  private evidence = new Int32Array(1 << 12);
  private evidenceUsed = 0;

  constructor(readonly caseCount: number) {}

  runIndex(key: string): number | undefined {
    return this.index.get(key);
  }

  /** The run's index, registering it (in order of first appearance) when new. */
  ensureRun(key: string): number {
    let r = this.index.get(key);
    if (r !== undefined) return r;
    const n = this.caseCount;
    r = this.runs.length;
    this.runs.push({
      key,
      line: new Int32Array(n),
      judgment: new Uint8Array(n),
      reason: new Uint8Array(n),
      coverage: new Float64Array(n),
      rewardAccuracy: new Float64Array(n),
      matched: new Int32Array(n),
      evStart: new Int32Array(n),
      evLength: new Int32Array(n),
    });
    this.index.set(key, r);
    return r;
  }

  has(run: number, caseIndex: number): boolean {
    return this.runs[run]!.line[caseIndex] !== 0;
  }

  put(run: number, caseIndex: number, line: number, p: Omit<ScoredPrediction, "message" | "evidence"> & { evidence: ArrayLike<number> }): void {
    this.putColumns(run, caseIndex, line, p.judgment ? 1 : 0, reasonIndex(p.reason), p.referenceCoverage, p.rewardAccuracy, p.matched, p.evidence, 0, p.evidence.length);
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
    const cols = this.runs[run]!;
    cols.line[caseIndex] = line;
    cols.judgment[caseIndex] = judgment;
    cols.reason[caseIndex] = reason;
    cols.coverage[caseIndex] = coverage;
    cols.rewardAccuracy[caseIndex] = rewardAccuracy;
    cols.matched[caseIndex] = matched;
    cols.evStart[caseIndex] = this.appendEvidence(ids, from, to);
    cols.evLength[caseIndex] = to - from;
  }

  /**
   * A key equal for equal evidence lists only (SetCons groups runs by it): up to three IDs below
   * 2^13 packed into an exact integer with the count (most answers; no string built, cheap to hash),
   * else the IDs as comma-separated text. A number never equals a string, so the two kinds of key
   * cannot collide.
   */
  evidenceKey(run: number, caseIndex: number): number | string {
    const cols = this.runs[run]!;
    const start = cols.evStart[caseIndex]!;
    const count = cols.evLength[caseIndex]!;
    const end = start + count;
    if (count <= 3) {
      let key = count;
      let scale = 4;
      let packed = true;
      for (let k = start; k < end; k++) {
        const id = this.evidence[k]!;
        if (id < 0 || id >= PACKED_ID_LIMIT) {
          packed = false;
          break;
        }
        key += id * scale;
        scale *= PACKED_ID_LIMIT;
      }
      if (packed) return key;
    }
    let text = "";
    for (let k = start; k < end; k++) text += k === start ? `${this.evidence[k]}` : `,${this.evidence[k]}`;
    return text;
  }

  /** Appends the evidence IDs of (run, case) to `into`. */
  copyEvidence(run: number, caseIndex: number, into: EvidenceBuffer): void {
    const cols = this.runs[run]!;
    const start = cols.evStart[caseIndex]!;
    into.appendFrom(this.evidence, start, start + cols.evLength[caseIndex]!);
  }

  evidenceOf(run: number, caseIndex: number): number[] {
    const cols = this.runs[run]!;
    const start = cols.evStart[caseIndex]!;
    return Array.from(this.evidence.subarray(start, start + cols.evLength[caseIndex]!));
  }

  private appendEvidence(ids: ArrayLike<number>, from: number, to: number): number {
    const start = this.evidenceUsed;
    const count = to - from;
    if (start + count > this.evidence.length) {
      const grown = new Int32Array(Math.max(this.evidence.length * 2, start + count));
      grown.set(this.evidence.subarray(0, start));
      this.evidence = grown;
    }
    for (let k = 0; k < count; k++) this.evidence[start + k] = ids[from + k]!;
    this.evidenceUsed += count;
    return start;
  }
}

/** A growable Int32 list (evidence IDs of many slots, back to back). */
export class EvidenceBuffer {
  private data = new Int32Array(1 << 10);
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
