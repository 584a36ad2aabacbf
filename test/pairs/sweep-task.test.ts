// Input errors of the sweep task, in-process (the CLI maps InputError to exit 2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { InputError } from "../../src/io/errors.js";
import { resolveGrid, runSweep } from "../../src/tasks/pairs/sweep.js";
import { tempDir } from "../support/cli.js";
import { MIXED_PAIRS, writeFixture } from "./fixtures.js";

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe("sweep input errors", () => {
  it.each([
    ["an unknown field", JSON.stringify({ overlap: [0.5] }), /grid\.json: unknown grid field "overlap"/],
    ["an empty list", JSON.stringify({ residueMax: [] }), /grid\.json: grid field residueMax has an empty list/],
    ["an unusable config", JSON.stringify({ residueMax: [-1] }), /grid\.json: grid config .*residueMax=-1.* is not usable/],
    ["bad JSON", "{", /grid\.json: the grid file .* is not valid JSON/],
  ])("a grid file with %s is an input error naming the file", async (_what, text, message) => {
    const grid = writeFixture(dir, "grid.json", text);
    await expect(resolveGrid(grid)).rejects.toThrow(InputError);
    await expect(resolveGrid(grid)).rejects.toThrow(message);
  });

  it("a missing grid file, pairs file or bad costs file is an input error", async () => {
    const pairs = writeFixture(dir, "pairs.jsonl", MIXED_PAIRS);
    const costs = writeFixture(dir, "costs.json", JSON.stringify({ stale_kept: 1, typo: 2 }));
    const base = { out: join(dir, "out"), workers: 1 };
    await expect(resolveGrid(join(dir, "none.json"))).rejects.toThrow(/none\.json: cannot read the grid file/);
    await expect(runSweep({ ...base, pairs, costs })).rejects.toThrow(/costs\.json: unknown unit price "typo"/);
    await expect(runSweep({ ...base, pairs: join(dir, "nope.jsonl") })).rejects.toThrow(/nope\.jsonl: cannot read the pair file/);
    const unlabelled = writeFixture(dir, "unlabelled.jsonl", '{"id":"a","new":"x","old":"y"}\n');
    await expect(runSweep({ ...base, pairs: unlabelled })).rejects.toThrow(/no labelled pair to sweep over/);
  });

  it("keywords name the built-in grids", async () => {
    expect((await resolveGrid(undefined)).configs).toHaveLength(9);
    expect((await resolveGrid("default")).configs).toHaveLength(9);
    expect((await resolveGrid("full")).configs).toHaveLength(81);
  });
});
