// The generic chunk pool: order of results, in-process vs threads (threads load the BUILT task
// module from dist/: run `npm run build` first).
import { describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createChunkPool, mapInOrder, type ChunkPool } from "../../src/pool/pool.js";
import { compiledModuleUrl, siblingModuleUrl } from "../../src/pool/module-url.js";
import { bootstrapMacroF1Values } from "../../src/core/metrics/bootstrap.js";
import { ROOT } from "../support/cli.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import { sliceHashOf } from "../../src/io/slice-kept.js";
import { init, scoreInit } from "../../src/tasks/document/score.js";
import { caseFields } from "../support/slice-fields.js";

describe("mapInOrder", () => {
  it("yields results in input order even when later chunks finish first", async () => {
    const resolvers: Array<() => void> = [];
    const pool: ChunkPool<number, number> = {
      workers: 3,
      run: (chunk) => new Promise((resolve) => resolvers.push(() => resolve(chunk * 10))),
      runBatch: () => Promise.reject(new Error("no batches without buffers to move")),
      close: async () => {},
    };
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const value of mapInOrder(pool, [1, 2, 3, 4, 5], 3)) seen.push(value);
    })();
    // Let the first three chunks be submitted, then finish them in reverse order.
    await new Promise((r) => setImmediate(r));
    for (const resolve of resolvers.splice(0).reverse()) resolve();
    await new Promise((r) => setImmediate(r));
    for (const resolve of resolvers.splice(0).reverse()) resolve();
    await consumer;
    expect(seen).toEqual([10, 20, 30, 40, 50]);
  });

  it("propagates a failing chunk", async () => {
    const pool: ChunkPool<number, number> = {
      workers: 1,
      run: async (chunk) => {
        if (chunk === 2) throw new Error("boom");
        return chunk;
      },
      runBatch: () => Promise.reject(new Error("no batches in process")),
      close: async () => {},
    };
    await expect(
      (async () => {
        for await (const _ of mapInOrder(pool, [1, 2, 3])) void _;
      })(),
    ).rejects.toThrow("boom");
  });
});

describe("createChunkPool", () => {
  it("maps src/*.ts task URLs to their dist/*.js build", () => {
    const url = compiledModuleUrl(pathToFileURL(join(ROOT, "src/tasks/document/range.ts")));
    expect(url.pathname.endsWith("/dist/tasks/document/range.js")).toBe(true);
  });

  it("names a task module beside its caller: the source under vitest, the build in dist/", () => {
    const fromSource = siblingModuleUrl(pathToFileURL(join(ROOT, "src/tasks/pairs/sweep.ts")).href, "sweep-worker");
    expect(fromSource.href).toBe(pathToFileURL(join(ROOT, "src/tasks/pairs/sweep-worker.ts")).href);
    expect(compiledModuleUrl(fromSource).href).toBe(pathToFileURL(join(ROOT, "dist/tasks/pairs/sweep-worker.js")).href);
    const fromBuild = siblingModuleUrl(pathToFileURL(join(ROOT, "dist/tasks/pairs/sweep.js")).href, "sweep-worker");
    expect(fromBuild.href).toBe(pathToFileURL(join(ROOT, "dist/tasks/pairs/sweep-worker.js")).href);
  });

  it("threads and in-process give the same results (bootstrap blocks)", async () => {
    const labels = Uint8Array.from([1, 0, 1, 1, 0, 0, 1, 0]);
    const codes = Uint8Array.from([3, 0, 2, 3, 1, 0, 3, 0, 3, 1, 3, 2, 0, 0, 3, 1]);
    const blocks = [0, 10, 20].map((from) => ({ kind: "bootstrap" as const, labels, codes, runCount: 2, seed: 9, from, to: from + 10 }));
    const expected = bootstrapMacroF1Values(labels, codes, 2, 9, 0, 30);
    const url = pathToFileURL(join(ROOT, "src/tasks/document/range.ts"));
    const taskModule = { url, load: () => import(url.href) };
    const init = scoreInit(await readDocumentSlice(join(ROOT, "datasets/contradoc/contradoc-160.jsonl")), { lenientIds: false });
    const pool = await createChunkPool<unknown, (typeof blocks)[number], { values: Float64Array }>({ workers: 2, taskModule, initData: init });
    try {
      const values: number[] = [];
      for await (const result of mapInOrder(pool, blocks)) values.push(...result.values);
      expect(values).toEqual(Array.from(expected));
    } finally {
      await pool.close();
    }
  });
});

