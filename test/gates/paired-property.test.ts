// pairedComparison against a deliberately naive reference (per-case means written out as loops
// over cases, the same PRNG streams) on random inputs whose sides have different runs and
// different cases; and the property that a --max-drop decision never ignores a case present on
// both sides (issue 10 item 2).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPrng } from "../../src/core/metrics/prng.js";
import { percentile } from "../../src/core/metrics/bootstrap.js";
import { evaluateGates } from "../../src/gates/evaluate.js";
import { pairedComparison } from "../../src/gates/paired.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";
import type { Report } from "../../src/report/types.js";

const CLASSES = ["positive", "negative"];

/** Per case: [share right, share predicting each class, gold, mean hit or undefined]. */
function naiveCase(units: PairedOutcome[]) {
  const right = units.filter((u) => u.gold === u.predicted).length / units.length;
  const share = CLASSES.map((c) => units.filter((u) => u.predicted === c).length / units.length);
  const hits = units.map((u) => u.values?.["hit"]).filter((v): v is number => typeof v === "number");
  return { right, share, gold: units[0]!.gold, hit: hits.length > 0 ? hits.reduce((a, b) => a + b, 0) / hits.length : undefined };
}

function naiveMetrics(cases: ReturnType<typeof naiveCase>[], weights: number[], withHit: boolean): number[] {
  let total = 0;
  let right = 0;
  const confusion = CLASSES.map(() => CLASSES.map(() => 0));
  let hitSum = 0;
  let hitN = 0;
  cases.forEach((c, i) => {
    const w = weights[i]!;
    total += w;
    right += w * c.right;
    CLASSES.forEach((_, p) => (confusion[CLASSES.indexOf(c.gold)]![p]! += w * c.share[p]!));
    if (c.hit !== undefined) {
      hitSum += w * c.hit;
      hitN += w;
    }
  });
  let f1Sum = 0;
  CLASSES.forEach((_, k) => {
    const tp = confusion[k]![k]!;
    const gold = confusion[k]!.reduce((a, b) => a + b, 0);
    const pred = confusion.reduce((a, row) => a + row[k]!, 0);
    const p = pred > 0 ? tp / pred : 0;
    const r = gold > 0 ? tp / gold : 0;
    f1Sum += p + r > 0 ? (2 * p * r) / (p + r) : 0;
  });
  return [total > 0 ? right / total : 0, f1Sum / CLASSES.length, ...(withHit ? [hitN > 0 ? hitSum / hitN : 0] : [])];
}

const unitArb = fc.record({
  gold: fc.constantFrom(...CLASSES),
  predicted: fc.constantFrom(...CLASSES),
  hit: fc.option(fc.constantFrom(0, 1), { nil: undefined }),
});

/** A side: for each of `cases` case ids, present or not, with 1–4 runs of its own run keys. */
const sideArb = (prefix: string) =>
  fc.array(fc.option(fc.array(unitArb, { minLength: 1, maxLength: 4 }), { nil: null }), { minLength: 1, maxLength: 14 }).map((cases) => {
    const out: PairedOutcome[] = [];
    cases.forEach((units, i) => {
      if (units === null) return;
      units.forEach((u, r) => {
        // The gold class is the case's, whatever side or run.
        const gold = CLASSES[i % 2]!;
        out.push({
          case_id: `c${i}`,
          run: `${prefix}${r}`,
          gold,
          predicted: u.predicted,
          values: u.hit === undefined || gold !== "positive" ? {} : { hit: u.hit },
        });
      });
    });
    return out;
  });

