// Parity with the reference classifier on its own labelled corpus (docs/classifier.md),
// read from ../shared, which exists on development machines only.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { classify, DEFAULT_CONFIG, type ClassifierConfig, type RevisionClass } from "../../src/core/classifier/index.js";
import { ROOT } from "../support/cli.js";

const REFERENCE_PAIRS = join(ROOT, "../shared/datasets/memory-pairs/reference-pairs.jsonl");
const available = existsSync(REFERENCE_PAIRS);
if (!available) console.warn(`skipping reference parity: ${REFERENCE_PAIRS} is absent (../shared is a development-only folder)`);

interface ReferenceRow {
  id: string;
  new: string;
  old: string;
  gold: RevisionClass;
  kind: string;
  source: "quad" | "unit" | "stale";
  reference_class: RevisionClass;
  reference_reason: string;
}

function loadRows(): ReferenceRow[] {
  return readFileSync(REFERENCE_PAIRS, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ReferenceRow);
}

const CLASSES: RevisionClass[] = ["restatement", "update", "distinct"];

/** Rows gold, columns predicted, in the order of the §9 table. */
function confusion(rows: ReferenceRow[], config: ClassifierConfig): number[][] {
  const m = CLASSES.map(() => CLASSES.map(() => 0));
  for (const row of rows) m[CLASSES.indexOf(row.gold)]![CLASSES.indexOf(classify(row.new, row.old, config).class)]!++;
  return m;
}

describe("reference parity (../shared/datasets/memory-pairs)", () => {
  beforeEach((ctx) => {
    if (!available) ctx.skip(`${REFERENCE_PAIRS} is absent (../shared is a development-only folder)`);
  });
  const rows = available ? loadRows() : [];

  it("reproduces the reference class and reason on all 142 rows", () => {
    expect(rows).toHaveLength(142);
    const mismatches = rows
      .map((row) => ({ id: row.id, got: classify(row.new, row.old), want: { class: row.reference_class, reason: row.reference_reason } }))
      .filter(({ got, want }) => got.class !== want.class || got.reason !== want.reason);
    expect(mismatches).toEqual([]);
  });

  it("matches the §9 bench-quad confusion matrix and per-kind update recall", () => {
    const quads = rows.filter((r) => r.source === "quad");
    expect(quads).toHaveLength(108);
    expect(confusion(quads, DEFAULT_CONFIG)).toEqual([
      [34, 0, 2],
      [6, 29, 1],
      [3, 1, 32],
    ]);
    const recall = (kind: string): [number, number] => {
      const updates = quads.filter((r) => r.gold === "update" && r.kind === kind);
      return [updates.filter((r) => classify(r.new, r.old).class === "update").length, updates.length];
    };
    expect(recall("value")).toEqual([17, 22]);
    expect(recall("polarity")).toEqual([12, 14]);
  });

  it("matches the §9 sweep rows (rest→D, upd→U, dist→U) with one setting changed at a time", () => {
    const quads = rows.filter((r) => r.source === "quad");
    const row = (change: Partial<ClassifierConfig>): [number, number, number] => {
      const m = confusion(quads, { ...DEFAULT_CONFIG, ...change });
      return [m[0]![2]!, m[1]![1]!, m[2]![1]!];
    };
    expect(row({})).toEqual([2, 29, 1]);
    expect(row({ overlapFloor: 0.4 })).toEqual([1, 30, 2]);
    expect(row({ overlapFloor: 0.6 })).toEqual([4, 27, 0]);
    expect(row({ residueMax: 1 })).toEqual([2, 29, 0]);
    expect(row({ negOverlapFloor: 0.75 })).toEqual([2, 28, 1]);
  });

  it("gets the 22 unit pairs right and detects 11 of the 12 stale topics (missing `regions`)", () => {
    const units = rows.filter((r) => r.source === "unit");
    expect(units).toHaveLength(22);
    expect(units.filter((r) => classify(r.new, r.old).class !== r.gold).map((r) => r.id)).toEqual([]);
    const stale = rows.filter((r) => r.source === "stale");
    expect(stale).toHaveLength(12);
    const missed = stale.filter((r) => classify(r.new, r.old).class !== "update").map((r) => r.id);
    expect(missed).toHaveLength(1);
    expect(missed[0]).toMatch(/region/);
  });
});
