import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/cli.js";
import { classify } from "../../src/core/classifier/index.js";
import { defaultGrid, emptyTally, mergeTallies, parsePairRecord, tallyConfigs, type SweepPair } from "../../src/core/pairs/index.js";

const PAIRS: SweepPair[] = readFileSync(join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => {
    const parsed = parsePairRecord(JSON.parse(line));
    if (!("pair" in parsed) || parsed.pair.gold === null) throw new Error(`unexpected corpus row ${line}`);
    return { newText: parsed.pair.newText, oldText: parsed.pair.oldText, gold: parsed.pair.gold, kind: parsed.pair.kind };
  });
const GRID = defaultGrid();
const WHOLE = tallyConfigs(PAIRS, GRID);

describe("sweep kernel", () => {
  it("agrees with classify() pair by pair", () => {
    for (const [c, config] of GRID.entries()) {
      const direct = emptyTally();
      for (const p of PAIRS) direct.confusion[p.gold][classify(p.newText, p.oldText, config).class]++;
      expect(WHOLE[c]!.confusion).toEqual(direct.confusion);
    }
  });

  it("gives the same tallies for any split into chunks, summed in any order", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: PAIRS.length - 1 }), { maxLength: 6 }), fc.boolean(), (cuts, reverse) => {
        const bounds = [0, ...[...cuts].sort((a, b) => a - b), PAIRS.length];
        const chunks = bounds.slice(1).map((end, i) => tallyConfigs(PAIRS.slice(bounds[i], end), GRID));
        if (reverse) chunks.reverse();
        const summed = GRID.map((_, c) => chunks.reduce((acc, chunk) => mergeTallies(acc, chunk[c]!), emptyTally()));
        // Key order of byKind follows first appearance; every output sorts kinds, so compare as values.
        expect(summed).toEqual(GRID.map((_, c) => mergeTallies(emptyTally(), WHOLE[c]!)));
      }),
      { numRuns: 25 },
    );
  });
});
