// Presentation helpers shared by the Markdown, HTML and terminal renderings of a report, so the
// three show the same numbers the same way.
import type { ConfidenceInterval, MetricValue, Report, BaselineComparison } from "./types.js";

/** Four decimals for fractions, integers as they are, "n/a" for a missing value. */
export function formatNumber(value: MetricValue | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "n/a";
  if (Number.isInteger(value)) return String(value);
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return value.toFixed(4);
}

/** A difference, always signed ("+0.0125", "-0.0300"). */
export function formatSigned(value: number): string {
  const text = formatNumber(value);
  return value > 0 ? `+${text}` : text;
}

export function formatInterval(ci: ConfidenceInterval | undefined): string {
  return ci === undefined ? "" : `[${formatNumber(ci.low)}, ${formatNumber(ci.high)}]`;
}

/** How an interval was made, for a footnote: "wilson" or "bootstrap B=1000 seed=0". */
export function describeInterval(ci: ConfidenceInterval): string {
  if (ci.method === "wilson") return "Wilson";
  return `bootstrap B=${ci.resamples ?? "?"} seed=${ci.seed ?? "?"}`;
}

/** Gates: passed when every one passed (no gates is a pass: the exit code then depends on input only). */
export function gatesPassed(report: Report): boolean {
  return report.gates.every((gate) => gate.passed);
}

/** The gates' verdict in words, for every rendering: "all 3 gates passed", "the gate passed", "1 of 2 gates failed". */
export function gatesVerdict(report: Report): string {
  const n = report.gates.length;
  const failed = report.gates.filter((gate) => !gate.passed).length;
  if (failed > 0) return n === 1 ? "the gate failed" : `${failed} of ${n} gates failed`;
  return n === 1 ? "the gate passed" : `all ${n} gates passed`;
}

/** The run keys listed under `runs` (all runs, unless `runs_summary` says some were left out). */
export function runKeys(report: Report): string[] {
  return Object.keys(report.runs);
}

/** Number of runs the report covers (at least 1 once anything was scored), listed or not. */
export function runCount(report: Report): number {
  return report.runs_summary?.runs ?? Object.keys(report.runs).length;
}

/** The note under a run table showing `shown` runs of the report's: how many more there are and where. */
export function moreRunsNote(report: Report, shown: number): string {
  const more = runCount(report) - shown;
  if (more <= 0) return "";
  const summary = report.runs_summary;
  if (!summary) return `${more} more runs are in report.json.`;
  return `${more} more runs: report.json lists the first ${summary.listed} of ${summary.runs}, and its spread covers all of them.`;
}

/** Headline metric names in the order tasks put them in (insertion order of `metrics`). */
export function metricNames(report: Report): string[] {
  return Object.keys(report.metrics);
}

/** Counts, most frequent first, then by name (deterministic). */
function byCountThenName(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/** Rejection reasons, most frequent first, then by name (deterministic). */
export function sortedRejections(report: Report): Array<[string, number]> {
  return Object.entries(report.rejections)
    .filter(([, count]) => count > 0)
    .sort(byCountThenName);
}

/** Known top-level keys; anything else a task added is listed as an extra section. */
export const CONTRACT_KEYS: ReadonlySet<string> = new Set([
  "schema_version",
  "task",
  "dataset",
  "predictions",
  "system",
  "metrics",
  "runs",
  "ci",
  "spread",
  "breakdowns",
  "setcons",
  "majority",
  "confusion",
  "gates",
  "rejections",
  "rejection_examples",
  "orphans",
  "invalid",
  "histograms",
  "baseline",
  "elapsed_seconds",
]);

export function extraKeys(report: Report): string[] {
  return Object.keys(report).filter((key) => !CONTRACT_KEYS.has(key));
}

/** Scalars of SetCons (judgment, evidence, …) as rows; lists (flipped cases) are rendered apart. */
export function setconsRows(setcons: Record<string, unknown>): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(setcons)) {
    if (typeof value === "number" || value === null) rows.push([key, formatNumber(value)]);
    else if (typeof value === "string" || typeof value === "boolean") rows.push([key, String(value)]);
  }
  return rows;
}

