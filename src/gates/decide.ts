// The one decision step every task and every merge runs on a finished report: check that each gate
// names something that exists (a typo is a usage error, exit 2, never a failed gate), evaluate the
// gates, and record their specs in the report (`gate_specs`) so that `mari merge` gates the merged
// result exactly as the single run would have been gated.
import { InputError, located } from "../io/errors.js";
import { canonicalJson } from "../io/hashing.js";
import type { GateResult, GateSpecRecord, Report } from "../report/types.js";
import { pairedMetrics } from "../core/metrics/descriptors/index.js";
import { evaluateGates, lookupMetric } from "./evaluate.js";
import { gateName, type GateSpec } from "./spec.js";
import { didYouMean } from "./suggest.js";

/**
 * Metrics a `--max-drop` gate can compare per task: those the paired comparison computes (declared
 * with each metric, src/core/metrics/descriptors/). An evidence report is never compared with a baseline.
 */
export function comparableMetrics(task: Report["task"]): string[] {
  return task === "evidence" ? [] : pairedMetrics(task);
}

/** How the user wrote the gate: `--max-drop "accuracy=0.1"`, or `CONFIG documents.gate "…"` for config gates. */
function where(gate: GateSpec): string {
  const [flag, text] =
    gate.kind === "max_drop"
      ? ["--max-drop", `${gate.metric}=${gate.threshold}`]
      : gate.kind === "max_invalid_rate"
        ? ["--max-invalid-rate", gate.isCount ? `count:${gate.threshold}` : String(gate.threshold)]
        : ["--gate", gateName(gate)];
  if (gate.source === "config") return `${gate.origin ?? "config"} "${text}"`;
  return `${flag} "${text}"`;
}

/**
 * In a report outline (the shape of a task's report before its run, see checkGates' `beforeRun`):
 * a value known only once the run is done, under which any path is accepted for now.
 */
export const LATER = Object.freeze({ later: true });
/** An outline key standing for every key of a table whose keys come from the data (run keys). */
export const EVERY_KEY = "*";

/**
 * The outline of a report whose headline metric names are known before the run (pairs, evidence):
 * the metrics table, `invalid`, and every other top-level key LATER.
 */
export function metricsOutline(task: Report["task"], metrics: Record<string, unknown>): Report {
  const outline: Record<string, unknown> = {
    task,
    metrics: Object.fromEntries(Object.keys(metrics).map((name) => [name, 0])),
    invalid: { count: 0, total: 0 },
    [EVERY_KEY]: LATER,
  };
  return outline as unknown as Report;
}

/**
 * Why a dotted path does not lead to a number in `report` (or may not, in an outline), naming the
 * values that exist at the first level where it goes wrong; undefined when it does.
 */
function pathProblem(report: Report, metric: string): string | undefined {
  const value = lookupMetric(report, metric);
  if (value !== undefined) return undefined;
  const headline = Object.keys(report.metrics);
  if (!metric.includes(".")) {
    return `unknown metric "${metric}" for a ${report.task} report;${didYouMean(metric, headline)} valid metrics: ${headline.join(", ") || "none"} (or a dotted path into report.json, e.g. runs.0.${headline[0] ?? "accuracy"})`;
  }
  let node: unknown = report;
  const parts = metric.split(".");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const at = parts.slice(0, i).join(".") || "the report";
    if (node === null && at === "setcons") return `"${metric}": setcons is null in this report: run-to-run consistency needs at least two runs`;
    if (node === LATER) return undefined;
    if (node === null || typeof node !== "object") return `"${metric}": ${at} is a value, not a table (nothing under it named "${part}")`;
    if (!Object.hasOwn(node, part) && Object.hasOwn(node, EVERY_KEY)) {
      node = (node as Record<string, unknown>)[EVERY_KEY];
      continue;
    }
    if (!Object.hasOwn(node, part)) {
      const existing = Object.keys(node as object);
      return `"${metric}": no "${part}" under ${at};${didYouMean(part, existing)} existing: ${existing.join(", ") || "none"}`;
    }
    node = (node as Record<string, unknown>)[part];
  }
  if (node === LATER || typeof node === "number") return undefined;
  if (node !== null && typeof node === "object") return `"${metric}" is a table, not a number (it holds ${Object.keys(node).join(", ")})`;
  return `"${metric}" is not a number`;
}

/**
 * Throws an InputError (exit 2) when a gate cannot be decided on this report: an unknown metric or
 * dotted path, a `--max-drop` without a baseline, on a metric the comparison does not have, or with
 * no case to pair. `partial` (a shard) skips dotted paths: a shard may lack a breakdown value the
 * whole slice has, and `mari merge` checks them on the merged report. `beforeRun` checks the gates
 * against the task's report outline (its known keys, LATER where the data decides) before any input
 * is read, so a misspelt gate is refused at once rather than after the run; the finished report is
 * checked again.
 */
