// A generic chunked worker pool (docs/eval.md, "Scale, determinism, sharding"). A task is a compiled ES module exporting
//   init(initData) → state            (once per worker, e.g. read the slice)
//   processChunk(state, chunk) → result
// `createChunkPool` runs it on piscina workers, or in-process when workers = 1 (no threads, same
// code path); with `shareThread` the calling thread is one of the workers. `mapInOrder` feeds
// chunks with bounded in-flight work and yields results in input order, so whatever the worker
// count or chunk size, the consumer sees the same sequence.
import { compiledModuleUrl, siblingModuleUrl } from "./module-url.js";
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
  /** Several chunks as one task (one message each way), their results in order. */
  runBatch(chunks: readonly I[], transfer?: readonly ArrayBuffer[]): Promise<O[]>;
  close(): Promise<void>;
  /**
   * Set when the calling thread is one of the workers (`shareThread`): how many threads were
   * started (workers − 1), and chunks run here, in a row, for `mapInOrder` to use while every
   * thread has its fill.
   */
  readonly here?: { readonly threads: number; runBatch(chunks: readonly I[]): Promise<O[]> };
  /**
   * Set on a pool that runs chunks on the calling thread with its state ready: `run` has called
   * the task's processChunk when it returns, so a synchronous task is done with the chunk before
   * `mapInOrder` reads the next one (a chunk may then be a view of a buffer its reader reuses).
   */
  readonly inline?: boolean;
}

/** What a worker thread is sent: one or more chunks, processed in a row (worker.ts). */
export interface ChunkBatch {
  chunks: readonly unknown[];
  /** A deferred `initData` (see ChunkPoolOptions), sent with every batch: the worker inits from the first it gets. */
  init?: unknown;
}

/** What a worker thread starts with (worker.ts). */
export interface ChunkWorkerData {
  taskModule: string;
  initData: unknown;
  /** `initData` comes with the batches instead. */
  deferred: boolean;
}

/**
 * A task module as a pool needs it: its URL, which worker threads load, and a loader for this
 * thread. The loader is an `import("./literal.js")` the CLI's bundle follows (scripts/build.mjs), so
 * a one-worker pool runs the copy of the module the process already holds; importing the URL there
 * would load a second copy of every module it imports.
 */
export interface TaskModuleRef {
  /** A `src/**.ts` URL (tests, tsx) is mapped to its `dist/**.js` build for workers. */
  url: URL;
  /** The module's namespace (a ChunkTaskModule), as `import()` gives it. */
  load(): Promise<unknown>;
}

export interface ChunkPoolOptions<S> {
  workers: number;
  taskModule: TaskModuleRef;
  /**
   * Given to the task's `init` in each worker. A promise defers it: the threads start (and load the
   * task module) at once, and the value, once settled, travels with every batch, so it must be
   * cheap to send (e.g. SharedArrayBuffers, which are shared, not copied). No task is sent before
   * it settles; a rejection fails every task.
   */
  initData: unknown;
  /**
   * In process (one worker, or this thread's share): a ready state, or its promise (skips `init`,
   * e.g. the slice the caller already read).
   */
  state?: S | Promise<S>;
  /**
   * This thread counts as one of the `workers`: workers − 1 threads start, and `mapInOrder` runs
   * chunks here whenever every thread has two tasks. One thread fewer to start, to hand the
   * initData and to keep fed, and no third thread competing for two cores while this one merges.
   */
  shareThread?: boolean;
  /**
   * Old-generation heap cap per worker (MB). V8 otherwise lets a busy worker's heap grow far
   * beyond its live data before collecting, and peak RSS is what users budget for.
   */
  workerHeapMb?: number;
}

