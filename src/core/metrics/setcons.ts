// Run-to-run consistency (SetCons) and majority vote (docs/eval.md, "Metrics", docs/comparable-reports.md), without a loop over
// run pairs × cases:
//
// * judgment agreement per run pair needs the number of cases present in both runs and the number
//   on which they agree. Each run is held as two bitsets over cases (present; present and
//   positive); for a pair, common = popcount(any_r & any_s) and the disagreements are
//   popcount(any_r & any_s & (pos_r ^ pos_s)). Cost O(R² · n / 64) word operations, in
//   WebAssembly (judgment-agreement.ts): at R = 1,122 runs and n = 891 cases that is ≈ 10⁷.
// * evidence Jaccard is a flat mean over (pair, common case). Per case, the runs present are grouped
//   by identical evidence set: a group of k runs contributes C(k, 2) pairs of Jaccard 1 (two empty
//   sets count as 1), and two groups g, h contribute k_g · k_h · J(S_g, S_h). Cost per case is
//   O(m + D² · e) for m present runs, D distinct evidence sets and e IDs per set; D is small in
//   practice (bounded by the distinct answers a model gives), and only the worst case with every run
//   citing a different set degrades to quadratic in runs. Sets given as ranges of one array (the
//   run table's) are grouped and summed in WebAssembly (evidence-pairs.ts), EvidenceSets's sums
//   to the bit; sets given by key and list, here.
// * unanimous rate, flipped cases and the majority vote come from per-case positive/negative counts,
//   O(R · n).
import { binaryMetrics } from "./binary.js";
import { type CaseVotes, evidencePairSums, type EvidenceRanges } from "./evidence-pairs.js";
import { pairwiseAgreement } from "./judgment-agreement.js";
import { groupedAgreement, judgmentColumns, presenceGroups, type JudgmentColumns } from "./run-agreement.js";

export type { EvidenceRanges } from "./evidence-pairs.js";
export type { JudgmentColumns } from "./run-agreement.js";

/** One run's judgments over the slice's cases, in slice order. */
export interface RunJudgments {
  /** 1 when the run has a kept line for the case (a format-invalid line is present). */
  present: Uint8Array;
  /** 1 when the case was scored positive. */
  judgment: Uint8Array;
}

export interface SetConsResult {
  runs: number;
  pairs: number;
  pairs_used: number;
  judgment: number;
  evidence: number;
  /** unanimous_cases / cases_in_all_runs (null when no case is in every run). */
  unanimous_rate: number | null;
  /** Cases on which every run gives the same judgment (among the cases present in all runs). */
  unanimous_cases: number;
  /** Cases present in all runs: the population of unanimous_rate. */
  cases_in_all_runs: number;
  flipped_count: number;
  flipped_cases: string[];
}

export type SetConsOutcome = SetConsResult | { runs: number; reason: string };

/**
 * Up to this many runs, judgment agreement is the pairwise loop (its float sums are what reports
 * have always printed); above it, the per-case vote counts of run-agreement.ts, whenever the runs
 * fall into few enough presence patterns for that to be cheaper.
 */
export const PAIRWISE_RUN_LIMIT = 2048;

/** Mean over run pairs (r < s) of the agreement fraction over cases present in both. */
export function judgmentAgreement(runs: readonly RunJudgments[] | JudgmentColumns, caseCount: number): { mean: number; pairsUsed: number } {
  const c = judgmentColumns(runs, caseCount);
  if (c.runs > PAIRWISE_RUN_LIMIT) {
    // Grouped cost ≈ G² · n / 2 against R² · n / 64 for the pairwise loop.
    const groups = presenceGroups(c, caseCount, Math.floor(c.runs / 6));
    if (groups) return groupedAgreement(groups, caseCount);
  }
  return pairwiseAgreement(c);
}

