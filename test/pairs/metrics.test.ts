import { describe, expect, it } from "vitest";
import {
  addPair,
  costMatrix,
  DEFAULT_UNIT_PRICES,
  emptyTally,
  mergeTallies,
  pairMetrics,
  pairMetricsByKind,
  PAIR_HEADLINE_METRICS,
  revisionCostDetail,
  type Confusion,
  type RevisionClass,
} from "../../src/core/pairs/index.js";

// The reference classifier's bench table (docs/classifier.md), rows gold, columns predicted.
const BENCH: Confusion = {
  restatement: { restatement: 34, update: 0, distinct: 2 },
  update: { restatement: 6, update: 29, distinct: 1 },
  distinct: { restatement: 3, update: 1, distinct: 32 },
};

describe("pair metrics", () => {
  it("match hand-computed values on the reference bench matrix", () => {
    const m = pairMetrics(BENCH, costMatrix(DEFAULT_UNIT_PRICES));
    // cost: rest→dist 2×1 + upd→rest 6×2 + upd→dist 1×1 + dist→rest 3×1 + dist→upd 1×2 = 20
    expect(m.revision_cost_total).toBe(20);
    expect(m.revision_cost).toBe(20 / 108);
    expect(m.accuracy).toBe(95 / 108);
    expect(m.update_precision).toBe(29 / 30);
    expect(m.update_recall).toBe(29 / 36);
    expect(m.restatement_precision).toBe(34 / 43);
    expect(m.restatement_recall).toBe(34 / 36);
    expect(m.distinct_precision).toBe(32 / 35);
    expect(m.distinct_recall).toBe(32 / 36);
    expect(m.restatement_to_update).toBe(0);
    expect(m.restatement_to_update_rate).toBe(0);
    expect(m.distinct_to_update).toBe(1);
    expect(m.distinct_to_update_rate).toBe(1 / 36);
    const f1 = (p: number, r: number) => (2 * p * r) / (p + r);
    expect(m.update_f1).toBeCloseTo(f1(29 / 30, 29 / 36), 15);
    const macro = (f1(34 / 43, 34 / 36) + f1(29 / 30, 29 / 36) + f1(32 / 35, 32 / 36)) / 3;
    expect(m.macro_f1).toBeCloseTo(macro, 15);
  });

  it("has exactly the docs/comparable-reports.md keys plus per-class precision/recall/F1", () => {
    const m = pairMetrics(BENCH, costMatrix(DEFAULT_UNIT_PRICES));
    const perClass = ["restatement", "update", "distinct"].flatMap((c) => [`${c}_precision`, `${c}_recall`, `${c}_f1`]);
    expect(new Set(Object.keys(m))).toEqual(new Set([...PAIR_HEADLINE_METRICS, ...perClass]));
  });

  it("uses max(1, denominator) and 0 for empty populations", () => {
    const tally = emptyTally();
    addPair(tally, "restatement", "update", null);
    const m = pairMetrics(tally.confusion, costMatrix(DEFAULT_UNIT_PRICES));
    expect(m.update_precision).toBe(0); // 0 / 1
    expect(m.update_recall).toBe(0); // no gold updates: 0 / max(1, 0)
    expect(m.update_f1).toBe(0);
    expect(m.distinct_to_update_rate).toBe(0); // no gold distincts
    expect(m.restatement_to_update).toBe(1);
    expect(m.restatement_to_update_rate).toBe(1);
    expect(m.revision_cost).toBe(3);
    const empty = pairMetrics(emptyTally().confusion, costMatrix(DEFAULT_UNIT_PRICES));
    expect(empty.revision_cost).toBe(0);
    expect(empty.accuracy).toBe(0);
    expect(empty.macro_f1).toBe(0);
  });

  it("splits update precision and recall by kind", () => {
    const tally = emptyTally();
    const add = (gold: RevisionClass, pred: RevisionClass, kind: string | null) => addPair(tally, gold, pred, kind);
    add("update", "update", "value");
    add("update", "distinct", "value");
    add("update", "update", "polarity");
    add("restatement", "update", "value");
    add("distinct", "distinct", null);
    addPair(tally, null, "update", "value"); // unlabelled: not scored
    const byKind = pairMetricsByKind(tally, costMatrix(DEFAULT_UNIT_PRICES));
    expect(Object.keys(byKind)).toEqual(["polarity", "value"]);
    expect(byKind.value!.pairs).toBe(3);
    expect([byKind.value!.updates, byKind.value!.updates_detected, byKind.value!.restatement_to_update]).toEqual([2, 1, 1]);
    expect(byKind.value!.update_recall).toBe(1 / 2);
    expect(byKind.value!.update_precision).toBe(1 / 2);
    expect(byKind.polarity!.update_recall).toBe(1);
    expect(tally.unlabelled).toBe(1);
    const overall = pairMetrics(tally.confusion, costMatrix(DEFAULT_UNIT_PRICES));
    expect(overall.update_recall).toBe(2 / 3);
    expect(overall.update_precision).toBe(2 / 3);
  });

  it("merges tallies by addition, whatever the split", () => {
    const pairs: [RevisionClass, RevisionClass, string | null][] = [
      ["update", "update", "value"],
      ["restatement", "distinct", "value"],
      ["distinct", "update", null],
      ["update", "restatement", "polarity"],
      ["restatement", "restatement", "__proto__"],
    ];
    const whole = emptyTally();
    for (const p of pairs) addPair(whole, ...p);
    for (let cut = 0; cut <= pairs.length; cut++) {
      const a = emptyTally();
      const b = emptyTally();
      pairs.forEach((p, i) => addPair(i < cut ? a : b, ...p));
      expect(mergeTallies(a, b)).toEqual(whole);
    }
    expect(Object.keys(whole.byKind).sort()).toEqual(["__proto__", "polarity", "value"]);
  });
});

