// The report contract (docs/reports.md, "Output files", docs/comparable-reports.md): what every task produces and every writer reads.
// report.json is this object serialised; the key names are read by users' scripts and CI jobs,
// so they are snake_case and stable. Bump REPORT_SCHEMA_VERSION on any breaking change.

export const REPORT_SCHEMA_VERSION = "1.1.0";
/** The minor version that added `runs_summary`. */
export const REPORT_SCHEMA_RUNS_SUMMARY = "1.2.0";
/** The minor version that added `cases_xxh64`. */
export const REPORT_SCHEMA_CASES_XXH64 = "1.3.0";
/** The minor version that added `located_xxh64` (evidence). */
export const REPORT_SCHEMA_LOCATED_XXH64 = "1.4.0";
/**
 * The newest report schema. A report states the newest version whose keys it uses, so reports
 * without the newer keys read byte for byte as before (docs/reports.md).
 */
export const REPORT_SCHEMA_LATEST = REPORT_SCHEMA_LOCATED_XXH64;

/** The later of two schema versions (`major.minor.patch`). */
export function laterSchemaVersion(a: string, b: string): string {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0) ? a : b;
  return a;
}

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
  /** Bootstrap only: how resamples are drawn ("signature-multinomial", schema ≥ 1.1.0). */
  resampling?: string;
}

export interface InputFileInfo {
  path: string;
  sha256: string;
}

export interface DatasetInfo extends InputFileInfo {
  cases: number;
  /** sha256 over the sorted per-case hashes: identifies the slice's content, independent of order. */
  slice_hash: string;
  /** The sentence rule when it is not mari's own (absent = "mari"). */
  sentences?: "punkt";
  /** Slice records left out as bad (absent = none); each is listed in `warnings`. */
  rejected_records?: number;
  /** Cases with several contra_types (absent = none): each counts under every one of its types. */
  multi_type_cases?: number;
  /** `mari eval --limit N`: only the first N cases were scored, of `slice_cases`. */
  limit?: number;
  slice_cases?: number;
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
  /** DUMP.meta.json of the dump, when `mari predict` wrote one (model, prompt hash, token usage). */
  judge_run?: Record<string, unknown>;
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

/** A gate as it was asked for (src/gates/spec.ts GateSpec), kept so `mari merge` re-applies it. */
export interface GateSpecRecord {
  kind: GateResult["kind"];
  metric: string;
  threshold: number;
  /** max_invalid_rate only: the threshold is a count. */
  is_count?: boolean;
  source: "cli" | "config" | "default";
  note?: string;
}

export interface RejectionExample {
  where: string;
  reason: string;
  message: string;
}

export interface RunsSummary {
  runs: number;
  listed: number;
  omitted: number;
}

export interface Report {
  schema_version: string;
  /** XXH64 of the cases.jsonl written beside this report (readers check it; src/report/cases-digest.ts). */
  cases_xxh64?: string;
  /** SHA-256 of the cases.jsonl beside a report written before `cases_xxh64` (readers still check it). */
  cases_sha256?: string;
  /** XXH64 of the located.jsonl written beside an evidence report (readers check it; src/report/cases-digest.ts). */
  located_xxh64?: string;
  task: TaskName;
  dataset: DatasetInfo;
  predictions: PredictionsInfo | null;
  system: SystemInfo;
  /** Headline values; names exactly as docs/eval.md, "Metrics"/§1.5/§2.4. */
  metrics: Record<string, MetricValue>;
  /** Per run key, the same metric names (the first RUN_ROWS_CAP runs only when `runs_summary` is present). */
  runs: Record<string, Record<string, MetricValue>>;
  /** Present when `runs` lists only the first `listed` of `runs` runs (`omitted` = runs − listed). */
  runs_summary?: RunsSummary;
  ci: Record<string, ConfidenceInterval>;
  /** Spread of each headline metric over runs (population std, min, max). */
  spread?: Record<string, { std: number; min: number; max: number }>;
  breakdowns?: Record<string, Record<string, Record<string, MetricValue>>>;
  setcons?: Record<string, unknown> | null;
  majority?: Record<string, MetricValue> | null;
  confusion?: Record<string, Record<string, number>>;
  gates: GateResult[];
  /** The gates asked for, in evaluation order (what `gates` are the results of); merge re-applies them. */
  gate_specs?: GateSpecRecord[];
  /** Problems with the run every reader must see (e.g. most predictions format-invalid), shown prominently. */
  warnings?: string[];
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

/** McNemar's test on paired correctness (exact two-sided binomial on the discordant cases). */
export interface McNemarResult {
  /** Cases the baseline got right and the current run got wrong. */
  baseline_only: number;
  /** Cases the current run got right and the baseline got wrong. */
  current_only: number;
  p_value: number;
  method: "exact_binomial";
  /**
   * How a case with several runs becomes right or wrong on a side: "majority_of_runs" = strictly
   * more than half of that side's runs judged it right (a tie is not right).
   */
  rule?: "majority_of_runs";
}

/**
 * Paired comparison with a baseline (src/gates/paired.ts): paired on cases, each side's per-case
 * value the mean over its own runs, so every case both sides have counts, whatever their runs.
 */
export interface BaselineComparison {
  /** The baseline report.json that was compared against. */
  path: string | null;
  /** Always "case": cases are paired, runs are averaged within each side. */
  paired_by: "case";
  /** Cases found on both sides (every one of them is compared). */
  matched_cases: number;
  /** Cases only one side has (not compared). */
  unmatched_current: number;
  unmatched_baseline: number;
  /** (case, run) units of the paired cases on each side. */
  units: { current: number; baseline: number };
  /** The run keys each side had, in order of first appearance. */
  runs: { current: string[]; baseline: string[] };
  seed: number;
  resamples: number;
  metrics: Record<string, PairedDifference>;
  mcnemar: McNemarResult;
  /** Set when the two reports were built from different slices (different slice_hash). */
  warning?: string;
}
