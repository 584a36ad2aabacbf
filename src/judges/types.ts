// What a judge consumes (one document, already split) and what it produces (one dump line in the
// structured shape `mari eval` reads, docs/eval.md, "Inputs").

/** One document as a judge sees it: its id and its sentences, numbered from 1. */
export interface JudgeCase {
  readonly id: string;
  readonly sentences: readonly string[];
}

/**
 * Why a judge could not produce a usable answer for a case. `mari eval` counts such a prediction
 * (format-invalid, scored as a negative) under the judge's own code, not as bad_judgment.
 */
export const JUDGE_ERROR_CODES = [
  "answer_not_json", // the model's text does not parse as JSON
  "answer_not_object", // it parses, but not to an object
  "answer_wrong_shape", // an object without a `judgment` key
  "answer_wrong_case", // the answer names a different case id
  "empty_answer", // the server returned no message content
  "answer_truncated", // the answer was cut off at the token limit (finish_reason "length")
  "no_choices", // a 200 response without choices (after retries, live)
  "request_failed", // retries exhausted (5xx, 429, timeout, unreadable response), or a failed batch request
] as const;
export type JudgeErrorCode = (typeof JUDGE_ERROR_CODES)[number];

/**
 * The judge's answer, as it goes into the dump and the cache. Values are passed through exactly as
 * the model gave them: `mari eval` validates them, so a judge never coerces (docs/eval.md, "Inputs"). A judge
 * that failed writes `judgment: null` plus `error`, which `mari eval` counts as format-invalid
 * under `error.code`.
 */
export interface PredictionBody {
  judgment: unknown;
  evidence_sentence_ids: unknown;
  reasoning: unknown;
  error?: { code: JudgeErrorCode; message: string };
  /** The model's raw text (truncated) when it could not be used, for diagnosis. */
  raw?: string;
}

/** One dump line: `{case_id, run, judgment, evidence_sentence_ids, reasoning}` (+ error, raw). */
export interface Prediction extends PredictionBody {
  case_id: string;
  run: number;
}

export function predictionLine(caseId: string, run: number, body: PredictionBody): Prediction {
  return { case_id: caseId, run, ...body };
}