describe("the slice hash", () => {
  it("a worker thread computes the same slice hash as this thread, from the slice it decoded", async () => {
    const slice = await readDocumentSlice(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), { sentences: "punkt" });
    const url = pathToFileURL(join(ROOT, "src/tasks/document/range.ts"));
    const taskModule = { url, load: () => import(url.href) };
    const pool = await createChunkPool<unknown, { kind: "slice-hash" }, { hash: string }>({
      workers: 2,
      taskModule,
      initData: scoreInit(slice, { lenientIds: false }),
      state: { slice, options: { lenientIds: false } },
      shareThread: true,
    });
    try {
      // The sentence rule is part of the hash: the worker must carry it too.
      expect((await pool.run({ kind: "slice-hash" })).hash).toBe(sliceHashOf(slice));
      expect(sliceHashOf(slice)).not.toBe(sliceHashOf(await readDocumentSlice(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"))));
    } finally {
      await pool.close();
    }
  });
});

describe("a worker's slice", () => {
  it("is the main thread's, decoded from shared memory: same cases, ids and user-named extra keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-worker-slice-"));
    try {
      const path = join(dir, "slice.jsonl");
      writeFileSync(
        path,
        `${JSON.stringify({ id: "a", text: "One. Two.", label: true, evidence: ["Two."], ["__proto__"]: { x: 1 }, constructor: 2 })}\n${JSON.stringify({ id: "b", text: "Three.", label: false })}\n`,
      );
      const slice = await readDocumentSlice(path);
      const state = init(structuredClone(scoreInit(slice, { lenientIds: true })));
      expect(state.slice.cases.map(caseFields)).toEqual(slice.cases.map(caseFields));
      expect([...state.slice.byId]).toEqual([...slice.byId]);
      const extra = state.slice.cases[0]!.extra;
      expect(Object.getPrototypeOf(extra)).toBeNull();
      expect(JSON.stringify(extra)).toBe('{"__proto__":{"x":1},"constructor":2}');
      expect(state.options).toEqual({ lenientIds: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("workers: auto", () => {
  it("counts a worker per SECONDS_PER_WORKER of predicted scoring, bounded by idle cores and 4", async () => {
    const { autoWorkerCount, SECONDS_PER_WORKER: S } = await import("../../src/tasks/document/score-dump.js");
    expect(autoWorkerCount(0.5 * S, 2, 0)).toBe(1);
    expect(autoWorkerCount(1.9 * S, 2, 0.9)).toBe(1);
    expect(autoWorkerCount(2.1 * S, 2, 0.9)).toBe(2);
    expect(autoWorkerCount(2.1 * S, 2, 2.5)).toBe(1);
    expect(autoWorkerCount(100, 16, 1)).toBe(4);
    expect(autoWorkerCount(100, 1, 0)).toBe(1);
    expect(autoWorkerCount(Number.NaN, 8, 0)).toBe(1);
  });

  it("scores the first chunk in process, the rest in the threads it chose, with the same outputs", async () => {
    const { runDocumentEval } = await import("../../src/tasks/document/score-dump.js");
    const dir = mkdtempSync(join(tmpdir(), "mari-auto-workers-"));
    try {
      const slicePath = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
      const slice = await readDocumentSlice(slicePath);
      const lines: string[] = [];
      for (let run = 0; run < 3; run++) {
        slice.cases.forEach((c, i) => {
          const judgment = (i + run) % 3 !== 0;
          lines.push(JSON.stringify({ case_id: c.id, run, judgment, evidence_sentence_ids: judgment ? [1 + (i % 2)] : [], reasoning: `[${1 + run}]` }));
        });
      }
      lines.push("{bad", JSON.stringify({ case_id: "nowhere", judgment: false }));
      const dumpPath = join(dir, "dump.jsonl");
      writeFileSync(dumpPath, `${lines.join("\n")}\n`);
      const predicted: number[] = [];
      const run = (workers: number | "auto", out: string) =>
        runDocumentEval({
          slicePath,
          slice,
          dumpPath,
          outDir: join(dir, out),
          workers,
          autoWorkers: (seconds) => {
            predicted.push(seconds);
            return 2;
          },
          chunkLines: 50,
          seed: 0,
          bootstrap: 50,
          lenientIds: false,
        });
      const auto = await run("auto", "auto");
      const one = await run(1, "one");
      expect(auto.workers).toBe(2);
      expect(one.workers).toBe(1);
      expect(predicted).toHaveLength(1);
      expect(predicted[0]).toBeGreaterThanOrEqual(0);
      expect(readFileSync(auto.casesPath, "utf8")).toBe(readFileSync(one.casesPath, "utf8"));
      expect(auto.rejections).toEqual(one.rejections);
      expect(auto.rejectionExamples).toEqual(one.rejectionExamples);
      expect(auto.orphans).toEqual(one.orphans);
      expect(auto.lines).toBe(slice.cases.length * 3 + 2);
      expect(auto.dumpSha256).toBe(one.dumpSha256);
      await auto.casesFile.abort();
      await one.casesFile.abort();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