/** Jaccard of two sorted, de-duplicated ID lists; both empty = 1. */
export function jaccardSorted(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * Σ over pairs of present runs of the Jaccard of their evidence sets, for one case, and the number
 * of such pairs. `evidence` lists the present runs' sorted evidence IDs in run order.
 */
export function caseEvidenceJaccard(evidence: readonly (readonly number[])[]): { sum: number; pairs: number } {
  const groups = new EvidenceGroups();
  evidence.forEach((ids, k) => groups.add(ids.join(","), k));
  const sets = new EvidenceSets();
  return { sum: sets.load(groups, (k) => evidence[k]!).pairSum(), pairs: (evidence.length * (evidence.length - 1)) / 2 };
}

/**
 * A case's distinct evidence sets by key, in order of first appearance: the first item of each and
 * how many share it (no object per group). Numeric keys
 * (the run table's packed ones, most sets) are found in an open-addressing table of their own, as
 * two int32 halves, text keys in a Map: a Map of numbers above 2^31 boxed and hashed every key, a
 * million times an eval, and a double passed to a call that is not inlined is boxed too.
 */
class EvidenceGroups {
  private readonly index = new Map<string | number, number>();
  /** Groups filed; the arrays below hold them in [0, size). */
  size = 0;
  // Typed arrays with a size, not arrays emptied by `length = 0`: that drops their storage, so
  // every case grew five arrays afresh.
  first: Int32Array = new Int32Array(16);
  count: Int32Array = new Int32Array(16);
  /** Per table slot, a numeric key's halves and its group + 1 (0: empty). */
  private keyLow = new Int32Array(64);
  private keyHigh = new Int32Array(64);
  private groupAt = new Int32Array(64);
  /** The slots in use, to clear them. */
  private used: Int32Array = new Int32Array(32);
  private usedCount = 0;
  /** The group of key 0, −1 while it has none. */
  private zeroGroup = -1;

  add(key: string | number, item: number): void {
    let g: number;
    if (typeof key === "string") g = this.textGroup(key, this.size);
    else if (Number.isSafeInteger(key) && key >= 0) g = this.numericGroup(key % PACKED_HALF, Math.floor(key / PACKED_HALF), this.size);
    // Never met from the run table; marked so that no text key can equal it.
    else g = this.textGroup(`#${key}`, this.size);
    this.counted(g, item);
  }

  private counted(g: number, item: number): void {
    if (g !== this.size) {
      this.count[g]!++;
      return;
    }
    if (g === this.first.length) {
      this.first = grown(this.first, g + 1);
      this.count = grown(this.count, g + 1);
    }
    this.first[g] = item;
    this.count[g] = 1;
    this.size++;
  }

  private textGroup(key: string, next: number): number {
    const g = this.index.get(key);
    if (g !== undefined) return g;
    this.index.set(key, next);
    return next;
  }

  /** The group of the numeric key (low, high), `next` (filed as new) when it has none. */
  private numericGroup(low: number, high: number, next: number): number {
    // Key 0 (the empty set: every negative judgment) is kept aside, without hashing.
    if ((low | high) === 0) {
      if (this.zeroGroup < 0) this.zeroGroup = next;
      return this.zeroGroup;
    }
    if (2 * (this.usedCount + 1) > this.groupAt.length) this.grow();
    const mask = this.groupAt.length - 1;
    for (let slot = keySlot(low, high, mask); ; slot = (slot + 1) & mask) {
      const g = this.groupAt[slot]!;
      if (g === 0) {
        this.keyLow[slot] = low;
        this.keyHigh[slot] = high;
        this.groupAt[slot] = next + 1;
        if (this.usedCount === this.used.length) this.used = grown(this.used, this.usedCount + 1);
        this.used[this.usedCount++] = slot;
        return next;
      }
      if (this.keyLow[slot] === low && this.keyHigh[slot] === high) return g - 1;
    }
  }

  private grow(): void {
    const { keyLow, keyHigh, groupAt } = this;
    this.keyLow = new Int32Array(2 * groupAt.length);
    this.keyHigh = new Int32Array(2 * groupAt.length);
    this.groupAt = new Int32Array(2 * groupAt.length);
    const mask = this.groupAt.length - 1;
    for (let k = 0; k < this.usedCount; k++) {
      const old = this.used[k]!;
      let slot = keySlot(keyLow[old]!, keyHigh[old]!, mask);
      while (this.groupAt[slot] !== 0) slot = (slot + 1) & mask;
      this.keyLow[slot] = keyLow[old]!;
      this.keyHigh[slot] = keyHigh[old]!;
      this.groupAt[slot] = groupAt[old]!;
      this.used[k] = slot;
    }
  }

  clear(): void {
    this.zeroGroup = -1;
    // Map.clear allocates a new table even when the map is empty (most cases have no text key).
    if (this.index.size > 0) this.index.clear();
    for (let k = 0; k < this.usedCount; k++) this.groupAt[this.used[k]!] = 0;
    this.usedCount = 0;
    this.size = 0;
  }
}

/** Numeric keys are split at 2^28 (a key below 2^53 leaves a high half below 2^25). */
const PACKED_HALF = 1 << 28;

/** A table slot for a numeric key's halves (only equal keys must meet). */
function keySlot(low: number, high: number, mask: number): number {
  const h = Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1);
  return (h ^ (h >>> 16)) & mask;
}

