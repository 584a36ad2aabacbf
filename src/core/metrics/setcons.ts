// Run-to-run consistency (SetCons) and majority vote (docs/eval.md, "Metrics", docs/comparable-reports.md), without a loop over
// run pairs × cases:
//
// * judgment agreement per run pair needs the number of cases present in both runs and the number
//   on which they agree. Each run is held as two bitsets over cases (present-and-positive,
//   present-and-negative); for a pair, common = popcount((P_r|N_r) & (P_s|N_s)) and
//   agree = popcount(P_r & P_s) + popcount(N_r & N_s). Cost O(R² · n / 32) word operations: at
//   R = 1,875 runs and n = 891 cases that is ≈ 5·10⁷ cheap operations (well under a second).
// * evidence Jaccard is a flat mean over (pair, common case). Per case, the runs present are grouped
//   by identical evidence set: a group of k runs contributes C(k, 2) pairs of Jaccard 1 (two empty
//   sets count as 1), and two groups g, h contribute k_g · k_h · J(S_g, S_h). Cost per case is
//   O(m + D² · e) for m present runs, D distinct evidence sets and e IDs per set; D is small in
//   practice (bounded by the distinct answers a model gives), and only the worst case with every run
//   citing a different set degrades to quadratic in runs.
// * unanimous rate, flipped cases and the majority vote come from per-case positive/negative counts,
//   O(R · n).
import { binaryMetrics } from "./binary.js";
import { bitsKey } from "./bits-key.js";
import { groupedAgreement, judgmentColumns, popcount32, presenceGroups, type JudgmentColumns } from "./run-agreement.js";

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
 * Every run's cases as two bitsets of `words` words, run r's at r · words: present, and present
 * and positive; with each run's count of present cases and a number shared by runs present on the
 * same cases (the first such run).
 */
function runBitsets(c: JudgmentColumns, words: number): { any: Uint32Array; pos: Uint32Array; anyCount: Int32Array; presence: Int32Array } {
  const any = new Uint32Array(c.runs * words);
  const pos = new Uint32Array(c.runs * words);
  const anyCount = new Int32Array(c.runs);
  const presence = new Int32Array(c.runs);
  const firstOf = new Map<string | number, number>();
  for (let r = 0; r < c.runs; r++) {
    const at = r * c.cases;
    const base = r * words;
    for (let i = 0; i < c.cases; i++) {
      if (!c.present[at + i]) continue;
      const bit = 1 << (i & 31);
      const w = base + (i >>> 5);
      if (c.judgment[at + i]) pos[w]! |= bit;
      any[w]! |= bit;
      anyCount[r]!++;
    }
    const key = bitsKey(c.cases, (i) => c.present[at + i]!);
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, r);
    presence[r] = first ?? r;
  }
  return { any, pos, anyCount, presence };
}

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
  const words = (caseCount + 31) >>> 5;
  const { any, pos, anyCount, presence } = runBitsets(c, words);
  let sum = 0;
  let used = 0;
  for (let r = 0; r < c.runs; r++) {
    const a = r * words;
    for (let s = r + 1; s < c.runs; s++) {
      const b = s * words;
      // On cases present in both, the runs agree where their positive bits are equal. Counts are
      // integers, so counting the disagreements instead changes no fraction.
      let common = 0;
      let differ = 0;
      if (presence[r] === presence[s]) {
        common = anyCount[r]!;
        for (let w = 0; w < words; w++) differ += popcount32(pos[a + w]! ^ pos[b + w]!);
      } else {
        for (let w = 0; w < words; w++) {
          const both = any[a + w]! & any[b + w]!;
          common += popcount32(both);
          differ += popcount32(both & (pos[a + w]! ^ pos[b + w]!));
        }
      }
      if (common === 0) continue;
      sum += (common - differ) / common;
      used++;
    }
  }
  return { mean: used > 0 ? sum / used : 0, pairsUsed: used };
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
  const groups: EvidenceGroups = new Map();
  evidence.forEach((ids, k) => addToGroup(groups, ids.join(","), k));
  return groupedJaccard(groups, evidence.length, (k) => evidence[k]!);
}

/** Distinct evidence sets by key, in order of first appearance: the first item of each and how many share it. */
type EvidenceGroups = Map<string | number, { first: number; count: number }>;

function addToGroup(groups: EvidenceGroups, key: string | number, item: number): void {
  const group = groups.get(key);
  if (group) group.count++;
  else groups.set(key, { first: item, count: 1 });
}

/**
 * The same from the groups of `m` present runs by evidence key (equal sets ⇔ equal keys); `idsOf`
 * is asked only for the first item of each group.
 */
