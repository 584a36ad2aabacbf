// The dump pass of `mari eval` on a document slice (docs/eval.md), called by evaluate.ts (the task's
// entry point): reads the slice, streams the dump through the chunk pool (scoring happens in
// workers), keeps the first kept line per (case, run) in a compact table, then aggregates in slice
// order × run order and writes cases.jsonl. The caller adds provenance, gates and the report files.
import type { RunObserver } from "../../io/observer.js";
import { knownSliceHash, sliceHashOf } from "../../io/slice-kept.js";
import { LINE_REJECTIONS } from "../../io/dump.js";
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { AtomicLineWriter } from "../../io/atomic-write.js";
import { dumpScoreBlocks, type DumpBlock, type DumpSourceOptions } from "./dump-source.js";
import { chunkBytes, chunkTransfers, rowChunks, scoreChunk, type ScoreChunk } from "./score-rows.js";
import { readDocumentSlice, type DocumentSlice, type SliceCase, type SliceReadOptions } from "../../io/slice.js";
import { createChunkPool, mapInOrder, type ChunkPool } from "../../pool/pool.js";
import { availableParallelism, loadavg } from "node:os";
import type { RejectionExample } from "../../report/types.js";
import { secretEnvFinder } from "../../report/redact.js";
import { casesHasher } from "../../report/cases-digest.js";
import { runOrder } from "../../core/run-order.js";
import { InputError, located } from "../../io/errors.js";
import { aggregateDocumentEval, type Aggregate } from "./aggregate.js";
import {
  CASE_REASONS,
  fixedReasonMessage,
  LINE_KIND_ORPHAN,
  LINE_KIND_PREDICTION,
  LINE_KIND_REJECTED,
  WORKER_HEAP_MB,
  type ChunkResult,
  type ScoreInit,
  type ScoreOptions,
  type ScoreState,
  scoreInit,
  reuseChunkColumns,
} from "./score.js";
import { RunTable } from "./run-table.js";
import { passArena } from "./range-pass.js";
import { DOCUMENT_TASK_MODULE } from "./task-module.js";
import type { DocumentTaskPayload, DocumentTaskResult, SliceHashResult } from "./range.js";

export interface Shard {
  /** 0-based shard index, < count. */
  index: number;
  count: number;
}

/**
 * Worker threads started before the slice is read (`startDocumentPool`), so that their start-up
 * (a Node environment and the scoring modules each) runs while the main thread reads the slice.
 */
export interface EarlyDocumentPool {
  readonly workers: number;
  /** Hands the threads the slice (compiled into shared memory) and gives the pool. */
  start(slice: DocumentSlice, options: ScoreOptions): Promise<ChunkPool<DocumentTaskPayload, DocumentTaskResult>>;
  /** Stops the threads (when the run ends before `start`, or after it). */
  close(): Promise<void>;
}

/** Starts `workers` (> 1) scoring threads now; they wait for `start` to give them the slice. */
export function startDocumentPool(workers: number): EarlyDocumentPool {
  let provide!: (init: ScoreInit) => void;
  let provideHere!: (state: ScoreState) => void;
  let cancel!: (err: Error) => void;
  const initData = new Promise<ScoreInit>((resolve, reject) => {
    provide = resolve;
    cancel = reject;
  });
  // This thread's share of the work scores from the slice itself, as one worker does.
  const state = new Promise<ScoreState>((resolve) => (provideHere = resolve));
  const pool = createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
    workers,
    taskModule: DOCUMENT_TASK_MODULE,
    initData,
    state,
    shareThread: true,
    workerHeapMb: WORKER_HEAP_MB,
  });
  pool.catch(() => {});
  return {
    workers,
    start: (slice, options) => {
      provideHere({ slice, options });
      provide(scoreInit(slice, options));
      return pool;
    },
    close: async () => {
      cancel(new Error("the scoring pool was closed before it was given the slice"));
      await (await pool.catch(() => undefined))?.close();
    },
  };
}

