// SetCons's evidence Jaccard per case in WebAssembly (its source wasm/evidence-pairs.ts, its bytes
// evidence-pairs-wasm.ts), for evidence sets given as ranges of one ID array (the run table's):
// grouping each case's sets and summing over their pairs were most of SetCons on the 1M-line
// bench, and their optimizing compiles as much again on V8's threads. The sums are
// EvidenceSets.pairSum's of setcons.ts to the bit (test/document-eval/setcons.test.ts).
import { instantiateSized, WASM_OWN_BYTES } from "../wasm.js";
import { EVIDENCE_PAIRS_WASM } from "./evidence-pairs-wasm.js";
import type { JudgmentColumns } from "./run-agreement.js";

/**
 * Evidence sets as the run table keeps them: run r's on case i is entry e = cells[r · stride +
 * slotOf[i]] − 1 (none when e < 0: an empty set), whose IDs are ids[start[e] … start[e] + length[e]).
 * Columns, not a function per set: a call per (run, case) through the table made the loop that
 * reads them V8's costliest compile of the GRPO bench's SetCons.
 */
export interface EvidenceRanges {
  ids: Int32Array;
  cells: Int32Array;
  stride: number;
  slotOf: Int32Array;
  start: Int32Array;
  length: Int32Array;
}

interface EvidencePairsExports {
  heapBase(): number;
  setLayout(ids: number, starts: number, ends: number, counts: number, sums: number, scratch: number, entries: number, total: number): void;
  blockSums(cases: number, stride: number): void;
}

/** Entries (present runs × cases) gathered per block, at most: a block's cases are as many as fit (at least one). */
const BLOCK_ENTRIES = 1 << 15;

/** Bytes of the module's scratch for cases of up to `entries` runs and `total` IDs (wasm/evidence-pairs.ts's setLayout; a table of k keys takes ≤ 4k + 16 slots). */
function scratchBytes(entries: number, total: number): number {
  return 4 * (10 * entries + (entries >>> 5) + 12 * total + 64);
}

/** An instance of the module holding the IDs, with room for blocks of `blockCases` × `stride` entries and cases of up to `total` IDs. */
class Kernel {
  private readonly wasm: EvidencePairsExports;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly counts: Int32Array;
  private readonly sums: Float64Array;

  constructor(
    ids: Int32Array,
    blockCases: number,
    private readonly stride: number,
    readonly total: number,
  ) {
    const entries = blockCases * stride;
    // f64 sums first (aligned), then the i32 columns and the scratch.
    const at = { sums: WASM_OWN_BYTES, counts: WASM_OWN_BYTES + 8 * blockCases };
    const startsAt = at.counts + 4 * blockCases;
    const endsAt = startsAt + 4 * entries;
    const idsAt = endsAt + 4 * entries;
    const scratchAt = idsAt + 4 * ids.length;
    const { exports, buffer } = instantiateSized<EvidencePairsExports>(
      EVIDENCE_PAIRS_WASM,
      "evidence-pairs",
      scratchAt + scratchBytes(stride, total) - WASM_OWN_BYTES,
    );
    this.wasm = exports;
    new Int32Array(buffer, idsAt, ids.length).set(ids);
    this.starts = new Int32Array(buffer, startsAt, entries);
    this.ends = new Int32Array(buffer, endsAt, entries);
    this.counts = new Int32Array(buffer, at.counts, blockCases);
    this.sums = new Float64Array(buffer, at.sums, blockCases);
    exports.setLayout(idsAt, startsAt, endsAt, at.counts, at.sums, scratchAt, stride, total);
  }

  /** The sums of the block's `cases` cases (entries as Gathered holds them) into out[from …]. */
  sumBlock(block: Gathered, cases: number, out: Float64Array, from: number): void {
    this.starts.set(block.starts);
    this.ends.set(block.ends);
    this.counts.set(block.counts);
    this.wasm.blockSums(cases, this.stride);
    out.set(this.sums.subarray(0, cases), from);
  }
}

