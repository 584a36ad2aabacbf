// `--sentences`, spelt and read the same way by every command that reads a document slice
// (eval, predict, serve, merge); `--cache-dir` and `--no-cache`, where eval, predict and serve keep
// the compiled slice between runs.
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { defaultCacheDir } from "../io/slice-store.js";
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

/** Adds `--cache-dir` and `--no-cache` to a command that reads a document slice. */
export function addSliceCacheOptions(command: Command): Command {
  return command
    .addOption(new Option("--cache-dir <dir>", "where the compiled slice is kept between runs (default $XDG_CACHE_HOME/mari, else ~/.cache/mari)"))
    .addOption(new Option("--no-cache", "read the slice afresh and keep nothing on disk"));
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
