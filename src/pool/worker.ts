// The piscina worker entry of the chunk pool: loads the task module named in workerData once,
// initialises its state once per worker, then processes chunks.
import { workerData } from "node:worker_threads";
import type { ChunkTaskModule } from "./pool.js";

const { taskModule, initData } = workerData as { taskModule: string; initData: unknown };
let ready: Promise<{ task: ChunkTaskModule<unknown, unknown, unknown>; state: unknown }> | undefined;

export default async function processChunk(chunk: unknown): Promise<unknown> {
  ready ??= (async () => {
    const task = (await import(taskModule)) as ChunkTaskModule<unknown, unknown, unknown>;
    return { task, state: await task.init(initData) };
  })();
  const { task, state } = await ready;
  return task.processChunk(state, chunk);
}
