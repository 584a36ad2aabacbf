// pairedComparison against a deliberately naive reference (per-run loops over (case, run) units,
// the same PRNG streams), on random inputs: complete grids (the per-case fast path) and ragged
// ones (the per-unit path) must both agree with it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPrng } from "../../src/core/metrics/prng.js";
import { percentile } from "../../src/core/metrics/bootstrap.js";
import { pairedComparison, type PairedOutcome } from "../../src/gates/paired.js";

const CLASSES = ["positive", "negative"];

function naiveMetrics(units: Array<{ caseId: string; run: string; o: PairedOutcome }>, weightOf: (caseId: string) => number, runs: string[], valueNames: string[]): number[] {
  let accuracy = 0;
  let macro = 0;
  const valueMeans = valueNames.map(() => 0);
  for (const run of runs) {
    const inRun = units.filter((u) => u.run === run);
    let total = 0;
    let correct = 0;
    let f1Sum = 0;
    for (const c of CLASSES) {
      let tp = 0;
      let goldC = 0;
      let predC = 0;
      for (const u of inRun) {
        const w = weightOf(u.caseId);
        if (u.o.gold === c) goldC += w;
        if (u.o.predicted === c) predC += w;
        if (u.o.gold === c && u.o.predicted === c) tp += w;
      }
      const p = tp / Math.max(1, predC);
      const r = tp / Math.max(1, goldC);
      f1Sum += p + r > 0 ? (2 * p * r) / (p + r) : 0;
      correct += tp;
      total += goldC;
    }
    accuracy += total > 0 ? correct / total : 0;
    macro += f1Sum / CLASSES.length;
    valueNames.forEach((name, m) => {
      let sum = 0;
      let count = 0;
      for (const u of inRun) {
        const v = u.o.values?.[name];
        if (typeof v === "number") {
          sum += weightOf(u.caseId) * v;
          count += weightOf(u.caseId);
        }
      }
      valueMeans[m]! += count > 0 ? sum / count : 0;
    });
  }
  return [accuracy / runs.length, macro / runs.length, ...valueMeans.map((v) => v / runs.length)];
}

const outcomeArb = fc.record({
  gold: fc.constantFrom(...CLASSES),
  predicted: fc.constantFrom(...CLASSES),
  hit: fc.option(fc.constantFrom(0, 1, 0.5), { nil: undefined }),
});

describe("pairedComparison agrees with a naive reference", () => {
  it("on random complete and ragged inputs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 3 }),
        fc.array(fc.tuple(outcomeArb, outcomeArb, fc.boolean()), { minLength: 18, maxLength: 18 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 1000 }),
        (cases, runCount, cells, ragged, caseLevelValues, seed) => {
          const current: PairedOutcome[] = [];
          const baseline: PairedOutcome[] = [];
          const runs = Array.from({ length: runCount }, (_, r) => String(r));
          let k = 0;
          for (const run of runs) {
            for (let i = 0; i < cases; i++) {
              const [a, b, keep] = cells[k++ % cells.length]!;
              if (ragged && !keep && !(i === 0 && run === "0")) continue;
              // Case-level definedness (the fast path) or unit-level (the general path).
              const define = (x: typeof a) => (caseLevelValues ? (i % 2 === 0 ? { hit: x.hit ?? 1 } : {}) : x.hit === undefined ? {} : { hit: x.hit });
              current.push({ case_id: `c${i}`, run, gold: a.gold, predicted: a.predicted, values: define(a) });
              baseline.push({ case_id: `c${i}`, run, gold: a.gold, predicted: b.predicted, values: define(b) });
            }
          }
          const resamples = 25;
          const result = pairedComparison(current, baseline, { seed, resamples, classes: CLASSES });
          const valueNames = "hit" in result.metrics ? ["hit"] : [];
          const units = current.map((o, j) => ({ caseId: o.case_id, run: o.run, cur: o, base: baseline[j]! }));
          const usedRuns = runs.filter((run) => units.some((u) => u.run === run));
          const caseIds = [...new Set(units.map((u) => u.caseId))];
          const side = (which: "cur" | "base", weightOf: (id: string) => number) =>
            naiveMetrics(units.map((u) => ({ caseId: u.caseId, run: u.run, o: u[which] })), weightOf, usedRuns, valueNames);
          const names = ["accuracy", "macro_f1", ...valueNames];
          const pointCur = side("cur", () => 1);
          const pointBase = side("base", () => 1);
          const draws = names.map(() => [] as number[]);
          for (let b = 0; b < resamples; b++) {
            const prng = createPrng(seed, b);
            const weights = new Map<string, number>();
            for (let j = 0; j < caseIds.length; j++) {
              const id = caseIds[prng.nextBelow(caseIds.length)]!;
              weights.set(id, (weights.get(id) ?? 0) + 1);
            }
            const w = (id: string) => weights.get(id) ?? 0;
            const c = side("cur", w);
            const s = side("base", w);
            names.forEach((_, m) => draws[m]!.push(c[m]! - s[m]!));
          }
          names.forEach((name, m) => {
            const got = result.metrics[name]!;
            expect(got.current).toBeCloseTo(pointCur[m]!, 9);
            expect(got.baseline).toBeCloseTo(pointBase[m]!, 9);
            const sorted = draws[m]!.sort((x, y) => x - y);
            expect(got.low).toBeCloseTo(percentile(sorted, 0.025), 9);
            expect(got.high).toBeCloseTo(percentile(sorted, 0.975), 9);
          });
        },
      ),
      { numRuns: 150, seed: 42 },
    );
  });
});
