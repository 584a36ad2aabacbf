// The per-case files of `mari evidence` (cases.jsonl, located.jsonl): each line is encoded straight
// into a large byte block (one write per block, no string concatenation), and the byte offset of
// every line is kept, so that the case explorer reads back only the lines it shows.
import { open } from "node:fs/promises";
import type { AtomicLineWriter } from "../../io/atomic-write.js";
import type { JsonObject } from "../../io/records.js";
import { isWellFormed } from "../../core/python/text.js";

/** Characters JSON.stringify escapes in a string, lone surrogates aside. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Bytes per write. */
const BLOCK_BYTES = 1 << 20;

/** What a LineBlocks hands its filled blocks to (an AtomicLineWriter in a run). */
export type BlockSink = Pick<AtomicLineWriter, "write">;

export class LineBlocks {
  private block: Buffer;
  private used = 0;
  private written = 0;
  /** Where, in the block, the line being written piece by piece began. */
  private lineStart = 0;
  /** The write of a block handed over while a line was being written (awaited by `end`). */
  private flushing: Promise<void> | undefined;
  /** Byte offset of the start of each line pushed so far. */
  readonly starts: number[] = [];

  constructor(
    readonly writer: BlockSink,
    private readonly blockBytes = BLOCK_BYTES,
  ) {
    this.block = Buffer.allocUnsafe(blockBytes);
  }

  /** Adds one line (without its "\n"); returns a promise only when a full block is being written. */
  push(line: string): Promise<void> | undefined {
    this.begin();
    // At most 3 UTF-8 bytes per UTF-16 unit.
    this.room(line.length * 3);
    this.used += this.block.write(line, this.used);
    return this.end();
  }

  // A line can also be written piece by piece, straight into the block (no string of the whole
  // line is built): begin(), the pieces, end().

  begin(): void {
    this.lineStart = this.used;
    this.starts.push(this.written + this.used);
  }

  /** Ends the line with "\n"; returns a promise only when a full block is being written. */
  end(): Promise<void> | undefined {
    this.room(1);
    this.block[this.used++] = 0x0a;
    const flushing = this.flushing;
    this.flushing = undefined;
    return flushing;
  }

  /** A string of ASCII characters, as is. */
  ascii(text: string): void {
    this.room(text.length);
    const block = this.block;
    let at = this.used;
    for (let i = 0; i < text.length; i++) block[at++] = text.charCodeAt(i);
    this.used = at;
  }

  /** A string as JSON.stringify writes it. */
  jsonString(text: string): void {
    this.room(text.length + 2);
    const block = this.block;
    let at = this.used;
    block[at++] = 0x22;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // Printable ASCII other than '"' and "\\" is written as is; anything else below.
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.otherString(text);
        return;
      }
      block[at++] = c;
    }
    block[at++] = 0x22;
    this.used = at;
  }

  /** jsonString of a text with a character beyond printable ASCII. */
  private otherString(text: string): void {
    // Without anything to escape (a control character, '"', "\\" or a lone surrogate) the
    // text's UTF-8 goes between the quotes as it is.
    if (NEEDS_ESCAPE.test(text) || !isWellFormed(text)) {
      this.json(text);
      return;
    }
    this.room(text.length * 3 + 2);
    this.block[this.used++] = 0x22;
    this.used += this.block.write(text, this.used);
    this.block[this.used++] = 0x22;
  }

  /** Any value as JSON.stringify writes it. */
  json(value: unknown): void {
    const text = JSON.stringify(value);
    this.room(text.length * 3);
    this.used += this.block.write(text, this.used);
  }

  /** Bytes as they are (e.g. a piece encoded once and written many times). */
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    // A typed-array copy costs more to set up than a short loop.
    if (bytes.length > 256) this.block.set(bytes, this.used);
    else for (let i = 0; i < bytes.length; i++) this.block[this.used + i] = bytes[i]!;
    this.used += bytes.length;
  }

  /** Makes room for `n` more bytes of the current line: the block's complete lines go to the writer. */
  private room(n: number): void {
    if (this.used + n <= this.block.length) return;
    const partial = this.block.subarray(this.lineStart, this.used);
    const done = this.block.subarray(0, this.lineStart);
    this.written += done.length;
    // The stream keeps the chunk until it is written, so it is never reused.
    this.block = Buffer.allocUnsafe(Math.max(this.blockBytes, partial.length + n));
    this.block.set(partial, 0);
    this.used = partial.length;
    this.lineStart = 0;
    if (done.length > 0) {
      const write = this.writer.write(done);
      this.flushing = this.flushing === undefined ? write : Promise.all([this.flushing, write]).then(() => undefined);
    }
  }

  /** Hands the filled part of the block to the writer (at the end, between lines). */
  flush(): Promise<void> {
    const chunk = this.block.subarray(0, this.used);
    this.written += this.used;
    this.block = Buffer.allocUnsafe(this.blockBytes);
    this.used = 0;
    this.lineStart = 0;
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
