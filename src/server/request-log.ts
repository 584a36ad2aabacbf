// `mari serve --log`: one JSONL line per scored item, written before the item is answered. A
// scoring thread builds each line around its run key (`logLineParts`); the main thread gives the
// run keys and appends the lines in the order the requests' bodies arrived (`RequestLog`), so the
// file is the same whichever thread finished first, and the same as with no scoring threads.
// One server writes a log (`LOG.lock` holds its pid), and the log holds only answered items: a
// request whose lines cannot all be written is refused, and what of them got to the file is cut off.
import { close, fstat, ftruncate, open as openFile, read, rmSync, write } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { InputError } from "../io/errors.js";
import { claimPidFile } from "../io/lock.js";
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
  const fd = await openFd(path, "r");
  try {
    const last = Buffer.alloc(1);
    await readFd(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a ? "clean" : "torn";
  } finally {
    await closeFd(fd);
  }
}

// File descriptors, not a stream: a write says how much of it got to the file.
const openFd = promisify(openFile);
const closeFd = promisify(close);
const statFd = promisify(fstat);
const truncateFd = promisify(ftruncate);
const readFd = promisify(read);

function writeSome(fd: number, bytes: Buffer, at: number): Promise<number> {
  return new Promise((resolve, reject) => write(fd, bytes, at, bytes.length - at, null, (err, written) => (err ? reject(err) : resolve(written))));
}

/** Writes all of `bytes` (a full disk may take part of a write, and refuse the rest). */
async function writeAll(fd: number, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length; ) at += await writeSome(fd, bytes, at);
}

/** The locks of the logs this process writes, removed when it exits. */
const heldLocks = new Set<string>();
let exitHandler = false;

/**
 * Takes `LOG.lock` beside the log (the log's real path: a link to it shares its lock), or throws an
 * InputError naming the server that holds it. A lock whose process is gone (a killed server) is
 * taken over. A log that is not a regular file (`/dev/null`) has none: nothing is kept in it.
 */
async function lockLog(path: string): Promise<string | undefined> {
  let real: string;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    real = await realpath(path);
  } catch {
    real = join(await realpath(dirname(path)), basename(path));
  }
  const lock = `${real}.lock`;
  const holder = claimPidFile(lock, heldLocks.has(lock));
  if (holder !== undefined) {
    throw new InputError(
      `--log ${path}: another mari serve (pid ${holder}) is writing this log (${lock}); stop it, or give this server another --log (a lock whose process is gone is taken over)`,
    );
  }
  heldLocks.add(lock);
  if (!exitHandler) {
    exitHandler = true;
    process.on("exit", () => {
      for (const held of heldLocks) rmSync(held, { force: true });
    });
  }
  return lock;
}

function unlockLog(lock: string | undefined): void {
  if (lock === undefined || !heldLocks.delete(lock)) return;
  rmSync(lock, { force: true });
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
  /** The writes, one after another: each starts when the one before it has ended. */
  private writing: Promise<void> = Promise.resolve();
  private fd: number | undefined;
  /** Where the next request's lines go: the end of the last request whose lines were all written. */
  private size = 0;
  /** A regular file, which can be cut back to `size`. */
  private regular = false;

  private constructor(
    private readonly path: string,
    private readonly lock: string | undefined,
  ) {}

  /**
   * Takes the log's lock and opens it to append to: the run keys already in it are taken, and a torn
   * last line (a killed server) is left on a line of its own, where `mari eval` counts it as malformed.
   */
  static async open(path: string): Promise<RequestLog> {
    const log = new RequestLog(path, await lockLog(path));
    try {
      const tail = await readPreviousLog(path, log.runKeys);
      log.fd = await openFd(path, "a");
      const info = await statFd(log.fd);
      log.regular = info.isFile();
      log.size = info.size;
      if (tail === "torn") await log.append(Buffer.from("\n")).catch(() => {}); // a failure is the log's error, refusing every request
      return log;
    } catch (err) {
      await log.close();
      throw err;
    }
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
   * write is queued behind the earlier ones); resolves once they are all written. When they cannot
   * all be (503), the part that was written is cut off, so that the log never holds an item that
   * was not answered.
   */
  write(parts: ItemLogParts): Promise<void> {
    if (this.failure) return Promise.reject(new RequestError(503, "log_unwritable", this.failure));
    let text = "";
    for (let i = 0; i < parts.heads.length; i++) {
      const run = this.runKeys.next(parts.caseIds[i]!, parts.runs[i] ?? null, parts.samples[i] ?? null);
      text += `${parts.heads[i]!}${JSON.stringify(run)}${parts.tails[i]!}\n`;
    }
    const done = this.writing.then(() => this.append(Buffer.from(text)));
    this.writing = done.catch(() => {});
    return done;
  }

  private async append(bytes: Buffer): Promise<void> {
    if (this.failure) throw new RequestError(503, "log_unwritable", this.failure);
    try {
      await writeAll(this.fd!, bytes);
      this.size += bytes.length;
    } catch (err) {
      this.failure = `cannot write --log ${this.path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
      if (this.regular) {
        try {
          await truncateFd(this.fd!, this.size);
        } catch (cut) {
          this.failure += `; the refused request's lines could not be cut off (${(cut as NodeJS.ErrnoException).code ?? (cut as Error).message})`;
        }
      }
      throw new RequestError(503, "log_unwritable", this.failure);
    }
  }

  /** Closes the file and removes the lock. */
  async close(): Promise<void> {
    await this.writing;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) await closeFd(fd);
    } finally {
      unlockLog(this.lock);
    }
  }
}
