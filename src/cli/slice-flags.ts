// `--sentences`, spelt and read the same way by every command that reads a document slice
// (eval, predict, serve, merge).
import { Option } from "commander";
import { SENTENCE_RULES, sliceRejectionWarnings, type DocumentSlice, type SentenceRule } from "../io/slice.js";

export function sentencesOption(): Option {
  return new Option(
    "--sentences <rule>",
    "how slice texts become numbered sentences: mari (default, mari's own split) or punkt (nltk 3.8 sent_tokenize, as RRC-built prompts number them)",
  ).choices(SENTENCE_RULES);
}

export function sentenceRuleOf(flags: { sentences?: string }): SentenceRule {
  return (flags.sentences as SentenceRule | undefined) ?? "mari";
}

/** Warns on stderr about slice records left out (commands that write no report). */
export function warnRejectedSliceRecords(slice: DocumentSlice): void {
  for (const warning of sliceRejectionWarnings(slice)) process.stderr.write(`warning: ${warning}\n`);
}
