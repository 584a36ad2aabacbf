// The report contract (SPEC §4.1, Appendix A): what every task produces and every writer reads.
// report.json is this object serialised; the key names are read by users' scripts and CI jobs,
// so they are snake_case and stable. Bump REPORT_SCHEMA_VERSION on any breaking change.

export const REPORT_SCHEMA_VERSION = "1.0.0";

export type TaskName = "documents" | "pairs" | "evidence" | "sweep";

export type MetricValue = number | null;

/** A 95% confidence interval for one headline metric. */
export interface ConfidenceInterval {
  low: number;
  high: number;
  method: "wilson" | "bootstrap";
  /** Population size the interval was computed over. */
  n: number;
  /** Bootstrap only. */
  seed?: number;
  resamples?: number;
}

export interface InputFileInfo {
  path: string;
  sha256: string;
}

export interface DatasetInfo extends InputFileInfo {
  cases: number;
  /** sha256 over the sorted per-case hashes: identifies the slice's content, independent of order. */
  slice_hash: string;
}

export interface PredictionsInfo extends InputFileInfo {
  lines: number;
  runs: string[];
}

export interface SystemInfo {
  mari_version: string;
  git_commit: string | null;
  git_dirty: boolean | null;
  node: string;
  icu: string | null;
  platform: string;
  config: Record<string, unknown>;
  config_hash: string;
  seed: number;
  workers: number;
  /** The judge `mari` ran to produce the predictions (e.g. "lexical"), or null for a user's dump. */
  judge: string | null;
  /** Only for judges that are baselines: a sentence saying so, shown in every report format. */
  judge_note?: string;
}

export interface GateResult {
  /** e.g. "accuracy>=0.6", "max_drop macro_f1=0.02", "max_invalid_rate=0.05". */
  name: string;
  metric: string;
  kind: "min" | "max" | "max_drop" | "max_invalid_rate";
  threshold: number;
  value: MetricValue;
  passed: boolean;
  /** Human-readable detail (e.g. the paired difference and its interval, McNemar p). */
  detail?: string;
}

export interface RejectionExample {
  where: string;
  reason: string;
  message: string;
}

export interface Report {
  schema_version: string;
  /** sha256 of the cases.jsonl written beside this report (readers check it). */
  cases_sha256?: string;
  /** Things the reader of the numbers must know (e.g. an input that changed while it was read). */
  warnings?: string[];
  task: TaskName;
  dataset: DatasetInfo;
  predictions: PredictionsInfo | null;
  system: SystemInfo;
  /** Headline values; names exactly as SPEC §1.4/§1.5/§2.4. */
  metrics: Record<string, MetricValue>;
  /** Per run key, the same metric names. */
  runs: Record<string, Record<string, MetricValue>>;
  ci: Record<string, ConfidenceInterval>;
  /** Spread of each headline metric over runs (population std, min, max). */
  spread?: Record<string, { std: number; min: number; max: number }>;
  breakdowns?: Record<string, Record<string, Record<string, MetricValue>>>;
  setcons?: Record<string, unknown> | null;
  majority?: Record<string, MetricValue> | null;
  confusion?: Record<string, Record<string, number>>;
  gates: GateResult[];
  /** reason code → count. */
  rejections: Record<string, number>;
  rejection_examples: RejectionExample[];
  orphans?: { count: number; examples: string[]; first_lines?: number[] };
  /**
   * Format-invalid predictions over all scored predictions (cases × runs), for `--max-invalid-rate`.
   * Kept in the report so `mari merge` can re-evaluate that gate from sums.
   */
  invalid?: { count: number; total: number };
  /**
   * Distributions to draw (e.g. `reward_accuracy`: how many predictions earned each reward), as
   * labelled bins in display order. Counts are sums, so shards merge by adding them per bin.
   */
  histograms?: Record<string, HistogramBin[]>;
  /** Paired comparison against `--baseline`, when one was given (src/gates/paired.ts). */
  baseline?: BaselineComparison | null;
  /** Task-specific extras (e.g. cost matrix, dependency list) live under their own keys. */
  [extra: string]: unknown;
  elapsed_seconds: number;
}

export type ReportFormat = "json" | "md" | "html" | "junit";

export interface HistogramBin {
  /** e.g. "-1", "0", "1", "(1, 1.5]". */
  bin: string;
  count: number;
}

/** One metric's paired difference (current − baseline) on the cases both runs scored. */
export interface PairedDifference {
  current: number;
  baseline: number;
  difference: number;
  /** Seeded percentile bootstrap interval of the difference (95%), resampling case ids. */
  low: number;
  high: number;
}

/** McNemar's test on paired correctness (exact two-sided binomial on the discordant pairs). */
export interface McNemarResult {
  /** Units the baseline got right and the current run got wrong. */
  baseline_only: number;
  /** Units the current run got right and the baseline got wrong. */
  current_only: number;
  p_value: number;
  method: "exact_binomial";
}

export interface BaselineComparison {
  /** The baseline report.json that was compared against. */
  path: string | null;
  /** Paired units (case, run) found on both sides, and the distinct cases among them. */
  matched_units: number;
  matched_cases: number;
  /** Units only one side has (not compared). */
  unmatched_current: number;
  unmatched_baseline: number;
  /** "case_run" pairs (case_id, run); "case" when both sides have exactly one run each. */
  paired_by: "case_run" | "case";
  seed: number;
  resamples: number;
  metrics: Record<string, PairedDifference>;
  mcnemar: McNemarResult;
  /** Set when the two reports were built from different slices (different slice_hash). */
  warning?: string;
}
