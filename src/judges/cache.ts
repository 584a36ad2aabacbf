// The per-case answer cache of a model judge: JSONL, one line per (case, run) appended as soon as
// the answer arrives, so a killed run resumes where it stopped. Lines are in the dump reader's
// cache shape `{case_id, run, prediction}` plus the lookup `key`. The key is a hash of everything
// that determines the answer (judge version, endpoint, model, sampling, prompt, run index) and
// never of the API key; a changed prompt or model therefore misses instead of serving stale text.
import { createHash } from "node:crypto";
import { open, stat, type FileHandle } from "node:fs/promises";
import { InputError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import { isJsonObject, parseJsonLine } from "../io/records.js";
import type { PredictionBody } from "./types.js";

export interface CacheKeyParts {
  judgeVersion: string;
  baseUrl: string;
  model: string;
  /** null when not sent (the server's default). */
  temperature: number | null;
  /** The completion-token limit, null when not sent. */
  maxTokens: number | null;
  /** SHA-256 of the --prompt template, null for the built-in prompt. */
  promptSha256: string | null;
  messages: unknown;
  run: number;
}

export function cacheKey(parts: CacheKeyParts): string {
  const material = JSON.stringify([
    parts.judgeVersion,
    parts.baseUrl,
    parts.model,
    parts.temperature,
    parts.maxTokens,
    parts.promptSha256,
    parts.messages,
    parts.run,
  ]);
  return createHash("sha256").update(material).digest("hex");
}

export interface CacheEntry {
  key: string;
  case_id: string;
  run: number;
  prediction: PredictionBody;
}

export interface LoadedCache {
  entries: Map<string, PredictionBody>;
  /** Lines that could not be used (e.g. the torn last line of a killed run), by line number. */
  skippedLines: number[];
}

function isPredictionBody(value: unknown): value is PredictionBody {
  return isJsonObject(value) && Object.hasOwn(value, "judgment");
}

/** Reads a cache file; a missing file is an empty cache. The first line for a key wins. */
export async function loadCache(path: string): Promise<LoadedCache> {
  const entries = new Map<string, PredictionBody>();
  const skippedLines: number[] = [];
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    return { entries, skippedLines };
  }
  if (!isFile) throw new InputError(`--cache ${path}: not a file`);
  for await (const line of readLines(path)) {
    const parsed = parseJsonLine(line.text);
    if ("error" in parsed) {
      if (parsed.error.code !== "blank_line") skippedLines.push(line.lineNo);
      continue;
    }
    const { key, prediction } = parsed.record;
    if (typeof key !== "string" || !isPredictionBody(prediction)) {
      skippedLines.push(line.lineNo);
      continue;
    }
    if (!entries.has(key)) entries.set(key, prediction);
  }
  return { entries, skippedLines };
}

/** Appends cache lines one write at a time (each line reaches the kernel before the next request). */
export class CacheAppender {
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  static async open(path: string): Promise<CacheAppender> {
    let handle: FileHandle;
    try {
      handle = await open(path, "a+");
    } catch (err) {
      throw new InputError(`--cache ${path}: cannot open for appending (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    // A run killed mid-write can leave a torn last line: start ours on a fresh line.
    const { size } = await handle.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await handle.appendFile("\n");
    }
    return new CacheAppender(handle, path);
  }

  append(entry: CacheEntry): Promise<void> {
    const text = `${JSON.stringify(entry)}\n`;
    // A failed append (a full disk) is an unwritable output, exit 2; the lines already written stay
    // readable (a torn last line is skipped on the next load).
    this.chain = this.chain.then(() =>
      this.handle.appendFile(text).catch((err: NodeJS.ErrnoException) => {
        throw new InputError(`--cache ${this.path}: cannot write (${err.code ?? err.message}); the lines written before stay usable`);
      }),
    );
    return this.chain;
  }

  async close(): Promise<void> {
    try {
      await this.chain;
    } finally {
      await this.handle.close();
    }
  }
}
