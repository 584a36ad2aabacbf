import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  caseEvidenceJaccard,
  computeSetCons,
  jaccardSorted,
  judgmentAgreement,
  majorityVote,
  PAIRWISE_RUN_LIMIT,
  type RunJudgments,
  type SetConsResult,
} from "../../src/core/metrics/setcons.js";
import { evidencePairSums, type EvidenceRanges } from "../../src/core/metrics/evidence-pairs.js";
import { groupedAgreement, judgmentColumns, presenceGroups } from "../../src/core/metrics/run-agreement.js";
import { createPrng } from "../../src/core/metrics/prng.js";

// Cases A (gold +), B (gold −), C (gold +); three runs; C is missing from run 1.
//   run 0: A + [1]    B −        C + [2,3]
//   run 1: A + [1,2]  B + [1]    C missing
//   run 2: A −        B −        C + [2]
const caseIds = ["A", "B", "C"];
const labels = Uint8Array.from([1, 0, 1]);
const runs: RunJudgments[] = [
  { present: Uint8Array.from([1, 1, 1]), judgment: Uint8Array.from([1, 0, 1]) },
  { present: Uint8Array.from([1, 1, 0]), judgment: Uint8Array.from([1, 1, 0]) },
  { present: Uint8Array.from([1, 1, 1]), judgment: Uint8Array.from([0, 0, 1]) },
];
const evidence = [
  [[1], [], [2, 3]],
  [[1, 2], [1], []],
  [[], [], [2]],
];

describe("SetCons (hand-computed)", () => {
  const result = computeSetCons({ caseIds, runs, evidenceOf: (r, i) => evidence[r]![i]!, flippedCap: 10 }) as SetConsResult;

  it("judgment agreement is the mean over pairs of per-pair fractions", () => {
    // (0,1): A agree, B not → 1/2; (0,2): A not, B, C agree → 2/3; (1,2): A, B not → 0
    expect(result.judgment).toBeCloseTo((1 / 2 + 2 / 3 + 0) / 3, 15);
    expect(result.pairs_used).toBe(3);
    expect(result.pairs).toBe(3);
  });

  it("evidence Jaccard is a flat mean over (pair, common case)", () => {
    // (0,1): A 1/2, B 0; (0,2): A 0, B 1 (both empty), C 1/2; (1,2): A 0, B 0 → 2 / 7
    expect(result.evidence).toBeCloseTo(2 / 7, 15);
  });

  it("unanimous rate, flipped cases", () => {
    expect(result.unanimous_rate).toBe(0);
    expect(result.unanimous_cases).toBe(0);
    expect(result.cases_in_all_runs).toBe(2);
    expect(result.flipped_count).toBe(2);
    expect(result.flipped_cases).toEqual(["A", "B"]);
  });

  it("majority vote (ties negative)", () => {
    const m = majorityVote(labels, runs);
    expect(m.accuracy).toBe(1);
    expect([m.tp, m.fp, m.fn, m.tn]).toEqual([2, 0, 0, 1]);
    const tie = majorityVote(Uint8Array.from([1]), [
      { present: Uint8Array.from([1]), judgment: Uint8Array.from([1]) },
      { present: Uint8Array.from([1]), judgment: Uint8Array.from([0]) },
    ]);
    expect(tie.fn).toBe(1);
  });

  it("needs two runs", () => {
    expect(computeSetCons({ caseIds, runs: runs.slice(0, 1), evidenceOf: () => [], flippedCap: 1 })).toMatchObject({ runs: 1 });
  });

  it("jaccard of two empty sets is 1", () => {
    expect(jaccardSorted([], [])).toBe(1);
    expect(jaccardSorted([1, 2], [2, 3])).toBeCloseTo(1 / 3, 15);
  });
});

/** Jaccard by the definition, on sets (both empty = 1), independent of the sorted-merge in src/. */
function setJaccard(a: readonly number[], b: readonly number[]): number {
  const union = new Set([...a, ...b]);
  if (union.size === 0) return 1;
  const inB = new Set(b);
  return new Set(a.filter((x) => inB.has(x))).size / union.size;
}

