// The chunk pool when a task fails (docs/eval.md, "Scale, determinism, sharding"): on worker threads a throwing chunk rejects that
// chunk only; a worker that dies (here: over its heap limit) fails its chunk instead of hanging. Real piscina threads running test/support/pool-tasks/faulty.mjs.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createChunkPool, mapInOrder, type ChunkPool } from "../../src/pool/pool.js";
import { ROOT } from "../support/cli.js";

const TASK_URL = pathToFileURL(join(ROOT, "test/support/pool-tasks/faulty.mjs"));
/** The task module as a pool takes it: its URL (threads) and its loader (this thread). */
const TASK = { url: TASK_URL, load: () => import(TASK_URL.href) };
type Chunk = { kind: "double" | "throw" | "exhaust"; value: number };

describe("chunk pool failures", () => {
  it("a chunk whose task throws rejects alone; the pool keeps working (2 threads)", async () => {
    const pool: ChunkPool<Chunk, number> = await createChunkPool({ workers: 2, taskModule: TASK, initData: { offset: 100 } });
    try {
      expect(pool.workers).toBe(2);
      await expect(pool.run({ kind: "throw", value: 7 })).rejects.toThrow("task failed on chunk 7");
      const values = [1, 2, 3, 4, 5].map((value) => ({ kind: "double" as const, value }));
      const seen: number[] = [];
      for await (const v of mapInOrder(pool, values, 3)) seen.push(v);
      expect(seen).toEqual([102, 104, 106, 108, 110]);
    } finally {
      await pool.close();
    }
  });

  it("in-process (1 worker) the same task gives the same results and the same error", async () => {
    const pool: ChunkPool<Chunk, number> = await createChunkPool({ workers: 1, taskModule: TASK, initData: { offset: 100 } });
    expect(await pool.run({ kind: "double", value: 4 })).toBe(108);
    await expect(pool.run({ kind: "throw", value: 3 })).rejects.toThrow("task failed on chunk 3");
    await pool.close();
  });

  it("a worker that dies (over its heap limit) fails its chunk without hanging; a new worker takes the next", async () => {
    const pool: ChunkPool<Chunk, number> = await createChunkPool({ workers: 2, taskModule: TASK, initData: {}, workerHeapMb: 16 });
    try {
      const error = await pool.run({ kind: "exhaust", value: 0 }).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => err,
      );
      expect(error?.code).toBe("ERR_WORKER_OUT_OF_MEMORY");
      expect(await pool.run({ kind: "double", value: 1 })).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

describe("worker count", () => {
  it.each([0, 1.5, 257, 1_000_000])("%d workers from a library caller is an input error with the bound", async (workers) => {
    await expect(createChunkPool({ workers, taskModule: TASK, initData: {} })).rejects.toThrow(/expected an integer from 1 to 256/);
  });
});
