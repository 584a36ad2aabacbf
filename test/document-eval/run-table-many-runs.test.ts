// The run table at a million run keys: putting the runs into run order must not pass every key as
// one call's arguments (that overflowed the stack: `mari eval` of 1,000,000 runs × 1 case exited 3).
import { describe, expect, it } from "vitest";
import { RunTable } from "../../src/tasks/document/run-table.js";

describe("RunTable.reorderRuns", () => {
  it("reorders 1,000,000 run keys and keeps each key's index", () => {
    const runs = 1_000_000;
    const table = new RunTable(1);
    // Keys arrive in reverse numeric order; run order is numeric.
    for (let k = runs - 1; k >= 0; k--) table.ensureRun(String(k));
    const order = Array.from({ length: runs }, (_, r) => runs - 1 - r);
    table.reorderRuns(order);
    expect(table.keys.length).toBe(runs);
    expect(table.keys[0]).toBe("0");
    expect(table.keys[runs - 1]).toBe(String(runs - 1));
    expect(table.runIndex("123456")).toBe(123456);
  });
});

describe("RunTable run keys", () => {
  // Integer keys near the run count are found by value, the rest through a map: a key must find
  // its own run whichever way it was filed, before and after the runs are reordered.
  it("finds every key's run: integers, look-alikes and far integers alike", () => {
    const keys = ["0", "1", "01", "-1", "1e3", "007", "", "x", "999999999", "1000000000", "42", "3", "2", " 4", "4", "5000", "4.0"];
    for (let i = 100; i < 2100; i += 7) keys.push(String(i));
    const table = new RunTable(2);
    keys.forEach((key, r) => {
      expect(table.runIndex(key)).toBeUndefined();
      expect(table.ensureRun(key)).toBe(r);
      expect(table.ensureRun(key)).toBe(r);
    });
    keys.forEach((key, r) => expect(table.runIndex(key)).toBe(r));
    const order = keys.map((_, r) => keys.length - 1 - r);
    table.reorderRuns(order);
    keys.forEach((key, r) => expect(table.runIndex(key)).toBe(keys.length - 1 - r));
    expect(table.runIndex("10")).toBeUndefined();
    expect(table.runIndex("00")).toBeUndefined();
    expect(table.runIndex("1000")).toBeUndefined();
  });
});

describe("RunTable.reorderRuns in run order already", () => {
  it("leaves a table whose runs came in run order as it is, and still moves one that did not", () => {
    const filled = (keys: readonly string[]): RunTable => {
      const table = new RunTable(3);
      keys.forEach((key, r) => {
        const run = table.ensureRun(key);
        for (let c = 0; c < 3; c++)
          if ((r + c) % 2 === 0)
            table.put(run, c, 10 * r + c + 1, { judgment: c === 0, reason: null, evidence: [c + 1], referenceCoverage: 0.5, rewardAccuracy: 1, matched: 1 });
      });
      return table;
    };
    const snapshot = (t: RunTable) => ({
      keys: [...t.keys],
      listed: [...t.listed],
      lines: Array.from({ length: t.keys.length }, (_, r) => [0, 1, 2].map((c) => t.lineOf(r, c))),
      runs: [...t.entryRun.subarray(0, t.entries)],
      index: t.keys.map((key) => t.runIndex(key)),
    });
    const inOrder = filled(["0", "1", "2", "3", "4"]);
    const before = snapshot(inOrder);
    const cell = inOrder.cell;
    inOrder.reorderRuns([0, 1, 2, 3, 4]);
    expect(snapshot(inOrder)).toEqual(before);
    // Nothing was copied: the slot column is the one the runs were put in.
    expect(inOrder.cell).toBe(cell);
    // Two runs out of order: the table is put into run order, the listing keeps first appearance.
    const swapped = filled(["1", "0", "2"]);
    swapped.reorderRuns([1, 0, 2]);
    expect(swapped.keys).toEqual(["0", "1", "2"]);
    expect(swapped.listed).toEqual([1, 0, 2]);
    expect([0, 1, 2].map((c) => swapped.lineOf(0, c))).toEqual([0, 12, 0]);
    expect([0, 1, 2].map((c) => swapped.lineOf(1, c))).toEqual([1, 0, 3]);
  });
});