/** The pairwise definition, added in pair order (r, then s ascending): non-zero bytes count as present or positive. */
function plainAgreement(runs: RunJudgments[], n: number): { mean: number; pairsUsed: number } {
  let sum = 0;
  let used = 0;
  for (let r = 0; r < runs.length; r++) {
    for (let s = r + 1; s < runs.length; s++) {
      let common = 0;
      let agree = 0;
      for (let i = 0; i < n; i++) {
        if (!runs[r]!.present[i] || !runs[s]!.present[i]) continue;
        common++;
        if (!runs[r]!.judgment[i] === !runs[s]!.judgment[i]) agree++;
      }
      if (common > 0) {
        sum += agree / common;
        used++;
      }
    }
  }
  return { mean: used > 0 ? sum / used : 0, pairsUsed: used };
}

/** The definition, written naively (quadratic in runs), to check the counting algorithm. */
function naive(runs: RunJudgments[], ev: number[][][], n: number): { judgment: number; evidence: number; used: number } {
  const agreement = plainAgreement(runs, n);
  let evSum = 0;
  let evPairs = 0;
  for (let r = 0; r < runs.length; r++) {
    for (let s = r + 1; s < runs.length; s++) {
      for (let i = 0; i < n; i++) {
        if (!runs[r]!.present[i] || !runs[s]!.present[i]) continue;
        evSum += setJaccard(ev[r]![i]!, ev[s]![i]!);
        evPairs++;
      }
    }
  }
  return { judgment: agreement.mean, evidence: evPairs ? evSum / evPairs : 0, used: agreement.pairsUsed };
}

