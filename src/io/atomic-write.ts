// Reports are written to a temp file beside the target and renamed into place, so a reader (or a
// CI job that is killed half-way) never sees a truncated report.
import { releaseTemp, removeStaleTemps, trackTemp } from "./temp-files.js";
import { outputKind, refusePseudoFileSystem } from "./output-guard.js";
import { type FileHandle, mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { dirname, basename, join } from "node:path";
import { InputError } from "./errors.js";

function tempPathFor(target: string): string {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  trackTemp(temp);
  return temp;
}

/** File-system refusals that are the user's to fix (an output path that is a file or a directory, no permission, a full disk). */
const UNWRITABLE = new Set(["EACCES", "EPERM", "ENOTDIR", "EISDIR", "EROFS", "ENOSPC", "EEXIST", "ENOENT", "EDQUOT"]);

/** An output that cannot be written is an input error naming it (exit 2), not an internal one. */
function writeError(target: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (err instanceof InputError || code === undefined || !UNWRITABLE.has(code)) return err;
  return new InputError(`${target}: cannot write (${(err as Error).message})`);
}

async function makeParent(target: string): Promise<void> {
  refusePseudoFileSystem(target);
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch (err) {
    throw writeError(target, err);
  }
  removeStaleTemps(dirname(target));
}

/** Writes `data` (or its chunks, one after another: no copy of them joined) to `target` atomically. */
export async function writeFileAtomic(target: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  await makeParent(target);
  if ((await outputKind(target)) === "stream") {
    try {
      await writeFile(target, data);
    } catch (err) {
      throw writeError(target, err);
    }
    return;
  }
  const temp = tempPathFor(target);
  try {
    await writeFile(temp, data);
    await outputKind(target);
    await rename(temp, target);
    releaseTemp(temp);
  } catch (err) {
    await rm(temp, { force: true });
    releaseTemp(temp);
    throw writeError(target, err);
  }
}

/**
 * Bytes a writer gathers before writing them out, and above which `write` waits for them to be
 * written (a write stream's default high-water mark).
 */
const GATHER_BYTES = 16 * 1024;

/**
 * A streamed file that only appears under its final name after `commit()`. Written through a file
 * handle, not a write stream: the first use of Node's stream code cost an eval about 1.5 ms of CPU.
 */
export class AtomicLineWriter {
  private readonly temp: string;
  /** Opened at once, as a write stream opens its file; a failure to open is the first write's or the end's. */
  private readonly file: Promise<FileHandle>;
  private gathered: Uint8Array[] = [];
  private gatheredBytes = 0;
  /** The writes of the gathered bytes, one after another, in the order they were handed over. */
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;
  private ended = false;

  private constructor(
    readonly target: string,
    temp: string,
    /** A device or FIFO: written in place, never renamed over. */
    private readonly direct = false,
  ) {
    this.temp = temp;
    this.file = open(temp, "w");
    this.file.catch((err: unknown) => {
      this.failure ??= err;
    });
  }

  static async open(target: string): Promise<AtomicLineWriter> {
    await makeParent(target);
    return (await outputKind(target)) === "stream" ? new AtomicLineWriter(target, target, true) : new AtomicLineWriter(target, tempPathFor(target));
  }

  /**
   * Writes text; resolves once the writer can take more (back-pressure keeps memory bounded). The
   * bytes are kept, not copied, until written: a caller hands over a buffer it no longer changes.
   */
  async write(text: string | Uint8Array): Promise<void> {
    if (this.failure) throw writeError(this.target, this.failure);
    const bytes = typeof text === "string" ? Buffer.from(text) : text;
    this.gathered.push(bytes);
    this.gatheredBytes += bytes.length;
    if (this.gatheredBytes < GATHER_BYTES) return;
    try {
      await this.writeGathered();
    } catch (err) {
      throw writeError(this.target, err);
    }
  }

  /** Writes out what was gathered, after the writes before it; the promise of all the writes so far. */
  private writeGathered(): Promise<void> {
    if (this.gatheredBytes > 0) {
      const bytes = this.gathered.length === 1 ? this.gathered[0]! : Buffer.concat(this.gathered, this.gatheredBytes);
      this.gathered = [];
      this.gatheredBytes = 0;
      this.writing = this.writing.then(async () => {
        const file = await this.file;
        // A write may take fewer bytes than it was given (a pipe, a full disk); the rest follow.
        for (let at = 0; at < bytes.length; ) at += (await file.write(bytes, at, bytes.length - at)).bytesWritten;
      });
      this.writing.catch((err: unknown) => {
        this.failure ??= err;
      });
    }
    return this.writing;
  }

  /** Writes out what was gathered and closes the file, whether or not the writes failed (once). */
  private async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const written = this.writeGathered();
    const closed = written.then(
      () => this.file.then((file) => file.close()),
      () => this.file.then((file) => file.close()).catch(() => {}),
    );
    await Promise.all([written, closed]);
  }

  /**
   * Ends the writing and returns where the text can be read until `commit()` (which then only
   * renames) or `abort()`: a run that may still fail reads its own output without publishing it.
   */
  async finish(): Promise<string> {
    try {
      await this.end();
      if (this.failure) throw this.failure;
    } catch (err) {
      await this.abort();
      throw writeError(this.target, err);
    }
    return this.temp;
  }

  async commit(): Promise<void> {
    try {
      await this.end();
      if (this.failure) throw this.failure;
      if (this.direct) return;
      await outputKind(this.target); // an input opened since `open` is still refused
      await rename(this.temp, this.target);
      releaseTemp(this.temp);
    } catch (err) {
      if (!this.direct) await rm(this.temp, { force: true });
      releaseTemp(this.temp);
      throw writeError(this.target, err);
    }
  }

  async abort(): Promise<void> {
    // What was gathered is dropped; a write under way ends before the file is closed.
    this.gathered = [];
    this.gatheredBytes = 0;
    await this.end().catch(() => {});
    if (!this.direct) await rm(this.temp, { force: true });
    releaseTemp(this.temp);
  }
}
