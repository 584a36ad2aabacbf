// The response inside an OpenRLHF query. OpenRLHF sends `query` = decode(prompt tokens + response
// tokens) and `prompts` = the prompt text; the response is what follows the prompt. A tokenizer that
// cleans up spaces while decoding (Hugging Face's `clean_up_tokenization_spaces`, on for Llama 3)
// changes the prompt's text inside the query, so the exact prefix is tried first, then the prompt as
// the clean-up would print it, then the text after the last assistant-turn header of the common chat
// templates. Padding a left-padded batch leaves before the prompt is skipped first. docs/serve.md
// lists the rules.
import { withoutLeadingMarkers } from "../core/document/completion-end.js";
import { holdsAt } from "./text-at.js";

/** Which rule found the response; anything but `prompt_prefix` is reported with the result. */
export type ResponseRule = "prompt_prefix" | "prompt_prefix_cleaned" | "assistant_turn";

// Hugging Face tokenizers' decode clean-up, in its order: a space before these is dropped.
const CLEANUPS: ReadonlyArray<readonly [string, string]> = [
  [" .", "."],
  [" ?", "?"],
  [" !", "!"],
  [" ,", ","],
  [" ' ", "'"],
  [" n't", "n't"],
  [" 'm", "'m"],
  [" 's", "'s"],
  [" 've", "'ve"],
  [" 're", "'re"],
];

/** The text as a decode with `clean_up_tokenization_spaces` prints it. */
export function cleanUpTokenizationSpaces(text: string): string {
  let out = text;
  for (const [from, to] of CLEANUPS) out = out.replaceAll(from, to);
  return out;
}

// Where the model's turn starts in the common chat templates: ChatML (Qwen, Phi-4), Llama 3,
// Gemma, DeepSeek, Phi-3, Llama 2 / Mistral.
const ASSISTANT_HEADERS = [
  "<|im_start|>assistant\n",
  "<|start_header_id|>assistant<|end_header_id|>\n\n",
  "<start_of_turn>model\n",
  "<｜Assistant｜>",
  "<|assistant|>\n",
  "[/INST]",
];

/** The text after the last assistant-turn header, or undefined when the query has none. */
function afterLastAssistantTurn(query: string): string | undefined {
  let best = -1;
  for (const header of ASSISTANT_HEADERS) {
    const at = query.lastIndexOf(header);
    if (at !== -1) best = Math.max(best, at + header.length);
  }
  return best === -1 ? undefined : query.slice(best);
}

/**
 * A reasoning template (DeepSeek-R1's, for one) ends the generation prompt with the think opener,
 * so the model's text starts inside the think block. The opener is then the prompt's, given back to
 * the response, so that what is scored is the block as the model continued it.
 */
export function responseAfterPrompt(response: string, prompt: string, rule: ResponseRule): QueryCut {
  if (response.includes("<think>")) return { response, rule, thinkFromPrompt: false };
  const opener = ["<think>\n", "<think>"].find((o) => prompt.endsWith(o));
  return opener === undefined ? { response, rule, thinkFromPrompt: false } : { response: opener + response, rule, thinkFromPrompt: true };
}

/** The response cut from a query, the rule that found it, and whether its think opener came from the prompt. */
export interface QueryCut {
  response: string;
  rule: ResponseRule;
  thinkFromPrompt: boolean;
}

/** The response part of `query`, the rule that found it, and whether its think opener came from the prompt. */
export function responseOfQuery(sent: string, prompt: string): QueryCut | undefined {
  const exact = holdsAt(sent, prompt);
  const query = exact ? sent : withoutLeadingMarkers(sent);
  if (exact || holdsAt(query, prompt)) return responseAfterPrompt(query.slice(prompt.length), prompt, "prompt_prefix");
  const cleaned = cleanUpTokenizationSpaces(prompt);
  if (holdsAt(query, cleaned)) return responseAfterPrompt(query.slice(cleaned.length), prompt, "prompt_prefix_cleaned");
  const turn = afterLastAssistantTurn(query);
  return turn === undefined ? undefined : { response: turn, rule: "assistant_turn", thinkFromPrompt: false };
}
