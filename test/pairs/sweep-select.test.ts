import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  bestConfigIndex,
  defaultGrid,
  distanceFromDefault,
  fullGrid,
  GridError,
  gridFromSpec,
  paretoFront,
  type SweepCandidate,
} from "../../src/core/pairs/index.js";
import { DEFAULT_CONFIG } from "../../src/core/classifier/index.js";

describe("sweep grids", () => {
  it("default grid: the default once, then one dimension at a time", () => {
    const grid = defaultGrid();
    expect(grid).toHaveLength(9);
    expect(grid[0]).toEqual(DEFAULT_CONFIG);
    expect(grid.slice(1)).toEqual([
      { ...DEFAULT_CONFIG, overlapFloor: 0.4 },
      { ...DEFAULT_CONFIG, overlapFloor: 0.6 },
      { ...DEFAULT_CONFIG, residueMax: 1 },
      { ...DEFAULT_CONFIG, residueMax: 3 },
      { ...DEFAULT_CONFIG, negOverlapFloor: 0.5 },
      { ...DEFAULT_CONFIG, negOverlapFloor: 0.75 },
      { ...DEFAULT_CONFIG, aliasPrefixMin: 3 },
      { ...DEFAULT_CONFIG, aliasPrefixMin: 5 },
    ]);
  });

  it("full grid: the cartesian product, last field fastest, no duplicates", () => {
    const grid = fullGrid();
    expect(grid).toHaveLength(81);
    expect(grid[0]).toEqual({ overlapFloor: 0.4, residueMax: 1, negOverlapFloor: 0.5, aliasPrefixMin: 3 });
    expect(grid[1]).toEqual({ overlapFloor: 0.4, residueMax: 1, negOverlapFloor: 0.5, aliasPrefixMin: 4 });
    expect(grid[80]).toEqual({ overlapFloor: 0.6, residueMax: 3, negOverlapFloor: 0.75, aliasPrefixMin: 5 });
    expect(new Set(grid.map((c) => JSON.stringify(c))).size).toBe(81);
  });

  it("grid file: product of the given lists, defaults elsewhere, repeats kept once", () => {
    const grid = gridFromSpec({ residueMax: [1, 2, 1], overlapFloor: [0.3, 0.7] });
    expect(grid).toEqual([
      { ...DEFAULT_CONFIG, overlapFloor: 0.3, residueMax: 1 },
      { ...DEFAULT_CONFIG, overlapFloor: 0.3, residueMax: 2 },
      { ...DEFAULT_CONFIG, overlapFloor: 0.7, residueMax: 1 },
      { ...DEFAULT_CONFIG, overlapFloor: 0.7, residueMax: 2 },
    ]);
  });

  it.each([
    [[0.5], /JSON object/],
    [{}, /at least one/],
    [{ overlap: [0.5] }, /unknown grid field "overlap"/],
    [{ residueMax: 2 }, /must be a list/],
    [{ residueMax: [] }, /empty list/],
    [{ residueMax: ["2"] }, /not a finite number/],
    [{ overlapFloor: [0] }, /not usable/],
    [{ residueMax: [-1] }, /not usable/],
    [{ aliasPrefixMin: [2.5] }, /not usable/],
  ])("grid file %j is rejected", (spec, message) => {
    expect(() => gridFromSpec(spec)).toThrow(GridError);
    expect(() => gridFromSpec(spec)).toThrow(message);
  });
});

function candidate(config: Partial<typeof DEFAULT_CONFIG>, revisionCost: number, passed = true, recall = 0.5, rate = 0): SweepCandidate {
  return { config: { ...DEFAULT_CONFIG, ...config }, revisionCost, updateRecall: recall, restatementToUpdateRate: rate, passedAllGates: passed };
}

describe("best config", () => {
  it("takes the lowest revision_cost among configs passing every gate", () => {
    const rows = [candidate({}, 0.3), candidate({ residueMax: 1 }, 0.1, false), candidate({ residueMax: 3 }, 0.2)];
    expect(bestConfigIndex(rows)).toBe(2);
  });

  it("is null when nothing passes", () => {
    expect(bestConfigIndex([candidate({}, 0.1, false)])).toBeNull();
    expect(bestConfigIndex([])).toBeNull();
  });

  it("breaks ties by fields differing from the default, then relative distance, then row order", () => {
    // Two fields changed loses to one field changed, even when that one moves further.
    const rows = [
      candidate({ overlapFloor: 0.45, residueMax: 3 }, 0.2),
      candidate({ aliasPrefixMin: 8 }, 0.2),
      candidate({ overlapFloor: 0.6 }, 0.2), // |0.6-0.5|/0.5 = 0.2
      candidate({ negOverlapFloor: 0.66 }, 0.2), // |0.66-0.6|/0.6 ≈ 0.1: nearest
    ];
    expect(distanceFromDefault(rows[0]!.config)[0]).toBe(2);
    expect(bestConfigIndex(rows)).toBe(3);
    expect(bestConfigIndex([candidate({ residueMax: 3 }, 0.2), candidate({ residueMax: 1 }, 0.2)])).toBe(0);
    expect(bestConfigIndex([candidate({ residueMax: 3 }, 0.2), candidate({}, 0.2)])).toBe(1);
  });
});

describe("Pareto front", () => {
  it("keeps the rows no other row dominates, best recall first", () => {
    const rows = [
      candidate({}, 0, true, 0.8, 0), // front
      candidate({}, 0, true, 0.9, 0.1), // front
      candidate({}, 0, true, 0.7, 0.05), // dominated by row 0
      candidate({}, 0, true, 0.9, 0.2), // dominated by row 1
      candidate({}, 0, false, 0.95, 0.3), // front (gates do not matter here)
      candidate({}, 0, true, 0.8, 0), // identical to row 0: kept too
    ];
    expect(paretoFront(rows)).toEqual([4, 1, 0, 5]);
  });

  it("agrees with the definition on random rows", () => {
    const point = fc.record({ r: fc.integer({ min: 0, max: 5 }), q: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 30 }), (points) => {
        const rows = points.map((p) => candidate({}, 0, true, p.r / 5, p.q / 5));
        const dominated = (i: number) =>
          rows.some(
            (o) =>
              o.updateRecall >= rows[i]!.updateRecall &&
              o.restatementToUpdateRate <= rows[i]!.restatementToUpdateRate &&
              (o.updateRecall > rows[i]!.updateRecall || o.restatementToUpdateRate < rows[i]!.restatementToUpdateRate),
          );
        const expected = rows.map((_, i) => i).filter((i) => !dominated(i));
        expect([...paretoFront(rows)].sort((a, b) => a - b)).toEqual(expected);
      }),
    );
  });
});
