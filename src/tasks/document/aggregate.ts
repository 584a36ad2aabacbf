// Aggregates a scored document eval (docs/eval.md, "Metrics"). Cases are cut into fixed ranges,
// each turned into cases.jsonl bytes and partial sums added in range order, so every float sum is
// computed the same way whatever the worker count or dump chunk size: reports are byte-identical.
// A dense eval's ranges are all taken by one WebAssembly pass on this thread (range-pass.ts) when
// it takes the eval; else range.ts's ranges run on the pool's workers and come back in order.
// Bootstrap resamples are computed in blocks on the same pool. SetCons and majority vote run here,
// from per-run bitsets.
import { SILENT_OBSERVER, type Progress, type RunObserver } from "../../io/observer.js";
import { dict } from "../../core/dict.js";
import { BOOTSTRAP_RESAMPLING, percentileInterval } from "../../core/metrics/bootstrap.js";
import { namedValues } from "../../core/metrics/binary.js";
import {
  BREAKDOWN_METRIC_NAMES,
  breakdownMetricValues,
  type CountColumn,
  countColumn,
  emptyRunSums,
  RUN_METRIC_NAMES,
  runMetricValues,
  RunSumsTable,
} from "../../core/metrics/run-sums.js";
import { REWARD_HISTOGRAM_SLOTS, rewardHistograms } from "../../core/metrics/reward-histograms.js";
import { spreadsOf } from "../../core/metrics/spread.js";
import { wilsonConfidence } from "../../report/wilson-ci.js";
import { computeSetCons, majorityVote, type SetConsOutcome } from "../../core/metrics/setcons.js";
import type { SliceCase } from "../../io/slice.js";
import { mapInOrder, thisThreadOf, type ChunkPool } from "../../pool/pool.js";
import type { ConfidenceInterval, HistogramBin, MetricValue, RejectionExample, RunsSummary } from "../../report/types.js";
import { CASE_REASONS, EXAMPLES_PER_REASON, type ScoreOptions } from "./score.js";
import {
  aggregateRangeCells,
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_FIELDS,
  rangeCases,
  rangeRuns,
  RUN_SUM_FIELDS,
  ownedBuffers,
  type AggregatePayload,
  type BootstrapResult,
  type DocumentTaskPayload,
  type DocumentTaskResult,
  type RangePayload,
  type RangeResult,
} from "./range.js";
import { denseRangePass, type PassCaseColumns } from "./range-pass.js";
import { EvidenceBuffer, type RunTable } from "./run-table.js";
import { aggregateSparse, isSparse, type CellTotals } from "./sparse.js";

export interface AggregateOptions extends ScoreOptions {
  seed: number;
  bootstrap: number;
  flippedCap: number;
  /**
   * How the (case, run) cells are aggregated and cases.jsonl laid out: by default sparse when fewer
   * than half the cells have a kept line (sparse.ts), else dense (ranges). Forced by tests only.
   */
  layout?: "dense" | "sparse";
  /**
   * Whether a dense eval may be aggregated by the WebAssembly pass on this thread (range-pass.ts)
   * rather than range.ts's ranges (default true); false only in the tests that hold the two to the
   * same outputs.
   */
  rangePass?: boolean;
  /** Progress of the two phases: (case, run) units aggregated, then bootstrap blocks and SetCons. */
  observer?: RunObserver;
}

/**
 * report.json's `runs` lists the metrics of at most this many runs: the first ones in order of
 * appearance. Above it, `runs_summary` says how many runs there are and how many rows were left
 * out; `metrics` and `spread` still cover every run (docs/reports.md). At a million runs a row per
 * run would not fit in one JavaScript string.
 */
export const RUN_ROWS_CAP = 1000;

