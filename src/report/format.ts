// Presentation helpers shared by the Markdown, HTML and terminal renderings of a report, so the
// three show the same numbers the same way.
import type { ConfidenceInterval, MetricValue, Report } from "./types.js";

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

/** Number of runs the report covers (at least 1 once anything was scored). */
export function runKeys(report: Report): string[] {
  return Object.keys(report.runs);
}

/** Headline metric names in the order tasks put them in (insertion order of `metrics`). */
export function metricNames(report: Report): string[] {
  return Object.keys(report.metrics);
}

/** Rejection reasons, most frequent first, then by name (deterministic). */
export function sortedRejections(report: Report): Array<[string, number]> {
  return Object.entries(report.rejections)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
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