/** IDs below this are numbered through arrays (EvidenceSets.numberIds). */
const SMALL_IDS = 4096;

/** Above this many distinct sets, pairs sharing an ID are found through an index of the IDs instead of trying every pair. */
const INDEXED_SETS = 16;

/**
 * The distinct evidence sets of one case, flat (set g's IDs at ids[start[g] … start[g + 1]), how
 * many runs gave it in count[g]), and the sum over run pairs of their Jaccard. Buffers are reused
 * from case to case.
 */
export class EvidenceSets {
  sets = 0;
  count = new Float64Array(16);
  start: Int32Array = new Int32Array(17);
  ids: Int32Array = new Int32Array(64);
  /** Every set's IDs are strictly increasing (the index counts shared IDs by list membership, which needs unique IDs). */
  private strictlySorted = true;
  // The ID index (pairSum above INDEXED_SETS): per distinct ID, the sets holding it, in set order.
  private readonly slotOf = new Map<number, number>();
  /** The small IDs' slots, valid where idSeen holds the current idStamp. */
  private readonly idSeen = new Int32Array(SMALL_IDS);
  private readonly idSlot = new Int32Array(SMALL_IDS);
  private idStamp = 0;
  private lists: Int32Array = new Int32Array(64);
  private listStart = new Int32Array(64);
  private cursor = new Int32Array(64);
  private listed = new Int32Array(64);
  // Per set, the last set it was met from (stamp) and how many IDs they share; the sets met, as a bitset (or the masks of maskedPairSum).
  private stamp = new Int32Array(16);
  private shared = new Int32Array(16);
  private met = new Int32Array(16);

  /** The sets of `groups`, each set's IDs from `idsOf(first item)`. */
  load(groups: EvidenceGroups, idsOf: (first: number) => readonly number[]): this {
    const D = groups.size;
    this.sets = D;
    if (this.count.length < D) {
      this.count = new Float64Array(2 * D);
      this.start = new Int32Array(2 * D + 1);
    }
    let used = 0;
    let strictlySorted = true;
    for (let g = 0; g < D; g++) {
      const list = idsOf(groups.first[g]!);
      if (used + list.length > this.ids.length) this.ids = grown(this.ids, used + list.length);
      for (let k = 0; k < list.length; k++) {
        if (k > 0 && !(list[k]! > list[k - 1]!)) strictlySorted = false;
        this.ids[used++] = list[k]!;
      }
      this.count[g] = groups.count[g]!;
      this.start[g + 1] = used;
    }
    this.strictlySorted = strictlySorted;
    return this;
  }

  /**
   * Σ over pairs of runs of the Jaccard of their sets: C(k, 2) pairs of Jaccard 1 within a set of
   * k runs, and k_g · k_h · J(S_g, S_h) between sets g < h, added in the order g, then h ascending.
   * Pairs that share no ID add 0 (never −0) and are skipped, so the sum's bits do not depend on
   * how they are found: every pair's bit of (id mod 32) masks tested below INDEXED_SETS sets, the
   * sets sharing an ID looked up by ID above it.
   */
  pairSum(): number {
    return this.sets > INDEXED_SETS && this.strictlySorted ? this.indexedPairSum() : this.maskedPairSum();
  }

