// What a metric is, declared once (one metric a file in this folder, listed in index.ts): which
// reports carry it, which way is better, the range of its values, its interval, how a baseline
// compares it case by case, and where it is shown by default. The gates (a drop is a rise where
// lower is better; --max-drop only on a metric a baseline compares), the baseline and `mari diff`
// (which cases.jsonl field each per-case value is), `mari trend` (default series, the metric the
// checkpoint to keep is chosen by), `mari view` (the order of a row's metrics), the terminal
// summary, report.html (a bar for a share) and the document report's outline read it.

export type MetricTask = "documents" | "pairs" | "evidence";

/**
 * How a baseline comparison (`--baseline`, `mari diff`, `mari trend`) gets a metric's per-case
 * values: from each case's gold and judged class ("classes": accuracy, macro-F1), or as the mean
 * of a cases.jsonl field over the case's runs (`field`; booleans count 0/1, null leaves the case out).
 */
export type PairedBy = "classes" | { readonly field: string };

export interface MetricDescriptor {
  /** The key in report.json's `metrics` (a dotted path for a nested one, e.g. `setcons.judgment`). */
  readonly name: string;
  /** The reports that carry it. */
  readonly tasks: readonly MetricTask[];
  /** Which way is better: a `--max-drop` on a lower-is-better metric fails on a rise. */
  readonly direction: "higher" | "lower";
  /** The values it can take, inclusive: [0, 1] is a share (report.html draws it as a bar). */
  readonly bounds: readonly [number, number];
  /** The interval report.json's `ci` gives it, per task ("bootstrap": only when --bootstrap > 0). */
  readonly interval?: Partial<Readonly<Record<MetricTask, "wilson" | "bootstrap">>>;
  /** How a baseline compares it case by case, per task; a metric without one takes no `--max-drop`. */
  readonly paired?: Partial<Readonly<Record<MetricTask, PairedBy>>>;
  /** Among the headline metrics the terminal summary shows first. */
  readonly summary?: boolean;
  /** Drawn by `mari trend` for these tasks when no --metric is given. */
  readonly trend?: readonly MetricTask[];
  /** The metric `mari trend` chooses the checkpoint to keep by, for these tasks, when no --keep-by is given. */
  readonly keepBy?: readonly MetricTask[];
}

/** The bounds of a share (a rate, a precision, a mean of 0/1 outcomes). */
export const SHARE: readonly [number, number] = [0, 1];
/** The bounds of a count or a cost: not negative, no upper bound. */
export const NOT_NEGATIVE: readonly [number, number] = [0, Number.POSITIVE_INFINITY];
