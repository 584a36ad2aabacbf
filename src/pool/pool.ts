// A generic chunked worker pool (docs/eval.md, "Scale, determinism, sharding"). A task is a compiled ES module exporting
//   init(initData) → state            (once per worker, e.g. read the slice)
//   processChunk(state, chunk) → result
// `createChunkPool` runs it on piscina workers, or in-process when workers = 1 (no threads, same
// code path). `mapInOrder` feeds chunks with bounded in-flight work and yields results in input
// order, so whatever the worker count or chunk size, the consumer sees the same sequence.
import { fileURLToPath, pathToFileURL } from "node:url";
import { MAX_WORKERS } from "../core/limits.js";
import { InputError } from "../io/errors.js";

export interface ChunkTaskModule<S, I, O> {
  init(initData: unknown): Promise<S> | S;
  processChunk(state: S, chunk: I): Promise<O> | O;
  /** Optional: buffers owned by `result` alone, moved (not copied) back from a worker thread. */
  transferablesOf?(result: O): readonly ArrayBuffer[];
}

export interface ChunkPool<I, O> {
  readonly workers: number;
  run(chunk: I, transfer?: readonly ArrayBuffer[]): Promise<O>;
  close(): Promise<void>;
}

export interface ChunkPoolOptions<S> {
  workers: number;
  /** URL of the task module. A `src/**.ts` URL (tests, tsx) is mapped to its `dist/**.js` build for workers. */
  taskModule: URL;
  initData: unknown;
  /** In-process only: a ready state (skips `init`, e.g. the slice the caller already read). */
  state?: S;
  /**
   * Old-generation heap cap per worker (MB). V8 otherwise lets a busy worker's heap grow far
   * beyond its live data before collecting, and peak RSS is what users budget for.
   */
  workerHeapMb?: number;
}

/** Workers load compiled JavaScript: map `…/src/x.ts` to `…/dist/x.js`. */
export function compiledModuleUrl(url: URL): URL {
  const path = fileURLToPath(url);
  if (!path.endsWith(".ts")) return url;
  const mapped = path.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, "$1dist$2").replace(/\.ts$/, ".js");
  return pathToFileURL(mapped);
}

export async function createChunkPool<S, I, O>(options: ChunkPoolOptions<S>): Promise<ChunkPool<I, O>> {
  // The CLI bounds --workers; a library caller gets the same bound here, where the threads start.
  if (!Number.isInteger(options.workers) || options.workers < 1 || options.workers > MAX_WORKERS) {
    throw new InputError(`workers ${options.workers}: expected an integer from 1 to ${MAX_WORKERS}`);
  }
  if (options.workers === 1) {
    const task = (await import(options.taskModule.href)) as ChunkTaskModule<S, I, O>;
    const state = options.state ?? (await task.init(options.initData));
    return {
      workers: 1,
      run: async (chunk) => task.processChunk(state, chunk),
      close: async () => {},
    };
  }
  // Under tsx/vitest this module is src/pool/pool.ts; workers still need the compiled worker.
  const workerUrl = import.meta.url.endsWith(".ts") ? compiledModuleUrl(new URL("./worker.ts", import.meta.url)) : new URL("./worker.js", import.meta.url);
  // Loaded here, not at the top: a one-worker run (the default) never starts a thread.
  const { Piscina } = await import("piscina");
  const piscina = new Piscina({
    filename: workerUrl.href,
    minThreads: options.workers,
    maxThreads: options.workers,
    // A second task waits in the worker's own queue, so a worker that finishes one starts the next
    // without waiting for the main thread (often busy merging results) to dispatch it.
    concurrentTasksPerWorker: 2,
    workerData: { taskModule: compiledModuleUrl(options.taskModule).href, initData: options.initData },
    ...(options.workerHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb } } : {}),
  });
  // A worker that cannot start (or crashes) fails every pending and later task instead of hanging.
  // (Not Promise.race with a never-settling promise: each race would leave a reaction on it that
  // keeps the task's result alive for the pool's lifetime.)
  let failure: Error | undefined;
  const pending = new Set<(err: Error) => void>();
  piscina.on("error", (err: Error) => {
    failure = err;
    for (const reject of pending) reject(err);
    pending.clear();
  });
  return {
    workers: options.workers,
    run: (chunk, transfer) =>
      new Promise<O>((resolve, reject) => {
        if (failure) return reject(failure);
        pending.add(reject);
        (piscina.run(chunk, transfer ? { transferList: [...transfer] } : undefined) as Promise<O>).then(
          (value) => {
            pending.delete(reject);
            resolve(value);
          },
          (err: Error) => {
            pending.delete(reject);
            reject(err);
          },
        );
      }),
    close: () => piscina.destroy(),
  };
}

/**
 * Runs `pool` over `chunks`, at most `maxInFlight` at a time, and yields each result in input
 * order. `transferOf` may name buffers to move (not copy) to the worker.
 */
export async function* mapInOrder<I, O>(
  pool: ChunkPool<I, O>,
  chunks: AsyncIterable<I> | Iterable<I>,
  maxInFlight = Math.max(2, pool.workers * 2),
  transferOf?: (chunk: I) => readonly ArrayBuffer[] | undefined,
): AsyncGenerator<O> {
  const inFlight: Promise<O>[] = [];
  try {
    for await (const chunk of chunks) {
      const pending = pool.run(chunk, transferOf?.(chunk));
      // Avoid unhandled rejections while the promise waits its turn in the queue.
      pending.catch(() => {});
      inFlight.push(pending);
      if (inFlight.length >= maxInFlight) yield await inFlight.shift()!;
    }
    while (inFlight.length > 0) yield await inFlight.shift()!;
  } finally {
    await Promise.allSettled(inFlight);
  }
}