export interface DocumentEvalOptions extends ScoreOptions {
  slicePath: string;
  /** A slice the caller already read (else it is read here, with these options). */
  slice?: DocumentSlice | undefined;
  sliceOptions?: SliceReadOptions | undefined;
  dumpPath: string;
  outDir: string;
  /** Worker threads (1 = in process), or `auto`: chosen from the measured cost of the first chunk (`autoWorkerCount`). */
  workers: number | "auto";
  /** Threads already started for this run (`startDocumentPool`, `workers` of them): used, then closed here. */
  earlyPool?: EarlyDocumentPool | undefined;
  /** How `auto` turns the predicted scoring seconds into a count (default: `autoWorkerCount` with this machine's cores and load). */
  autoWorkers?: ((predictedSeconds: number) => number) | undefined;
  /** Lines per pool chunk; default: one read block (~1 MB). */
  chunkLines?: number | undefined;
  seed: number;
  bootstrap: number;
  shard?: Shard | undefined;
  /** Score only the first `limit` cases of the slice (the cases `mari predict --limit` judges). */
  limit?: number | undefined;
  /** Score only these cases (a replayed serve log's: the cases it covers). */
  onlyCases?: ReadonlySet<string> | undefined;
  /** How an eval-tool log names its cases (`--id-field`), a serve log's replayed phase. */
  dumpSource?: DumpSourceOptions | undefined;
  rewardsPath?: string | undefined;
  /** Called with bytes of the dump scored so far and the total. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Called with each block of whole dump lines as read from the file (the case explorer records line offsets); not for a Parquet dump. */
  onDumpBlock?: ((firstLineNo: number, block: Buffer, lineEnds: Int32Array) => void) | undefined;
  /** Progress of the phases after the dump is read (aggregation, bootstrap and SetCons). */
  observer?: RunObserver | undefined;
}

export interface DocumentEvalResult {
  slice: DocumentSlice;
  /** Worker threads the run used (1 = in process): `auto`'s choice, or the count asked for. */
  workers: number;
  /** Cases scored by this process (the shard's, or all). */
  cases: SliceCase[];
  aggregate: Aggregate;
  /** The scored (case, run) table in run order, as cases.jsonl was written from it (the case explorer reads it). */
  table: RunTable;
  lines: number;
  runKeys: string[];
  /** First dump line of each run's first kept line (for merging shard run orders). */
  runFirstLines: number[];
  lineRejections: Record<string, number>;
  /** All rejection counts: line-level and per-case reasons. */
  rejections: Record<string, number>;
  rejectionExamples: RejectionExample[];
  orphans: { count: number; examples: string[] };
  /** Dump line of each orphan example's first occurrence (for merging shards). */
  orphanFirstLines: number[];
  /**
   * Where this run's cases.jsonl can be read: a temporary file beside `OUT/cases.jsonl` until
   * `casesFile.commit()` publishes it (just before the reports), or `casesFile.abort()` removes it
   * (a run that ends in a usage error leaves the previous cases.jsonl in place).
   */
  casesPath: string;
  /** `digest`: of the file's bytes, as report.json records it (cases-digest.ts). */
  casesFile: { commit(): Promise<string>; abort(): Promise<void>; digest: string };
  sliceHash: string;
  /** Of `cases`, how many have a kept line in some run, and how many of the first ones in a row do. */
  coverage: { cases: number; leading: number };
  /** sha256 of the dump, hashed block by block as it was read (absent when rebuilt from shards). */
  dumpSha256?: string;
}

/** The shard of a case id: the first 32 bits of its sha256, modulo the shard count. */
export function shardOfCaseId(caseId: string, count: number): number {
  return createHash("sha256").update(caseId, "utf8").digest().readUInt32BE(0) % count;
}

/** Splits the dump's blocks further so that no chunk holds more than `lines` lines (the hidden --chunk-size). */
export async function* chunked(
  path: string,
  source: DumpSourceOptions,
  lines: number | undefined,
  onBlock: (block: DumpBlock) => void,
  /** The file bytes each chunk yielded stands for, in order (for progress counted as chunks are scored). */
  sizes: number[],
  /** Whether a chunk must own its buffer (to move to a worker thread), else it is a view of the block read. */
  own: () => boolean,
): AsyncGenerator<ScoreChunk> {
  for await (const dumpBlock of dumpScoreBlocks(path, source)) {
    // A Parquet dump's rows are scored from their fields (score-rows.ts); they are not the file's bytes.
    if ("fields" in dumpBlock) {
      onBlock({ firstLineNo: dumpBlock.firstLineNo, block: Buffer.alloc(0), fileBytes: dumpBlock.fileBytes, raw: false });
      yield* rowChunks(dumpBlock, lines, sizes);
      continue;
    }
    onBlock(dumpBlock);
    const { firstLineNo, block } = dumpBlock;
    // A block made from Parquet rows or a log stands for other bytes of the file: its last chunk carries the difference.
    const extra = dumpBlock.fileBytes - block.length;
    if (lines === undefined || lines <= 0) {
      sizes.push(block.length + extra);
      // A raw block and its line ends are views the reader refills for the next block: a chunk kept
      // past it (own) copies both, so that a thread does not look for the line ends again.
      if (dumpBlock.raw) {
        const { lineEnds } = dumpBlock;
        yield own() ? { firstLineNo, block: new Uint8Array(block), lineEnds: lineEnds.slice() } : { firstLineNo, block, lineEnds };
      } else yield { firstLineNo, block: own() && !ownsItsBuffer(block) ? new Uint8Array(block) : block };
      continue;
    }
    let start = 0;
    let lineNo = firstLineNo;
    while (start < block.length) {
      let end = start;
      let taken = 0;
      while (taken < lines && end < block.length) {
        const nl = block.indexOf(0x0a, end);
        end = nl === -1 ? block.length : nl + 1;
        taken++;
      }
      sizes.push(end - start + (end === block.length ? extra : 0));
      yield { firstLineNo: lineNo, block: own() ? new Uint8Array(block.subarray(start, end)) : block.subarray(start, end) };
      lineNo += taken;
      start = end;
    }
  }
}

