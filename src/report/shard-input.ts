// Shard reports and their cases.jsonl are read back by `mari merge` (and a report.json by
// --baseline): they are untrusted input like any other file. A report must satisfy the published
// schema (schema/report.schema.json) and every case line the shape the merge reads, or the merge
// stops with exit 2 naming the file and line, before a wrong-typed value can reach a typed array.
import { REWARD_RANGES } from "../core/document/reward-ranges.js";
import { z } from "zod";
import { InputError, located } from "../io/errors.js";
import { readJsonFile } from "../io/json-file.js";
import type { JsonObject } from "../io/records.js";
import { readCaseLineItems, type CaseItem } from "./document-cases.js";
import { validateReport } from "./schema.js";
import type { Report } from "./types.js";

const INT32_MAX = 2 ** 31 - 1;
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const int32 = z
  .number()
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX);
const share = z.number().min(0).max(1);

/** The `shard` block of a document shard report (what the merge reads from it). */
const documentShardState = z.object({
  index: z.number().int().min(0),
  count: z.number().int().min(1),
  run_first_lines: z.record(z.string(), z.number().int().min(1).max(INT32_MAX)),
  line_rejections: z.record(z.string(), count),
  orphan_first_lines: z.array(z.unknown()).optional(),
});

/** A document case line with a prediction (`line` not null): the values the merge puts into its tables. */
const documentCaseLine = z.object({
  case_id: z.string(),
  case_index: z.number().int().min(0),
  run: z.union([z.string(), z.number().int()]),
  line: z.number().int().min(1).max(INT32_MAX),
  judgment: z.boolean().nullable(),
  reason: z.string().nullable(),
  evidence_sentence_ids: z.array(int32),
  reference_coverage: share,
  /** docs/core-document.md: −1, 0, 1 or 1 + matched/|gold| ∈ (1, 2]. */
  reward_accuracy: z.number().min(REWARD_RANGES.accuracy[0]).max(REWARD_RANGES.accuracy[1]),
  matched_evidence_count: z.number().int().min(0).max(INT32_MAX),
});

/** A document case line without a prediction: re-derived by the aggregation, only its identity is read. */
const missingCaseLine = z.object({ case_id: z.string(), case_index: z.number().int().min(0), line: z.null() });

/** A pair case line: merged by id. */
const pairCaseLine = z.object({ id: z.string() });

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}

/** Reads a report.json and checks it against the report schema; `what` names its role in messages. */
export async function readCheckedReport(path: string, what = "report"): Promise<Report> {
  const value = await readJsonFile(path, what);
  const problems = validateReport(value);
  if (problems.length > 0) {
    throw new InputError(located(path, undefined, `not a valid ${what} (schema/report.schema.json): ${problems.slice(0, 3).join("; ")}`));
  }
  return value as Report;
}

/** Checks a document shard report's `shard` block. */
export function checkDocumentShardState(path: string, shard: unknown): void {
  const parsed = documentShardState.safeParse(shard);
  if (!parsed.success) throw new InputError(located(path, undefined, `not a valid shard report: shard.${describeIssues(parsed.error)}`));
}

/** Checks one parsed line of a document shard's cases.jsonl. */
export function checkDocumentCaseLine(casesPath: string, lineNo: number, row: unknown): void {
  const schema = (row as { line?: unknown } | null)?.line === null ? missingCaseLine : documentCaseLine;
  const parsed = schema.safeParse(row);
  if (!parsed.success) throw new InputError(located(casesPath, lineNo, `not a valid case line: ${describeIssues(parsed.error)}`));
}

/** Checks one parsed line of a pair shard's cases.jsonl. */
export function checkPairCaseLine(casesPath: string, lineNo: number, row: unknown): void {
  const parsed = pairCaseLine.safeParse(row);
  if (!parsed.success) throw new InputError(located(casesPath, lineNo, `not a valid case line: ${describeIssues(parsed.error)}`));
}

/**
 * The records of a shard's cases.jsonl, each passed through `check` (which throws with the file and
 * line); blank lines are skipped, any other line that gives no record is an input error at its
 * line. `read` is the task's reader: line by line (pairs, the default) or readDocumentCases, which
 * expands a document eval's compact case and run lines into full per-(case, run) records.
 */
export async function* checkedCaseLines(
  casesPath: string,
  check: (casesPath: string, lineNo: number, row: unknown) => void,
  read: (casesPath: string) => AsyncIterable<CaseItem> = readCaseLineItems,
): AsyncGenerator<{ lineNo: number; caseLineNo: number; text: string; record: JsonObject }> {
  for await (const item of read(casesPath)) {
    if ("error" in item) {
      if (item.blank) continue;
      throw new InputError(located(casesPath, item.lineNo, item.error));
    }
    check(casesPath, item.lineNo, item.record);
    yield { lineNo: item.lineNo, caseLineNo: item.caseLineNo ?? item.lineNo, text: item.text ?? "", record: item.record };
  }
}
