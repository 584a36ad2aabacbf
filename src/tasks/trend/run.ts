// `mari trend`: a training run's checkpoint reports as series over their steps, the best point of
// each metric, and the checkpoint to keep. Each report.json is read once and reduced to the chosen
// metrics (cases are never read for that); the paired comparisons read cases.jsonl, two reports at
// a time, with the same loadBaseline / compareWithBaseline as `--baseline` and `mari diff`, and so
// do the checks of the reports a decision rests on (the gated last, each best), as `mari diff` checks.
import { OPTIONS } from "../../core/options/index.js";
import { stat } from "node:fs/promises";
import { type Baseline, compareWithBaseline, readReportFile } from "../../gates/baseline.js";
import { evaluateGates, GATE_TOLERANCE, lookupMetric } from "../../gates/evaluate.js";
import { lowerIsBetter, metricsWith, pairedMetrics } from "../../core/metrics/descriptors/index.js";
import { checkGates } from "../../gates/decide.js";
import { DOCUMENT_CLASSES } from "../../gates/paired.js";
import { didYouMean } from "../../gates/suggest.js";
import type { GateSpec } from "../../gates/spec.js";
import { InputError } from "../../io/errors.js";
import { inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { oneRunEach } from "../../io/output-guard.js";
import type { BaselineComparison, ConfidenceInterval, GateResult, MetricValue, Report, TaskName } from "../../report/types.js";
import { TREND_SCHEMA_VERSION } from "../../report/trend-schema.js";
import { checkMetricsMatchCases } from "../diff/consistency.js";
import { loadComparable } from "../diff/run.js";
import { orderInputs, type TrendAxis, trendInputs } from "./inputs.js";

/** The metrics drawn when no --metric is given, per task (those a report lacks are left out): the declared ones. */
export const DEFAULT_TREND_METRICS: Readonly<Record<string, readonly string[]>> = {
  documents: metricsWith("documents", "trend"),
  pairs: metricsWith("pairs", "trend"),
  evidence: metricsWith("evidence", "trend"),
};

/** The metric the checkpoint to keep is chosen by when no --keep-by is given. */
export const DEFAULT_KEEP_BY: Readonly<Record<string, string>> = {
  documents: metricsWith("documents", "keepBy")[0]!,
  pairs: metricsWith("pairs", "keepBy")[0]!,
  evidence: metricsWith("evidence", "keepBy")[0]!,
};

export const KEEP_RULE =
  "Best: the checkpoint with the highest value of the metric (lowest where lower is better); the earliest wins a tie. " +
  "Kept: the earliest checkpoint before the best whose value lies inside the best's own 95% interval (every earlier checkpoint when the best " +
  "has no interval for the metric, or with --paired-scan) and that is not significantly worse than the best, compared with it case by case: " +
  "significantly worse means the 95% paired bootstrap interval of (checkpoint − best) lies wholly on the worse side of 0. " +
  "The best itself is kept when no earlier checkpoint qualifies.";

export interface TrendSettings {
  /** report.json files, their directories, directories of them, or globs. */
  inputs: readonly string[];
  /** Metrics to draw; default DEFAULT_TREND_METRICS of the task. */
  metrics?: readonly string[];
  /** The metric the checkpoint to keep is chosen by; default DEFAULT_KEEP_BY of the task. */
  keepBy?: string;
  /** The x axis; default: steps when every name has one, else names. */
  x?: TrendAxis;
  /** Gates on the last point (`min` / `max`) and `max_drop` gates on the last point against the best. */
  gates?: readonly GateSpec[];
  allowDifferentSlice?: boolean;
  /**
   * Pair every earlier checkpoint with the best, not only those whose value lies inside the best's
   * own interval (one paired bootstrap per checkpoint: slow on long runs of large reports).
   */
  pairedScan?: boolean;
  seed?: number;
  /** Bootstrap resamples of the paired comparisons (`--bootstrap`). */
  bootstrap?: number;
  /** Phases (default: silent). */
  observer?: RunObserver;
}

export interface TrendPoint {
  index: number;
  name: string;
  /** The report.json read. */
  path: string;
  step: number | null;
  /** report.json's modification time (ISO), with --x time only. */
  time?: string;
  dataset: { path: string; slice_hash: string; cases: number };
  predictions: string | null;
  /** The report's own value of each chosen metric (null: none in this report). */
  values: Record<string, MetricValue>;
  /** The report's own 95% interval of a metric, where it has one. */
  ci: Record<string, ConfidenceInterval>;
}

export interface PointRef {
  index: number;
  name: string;
  value: number;
}

export interface TrendSeries {
  metric: string;
  higher_is_better: boolean;
  /** The best point (null when no report has a value). */
  best: PointRef | null;
  /** The last point's value minus the best's (null when either has none). */
  last_minus_best: number | null;
}

export interface KeepComparison {
  /** The checkpoint compared with the best. */
  index: number;
  name: string;
  difference: number;
  low: number;
  high: number;
  mcnemar_p: number;
  matched_cases: number;
  significantly_worse: boolean;
}

export interface TrendKeep {
  metric: string;
  higher_is_better: boolean;
  rule: string;
  best: PointRef;
  kept: PointRef;
  seed: number;
  resamples: number;
  /**
   * Which earlier checkpoints were paired with the best: those whose value lies inside `interval`
   * (the best's own 95% interval; null: every one); `skipped` lay outside it.
   */
  screen: { interval: { low: number; high: number } | null; skipped: number };
  /** The comparisons made, earliest first; the scan stops at the first not significantly worse. */
  comparisons: KeepComparison[];
}

export interface TrendResult {
  schema_version: string;
  task: TaskName;
  x: TrendAxis;
  same_slice: boolean;
  points: TrendPoint[];
  series: TrendSeries[];
  keep: TrendKeep | null;
  /** Why there is no checkpoint to keep, when there is none. */
  keep_note?: string;
  gates: GateResult[];
  /** Per --max-drop-from-best gate: the last point compared with that metric's best. */
  drop_comparisons: Array<{ metric: string; best: PointRef; comparison: BaselineComparison }>;
  warnings: string[];
}

export interface TrendOutcome {
  trend: TrendResult;
  /** The last point's report, with the gates applied to it (for JUnit). */
  last: Report;
}

function better(metric: string): (a: number, b: number) => boolean {
  return lowerIsBetter(metric) ? (a, b) => a < b : (a, b) => a > b;
}

/** The best point of a metric: highest (lowest when lower is better), the earliest on a tie. */
export function bestPoint(points: readonly TrendPoint[], metric: string): PointRef | null {
  const isBetter = better(metric);
  let best: PointRef | null = null;
  for (const p of points) {
    const v = p.values[metric];
    if (v === null || v === undefined) continue;
    if (best === null || isBetter(v, best.value)) best = { index: p.index, name: p.name, value: v };
  }
  return best;
}

/** Whether a paired difference (checkpoint − best) is significantly worse: its interval lies wholly on the worse side of 0. */
export function significantlyWorse(metric: string, d: { low: number; high: number }): boolean {
  return lowerIsBetter(metric) ? d.low > GATE_TOLERANCE : d.high < -GATE_TOLERANCE;
}

function checkPaired(task: TaskName, metric: string, flag: string): void {
  const known = pairedMetrics(task);
  if (!known.includes(metric)) {
    throw new InputError(
      `trend ${flag} ${metric}: not a metric compared case by case for ${task} reports;${didYouMean(metric, known)} choose from ${known.join(", ")}`,
    );
  }
}

function pointOf(index: number, path: string, name: string, step: number | null, report: Report, metrics: readonly string[]): TrendPoint {
  const values: Record<string, MetricValue> = {};
  const ci: Record<string, ConfidenceInterval> = {};
  for (const m of metrics) {
    values[m] = lookupMetric(report, m) ?? null;
    const interval = report.ci[m];
    if (interval !== undefined) ci[m] = interval;
  }
  return {
    index,
    name,
    path,
    step,
    dataset: { path: report.dataset.path, slice_hash: report.dataset.slice_hash, cases: report.dataset.cases },
    predictions: report.predictions?.path ?? null,
    values,
    ci,
  };
}

async function trendReportsInRun(settings: TrendSettings): Promise<TrendOutcome> {
  const found = await trendInputs(settings.inputs);
  let times: Map<string, number> | undefined;
  if (settings.x === "time") {
    times = new Map();
    for (const input of found) times.set(input.path, (await stat(input.path)).mtimeMs);
  }
  const { order, axis } = orderInputs(found, settings.x, times);
  const read = await readPoints(settings, order, times);
  const { points, task, metrics, sameSlice } = read;
  const warnings: string[] = [];
  for (const m of metrics) {
    if (points.every((p) => p.values[m] === null)) warnings.push(`no report has a value for "${m}"`);
  }
  if (!sameSlice)
    warnings.push("the reports were scored on different slices: values are not on one population, and checkpoints are compared on the case ids they share");
  const series: TrendSeries[] = metrics.map((metric) => {
    const best = bestPoint(points, metric);
    const lastValue = points.at(-1)!.values[metric];
    return {
      metric,
      higher_is_better: !lowerIsBetter(metric),
      best,
      last_minus_best: best === null || lastValue === null || lastValue === undefined ? null : lastValue - best.value,
    };
  });
  const pairs = new PointPairs(task, settings.seed ?? OPTIONS.seed.default, settings.bootstrap ?? OPTIONS.bootstrap.default);
  const { keep, keepNote } = await chooseKeep(settings, points, read.keepBy, pairs);
  const { results, dropComparisons } = await decideTrendGates(settings.gates ?? [], read.last, points, pairs);
  const trend: TrendResult = {
    schema_version: TREND_SCHEMA_VERSION,
    task,
    x: axis,
    same_slice: sameSlice,
    points,
    series,
    keep,
    ...(keepNote !== undefined ? { keep_note: keepNote } : {}),
    gates: results,
    drop_comparisons: dropComparisons,
    warnings,
  };
  return { trend, last: { ...read.last, gates: results } };
}

/** The reports reduced to their points, with what the first one decided (task, metrics, keep-by) and the last report whole. */
interface ReadPoints {
  points: TrendPoint[];
  task: TaskName;
  last: Report;
  metrics: string[];
  keepBy: string;
  sameSlice: boolean;
}

/**
 * Each report is read, reduced to its point and let go; only the last is kept (gates read it),
 * and of the first what the others are checked against.
 */
async function readPoints(
  settings: TrendSettings,
  order: ReturnType<typeof orderInputs>["order"],
  times: Map<string, number> | undefined,
): Promise<ReadPoints> {
  const gates = settings.gates ?? [];
  const points: TrendPoint[] = [];
  let first: Pick<Report, "task" | "dataset"> | undefined;
  let last: Report | undefined;
  let metrics: string[] = [];
  let keepBy = "";
  let sameSlice = true;
  await inPhase(settings.observer ?? SILENT_OBSERVER, "read reports", order.length, async (reading) => {
    for (const [index, input] of order.entries()) {
      const { path, report } = await readReportFile(input.path, "trend");
      if (first === undefined) {
        first = { task: report.task, dataset: report.dataset };
        const defaults = (DEFAULT_TREND_METRICS[report.task] ?? []).filter((m) => lookupMetric(report, m) !== undefined);
        const chosen = settings.metrics && settings.metrics.length > 0 ? [...settings.metrics] : defaults;
        keepBy = settings.keepBy ?? DEFAULT_KEEP_BY[report.task] ?? chosen[0] ?? "";
        metrics = [...new Set([...chosen, keepBy, ...gates.filter((g) => g.kind === "max_drop").map((g) => g.metric)])].filter((m) => m !== "");
        if (settings.keepBy !== undefined) checkPaired(report.task, keepBy, "--keep-by");
        for (const g of gates) if (g.kind === "max_drop") checkPaired(report.task, g.metric, "--max-drop-from-best");
      } else {
        if (report.task !== first.task) {
          throw new InputError(`trend: ${path} is a ${report.task} report, ${points[0]!.path} a ${first.task} report: a trend needs reports of one task`);
        }
        if (report.dataset.slice_hash !== first.dataset.slice_hash) {
          sameSlice = false;
          if (settings.allowDifferentSlice !== true) {
            throw new InputError(
              `trend: different slices: ${path} was scored on ${report.dataset.path} (${report.dataset.cases} cases, slice_hash ${report.dataset.slice_hash.slice(0, 12)}…), ` +
                `${points[0]!.path} on ${first.dataset.path} (${first.dataset.cases} cases, slice_hash ${first.dataset.slice_hash.slice(0, 12)}…); ` +
                "--allow-different-slice draws them anyway and compares checkpoints on the case ids they share",
            );
          }
        }
      }
      const point = pointOf(index, path, input.name, input.step, report, metrics);
      if (times !== undefined) point.time = new Date(times.get(input.path)!).toISOString();
      points.push(point);
      last = report;
      reading.tick();
    }
  });
  return { points, task: first!.task, last: last!, metrics, keepBy, sameSlice };
}

/**
 * Paired comparisons between points. The points compared more than once (a best, the last) are
 * read once and kept; the earlier checkpoints of the keep scan are read one at a time and let go.
 */
class PointPairs {
  private readonly held = new Map<number, Promise<Baseline>>();

  constructor(
    readonly task: TaskName,
    readonly seed: number,
    readonly resamples: number,
  ) {}

  /**
   * A point's report with its cases: the cases must match the report's cases digest and the
   * headline metrics they determine must match report.json's (as `mari diff` checks), so a
   * report.json edited after its run cannot pass a gate or become the best point.
   */
  async load(p: TrendPoint): Promise<Baseline> {
    const loaded = await loadComparable(p.path, `trend ${p.name}`, this.task === "evidence");
    checkMetricsMatchCases(loaded, "trend");
    return loaded;
  }

  loadHeld(p: TrendPoint): Promise<Baseline> {
    let b = this.held.get(p.index);
    if (b === undefined) {
      b = this.load(p);
      this.held.set(p.index, b);
    }
    return b;
  }

  compare(current: Baseline, base: Baseline): BaselineComparison {
    return compareWithBaseline(current.side, base, {
      seed: this.seed,
      resamples: this.resamples,
      ...(this.task === "documents" ? { classes: DOCUMENT_CLASSES } : {}),
      currentSliceHash: current.report.dataset.slice_hash,
    });
  }
}

/** The checkpoint to keep (KEEP_RULE), or the note saying why none is chosen. */
async function chooseKeep(
  settings: TrendSettings,
  points: readonly TrendPoint[],
  keepBy: string,
  pairs: PointPairs,
): Promise<{ keep: TrendKeep | null; keepNote: string | undefined }> {
  const task = pairs.task;
  const keepBest = bestPoint(points, keepBy);
  if (keepBy === "") return { keep: null, keepNote: "no metric to choose a checkpoint by" };
  if (!pairedMetrics(task).includes(keepBy)) return { keep: null, keepNote: `"${keepBy}" is not compared case by case, so no checkpoint is chosen by it` };
  if (keepBest === null) return { keep: null, keepNote: `no report has a value for "${keepBy}"` };
  // The best is checked against its cases even when no earlier checkpoint is compared with it.
  await pairs.loadHeld(points[keepBest.index]!);
  // The best's cases stay loaded; earlier checkpoints are read one at a time.
  const comparisons: KeepComparison[] = [];
  let kept: PointRef = keepBest;
  // The screen reads no cases: a checkpoint outside the best's own interval is not paired.
  const ci = settings.pairedScan === true ? undefined : points[keepBest.index]!.ci[keepBy];
  const interval = ci === undefined ? null : { low: ci.low, high: ci.high };
  const higher = !lowerIsBetter(keepBy);
  const inside = (v: MetricValue | undefined): boolean =>
    interval === null || (v !== null && v !== undefined && (higher ? v >= interval.low - GATE_TOLERANCE : v <= interval.high + GATE_TOLERANCE));
  let skipped = 0;
  for (const p of points.slice(0, keepBest.index)) {
    if (!inside(p.values[keepBy])) {
      skipped++;
      continue;
    }
    const bestLoaded = await pairs.loadHeld(points[keepBest.index]!);
    const c = pairs.compare(await pairs.load(p), bestLoaded);
    const d = c.metrics[keepBy];
    if (d === undefined) throw new InputError(`trend: ${p.path} and ${points[keepBest.index]!.path} have no per-case "${keepBy}" to compare`);
    const worse = significantlyWorse(keepBy, d);
    comparisons.push({
      index: p.index,
      name: p.name,
      difference: d.difference,
      low: d.low,
      high: d.high,
      mcnemar_p: c.mcnemar.p_value,
      matched_cases: c.matched_cases,
      significantly_worse: worse,
    });
    if (!worse) {
      kept = { index: p.index, name: p.name, value: p.values[keepBy] ?? d.current };
      break;
    }
  }
  const { seed, resamples } = pairs;
  return {
    keep: { metric: keepBy, higher_is_better: higher, rule: KEEP_RULE, best: keepBest, kept, seed, resamples, screen: { interval, skipped }, comparisons },
    keepNote: undefined,
  };
}

/**
 * Gates: bounds on the last report as it is (a misspelt metric is exit 2, as for eval); each
 * max-drop on the last point against that metric's best.
 */
async function decideTrendGates(
  gates: readonly GateSpec[],
  lastReport: Report,
  points: readonly TrendPoint[],
  pairs: PointPairs,
): Promise<{ results: GateResult[]; dropComparisons: TrendResult["drop_comparisons"] }> {
  checkGates(
    lastReport,
    gates.filter((g) => g.kind !== "max_drop"),
  );
  // The gated report is checked against its cases before a gate reads its metrics.
  if (gates.length > 0) await pairs.loadHeld(points.at(-1)!);
  const results: GateResult[] = [];
  const dropComparisons: TrendResult["drop_comparisons"] = [];
  for (const gate of gates) {
    if (gate.kind !== "max_drop") {
      results.push(...evaluateGates(lastReport, [gate]));
      continue;
    }
    const best = bestPoint(points, gate.metric);
    const name = `max_drop_from_best ${gate.metric}=${gate.threshold}`;
    if (best === null) {
      results.push({ ...evaluateGates(lastReport, [gate], { baseline: null })[0]!, name, detail: `no report has a value for "${gate.metric}"` });
      continue;
    }
    const lastLoaded = await pairs.loadHeld(points.at(-1)!);
    const comparison = pairs.compare(lastLoaded, await pairs.loadHeld(points[best.index]!));
    dropComparisons.push({ metric: gate.metric, best, comparison });
    const result = evaluateGates(lastReport, [gate], { baseline: comparison })[0]!;
    results.push({ ...result, name, detail: `best ${best.name}, last ${points.at(-1)!.name}: ${result.detail ?? ""}` });
  }
  return { results, dropComparisons };
}

export const trendReports = oneRunEach(trendReportsInRun);
