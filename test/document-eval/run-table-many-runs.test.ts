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
