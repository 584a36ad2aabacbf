// pairedComparison against the naive reference of paired-oracle.ts on random inputs whose sides
// have different runs and different cases; and the property that a --max-drop decision never
// ignores a case present on both sides.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateGates } from "../../src/gates/evaluate.js";
import { pairedComparison } from "../../src/gates/paired.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";
import type { Report } from "../../src/report/types.js";
import { expectMatchesNaive, naivePairedComparison } from "./paired-oracle.js";

const CLASSES = ["positive", "negative"];

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
        const opts = { seed, resamples: 20, classes: CLASSES };
        expectMatchesNaive(pairedComparison(current, baseline, opts), naivePairedComparison(current, baseline, opts));
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
