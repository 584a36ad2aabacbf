import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { binomial, multinomialCounts } from "../../../src/core/metrics/binomial.js";
import { bootstrapMacroF1, percentile, percentileInterval } from "../../../src/core/metrics/bootstrap.js";
import { createPrng } from "../../../src/core/metrics/prng.js";
import { oracleInterval } from "./bootstrap-oracle.js";

/** log x!: a sum of logs below 30, else Stirling's series (error < 1e-13). */
function logFactorial(x: number): number {
  if (x < 30) {
    let s = 0;
    for (let i = 2; i <= x; i++) s += Math.log(i);
    return s;
  }
  const y = x + 1;
  return (y - 0.5) * Math.log(y) - y + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * y) - 1 / (360 * y ** 3) + 1 / (1260 * y ** 5);
}

/** log C(N, k) p^k (1-p)^(N-k). */
function logPmf(N: number, k: number, p: number): number {
  return logFactorial(N) - logFactorial(k) - logFactorial(N - k) + k * Math.log(p) + (N - k) * Math.log1p(-p);
}

/**
 * Pearson's chi-square of `draws` samples against the exact pmf, cells with expected count < 5
 * pooled into their neighbour; returns the statistic and degrees of freedom.
 */
function chiSquare(observed: Map<number, number>, expected: (k: number) => number, support: number[], draws: number) {
  let stat = 0;
  let cells = 0;
  let o = 0;
  let e = 0;
  for (const k of support) {
    o += observed.get(k) ?? 0;
    e += expected(k) * draws;
    if (e >= 5) {
      stat += ((o - e) * (o - e)) / e;
      cells++;
      o = 0;
      e = 0;
    }
  }
  if (e > 0) stat += ((o - e) * (o - e)) / Math.max(e, 1e-9);
  return { stat, df: cells - 1 };
}

/** Upper 0.1% point of chi-square with df degrees of freedom (Wilson–Hilferty). */
function chiSquareCritical(df: number): number {
  const z = 3.090232306167813;
  return df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
}

describe("binomial sampler", () => {
  // (N, part, whole): inversion (N·p < 10), rejection (N·p ≥ 10), p > ½ by symmetry, a huge N.
  const cases: [number, number, number][] = [
    [20, 1, 10],
    [37_500, 1, 10_000],
    [1_000, 3, 10],
    [37_500, 512, 1024],
    [300, 9, 10],
    [50, 1, 2],
    [2_000_000, 1, 3],
  ];
  for (const [N, part, whole] of cases) {
    it(`matches the exact pmf of Bin(${N}, ${part}/${whole}) (chi-square, 20,000 seeded draws)`, () => {
      const p = part / whole;
      const prng = createPrng(11, N + part);
      const draws = 20_000;
      const observed = new Map<number, number>();
      let sum = 0;
      for (let t = 0; t < draws; t++) {
        const k = binomial(prng, N, part, whole);
        expect(Number.isInteger(k) && k >= 0 && k <= N).toBe(true);
        observed.set(k, (observed.get(k) ?? 0) + 1);
        sum += k;
      }
      const mean = N * p;
      const sd = Math.sqrt(N * p * (1 - p));
      const lo = Math.max(0, Math.floor(mean - 8 * sd - 2));
      const hi = Math.min(N, Math.ceil(mean + 8 * sd + 2));
      const support = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
      const { stat, df } = chiSquare(observed, (k) => Math.exp(logPmf(N, k, p)), support, draws);
      expect(df).toBeGreaterThan(0);
      expect(stat).toBeLessThan(chiSquareCritical(df));
      expect(Math.abs(sum / draws - mean)).toBeLessThan((5 * sd) / Math.sqrt(draws) + 1e-9);
    });
  }

  it("handles the edges: p = 0, p = 1, N = 0", () => {
    const prng = createPrng(1, 2);
    expect(binomial(prng, 10, 0, 5)).toBe(0);
    expect(binomial(prng, 10, 5, 5)).toBe(10);
    expect(binomial(prng, 0, 2, 5)).toBe(0);
  });
});

