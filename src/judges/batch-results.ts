// Reads one line of a batch output file (OpenAI Batch API output format, which vLLM's run_batch
// also writes): `{"id", "custom_id", "response": {"status_code", "body": {chat completion}},
// "error"}`. The answer goes through exactly what a live answer goes through (readChatCompletion,
// then completionPrediction → parseJudgeAnswer); a request that failed is a failed prediction with
// its own code, never dropped:
//   `error` set, no `response`, or status_code ≠ 200 → request_failed
//   a 200 whose body has no choices                  → no_choices
//   finish_reason "length"                            → answer_truncated
import { isJsonObject, type JsonObject } from "../io/records.js";
import { decodeCustomId } from "./batch-requests.js";
import { failedPrediction } from "./answer.js";
import { completionPrediction, readChatCompletion, type TokenUsage } from "./chat-request.js";
import type { PredictionBody } from "./types.js";

const EXCERPT_CHARS = 300;

function excerpt(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function batchErrorMessage(error: unknown): string {
  if (isJsonObject(error)) {
    const code = typeof error["code"] === "string" ? `${error["code"]}: ` : "";
    if (typeof error["message"] === "string") return `batch request failed: ${code}${excerpt(error["message"])}`;
  }
  return `batch request failed: ${excerpt(error)}`;
}

export type BatchOutputLine =
  /** The custom_id does not name a (case, run) (not one mari wrote). */
  { orphan: string } | { caseId: string; run: number; prediction: PredictionBody; usage?: TokenUsage | undefined; model?: string };

/** One output line (already parsed to an object with a string custom_id) as a prediction. */
export function readBatchOutputLine(record: JsonObject): BatchOutputLine {
  const customId = record["custom_id"] as string;
  const target = decodeCustomId(customId);
  if (target === undefined) return { orphan: customId };
  const { caseId, run } = target;
  const error = record["error"];
  const response = record["response"];
  if (error !== undefined && error !== null) return { caseId, run, prediction: failedPrediction("request_failed", batchErrorMessage(error)) };
  if (!isJsonObject(response)) return { caseId, run, prediction: failedPrediction("request_failed", "batch output line has no response") };
  const status = response["status_code"];
  if (status !== 200) {
    return { caseId, run, prediction: failedPrediction("request_failed", `HTTP ${excerpt(status)}: ${excerpt(response["body"] ?? null)}`) };
  }
  const read = readChatCompletion(response["body"]);
  if (!read.ok) return { caseId, run, prediction: failedPrediction(read.code, read.message) };
  // The model that answered, as the server named it (recorded in the dump's meta.json).
  const body = response["body"];
  const model = isJsonObject(body) && typeof body["model"] === "string" ? body["model"] : undefined;
  return {
    caseId,
    run,
    prediction: completionPrediction(read.content, read.finishReason, caseId),
    usage: read.usage,
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * The dump record a batch output line stands for — `{case_id, run, prediction}`, the cache shape
 * `mari eval` reads — or the orphan id when the custom_id names no (case, run).
 */
export function batchOutputRecord(record: JsonObject): { record: JsonObject } | { orphan: string } {
  const line = readBatchOutputLine(record);
  if ("orphan" in line) return line;
  return { record: { case_id: line.caseId, run: line.run, prediction: line.prediction } };
}
