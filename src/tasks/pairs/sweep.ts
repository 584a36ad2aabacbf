// `mari sweep PAIRS` (docs/pairs.md, "mari sweep PAIRS"): evaluate the classifier over a grid of configs on one labelled
// corpus, then pick the best config under the gates and the Pareto front. The work is split into
// chunks of pairs; each chunk yields one tally per config, and tallies add up exactly, so the
// output does not depend on the number of workers.
import { oneRunEach } from "../../io/output-guard.js";
import { availableParallelism } from "node:os";
import type { ClassifierConfig } from "../../core/classifier/index.js";
import {
  bestConfigIndex,
  costMatrix,
  defaultGrid,
  emptyTally,
  formatConfig,
  fullGrid,
  GridError,
  gridFromSpec,
  mergeTallies,
  pairMetrics,
  pairMetricsByKind,
  paretoFront,
  type PairTally,
  type SweepPair,
} from "../../core/pairs/index.js";
import { InputError, located } from "../../io/errors.js";
import type { GateSpec } from "../../gates/spec.js";
import { sha256File } from "../../io/hashing.js";
import { collectSystemInfo } from "../../report/system.js";
import type { Report } from "../../report/types.js";
import { readJsonFile } from "../../io/json-file.js";
import { loadUnitPrices } from "./costs.js";
import { PairInputStats, readPairs, logRejections } from "./input.js";
import { evaluatePairGates, pairGateList } from "./run.js";
import { createChunkPool, mapInOrder } from "../../pool/pool.js";
import { siblingModuleUrl } from "../../pool/module-url.js";
import { inOneStep, inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import type { SweepInit } from "./sweep-worker.js";
import { writeSweepOutputs, type SweepResult, type SweepRow } from "./sweep-report.js";

export interface SweepOptions {
  pairs: string;
  /** `default`, `full`, or a JSON grid file. */
  grid?: string | undefined;
  costs?: string | undefined;
  out?: string | undefined;
  /** 1 = in-process; more = a worker pool running the compiled workers from dist/. */
  workers?: number | undefined;
  /** User gates (replace the default gate on the same metric and direction). */
  gates?: readonly GateSpec[] | undefined;
  /** Progress and rejected-record messages (default: silent). */
  observer?: RunObserver | undefined;
}

/** What a sweep produced: the rows and choices written to the files, and how it ran. */
export interface SweepOutcome {
  result: SweepResult;
  /** Files written into the output directory. */
  files: string[];
  seconds: number;
  /** Worker threads used (1 = in-process). */
  threads: number;
}

/** Smallest unit of work, in pairs: each chunk sends back one tally per config, so chunks must not be tiny. */
export const SWEEP_MIN_CHUNK_PAIRS = 256;

/** About four chunks per worker: enough to balance the load, few enough that messaging stays cheap. */
export function sweepChunkPairs(pairs: number, workers: number): number {
  return Math.max(SWEEP_MIN_CHUNK_PAIRS, Math.ceil(pairs / (workers * 4)));
}

export async function resolveGrid(spec: string | undefined): Promise<{ name: string; configs: ClassifierConfig[] }> {
  if (spec === undefined || spec === "default") return { name: "default", configs: defaultGrid() };
  if (spec === "full") return { name: "full", configs: fullGrid() };
  const value = await readJsonFile(spec, "grid file (--grid expects default, full or a JSON file)");
  try {
    return { name: spec, configs: gridFromSpec(value) };
  } catch (err) {
    if (err instanceof GridError) throw new InputError(located(spec, undefined, err.message));
    throw err;
  }
}

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 8));
}