function groupedJaccard(groups: EvidenceGroups, m: number, idsOf: (first: number) => readonly number[]): { sum: number; pairs: number } {
  const list = [...groups.values()].map((g) => ({ ids: idsOf(g.first), count: g.count }));
  // Bit (id mod 32) of each set's IDs: two sets whose masks share no bit share no ID, and their
  // Jaccard of 0 would add nothing (the sum is never −0), so the pair is skipped. (Two empty sets
  // are one group.) Most pairs of distinct short sets share no ID.
  const masks = Int32Array.from(list, (g) => g.ids.reduce((mask, id) => mask | (1 << (id & 31)), 0));
  let sum = 0;
  for (let g = 0; g < list.length; g++) {
    const a = list[g]!;
    const mask = masks[g]!;
    sum += (a.count * (a.count - 1)) / 2;
    for (let h = g + 1; h < list.length; h++) {
      if ((mask & masks[h]!) === 0) continue;
      const b = list[h]!;
      sum += a.count * b.count * jaccardSorted(a.ids, b.ids);
    }
  }
  return { sum, pairs: (m * (m - 1)) / 2 };
}

export interface SetConsInput {
  caseIds: readonly string[];
  /** Per run, or as columns over (run, case). */
  runs: readonly RunJudgments[] | JudgmentColumns;
  /** The evidence IDs (sorted, unique) of run r on case i; only asked for present cases. */
  evidenceOf: (run: number, caseIndex: number) => readonly number[];
  /** A canonical key of that set, equal for equal sets only (default: the IDs joined by commas); cheaper than the list. */
  evidenceKey?: (run: number, caseIndex: number) => string | number;
  flippedCap: number;
}

/** Cases whose runs are gathered together (see computeSetCons). */
const CASE_BLOCK = 64;

export function computeSetCons(input: SetConsInput): SetConsOutcome {
  const { caseIds } = input;
  const n = caseIds.length;
  const runs = judgmentColumns(input.runs, n);
  if (runs.runs < 2) return { runs: runs.runs, reason: "SetCons needs at least two runs" };
  const agreement = judgmentAgreement(runs, n);
  let evidenceSum = 0;
  let evidencePairs = 0;
  let allPresent = 0;
  let unanimous = 0;
  let flippedCount = 0;
  const flipped: string[] = [];
  const evidenceKey = input.evidenceKey ?? ((r: number, i: number): string | number => input.evidenceOf(r, i).join(","));
  // Cases go in blocks, each run's columns read block by block: walking all runs for one case at a
  // time touched a different cache line per run. Each case keeps its distinct evidence sets, not a
  // key per run (at a million runs those lists were the largest transient of the eval).
  const groupsOf: EvidenceGroups[] = Array.from({ length: CASE_BLOCK }, () => new Map());
  const presentOf = new Int32Array(CASE_BLOCK);
  const positivesOf = new Int32Array(CASE_BLOCK);
  for (let i0 = 0; i0 < n; i0 += CASE_BLOCK) {
    const i1 = Math.min(n, i0 + CASE_BLOCK);
    for (let b = 0; b < i1 - i0; b++) groupsOf[b]!.clear();
    presentOf.fill(0);
    positivesOf.fill(0);
    for (let r = 0; r < runs.runs; r++) {
      const at = r * n;
      for (let i = i0; i < i1; i++) {
        if (!runs.present[at + i]) continue;
        if (runs.judgment[at + i]) positivesOf[i - i0]!++;
        presentOf[i - i0]!++;
        addToGroup(groupsOf[i - i0]!, evidenceKey(r, i), r);
      }
    }
    for (let i = i0; i < i1; i++) {
      const present = presentOf[i - i0]!;
      const positives = positivesOf[i - i0]!;
      const negatives = present - positives;
      if (present >= 2) {
        const j = groupedJaccard(groupsOf[i - i0]!, present, (r) => input.evidenceOf(r, i));
        evidenceSum += j.sum;
        evidencePairs += j.pairs;
        if (positives > 0 && negatives > 0) {
          flippedCount++;
          if (flipped.length < input.flippedCap) flipped.push(caseIds[i]!);
        }
      }
      if (present === runs.runs) {
        allPresent++;
        if (positives === 0 || negatives === 0) unanimous++;
      }
    }
  }
  return {
    runs: runs.runs,
    pairs: (runs.runs * (runs.runs - 1)) / 2,
    pairs_used: agreement.pairsUsed,
    judgment: agreement.mean,
    evidence: evidencePairs > 0 ? evidenceSum / evidencePairs : 0,
    unanimous_rate: allPresent > 0 ? unanimous / allPresent : null,
    unanimous_cases: unanimous,
    cases_in_all_runs: allPresent,
    flipped_count: flippedCount,
    flipped_cases: flipped,
  };
}

/**
 * Majority vote per case over the runs where it is present (ties and no votes → negative), and the
 * judgment-level metrics of those votes against gold.
 */
export function majorityVote(labels: Uint8Array, runs: readonly RunJudgments[] | JudgmentColumns): Record<string, number> {
  const c = judgmentColumns(runs, labels.length);
  const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (let i = 0; i < labels.length; i++) {
    let balance = 0;
    for (let r = 0; r < c.runs; r++) if (c.present[r * c.cases + i]) balance += c.judgment[r * c.cases + i] ? 1 : -1;
    const vote = balance > 0;
    if (labels[i]) vote ? counts.tp++ : counts.fn++;
    else vote ? counts.fp++ : counts.tn++;
  }
  return { cases: labels.length, ...binaryMetrics(counts) };
}