export function flippedCases(setcons: Record<string, unknown>): string[] {
  const list = setcons["flipped_cases"];
  return Array.isArray(list) ? list.map(String) : [];
}

/** Provenance as (field, value) rows, raw text: each renderer escapes for its own format. */
export function provenanceRows(report: Report): Array<[string, string]> {
  const s = report.system;
  const rows: Array<[string, string]> = [
    ["dataset", `${report.dataset.path} (${report.dataset.cases} cases)`],
    ["dataset sha256", report.dataset.sha256],
    ["slice hash", report.dataset.slice_hash],
  ];
  if (report.predictions) {
    rows.push(["predictions", `${report.predictions.path} (${report.predictions.lines} lines, ${report.predictions.runs.length} runs)`]);
    rows.push(["predictions sha256", report.predictions.sha256]);
  }
  rows.push(
    ["judge", s.judge ?? "external predictions"],
    ["mari", s.mari_version],
    ["git commit", s.git_commit ? `${s.git_commit}${s.git_dirty ? " (dirty)" : ""}` : "n/a"],
    ["node / ICU", `${s.node} / ${s.icu ?? "n/a"}`],
    ["platform", s.platform],
    ["config hash", s.config_hash],
    ["seed / workers", `${s.seed} / ${s.workers}`],
    ["schema version", report.schema_version],
    ["elapsed", `${report.elapsed_seconds.toFixed(2)} s`],
  );
  return rows;
}

// Evidence-task extras (src/tasks/evidence/run.ts). report.json keeps them as extra keys, so they are
// read defensively: a renderer shows a section only when its key is present and well formed.

/** A `{name: count}` object as entries, or null when the value is not one. */
function countEntries(value: unknown): Array<[string, number]> | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, n]) => typeof n === "number") ? (entries as Array<[string, number]>) : null;
}

export interface ExampleLine {
  where: string;
  case_id: string;
  message: string;
}

function exampleLines(value: unknown): ExampleLine[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((ex): ex is Record<string, unknown> => ex !== null && typeof ex === "object")
    .map((ex) => ({ where: String(ex["where"] ?? ""), case_id: String(ex["case_id"] ?? ""), message: String(ex["message"] ?? "") }));
}

export interface ClaimStatesView {
  /** Each state with its count and its share of all claims (0 when there are none), in the order the task wrote them. */
  states: Array<{ state: string; count: number; share: number }>;
  total: number;
  /** Against gold states, when any case had them. */
  accuracy: MetricValue;
  gold: number;
  ci: ConfidenceInterval | undefined;
  /** gold state → predicted state → count, when present. */
  confusion: Record<string, Record<string, number>> | null;
}

export function claimStatesView(report: Report): ClaimStatesView | null {
  const counts = countEntries(report["claim_states"]);
  if (counts === null) return null;
  const gold = report.metrics["claim_state_gold"];
  const confusion = report["claim_state_confusion"];
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  return {
    states: counts.map(([state, count]) => ({ state, count, share: total > 0 ? count / total : 0 })),
    total,
    accuracy: report.metrics["claim_state_accuracy"] ?? null,
    gold: typeof gold === "number" ? gold : 0,
    ci: report.ci["claim_state_accuracy"],
    confusion: confusion !== null && typeof confusion === "object" ? (confusion as Record<string, Record<string, number>>) : null,
  };
}

export interface ErrorCodeView {
  code: string;
  count: number;
  examples: ExampleLine[];
}

/** Case error codes (`errors`), most frequent first, each with its examples (`error_examples`). */
export function errorCodesView(report: Report): ErrorCodeView[] | null {
  const counts = countEntries(report["errors"]);
  if (counts === null) return null;
  const examples = report["error_examples"];
  const byCode = examples !== null && typeof examples === "object" ? (examples as Record<string, unknown>) : {};
  return counts
    .filter(([, n]) => n > 0)
    .sort(byCountThenName)
    .map(([code, count]) => ({ code, count, examples: exampleLines(Object.hasOwn(byCode, code) ? byCode[code] : undefined) }));
}

