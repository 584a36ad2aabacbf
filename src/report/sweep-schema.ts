// The published schema of sweep.json (`mari sweep`, docs/pairs.md, "mari sweep PAIRS"), written to schema/sweep.schema.json.
// A sweep is not a report.json (it has one row per config instead of one set of metrics), so it
// has its own schema; `task: "sweep"` and `schema_version` tell the two apart.
import { z } from "zod";
import { buildInfoFields, count, gateResult, schemaIssues, sha256 } from "./schema.js";

const SWEEP_SCHEMA_ID_VERSION = "1.0.0";

const numberTable = z.record(z.string(), z.number());
const config = z.record(z.string(), z.number());

export const sweepSchema = z
  .object({
    schema_version: z.string().regex(/^\d+\.\d+\.\d+$/),
    task: z.literal("sweep"),
    dataset: z.object({ path: z.string(), sha256, cases: count, slice_hash: sha256 }).catchall(z.unknown()),
    system: z.object(buildInfoFields).catchall(z.unknown()),
    grid: z.string(),
    fields: z.array(z.string()),
    unit_prices: numberTable,
    cost_matrix: z.record(z.string(), numberTable),
    pairs: z.object({ records: count, labelled: count, unlabelled: count, rejected: count }),
    rejections: z.record(z.string(), count),
    rejection_examples: z.array(z.object({ where: z.string(), reason: z.string(), message: z.string() })),
    rows: z.array(
      z.object({
        index: count,
        label: z.string(),
        config,
        metrics: z.record(z.string(), z.number().nullable()),
        confusion: z.record(z.string(), z.record(z.string(), count)),
        gates: z.array(gateResult),
        passed: z.boolean(),
        best: z.boolean(),
        pareto: z.boolean(),
      }),
    ),
    best: z.object({ index: count, label: z.string(), config, revision_cost: z.number().nullable() }).nullable(),
    best_rule: z.string(),
    pareto_front: z.array(
      z.object({ index: count, label: z.string(), update_recall: z.number().nullable(), restatement_to_update_rate: z.number().nullable() }),
    ),
    pareto_rule: z.string(),
  })
  .meta({
    $id: `https://mari.invalid/schema/sweep-${SWEEP_SCHEMA_ID_VERSION}.json`,
    title: "mari sweep.json",
    description: "The result of `mari sweep`: one row per classifier config, the best config and the Pareto front.",
  });

export const SWEEP_JSON_SCHEMA: object = z.toJSONSchema(sweepSchema);

/** Schema errors as `path: message` lines; empty when `value` is a valid sweep.json value. */
export function validateSweep(value: unknown): string[] {
  return schemaIssues(sweepSchema, value);
}
