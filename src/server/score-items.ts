// Scores the items of one reward request against a loaded slice with exactly the functions
// `mari eval` uses for a dump line: the case id and run key readers of src/io/dump.ts, then
// `scoreCase` (prediction extraction, validation, rewards). One bad item is a result with its reason
// code, never a failed batch.
import { dumpCaseId, dumpRunKey } from "../io/dump.js";
import { exceedsDepth } from "../io/depth.js";
import { isJsonObject } from "../io/records.js";
import type { DocumentSlice } from "../io/slice.js";
import { scoreCase, type ScoreOptions } from "../tasks/document/score.js";

/**
 * Reasons an item gets before it reaches the scorer. The first three are the dump's own line-level
 * codes; `unknown_case_id` is what a dump counts as an orphan; `prompt_not_prefix` is /get_reward's
 * (its query does not begin with its prompt).
 */
export type ItemRejection = "not_an_object" | "malformed_json" | "bad_case_id" | "bad_run_key" | "unknown_case_id" | "prompt_not_prefix";

/** One item's rewards: the fields (and values) of a `mari eval --rewards` line. */
export interface ItemRewards {
  accuracy: number;
  reference_coverage: number;
  format: number;
  matched_evidence_count: number;
  gold_evidence_count: number;
  format_valid: boolean;
  reason: string | null;
}

export interface ScoredItem {
  rewards: ItemRewards;
  /** The item's case id, and its run key when it gives one (`run` or `sample`), for the --log lines. */
  caseId: string | null;
  run: string | null;
  /** The prediction fields the item carries (only kept for `--log-predictions`). */
  prediction?: Record<string, unknown>;
  /** For `bad_run_key`: the run value as sent, so that a logged line is rejected by `mari eval` too. */
  badRun?: unknown;
}

/** The fields of a dump line that carry the prediction (docs/eval.md, "Inputs"). */
const PREDICTION_FIELDS = ["judgment", "evidence_sentence_ids", "evidence", "reasoning", "prediction", "completion"] as const;

/** An item that could not be scored: no reward of any kind. */
export function rejectedItem(reason: ItemRejection, caseId: string | null = null): ScoredItem {
  return {
    rewards: {
      accuracy: 0,
      reference_coverage: 0,
      format: 0,
      matched_evidence_count: 0,
      gold_evidence_count: 0,
      format_valid: false,
      reason,
    },
    caseId,
    run: null,
  };
}

/** Scores one item: a structured, cache-shape or raw-completion prediction, as in a dump line. */
export function scoreItem(slice: DocumentSlice, item: unknown, options: ScoreOptions): ScoredItem {
  if (!isJsonObject(item)) return rejectedItem("not_an_object");
  // The bound a dump line has (io/depth.ts): a deeper item is rejected as that line would be.
  if (exceedsDepth(item)) return rejectedItem("malformed_json");
  const caseId = dumpCaseId(item);
  if (caseId === undefined) return rejectedItem("bad_case_id");
  const index = slice.byId.get(caseId);
  if (index === undefined) return rejectedItem("unknown_case_id", caseId);
  const run = dumpRunKey(item);
  if (run === undefined) return { ...rejectedItem("bad_run_key", caseId), badRun: item.run ?? item.sample };
  const c = slice.cases[index]!;
  const scored = scoreCase(c, item, options);
  const prediction: Record<string, unknown> = {};
  for (const field of PREDICTION_FIELDS) if (Object.hasOwn(item, field)) prediction[field] = item[field];
  const valid = scored.reason === null;
  return {
    rewards: {
      accuracy: scored.rewardAccuracy,
      reference_coverage: scored.referenceCoverage,
      format: valid ? 1 : 0,
      matched_evidence_count: scored.matched,
      gold_evidence_count: c.gold.length,
      format_valid: valid,
      reason: scored.reason,
    },
    caseId,
    run: item.run != null || item.sample != null ? run : null,
    prediction,
  };
}

/** Scores a batch in order. The validator's rejections are expected data: no stack traces for them. */
export function scoreItems(slice: DocumentSlice, items: readonly unknown[], options: ScoreOptions): ScoredItem[] {
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return items.map((item) => scoreItem(slice, item, options));
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/** /get_reward: the completion is `query` without its `prompt` prefix; the label is the case id. */
export function completionItem(query: unknown, prompt: unknown, label: unknown): { item: Record<string, unknown> } | { rejected: ScoredItem } {
  if (typeof query === "string" && typeof prompt === "string") {
    if (!query.startsWith(prompt)) return { rejected: rejectedItem("prompt_not_prefix", typeof label === "string" ? label : null) };
    return { item: { case_id: label, completion: query.slice(prompt.length) } };
  }
  // A query or prompt that is not text: no completion, which the scorer reports as bad_completion_format.
  return { item: { case_id: label, completion: null } };
}