describe("multinomial counts of signature groups", () => {
  it("have the distribution of n case draws with replacement (exact probabilities of every outcome, chi-square)", () => {
    // 4 cases in groups of sizes 1, 2, 1: 15 possible count vectors.
    const sizes = [1, 2, 1];
    const n = 4;
    const draws = 30_000;
    const observed = new Map<string, number>();
    const counts = new Float64Array(3);
    const drawn = new Int32Array(3);
    for (let b = 0; b < draws; b++) {
      counts.fill(0);
      const distinct = multinomialCounts(createPrng(3, b), sizes, n, counts, drawn);
      expect(counts.reduce((s, x) => s + x, 0)).toBe(n);
      expect(Array.from(drawn.subarray(0, distinct))).toEqual([0, 1, 2].filter((g) => counts[g]! > 0));
      const key = Array.from(counts).join(",");
      observed.set(key, (observed.get(key) ?? 0) + 1);
    }
    // Exact: enumerate the 4^4 sequences of case draws.
    const exact = new Map<string, number>();
    const groupOfCase = [0, 1, 1, 2];
    for (let s = 0; s < 256; s++) {
      const c = [0, 0, 0];
      for (let d = 0, x = s; d < 4; d++, x >>= 2) c[groupOfCase[x & 3]!]!++;
      exact.set(c.join(","), (exact.get(c.join(",")) ?? 0) + 1 / 256);
    }
    const keys = [...exact.keys()].sort();
    const index = new Map(keys.map((k, i) => [i, k]));
    const obs = new Map(keys.map((k, i) => [i, observed.get(k) ?? 0]));
    expect([...observed.keys()].every((k) => exact.has(k))).toBe(true);
    const { stat, df } = chiSquare(
      obs,
      (i) => exact.get(index.get(i)!)!,
      keys.map((_, i) => i),
      draws,
    );
    expect(stat).toBeLessThan(chiSquareCritical(df));
  });
});

describe("percentile rule", () => {
  it("interpolates linearly between order statistics (numpy's default), at 2.5% and 97.5%", () => {
    // h = (5 − 1)·q: q = 0.025 → 0.1, q = 0.975 → 3.9.
    expect(percentile([0, 10, 20, 30, 40], 0.025)).toBeCloseTo(1, 12);
    expect(percentile([0, 10, 20, 30, 40], 0.975)).toBeCloseTo(39, 12);
    expect(percentile([0, 10, 20, 30, 40], 0.5)).toBe(20);
    // B = 1000 values 0 … 999, unsorted: h = 999 · 0.025 = 24.975 and 999 · 0.975 = 974.025.
    const values = Float64Array.from({ length: 1000 }, (_, i) => (i * 617) % 1000);
    const ci = percentileInterval(values, 0, 1000, 5);
    expect(ci.low).toBeCloseTo(24.975, 9);
    expect(ci.high).toBeCloseTo(974.025, 9);
  });
});

describe("bootstrap interval of small slices", () => {
  it("equals a plain loop over the same resample draws, with its own grouping, macro-F1 and percentiles", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, R, seed, salt) => {
          const rand = createPrng(salt, 99);
          const labels = Uint8Array.from({ length: n }, () => rand.nextBelow(2));
          const runs = Array.from({ length: R }, () => Uint8Array.from(labels, (l) => l * 2 + rand.nextBelow(2)));
          const codes = new Uint8Array(n * R);
          runs.forEach((run, r) => codes.set(run, r * n));
          const ci = bootstrapMacroF1(labels, runs, seed, 200);
          const expected = oracleInterval(labels, codes, R, seed, 200);
          expect(ci.low).toBeCloseTo(expected.low, 12);
          expect(ci.high).toBeCloseTo(expected.high, 12);
          expect(ci.low).toBeLessThanOrEqual(ci.high);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("is the interval of the resampled headline: a wide one on a tiny noisy slice", () => {
    const labels = Uint8Array.from([1, 0, 1, 0, 1, 1, 0, 0, 1, 0]);
    const run = Uint8Array.from([3, 0, 2, 1, 3, 3, 0, 1, 3, 0]);
    const ci = bootstrapMacroF1(labels, [run], 0, 1000);
    const expected = oracleInterval(labels, run, 1, 0, 1000);
    expect(ci.low).toBeCloseTo(expected.low, 12);
    expect(ci.high).toBeCloseTo(expected.high, 12);
    expect(ci.high - ci.low).toBeGreaterThan(0.2);
  });
});