  private maskedPairSum(): number {
    const { sets: D, count, start, ids } = this;
    if (this.met.length < D) this.met = new Int32Array(2 * D);
    const masks = this.met;
    for (let g = 0; g < D; g++) {
      let mask = 0;
      for (let k = start[g]!; k < start[g + 1]!; k++) mask |= 1 << (ids[k]! & 31);
      masks[g] = mask;
    }
    let sum = 0;
    for (let g = 0; g < D; g++) {
      const cg = count[g]!;
      sum += (cg * (cg - 1)) / 2;
      for (let h = g + 1; h < D; h++) {
        if ((masks[g]! & masks[h]!) === 0) continue;
        const inter = sortedIntersection(ids, start[g]!, start[g + 1]!, start[h]!, start[h + 1]!);
        if (inter === 0) continue;
        sum += cg * count[h]! * (inter / (start[g + 1]! - start[g]! + start[h + 1]! - start[h]! - inter));
      }
    }
    return sum;
  }

  /**
   * Numbers the distinct IDs of ids[0 … total) in order of first appearance into `listed`; returns
   * how many there are. Small non-negative IDs (sentence numbers) are looked up in an array stamped
   * per call, others in a Map: the Map was most of the index's cost.
   */
  private numberIds(total: number): number {
    const { ids, listed } = this;
    let small = true;
    for (let k = 0; k < total && small; k++) small = ids[k]! >= 0 && ids[k]! < SMALL_IDS;
    let slots = 0;
    if (small) {
      if (this.idStamp === 0x7fffffff) {
        this.idSeen.fill(0);
        this.idStamp = 0;
      }
      const stamp = ++this.idStamp;
      const { idSeen, idSlot } = this;
      for (let k = 0; k < total; k++) {
        const id = ids[k]!;
        if (idSeen[id] !== stamp) {
          idSeen[id] = stamp;
          idSlot[id] = slots++;
        }
        listed[k] = idSlot[id]!;
      }
      return slots;
    }
    const slotOf = this.slotOf;
    slotOf.clear();
    for (let k = 0; k < total; k++) {
      let slot = slotOf.get(ids[k]!);
      if (slot === undefined) slotOf.set(ids[k]!, (slot = slotOf.size));
      listed[k] = slot;
    }
    return slotOf.size;
  }

  private indexedPairSum(): number {
    const { sets: D, count, start } = this;
    const total = start[D]!;
    // Number the distinct IDs; each set's IDs are unique, so a set is listed once per ID it holds.
    if (this.listed.length < total) this.listed = new Int32Array(2 * total);
    const slotOfId = this.listed;
    const slots = this.numberIds(total);
    if (this.listStart.length < slots + 1) {
      this.listStart = new Int32Array(2 * slots + 1);
      this.cursor = new Int32Array(2 * slots + 1);
    }
    const listStart = this.listStart;
    const cursor = this.cursor;
    listStart.fill(0, 0, slots + 1);
    for (let k = 0; k < total; k++) listStart[slotOfId[k]! + 1]!++;
    for (let x = 0; x < slots; x++) listStart[x + 1]! += listStart[x]!;
    for (let x = 0; x < slots; x++) cursor[x] = listStart[x]!;
    if (this.lists.length < total) this.lists = new Int32Array(2 * total);
    const lists = this.lists;
    for (let g = 0; g < D; g++) for (let k = start[g]!; k < start[g + 1]!; k++) lists[cursor[slotOfId[k]!]!++] = g;
    for (let x = 0; x < slots; x++) cursor[x] = listStart[x]!;
    const words = (D + 31) >>> 5;
    if (this.stamp.length < D) {
      this.stamp = new Int32Array(2 * D);
      this.shared = new Int32Array(2 * D);
      this.met = new Int32Array(2 * D);
    }
    const { stamp, shared, met } = this;
    stamp.fill(-1, 0, D);
    met.fill(0, 0, words);
    let sum = 0;
    for (let g = 0; g < D; g++) {
      const cg = count[g]!;
      sum += (cg * (cg - 1)) / 2;
      // The sets after g sharing one of its IDs (g is at its lists' cursors: sets are visited in
      // order), marked in a bitset over sets and read back from it in ascending order.
      for (let k = start[g]!; k < start[g + 1]!; k++) {
        const x = slotOfId[k]!;
        const end = listStart[x + 1]!;
        for (let y = ++cursor[x]!; y < end; y++) {
          const h = lists[y]!;
          if (stamp[h] === g) {
            shared[h]!++;
            continue;
          }
          stamp[h] = g;
          shared[h] = 1;
          met[h >>> 5]! |= 1 << (h & 31);
        }
      }
      const lg = start[g + 1]! - start[g]!;
      for (let w = (g + 1) >>> 5; w < words; w++) {
        let bits = met[w]!;
        if (bits === 0) continue;
        met[w] = 0;
        while (bits !== 0) {
          const low = bits & -bits;
          const h = (w << 5) + 31 - Math.clz32(low);
          bits ^= low;
          const inter = shared[h]!;
          sum += cg * count[h]! * (inter / (lg + start[h + 1]! - start[h]! - inter));
        }
      }
    }
    return sum;
  }
}