/** A block's entries: case b's present runs' ranges at b · runs …, in run order, `counts[b]` of them. */
interface Gathered {
  starts: Int32Array;
  ends: Int32Array;
  counts: Int32Array;
}

/** Per case, the runs present on it and those judging it positive. */
export interface CaseVotes {
  present: Int32Array;
  positives: Int32Array;
}

/**
 * Per case, the sum over pairs of its present runs of their evidence sets' Jaccard (0 for a case
 * present in fewer than two runs); and its votes, counted into `votes` (the loop reads the
 * presence anyway). Cases go in blocks, each run's columns read block by block: walking all runs
 * for one case at a time touched a different cache line per run.
 */
export function evidencePairSums(c: JudgmentColumns, ranges: EvidenceRanges, votes: CaseVotes): Float64Array {
  const { runs: R, cases: n } = c;
  const out = new Float64Array(n);
  if (R === 0 || n === 0) return out;
  const blockCases = Math.max(1, Math.min(n, Math.floor(BLOCK_ENTRIES / R)));
  const block: Gathered = { starts: new Int32Array(blockCases * R), ends: new Int32Array(blockCases * R), counts: new Int32Array(blockCases) };
  const totals = new Int32Array(blockCases);
  let kernel: Kernel | null = null;
  for (let i0 = 0; i0 < n; i0 += blockCases) {
    const cases = Math.min(n, i0 + blockCases) - i0;
    const total = gather(c, ranges, i0, cases, block, totals, votes);
    // Sized from the cases met so far, with room to spare: a case with more IDs makes a new instance.
    if (kernel === null || total > kernel.total) kernel = new Kernel(ranges.ids, blockCases, R, 2 * total);
    kernel.sumBlock(block, cases, out, i0);
  }
  return out;
}

/**
 * Gathers the present runs' ranges of cases i0 … i0 + cases into `block`, counting their votes;
 * returns the most IDs a case has in all. A call per run: the loop over runs around the loop over
 * cases had not gone round when V8 compiled the inner loop on the fly, and that code dropped back
 * to the interpreter at the end of every block's first run.
 */
function gather(c: JudgmentColumns, ranges: EvidenceRanges, i0: number, cases: number, block: Gathered, totals: Int32Array, votes: CaseVotes): number {
  block.counts.fill(0);
  totals.fill(0);
  let most = 0;
  for (let r = 0; r < c.runs; r++) most = gatherRun(c, ranges, block, totals, votes, c.runs, r * c.cases + i0, r * ranges.stride, i0, cases, most);
  return most;
}

/**
 * gather's part for one run, whose columns start at `at` (present, judgment) and `row` (cells):
 * returns the larger of `most` and the most IDs a case has so far (its totals only grow). The
 * loop is all it does, reading the columns inside it: V8 keeps no type feedback for the first calls'
 * code before the loop, and code compiled with none went back to the interpreter.
 */
function gatherRun(
  c: JudgmentColumns,
  ranges: EvidenceRanges,
  block: Gathered,
  totals: Int32Array,
  votes: CaseVotes,
  R: number,
  at: number,
  row: number,
  i0: number,
  cases: number,
  most: number,
): number {
  for (let b = 0; b < cases; b++) {
    if (c.present[at + b] === 0) continue;
    votes.present[i0 + b]!++;
    if (c.judgment[at + b] !== 0) votes.positives[i0 + b]!++;
    const entry = ranges.cells[row + ranges.slotOf[i0 + b]!]! - 1;
    const from = entry < 0 ? 0 : ranges.start[entry]!;
    const count = entry < 0 ? 0 : ranges.length[entry]!;
    const e = b * R + block.counts[b]!++;
    block.starts[e] = from;
    block.ends[e] = from + count;
    const total = (totals[b]! += count);
    if (total > most) most = total;
  }
  return most;
}
