// The piscina worker entry of the chunk pool: loads the task module named in workerData as soon
// as the thread starts, then initialises its state once per worker (from workerData, or from the first
// batch when the pool deferred it), then processes the chunks of each batch it is sent, in order.
// A task module may also export `transferablesOf(result)`: buffers the result owns outright, moved
// to the main thread instead of copied (hundreds of MB of cases.jsonl bytes on a large eval).
import { workerData } from "node:worker_threads";
import { Piscina } from "piscina";
import type { ChunkBatch, ChunkTaskModule, ChunkWorkerData } from "./pool.js";

const { taskModule, initData, deferred } = workerData as ChunkWorkerData;
// Loaded before the thread says it is ready (piscina awaits this module), i.e. while the main
// thread prepares the first tasks: once idle, piscina's thread blocks in Atomics.wait, and a load
// started but not finished would wait for the first task.
const task = (await import(taskModule)) as ChunkTaskModule<unknown, unknown, unknown>;
let ready: Promise<unknown> | undefined;

export default async function processBatch(batch: ChunkBatch): Promise<unknown> {
  ready ??= Promise.resolve(task.init(deferred ? batch.init : initData));
  const state = await ready;
  const results: unknown[] = [];
  const transfer = new Set<ArrayBuffer>();
  for (const chunk of batch.chunks) {
    const result = await task.processChunk(state, chunk);
    results.push(result);
    for (const buffer of task.transferablesOf?.(result) ?? []) transfer.add(buffer);
  }
  if (transfer.size === 0) return results;
  return Piscina.move({ [Piscina.transferableSymbol]: [...transfer], [Piscina.valueSymbol]: results } as never);
}
