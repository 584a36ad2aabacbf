import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { binaryMetrics, macroF1 } from "../../src/core/metrics/binary.js";
import { bootstrapMacroF1, outcomeCode, percentile } from "../../src/core/metrics/bootstrap.js";
import { createPrng } from "../../src/core/metrics/prng.js";
import { addOutcome, addOutcomeAt, emptyRunSums, mergeRunSums, RUN_SUM_FIELDS, runMetrics, RunSumsTable } from "../../src/core/metrics/run-sums.js";
import { spreadsOf, type Spread } from "../../src/core/metrics/spread.js";
import { wilsonInterval } from "../../src/core/metrics/wilson.js";
import type { CaseOutcome } from "../../src/core/metrics/case-outcome.js";
import { oracleResample } from "../core/metrics/bootstrap-oracle.js";

describe("wilson", () => {
  it("matches hand-computed values", () => {
    // p = 0.5, n = 10: centre 0.5, half = z·sqrt(0.025 + z²/400)/(1 + z²/10)
    const { low, high } = wilsonInterval(5, 10);
    expect(low).toBeCloseTo(0.236593, 6);
    expect(high).toBeCloseTo(0.763407, 6);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 0 });
    const all = wilsonInterval(20, 20);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.838875, 6);
  });
});

describe("binary metrics", () => {
  it("uses max(1, denominator) and mean of class F1", () => {
    const m = binaryMetrics({ tp: 1, fp: 1, fn: 1, tn: 0 });
    expect(m.positive_precision).toBe(0.5);
    expect(m.positive_f1).toBe(0.5);
    expect(m.negative_precision).toBe(0);
    expect(m.negative_f1).toBe(0);
    expect(m.macro_f1).toBe(0.25);
    expect(m.accuracy).toBeCloseTo(1 / 3, 15);
    expect(binaryMetrics({ tp: 0, fp: 0, fn: 0, tn: 0 }).accuracy).toBe(0);
  });
});

const outcome = (o: Partial<CaseOutcome>): CaseOutcome => ({
  label: false,
  judgment: false,
  formatValid: true,
  predictedCount: 0,
  matched: 0,
  goldCount: 0,
  referenceCoverage: 0,
  rewardAccuracy: 0,
  rewardFormat: 1,
  ...o,
});

describe("run sums", () => {
  it("computes localization metrics by hand", () => {
    const s = emptyRunSums();
    // gold {1}, predicted {1}: hit, exact, precision 1
    addOutcome(s, outcome({ label: true, judgment: true, predictedCount: 1, matched: 1, goldCount: 1, rewardAccuracy: 2 }));
    // gold {2}, predicted {2,3}: hit, not exact, precision 1/2
    addOutcome(s, outcome({ label: true, judgment: true, predictedCount: 2, matched: 1, goldCount: 1, rewardAccuracy: 2 }));
    // gold {1}, predicted negative: miss
    addOutcome(s, outcome({ label: true, judgment: false, goldCount: 1, formatValid: false, rewardFormat: 0 }));
    addOutcome(s, outcome({ label: false, judgment: false, rewardAccuracy: 1, referenceCoverage: 0.5 }));
    const m = runMetrics(s);
    expect(m.localization_recall).toBeCloseTo(2 / 3, 15);
    expect(m.localization_precision).toBe(0.75);
    expect(m.exact_localization).toBeCloseTo(1 / 3, 15);
    expect(m.format_valid_rate).toBe(0.75);
    expect(m.reward_accuracy_mean).toBe(1.25);
    expect(m.reference_coverage_mean).toBe(0.125);
    expect(m.accuracy).toBe(0.75);
    expect([m.tp, m.fp, m.fn, m.tn]).toEqual([2, 0, 1, 1]);
  });

  it("an empty population gives 0, and merging is adding", () => {
    const m = runMetrics(emptyRunSums());
    expect(m.localization_recall).toBe(0);
    expect(m.accuracy).toBe(0);
    const a = emptyRunSums();
    const b = emptyRunSums();
    addOutcome(a, outcome({ label: true, judgment: true, predictedCount: 1, matched: 1, goldCount: 1 }));
    addOutcome(b, outcome({ label: false, judgment: true }));
    mergeRunSums(a, b);
    expect([a.cases, a.tp, a.fp]).toEqual([2, 1, 1]);
  });
});

