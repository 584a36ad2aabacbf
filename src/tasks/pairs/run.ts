// `mari eval PAIRS` (docs/pairs.md, "RevisionCost"): classify every pair, score the labelled ones, write
// cases.jsonl and the report files, and turn gate results into the exit code.
import { oneRunEach } from "../../io/output-guard.js";
import { dict } from "../../core/dict.js";
import { join } from "node:path";
import { ClassifierConfigError, classify, DEFAULT_CONFIG, parseConfigAssignments, type ClassifierConfig } from "../../core/classifier/index.js";
import {
  addPair,
  costMatrix,
  DEFAULT_PAIR_GATES,
  emptyTally,
  labelledCount,
  PAIR_CLASSES,
  pairMetrics,
  pairMetricsByKind,
  revisionCostDetail,
  sortedKinds,
  type Confusion,
  type CostMatrix,
  type PairTally,
  type UnitPrices,
} from "../../core/pairs/index.js";
import { wilsonConfidence } from "../../report/wilson-ci.js";
import { AtomicLineWriter } from "../../io/atomic-write.js";
import { BufferedLines } from "../../io/buffered-lines.js";
import { InputError, located } from "../../io/errors.js";
import { emptyConfusion } from "../../core/pairs/tally.js";
import { checkGates, decideGates, metricsOutline } from "../../gates/decide.js";
import { evaluateGates } from "../../gates/evaluate.js";
import { combineGates, type GateSpec } from "../../gates/spec.js";
import { sha256File } from "../../io/hashing.js";
import { collectSystemInfo } from "../../report/system.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import { buildRecordExplorer, PAIR_EXPLORER } from "../record-explorer.js";
import {
  REPORT_SCHEMA_VERSION,
  type ConfidenceInterval,
  type DatasetInfo,
  type GateResult,
  type RejectionExample,
  type Report,
  type ReportFormat,
} from "../../report/types.js";
import { SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import type { ReportOutcome } from "../outcome.js";
import { loadUnitPrices } from "./costs.js";
import { PairInputStats, readPairs, logRejections } from "./input.js";
import type { Shard } from "../document/score-dump.js";
import { rejectionLine } from "../../report/format.js";

export interface PairEvalOptions {
  /** The pair corpus (JSONL or CSV). */
  pairs: string;
  /** Output directory (default `mari-report`). */
  out?: string | undefined;
  formats?: readonly ReportFormat[] | undefined;
  /** The most cases report.html's explorer carries (default EXPLORER_CASE_CAP). */
  explorerCases?: number | undefined;
  /** `--costs FILE`: unit prices (docs/pairs.md, "RevisionCost"). */
  costs?: string | undefined;
  /** Classifier thresholds (already validated); default DEFAULT_CONFIG. */
  classifierConfig?: ClassifierConfig | undefined;
  /** User gates, highest priority first (flags, then config file); the default pair gates follow. */
  gates?: readonly GateSpec[] | undefined;
  /** Score only the pairs whose id hashes to this shard (docs/eval.md, "Scale, determinism, sharding"); `mari merge` adds shard reports up. */
  shard?: Shard | undefined;
  /** Any rejected record makes the run exit 2 (after writing the report). */
  strict?: boolean | undefined;
  /** Progress, rejected records and warnings (default: silent). */
  observer?: RunObserver | undefined;
  /** Recorded in the report; pair eval classifies in-process (about 25 µs a pair). */
  workers?: number | undefined;
  /** Extra settings to record under system.config (e.g. the config file's path). */
  recordConfig?: Record<string, unknown> | undefined;
}

/** `--classifier key=value …` on top of the default thresholds; a bad assignment is an input error. */
export function classifierConfigFromFlags(assignments: readonly string[]): ClassifierConfig {
  try {
    return parseConfigAssignments(assignments);
  } catch (err) {
    if (err instanceof ClassifierConfigError) throw new InputError(err.message.replace(/^--config/, "--classifier"));
    throw err;
  }
}

/** The default gates of docs/pairs.md, "Default gates" in the shared gate form. */
export function defaultPairGateSpecs(): GateSpec[] {
  return DEFAULT_PAIR_GATES.map((g) => ({ kind: g.kind, metric: g.metric, threshold: g.threshold, source: "default" as const }));
}

/** The gates a pair run checks: the user's, then each default gate no user gate replaces (same metric and direction). */
export function pairGateList(userGates: readonly GateSpec[]): GateSpec[] {
  return combineGates(userGates, defaultPairGateSpecs());
}

/** Gate results; default gates carry their readable name and a note saying why they exist. */
export function evaluatePairGates(report: Report, gates: readonly GateSpec[]): GateResult[] {
  return evaluateGates(report, gates).map((result, i) => {
    const gate = gates[i]!;
    if (gate.source !== "default") return result;
    const known = DEFAULT_PAIR_GATES.find((d) => d.metric === gate.metric && d.kind === gate.kind && d.threshold === gate.threshold);
    if (known === undefined) return result;
    return { ...result, name: known.name, detail: result.detail ?? known.note };
  });
}

function goldTotal(confusion: Confusion, gold: (typeof PAIR_CLASSES)[number]): number {
  return PAIR_CLASSES.reduce((sum, pred) => sum + confusion[gold][pred], 0);
}

/** Wilson intervals for the headline proportions, with the population each is a rate over. */
function pairIntervals(confusion: Confusion): Record<string, ConfidenceInterval> {
  const predictedUpdates = PAIR_CLASSES.reduce((sum, gold) => sum + confusion[gold].update, 0);
  const correct = PAIR_CLASSES.reduce((sum, c) => sum + confusion[c][c], 0);
  return {
    accuracy: wilsonConfidence(correct, labelledCount(confusion)),
    update_precision: wilsonConfidence(confusion.update.update, predictedUpdates),
    update_recall: wilsonConfidence(confusion.update.update, goldTotal(confusion, "update")),
    restatement_to_update_rate: wilsonConfidence(confusion.restatement.update, goldTotal(confusion, "restatement")),
    distinct_to_update_rate: wilsonConfidence(confusion.distinct.update, goldTotal(confusion, "distinct")),
  };
}

/** report.pairs: what happened to the corpus's records (sums over shards). */
export interface PairCounts {
  records: number;
  usable: number;
  labelled: number;
  unlabelled: number;
  rejected: number;
  unrecognised_gold: number;
  unrecognised_gold_examples: string[];
}

export interface PairReportInput {
  dataset: DatasetInfo;
  /** `labelled` and `unlabelled` come from the tally. */
  counts: Omit<PairCounts, "labelled" | "unlabelled">;
  rejections: Record<string, number>;
  rejectionExamples: RejectionExample[];
  tally: PairTally;
  prices: UnitPrices;
  /** The full gate list (see pairGateList). */
  gates: readonly GateSpec[];
  system: Report["system"];
  elapsedSeconds: number;
  shard?: Shard;
}

/** Builds report.json for a pair run from its tally (every number is a projection of the tally). */
export function buildPairReport(input: PairReportInput): Report {
  const { tally, prices } = input;
  const matrix = costMatrix(prices);
  const metrics = pairMetrics(tally.confusion, matrix);
  const confusionByKind = dict<Confusion>();
  for (const kind of sortedKinds(tally)) confusionByKind[kind] = tally.byKind[kind]!;
  const counts: PairCounts = { ...input.counts, labelled: labelledCount(tally.confusion), unlabelled: tally.unlabelled };
  const report: Report = {
    schema_version: REPORT_SCHEMA_VERSION,
    task: "pairs",
    dataset: input.dataset,
    predictions: null,
    system: input.system,
    metrics,
    runs: { "0": metrics },
    ci: pairIntervals(tally.confusion),
    // Only when some pair has a kind: an empty "by kind" table says nothing.
    ...(Object.keys(confusionByKind).length > 0 ? { breakdowns: { kind: pairMetricsByKind(tally, matrix) } } : {}),
    confusion: tally.confusion,
    confusion_by_kind: confusionByKind,
    revision_cost: revisionCostDetail(tally.confusion, prices),
    pairs: counts,
    gates: [],
    rejections: { ...input.rejections },
    rejection_examples: [...input.rejectionExamples],
    invalid: { count: counts.rejected, total: counts.records },
    elapsed_seconds: input.elapsedSeconds,
  };
  if (input.shard) report.shard = { index: input.shard.index, count: input.shard.count };
  return decideGates(report, input.gates, { partial: input.shard !== undefined, evaluate: evaluatePairGates });
}

function caseLine(
  pair: { id: string; gold: string | null; kind: string | null; newText: string; oldText: string; extra: Record<string, unknown> },
  verdict: { class: string; reason: string },
  cost: number | null,
): string {
  const line: Record<string, unknown> = {
    id: pair.id,
    gold: pair.gold,
    class: verdict.class,
    reason: verdict.reason,
    cost,
    kind: pair.kind,
    new: pair.newText,
    old: pair.oldText,
  };
  // Carried-through fields never overwrite ours (defineProperty: a "__proto__" field stays data).
  for (const [key, value] of Object.entries(pair.extra)) {
    if (!Object.hasOwn(line, key)) Object.defineProperty(line, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return `${JSON.stringify(line)}\n`;
}

/** Runs a pair evaluation end to end and writes its reports. Input errors throw InputError. */
export const runPairEval = oneRunEach(runPairEvalInRun);

/** What the steps of one pair evaluation share. */
interface PairEvalRun {
  readonly options: PairEvalOptions;
  readonly observer: RunObserver;
  readonly config: ClassifierConfig;
  readonly prices: UnitPrices;
  readonly matrix: CostMatrix;
  readonly stats: PairInputStats;
  readonly tally: PairTally;
  readonly cases: AtomicLineWriter;
}

async function runPairEvalInRun(options: PairEvalOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  const outDir = options.out ?? "mari-report";
  const prices = await loadUnitPrices(options.costs);
  const matrix = costMatrix(prices);
  // A gate that cannot hold on any pairs report is refused before the corpus is read.
  checkGates(metricsOutline("pairs", pairMetrics(emptyConfusion(), matrix)), options.gates ?? [], { beforeRun: { baseline: false } });
  const run: PairEvalRun = {
    options,
    observer: options.observer ?? SILENT_OBSERVER,
    config: options.classifierConfig ?? { ...DEFAULT_CONFIG },
    prices,
    matrix,
    stats: new PairInputStats(),
    tally: emptyTally(),
    cases: await AtomicLineWriter.open(join(outDir, "cases.jsonl")),
  };
  await classifyIntoCases(run);
  await commitCases(run);
  // The last phase: the report built, the case explorer read back, the files written.
  const reporting = run.observer.progress("report (steps)", 1);
  const report = await pairEvalReport(run, started);
  const { stats } = run;
  const strictFailure = options.strict === true && stats.rejected > 0;
  const inputErrors = strictFailure ? stats.examples.map(rejectionLine) : [];
  const formats = options.formats ?? DEFAULT_REPORT_FORMATS;
  const explorer = formats.includes("html")
    ? await buildRecordExplorer(PAIR_EXPLORER, join(outDir, "cases.jsonl"), {
        seed: 0,
        ...(options.explorerCases !== undefined ? { caseCap: options.explorerCases } : {}),
      })
    : undefined;
  const written = await writeReportFiles(outDir, report, formats, {
    inputErrors,
    caseFiles: [{ path: join(outDir, "cases.jsonl") }],
    ...(explorer ? { explorer } : {}),
  });
  reporting.tick();
  reporting.done();

  return {
    report,
    outDir,
    files: [join(outDir, "cases.jsonl"), ...written],
    inputErrors: strictFailure ? [`--strict: ${stats.rejected} rejected record(s) in ${options.pairs}`] : [],
  };
}

/** Every usable pair classified, tallied and written to cases.jsonl (dropped on any error). */
async function classifyIntoCases(run: PairEvalRun): Promise<void> {
  const { options, stats, tally, matrix, cases } = run;
  const progress = run.observer.progress("pairs");
  const caseLines = new BufferedLines(cases);
  try {
    for await (const { pair } of readPairs(options.pairs, stats, options.shard)) {
      progress.tick();
      const verdict = classify(pair.newText, pair.oldText, run.config);
      addPair(tally, pair.gold, verdict.class, pair.kind);
      await caseLines.push(caseLine(pair, verdict, pair.gold === null ? null : matrix[pair.gold][verdict.class]));
    }
    await caseLines.flush();
    progress.done();
  } catch (err) {
    progress.done(false);
    await cases.abort();
    throw err;
  }
}

/** Lists the rejections, then keeps cases.jsonl, unless no pair was labelled. */
async function commitCases(run: PairEvalRun): Promise<void> {
  const { options, stats, tally, observer } = run;
  logRejections(stats, observer);
  for (const message of stats.unrecognisedGoldExamples) observer.log(`warning: ${message}; the pair is unlabelled and not scored`);

  const labelled = labelledCount(tally.confusion);
  // A shard may hold no labelled pair (small corpus, many shards); the merged report is what counts.
  if (labelled === 0 && options.shard === undefined) {
    await run.cases.abort();
    throw new InputError(
      located(
        options.pairs,
        undefined,
        `no labelled pair to score (${stats.records} records: ${stats.pairs} usable, ${tally.unlabelled} unlabelled, ${stats.rejected} rejected); gold must be distinct, restatement or update`,
      ),
    );
  }
  await run.cases.commit();
}

async function pairEvalReport(run: PairEvalRun, started: bigint): Promise<Report> {
  const { options, stats, prices } = run;
  const system = await collectSystemInfo({
    config: { task: "pairs", classifier: run.config, unit_prices: prices, ...(options.recordConfig ?? {}) },
    seed: 0,
    workers: 1,
    judge: "contradict",
  });
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return buildPairReport({
    dataset: { path: options.pairs, sha256: await sha256File(options.pairs), cases: stats.corpusPairs, slice_hash: stats.sliceHash() },
    counts: {
      records: stats.records,
      usable: stats.pairs,
      rejected: stats.rejected,
      unrecognised_gold: stats.unrecognisedGold,
      unrecognised_gold_examples: stats.unrecognisedGoldExamples,
    },
    rejections: stats.rejections,
    rejectionExamples: stats.examples,
    tally: run.tally,
    prices,
    gates: pairGateList(options.gates ?? []),
    system,
    elapsedSeconds,
    ...(options.shard ? { shard: options.shard } : {}),
  });
}
