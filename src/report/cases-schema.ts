// The published schema of a document eval's cases.jsonl lines (docs/reports.md, "cases.jsonl of a
// document eval"), written to schema/document-cases.schema.json by scripts/write-schema.mjs. A line
// is a case line (case-level fields, once per case) or a run line (one per run of that case, after
// it); a sparse file starts with a runs line (every run, in order) and has run lines for kept lines
// only. What the reader (src/report/document-cases.ts) re-derives from them is listed in the docs.
import { z } from "zod";

const sentenceIds = z.array(z.number().int());

/** A case line: the case-level fields, before the case's run lines; null facets and empty `fields` are left out. */
export const documentCaseLineSchema = z
  .strictObject({
    case_id: z.string(),
    case_index: z.number().int().min(0),
    label: z.boolean(),
    gold_sentence_ids: sentenceIds,
    sentence_count: z.number().int().min(0),
    scope: z.string().optional(),
    doc_type: z.string().optional(),
    contra_type: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("one type, or several (the case counts under each)"),
    fields: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("case line: the case-level fields of one case, written once before its run lines");

/** A run line: what one prediction (or its absence) decided, for the case line before it. */
export const documentRunLineSchema = z
  .strictObject({
    run: z.union([z.string(), z.number().int()]),
    line: z.number().int().min(1).optional().describe("dump line of the prediction; absent when the run has no prediction for the case"),
    judgment: z.boolean().describe("the judgment as scored (false when format-invalid or missing)"),
    reason: z.string().optional().describe("why the prediction is format-invalid (e.g. missing_prediction); absent when it is valid"),
    evidence_sentence_ids: sentenceIds,
    reference_coverage: z.number().min(0).max(1),
  })
  .describe("run line: one (case, run) of the case line before it");

/** The runs line: the first line of a sparse cases.jsonl, every run in run order. */
export const documentRunsLineSchema = z
  .strictObject({
    runs: z.array(z.union([z.string(), z.number().int()])),
  })
  .describe(
    "runs line: the first line of a sparse cases.jsonl (fewer than half the (case, run) cells have a kept line), every run in run order; a run without a run line under a case is a missing prediction there",
  );

export const documentCasesLineSchema = z.union([documentCaseLineSchema, documentRunLineSchema, documentRunsLineSchema]);

export const DOCUMENT_CASES_JSON_SCHEMA: object = {
  ...z.toJSONSchema(documentCasesLineSchema),
  title: "mari document eval cases.jsonl line",
};
