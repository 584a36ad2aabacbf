// Reports are written to a temp file beside the target and renamed into place, so a reader (or a
// CI job that is killed half-way) never sees a truncated report.
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, basename, join } from "node:path";

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
}

export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = tempPathFor(target);
  try {
    await writeFile(temp, data);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** A streamed file that only appears under its final name after `commit()`. */
export class AtomicLineWriter {
  private readonly stream: WriteStream;
  private readonly temp: string;
  private failure: Error | undefined;

  private constructor(
    readonly target: string,
    temp: string,
  ) {
    this.temp = temp;
    this.stream = createWriteStream(temp);
    this.stream.on("error", (err) => {
      this.failure = err;
    });
  }

  static async open(target: string): Promise<AtomicLineWriter> {
    await mkdir(dirname(target), { recursive: true });
    return new AtomicLineWriter(target, tempPathFor(target));
  }

  /** Writes text; resolves once the stream can take more (back-pressure keeps memory bounded). */
  async write(text: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(text)) {
      await new Promise<void>((resolve) => this.stream.once("drain", resolve));
    }
  }

  async commit(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
    if (this.failure) throw this.failure;
    await rename(this.temp, this.target);
  }

  async abort(): Promise<void> {
    this.stream.destroy();
    await rm(this.temp, { force: true });
  }
}
