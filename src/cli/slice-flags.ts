// `--sentences` (declared in src/core/options/documents.ts), read the same way by every command
// that reads a document slice (eval, predict, serve).
import { OPTIONS } from "../core/options/index.js";
import { sliceRejectionWarnings, type DocumentSlice, type SentenceRule } from "../io/slice.js";

export function sentenceRuleOf(flags: { sentences?: string }): SentenceRule {
  return (flags.sentences as SentenceRule | undefined) ?? OPTIONS.sentences.default;
}

/** Warns on stderr about slice records left out (commands that write no report). */
export function warnRejectedSliceRecords(slice: DocumentSlice): void {
  for (const warning of sliceRejectionWarnings(slice)) process.stderr.write(`warning: ${warning}\n`);
}