describe("pairedComparison agrees with a naive per-case-mean reference", () => {
  it("on random sides with different runs and cases", () => {
    fc.assert(
      fc.property(sideArb("r"), sideArb("b"), fc.integer({ min: 0, max: 1000 }), (current, baseline, seed) => {
        const resamples = 20;
        const result = pairedComparison(current, baseline, { seed, resamples, classes: CLASSES });
        const ids = [...new Set(current.map((o) => o.case_id))].filter((id) => baseline.some((o) => o.case_id === id));
        expect(result.matched_cases).toBe(ids.length);
        const side = (list: PairedOutcome[]) => ids.map((id) => naiveCase(list.filter((o) => o.case_id === id)));
        const cur = side(current);
        const base = side(baseline);
        const withHit = "hit" in result.metrics;
        const names = ["accuracy", "macro_f1", ...(withHit ? ["hit"] : [])];
        const ones = ids.map(() => 1);
        const draws = names.map(() => [] as number[]);
        for (let b = 0; b < resamples && ids.length > 0; b++) {
          const prng = createPrng(seed, b);
          const w = ids.map(() => 0);
          for (let j = 0; j < ids.length; j++) w[prng.nextBelow(ids.length)]!++;
          const c = naiveMetrics(cur, w, withHit);
          const s = naiveMetrics(base, w, withHit);
          names.forEach((_, m) => draws[m]!.push(c[m]! - s[m]!));
        }
        names.forEach((name, m) => {
          const got = result.metrics[name]!;
          expect(got.current).toBeCloseTo(naiveMetrics(cur, ones, withHit)[m]!, 9);
          expect(got.baseline).toBeCloseTo(naiveMetrics(base, ones, withHit)[m]!, 9);
          if (ids.length > 0) {
            const sorted = draws[m]!.sort((x, y) => x - y);
            expect(got.low).toBeCloseTo(percentile(sorted, 0.025), 9);
            expect(got.high).toBeCloseTo(percentile(sorted, 0.975), 9);
          }
        });
        // McNemar on cases, right = strict majority of a side's runs.
        let baselineOnly = 0;
        let currentOnly = 0;
        ids.forEach((_, i) => {
          if (base[i]!.right > 0.5 && !(cur[i]!.right > 0.5)) baselineOnly++;
          if (cur[i]!.right > 0.5 && !(base[i]!.right > 0.5)) currentOnly++;
        });
        expect(result.mcnemar).toMatchObject({ baseline_only: baselineOnly, current_only: currentOnly });
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe("a --max-drop decision never ignores a case present on both sides", () => {
  it("flipping any shared case's outcome on either side moves the compared accuracy", () => {
    fc.assert(
      fc.property(sideArb("r"), sideArb("b"), fc.nat(), fc.boolean(), (current, baseline, pick, onCurrent) => {
        const before = pairedComparison(current, baseline, { seed: 0, resamples: 0, classes: CLASSES });
        const ids = [...new Set(current.map((o) => o.case_id))].filter((id) => baseline.some((o) => o.case_id === id));
        if (ids.length === 0) {
          expect(before.matched_cases).toBe(0);
          return;
        }
        const id = ids[pick % ids.length]!;
        // Make every run of that case on one side wrong if any was right, else all right.
        const side = onCurrent ? current : baseline;
        const anyRight = side.some((o) => o.case_id === id && o.gold === o.predicted);
        const flip = (o: PairedOutcome): PairedOutcome => (o.case_id !== id ? o : { ...o, predicted: anyRight ? CLASSES.find((c) => c !== o.gold)! : o.gold });
        const after = onCurrent
          ? pairedComparison(current.map(flip), baseline, { seed: 0, resamples: 0, classes: CLASSES })
          : pairedComparison(current, baseline.map(flip), { seed: 0, resamples: 0, classes: CLASSES });
        const which = onCurrent ? "current" : "baseline";
        expect(after.metrics.accuracy![which]).not.toBeCloseTo(before.metrics.accuracy![which], 12);
        // And the gate built on it names every shared case it was decided on.
        const report = { metrics: {}, baseline: before } as unknown as Report;
        const [gate] = evaluateGates(report, [{ kind: "max_drop", metric: "accuracy", threshold: 0.01, source: "cli" }]);
        expect(gate!.detail).toContain(`paired on ${ids.length} cases`);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
