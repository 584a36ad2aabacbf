// The verdict lines of `mari classify` on their way to a stream: one bounded buffer, one write in
// flight, so memory stays flat however long the input and however slow the reader.

/**
 * Output is gathered into a buffer of this many bytes, written once half full. Small for the reason
 * the input is read in small chunks (classify.ts, READ_CHUNK_BYTES): what a write and the wait for it
 * leave behind lives until the next write, and must die young.
 */
const CHUNK_BYTES = 1 << 14;

/**
 * Batched writes with back-pressure (one write per line costs more than classifying it), encoded
 * straight into a byte buffer so that no string of many lines is built. A closed pipe (EPIPE:
 * `mari classify … | head`) ends the output quietly; any other stream error fails the next flush.
 */
export class VerdictOutput {
  private buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private closed = false;
  private failure: Error | undefined;
  private readonly onError = (err: NodeJS.ErrnoException): void => {
    if (err.code === "EPIPE") this.closed = true;
    else this.failure ??= err;
  };

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on("error", this.onError);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isFull(): boolean {
    return this.used >= CHUNK_BYTES / 2;
  }

  /** Adds a line; the caller flushes once `isFull`. */
  push(line: string): void {
    if (this.used + 3 * line.length > this.buffer.length) {
      // Only a line longer than half the buffer gets here with the buffer half empty: grow it.
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + 3 * line.length));
      this.buffer.copy(bigger, 0, 0, this.used);
      this.buffer = bigger;
    }
    this.used += this.buffer.write(line, this.used, "utf8");
  }

  /**
   * Writes the buffered lines and waits until the stream is done with them (one write in flight,
   * so one buffer is reused). Waiting on the write's callback also lets the event loop turn, which
   * a file read synchronously would otherwise never do: callbacks and errors (EPIPE) are seen.
   */
  async flush(): Promise<void> {
    this.throwFailure();
    if (this.used === 0 || this.closed) return;
    const chunk = this.buffer.subarray(0, this.used);
    await new Promise<void>((resolve) => {
      this.stream.write(chunk, () => resolve());
    });
    this.used = 0;
    this.throwFailure();
  }

  /** Stops listening to the stream (after the last flush). */
  release(): void {
    this.stream.removeListener("error", this.onError);
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
