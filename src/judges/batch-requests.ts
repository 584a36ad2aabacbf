// The request file of a batch run (OpenAI Batch API input format, which vLLM's
// `python -m vllm.entrypoints.openai.run_batch` also reads): one line per (case, run),
// `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`, the body built by the
// same function as a live request's (chatRequestBody), so a batch run asks exactly what
// `mari predict --judge openai` would ask.
import { AtomicLineWriter } from "../io/atomic-write.js";
import { chatRequestBody, type ChatRequestSettings } from "./chat-request.js";
import { buildJudgeMessages, type PromptTemplate } from "./prompt.js";
import type { JudgeCase } from "./types.js";

export const BATCH_ENDPOINT = "/v1/chat/completions";

/**
 * `custom_id` of (case, run): the JSON text of the array `[case_id, run]`, e.g. `["doc-7",2]`.
 * JSON.stringify escapes quotes, backslashes, control characters and lone surrogates, so every
 * case id (any string) round-trips through decodeCustomId.
 */
export function encodeCustomId(caseId: string, run: number): string {
  return JSON.stringify([caseId, run]);
}

/** The (case, run) a custom_id names, or undefined when it is not one encodeCustomId writes. */
export function decodeCustomId(customId: string): { caseId: string; run: number } | undefined {
  if (!customId.startsWith('["')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(customId);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [caseId, run] = value as unknown[];
  if (typeof caseId !== "string" || typeof run !== "number" || !Number.isSafeInteger(run) || run < 0) return undefined;
  return { caseId, run };
}

export interface BatchRequestOptions extends ChatRequestSettings {
  runs: number;
  jsonMode: boolean;
  prompt?: PromptTemplate | undefined;
}

/** The request lines of one case (one per run), each ending in "\n". */
export function batchRequestLines(judgeCase: JudgeCase, options: BatchRequestOptions): string {
  const messages = buildJudgeMessages(judgeCase, options.prompt);
  let text = "";
  for (let run = 0; run < options.runs; run++) {
    const line = {
      custom_id: encodeCustomId(judgeCase.id, run),
      method: "POST",
      url: BATCH_ENDPOINT,
      body: chatRequestBody(options, messages, run, options.jsonMode),
    };
    text += `${JSON.stringify(line)}\n`;
  }
  return text;
}

/** Writes the request file atomically (it appears only when complete); returns lines and bytes written. */
export async function writeBatchRequests(path: string, cases: Iterable<JudgeCase>, options: BatchRequestOptions): Promise<{ lines: number; bytes: number }> {
  const writer = await AtomicLineWriter.open(path);
  let bytes = 0;
  let count = 0;
  try {
    for (const judgeCase of cases) {
      count++;
      const text = batchRequestLines(judgeCase, options);
      bytes += Buffer.byteLength(text);
      await writer.write(text);
    }
    await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  }
  return { lines: count * options.runs, bytes };
}
