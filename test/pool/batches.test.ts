// Small chunks travel to worker threads in batches (one message for several chunks) and their
// results still come back one per chunk, in input order, with their buffers moved both ways.
// Real piscina threads running test/support/pool-tasks/sum-bytes.mjs.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BATCH_BYTES, BATCH_MAX, createChunkPool, mapInOrder, thisThreadOf, type ChunkPool } from "../../src/pool/pool.js";
import { ROOT } from "../support/cli.js";

const TASK_URL = pathToFileURL(join(ROOT, "test/support/pool-tasks/sum-bytes.mjs"));
/** The task module as a pool takes it: its URL (threads) and its loader (this thread). */
const TASK = { url: TASK_URL, load: () => import(TASK_URL.href) };
type Chunk = { index: number; bytes: Uint8Array; gate?: Int32Array };
type Result = { index: number; sum: number; thread: number; out: Uint8Array };

function chunksOf(count: number, size: number): Chunk[] {
  return Array.from({ length: count }, (_, index) => ({ index, bytes: new Uint8Array(size).fill((index % 7) + 1) }));
}

/** The pool, counting the tasks it is given: single chunks and batches (with their sizes). */
function counted(pool: ChunkPool<Chunk, Result>): { pool: ChunkPool<Chunk, Result>; singles: number[]; batches: number[] } {
  const singles: number[] = [];
  const batches: number[] = [];
  return {
    singles,
    batches,
    pool: {
      workers: pool.workers,
      run: (chunk, transfer) => (singles.push(1), pool.run(chunk, transfer)),
      runBatch: (chunks, transfer) => (batches.push(chunks.length), pool.runBatch(chunks, transfer)),
      close: () => pool.close(),
    },
  };
}

async function collect(pool: ChunkPool<Chunk, Result>, chunks: Chunk[]): Promise<Result[]> {
  const results: Result[] = [];
  for await (const r of mapInOrder(pool, chunks, undefined, (c) => [c.bytes.buffer as ArrayBuffer])) results.push(r);
  return results;
}

describe("chunk pool batches", () => {
  it("small chunks go in batches of at most BATCH_MAX; results one per chunk, in order, buffers moved", async () => {
    const threads = await createChunkPool<unknown, Chunk, Result>({ workers: 2, taskModule: TASK, initData: {} });
    try {
      const { pool, singles, batches } = counted(threads);
      const chunks = chunksOf(200, 100);
      const results = await collect(pool, chunks);
      expect(results.map((r) => r.index)).toEqual(chunks.map((c) => c.index));
      expect(results.map((r) => r.sum)).toEqual(chunks.map((c) => 100 * ((c.index % 7) + 1)));
      expect(results.every((r) => r.out.length === 8 && r.out[0] === (r.index & 0xff))).toBe(true);
      // Sent, not copied: the main thread's chunk buffers are detached.
      expect(chunks.every((c) => c.bytes.byteLength === 0)).toBe(true);
      expect(singles).toEqual([]);
      expect(batches).toEqual([BATCH_MAX, BATCH_MAX, BATCH_MAX, 200 - 3 * BATCH_MAX]);
    } finally {
      await threads.close();
    }
  });

  it("a chunk of BATCH_BYTES or more goes alone", async () => {
    const threads = await createChunkPool<unknown, Chunk, Result>({ workers: 2, taskModule: TASK, initData: {} });
    try {
      const { pool, singles, batches } = counted(threads);
      const results = await collect(pool, chunksOf(5, BATCH_BYTES));
      expect(results.map((r) => [r.index, r.sum])).toEqual([0, 1, 2, 3, 4].map((i) => [i, BATCH_BYTES * ((i % 7) + 1)]));
      expect(singles.length).toBe(5);
      expect(batches).toEqual([]);
    } finally {
      await threads.close();
    }
  });

  it("a pool that shares this thread starts one thread fewer and runs batches here while the thread is full", async () => {
    const shared = await createChunkPool<unknown, Chunk, Result>({ workers: 2, taskModule: TASK, initData: {}, state: {}, shareThread: true });
    try {
      expect(shared.here?.threads).toBe(1);
      const chunks = chunksOf(400, 100);
      const results = await collect(shared, chunks);
      expect(results.map((r) => [r.index, r.sum])).toEqual(chunksOf(400, 100).map((c) => [c.index, 100 * ((c.index % 7) + 1)]));
      // The first two batches fill the one thread; the third finds it full and runs on this thread.
      expect(results[0]!.thread).not.toBe(threadId);
      expect(results[2 * BATCH_MAX]!.thread).toBe(threadId);
      // Chunks run here keep their buffers; the ones sent were moved.
      expect(chunks[2 * BATCH_MAX]!.bytes.byteLength).toBe(100);
      expect(chunks[0]!.bytes.byteLength).toBe(0);
    } finally {
      await shared.close();
    }
  });

  it("while the thread's oldest task is unanswered, this thread runs the next chunks itself, in order", async () => {
    const shared = await createChunkPool<unknown, Chunk, Result>({ workers: 2, taskModule: TASK, initData: {}, state: {}, shareThread: true });
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const chunks = chunksOf(12, 10);
    chunks[0]!.gate = gate;
    // The thread holds chunk 0 until every chunk has been read: a pool that waited for the oldest
    // task after maxInFlight (4) tasks would never read the last ones, and the test would time out.
    async function* gated(): AsyncGenerator<Chunk> {
      yield* chunks;
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    }
    try {
      const results: Result[] = [];
      for await (const r of mapInOrder(shared, gated())) results.push(r);
      expect(results.map((r) => [r.index, r.sum])).toEqual(chunksOf(12, 10).map((c) => [c.index, 10 * ((c.index % 7) + 1)]));
      expect(results.slice(0, 2).map((r) => r.thread === threadId)).toEqual([false, false]);
      expect(results.slice(2).every((r) => r.thread === threadId)).toBe(true);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await shared.close();
    }
  });

  it("thisThreadOf runs every chunk of a shared pool here, one task each", async () => {
    const shared = await createChunkPool<unknown, Chunk, Result>({ workers: 2, taskModule: TASK, initData: {}, state: {}, shareThread: true });
    try {
      const here = thisThreadOf(shared);
      expect(here.workers).toBe(1);
      const results = await collect(here, chunksOf(100, 10));
      expect(results.map((r) => [r.index, r.sum, r.thread])).toEqual(chunksOf(100, 10).map((c) => [c.index, 10 * ((c.index % 7) + 1), threadId]));
      expect(thisThreadOf(here)).toBe(here);
    } finally {
      await shared.close();
    }
  });

  it("in process there are no batches, and the results are the same", async () => {
    const inProcess = await createChunkPool<unknown, Chunk, Result>({ workers: 1, taskModule: TASK, initData: {} });
    const { pool, singles, batches } = counted(inProcess);
    const results = await collect(pool, chunksOf(200, 100));
    expect(results.map((r) => [r.index, r.sum])).toEqual(chunksOf(200, 100).map((c) => [c.index, 100 * ((c.index % 7) + 1)]));
    expect(singles.length).toBe(200);
    expect(batches).toEqual([]);
    expect(await inProcess.runBatch(chunksOf(3, 10))).toMatchObject([{ index: 0 }, { index: 1 }, { index: 2 }]);
  });
});