describe("spread", () => {
  /** The definition, one column at a time: the sum in order, then the squared deviations in order. */
  function columnSpread(values: ArrayLike<number>): Spread {
    if (values.length === 0) return { mean: 0, std: 0, min: 0, max: 0 };
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const mean = sum / values.length;
    let squares = 0;
    for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) * (values[i]! - mean);
    return { mean, std: Math.sqrt(squares / values.length), min, max };
  }
  const oneColumn = (values: readonly number[]) => spreadsOf(1, values.length, (i, row) => (row[0] = values[i]!))[0];

  it("population std, min, max", () => {
    expect(oneColumn([1, 3])).toEqual({ mean: 2, std: 1, min: 1, max: 3 });
    expect(oneColumn([])).toEqual({ mean: 0, std: 0, min: 0, max: 0 });
  });

  it("spreadsOf over rows gives each column's two-pass spread bit for bit", () => {
    const prng = createPrng(5, 0);
    const uniform = () => prng.nextUint32() / 2 ** 32;
    const columns = [0, 1, 2].map(() => Float64Array.from({ length: 257 }, () => uniform() / 3 + 1e-9));
    const spreads = spreadsOf(3, 257, (i, row) => columns.forEach((column, c) => (row[c] = column[i]!)));
    const means = spreadsOf(3, 257, (i, row) => columns.forEach((column, c) => (row[c] = column[i]!)), true);
    columns.forEach((column, c) => {
      const one = columnSpread(column);
      for (const key of ["mean", "std", "min", "max"] as const) expect(Object.is(spreads[c]![key], one[key])).toBe(true);
      expect(Object.is(means[c]!.mean, one.mean)).toBe(true);
    });
    expect(spreadsOf(2, 0, () => {})).toEqual([0, 1].map(() => ({ mean: 0, std: 0, min: 0, max: 0 })));
  });
});

describe("RunSumsTable", () => {
  // The dense table of many runs' sums must hold exactly what a float64 row holds, counts above
  // 65,535 included.
  it("adds outcomes into the same bits as a Float64Array row", () => {
    const prng = createPrng(9, 0);
    const uniform = () => prng.nextUint32() / 2 ** 32;
    for (const maxCount of [300, 70_000]) {
      // One run gets every outcome when they exceed what 16 bits count.
      const runs = maxCount > 0xffff ? 1 : 3;
      const table = new RunSumsTable(runs, maxCount);
      const rows = new Float64Array(runs * RUN_SUM_FIELDS.length);
      const block = new Float64Array(RUN_SUM_FIELDS.length);
      for (let k = 0; k < maxCount; k++) {
        const r = k % runs;
        const o: CaseOutcome = {
          label: uniform() < 0.5,
          judgment: uniform() < 0.5,
          formatValid: uniform() < 0.9,
          predictedCount: 1 + Math.floor(uniform() * 3),
          matched: Math.floor(uniform() * 2),
          goldCount: 2,
          referenceCoverage: uniform(),
          rewardAccuracy: uniform() / 7,
          rewardFormat: uniform() < 0.9 ? 1 : 0,
        };
        addOutcomeAt(rows, r * RUN_SUM_FIELDS.length, o);
        block.fill(0);
        addOutcomeAt(block, 0, o);
        table.add(r, block);
      }
      const loaded = new Float64Array(RUN_SUM_FIELDS.length);
      for (let r = 0; r < runs; r++) {
        table.load(r, loaded);
        RUN_SUM_FIELDS.forEach((_, f) => expect(Object.is(loaded[f], rows[r * RUN_SUM_FIELDS.length + f])).toBe(true));
      }
      table.store(runs - 1, loaded);
      table.load(runs - 1, block);
      expect([...block]).toEqual([...loaded]);
    }
  });
});

describe("bootstrap", () => {
  it("percentile interpolates linearly", () => {
    expect(percentile([0, 10], 0.25)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 0.5)).toBe(3);
  });

  it("PRNG streams are reproducible and unbiased in range", () => {
    const a = createPrng(7, 3);
    const b = createPrng(7, 3);
    for (let i = 0; i < 100; i++) expect(a.nextBelow(891)).toBe(b.nextBelow(891));
    const p = createPrng(0, 0);
    for (let i = 0; i < 1000; i++) {
      const x = p.nextBelow(5);
      expect(x >= 0 && x < 5).toBe(true);
    }
  });

  it("is deterministic, brackets the point estimate, and degenerate on a perfect run", () => {
    const labels = Uint8Array.from([1, 1, 0, 0, 1, 0, 1, 0]);
    const perfect = Uint8Array.from(labels, (l) => outcomeCode(l === 1, l === 1));
    const ci = bootstrapMacroF1(labels, [perfect], 0, 200);
    expect(ci).toMatchObject({ low: 1, high: 1, seed: 0, resamples: 200, n: 8 });
    const noisy = Uint8Array.from([3, 2, 0, 1, 3, 0, 3, 0]);
    const one = bootstrapMacroF1(labels, [noisy], 5, 300);
    const two = bootstrapMacroF1(labels, [noisy], 5, 300);
    expect(one).toEqual(two);
    const point = macroF1({ tp: 3, fp: 1, fn: 1, tn: 3 });
    expect(one.low).toBeLessThanOrEqual(point);
    expect(one.high).toBeGreaterThanOrEqual(point);
  });

  it("with identical runs equals the single-run interval", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 30 }), (pairs) => {
        const labels = Uint8Array.from(pairs, ([l]) => (l ? 1 : 0));
        const codes = Uint8Array.from(pairs, ([l, j]) => outcomeCode(l, j));
        const single = bootstrapMacroF1(labels, [codes], 1, 50);
        const double = bootstrapMacroF1(labels, [codes, codes], 1, 50);
        expect(double.low).toBeCloseTo(single.low, 12);
        expect(double.high).toBeCloseTo(single.high, 12);
      }),
      { numRuns: 30 },
    );
  });
});

