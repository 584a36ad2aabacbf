// `--sentences`, `--cache-dir` and `--no-cache` (declared in src/core/options/documents.ts), read
// the same way by every command that reads a document slice (eval, predict, serve).
import { resolve } from "node:path";
import { OPTIONS } from "../core/options/index.js";
import { defaultCacheDir } from "../io/slice-store.js";
import { sliceRejectionWarnings, type DocumentSlice, type SentenceRule } from "../io/slice-kept.js";

export function sentenceRuleOf(flags: { sentences?: string }): SentenceRule {
  return (flags.sentences as SentenceRule | undefined) ?? OPTIONS.sentences.default;
}

/** The compiled-slice cache directory the flags ask for; undefined under `--no-cache`. */
export function sliceCacheDirOf(flags: { cache?: boolean | string; cacheDir?: string }): string | undefined {
  if (flags.cache === false) return undefined;
  return flags.cacheDir === undefined ? defaultCacheDir() : resolve(flags.cacheDir);
}

/** Warns on stderr about slice records left out (commands that write no report). */
export function warnRejectedSliceRecords(slice: DocumentSlice): void {
  for (const warning of sliceRejectionWarnings(slice)) process.stderr.write(`warning: ${warning}\n`);
}