/**
 * Whether a block read from the dump is the whole of its buffer (a block joined from two reads is),
 * so that it can move to a worker thread as it is: nothing else holds it once it has been hashed.
 */
function ownsItsBuffer(block: Uint8Array): boolean {
  return block.byteOffset === 0 && block.byteLength === block.buffer.byteLength && !(block.buffer instanceof SharedArrayBuffer);
}

async function* prepend<T, U>(head: readonly T[], rest: AsyncIterable<U>): AsyncGenerator<T | U> {
  yield* head;
  yield* rest;
}

/**
 * Until a worker thread has started and decoded the slice, this thread scores the dump's next
 * blocks itself, instead of waiting: on the 1M bench dump a thread's start-up is worth about a
 * dozen blocks. Their results come first, in block order.
 */
async function scoreWhileThreadsStart(pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult>, dump: DumpChunks, state: ScoreState): Promise<ChunkResult[]> {
  let started = false;
  // An empty batch is answered once a thread is up; a thread that cannot start fails the real tasks.
  pool.runBatch([]).then(
    () => (started = true),
    () => (started = true),
  );
  const results: ChunkResult[] = [];
  while (!started) {
    const next = await dump.chunks.next();
    if (next.done === true) break;
    results.push(scoreChunk(state, next.value));
  }
  return results;
}

/**
 * Predicted scoring CPU seconds each worker must have to take over before `auto` starts a thread.
 * A thread costs more than its start and its copy of the slice: its own compiling of the scoring
 * code (on V8's helper threads, ≈ 0.5–0.6 s of CPU on either bench dump) and its own garbage
 * collection, which take the second core that a one-worker run already uses for the main thread's.
 * The prediction is the first block's CPU time scaled to the file: the GRPO-shaped bench dump
 * predicts ≈ 4.5 s idle and the 1M dump ≈ 18 s (22–24 s at load 20), and two workers were slower
 * on both (docs/eval.md, "Performance"), so two workers need twice this, past the 1M dump's figure
 * with room for the prediction's spread.
 */
export const SECONDS_PER_WORKER = 24;
/** The most workers `auto` chooses (the main thread and three threads). */
export const AUTO_WORKERS_MAX = 4;

/**
 * `--workers auto`: one worker (the main thread one of them) per SECONDS_PER_WORKER of predicted
 * scoring, at most one per core not already busy (the 1-minute load average, this process counted
 * as one) and AUTO_WORKERS_MAX; 1 (in process) when threads would not pay.
 */
export function autoWorkerCount(predictedSeconds: number, cores: number, load: number): number {
  const idleCores = Math.floor(cores - Math.max(0, load - 1) + 0.5);
  const count = Math.min(AUTO_WORKERS_MAX, idleCores, Math.floor(predictedSeconds / SECONDS_PER_WORKER));
  // NaN (a clock that gave nothing usable) counts as "not worth a thread".
  return Number.isNaN(count) || count < 1 ? 1 : count;
}

/**
 * The run table's room reserved from the first chunk's guess, at most (42 bytes an entry: 352 MB of
 * address space, of which only the pages written are ever memory); past it the columns double.
 */
const MOST_RESERVED_ENTRIES = 1 << 23;

export const EXAMPLE_CAP = 5;
export const ORPHAN_EXAMPLE_CAP = 20;
export const FLIPPED_CAP = 50;

