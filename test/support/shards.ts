// Shard outputs for merge tests: `mari eval SLICE --shard i/2` for i = 0, 1 into DIR/NAME-i.
import { join } from "node:path";
import { expect } from "vitest";
import { runMari } from "./cli.js";

export async function evalShards(dir: string, name: string, slice: string): Promise<[string, string]> {
  const dirs: string[] = [];
  for (const i of [0, 1]) {
    const out = join(dir, `${name}-${i}`);
    const r = await runMari(["eval", slice, "--shard", `${i}/2`, "--out", out, "--quiet", "--progress", "none", "--workers", "1", "--report", "json"]);
    expect([0, 1], r.stderr).toContain(r.code);
    dirs.push(out);
  }
  return [dirs[0]!, dirs[1]!];
}
