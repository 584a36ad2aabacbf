// The per-case files of `mari evidence` (cases.jsonl, located.jsonl): each line is encoded straight
// into a large byte block (one write per block, no string concatenation), and the byte offset of
// every line is kept, so that the case explorer reads back only the lines it shows.
import { open } from "node:fs/promises";
import type { AtomicLineWriter } from "../../io/atomic-write.js";
import type { JsonObject } from "../../io/records.js";

/** Bytes per write. */
const BLOCK_BYTES = 1 << 20;

export class LineBlocks {
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  private written = 0;
  /** Byte offset of the start of each line pushed so far. */
  readonly starts: number[] = [];

  constructor(readonly writer: AtomicLineWriter) {}

  /** Adds one line (without its "\n"); returns a promise only when a full block is being written. */
  push(line: string): Promise<void> | undefined {
    // At most 3 UTF-8 bytes per UTF-16 unit, and the newline.
    const room = line.length * 3 + 1;
    let flushing: Promise<void> | undefined;
    if (this.used + room > this.block.length) flushing = this.flush(room);
    this.starts.push(this.written + this.used);
    this.used += this.block.write(line, this.used);
    this.block[this.used++] = 0x0a;
    return flushing;
  }

  /** Hands the filled part of the block to the writer; the next lines go into a new block. */
  flush(room = 0): Promise<void> {
    const chunk = this.block.subarray(0, this.used);
    this.written += this.used;
    // The stream keeps the chunk until it is written, so it is never reused.
    this.block = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, room));
    this.used = 0;
    return chunk.length > 0 ? this.writer.write(chunk) : Promise.resolve();
  }

  /** Byte length of everything pushed. */
  get bytes(): number {
    return this.written + this.used;
  }
}

/** JSON.parse of the lines at `positions` (ascending) of a file whose line starts are `starts`. */
export async function* linesAt(path: string, starts: readonly number[], end: number, positions: Iterable<number>): AsyncGenerator<JsonObject> {
  const file = await open(path, "r");
  try {
    for (const i of positions) {
      const from = starts[i]!;
      const to = i + 1 < starts.length ? starts[i + 1]! : end;
      const bytes = Buffer.allocUnsafe(to - from);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await file.read(bytes, read, bytes.length - read, from + read);
        if (bytesRead === 0) throw new Error(`${path}: shorter than written`);
        read += bytesRead;
      }
      yield JSON.parse(bytes.toString("utf8")) as JsonObject;
    }
  } finally {
    await file.close();
  }
}