export async function runDocumentEval(opts: DocumentEvalOptions): Promise<DocumentEvalResult> {
  let pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult> | undefined;
  let rewards: AtomicLineWriter | undefined;
  try {
    const slice = opts.slice ?? (await readDocumentSlice(opts.slicePath, opts.sliceOptions));
    rewards = opts.rewardsPath ? await AtomicLineWriter.open(opts.rewardsPath) : undefined;
    const total = (await stat(opts.dumpPath)).size;
    const scoreOptions: ScoreOptions = { lenientIds: opts.lenientIds, ...(opts.completionEnd ? { completionEnd: opts.completionEnd } : {}) };
    const tally = new DumpTally(slice, opts, rewards !== undefined);
    const dump = readDumpChunks(opts);
    // The first chunk, when `auto` reads it, is scored there and then: a view of the block read is enough.
    const { workers, first } = await chooseWorkers(opts, dump, slice, scoreOptions, total);
    const ready =
      opts.earlyPool !== undefined
        ? await opts.earlyPool.start(slice, scoreOptions)
        : await createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
            workers,
            taskModule: DOCUMENT_TASK_MODULE,
            // Compiled for worker threads only: in process the state is the slice itself.
            initData: workers > 1 ? scoreInit(slice, scoreOptions) : undefined,
            state: { slice, options: scoreOptions },
            shareThread: true,
            workerHeapMb: WORKER_HEAP_MB,
          });
    pool = ready;
    dump.ownBuffers = ready.inline !== true;
    const early = workers > 1 ? await scoreWhileThreadsStart(ready, dump, { slice, options: scoreOptions }) : [];
    const head = first === undefined ? early : [first, ...early];
    const scored = mapInOrder<DocumentTaskPayload, DocumentTaskResult>(ready, { [Symbol.asyncIterator]: () => dump.chunks }, undefined, (chunk) =>
      chunkTransfers(chunk as ScoreChunk, workers > 1),
    );
    let done = 0;
    for await (const result of head.length === 0 ? scored : prepend(head, scored)) {
      done += dump.sizes.shift() ?? 0;
      opts.onProgress?.(done, total);
      // The whole dump's lines, guessed from the first chunk's: at most one kept line each.
      if (tally.lines === 0 && done > 0)
        tally.table.reserveEntries(Math.min(MOST_RESERVED_ENTRIES, Math.ceil((1.05 * (result as ChunkResult).count * total) / done)));
      tally.addChunk(result as ChunkResult);
      // Copied into the run table: its columns are free for the chunks this thread scores next.
      reuseChunkColumns(result as ChunkResult);
      if (rewards && tally.rewardsText.length > 0) {
        await rewards.write(tally.rewardsText);
        tally.rewardsText = "";
      }
    }
    refuseSecretRunKeys(tally.table.keys, tally.runFirstLines, opts.dumpPath);
    await rewards?.commit();
    const dumpSha256 = dump.rawBytes ? dump.hash.digest("hex") : undefined;
    const finished = await finishDocumentEval({
      slice,
      // Every case, without --shard, --limit or a replay's cases: the slice's own list, not a copy.
      cases: tally.inShard.includes(0) ? slice.cases.filter((c) => tally.inShard[c.index]) : slice.cases,
      table: tally.table,
      lines: tally.lines,
      runFirstLines: tally.runFirstLines,
      lineRejections: tally.lineRejections,
      examples: [...tally.examples.values()].flat(),
      orphans: tally.orphans,
      orphanFirstLines: tally.orphanFirstLines,
      outDir: opts.outDir,
      seed: opts.seed,
      bootstrap: opts.bootstrap,
      lenientIds: opts.lenientIds,
      workers,
      pool: ready,
      ...(opts.observer ? { observer: opts.observer } : {}),
    });
    return dumpSha256 !== undefined ? { ...finished, dumpSha256 } : finished;
  } catch (err) {
    await rewards?.abort();
    throw err;
  } finally {
    await (pool ?? opts.earlyPool)?.close();
  }
}

/** The dump's chunks as read, the file bytes each one stands for, and the dump's hash as its blocks pass. */
interface DumpChunks {
  chunks: AsyncGenerator<ScoreChunk>;
  /** The file bytes of each chunk, in order: progress counts chunks scored (in order), not read (reading runs ahead). */
  sizes: number[];
  /**
   * The report's dump hash, computed from the blocks as they pass (the blocks cover the file
   * exactly, in order) instead of reading the dump a second time at the end.
   */
  hash: ReturnType<typeof createHash>;
  /** False for a Parquet dump: its blocks are made from its rows, its hash is the file's, computed later. */
  rawBytes: boolean;
  /**
   * Whether chunks are copied into buffers of their own, which can move to a worker thread or wait
   * while the next block is read into the reader's buffer. Set once the pool is made; a pool that
   * scores each chunk inline is handed the block as read (a million-line dump's copy was 180 MB of
   * fresh memory to fault in, for nothing).
   */
  ownBuffers: boolean;
}

function readDumpChunks(opts: DocumentEvalOptions): DumpChunks {
  // One object: the block callback updates the hash and rawBytes the caller reads at the end.
  const dump: Omit<DumpChunks, "chunks"> = { sizes: [], hash: createHash("sha256"), rawBytes: true, ownBuffers: false };
  const onBlock = (dumpBlock: DumpBlock): void => {
    dump.rawBytes &&= dumpBlock.raw;
    if (dumpBlock.raw) {
      dump.hash.update(dumpBlock.block);
      opts.onDumpBlock?.(dumpBlock.firstLineNo, dumpBlock.block, dumpBlock.lineEnds);
    }
  };
  return Object.assign(dump, { chunks: chunked(opts.dumpPath, opts.dumpSource ?? {}, opts.chunkLines, onBlock, dump.sizes, () => dump.ownBuffers) });
}