export interface Aggregate {
  metrics: Record<string, MetricValue>;
  /** The first RUN_ROWS_CAP runs' metrics. */
  runs: Record<string, Record<string, MetricValue>>;
  /** Set when `runs` leaves runs out. */
  runsSummary: RunsSummary | null;
  spread: Record<string, { std: number; min: number; max: number }>;
  ci: Record<string, ConfidenceInterval>;
  breakdowns: Record<string, Record<string, Record<string, MetricValue>>>;
  setcons: Record<string, unknown> | null;
  setconsReason: string | null;
  majority: Record<string, MetricValue> | null;
  /** Per-case reason → count (summed over runs; missing_prediction once per case and run). */
  reasons: Map<string, number>;
  missingExamples: RejectionExample[];
  /** Reward distributions over all (case, run) predictions, missing ones included (scored as negative). */
  histograms: Record<string, HistogramBin[]>;
  invalid: { count: number; total: number };
  casesScored: number;
  /** What the dense pass gathered of each case for the case explorer (absent when it did not aggregate the eval, or they do not stand). */
  caseColumns?: PassCaseColumns;
}

/**
 * Written range buffers ≥ this size are reused. The writer's promise resolves on `drain` for a
 * chunk above its high-water mark (16 KB), i.e. once the bytes are in the file; a smaller chunk
 * may still be queued when it resolves, so it is never reused.
 */
const REUSE_MIN_BYTES = 1 << 20;

/** Range bytes below this size are copied into blocks of WRITE_BLOCK_BYTES and written a block at a time. */
const GATHER_BELOW_BYTES = 64 << 10;

/**
 * Ranges of fewer (case, run) cells than this are not sent to threads: on the GRPO-shaped bench
 * (8 cases × 8 runs a range) sharing them with a thread made the pass 0.1–0.2 s slower than
 * running them all on this thread; the 1M bench's ranges (8 cases × 1,000+ runs) pay.
 */
const THREAD_RANGE_CELLS = 1024;
const WRITE_BLOCK_BYTES = 1 << 20;

interface EncodedRunKeys {
  data: Uint8Array;
  start: Int32Array;
}

/**
 * Every run key's JSON rendering in UTF-8, once per eval (not once per range and run). A key of
 * printable ASCII other than `"` and `\` renders as itself in quotes, written byte by byte (no
 * string per key: a million of them was a third of a second); others through JSON.stringify.
 */
function encodeRunKeys(keys: readonly string[]): EncodedRunKeys {
  const start = new Int32Array(keys.length + 1);
  let data = new Uint8Array(keys.reduce((n, key) => n + key.length + 2, 16));
  const encoder = new TextEncoder();
  let at = 0;
  for (let r = 0; r < keys.length; r++) {
    const key = keys[r]!;
    const json = isPlainKey(key) ? null : JSON.stringify(key);
    const most = json === null ? key.length + 2 : 3 * json.length;
    if (at + most > data.length) {
      const grown = new Uint8Array(Math.max(2 * data.length, at + most));
      grown.set(data.subarray(0, at));
      data = grown;
    }
    if (json !== null) at += encoder.encodeInto(json, data.subarray(at)).written;
    else {
      data[at++] = 0x22;
      for (let k = 0; k < key.length; k++) data[at++] = key.charCodeAt(k);
      data[at++] = 0x22;
    }
    start[r + 1] = at;
  }
  return { data: data.slice(0, at), start };
}

