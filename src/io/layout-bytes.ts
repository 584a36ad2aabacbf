// The completion layout (`parseCompletionLayout`, dump.ts) as the byte readers match it a word at
// a time: its markers, as a completion's bytes spell them (with the two answer prefixes), and its tags.
// dump-bytes.ts reads a completion's raw JSON bytes in the layout as it scans them; a completion
// written with `\/` is decoded first and read by tasks/document/score-bytes.ts.
import { byteWords, byteWordsAt, type ByteWords } from "./byte-words.js";
import { LAYOUT_TAGS } from "../core/document/completion-end.js";

const [THINK, THINK_CLOSE, ANSWER, ANSWER_CLOSE] = LAYOUT_TAGS as [string, string, string, string];

/**
 * The layout's markers in bytes where a newline is `newline` bytes long: in the raw bytes of a JSON
 * string, the two of the escape `\n`; decoded, the byte 0x0a.
 */
export interface LayoutMarkers {
  newline: number;
  /** `<think>` and a newline: the layout's start. */
  thinkOpen: ByteWords;
  /** A newline, `</think>`, a newline, `<answer>`, a newline: where the think text ends. */
  thinkToAnswer: ByteWords;
  /** thinkToAnswer and `Judgment: `: where the think text ends and the judgment line begins, matched at once. */
  thinkToJudgment: ByteWords;
  /** A newline and `Evidence: `: where the judgment line ends and the evidence line begins. */
  judgmentToEvidence: ByteWords;
  /** A newline and `</answer>`: the layout's end. */
  answerClose: ByteWords;
}

const markers = (newline: string): LayoutMarkers => ({
  newline: newline.length,
  thinkOpen: byteWords(`${THINK}${newline}`),
  thinkToAnswer: byteWords(`${newline}${THINK_CLOSE}${newline}${ANSWER}${newline}`),
  thinkToJudgment: byteWords(`${newline}${THINK_CLOSE}${newline}${ANSWER}${newline}Judgment: `),
  judgmentToEvidence: byteWords(`${newline}Evidence: `),
  answerClose: byteWords(`${newline}${ANSWER_CLOSE}`),
});
export const RAW_MARKERS = markers("\\n");
export const DECODED_MARKERS = markers("\n");

/** The length of `<answer>`: it ends the middle marker, before its last newline. */
export const ANSWER_TAG_LENGTH = ANSWER.length;

const TAG_THINK = byteWords(THINK);
const TAG_ANSWER = byteWords(ANSWER);
const TAG_THINK_CLOSE = byteWords(THINK_CLOSE);
const TAG_ANSWER_CLOSE = byteWords(ANSWER_CLOSE);

/** Whether one of the four tags starts at `at`, where bytes has a `<` (`view`: their words; `end`: where they end). */
export function tagAt(bytes: Uint8Array, view: DataView, at: number, end: number): boolean {
  // The byte after `<` tells which tags can start here: `<think>`, `<answer>` or a closing one.
  const next = bytes[at + 1];
  if (next === 0x74) return byteWordsAt(view, at, end, TAG_THINK);
  if (next === 0x61) return byteWordsAt(view, at, end, TAG_ANSWER);
  return next === 0x2f && (byteWordsAt(view, at, end, TAG_THINK_CLOSE) || byteWordsAt(view, at, end, TAG_ANSWER_CLOSE));
}