/** `auto`: the first chunk is scored here, in process, and its cost decides the worker count. */
async function chooseWorkers(
  opts: DocumentEvalOptions,
  dump: DumpChunks,
  slice: DocumentSlice,
  scoreOptions: ScoreOptions,
  total: number,
): Promise<{ workers: number; first: ChunkResult | undefined }> {
  if (opts.earlyPool !== undefined) return { workers: opts.earlyPool.workers, first: undefined };
  if (opts.workers !== "auto") return { workers: opts.workers, first: undefined };
  const head = await dump.chunks.next();
  if (head.done === true) return { workers: 1, first: undefined };
  const before = process.cpuUsage();
  const first = scoreChunk({ slice, options: scoreOptions }, head.value);
  const used = process.cpuUsage(before);
  const seconds = ((used.user + used.system) / 1e6) * (total / Math.max(1, chunkBytes(head.value)));
  const workers = opts.autoWorkers?.(seconds) ?? autoWorkerCount(seconds, availableParallelism(), loadavg()[0] ?? 0);
  return { workers, first };
}

/** Which cases this run scores: the shard's (all without --shard), cut at --limit, of `onlyCases` when given. */
function casesInShard(slice: DocumentSlice, opts: DocumentEvalOptions): Uint8Array {
  const caseCount = slice.cases.length;
  const inShard = new Uint8Array(caseCount).fill(1);
  if (opts.shard) for (const c of slice.cases) inShard[c.index] = shardOfCaseId(c.id, opts.shard.count) === opts.shard.index ? 1 : 0;
  // Lines for cases beyond the limit are read and skipped like another shard's: not scored, not orphans.
  if (opts.limit !== undefined) inShard.fill(0, Math.min(opts.limit, caseCount));
  if (opts.onlyCases !== undefined) for (const c of slice.cases) if (!opts.onlyCases.has(c.id)) inShard[c.index] = 0;
  return inShard;
}

/**
 * The first of entries e … end − 1 (kept from a chunk starting at line `firstLineNo`) whose line's
 * reason is `wanted`, else `end`. The loop is all it does: V8 compiles it on the fly, and code after
 * it that had not run yet sent that code back to the interpreter.
 */
function nextWanted(line: Int32Array, firstLineNo: number, code: Uint8Array, wanted: Uint8Array, e: number, end: number): number {
  for (; e < end; e++) if (wanted[code[line[e]! - firstLineNo]!] !== 0) return e;
  return end;
}

/**
 * Whether every line of the chunk is a prediction: no line of the two other kinds (a line is one
 * of the three), found by two scans in native code, where a loop here was compiled by V8 on the fly.
 */
function onlyPredictions(chunk: ChunkResult): boolean {
  const kind = chunk.kind.subarray(0, chunk.count);
  return kind.indexOf(LINE_KIND_REJECTED) < 0 && kind.indexOf(LINE_KIND_ORPHAN) < 0;
}

/** The scored dump lines, chunk after chunk in line order: the kept ones into the run table, the others counted. */
export class DumpTally {
  readonly inShard: Uint8Array;
  readonly table: RunTable;
  readonly runFirstLines: number[] = [];
  readonly lineRejections: Record<string, number> = {};
  readonly examples = new Map<string, RejectionExample[]>();
  readonly orphans = { count: 0, examples: [] as string[] };
  readonly orphanFirstLines: number[] = [];
  lines = 0;
  /** --rewards lines of the chunk added last, for the caller to write. */
  rewardsText = "";
  private readonly orphanIds = new Set<string>();
  /** Line-level rejections are counted by one shard only (shard 0, or the only run). */
  private readonly countsLineLevel: boolean;
  private readonly dumpName: string;

  constructor(
    private readonly slice: DocumentSlice,
    private readonly opts: DocumentEvalOptions,
    private readonly writesRewards: boolean,
  ) {
    this.inShard = casesInShard(slice, opts);
    this.countsLineLevel = !opts.shard || opts.shard.index === 0;
    this.table = new RunTable(slice.cases.length, passArena());
    this.dumpName = opts.dumpPath;
  }

  /** The chunk's lines, which follow the previous chunk's: a chunk of predictions only (nearly all) at once, else line by line. */
  addChunk(chunk: ChunkResult): void {
    if (onlyPredictions(chunk)) this.addPredictions(chunk);
    else this.addLines(chunk);
  }

