// One chat-completions request and one chat-completions response, as the model judge sees them,
// shared by the live client (chat-client.ts) and the batch files (batch-requests.ts,
// batch-results.ts): a batch request line carries exactly the body a live request sends, and an
// answer read from a batch output line goes through exactly the checks a live answer goes through.
import { failedPrediction, parseJudgeAnswer } from "./answer.js";
import type { ChatMessage } from "./prompt.js";
import type { JudgeErrorCode, PredictionBody } from "./types.js";

/** The sampling settings of a run: what, besides the messages, determines the request body. */
export interface ChatRequestSettings {
  model: string;
  /** Absent: not sent, so the server's default applies (reasoning models accept no other). */
  temperature?: number;
  /** The completion-token limit when set; absent means the server's default. */
  maxTokens?: number;
  /**
   * The field `maxTokens` is sent as: `max_completion_tokens` (what OpenAI's reasoning models take;
   * `max_tokens` is deprecated there) unless the server wants the old name (e.g. older vLLM).
   */
  maxTokensField?: MaxTokensField;
}

export const MAX_TOKENS_FIELDS = ["max_completion_tokens", "max_tokens"] as const;
export type MaxTokensField = (typeof MAX_TOKENS_FIELDS)[number];

/**
 * The request body of run `run` of a case. Run r carries `seed: r`, so K runs are K differently
 * seeded samples: at temperature > 0 independent draws, at temperature 0 greedy answers that differ
 * only where the server is nondeterministic.
 */
export function chatRequestBody(settings: ChatRequestSettings, messages: readonly ChatMessage[], run: number, jsonMode: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: settings.model,
    messages,
    seed: run,
  };
  if (settings.temperature !== undefined) body["temperature"] = settings.temperature;
  if (settings.maxTokens !== undefined) body[settings.maxTokensField ?? "max_completion_tokens"] = settings.maxTokens;
  if (jsonMode) body["response_format"] = { type: "json_object" };
  return body;
}

/** Token counts a server reported for one completion (absent fields count 0). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export function addUsage(total: TokenUsage, more: TokenUsage | undefined): void {
  if (more === undefined) return;
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
}

function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** A chat completion's first choice, or why there is none. */
export type ReadCompletion =
  | { ok: true; content: string | null; finishReason: string | null; usage?: TokenUsage | undefined }
  | { ok: false; code: JudgeErrorCode; message: string };

/** Reads a parsed 200 body: `choices[0].message.content`, `finish_reason` and `usage`. */
export function readChatCompletion(body: unknown): ReadCompletion {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
  const choices = record?.["choices"];
  const first = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  if (typeof first !== "object" || first === null) return { ok: false, code: "no_choices", message: "response has no choices" };
  const choice = first as { message?: { content?: unknown }; finish_reason?: unknown };
  const content = choice.message?.content;
  const usage = record?.["usage"];
  return {
    ok: true,
    content: typeof content === "string" ? content : null,
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
    usage:
      typeof usage === "object" && usage !== null
        ? {
            promptTokens: tokenCount((usage as Record<string, unknown>)["prompt_tokens"]),
            completionTokens: tokenCount((usage as Record<string, unknown>)["completion_tokens"]),
          }
        : undefined,
  };
}

/**
 * The prediction an answered request yields: an answer cut off at the token limit
 * (`finish_reason: "length"`) is `answer_truncated`, whatever it parses to; any other answer goes
 * through parseJudgeAnswer.
 */
export function completionPrediction(content: string | null, finishReason: string | null, caseId: string): PredictionBody {
  if (finishReason === "length") {
    return failedPrediction("answer_truncated", 'the answer was cut off at the token limit (finish_reason "length")', content ?? undefined);
  }
  return parseJudgeAnswer(content, caseId);
}