/** Printable ASCII without `"` or `\`: JSON.stringify only adds the quotes. */
function isPlainKey(key: string): boolean {
  for (let k = 0; k < key.length; k++) {
    const code = key.charCodeAt(k);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/** Cuts the (case, run) table into range payloads, in cases.jsonl order; each takes a spare buffer if one is free. */
function* rangePayloads(cases: readonly SliceCase[], table: RunTable, keys: EncodedRunKeys, spares: Uint8Array[]): Generator<RangePayload> {
  const R = table.keys.length;
  const caseStep = rangeCases(R);
  const runStep = Math.max(1, rangeRuns(R));
  for (let from = 0; from < cases.length; from += caseStep) {
    const range = cases.slice(from, from + caseStep);
    // No runs: one empty block per range (its cases still open breakdown cells).
    for (let r0 = 0; r0 < Math.max(1, R); r0 += runStep) yield rangePayload(range, from, table, keys, r0, Math.min(R, r0 + runStep), spares.pop() ?? null);
  }
}

/** The payload of cases `range` (the first at position `caseFrom`) × runs r0 … r1 − 1. */
function rangePayload(
  range: readonly SliceCase[],
  caseFrom: number,
  table: RunTable,
  keys: EncodedRunKeys,
  r0: number,
  r1: number,
  spare: Uint8Array | null,
): RangePayload {
  const R = r1 - r0;
  const w = range.length;
  const p: RangePayload = {
    kind: "range",
    caseIndices: Int32Array.from(range, (c) => c.index),
    caseFrom,
    runFrom: r0,
    runKeys: r0 === 0 && r1 === table.keys.length ? table.keys : table.keys.slice(r0, r1),
    // Copies: a payload's typed arrays move to the worker.
    runKeyData: keys.data.slice(keys.start[r0]!, keys.start[r1]!),
    runKeyStart: keys.start.slice(r0, r1 + 1).map((at) => at - keys.start[r0]!),
    entry: new Int32Array(R * w).fill(-1),
    line: new Int32Array(R * w),
    judgment: new Uint8Array(R * w),
    reason: new Uint8Array(R * w),
    coverage: new Float64Array(R * w),
    rewardAccuracy: new Float64Array(R * w),
    matched: new Int32Array(R * w),
    evStart: new Int32Array(R * w),
    evLength: new Int32Array(R * w),
    evData: new Int32Array(0),
    spare,
  };
  const evidence = new EvidenceBuffer();
  for (let r = 0; r < R; r++) {
    for (let j = 0; j < w; j++) {
      const i = range[j]!.index;
      const s = r * w + j;
      const e = table.entry(r0 + r, i);
      if (e < 0) continue;
      p.entry[s] = s;
      p.evStart[s] = evidence.length;
      p.evLength[s] = table.evLength[e]!;
      p.line[s] = table.line[e]!;
      p.judgment[s] = table.judgment[e]!;
      p.reason[s] = table.reason[e]!;
      p.coverage[s] = table.coverage[e]!;
      p.rewardAccuracy[s] = table.rewardAccuracy[e]!;
      p.matched[s] = table.matched[e]!;
      table.copyEvidence(r0 + r, i, evidence);
    }
  }
  p.evData = evidence.toArray();
  return p;
}

/**
 * The ranges' results computed right here from the run table (no payload copied: every range runs
 * on this thread), in the order and with the ranges of `rangePayloads`. A result's arrays are
 * reused by the next range: each must be added into the totals before the next is asked for.
 */
function* tableRangeResults(
  cases: readonly SliceCase[],
  table: RunTable,
  keys: EncodedRunKeys,
  options: ScoreOptions,
  spares: Uint8Array[],
): Generator<RangeResult> {
  const R = table.keys.length;
  const caseStep = rangeCases(R);
  const runStep = Math.max(1, rangeRuns(R));
  const cells = {
    entry: new Int32Array(0),
    line: table.line,
    judgment: table.judgment,
    reason: table.reason,
    coverage: table.coverage,
    rewardAccuracy: table.rewardAccuracy,
    matched: table.matched,
    evStart: table.evStart,
    evLength: table.evLength,
    evData: table.evidenceIds,
  };
  let previous: RangeResult | null = null;
  for (let from = 0; from < cases.length; from += caseStep) {
    const range = cases.slice(from, from + caseStep);
    const w = range.length;
    const slices = Int32Array.from(range, (c) => c.index);
    for (let r0 = 0; r0 < Math.max(1, R); r0 += runStep) {
      const runs = Math.min(R, r0 + runStep) - r0;
      if (cells.entry.length !== runs * w) cells.entry = new Int32Array(runs * w);
      // The table's slot column read in place (table.entry per slot, a call each, was an eighth of the pass).
      const slot = table.cell;
      for (let r = 0; r < runs; r++) {
        const at = (r0 + r) * table.caseCount;
        for (let j = 0; j < w; j++) cells.entry[r * w + j] = slot[at + slices[j]!]! - 1;
      }
      // The consumer has added the previous result into the totals before it asks for this one.
      previous = aggregateRangeCells(
        {
          cases: range,
          caseFrom: from,
          runFrom: r0,
          runs,
          runKeys: table.keys,
          runKeyData: keys.data,
          runKeyStart: keys.start,
          runKeyBase: r0,
          cells,
          spare: spares.pop() ?? null,
          reuse: previous,
        },
        options,
      );
      yield previous;
    }
  }
}

export async function aggregateDocumentEval(
  cases: readonly SliceCase[],
  table: RunTable,
  options: AggregateOptions,
  writeBytes: (bytes: Uint8Array) => Promise<void>,
  /** The document pool (scoring's, reused: its workers already hold the slice). Not closed here. */
  pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult>,
): Promise<Aggregate> {
  const runCount = table.keys.length;
  const caseCount = cases.length;
  const totals = emptyCellTotals(runCount, caseCount);
  const labels = labelsOf(cases);
  const observer = options.observer ?? SILENT_OBSERVER;
  const caseColumns = await aggregateCells(cases, table, options, writeBytes, pool, totals, observer);
  const { bootstrapValues, setconsOutcome } = await resampleWithSetCons(cases, table, options, pool, totals, labels, observer);
  const { reasons, invalid } = reasonTally(totals.reasonCounts);
  const { metrics, runs, spread, pooled } = runMetricTables(table, totals.sums);
  const setcons = "reason" in setconsOutcome ? null : (setconsOutcome as unknown as Record<string, unknown>);
  return {
    metrics,
    runs,
    runsSummary: runCount > RUN_ROWS_CAP ? { runs: runCount, listed: RUN_ROWS_CAP, omitted: runCount - RUN_ROWS_CAP } : null,
    spread,
    ci: confidenceIntervals(pooled, bootstrapValues, options, caseCount),
    breakdowns: breakdownTables(totals.cellSums, runCount),
    setcons,
    setconsReason: "reason" in setconsOutcome ? setconsOutcome.reason : null,
    majority: runCount > 0 ? majorityVote(labels, totals.judgments) : null,
    reasons,
    missingExamples: totals.missingExamples,
    histograms: rewardHistograms(totals.histogramCounts),
    invalid: { count: invalid, total: caseCount * runCount },
    casesScored: caseCount * runCount,
    ...(caseColumns ? { caseColumns } : {}),
  };
}

/**
 * Each case's gold label, 1 or 0. A loop of its own: `Uint8Array.from(cases, …)` walked the cases
 * through the array iterator, 3 MB of iterator results on the GRPO bench (a sampling heap profile).
 */
function labelsOf(cases: readonly SliceCase[]): Uint8Array {
  const labels = new Uint8Array(cases.length);
  for (let k = 0; k < cases.length; k++) labels[k] = cases[k]!.label ? 1 : 0;
  return labels;
}

/** Zeroed totals of `runCount` runs × `caseCount` cases, to be filled by the dense or sparse pass. */
function emptyCellTotals(runCount: number, caseCount: number): CellTotals {
  // Per run, RUN_SUM_FIELDS; per breakdown cell, BREAKDOWN_FIELDS per run (counts: none exceeds the cases).
  return {
    sums: new RunSumsTable(runCount, caseCount),
    cellSums: new Map<string, CountColumn>(),
    // Shared memory: every bootstrap block reads the same outcome codes, so workers see them uncopied.
    codes: new Uint8Array(new SharedArrayBuffer(runCount * caseCount)),
    // Presence and judgment per (run, case), run-major: two arrays, not two per run.
    judgments: {
      runs: runCount,
      cases: caseCount,
      present: new Uint8Array(runCount * caseCount),
      judgment: new Uint8Array(runCount * caseCount),
    },
    reasonCounts: new Float64Array(CASE_REASONS.length),
    histogramCounts: new Float64Array(REWARD_HISTOGRAM_SLOTS),
    missingExamples: [],
  };
}

/**
 * Every (case, run) cell into `totals` and cases.jsonl's bytes to `writeBytes`: sparse pass or
 * ranges (the dense WebAssembly pass, or on the pool). Returns what the dense pass gathered of each
 * case for the case explorer, when it took the eval.
 */
async function aggregateCells(
  cases: readonly SliceCase[],
  table: RunTable,
  options: AggregateOptions,
  writeBytes: (bytes: Uint8Array) => Promise<void>,
  pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult>,
  totals: CellTotals,
  observer: RunObserver,
): Promise<PassCaseColumns | undefined> {
  const cellCount = table.keys.length * cases.length;
  const aggregating = observer.progress("aggregate (case × run)", cellCount);
  let aggregated = false;
  let caseColumns: PassCaseColumns | undefined;
  try {
    if (options.layout === "sparse" || (options.layout === undefined && isSparse(cases, table, options))) {
      await aggregateSparse(cases, table, options, writeBytes, totals);
      aggregating.tick(cellCount);
    } else {
      caseColumns = await aggregateRanges(cases, table, options, writeBytes, pool, totals, aggregating);
    }
    aggregated = true;
  } finally {
    aggregating.done(aggregated);
  }
  return caseColumns;
}

/**
 * The dense pass: the WebAssembly pass on this thread when it takes the eval (returning its case
 * columns, when they stand), else range payloads through the pool, each result written and added
 * in range order.
 */
async function aggregateRanges(
  cases: readonly SliceCase[],
  table: RunTable,
  options: AggregateOptions,
  writeBytes: (bytes: Uint8Array) => Promise<void>,
  pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult>,
  totals: CellTotals,
  aggregating: Progress,
): Promise<PassCaseColumns | undefined> {
  // The previous range's bytes are written while this one is merged and the next one computed;
  // awaiting each write right away left the CPU idle for a fifth of the run.
  let writing: Promise<void> = Promise.resolve();
  const write = async (bytes: Uint8Array, then?: () => void): Promise<void> => {
    await writing;
    writing = then ? writeBytes(bytes).then(then) : writeBytes(bytes);
    writing.catch(() => {});
  };
  // Small ranges' bytes are gathered into blocks: written one by one (4,688 ranges of ≈ 10 KB on
  // the GRPO-shaped dump), every other one filled the stream and waited for the disk.
  let block = new Uint8Array(WRITE_BLOCK_BYTES);
  let used = 0;
  const flush = async (): Promise<void> => {
    if (used === 0) return;
    const full = block.subarray(0, used);
    block = new Uint8Array(WRITE_BLOCK_BYTES);
    used = 0;
    await write(full);
  };
  const keys = encodeRunKeys(table.keys);
  // The whole dense pass is WebAssembly's, on this thread, whenever it takes the eval
  // (range-pass.ts): less CPU and wall time than ranges sent to threads (the 1M bench with
  // --workers 2: 0.84x the CPU and 0.88x the wall of the same build sending them, 7 alternating pairs).
  const pass = options.rangePass !== false ? denseRangePass(cases, table, keys, options) : undefined;
  if (pass?.sum()) {
    pass.addInto(totals);
    aggregating.tick(table.keys.length * cases.length);
    // Each view is written before the one after next is made (DenseRangePass.lines).
    for (const bytes of pass.lines()) await write(bytes);
    await writing;
    totals.missingExamples.push(...pass.missingExamples());
    return pass.caseColumns();
  }
  // Range payloads are built for one task each: their buffers move to the worker.
  const spares: Uint8Array[] = [];
  // Ranges of few (case, run) cells cost a thread more to receive and answer than to compute, and
  // this thread more to send and merge than to run: they stay on this thread (the scoring's
  // threads go on with nothing; a thread sharing nothing here is idle, not slower).
  const cells = rangeCases(table.keys.length) * Math.max(1, rangeRuns(table.keys.length));
  const rangePool = cells < THREAD_RANGE_CELLS ? thisThreadOf(pool) : pool;
  // A pool of one worker is this thread: the ranges read the run table where it is.
  const results =
    rangePool.workers === 1
      ? tableRangeResults(cases, table, keys, options, spares)
      : mapInOrder(rangePool, rangePayloads(cases, table, keys, spares), undefined, ownedBuffers);
  for await (const result of results) {
    const range = result as RangeResult;
    const bytes = range.bytes;
    if (bytes.length < GATHER_BELOW_BYTES) {
      if (used + bytes.length > block.length) await flush();
      block.set(bytes, used);
      used += bytes.length;
      // Copied: its buffer builds a later range's bytes (a fresh one per range was a tenth of the GRPO-shaped eval).
      spares.push(new Uint8Array(bytes.buffer));
    } else {
      await flush();
      await write(bytes, () => {
        if (bytes.length >= REUSE_MIN_BYTES) spares.push(new Uint8Array(bytes.buffer));
      });
    }
    addRange(totals, range, table.keys.length, cases.length);
    aggregating.tick(range.codes.length);
  }
  await flush();
  await writing;
  return undefined;
}

/** Adds one range's block (runs runFrom … of the cases from caseFrom) into the eval's totals. */
function addRange(totals: CellTotals, range: RangeResult, runCount: number, caseCount: number): void {
  const { sums, cellSums, codes, judgments, reasonCounts, histogramCounts, missingExamples } = totals;
  const fields = RUN_SUM_FIELDS.length;
  const cellFields = BREAKDOWN_FIELDS.length;
  const caseFrom = range.caseFrom;
  const runFrom = range.runFrom;
  const blockRuns = range.sums.length / fields;
  const width = blockRuns > 0 ? range.codes.length / blockRuns : 0;
  for (let r = 0; r < blockRuns; r++) sums.add(runFrom + r, range.sums, r * fields);
  // Slot (r, j) of the range is (runFrom + r, caseFrom + j) of the eval (a byte loop: width is
  // small, a subarray per run and range was most of this step at a million runs).
  for (let r = 0; r < blockRuns; r++) {
    const to = (runFrom + r) * caseCount + caseFrom;
    for (let j = 0; j < width; j++) {
      codes[to + j] = range.codes[r * width + j]!;
      judgments.present[to + j] = range.present[r * width + j]!;
      judgments.judgment[to + j] = range.judgment[r * width + j]!;
    }
  }
  range.cellKeys.forEach((key, cell) => {
    let perRun = cellSums.get(key);
    if (!perRun) cellSums.set(key, (perRun = countColumn(runCount * cellFields, caseCount)));
    const at = cell * blockRuns * cellFields;
    for (let t = 0; t < blockRuns * cellFields; t++) perRun[runFrom * cellFields + t]! += range.cellSums[at + t]!;
  });
  for (let idx = 0; idx < reasonCounts.length; idx++) reasonCounts[idx]! += range.reasonCounts[idx]!;
  for (let idx = 0; idx < histogramCounts.length; idx++) histogramCounts[idx]! += range.histogramCounts[idx]!;
  for (const ex of range.missingExamples) if (missingExamples.length < EXAMPLES_PER_REASON) missingExamples.push(ex);
}

/**
 * The bootstrap resamples of macro-F1 on the pool while SetCons runs on this thread (it only needs
 * the judgments): one block per worker thread, since a worker that finishes a block waits for this
 * thread to hand it the next one, and this thread is busy with SetCons; and each block pays for
 * grouping the cases again (on the GRPO-shaped bench, a second block on the one thread cost more
 * than it saved). (Each resample depends only on the seed and its index, so the blocks' sizes
 * change no value.)
 */
async function resampleWithSetCons(
  cases: readonly SliceCase[],
  table: RunTable,
  options: AggregateOptions,
  pool: ChunkPool<DocumentTaskPayload, DocumentTaskResult>,
  totals: CellTotals,
  labels: Uint8Array,
  observer: RunObserver,
): Promise<{ bootstrapValues: Float64Array[]; setconsOutcome: SetConsOutcome }> {
  const runCount = table.keys.length;
  const blocks: AggregatePayload[] = [];
  if (runCount > 0 && cases.length > 0 && options.bootstrap > 0) {
    // With this thread one of the workers (busy with SetCons), the threads alone share the blocks.
    const size = Math.ceil(options.bootstrap / (pool.here?.threads ?? pool.workers));
    for (let from = 0; from < options.bootstrap; from += size) {
      blocks.push({
        kind: "bootstrap",
        labels,
        codes: totals.codes,
        runCount,
        seed: options.seed,
        from,
        to: Math.min(options.bootstrap, from + size),
      });
    }
  }
  // Submitted right here, not through an async iterator: that would post the first block only
  // after a microtask turn, i.e. after the synchronous SetCons below.
  const resampling = observer.progress("bootstrap blocks + SetCons", blocks.length + 1);
  const bootstrapDone = Promise.all(blocks.map((block) => pool.run(block).then((result) => (resampling.tick(), result))));
  bootstrapDone.catch(() => resampling.done(false));
  const caseIds: string[] = [];
  const tableIndex = caseIdsAndIndices(cases, caseIds);
  const setconsOutcome = computeSetCons({
    caseIds,
    runs: totals.judgments,
    evidenceRanges: {
      ids: table.evidenceIds,
      cells: table.cell,
      stride: table.caseCount,
      slotOf: tableIndex,
      start: table.evStart,
      length: table.evLength,
    },
    flippedCap: options.flippedCap,
  });
  resampling.tick();
  const bootstrapValues: Float64Array[] = [];
  for (const result of await bootstrapDone) bootstrapValues.push((result as BootstrapResult).values);
  resampling.done();
  return { bootstrapValues, setconsOutcome };
}

/**
 * The run table's index of each case, read once per (run, case) by SetCons: not through the case
 * objects; and each case's ID, pushed onto `ids`. A plain loop (Int32Array.from walks the array
 * through an iterator), which is all the function does: code after a loop V8 compiles on the fly
 * had no type feedback yet, and sent that code back to the interpreter.
 */
function caseIdsAndIndices(cases: readonly SliceCase[], ids: string[]): Int32Array {
  const index = new Int32Array(cases.length);
  for (let k = 0; k < cases.length; k++) {
    index[k] = cases[k]!.index;
    ids.push(cases[k]!.id);
  }
  return index;
}

/** Per-case reason counts by name (the non-zero ones) and how many were invalid in all. */
function reasonTally(reasonCounts: Float64Array): { reasons: Map<string, number>; invalid: number } {
  let invalid = 0;
  const reasons = new Map<string, number>();
  CASE_REASONS.forEach((reason, idx) => {
    if (reason !== null && reasonCounts[idx]! > 0) {
      reasons.set(reason, reasonCounts[idx]!);
      invalid += reasonCounts[idx]!;
    }
  });
  return { reasons, invalid };
}

/**
 * Each run's metrics: their spread over all runs, in run order (for the headline and spread; no
 * column per metric is held), and a row for the first RUN_ROWS_CAP runs only; with the sums pooled
 * over all runs.
 */
function runMetricTables(table: RunTable, sums: RunSumsTable): Pick<Aggregate, "metrics" | "runs" | "spread"> & { pooled: ReturnType<typeof emptyRunSums> } {
  const fields = RUN_SUM_FIELDS.length;
  const runCount = table.keys.length;
  const runs = dict<Record<string, MetricValue>>();
  const pooled = emptyRunSums();
  const scratch = new Float64Array(fields);
  for (let r = 0; r < runCount; r++) {
    sums.load(r, scratch);
    for (let f = 0; f < fields; f++) pooled[RUN_SUM_FIELDS[f]!] += scratch[f]!;
  }
  const metricsOf = (r: number, values: Float64Array): void => {
    sums.load(r, scratch);
    runMetricValues(scratch, 0, values);
  };
  const names = RUN_METRIC_NAMES;
  // Rows are listed in order of first appearance, the first RUN_ROWS_CAP of them.
  const row = new Float64Array(names.length);
  for (const r of table.listed.slice(0, RUN_ROWS_CAP)) {
    metricsOf(r, row);
    runs[table.keys[r]!] = namedValues(names, row);
  }
  const spreads = spreadsOf(names.length, runCount, metricsOf);
  const metrics: Record<string, MetricValue> = {};
  const spread: Record<string, { std: number; min: number; max: number }> = {};
  names.forEach((name, n) => {
    const s = spreads[n]!;
    metrics[name] = s.mean;
    spread[name] = { std: s.std, min: s.min, max: s.max };
  });
  return { metrics, runs, spread, pooled };
}

/** Wilson intervals of the pooled proportions, and macro-F1's percentile interval over the resamples. */
function confidenceIntervals(
  pooled: ReturnType<typeof emptyRunSums>,
  bootstrapValues: readonly Float64Array[],
  options: AggregateOptions,
  caseCount: number,
): Record<string, ConfidenceInterval> {
  const ci: Record<string, ConfidenceInterval> = {
    accuracy: wilsonConfidence(pooled.tp + pooled.tn, pooled.cases),
    localization_recall: wilsonConfidence(pooled.localizationHits, pooled.tp + pooled.fn),
    format_valid_rate: wilsonConfidence(pooled.formatValid, pooled.cases),
  };
  // --bootstrap 0 draws no resample, so there is no interval to state (not [0, 0]).
  if (options.bootstrap > 0) {
    const allValues = new Float64Array(bootstrapValues.reduce((n, v) => n + v.length, 0));
    bootstrapValues.reduce((offset, v) => (allValues.set(v, offset), offset + v.length), 0);
    const macro = percentileInterval(allValues, options.seed, options.bootstrap, caseCount);
    ci.macro_f1 = {
      low: macro.low,
      high: macro.high,
      method: "bootstrap",
      n: macro.n,
      seed: macro.seed,
      resamples: macro.resamples,
      resampling: BOOTSTRAP_RESAMPLING,
    };
  }
  return ci;
}

/** Per breakdown dimension and value (sorted), each metric's mean over runs. */
function breakdownTables(cellSums: ReadonlyMap<string, CountColumn>, runCount: number): Record<string, Record<string, Record<string, MetricValue>>> {
  const cellFields = BREAKDOWN_FIELDS.length;
  const breakdowns = dict<Record<string, Record<string, MetricValue>>>();
  for (const dim of BREAKDOWN_DIMENSIONS) {
    for (const key of [...cellSums.keys()].sort()) {
      const [d, value] = key.split("\u0000") as [string, string];
      if (d !== dim) continue;
      const perRun = cellSums.get(key)!;
      const cellNames = BREAKDOWN_METRIC_NAMES;
      const means = spreadsOf(cellNames.length, runCount, (r, values) => breakdownMetricValues(perRun, r * cellFields, values), true);
      const cell: Record<string, MetricValue> = {};
      cellNames.forEach((name, n) => (cell[name] = means[n]!.mean));
      (breakdowns[dim] ??= dict())[value] = cell;
    }
  }
  return breakdowns;
}
