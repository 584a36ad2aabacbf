// What a metric is, declared once (one metric a file in this folder, listed in index.ts): which
// reports carry it, which way is better, its interval, and where it is shown by default. The
// gates (a drop is a rise where lower is better), `mari trend` (default series, the metric the
// checkpoint to keep is chosen by), the terminal summary and the document report's outline read it.

export type MetricTask = "documents" | "pairs" | "evidence";

export interface MetricDescriptor {
  /** The key in report.json's `metrics` (a dotted path for a nested one, e.g. `setcons.judgment`). */
  readonly name: string;
  /** The reports that carry it. */
  readonly tasks: readonly MetricTask[];
  /** Which way is better: a `--max-drop` on a lower-is-better metric fails on a rise. */
  readonly direction: "higher" | "lower";
  /** The interval report.json's `ci` gives it, per task ("bootstrap": only when --bootstrap > 0). */
  readonly interval?: Partial<Readonly<Record<MetricTask, "wilson" | "bootstrap">>>;
  /** Among the headline metrics the terminal summary shows first. */
  readonly summary?: boolean;
  /** Drawn by `mari trend` for these tasks when no --metric is given. */
  readonly trend?: readonly MetricTask[];
  /** The metric `mari trend` chooses the checkpoint to keep by, for these tasks, when no --keep-by is given. */
  readonly keepBy?: readonly MetricTask[];
}
