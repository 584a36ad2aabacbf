// SetCons judgment agreement at many runs (setcons.ts uses this above PAIRWISE_RUN_LIMIT runs):
// the mean over run pairs (r < s) of the fraction of their common cases on which they agree,
// without a loop over run pairs. Runs are grouped by the set of cases they are present on; two
// runs of groups g and h (g = h included) have the same common cases C_gh, so the agreements of
// all their pairs sum, per common case i, to pos_g(i)·pos_h(i) + neg_g(i)·neg_h(i) (for g = h:
// C(pos_g(i), 2) + C(neg_g(i), 2)), counts of positive and negative votes. That sum is an exact
// integer; divided by |C_gh| once, it is the sum of the pairs' fractions. Cost O(R · n) to group,
// plus O(G² · n) for G distinct presence sets: linear in runs when the runs cover the same cases
// (G = 1), and bounded by the number of presence patterns otherwise.
//
// The value equals the pairwise definition up to float rounding (the pairwise loop rounds every
// pair's fraction and each partial sum; this rounds once per group pair), which is why setcons.ts
// keeps the pairwise loop, and its exact bytes, for run counts it can afford.

import { bitsKey } from "./bits-key.js";

/** Judgments of `runs` runs over `cases` cases, run-major: run r's case i at r · cases + i. */
export interface JudgmentColumns {
  runs: number;
  cases: number;
  /** 1 when the run has a kept line for the case. */
  present: Uint8Array;
  /** 1 when the case was scored positive. */
  judgment: Uint8Array;
}

/** Per-run judgment arrays (each over `caseCount` cases) as columns; columns are returned as they are. */
export function judgmentColumns(runs: readonly { present: Uint8Array; judgment: Uint8Array }[] | JudgmentColumns, caseCount: number): JudgmentColumns {
  if (!Array.isArray(runs)) return runs as JudgmentColumns;
  const list = runs as readonly { present: Uint8Array; judgment: Uint8Array }[];
  const present = new Uint8Array(list.length * caseCount);
  const judgment = new Uint8Array(list.length * caseCount);
  list.forEach((run, r) => {
    present.set(run.present.subarray(0, caseCount), r * caseCount);
    judgment.set(run.judgment.subarray(0, caseCount), r * caseCount);
  });
  return { runs: list.length, cases: caseCount, present, judgment };
}

export interface PresenceGroups {
  /** Runs per group. */
  size: number[];
  /** Presence bitset of each group (`words` 32-bit words per group). */
  any: Uint32Array[];
  /** Positive votes per case, per group (negative votes = size − positive on present cases). */
  positives: Int32Array[];
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Groups runs by presence set, in order of each set's first run. Stops (null) past `maxGroups`. */
export function presenceGroups(
  runs: readonly { present: Uint8Array; judgment: Uint8Array }[] | JudgmentColumns,
  caseCount: number,
  maxGroups: number,
): PresenceGroups | null {
  const c = judgmentColumns(runs, caseCount);
  const words = (caseCount + 31) >>> 5;
  const index = new Map<string | number, number>();
  const groups: PresenceGroups = { size: [], any: [], positives: [] };
  const any = new Uint32Array(words);
  for (let r = 0; r < c.runs; r++) {
    const at = r * caseCount;
    any.fill(0);
    for (let i = 0; i < caseCount; i++) if (c.present[at + i]) any[i >>> 5]! |= 1 << (i & 31);
    const key = bitsKey(caseCount, (i) => c.present[at + i]!);
    let g = index.get(key);
    if (g === undefined) {
      if (groups.size.length >= maxGroups) return null;
      g = groups.size.length;
      index.set(key, g);
      groups.size.push(0);
      groups.any.push(Uint32Array.from(any));
      groups.positives.push(new Int32Array(caseCount));
    }
    groups.size[g]!++;
    const positives = groups.positives[g]!;
    for (let i = 0; i < caseCount; i++) if (c.present[at + i] && c.judgment[at + i]) positives[i]!++;
  }
  return groups;
}

/** Judgment agreement from presence groups: { mean over used pairs, pairs with a common case }. */
export function groupedAgreement(groups: PresenceGroups, caseCount: number): { mean: number; pairsUsed: number } {
  const G = groups.size.length;
  const words = (caseCount + 31) >>> 5;
  let sum = 0;
  let used = 0;
  for (let g = 0; g < G; g++) {
    const kg = groups.size[g]!;
    const pg = groups.positives[g]!;
    const ag = groups.any[g]!;
    for (let h = g; h < G; h++) {
      const kh = groups.size[h]!;
      const ph = groups.positives[h]!;
      const ah = groups.any[h]!;
      const pairs = g === h ? (kg * (kg - 1)) / 2 : kg * kh;
      if (pairs === 0) continue;
      let common = 0;
      let agree = 0;
      for (let w = 0; w < words; w++) {
        let both = ag[w]! & ah[w]!;
        common += popcount32(both);
        while (both !== 0) {
          const bit = both & -both;
          const i = w * 32 + (31 - Math.clz32(bit));
          both ^= bit;
          const a = pg[i]!;
          const b = ph[i]!;
          if (g === h) agree += (a * (a - 1)) / 2 + ((kg - a) * (kg - a - 1)) / 2;
          else agree += a * b + (kg - a) * (kh - b);
        }
      }
      if (common === 0) continue;
      sum += agree / common;
      used += pairs;
    }
  }
  return { mean: used > 0 ? sum / used : 0, pairsUsed: used };
}
