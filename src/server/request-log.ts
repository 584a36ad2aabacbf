// `mari serve --log`: one JSONL line per scored item, written before the item is answered. A
// scoring thread builds each line around its run key (`logLineParts`); the main thread gives the
// run keys and appends the lines in the order the requests' bodies arrived (`RequestLog`), so the
// file is the same whichever thread finished first, and the same as with no scoring threads.
import { createWriteStream, type WriteStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { once } from "node:events";
import { readLines } from "../io/lines.js";
import { RequestError } from "./body.js";
import { LogRunKeys } from "./log-run-keys.js";
import { predictionOf, type ScoredItem } from "./score-items.js";

/** A request's log lines, each cut around its run key: `heads[i] + JSON(run key) + tails[i]`. */
export interface ItemLogParts {
  caseIds: string[];
  /** The item's own `run` and `sample` (null when absent), from which its run key is numbered. */
  runs: (string | null)[];
  samples: (string | null)[];
  heads: string[];
  tails: string[];
}

/**
 * A log line, with the prediction when asked. A value nested too deeply to serialise (a hostile
 * item) is left out and flagged; a bad run value is kept a non-string, so `mari eval` still rejects it.
 */
function logLine(line: Record<string, unknown>, prediction: Record<string, unknown> | undefined): string {
  try {
    return JSON.stringify(prediction === undefined ? line : { ...line, ...prediction });
  } catch {
    const run = typeof line.run === "string" ? line.run : { not_logged: true };
    return JSON.stringify({ ...line, run, not_logged: "a value nested too deeply to serialise" });
  }
}

/** The log lines of a scored request, cut where the run key goes (it is the line's fourth field). */
export function logLineParts(requestId: string, scored: readonly ScoredItem[], withPredictions: boolean): ItemLogParts {
  const parts: ItemLogParts = { caseIds: [], runs: [], samples: [], heads: [], tails: [] };
  for (let i = 0; i < scored.length; i++) {
    const s = scored[i]!;
    const r = s.resolved;
    const line: Record<string, unknown> = { request: requestId, item: i, case_id: s.caseId, run: "" };
    if (r.sample !== null && r.record.sample !== undefined && r.record.sample !== null) line.sample = r.sample;
    // A trainer's own step number, when its items carry one (the TRL example sends global_step).
    const step = r.record.step;
    if (typeof step === "number" || typeof step === "string") line.step = step;
    if (r.identity !== undefined) Object.assign(line, r.identity);
    if (r.caseRule !== "case_id") line.case_from = r.caseRule;
    if (r.responseRule !== undefined && r.responseRule !== "prompt_prefix") line.response_from = r.responseRule;
    if (r.thinkFromPrompt) line.think_from_prompt = true;
    const text = logLine({ ...line, ...s.rewards }, withPredictions ? predictionOf(r) : undefined);
    const head = `{"request":${JSON.stringify(requestId)},"item":${i},"case_id":${JSON.stringify(s.caseId)},"run":`;
    if (!text.startsWith(`${head}""`)) throw new Error("a log line does not start with its request, item, case and run");
    parts.caseIds.push(s.caseId);
    parts.runs.push(r.run);
    parts.samples.push(r.sample);
    parts.heads.push(head);
    parts.tails.push(text.slice(head.length + 2));
  }
  return parts;
}

/**
 * Reads a --log that already exists: notes each line's (case, run) as taken and says whether its
 * last line is torn (no final newline). A missing or empty file is "clean".
 */
async function readPreviousLog(path: string, runKeys: LogRunKeys): Promise<"clean" | "torn"> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return "clean";
    size = info.size;
  } catch {
    return "clean";
  }
  if (size === 0) return "clean";
  for await (const line of readLines(path)) {
    if (line.text === null || !line.text.startsWith("{")) continue;
    try {
      const record = JSON.parse(line.text) as Record<string, unknown>;
      if (typeof record.case_id === "string" && typeof record.run === "string") runKeys.take(record.case_id, record.run);
    } catch {
      // A torn or foreign line: mari eval reports it; it takes no run key.
    }
  }
  const handle = await open(path, "r");
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a ? "clean" : "torn";
  } finally {
    await handle.close();
  }
}

/** A request's place in the log's order: `turn` resolves when every earlier place is released. */
export interface LogPlace {
  turn: Promise<void>;
  release(): void;
}

export class RequestLog {
  private readonly runKeys = new LogRunKeys();
  // A log that cannot be written (disk full, say): nothing more is scored, rather than scored unlogged.
  private failure: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  private stream: WriteStream | undefined;

  private constructor(private readonly path: string) {}

  /**
   * Opens a log to append to: the run keys already in it are taken, and a torn last line (a killed
   * server) is left on a line of its own, where `mari eval` counts it as malformed.
   */
  static async open(path: string): Promise<RequestLog> {
    const log = new RequestLog(path);
    const tail = await readPreviousLog(path, log.runKeys);
    const stream = createWriteStream(path, { flags: "a" });
    await once(stream, "open");
    stream.on("error", (err: NodeJS.ErrnoException) => {
      log.failure = `cannot write --log ${path} (${err.code ?? err.message})`;
    });
    if (tail === "torn") stream.write("\n");
    log.stream = stream;
    return log;
  }

  /** Why the log could not be written, or undefined. */
  get error(): string | undefined {
    return this.failure;
  }

  /** The next place in the order (taken when a request's body has been read). Release it in any case. */
  place(): LogPlace {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = this.queue;
    this.queue = turn.then(() => released);
    return { turn, release };
  }

  /**
   * Appends a request's lines (call it in the request's turn: the run keys are given here, and the
   * text is handed to the file before it returns); resolves once they are written.
   */
  async write(parts: ItemLogParts): Promise<void> {
    if (this.failure) throw new RequestError(503, "log_unwritable", this.failure);
    let text = "";
    for (let i = 0; i < parts.heads.length; i++) {
      const run = this.runKeys.next(parts.caseIds[i]!, parts.runs[i] ?? null, parts.samples[i] ?? null);
      text += `${parts.heads[i]!}${JSON.stringify(run)}${parts.tails[i]!}\n`;
    }
    const stream = this.stream!;
    const failed = await new Promise<Error | null | undefined>((resolve) => stream.write(text, resolve));
    if (failed) {
      this.failure ??= `cannot write --log ${this.path} (${(failed as NodeJS.ErrnoException).code ?? failed.message})`;
      throw new RequestError(503, "log_unwritable", this.failure);
    }
  }

  /** Ends the file (unless it failed). */
  async close(): Promise<void> {
    const stream = this.stream;
    if (!stream || this.failure) return;
    stream.end();
    await Promise.race([once(stream, "finish"), once(stream, "error")]);
  }
}
