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