  /** Any chunk, line by line: what `addPredictions` does at once for a chunk of predictions only. */
  addLines(chunk: ChunkResult): void {
    this.lines += chunk.count;
    let message = 0;
    let orphan = 0;
    // Table run of each of the chunk's run keys, resolved on first use (-1: not yet known).
    const runOf = new Int32Array(chunk.runKeys.length).fill(-1);
    for (let i = 0; i < chunk.count; i++) {
      const lineNo = chunk.firstLineNo + i;
      const text = chunk.messages[message]?.[0] === i ? chunk.messages[message++]![1] : undefined;
      const kind = chunk.kind[i];
      if (kind === LINE_KIND_PREDICTION) {
        this.addPrediction(chunk, i, lineNo, text, runOf);
      } else if (kind === LINE_KIND_ORPHAN) {
        const id = chunk.orphans[orphan]?.[0] === i ? chunk.orphans[orphan++]![1] : undefined;
        this.addOrphan(id!, lineNo);
      } else if (this.countsLineLevel) {
        const code = LINE_REJECTIONS[chunk.code[i]!]!;
        this.lineRejections[code] = (this.lineRejections[code] ?? 0) + 1;
        if (text !== undefined) this.addExample(code, `${this.dumpName}:${lineNo}`, text);
      }
    }
  }

  /**
   * A chunk of predictions only (nearly every chunk of a dump): the same as `addLines`, cheaper.
   * Its new runs are registered first (a new run has no kept line, so no line of the chunk is a
   * duplicate in it), then the table takes all its lines at once, then what follows from each kept
   * line (an example, a --rewards line) is done in line order.
   */
  private addPredictions(chunk: ChunkResult): void {
    this.lines += chunk.count;
    const table = this.table;
    const runOf = this.runsOf(chunk);
    const from = table.entries;
    table.putChunk(chunk, runOf, this.inShard, (i, firstLine) => this.addDuplicate(chunk, i, firstLine));
    // The reasons that still want examples, per reason index: most kept lines need nothing more
    // once each reason has its examples (a reason full now stays full).
    const wanted = Uint8Array.from(CASE_REASONS, (reason) => (this.writesRewards || (reason !== null && this.wantsExample(reason)) ? 1 : 0));
    const messages = chunk.messages;
    let message = 0;
    const end = table.entries;
    for (let e = from; (e = nextWanted(table.line, chunk.firstLineNo, chunk.code, wanted, e, end)) < end; e++) {
      const i = table.line[e]! - chunk.firstLineNo;
      const reason = CASE_REASONS[chunk.code[i]!]!;
      while (message < messages.length && messages[message]![0] < i) message++;
      const text = messages[message]?.[0] === i ? messages[message]![1] : undefined;
      this.addKept(chunk, i, reason, text);
    }
  }

  /**
   * The table run of each of the chunk's run keys (-1: no line of this shard has it), new runs
   * registered in the order of their first line, as `addPrediction` registers them.
   */
  private runsOf(chunk: ChunkResult): Int32Array {
    const runOf = new Int32Array(chunk.runKeys.length).fill(-1);
    let unresolved = runOf.length;
    for (let i = 0; i < chunk.count && unresolved > 0; i++) {
      const keyAt = chunk.runKey[i]!;
      if (runOf[keyAt]! >= 0 || !this.inShard[chunk.caseIndex[i]!]) continue;
      const key = chunk.runKeys[keyAt]!;
      let run = this.table.runIndex(key);
      if (run === undefined) {
        run = this.table.ensureRun(key);
        this.runFirstLines.push(chunk.firstLineNo + i);
      }
      runOf[keyAt] = run;
      unresolved--;
    }
    return runOf;
  }

  /** Line i of the chunk, a prediction: kept if it is the first of its (case, run) in this shard. */
  private addPrediction(chunk: ChunkResult, i: number, lineNo: number, text: string | undefined, runOf: Int32Array): void {
    const table = this.table;
    const caseIndex = chunk.caseIndex[i]!;
    if (!this.inShard[caseIndex]) return;
    const keyAt = chunk.runKey[i]!;
    const key = chunk.runKeys[keyAt]!;
    if (runOf[keyAt]! < 0) runOf[keyAt] = table.runIndex(key) ?? -1;
    const existing = runOf[keyAt]! >= 0 ? runOf[keyAt]! : undefined;
    if (existing !== undefined && table.has(existing, caseIndex)) {
      this.addDuplicate(chunk, i, table.lineOf(existing, caseIndex));
      return;
    }
    const run = existing ?? (runOf[keyAt] = table.ensureRun(key));
    if (existing === undefined) this.runFirstLines.push(lineNo);
    table.putColumns(
      run,
      caseIndex,
      lineNo,
      chunk.judgment[i]!,
      chunk.code[i]!,
      chunk.coverage[i]!,
      chunk.rewardAccuracy[i]!,
      chunk.matched[i]!,
      chunk.evData,
      chunk.evStart[i]!,
      chunk.evStart[i + 1]!,
    );
    this.addKept(chunk, i, CASE_REASONS[chunk.code[i]!]!, text);
  }

