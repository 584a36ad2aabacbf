// The piscina worker entry of the chunk pool: loads the task module named in workerData once,
// initialises its state once per worker, then processes chunks. A task module may also export
// `transferablesOf(result)`: buffers the result owns outright, moved to the main thread instead of
// copied (hundreds of MB of cases.jsonl bytes on a large eval).
import { workerData } from "node:worker_threads";
import { Piscina } from "piscina";
import type { ChunkTaskModule } from "./pool.js";

const { taskModule, initData } = workerData as { taskModule: string; initData: unknown };
let ready: Promise<{ task: ChunkTaskModule<unknown, unknown, unknown>; state: unknown }> | undefined;

export default async function processChunk(chunk: unknown): Promise<unknown> {
  ready ??= (async () => {
    const task = (await import(taskModule)) as ChunkTaskModule<unknown, unknown, unknown>;
    return { task, state: await task.init(initData) };
  })();
  const { task, state } = await ready;
  const result = await task.processChunk(state, chunk);
  const transfer = task.transferablesOf?.(result);
  if (!transfer || transfer.length === 0) return result;
  return Piscina.move({ [Piscina.transferableSymbol]: [...new Set(transfer)], [Piscina.valueSymbol]: result } as never);
}
