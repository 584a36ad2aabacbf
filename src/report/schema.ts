// The published schema of report.json (docs/reports.md, "Output files"). One definition (zod) gives both the runtime
// validator used by tests and `mari merge`, and the JSON Schema written to schema/report.schema.json.
// It mirrors src/report/types.ts; task-specific extras are allowed beside the contract keys.
import { z } from "zod";
import { REPORT_SCHEMA_LATEST } from "./types.js";

export const metricValue = z.number().nullable();
const metricTable = z.record(z.string(), metricValue);

export const confidenceInterval = z.object({
  low: z.number(),
  high: z.number(),
  method: z.enum(["wilson", "bootstrap"]),
  n: z.number().int().nonnegative(),
  seed: z.number().int().optional(),
  resamples: z.number().int().positive().optional(),
  resampling: z.string().optional(),
});

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex sha256");
/** A per-case file's digest (src/report/cases-digest.ts). */
const xxh64 = z.string().regex(/^[0-9a-f]{16}$/, "a lowercase hex XXH64");

/** Where a result was made (the part of `system` a sweep shares with a report). */
export const buildInfoFields = {
  mari_version: z.string(),
  git_commit: z.string().nullable(),
  git_dirty: z.boolean().nullable(),
  node: z.string(),
  icu: z.string().nullable(),
  platform: z.string(),
};

const systemInfo = z
  .object({
    ...buildInfoFields,
    config: z.record(z.string(), z.unknown()),
    config_hash: sha256,
    seed: z.number().int(),
    workers: z.number().int().positive(),
    judge: z.string().nullable(),
    judge_note: z.string().optional(),
    judge_run: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown());

export const gateResult = z.object({
  name: z.string(),
  metric: z.string(),
  kind: z.enum(["min", "max", "max_drop", "max_invalid_rate"]),
  threshold: z.number(),
  value: metricValue,
  passed: z.boolean(),
  detail: z.string().optional(),
});

const gateSpecRecord = z.object({
  kind: z.enum(["min", "max", "max_drop", "max_invalid_rate"]),
  metric: z.string(),
  threshold: z.number(),
  is_count: z.boolean().optional(),
  source: z.enum(["cli", "config", "default"]),
  note: z.string().optional(),
});

const pairedDifference = z.object({
  current: z.number(),
  baseline: z.number(),
  difference: z.number(),
  low: z.number(),
  high: z.number(),
});

export const baselineComparison = z.object({
  path: z.string().nullable(),
  // "case_run" and matched_units: reports written before pairing on cases (still readable as baselines).
  paired_by: z.enum(["case", "case_run"]),
  matched_units: z.number().int().nonnegative().optional(),
  matched_cases: z.number().int().nonnegative(),
  unmatched_current: z.number().int().nonnegative(),
  unmatched_baseline: z.number().int().nonnegative(),
  units: z.object({ current: z.number().int().nonnegative(), baseline: z.number().int().nonnegative() }).optional(),
  runs: z.object({ current: z.array(z.string()), baseline: z.array(z.string()) }).optional(),
  seed: z.number().int(),
  resamples: z.number().int().nonnegative(),
  metrics: z.record(z.string(), pairedDifference),
  mcnemar: z.object({
    baseline_only: z.number().int().nonnegative(),
    current_only: z.number().int().nonnegative(),
    p_value: z.number().min(0).max(1),
    method: z.literal("exact_binomial"),
    rule: z.literal("majority_of_runs").optional(),
  }),
  warning: z.string().optional(),
});

export const count = z.number().int().nonnegative();

export const reportSchema = z
  .object({
    schema_version: z.string().regex(/^\d+\.\d+\.\d+$/),
    cases_xxh64: xxh64.optional().describe("XXH64 (seed 0) of the bytes of the cases.jsonl beside this report, 16 hex digits (schema ≥ 1.3.0)"),
    cases_sha256: sha256.optional().describe("SHA-256 of the bytes of the cases.jsonl beside this report, as reports before 1.3.0 record it"),
    located_xxh64: xxh64.optional().describe("evidence: XXH64 (seed 0) of the bytes of the located.jsonl beside this report, 16 hex digits (schema ≥ 1.4.0)"),
    task: z.enum(["documents", "pairs", "evidence", "sweep"]),
    dataset: z
      .object({
        path: z.string(),
        sha256,
        cases: count,
        slice_hash: sha256,
        sentences: z.literal("punkt").optional().describe("the sentence rule when not mari's own (absent: mari)"),
        rejected_records: count.optional().describe("slice records left out as bad, each listed in warnings"),
        multi_type_cases: count.optional().describe("cases with several contra_types; each counts under every one of its types in breakdowns"),
        limit: count.optional(),
        slice_cases: count.optional(),
      })
      .catchall(z.unknown()),
    predictions: z
      .object({ path: z.string(), sha256, lines: count, runs: z.array(z.string()) })
      .catchall(z.unknown())
      .nullable(),
    system: systemInfo,
    metrics: metricTable,
    runs: z.record(z.string(), metricTable),
    runs_summary: z.object({ runs: count, listed: count, omitted: count }).optional(),
    ci: z.record(z.string(), confidenceInterval),
    spread: z.record(z.string(), z.object({ std: z.number(), min: z.number(), max: z.number() })).optional(),
    breakdowns: z.record(z.string(), z.record(z.string(), metricTable)).optional(),
    setcons: z.record(z.string(), z.unknown()).nullable().optional(),
    majority: metricTable.nullable().optional(),
    confusion: z.record(z.string(), z.record(z.string(), count)).optional(),
    gates: z.array(gateResult),
    gate_specs: z.array(gateSpecRecord).optional(),
    warnings: z.array(z.string()).optional(),
    rejections: z.record(z.string(), count),
    rejection_examples: z.array(z.object({ where: z.string(), reason: z.string(), message: z.string() })),
    orphans: z.object({ count, examples: z.array(z.string()), first_lines: z.array(z.number().int().min(1)).optional() }).optional(),
    invalid: z.object({ count, total: count }).optional(),
    histograms: z.record(z.string(), z.array(z.object({ bin: z.string(), count }))).optional(),
    baseline: baselineComparison.nullable().optional(),
    elapsed_seconds: z.number().nonnegative(),
  })
  .catchall(z.unknown())
  .meta({
    $id: `https://mari.invalid/schema/report-${REPORT_SCHEMA_LATEST}.json`,
    title: "mari report.json",
    description: `The report every mari task writes (schema_version up to ${REPORT_SCHEMA_LATEST}).`,
  });

export const REPORT_JSON_SCHEMA: object = z.toJSONSchema(reportSchema);

/** Schema errors as `path: message` lines; empty when `report` is a valid report.json value. */
export function validateReport(report: unknown): string[] {
  return schemaIssues(reportSchema, report);
}

/** A zod schema's errors on `value` as `path: message` lines (empty when it conforms). */
export function schemaIssues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
}