/** |a ∩ b| of the sorted, de-duplicated runs ids[a0 … a1) and ids[b0 … b1). */
function sortedIntersection(ids: Int32Array, a0: number, a1: number, b0: number, b1: number): number {
  let i = a0;
  let j = b0;
  let inter = 0;
  while (i < a1 && j < b1) {
    if (ids[i] === ids[j]) {
      inter++;
      i++;
      j++;
    } else if (ids[i]! < ids[j]!) i++;
    else j++;
  }
  return inter;
}

function grown(a: Int32Array, least: number): Int32Array {
  const to = new Int32Array(Math.max(2 * a.length, least));
  to.set(a);
  return to;
}

/** Each (run, case)'s evidence set as lists (sorted, unique IDs; only asked for present cases). */
export interface EvidenceLists {
  /** The evidence IDs of run r on case i. */
  evidenceOf: (run: number, caseIndex: number) => readonly number[];
  /** A canonical key of that set, equal for equal sets only (default: the IDs joined by commas); cheaper than the list. */
  evidenceKey?: (run: number, caseIndex: number) => string | number;
}

/**
 * The evidence as the run table keeps it: no list or key is made per (run, case), and the sums are
 * taken in WebAssembly (evidence-pairs.ts).
 */
export interface EvidenceColumns {
  evidenceRanges: EvidenceRanges;
}

export type SetConsInput = (EvidenceLists | EvidenceColumns) & {
  caseIds: readonly string[];
  /** Per run, or as columns over (run, case). */
  runs: readonly RunJudgments[] | JudgmentColumns;
  flippedCap: number;
};

/** Cases whose runs are gathered together (see keyedPairSums). */
const CASE_BLOCK = 64;

export function computeSetCons(input: SetConsInput): SetConsOutcome {
  const { caseIds } = input;
  const n = caseIds.length;
  const runs = judgmentColumns(input.runs, n);
  if (runs.runs < 2) return { runs: runs.runs, reason: "SetCons needs at least two runs" };
  const agreement = judgmentAgreement(runs, n);
  const votes: CaseVotes = { present: new Int32Array(n), positives: new Int32Array(n) };
  const pairSums = "evidenceRanges" in input ? evidencePairSums(runs, input.evidenceRanges, votes) : keyedPairSums(runs, input, votes);
  const flipped: string[] = [];
  const [evidenceSum, evidencePairs, allPresent, unanimous, flippedCount] = caseTallies(votes, pairSums, runs.runs, caseIds, input.flippedCap, flipped);
  return {
    runs: runs.runs,
    pairs: (runs.runs * (runs.runs - 1)) / 2,
    pairs_used: agreement.pairsUsed,
    judgment: agreement.mean,
    evidence: evidencePairs! > 0 ? evidenceSum! / evidencePairs! : 0,
    unanimous_rate: allPresent! > 0 ? unanimous! / allPresent! : null,
    unanimous_cases: unanimous!,
    cases_in_all_runs: allPresent!,
    flipped_count: flippedCount!,
    flipped_cases: flipped,
  };
}

/**
 * Over the cases: the evidence sums and pairs of those present in two runs or more, the cases in
 * all R runs and how many of them are unanimous, and the flipped cases (their IDs into `flipped`,
 * up to `cap`), as [evidence sum, evidence pairs, in all runs, unanimous, flipped]. Totals kept in
 * the array throughout: code after the loop had no type feedback when V8 compiled the loop on the
 * fly, and dropped it back to the interpreter.
 */