describe("SetCons counting algorithm equals the naive definition", () => {
  it("on random runs", () => {
    const cell = fc.record({ present: fc.boolean(), judgment: fc.boolean(), ev: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 2, max: 6 }), fc.infiniteStream(cell), (n, runCount, stream) => {
        const cells = [...stream.take(n * runCount)];
        const rs: RunJudgments[] = [];
        const ev: number[][][] = [];
        for (let r = 0; r < runCount; r++) {
          const slice = cells.slice(r * n, (r + 1) * n);
          rs.push({ present: Uint8Array.from(slice, (c) => (c.present ? 1 : 0)), judgment: Uint8Array.from(slice, (c) => (c.judgment ? 1 : 0)) });
          ev.push(slice.map((c) => [...c.ev].sort((a, b) => a - b)));
        }
        const ids = Array.from({ length: n }, (_, i) => `c${i}`);
        const fast = computeSetCons({ caseIds: ids, runs: rs, evidenceOf: (r, i) => ev[r]![i]!, flippedCap: 5 }) as SetConsResult;
        const slow = naive(rs, ev, n);
        expect(fast.judgment).toBeCloseTo(slow.judgment, 12);
        expect(fast.evidence).toBeCloseTo(slow.evidence, 12);
        expect(fast.pairs_used).toBe(slow.used);
        // Flips (present in ≥ 2 runs, both judgments) in slice order; unanimity over all-present cases.
        const votes = ids.map((_, i) => rs.filter((run) => run.present[i]).map((run) => run.judgment[i]));
        const flips = ids.filter((_, i) => votes[i]!.length >= 2 && votes[i]!.includes(1) && votes[i]!.includes(0));
        expect(fast.flipped_count).toBe(flips.length);
        expect(fast.flipped_cases).toEqual(flips.slice(0, 5));
        const full = votes.filter((v) => v.length === runCount);
        expect(fast.cases_in_all_runs).toBe(full.length);
        expect(fast.unanimous_cases).toBe(full.filter((v) => !v.includes(1) || !v.includes(0)).length);
        expect(fast.unanimous_rate).toBe(full.length ? full.filter((v) => !v.includes(1) || !v.includes(0)).length / full.length : null);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * Σ over run pairs of the Jaccard of their evidence sets, written plainly: runs grouped by set (in
 * order of first appearance), then C(k, 2) for each set of k runs and k_g · k_h · J for each later
 * set h, with J by the set definition. Those are the additions, in the order, SetCons states.
 */
function plainGroupedSum(evidence: readonly number[][]): number {
  const sets: { ids: number[]; count: number }[] = [];
  for (const ids of evidence) {
    const same = sets.find((set) => set.ids.join(",") === ids.join(","));
    if (same) same.count++;
    else sets.push({ ids, count: 1 });
  }
  let sum = 0;
  sets.forEach((a, g) => {
    sum += (a.count * (a.count - 1)) / 2;
    for (const b of sets.slice(g + 1)) {
      const j = setJaccard(a.ids, b.ids);
      if (j > 0) sum += a.count * b.count * j;
    }
  });
  return sum;
}

describe("evidence Jaccard of one case over many runs", () => {
  it("equals the plain grouped sum bit for bit, with few and with many distinct sets (pairs found by mask or by ID index)", () => {
    const evidenceSet = (maxId: number) => fc.uniqueArray(fc.integer({ min: 1, max: maxId }), { maxLength: 4 }).map((ids) => ids.sort((a, b) => a - b));
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 70 }).chain((maxId) => fc.array(evidenceSet(maxId), { minLength: 2, maxLength: 300 })),
        (evidence) => {
          const got = caseEvidenceJaccard(evidence);
          expect(got.pairs).toBe((evidence.length * (evidence.length - 1)) / 2);
          expect(got.sum).toBe(plainGroupedSum(evidence));
          // And the definition's pairwise sum, up to rounding.
          let pairwiseSum = 0;
          for (let r = 0; r < evidence.length; r++) for (let s = r + 1; s < evidence.length; s++) pairwiseSum += setJaccard(evidence[r]!, evidence[s]!);
          expect(got.sum).toBeCloseTo(pairwiseSum, 8);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is the same bit for bit when some IDs are too large for the ID arrays (numbered through a Map)", () => {
    const evidenceSet = fc
      .uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 4 })
      .map((ids) => ids.map((id) => (id % 3 === 0 ? id + 5000 : id)).sort((a, b) => a - b));
    fc.assert(
      fc.property(fc.array(evidenceSet, { minLength: 20, maxLength: 300 }), (evidence) => {
        expect(caseEvidenceJaccard(evidence).sum).toBe(plainGroupedSum(evidence));
      }),
      { numRuns: 60 },
    );
  });

  it("is what SetCons averages over cases and pairs", () => {
    const rand = createPrng(11, 3);
    const R = 80;
    const n = 5;
    const ev = Array.from({ length: R }, () =>
      Array.from({ length: n }, () => [...new Set(Array.from({ length: rand.nextBelow(4) }, () => 1 + rand.nextBelow(40)))].sort((a, b) => a - b)),
    );
    const runs = Array.from({ length: R }, () => ({ present: new Uint8Array(n).fill(1), judgment: new Uint8Array(n) }));
    const result = computeSetCons({ caseIds: ["a", "b", "c", "d", "e"], runs, evidenceOf: (r, i) => ev[r]![i]!, flippedCap: 0 }) as SetConsResult;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += plainGroupedSum(ev.map((run) => run[i]!));
    expect(result.evidence).toBe(sum / ((n * R * (R - 1)) / 2));
  });
});

/** R runs over n cases; presence drawn from `patterns` shared patterns (0 = every run covers every case). */
function randomRuns(R: number, n: number, patterns: number, salt: number): RunJudgments[] {
  const rand = createPrng(salt, 5);
  const shapes = Array.from({ length: Math.max(1, patterns) }, () =>
    Uint8Array.from({ length: n }, () => (patterns === 0 ? 1 : rand.nextBelow(3) > 0 ? 1 : 0)),
  );
  return Array.from({ length: R }, () => {
    const present = shapes[rand.nextBelow(shapes.length)]!;
    return { present, judgment: Uint8Array.from(present, (p) => (p ? rand.nextBelow(2) : 0)) };
  });
}

/**
 * R runs over n cases with judgments as any byte (only non-zero counts as positive, and only on
 * present cases): presence shared by all runs, drawn from a few patterns, drawn per run, on every
 * case, or on none.
 */
function presenceRuns(R: number, n: number, presence: "shared" | "patterns" | "random" | "all" | "none", salt: number): RunJudgments[] {
  const rand = createPrng(salt, 7);
  const byte = (): number => (rand.nextBelow(2) === 0 ? 0 : 1 + rand.nextBelow(255));
  const shapes = Array.from({ length: presence === "patterns" ? 4 : 1 }, () =>
    Uint8Array.from({ length: n }, () => (presence === "all" ? 1 : presence === "none" ? 0 : rand.nextBelow(4) > 0 ? byte() || 1 : 0)),
  );
  return Array.from({ length: R }, () => ({
    present: presence === "random" ? Uint8Array.from({ length: n }, () => (rand.nextBelow(3) > 0 ? 1 : 0)) : shapes[rand.nextBelow(shapes.length)]!,
    judgment: Uint8Array.from({ length: n }, byte),
  }));
}

describe("judgment agreement from per-case vote counts", () => {
  it("equals the pairwise definition on random inputs (shared and mixed presence, one to many groups)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 1e6 }),
        (R, n, patterns, salt) => {
          const runs = randomRuns(R, n, patterns, salt);
          const groups = presenceGroups(runs, n, Infinity)!;
          const got = groupedAgreement(groups, n);
          const want = plainAgreement(runs, n);
          expect(got.pairsUsed).toBe(want.pairsUsed);
          expect(got.mean).toBeCloseTo(want.mean, 12);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is what SetCons reports above the pairwise run limit (runs covering the same cases, and three presence patterns)", () => {
    for (const patterns of [0, 3]) {
      const n = 6;
      const runs = randomRuns(PAIRWISE_RUN_LIMIT + 100, n, patterns, 17 + patterns);
      const want = plainAgreement(runs, n);
      const got = judgmentAgreement(runs, n);
      expect(got.pairsUsed).toBe(want.pairsUsed);
      expect(got.mean).toBeCloseTo(want.mean, 12);
      const setcons = computeSetCons({ caseIds: Array.from({ length: n }, (_, i) => `c${i}`), runs, evidenceOf: () => [], flippedCap: 50 });
      expect("judgment" in setcons && setcons.judgment).toBeCloseTo(want.mean, 12);
    }
  });

  it("below the run limit equals the pairwise definition bit for bit (2 to 70 runs; shared, mixed, full and no presence)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 70 }),
        fc.integer({ min: 0, max: 200 }),
        fc.constantFrom("shared", "patterns", "random", "all", "none"),
        fc.integer({ min: 1, max: 1e6 }),
        (R, n, presence, salt) => {
          const runs = presenceRuns(R, n, presence, salt);
          const want = plainAgreement(runs, n);
          const got = judgmentAgreement(runs, n);
          expect(got.pairsUsed).toBe(want.pairsUsed);
          expect(got.mean).toBe(want.mean);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("on many runs, and on runs copied in several batches, equals the pairwise definition bit for bit", () => {
    // 300 runs × 891 cases (a large eval's cases); 60 runs × 20,000 cases (two batches of the byte columns).
    for (const [R, n, presence] of [
      [300, 891, "shared"],
      [60, 20_000, "patterns"],
    ] as const) {
      const runs = presenceRuns(R, n, presence, 41);
      const got = judgmentAgreement(judgmentColumns(runs, n), n);
      const want = plainAgreement(runs, n);
      expect(got.pairsUsed).toBe(want.pairsUsed);
      expect(got.mean).toBe(want.mean);
    }
  });

  it("gives up (null) past the group limit, so the caller can keep the pairwise loop", () => {
    const runs = randomRuns(30, 40, 6, 3);
    expect(presenceGroups(runs, 40, 2)).toBeNull();
  });
});

/**
 * Evidence as the run table keeps it: a slot per (run, table case) holding its entry + 1, and each
 * entry's range of one ID array. The entries are numbered and laid out in a shuffled order, the
 * cases sit at shuffled table slots among spare ones, and every second empty set has no entry at
 * all (an empty range). Absent cells get a set too, which only the presence may leave out.
 */
function asRanges(ev: readonly (readonly (readonly number[])[])[], n: number, salt: number): EvidenceRanges {
  const rand = createPrng(salt, 9);
  const shuffled = (count: number): number[] => {
    const list = Array.from({ length: count }, (_, k) => k);
    for (let k = list.length - 1; k > 0; k--) {
      const j = rand.nextBelow(k + 1);
      [list[k], list[j]] = [list[j]!, list[k]!];
    }
    return list;
  };
  const stride = n + 3;
  const slotOf = Int32Array.from(shuffled(stride).slice(0, n));
  const entryOf = shuffled(ev.length * n);
  const cells = new Int32Array(ev.length * stride);
  const start = new Int32Array(ev.length * n);
  const length = new Int32Array(ev.length * n);
  const ids: number[] = [];
  let empty = 0;
  for (const cell of shuffled(ev.length * n)) {
    const set = ev[Math.floor(cell / n)]![cell % n]!;
    if (set.length === 0 && empty++ % 2 === 0) continue;
    const entry = entryOf[cell]!;
    cells[Math.floor(cell / n) * stride + slotOf[cell % n]!] = entry + 1;
    start[entry] = ids.length;
    ids.push(...set);
    length[entry] = set.length;
  }
  return { ids: Int32Array.from(ids), cells, stride, slotOf, start, length };
}

describe("evidence Jaccard from the run table's ranges (WebAssembly)", () => {
  /** R runs × n cases of random presence and evidence sets drawn from `pool` (sorted unique, some empty). */
  const shape = (maxRuns: number, maxCases: number, pool: fc.Arbitrary<number>, sorted = true) =>
    fc.record({
      R: fc.integer({ min: 2, max: maxRuns }),
      n: fc.integer({ min: 1, max: maxCases }),
      presentPercent: fc.integer({ min: 0, max: 100 }),
      seed: fc.integer({ min: 1, max: 1e6 }),
      sets: fc.array(
        fc.array(pool, { maxLength: 5 }).map((ids) => (sorted ? [...new Set(ids)].sort((a, b) => a - b) : ids)),
        { minLength: 1, maxLength: 40 },
      ),
    });

  function runsOf(R: number, n: number, presentPercent: number, seed: number, sets: number[][]) {
    const rand = createPrng(seed, 8);
    const runs: RunJudgments[] = Array.from({ length: R }, () => {
      const present = Uint8Array.from({ length: n }, () => (rand.nextBelow(100) < presentPercent ? 1 : 0));
      return { present, judgment: Uint8Array.from(present, () => rand.nextBelow(2)) };
    });
    const ev = Array.from({ length: R }, () => Array.from({ length: n }, () => sets[rand.nextBelow(sets.length)]!));
    return { runs, ev };
  }

  /** computeSetCons from ranges, and from lists (the sums made in JavaScript), on the same runs. */
  function both(n: number, runs: RunJudgments[], ev: number[][][], seed: number) {
    const caseIds = Array.from({ length: n }, (_, i) => `c${i}`);
    const fromRanges = computeSetCons({ caseIds, runs, evidenceRanges: asRanges(ev, n, seed), flippedCap: 3 }) as SetConsResult;
    const fromLists = computeSetCons({ caseIds, runs, evidenceOf: (r, i) => ev[r]![i]!, flippedCap: 3 }) as SetConsResult;
    return { fromRanges, fromLists };
  }

  it("per case, equals the plain grouped sum bit for bit (few and many distinct sets, IDs past the packed and small-ID limits)", () => {
    const id = fc.oneof(
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom(4095, 4096, 8191, 8192, 2 ** 28, 2 ** 31 - 1, -1, -(2 ** 31)),
    );
    fc.assert(
      fc.property(shape(60, 30, id), ({ R, n, presentPercent, seed, sets }) => {
        const { runs, ev } = runsOf(R, n, presentPercent, seed, sets);
        const sums = evidencePairSums(judgmentColumns(runs, n), asRanges(ev, n, seed), { present: new Int32Array(n), positives: new Int32Array(n) });
        for (let i = 0; i < n; i++) {
          const present = ev.filter((_, r) => runs[r]!.present[i]).map((run) => run[i]!);
          expect(sums[i]).toBe(present.length >= 2 ? plainGroupedSum(present) : 0);
        }
        const { fromRanges, fromLists } = both(n, runs, ev, seed);
        expect(fromRanges).toEqual(fromLists);
      }),
      { numRuns: 120 },
    );
  });

  it("equals the JavaScript sums bit for bit on sets that are not strictly sorted (duplicates, any order)", () => {
    fc.assert(
      fc.property(shape(40, 20, fc.integer({ min: 0, max: 40 }), false), ({ R, n, presentPercent, seed, sets }) => {
        const { runs, ev } = runsOf(R, n, presentPercent, seed, sets);
        const { fromRanges, fromLists } = both(n, runs, ev, seed);
        expect(fromRanges).toEqual(fromLists);
      }),
      { numRuns: 80 },
    );
  });

  it("over several blocks of cases, with later cases holding more IDs than earlier ones", () => {
    // 500 runs: 65 cases a block; each case draws from sets twice as large as the one before.
    const R = 500;
    const n = 200;
    const rand = createPrng(4, 4);
    const runs = randomRuns(R, n, 3, 4);
    const ev = Array.from({ length: R }, () =>
      Array.from({ length: n }, (_, i) =>
        [...new Set(Array.from({ length: rand.nextBelow(2 + Math.floor(i / 20)) }, () => rand.nextBelow(40 + i)))].sort((a, b) => a - b),
      ),
    );
    const { fromRanges, fromLists } = both(n, runs, ev, 4);
    expect(fromRanges).toEqual(fromLists);
    const sums = evidencePairSums(judgmentColumns(runs, n), asRanges(ev, n, 4), { present: new Int32Array(n), positives: new Int32Array(n) });
    for (const i of [0, 64, 65, 130, 199]) expect(sums[i]).toBe(plainGroupedSum(ev.filter((_, r) => runs[r]!.present[i]).map((run) => run[i]!)));
  });
});
