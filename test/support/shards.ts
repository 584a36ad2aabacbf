// Shard outputs for merge tests: what `mari eval SLICE --shard i/2 --workers 1 --report json` writes
// for i = 0, 1 into DIR/NAME-i (for a document slice the lexical judge's dump too), run in this process.
import { join } from "node:path";
import { sniffSliceTask } from "../../src/index.js";
import { runShard, type ShardInput } from "./in-process.js";

export async function evalShards(dir: string, name: string, slice: string): Promise<[string, string]> {
  const input: ShardInput =
    (await sniffSliceTask(slice)) === "pairs" ? { task: "pairs", pairs: slice, formats: ["json"] } : { task: "documents", slicePath: slice, formats: ["json"] };
  const dirs: string[] = [];
  for (const index of [0, 1]) {
    const out = join(dir, `${name}-${index}`);
    await runShard(input, [], { index, count: 2 }, out);
    dirs.push(out);
  }
  return [dirs[0]!, dirs[1]!];
}