function caseTallies(votes: CaseVotes, pairSums: Float64Array, R: number, caseIds: readonly string[], cap: number, flipped: string[]): Float64Array {
  const { present: presentOf, positives: positivesOf } = votes;
  const totals = new Float64Array(5);
  for (let i = 0; i < caseIds.length; i++) {
    const present = presentOf[i]!;
    const positives = positivesOf[i]!;
    const negatives = present - positives;
    if (present >= 2) {
      totals[0]! += pairSums[i]!;
      totals[1]! += (present * (present - 1)) / 2;
      if (positives > 0 && negatives > 0) {
        totals[4]!++;
        if (flipped.length < cap) flipped.push(caseIds[i]!);
      }
    }
    if (present === R) {
      totals[2]!++;
      if (positives === 0 || negatives === 0) totals[3]!++;
    }
  }
  return totals;
}

/**
 * evidencePairSums for sets given by key and list: per case, the sum over pairs of its present
 * runs of their evidence sets' Jaccard. Cases go in blocks, each run's columns read block by
 * block; each case keeps its distinct evidence sets, not a key per run. Counts `votes` on the way.
 */
function keyedPairSums(runs: JudgmentColumns, input: EvidenceLists, votes: CaseVotes): Float64Array {
  const n = runs.cases;
  const sums = new Float64Array(n);
  const evidenceKey = input.evidenceKey ?? ((r: number, i: number): string | number => input.evidenceOf(r, i).join(","));
  const groupsOf = Array.from({ length: CASE_BLOCK }, () => new EvidenceGroups());
  const sets = new EvidenceSets();
  for (let i0 = 0; i0 < n; i0 += CASE_BLOCK) {
    const i1 = Math.min(n, i0 + CASE_BLOCK);
    for (let b = 0; b < i1 - i0; b++) groupsOf[b]!.clear();
    for (let r = 0; r < runs.runs; r++) {
      const at = r * n;
      for (let i = i0; i < i1; i++) {
        if (!runs.present[at + i]) continue;
        votes.present[i]!++;
        if (runs.judgment[at + i]) votes.positives[i]!++;
        groupsOf[i - i0]!.add(evidenceKey(r, i), r);
      }
    }
    for (let i = i0; i < i1; i++) {
      const groups = groupsOf[i - i0]!;
      if (groups.size > 0) sums[i] = sets.load(groups, (r) => input.evidenceOf(r, i)).pairSum();
    }
  }
  return sums;
}

/**
 * Majority vote per case over the runs where it is present (ties and no votes → negative), and the
 * judgment-level metrics of those votes against gold.
 */
export function majorityVote(labels: Uint8Array, runs: readonly RunJudgments[] | JudgmentColumns): Record<string, number> {
  const c = judgmentColumns(runs, labels.length);
  // Run by run, as the columns lie (case by case read a cache line per run and case: 20 ms of the
  // 1M bench), a call per run: the loop over runs around the loop over cases had not gone round
  // when V8 compiled the inner loop on the fly, which then dropped back at the end of the first run.
  const balances = new Int32Array(labels.length);
  for (let r = 0; r < c.runs; r++) addVotes(c.present, c.judgment, r * c.cases, balances);
  // Outcome counts indexed 2 · label + vote (0 = tn, 1 = fp, 2 = fn, 3 = tp).
  const outcomes = tallyVotes(labels, balances, new Float64Array(4));
  return { cases: labels.length, ...binaryMetrics({ tp: outcomes[3]!, fp: outcomes[1]!, fn: outcomes[2]!, tn: outcomes[0]! }) };
}

/**
 * Adds one run's votes (columns from `at`) to each case's balance, without a branch (judgments are
 * unpredictable); a balance is a sum of ±1, the same in any order. (x | −x) >> 31 is −1 for a
 * non-zero byte x, else 0.
 */
function addVotes(present: Uint8Array, judgment: Uint8Array, at: number, balances: Int32Array): void {
  for (let i = 0; i < balances.length; i++) {
    const p = present[at + i]!;
    const j = judgment[at + i]!;
    balances[i]! += ((p | -p) >> 31) & ((((j | -j) >> 31) & 2) - 1);
  }
}

/** Counts each case's outcome (majority vote positive when its balance is) into outcomes[2 · label + vote]. */
function tallyVotes(labels: Uint8Array, balances: Int32Array, outcomes: Float64Array): Float64Array {
  for (let i = 0; i < labels.length; i++) outcomes[(labels[i] ? 2 : 0) + (balances[i]! > 0 ? 1 : 0)]!++;
  return outcomes;
}
