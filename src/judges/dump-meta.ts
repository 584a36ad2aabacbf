// DUMP.meta.json: what `mari predict --out DUMP` records beside the dump about the run that wrote
// it (judge, model, sampling, prompt hash, token usage; never the API key). `mari eval` copies it
// into report.json `system.judge_run` when it finds it next to --predictions.
import { lstat, readFile, rm } from "node:fs/promises";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { isJsonObject } from "../io/records.js";
import type { TokenUsage } from "./chat-request.js";

export interface DumpMeta {
  judge: "openai";
  judge_version: string;
  /** "live": chat requests; "batch": read from a batch output file (--batch-results). */
  source: "live" | "batch";
  base_url: string | null;
  model: string | null;
  /** null: not sent (the server's default). */
  temperature: number | null;
  /** The completion-token limit; null: not sent. */
  max_tokens: number | null;
  /** The request field the limit went in (`max_completion_tokens` or `max_tokens`); null: not sent or unknown. */
  max_tokens_field: string | null;
  runs: number;
  cases: number;
  /** SHA-256 of the --prompt template; null for the built-in prompt. */
  prompt_sha256: string | null;
  usage: { prompt_tokens: number; completion_tokens: number };
  /** The prompts' sentence numbering when not mari's (`--sentences punkt`); absent = mari. */
  sentences?: "punkt";
  /** source "batch": what became of the output file's lines (orphans and duplicates are not in the dump). */
  batch?: { predictions: number; missing: number; failed: number; malformed: number; orphans: number; duplicates: number };
}

export function metaPathFor(dumpPath: string): string {
  return `${dumpPath}.meta.json`;
}

export function usageJson(usage: TokenUsage): DumpMeta["usage"] {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens };
}

/** Writes DUMP.meta.json atomically; nothing for a dump on stdout. */
export async function writeDumpMeta(dumpPath: string | undefined, meta: DumpMeta): Promise<void> {
  if (dumpPath === undefined || dumpPath === "-") return;
  try {
    await writeFileAtomic(metaPathFor(dumpPath), `${JSON.stringify(meta, null, 2)}\n`);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${err.message}; the dump ${dumpPath} is complete, without its meta.json`);
    throw err;
  }
}

/** Removes DUMP.meta.json when it is a regular file (a device or FIFO there is the user's and stays). */
export async function removeDumpMeta(dumpPath: string): Promise<void> {
  const path = metaPathFor(dumpPath);
  const stats = await lstat(path).catch(() => null);
  if (stats?.isFile()) {
    try {
      await rm(path, { force: true });
    } catch (err) {
      throw new InputError(`${path}: cannot remove the meta.json of the previous dump (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
}

/**
 * DUMP.meta.json when it exists and holds a JSON object; undefined when there is none. An
 * unreadable one is reported through `warn` and ignored (the dump itself is what gets scored).
 */
export async function readDumpMeta(dumpPath: string, warn: (message: string) => void): Promise<Record<string, unknown> | undefined> {
  const path = metaPathFor(dumpPath);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isJsonObject(value)) return value;
  } catch {
    // reported below
  }
  warn(`${path}: not a JSON object; ignored`);
  return undefined;
}
