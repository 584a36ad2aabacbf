// The reference classifier's sweep rows (docs/classifier.md) on its 36 bench quads, which
// live in ../shared (not shipped): skipped where that folder is absent.
import { beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/cli.js";
import { defaultGrid, formatConfig, parsePairRecord, tallyConfigs, type SweepPair } from "../../src/core/pairs/index.js";

const REFERENCE = join(ROOT, "../shared/datasets/memory-pairs/reference-pairs.jsonl");
const available = existsSync(REFERENCE);
if (!available) console.warn(`skipping the reference sweep check: ${REFERENCE} is absent`);

describe("sweep parity with the reference (bench quads)", () => {
  beforeEach((ctx) => {
    if (!available) ctx.skip(`${REFERENCE} is absent (../shared is a development-only folder)`);
  });
  it("reproduces rest→distinct, update→update and distinct→update for every default-grid row", () => {
    const pairs: SweepPair[] = [];
    for (const text of readFileSync(REFERENCE, "utf8").split("\n")) {
      if (text.trim() === "") continue;
      const record = JSON.parse(text);
      if (record.source !== "quad") continue;
      const parsed = parsePairRecord(record);
      if (!("pair" in parsed) || parsed.pair.gold === null) throw new Error(`bad reference row ${text}`);
      pairs.push({ newText: parsed.pair.newText, oldText: parsed.pair.oldText, gold: parsed.pair.gold, kind: parsed.pair.kind });
    }
    expect(pairs).toHaveLength(108);
    const grid = defaultGrid();
    const rows = tallyConfigs(pairs, grid).map((t, i) => [
      formatConfig(grid[i]!),
      t.confusion.restatement.distinct,
      t.confusion.update.update,
      t.confusion.distinct.update,
      t.confusion.restatement.update,
    ]);
    // Default: rest→D 2, upd→U 29, dist→U 1; the table's changed rows; every other row = default.
    const expected: Record<string, [number, number, number]> = {
      "overlapFloor=0.4 residueMax=2 negOverlapFloor=0.6 aliasPrefixMin=4": [1, 30, 2],
      "overlapFloor=0.6 residueMax=2 negOverlapFloor=0.6 aliasPrefixMin=4": [4, 27, 0],
      "overlapFloor=0.5 residueMax=1 negOverlapFloor=0.6 aliasPrefixMin=4": [2, 29, 0],
      "overlapFloor=0.5 residueMax=2 negOverlapFloor=0.75 aliasPrefixMin=4": [2, 28, 1],
    };
    for (const [label, restDistinct, updUpdate, distUpdate, restUpdate] of rows) {
      expect([label, restDistinct, updUpdate, distUpdate, restUpdate]).toEqual([label, ...(expected[label as string] ?? [2, 29, 1]), 0]);
    }
    // By kind at the default: value 17/22, polarity 12/14.
    const byKind = tallyConfigs(pairs, [grid[0]!])[0]!.byKind;
    expect([byKind.value!.update.update, byKind.polarity!.update.update]).toEqual([17, 12]);
  });
});
