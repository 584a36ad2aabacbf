// Reports are written to a temp file beside the target and renamed into place, so a reader (or a
// CI job that is killed half-way) never sees a truncated report.
import { releaseTemp, removeStaleTemps, trackTemp } from "./temp-files.js";
import { outputKind, refusePseudoFileSystem } from "./output-guard.js";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
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

export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
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

/** A streamed file that only appears under its final name after `commit()`. */
export class AtomicLineWriter {
  private readonly stream: WriteStream;
  private readonly temp: string;
  private failure: Error | undefined;
  private ended = false;

  private constructor(
    readonly target: string,
    temp: string,
    /** A device or FIFO: written in place, never renamed over. */
    private readonly direct = false,
  ) {
    this.temp = temp;
    this.stream = createWriteStream(temp);
    this.stream.on("error", (err) => {
      this.failure = err;
    });
  }

  static async open(target: string): Promise<AtomicLineWriter> {
    await makeParent(target);
    return (await outputKind(target)) === "stream" ? new AtomicLineWriter(target, target, true) : new AtomicLineWriter(target, tempPathFor(target));
  }

  /** Writes text; resolves once the stream can take more (back-pressure keeps memory bounded). */
  async write(text: string | Uint8Array): Promise<void> {
    if (this.failure) throw writeError(this.target, this.failure);
    if (!this.stream.write(text)) {
      // A stream that fails while full never drains: wait for whichever comes first.
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          this.stream.off("error", onError);
          resolve();
        };
        const onError = (err: Error) => {
          this.stream.off("drain", onDrain);
          reject(writeError(this.target, err));
        };
        this.stream.once("drain", onDrain);
        this.stream.once("error", onError);
      });
    }
  }

  private async end(): Promise<void> {
    if (this.ended) return;
    await new Promise<void>((resolve, reject) => {
      this.stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
    this.ended = true;
  }

  /**
   * Ends the stream and returns where the text can be read until `commit()` (which then only
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
    this.stream.destroy();
    if (!this.direct) await rm(this.temp, { force: true });
    releaseTemp(this.temp);
  }
}