export function checkGates(report: Report, gates: readonly GateSpec[], opts: { partial?: boolean; beforeRun?: { baseline: boolean } } = {}): void {
  for (const gate of gates) {
    if (gate.kind === "min" || gate.kind === "max") {
      if (opts.partial && gate.metric.includes(".")) continue;
      const problem = pathProblem(report, gate.metric);
      if (problem !== undefined) throw new InputError(`${where(gate)}: ${problem}`);
    } else if (gate.kind === "max_drop") {
      const comparable = comparableMetrics(report.task);
      if (!comparable.includes(gate.metric)) {
        throw new InputError(
          `${where(gate)}: ${comparable.length === 0 ? `a ${report.task} report has no baseline comparison` : `cannot compare "${gate.metric}" with a baseline;${didYouMean(gate.metric, comparable)} comparable metrics: ${comparable.join(", ")}`}`,
        );
      }
      const baseline = report.baseline;
      if (!(opts.beforeRun ? opts.beforeRun.baseline : baseline)) throw new InputError(`${where(gate)}: needs --baseline REPORT.json to compare against`);
      if (opts.partial || opts.beforeRun || !baseline) continue;
      if (baseline.matched_cases === 0) {
        throw new InputError(`${where(gate)}: nothing to pair: no case is scored both here and in the baseline ${baseline.path ?? ""}`.trimEnd());
      }
      if (!Object.hasOwn(baseline.metrics, gate.metric)) {
        throw new InputError(
          `${where(gate)}: the baseline has no per-case values for "${gate.metric}" (compared: ${Object.keys(baseline.metrics).join(", ")})`,
        );
      }
    } else if (report.invalid === undefined) {
      throw new InputError(`${where(gate)}: a ${report.task} report does not count invalid predictions`);
    }
  }
}

/** A spec as report.json keeps it (snake_case, no free text but the default gates' note). */
export function recordGateSpec(gate: GateSpec): GateSpecRecord {
  const record: GateSpecRecord = { kind: gate.kind, metric: gate.metric, threshold: gate.threshold, source: gate.source };
  if (gate.isCount) record.is_count = true;
  if (gate.note !== undefined) record.note = gate.note;
  return record;
}

/**
 * Checks, evaluates and records `gates` on `report` (in place): the step a single run and a merge
 * share. `evaluate` is the task's evaluator (pairs name their default gates).
 */
export function decideGates(
  report: Report,
  gates: readonly GateSpec[],
  opts: { partial?: boolean; evaluate?: (report: Report, gates: readonly GateSpec[]) => GateResult[] } = {},
): Report {
  checkGates(report, gates, opts);
  report.gates = (opts.evaluate ?? evaluateGates)(report, gates);
  report.gate_specs = gates.map(recordGateSpec);
  return report;
}

function specOfRecord(record: unknown, path: string): GateSpec {
  const r = record as Partial<GateSpecRecord> | null;
  const kinds = ["min", "max", "max_drop", "max_invalid_rate"];
  if (r === null || typeof r !== "object" || !kinds.includes(r.kind as string) || typeof r.metric !== "string" || typeof r.threshold !== "number") {
    throw new InputError(located(path, undefined, `gate_specs holds an entry that is not a gate: ${JSON.stringify(record)}`));
  }
  const source = r.source === "config" || r.source === "default" ? r.source : "cli";
  const spec: GateSpec = { kind: r.kind!, metric: r.metric, threshold: r.threshold, source };
  if (r.is_count === true) spec.isCount = true;
  if (typeof r.note === "string") spec.note = r.note;
  return spec;
}

/**
 * The gates the shards were run with. Every shard must have recorded the same list (a shard run
 * with other gates is refused: exit 2); reports written before `gate_specs` existed are refused too
 * when they had gates, since their specs cannot be recovered exactly.
 */
export function shardGateSpecs(shards: ReadonlyArray<{ path: string; report: Report }>): GateSpec[] {
  const lists = shards.map(({ path, report }) => {
    const records = report.gate_specs;
    if (records === undefined) {
      if (report.gates.length > 0)
        throw new InputError(located(path, undefined, "this shard report has gates but no gate_specs (written by an older mari): re-run the shard"));
      return [];
    }
    if (!Array.isArray(records)) throw new InputError(located(path, undefined, "gate_specs is not a list"));
    return records.map((record) => specOfRecord(record, path));
  });
  const key = (list: GateSpec[]) => canonicalJson(list.map((g) => [g.kind, g.metric, g.threshold, g.isCount === true]));
  const expected = key(lists[0] ?? []);
  lists.forEach((list, k) => {
    if (key(list) !== expected) {
      const names = (l: GateSpec[]) => (l.length === 0 ? "none" : l.map(gateName).join(", "));
      throw new InputError(
        located(
          shards[k]!.path,
          undefined,
          `was run with other gates than ${shards[0]!.path} (${names(list)} vs ${names(lists[0]!)}); shards of one run must share their gates`,
        ),
      );
    }
  });
  return lists[0] ?? [];
}