describe("RevisionCost detail", () => {
  it("prices every cell as the RevisionCost table of docs/pairs.md lists", () => {
    const one: Confusion = {
      restatement: { restatement: 1, update: 1, distinct: 1 },
      update: { restatement: 1, update: 1, distinct: 1 },
      distinct: { restatement: 1, update: 1, distinct: 1 },
    };
    const detail = revisionCostDetail(one, DEFAULT_UNIT_PRICES);
    const cost = Object.fromEntries(detail.cells.map((c) => [`${c.gold}>${c.predicted}`, c.unit_cost]));
    expect(cost).toEqual({
      "restatement>restatement": 0,
      "restatement>update": 3,
      "restatement>distinct": 1,
      "update>restatement": 2,
      "update>update": 0,
      "update>distinct": 1,
      "distinct>restatement": 1,
      "distinct>update": 2,
      "distinct>distinct": 0,
    });
    expect(detail.total).toBe(10);
    expect(detail.labelled_pairs).toBe(9);
    expect(detail.mean).toBe(10 / 9);
  });

  it("builds each cell from the unit prices it incurs", () => {
    const prices = { downrank_live: 1000, lost_corroboration: 100, stale_kept: 10, false_corroboration: 1 };
    const m = costMatrix(prices);
    expect(m.restatement.update).toBe(1100);
    expect(m.restatement.distinct).toBe(100);
    expect(m.update.restatement).toBe(11);
    expect(m.update.distinct).toBe(10);
    expect(m.distinct.update).toBe(1000);
    expect(m.distinct.restatement).toBe(1);
    expect([m.restatement.restatement, m.update.update, m.distinct.distinct]).toEqual([0, 0, 0]);
    const detail = revisionCostDetail(BENCH, prices);
    const cell = detail.cells.find((c) => c.gold === "update" && c.predicted === "restatement")!;
    expect(cell).toEqual({ gold: "update", predicted: "restatement", count: 6, unit_cost: 11, cost: 66 });
    expect(detail.total).toBe(100 * 2 + 11 * 6 + 10 * 1 + 1 * 3 + 1000 * 1);
  });
});
