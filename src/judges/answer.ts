// Turns a model's message text into a prediction body. Values are passed through untouched (the
// evaluator decides what is valid); only answers that cannot be read at all become errors.
import { FLOAT_MARKER, parseDumpJson } from "../io/dump.js";
import { isJsonObject } from "../io/records.js";
import type { JudgeErrorCode, PredictionBody } from "./types.js";

const RAW_KEEP_CHARS = 2000;

/** A JSON object wrapped in a Markdown code fence (```json … ```) is read as the object. */
function stripCodeFence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("```") || !trimmed.endsWith("```") || trimmed.length < 6) return trimmed;
  const firstNewline = trimmed.indexOf("\n");
  if (firstNewline === -1) return trimmed;
  return trimmed.slice(firstNewline + 1, -3).trim();
}

export function failedPrediction(code: JudgeErrorCode, message: string, raw?: string): PredictionBody {
  const body: PredictionBody = {
    judgment: null,
    evidence_sentence_ids: null,
    reasoning: null,
    error: { code, message },
  };
  if (raw !== undefined) body.raw = raw.length > RAW_KEEP_CHARS ? `${raw.slice(0, RAW_KEEP_CHARS)}…` : raw;
  return body;
}

export function parseJudgeAnswer(content: string | null | undefined, caseId: string): PredictionBody {
  if (typeof content !== "string" || content.trim() === "") {
    return failedPrediction("empty_answer", "the server returned no message content", content ?? undefined);
  }
  // Parsed as the dump reader parses (floats such as `2.0` stay visible rather than becoming 2).
  const parsed = parseDumpJson(stripCodeFence(content));
  if ("error" in parsed) {
    if (parsed.error.code === "not_an_object") return failedPrediction("answer_not_object", "answer is not a JSON object", content);
    return failedPrediction("answer_not_json", `answer is not JSON: ${parsed.error.message}`, content);
  }
  const answer = parsed.record;
  if (!Object.hasOwn(answer, "judgment")) {
    return failedPrediction("answer_wrong_shape", 'answer has no "judgment" field', content);
  }
  const answeredId = answer["case_id"] ?? answer["id"];
  if (answeredId !== undefined && answeredId !== null && String(answeredId) !== caseId) {
    return failedPrediction("answer_wrong_case", `answer is about case ${JSON.stringify(answeredId)}, not ${JSON.stringify(caseId)}`, content);
  }
  return {
    judgment: unmarkFloats(answer["judgment"]),
    evidence_sentence_ids: unmarkFloats(answer["evidence_sentence_ids"] ?? null),
    reasoning: unmarkFloats(answer["reasoning"] ?? null),
  };
}

/**
 * A float the model wrote (`2.0`, `3e0`) is kept as its source text, a string, so the dump shows
 * what the model said and `mari eval` rejects it as a non-integer id instead of reading 2.
 */
function unmarkFloats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarkFloats);
  if (isJsonObject(value)) {
    const marker = value[FLOAT_MARKER];
    if (typeof marker === "string" && Object.keys(value).length === 1) return marker;
  }
  return value;
}
