// The published schema of trend.json (`mari trend`), written to schema/trend.schema.json. A trend
// is not a report.json (one set of values per checkpoint, and no cases of its own), so it has its
// own schema, built from the report's parts (intervals, gates, the paired comparison).
import { z } from "zod";
import { baselineComparison, confidenceInterval, count, gateResult, metricValue, schemaIssues, sha256 } from "./schema.js";

/** trend.json's schema_version; bump the major on a breaking change. */
export const TREND_SCHEMA_VERSION = "1.0.0";

const pointRef = z.object({ index: count, name: z.string(), value: z.number() });

export const trendSchema = z
  .object({
    schema_version: z.string().regex(/^\d+\.\d+\.\d+$/),
    task: z.enum(["documents", "pairs", "evidence", "sweep"]),
    x: z.enum(["step", "name", "time"]),
    same_slice: z.boolean(),
    points: z.array(
      z.object({
        index: count,
        name: z.string(),
        path: z.string(),
        step: count.nullable(),
        time: z.string().optional(),
        dataset: z.object({ path: z.string(), slice_hash: sha256, cases: count }),
        predictions: z.string().nullable(),
        values: z.record(z.string(), metricValue),
        ci: z.record(z.string(), confidenceInterval),
      }),
    ),
    series: z.array(z.object({ metric: z.string(), higher_is_better: z.boolean(), best: pointRef.nullable(), last_minus_best: z.number().nullable() })),
    keep: z
      .object({
        metric: z.string(),
        higher_is_better: z.boolean(),
        rule: z.string(),
        best: pointRef,
        kept: pointRef,
        seed: z.number().int(),
        resamples: count,
        screen: z.object({ interval: z.object({ low: z.number(), high: z.number() }).nullable(), skipped: count }),
        comparisons: z.array(
          z.object({
            index: count,
            name: z.string(),
            difference: z.number(),
            low: z.number(),
            high: z.number(),
            mcnemar_p: z.number().min(0).max(1),
            matched_cases: count,
            significantly_worse: z.boolean(),
          }),
        ),
      })
      .nullable(),
    keep_note: z.string().optional(),
    gates: z.array(gateResult),
    drop_comparisons: z.array(z.object({ metric: z.string(), best: pointRef, comparison: baselineComparison })),
    warnings: z.array(z.string()),
  })
  .meta({
    $id: `https://mari.invalid/schema/trend-${TREND_SCHEMA_VERSION}.json`,
    title: "mari trend.json",
    description:
      "The result of `mari trend`: each checkpoint report's values, the best point per metric, the checkpoint to keep and the gates on the last checkpoint.",
  });

export const TREND_JSON_SCHEMA: object = z.toJSONSchema(trendSchema);

/** Schema errors as `path: message` lines; empty when `value` is a valid trend.json value. */
export function validateTrend(value: unknown): string[] {
  return schemaIssues(trendSchema, value);
}