export interface DependenciesView {
  /** Distinct dependencies (document revision + section revision) and how many cases cite each. */
  list: Array<{ dependency_id: string; revision: string; section_revision: string; cases: number }>;
  conflicts: number;
  conflictExamples: ExampleLine[];
}

export function dependenciesView(report: Report): DependenciesView | null {
  const list = report["dependencies"];
  const conflicts = report["dependency_conflicts"];
  if (!Array.isArray(list) && (conflicts === null || typeof conflicts !== "object")) return null;
  const c = (conflicts ?? {}) as Record<string, unknown>;
  return {
    list: (Array.isArray(list) ? list : [])
      .filter((d): d is Record<string, unknown> => d !== null && typeof d === "object")
      .map((d) => ({
        dependency_id: String(d["dependency_id"] ?? ""),
        revision: String(d["revision"] ?? ""),
        section_revision: String(d["section_revision"] ?? ""),
        cases: typeof d["cases"] === "number" ? d["cases"] : 0,
      })),
    conflicts: typeof c["count"] === "number" ? c["count"] : 0,
    conflictExamples: exampleLines(c["examples"]),
  };
}

/** Cases per freshness status (`freshness`, written with `--current`), most frequent first. */
export function freshnessView(report: Report): Array<[string, number]> | null {
  const counts = countEntries(report["freshness"]);
  return counts === null ? null : [...counts].sort(byCountThenName);
}

function runList(runs: readonly string[]): string {
  const shown = runs.slice(0, 5).join(", ");
  return `${runs.length} run${runs.length === 1 ? "" : "s"} (${shown}${runs.length > 5 ? ", …" : ""})`;
}

/**
 * What a baseline comparison was decided on, one sentence: the cases paired, the cases one side
 * only has, and the runs each side had (every format and the --max-drop detail say the same).
 */
export function describePairing(b: BaselineComparison): string {
  const runs = b.runs ? `; each side's per-case value is the mean over its runs: current ${runList(b.runs.current)}, baseline ${runList(b.runs.baseline)}` : "";
  const oneSide = b.unmatched_current + b.unmatched_baseline;
  const left =
    oneSide === 0
      ? "every case of both sides is compared"
      : `not compared: ${b.unmatched_current} cases only in the current run, ${b.unmatched_baseline} only in the baseline`;
  return `paired on ${b.matched_cases} cases (${left})${runs}`;
}

/** McNemar in words, with the rule that makes a case with several runs right or wrong. */
export function describeMcNemar(b: BaselineComparison): string {
  const m = b.mcnemar;
  return `McNemar (exact binomial) on cases: baseline-only right ${m.baseline_only}, current-only right ${m.current_only}, p = ${formatNumber(m.p_value)}; a case is right on a side when more than half of that side's runs judged it right`;
}

/** At most this many rejected records are listed on the terminal by any command; report.json has them all counted. */
export const LISTED_REJECTIONS = 10;

/** `file:line: reason: message`, the one spelling of a rejected record on the terminal. */
export function rejectionLine(ex: { where: string; reason: string; message: string }): string {
  return `${ex.where}: ${ex.reason}: ${ex.message}`;
}

/**
 * The one rule for listing rejected records, in every command: the first LISTED_REJECTIONS of
 * `examples`, then `… and N more (see report.json)` when `total` (all rejections) is larger.
 */
export function listRejections(examples: ReadonlyArray<{ where: string; reason: string; message: string }>, total: number, see = "report.json"): string[] {
  const shown = examples.slice(0, LISTED_REJECTIONS).map(rejectionLine);
  const hidden = total - shown.length;
  return hidden > 0 ? [...shown, `… and ${hidden} more (see ${see})`] : shown;
}