  /** Line i of the chunk, dropped: its (case, run) has a kept line already, `firstLine`. */
  private addDuplicate(chunk: ChunkResult, i: number, firstLine: number): void {
    const caseId = this.slice.cases[chunk.caseIndex[i]!]!.id;
    const key = chunk.runKeys[chunk.runKey[i]!]!;
    this.lineRejections.duplicate_prediction = (this.lineRejections.duplicate_prediction ?? 0) + 1;
    this.addExample(
      "duplicate_prediction",
      `${this.dumpName}:${chunk.firstLineNo + i}`,
      `duplicate prediction for case ${JSON.stringify(caseId)} in run ${JSON.stringify(key)} (first at line ${firstLine}; kept)`,
    );
  }

  /** Line i of the chunk, just kept: its example if it is format-invalid (`text`: its message when not the reason's fixed one), its --rewards line. */
  private addKept(chunk: ChunkResult, i: number, reason: (typeof CASE_REASONS)[number], text: string | undefined): void {
    const lineNo = chunk.firstLineNo + i;
    if (reason !== null && this.wantsExample(reason)) this.addExample(reason, `${this.dumpName}:${lineNo}`, text ?? fixedReasonMessage(reason)!);
    if (this.writesRewards) {
      const c = this.slice.cases[chunk.caseIndex[i]!]!;
      const key = chunk.runKeys[chunk.runKey[i]!]!;
      this.rewardsText +=
        `{"case_id":${JSON.stringify(c.id)},"run":${JSON.stringify(key)},"accuracy":${chunk.rewardAccuracy[i]}` +
        `,"reference_coverage":${chunk.coverage[i]},"format":${reason === null ? 1 : 0}` +
        `,"matched_evidence_count":${chunk.matched[i]},"gold_evidence_count":${c.gold.length}` +
        `,"format_valid":${reason === null},"reason":${reason === null ? "null" : `"${reason}"`},"line":${lineNo}}\n`;
    }
  }

  private addOrphan(id: string, lineNo: number): void {
    const shard = this.opts.shard;
    // Orphans belong to the shard their id hashes to.
    if (shard && shardOfCaseId(id, shard.count) !== shard.index) return;
    this.orphans.count++;
    if (!this.orphanIds.has(id) && this.orphans.examples.length < ORPHAN_EXAMPLE_CAP) {
      this.orphanIds.add(id);
      this.orphans.examples.push(id);
      this.orphanFirstLines.push(lineNo);
    }
  }

  private wantsExample(reason: string): boolean {
    return (this.examples.get(reason)?.length ?? 0) < EXAMPLE_CAP;
  }

  private addExample(reason: string, where: string, message: string): void {
    let list = this.examples.get(reason);
    if (!list) this.examples.set(reason, (list = []));
    if (list.length < EXAMPLE_CAP) list.push({ where, reason, message });
  }
}

export interface FinishInput extends ScoreOptions {
  slice: DocumentSlice;
  /** The cases scored, in slice order. */
  cases: SliceCase[];
  table: RunTable;
  lines: number;
  runFirstLines: number[];
  lineRejections: Record<string, number>;
  /** Examples of line-level rejections and of format-invalid kept lines, ≤ EXAMPLE_CAP per reason, in line order. */
  examples: RejectionExample[];
  orphans: { count: number; examples: string[] };
  orphanFirstLines: number[];
  outDir: string;
  seed: number;
  bootstrap: number;
  /** Pool size for the aggregation (cases.jsonl lines, partial sums, bootstrap). */
  workers: number;
  /** An open document pool to reuse (left open); else one is created and closed here. */
  pool?: ChunkPool<DocumentTaskPayload, DocumentTaskResult>;
  /** Progress of the aggregation phases. */
  observer?: RunObserver;
}

/**
 * Aggregates a filled table (from a dump, or rebuilt from shards' cases.jsonl by `mari merge`),
 * writes cases.jsonl (published by `casesFile.commit()`) and assembles the rejection counts. The
 * same function for both, which is what makes a merged report identical to a single run's.
 */
/**
 * Run keys are structure in report.json (the `runs` members) as well as in cases.jsonl. Report files
 * are scrubbed of secret values and cases.jsonl is not, so a run key holding one would make the two
 * disagree (merge and --baseline would no longer pair them): refused, without echoing the key.
 */
function refuseSecretRunKeys(keys: readonly string[], firstLines: readonly number[], dumpName: string): void {
  const secretIn = secretEnvFinder();
  keys.forEach((key, r) => {
    const name = secretIn(key);
    if (name !== null) {
      throw new InputError(
        located(
          dumpName,
          firstLines[r],
          `the run key holds the value of the environment variable ${name}; reports are scrubbed of it but cases.jsonl is not, so they would disagree: rename the run or unset ${name}`,
        ),
      );
    }
  });
}

