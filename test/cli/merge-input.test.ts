// `mari merge` with a shard whose cases.jsonl is missing or is a directory: an input error (exit 2)
// naming the path, never an internal error (exit 3). Runs the built CLI (`npm run build` first).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { evalShards } from "../support/shards.js";

const tmp = tempDir("mari-merge-input-");
afterAll(() => tmp.cleanup());

const DOC_SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");

const shards = (name: string, slice: string) => evalShards(tmp.dir, name, slice);

describe.each([
  ["documents", DOC_SLICE],
  ["pairs", PAIRS],
])("mari merge (%s) when a shard's cases.jsonl is unusable", (name, slice) => {
  let shard0: string;
  let shard1: string;
  beforeAll(async () => {
    [shard0, shard1] = await shards(name, slice);
  });

  it("a missing cases.jsonl is exit 2 naming it", async () => {
    const broken = join(tmp.dir, `${name}-missing`);
    mkdirSync(broken);
    cpSync(join(shard1, "report.json"), join(broken, "report.json"));
    const r = await runMari(["merge", join(shard0, "report.json"), join(broken, "report.json"), "--out", join(tmp.dir, `${name}-m1`), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${join(broken, "cases.jsonl")} (ENOENT)`);
    expect(r.stderr).not.toContain("internal error");
  });

  it("a directory in place of cases.jsonl is exit 2 naming it", async () => {
    const broken = join(tmp.dir, `${name}-dir`);
    mkdirSync(join(broken, "cases.jsonl"), { recursive: true });
    cpSync(join(shard1, "report.json"), join(broken, "report.json"));
    const r = await runMari(["merge", join(shard0, "report.json"), join(broken, "report.json"), "--out", join(tmp.dir, `${name}-m2`), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${join(broken, "cases.jsonl")} is not a file`);
    expect(r.stderr).not.toContain("internal error");
    rmSync(broken, { recursive: true });
  });

  it("the intact shards still merge", async () => {
    const r = await runMari(["merge", join(shard0, "report.json"), join(shard1, "report.json"), "--out", join(tmp.dir, `${name}-m3`), "--quiet"]);
    expect([0, 1], r.stderr).toContain(r.code);
  });
});
