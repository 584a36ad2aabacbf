// Shard outputs for merge tests: what `mari eval SLICE --shard i/2 --workers 1 --report json` writes
// for i = 0, 1 into DIR/NAME-i (for a document slice the lexical judge's dump too), run in this process.
import { join } from "node:path";
import { runTask, sliceInput } from "./in-process.js";

export async function evalShards(dir: string, name: string, slice: string): Promise<[string, string]> {
  const input = await sliceInput(slice, ["json"]);
  const dirs: string[] = [];
  for (const index of [0, 1]) {
    const out = join(dir, `${name}-${index}`);
    await runTask(input, out, [], { index, count: 2 });
    dirs.push(out);
  }
  return [dirs[0]!, dirs[1]!];
}