export async function createChunkPool<S, I, O>(options: ChunkPoolOptions<S>): Promise<ChunkPool<I, O>> {
  // The CLI bounds --workers; a library caller gets the same bound here, where the threads start.
  if (!Number.isInteger(options.workers) || options.workers < 1 || options.workers > MAX_WORKERS) {
    throw new InputError(`workers ${options.workers}: expected an integer from 1 to ${MAX_WORKERS}`);
  }
  if (options.workers === 1) return inProcess(options);
  const here = options.shareThread ? await inProcess<S, I, O>(options) : undefined;
  const threads = here ? options.workers - 1 : options.workers;
  // Under tsx/vitest this module is src/pool/pool.ts; workers still need the compiled worker.
  const workerUrl = compiledModuleUrl(siblingModuleUrl(import.meta.url, "worker"));
  const deferred = options.initData instanceof Promise ? (options.initData as Promise<unknown>) : undefined;
  // Awaited by each task, not here: a rejection is the tasks' error.
  deferred?.catch(() => {});
  // Loaded here, not at the top: a one-worker run (the default) never starts a thread.
  const { Piscina } = await import("piscina");
  const piscina = new Piscina({
    filename: workerUrl.href,
    minThreads: threads,
    maxThreads: threads,
    // A second task waits in the worker's own queue, so a worker that finishes one starts the next
    // without waiting for the main thread (often busy merging results) to dispatch it.
    concurrentTasksPerWorker: 2,
    workerData: {
      taskModule: compiledModuleUrl(options.taskModule.url).href,
      initData: deferred ? undefined : options.initData,
      deferred: deferred !== undefined,
    } satisfies ChunkWorkerData,
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
  const post = (batch: ChunkBatch, transfer?: readonly ArrayBuffer[]): Promise<O[]> =>
    new Promise<O[]>((resolve, reject) => {
      if (failure) return reject(failure);
      pending.add(reject);
      (piscina.run(batch, transfer ? { transferList: [...transfer] } : undefined) as Promise<O[]>).then(
        (value) => {
          pending.delete(reject);
          resolve(value);
        },
        (err: Error) => {
          pending.delete(reject);
          reject(err);
        },
      );
    });
  // Once the deferred initData has settled, a task is posted at once, not after a microtask turn:
  // a caller that goes on with synchronous work (SetCons beside the bootstrap, a chunk run here)
  // would otherwise hold the task back until that work is done, and the thread would wait idle.
  let init: { value: unknown } | undefined;
  // A rejected initData fails the tasks that await it; this watcher must not be an unhandled rejection.
  deferred?.then(
    (value) => (init = { value }),
    () => {},
  );
  const runBatch = async (chunks: readonly I[], transfer?: readonly ArrayBuffer[]): Promise<O[]> => {
    if (deferred === undefined) return post({ chunks }, transfer);
    return post({ chunks, init: init === undefined ? await deferred : init.value }, transfer);
  };
  return {
    workers: options.workers,
    run: async (chunk, transfer) => (await runBatch([chunk], transfer))[0]!,
    runBatch,
    close: () => piscina.destroy(),
    ...(here ? { here: { threads, runBatch: here.runBatch } } : {}),
  };
}

/**
 * The calling thread's share of a pool that shares it (`shareThread`), as a one-worker pool (every
 * chunk run here); any other pool as it is. For work too fine-grained to pay for messages.
 */
export function thisThreadOf<I, O>(pool: ChunkPool<I, O>): ChunkPool<I, O> {
  const here = pool.here;
  if (here === undefined) return pool;
  return {
    workers: 1,
    run: async (chunk) => (await here.runBatch([chunk]))[0]!,
    runBatch: (chunks) => here.runBatch(chunks),
    close: async () => {},
  };
}

/** The task on this thread: its state given (or awaited), else from `init`. */
async function inProcess<S, I, O>(options: ChunkPoolOptions<S>): Promise<ChunkPool<I, O>> {
  const task = (await options.taskModule.load()) as ChunkTaskModule<S, I, O>;
  // A promised state is awaited by the first chunk, not here: the pool is wanted before it settles.
  const given = options.state;
  let state: S | Promise<S> = given instanceof Promise ? given : (given ?? (await task.init(await options.initData)));
  const run = async (chunk: I): Promise<O> => task.processChunk(state instanceof Promise ? (state = await state) : state, chunk);
  return {
    workers: 1,
    inline: !(state instanceof Promise),
    run,
    runBatch: async (chunks) => {
      const results: O[] = [];
      for (const chunk of chunks) results.push(await run(chunk));
      return results;
    },
    close: async () => {},
  };
}

/**
 * A chunk whose buffers to move total less than this travels with the next ones in one message:
 * the cost of a message between threads (≈ 0.1 ms each way) is then paid once per batch. The
 * document eval's ranges of 8 cases × 8 runs were ≈ 2 KB each, 4,688 of them on a 37,500-case slice:
 * sent one by one, the main thread spent longer posting them than the workers took to compute them.
 */
export const BATCH_BYTES = 256 << 10;
/** At most this many chunks in one batch. */
export const BATCH_MAX = 64;

/**
 * With a shared thread, how many more tasks than `maxInFlight` may wait in the queue while this
 * thread runs chunks itself instead of waiting for a slower thread's answer (see mapInOrder).
 */
export const HERE_AHEAD = 16;

/**
 * Runs `pool` over `chunks`, at most `maxInFlight` tasks at a time, and yields each result in
 * input order. `transferOf` may name buffers to move (not copy) to the worker; with it, small
 * chunks are sent in batches (BATCH_BYTES), which changes nothing but how many messages carry them.
 */
export async function* mapInOrder<I, O>(
  pool: ChunkPool<I, O>,
  chunks: AsyncIterable<I> | Iterable<I>,
  maxInFlight = Math.max(2, pool.workers * 2),
  transferOf?: (chunk: I) => readonly ArrayBuffer[] | undefined,
): AsyncGenerator<O> {
  const inFlight: { result: Promise<O[]>; settled: boolean }[] = [];
  // In process there is no message to save: every chunk is its own task.
  const batching = pool.workers > 1 && transferOf !== undefined;
  // Tasks on the threads not yet answered; with a shared thread, a batch is run here instead while
  // each thread has two (piscina's concurrentTasksPerWorker): the threads never wait for work, and
  // this thread works rather than waits. Where a chunk runs changes nothing in its result.
  const here = pool.here;
  let remote = 0;
  let batch: I[] = [];
  // A set: a buffer named twice in one message's transfer list is an error.
  let transfer = new Set<ArrayBuffer>();
  let bytes = 0;
  const send = (): void => {
    const list = [...transfer];
    let entry: { result: Promise<O[]>; settled: boolean };
    if (here !== undefined && remote >= 2 * here.threads) entry = { result: here.runBatch(batch), settled: true };
    else {
      const result = batch.length === 1 ? pool.run(batch[0]!, list).then((one) => [one]) : pool.runBatch(batch, list);
      entry = { result, settled: false };
      remote++;
      const answered = (): void => {
        remote--;
        entry.settled = true;
      };
      result.then(answered, answered);
    }
    // Avoid unhandled rejections while the promise waits its turn in the queue.
    entry.result.catch(() => {});
    inFlight.push(entry);
    batch = [];
    transfer = new Set();
    bytes = 0;
  };
  // Whether to read on instead of waiting for the oldest task: with a shared thread, while that task
  // is a thread's and not answered yet, this thread runs the next chunks itself (a thread slowed by
  // a busy machine, or still starting, then takes fewer chunks instead of stalling this one). The
  // event loop gets a turn first, so a thread's answer that has arrived is seen.
  const readOn = async (): Promise<boolean> => {
    if (here === undefined || inFlight.length >= maxInFlight + HERE_AHEAD || inFlight[0]!.settled) return false;
    await new Promise((resolve) => setImmediate(resolve));
    return !inFlight[0]!.settled;
  };
  try {
    for await (const chunk of chunks) {
      const buffers = transferOf?.(chunk) ?? [];
      batch.push(chunk);
      for (const buffer of buffers) {
        if (transfer.has(buffer)) continue;
        transfer.add(buffer);
        bytes += buffer.byteLength;
      }
      if (!batching || bytes >= BATCH_BYTES || batch.length >= BATCH_MAX) send();
      while (inFlight.length >= maxInFlight && !(await readOn())) yield* await inFlight.shift()!.result;
    }
    if (batch.length > 0) send();
    while (inFlight.length > 0) yield* await inFlight.shift()!.result;
  } finally {
    await Promise.allSettled(inFlight.map((entry) => entry.result));
  }
}
