// What the model wrote, without what the trainer's decoder appended to it. RL trainers decode the
// sampled tokens with their special tokens kept (OpenRLHF always does), so a completion reaches mari
// followed by the chat template's end-of-turn marker, an end-of-text marker, padding or a newline.
// None of that is the model's answer: it is removed from the end before the layout check, in this one
// place, for `mari serve` (both routes) and for raw completions in `mari eval`. docs/serve.md states
// the rule and the marker list.

/** Trailing markers of the common chat templates and tokenizers, removed from a completion's end. */
export const END_MARKERS: readonly string[] = [
  // ChatML (Qwen, Phi-4, many fine-tunes) and GPT-2 style end of text (also Qwen's padding token)
  "<|im_end|>",
  "<|endoftext|>",
  // Llama 3: end of turn, end of message (tool use), end of text, the fine-tuning pad token
  "<|eot_id|>",
  "<|eom_id|>",
  "<|end_of_text|>",
  "<|finetune_right_pad_id|>",
  // Llama 2 / Mistral end of sequence
  "</s>",
  // Gemma: end of turn, end of sequence, padding
  "<end_of_turn>",
  "<eos>",
  "<pad>",
  // DeepSeek (V2, V3, R1): full-width bars and the ▁ marker, as their tokenizers spell them
  "<｜end▁of▁sentence｜>",
  "<｜▁pad▁｜>",
  // Phi-3: end of turn
  "<|end|>",
  // Llama 2 padding (its unknown token) and BERT-style padding some pipelines leave in
  "<unk>",
  "[PAD]",
];

/** The four tags of the completion layout (io/dump.ts reads it; `--special-token` may not name them). */
export const LAYOUT_TAGS = ["<think>", "</think>", "<answer>", "</answer>"];

/** How a completion's end is read: the default list plus the user's, or nothing removed at all. */
export interface CompletionEndRule {
  /** Keep the completion exactly as sent (the reference's behaviour): nothing is removed. */
  keepSpecialTokens?: boolean;
  /** Further markers to remove, e.g. a custom template's end token. */
  specialTokens?: readonly string[];
}

// The whitespace removed with the markers: what decoders and chat templates put between them.
function isTrailingSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * A list of markers with a quick test for "no marker can end here": the last two characters of every
 * marker, packed into one number. A completion's end almost never holds a marker, and the test
 * spares it a comparison with each.
 */
interface EndMarkers {
  markers: readonly string[];
  /** (last char << 16) | char before it, for each marker of two characters or more. */
  tails: ReadonlySet<number>;
  /** A one-character marker can end anywhere its character is: no quick test then. */
  hasSingleChar: boolean;
}

function endMarkers(markers: readonly string[]): EndMarkers {
  const tails = new Set<number>();
  let hasSingleChar = false;
  for (const m of markers) {
    if (m.length === 1) hasSingleChar = true;
    else if (m.length > 1) tails.add((m.charCodeAt(m.length - 1) << 16) | m.charCodeAt(m.length - 2));
  }
  return { markers, tails, hasSingleChar };
}

const DEFAULT_END_MARKERS = endMarkers(END_MARKERS);
// A run reads every completion with the same rule object: its marker list is built once.
const ruleMarkers = new WeakMap<CompletionEndRule, EndMarkers>();

function markersOf(rule: CompletionEndRule): EndMarkers {
  if (!rule.specialTokens?.length) return DEFAULT_END_MARKERS;
  let found = ruleMarkers.get(rule);
  if (found === undefined) {
    found = endMarkers([...END_MARKERS, ...rule.specialTokens]);
    ruleMarkers.set(rule, found);
  }
  return found;
}

/** The length of the first marker (in list order) that ends at `end`, or 0. */
function markerEndingAt(text: string, end: number, list: EndMarkers): number {
  if (!list.hasSingleChar && (end < 2 || !list.tails.has((text.charCodeAt(end - 1) << 16) | text.charCodeAt(end - 2)))) return 0;
  for (const m of list.markers) if (m.length > 0 && m.length <= end && text.startsWith(m, end - m.length)) return m.length;
  return 0;
}

/**
 * The completion without trailing end markers and whitespace, in any order and number
 * (`…</answer>\n<|im_end|><|endoftext|><|endoftext|>`). Text in the middle is never touched.
 */
export function completionAsWritten(text: string, rule: CompletionEndRule = {}): string {
  if (rule.keepSpecialTokens) return text;
  const list = markersOf(rule);
  let end = text.length;
  for (;;) {
    while (end > 0 && isTrailingSpace(text.charCodeAt(end - 1))) end--;
    const length = markerEndingAt(text, end, list);
    if (length === 0) break;
    end -= length;
  }
  return end === text.length ? text : text.slice(0, end);
}

/**
 * The text without leading padding markers (the same list): a trainer that decodes a left-padded
 * batch with its special tokens (OpenRLHF 0.6 does) puts them before the prompt.
 */
export function withoutLeadingMarkers(text: string): string {
  let start = 0;
  for (;;) {
    const marker = END_MARKERS.find((m) => text.startsWith(m, start));
    if (marker === undefined) return start === 0 ? text : text.slice(start);
    start += marker.length;
  }
}