describe("packed bootstrap accumulators", () => {
  it("equal the plain per-run counters, bit for bit", async () => {
    const { bootstrapMacroF1Values, bootstrapUnpacked, signatureTable } = await import("../../src/core/metrics/bootstrap.js");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 30 }), fc.integer(), (n, runs, seed) => {
        const labels = Uint8Array.from({ length: n }, (_, i) => (((i * 7 + seed) >>> 0) % 3 === 0 ? 1 : 0));
        const codes = Uint8Array.from({ length: n * runs }, (_, k) => labels[k % n]! * 2 + (((k * 13 + seed) >>> 0) % 5 < 2 ? 1 : 0));
        const packed = Array.from(bootstrapMacroF1Values(labels, codes, runs, seed, 3, 23));
        expect(packed).toEqual(Array.from(bootstrapUnpacked(signatureTable(labels, codes, runs), n, seed, 3, 23)));
        packed.forEach((value, k) => expect(value).toBeCloseTo(oracleResample(labels, codes, runs, seed, 3 + k), 12));
      }),
      { numRuns: 40 },
    );
  });

  /**
   * Random outcomes, judged right with probability `right` / 10, drawn from the bootstrap's own
   * generator: the packed values must equal the plain counters' over resamples 0 … 9.
   */
  async function agreesOnRandomOutcomes(n: number, runs: number, seed: number, right: number): Promise<void> {
    const { bootstrapMacroF1Values, bootstrapUnpacked, signatureTable } = await import("../../src/core/metrics/bootstrap.js");
    const { createPrng } = await import("../../src/core/metrics/prng.js");
    const rand = createPrng(seed, 7);
    const labels = Uint8Array.from({ length: n }, () => rand.nextBelow(2));
    const codes = Uint8Array.from({ length: n * runs }, (_, k) => labels[k % n]! * 2 + (rand.nextBelow(10) < right ? labels[k % n]! : 1 - labels[k % n]!));
    const packed = Array.from(bootstrapMacroF1Values(labels, codes, runs, seed, 0, 10));
    expect(packed).toEqual(Array.from(bootstrapUnpacked(signatureTable(labels, codes, runs), n, seed, 0, 10)));
  }

  it("equal the plain per-run counters on random outcomes with many signature groups (subset blocks, weights of several bits)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 12 }), fc.integer(), (n, runs, seed) =>
        agreesOnRandomOutcomes(n, runs, seed, 5),
      ),
      { numRuns: 40 },
    );
  });

  it("equal the plain per-run counters when groups are few and drawn tens of times each (8 samples a document, as GRPO writes)", async () => {
    // 2,048–3,000 cases and at most 8 runs: at most 2^9 signature groups, each drawn 4 times or more on average.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2048, max: 3000 }), fc.integer({ min: 1, max: 8 }), fc.integer(), (n, runs, seed) =>
        agreesOnRandomOutcomes(n, runs, seed, 7),
      ),
      { numRuns: 12 },
    );
  });

  it("stay exact at field boundaries (n around powers of two, every case judged positive, many runs per float)", async () => {
    const { bootstrapMacroF1Values, bootstrapUnpacked, signatureTable } = await import("../../src/core/metrics/bootstrap.js");
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3, 4, 7, 8, 15, 16, 255, 256, 1023, 1024), fc.integer({ min: 1, max: 70 }), fc.integer(), (n, runs, seed) => {
        const labels = Uint8Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 0));
        const codes = Uint8Array.from({ length: n * runs }, (_, k) => labels[k % n]! * 2 + 1);
        const packed = Array.from(bootstrapMacroF1Values(labels, codes, runs, seed, 0, 5));
        expect(packed).toEqual(Array.from(bootstrapUnpacked(signatureTable(labels, codes, runs), n, seed, 0, 5)));
        packed.forEach((value, k) => expect(value).toBeCloseTo(oracleResample(labels, codes, runs, seed, k), 12));
      }),
      { numRuns: 30 },
    );
  });
});