/** Tallies per config over all pairs, summed chunk by chunk in input order (in-process for one worker). */
async function tallyGrid(
  pairs: SweepPair[],
  configs: ClassifierConfig[],
  workers: number,
  observer: RunObserver,
): Promise<{ tallies: PairTally[]; threads: number }> {
  const chunks: SweepPair[][] = [];
  const size = sweepChunkPairs(pairs.length, workers);
  for (let i = 0; i < pairs.length; i += size) chunks.push(pairs.slice(i, i + size));
  const initData: SweepInit = { configs };
  const threads = Math.min(workers, chunks.length);
  const pool = await createChunkPool<ClassifierConfig[], SweepPair[], PairTally[]>({
    // More threads than chunks would only start idle workers (a single chunk runs in-process).
    workers: threads,
    taskModule: { url: siblingModuleUrl(import.meta.url, "sweep-worker"), load: () => import("./sweep-worker.js") },
    initData,
    state: configs,
  });
  const bar = observer.progress("sweep", pairs.length);
  let totals = configs.map(() => emptyTally());
  let completed = false;
  try {
    let k = 0;
    for await (const chunkTallies of mapInOrder(pool, chunks)) {
      totals = totals.map((t, c) => mergeTallies(t, chunkTallies[c]!));
      bar.tick(chunks[k++]!.length);
    }
    completed = true;
  } finally {
    bar.done(completed);
    await pool.close();
  }
  return { tallies: totals, threads };
}

/** Sweeps the grid over the labelled pairs and writes the sweep files. Input errors throw InputError. */
export const runSweep = oneRunEach(runSweepInRun);

async function runSweepInRun(options: SweepOptions): Promise<SweepOutcome> {
  const started = process.hrtime.bigint();
  const observer = options.observer ?? SILENT_OBSERVER;
  const outDir = options.out ?? "mari-sweep";
  const workers = options.workers ?? defaultWorkerCount();
  const grid = await resolveGrid(options.grid);
  const prices = await loadUnitPrices(options.costs);

  const stats = new PairInputStats();
  const pairs: SweepPair[] = [];
  let unlabelled = 0;
  // The sweep holds every labelled pair; readPairs stops a corpus too large for the heap.
  await inPhase(observer, "read pairs", undefined, async (reading) => {
    for await (const { pair } of readPairs(options.pairs, stats)) {
      reading.tick();
      if (pair.gold === null) unlabelled++;
      else pairs.push({ newText: pair.newText, oldText: pair.oldText, gold: pair.gold, kind: pair.kind });
    }
  });
  logRejections(stats, observer);
  if (pairs.length === 0) {
    throw new InputError(
      located(options.pairs, undefined, `no labelled pair to sweep over (${stats.records} records: ${unlabelled} unlabelled, ${stats.rejected} rejected)`),
    );
  }

  const { tallies, threads } = await tallyGrid(pairs, grid.configs, workers, observer);
  const matrix = costMatrix(prices);
  const gateList = pairGateList(options.gates ?? []);
  const rows: SweepRow[] = grid.configs.map((config, index) => {
    const tally = tallies[index]!;
    const metrics = pairMetrics(tally.confusion, matrix);
    // Gates read headline metrics or dotted paths (breakdowns.kind.value.update_recall): give them both.
    const view = { task: "pairs", metrics, breakdowns: { kind: pairMetricsByKind(tally, matrix) }, confusion: tally.confusion } as unknown as Report;
    const gates = evaluatePairGates(view, gateList);
    return { index, config, label: formatConfig(config), metrics, confusion: tally.confusion, gates, passed: gates.every((g) => g.passed) };
  });
  const candidates = rows.map((r) => ({
    config: r.config,
    revisionCost: r.metrics.revision_cost!,
    updateRecall: r.metrics.update_recall!,
    restatementToUpdateRate: r.metrics.restatement_to_update_rate!,
    passedAllGates: r.passed,
  }));
  const best = bestConfigIndex(candidates);
  const system = await collectSystemInfo({ config: {}, seed: 0, workers: 1 });
  const result: SweepResult = {
    dataset: { path: options.pairs, sha256: await sha256File(options.pairs), cases: stats.corpusPairs, slice_hash: stats.sliceHash() },
    // Provenance without the worker count or timings: the files are identical for any --workers.
    system: {
      mari_version: system.mari_version,
      git_commit: system.git_commit,
      git_dirty: system.git_dirty,
      node: system.node,
      icu: system.icu,
      platform: system.platform,
    },
    grid: grid.name,
    unit_prices: prices,
    pairs: { records: stats.records, labelled: pairs.length, unlabelled, rejected: stats.rejected },
    rejections: { ...stats.rejections },
    rejection_examples: [...stats.examples],
    rows,
    best,
    pareto_front: paretoFront(candidates),
  };
  const files = await inOneStep(observer, "report (steps)", () => writeSweepOutputs(outDir, result));
  return { result, files, seconds: Number(process.hrtime.bigint() - started) / 1e9, threads };
}