export async function finishDocumentEval(input: FinishInput): Promise<DocumentEvalResult> {
  const { slice, cases, table } = input;
  // Runs in run order (by key, src/core/run-order.ts): sums over runs, cases.jsonl and the examples
  // then do not depend on the order the dump's lines arrive in. The listing keeps first appearance.
  table.reorderRuns(runOrder(table.keys));
  // cases.jsonl's digest (report.json's cases_xxh64), hashed as its bytes are written: reading
  // the file back to hash it cost as much again in reads.
  const casesHash = await casesHasher();
  const casesPath = join(input.outDir, "cases.jsonl");
  const writer = await AtomicLineWriter.open(casesPath);
  let readablePath: string;
  const options = { lenientIds: input.lenientIds };
  const pool =
    input.pool ??
    (await createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
      workers: input.workers,
      taskModule: DOCUMENT_TASK_MODULE,
      initData: input.workers > 1 ? scoreInit(slice, options) : undefined,
      state: { slice, options },
      shareThread: true,
      workerHeapMb: WORKER_HEAP_MB,
    }));
  // The report's slice hash, from a thread: it is computed there while this thread starts on the
  // ranges, off the main thread's path (0.1–0.15 s on the GRPO-shaped slice). In process, or when
  // this thread knows it already (a slice loaded from the compiled-slice cache comes with it): here.
  const threadSliceHash = pool.workers > 1 && knownSliceHash(slice) === undefined ? pool.run({ kind: "slice-hash" }) : undefined;
  threadSliceHash?.catch(() => {});
  let aggregate: Aggregate;
  try {
    aggregate = await aggregateDocumentEval(
      cases,
      table,
      { ...options, seed: input.seed, bootstrap: input.bootstrap, flippedCap: FLIPPED_CAP, ...(input.observer ? { observer: input.observer } : {}) },
      (bytes) => {
        casesHash.update(bytes);
        return writer.write(bytes);
      },
      pool,
    );
    readablePath = await writer.finish();
  } catch (err) {
    await writer.abort();
    throw err;
  } finally {
    if (!input.pool) await pool.close();
  }
  const byReason = new Map<string, RejectionExample[]>();
  for (const ex of [...input.examples, ...aggregate.missingExamples]) {
    let list = byReason.get(ex.reason);
    if (!list) byReason.set(ex.reason, (list = []));
    if (list.length < EXAMPLE_CAP) list.push(ex);
  }
  const rejections: Record<string, number> = {};
  for (const code of LINE_REJECTIONS) if (input.lineRejections[code]) rejections[code] = input.lineRejections[code]!;
  for (const reason of CASE_REASONS) {
    if (reason !== null && aggregate.reasons.get(reason)) rejections[reason] = aggregate.reasons.get(reason)!;
  }
  const rejectionExamples = [...LINE_REJECTIONS, ...CASE_REASONS].flatMap((reason) => (reason === null ? [] : (byReason.get(reason) ?? [])));

  return {
    slice,
    workers: input.workers,
    cases,
    aggregate,
    table,
    lines: input.lines,
    runKeys: table.listed.map((r) => table.keys[r]!),
    runFirstLines: input.runFirstLines,
    lineRejections: input.lineRejections,
    rejections,
    rejectionExamples,
    orphans: input.orphans,
    orphanFirstLines: input.orphanFirstLines,
    casesPath: readablePath,
    casesFile: {
      commit: async () => {
        await writer.commit();
        return casesPath;
      },
      abort: () => writer.abort(),
      digest: casesHash.digest(),
    },
    sliceHash: threadSliceHash ? ((await threadSliceHash) as SliceHashResult).hash : sliceHashOf(slice),
    coverage: coverageOf(cases, table),
  };
}

/** How many of `cases` have a kept line in some run; and the length of the covered run of cases from the first. */
function coverageOf(cases: readonly SliceCase[], table: RunTable): { cases: number; leading: number } {
  // A kept line in every slot (every case in every run: most dumps) covers them all, unlooked at.
  if (table.keys.length > 0 && table.entries === table.caseCount * table.keys.length) return { cases: cases.length, leading: cases.length };
  const counts = coveredCases(cases, table.cell, table.caseCount, table.keys.length, new Float64Array(2));
  return { cases: counts[0]!, leading: counts[1]! };
}

/**
 * coverageOf's counts into [covered, leading] (`cell`: the run table's slots, 0 where no kept
 * line). Kept in the array through the loop: code after it had no type feedback when V8 compiled
 * the loop on the fly, and sent it back to the interpreter.
 */
function coveredCases(cases: readonly SliceCase[], cell: Int32Array, caseCount: number, runs: number, counts: Float64Array): Float64Array {
  let gap = false;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!.index;
    let any = false;
    for (let run = 0; run < runs && !any; run++) any = cell[run * caseCount + c] !== 0;
    if (any) counts[0]!++;
    else gap = true;
    if (!gap) counts[1] = counts[0]!;
  }
  return counts;
}
