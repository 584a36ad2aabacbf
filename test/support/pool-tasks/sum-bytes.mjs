// A chunk task for the pool batch tests (plain JS: worker threads load it as is).
// chunk {index, bytes}: returns {index, sum of the bytes, thread, out}, `out` a buffer of its own
// (moved back to the main thread through `transferablesOf`). A chunk with a `gate` (an Int32 over a
// SharedArrayBuffer) waits until the gate's first element is no longer 0.
import { threadId } from "node:worker_threads";

export function init() {
  return {};
}

export function processChunk(_state, chunk) {
  if (chunk.gate) Atomics.wait(chunk.gate, 0, 0);
  let sum = 0;
  for (const b of chunk.bytes) sum += b;
  return { index: chunk.index, sum, thread: threadId, out: new Uint8Array(8).fill(chunk.index & 0xff) };
}

export function transferablesOf(result) {
  return [result.out.buffer];
}
