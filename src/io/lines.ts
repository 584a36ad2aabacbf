// Streaming line reader shared by every input: bounded memory (a dump of millions of lines is
// never held whole), exact 1-based line numbers, BOM and CRLF handled, invalid UTF-8 reported
// per line instead of being replaced with U+FFFD behind the user's back.
import { assertRegularFile, inputFileChunks, isUtf16Bom, refuseUtf16, utf16Error } from "./input-file.js";
import { closeSync, openSync, readSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { MAX_LINE_BYTES } from "../core/limits.js";
import { InputError, located } from "./errors.js";
import { LINE_BLOCK_BYTES, LineEnds } from "./line-ends.js";

export { LINE_BLOCK_BYTES };

/** The error for a line that reached MAX_LINE_BYTES without ending. */
export function lineTooLong(name: string, lineNo: number): InputError {
  return new InputError(located(name, lineNo, `a line of ${MAX_LINE_BYTES} bytes or more (the documented limit); the file is not read further`));
}

export type Line =
  | { readonly lineNo: number; readonly text: string; readonly invalidUtf8: false }
  | { readonly lineNo: number; readonly text: null; readonly invalidUtf8: true };

const NEWLINE = 0x0a;

/**
 * Bytes that can only be read once, front to back (stdin, a pipe): `name` stands in for a path in
 * messages. Chunks must be Buffers (no `setEncoding` on the stream).
 */
export interface StreamSource {
  readonly name: string;
  readonly chunks: AsyncIterable<Buffer>;
}

/** What every reader takes: a file path, or a stream read once. */
export type InputSource = string | StreamSource;

/** How messages name stdin, which has no path. */
export const STDIN_NAME = "<stdin>";

/** The command-line convention: `-` reads stdin, anything else is a path. */
export function inputSource(arg: string): InputSource {
  return arg === "-" ? { name: STDIN_NAME, chunks: process.stdin } : arg;
}

export function sourceName(source: InputSource): string {
  return typeof source === "string" ? source : source.name;
}

/** The source's bytes in chunks of any size. */
export function sourceChunks(source: InputSource, chunkBytes = LINE_BLOCK_BYTES): AsyncIterable<Buffer> {
  return typeof source === "string" ? inputFileChunks(source, chunkBytes) : refuseUtf16(source.name, source.chunks);
}

/** A line's text as readers see it: without a final "\r", and without the BOM on line 1. */
export function lineText(text: string, lineNo: number): string {
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

/** Splits a block of complete lines (ending in "\n", except perhaps the file's last). */
export function splitBlock(block: Buffer, firstLineNo: number, out: Line[]): number {
  let lineNo = firstLineNo;
  const push = (text: string) => {
    out.push({ lineNo, text: lineText(text, lineNo), invalidUtf8: false });
    lineNo++;
  };
  const endsWithNewline = block.length > 0 && block[block.length - 1] === NEWLINE;
  if (isUtf8(block)) {
    // Fast path: one decode for the whole block.
    const pieces = block.toString("utf8").split("\n");
    if (endsWithNewline) pieces.pop();
    for (const piece of pieces) push(piece);
    return lineNo;
  }
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(NEWLINE, start);
    if (end === -1) end = block.length;
    const bytes = block.subarray(start, end);
    if (isUtf8(bytes)) push(bytes.toString("utf8"));
    else out.push({ lineNo: lineNo++, text: null, invalidUtf8: true });
    start = end + 1;
  }
  return lineNo;
}

/**
 * The lines of a block as `splitBlock` gives them, one at a time, each decoded when it is reached:
 * a reader that stops at the first lines (a dump's shape check) decodes no more of the block.
 */
export function* blockLines(block: Buffer, firstLineNo: number): Generator<Line> {
  const valid = isUtf8(block);
  let lineNo = firstLineNo;
  let start = 0;
  // `do`: an empty block is one empty line, as splitBlock has it.
  do {
    let end = block.indexOf(NEWLINE, start);
    if (end === -1) end = block.length;
    if (valid || isUtf8(block.subarray(start, end))) yield { lineNo, text: lineText(block.toString("utf8", start, end), lineNo), invalidUtf8: false };
    else yield { lineNo, text: null, invalidUtf8: true };
    lineNo++;
    start = end + 1;
  } while (start < block.length);
}

/**
 * Calls `visit` for each line of a block as `splitBlock` splits it, decoding one line at a time (no
 * array of lines, no block-sized string), with the byte offset of the line's start in the block.
 * A line `takeBytes` takes (true: read from its bytes `start`..`end`, newline excluded) is neither
 * decoded nor visited. Returns the number of the line after the block's last.
 */
export function forEachLine(
  block: Buffer,
  firstLineNo: number,
  visit: (lineNo: number, text: string | null, start: number) => void,
  takeBytes?: (lineNo: number, start: number, end: number) => boolean,
): number {
  const valid = isUtf8(block);
  let lineNo = firstLineNo;
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(NEWLINE, start);
    if (end === -1) end = block.length;
    if (takeBytes === undefined || !takeBytes(lineNo, start, end)) {
      if (valid || isUtf8(block.subarray(start, end))) visit(lineNo, lineText(block.toString("utf8", start, end), lineNo), start);
      else visit(lineNo, null, start);
    }
    lineNo++;
    start = end + 1;
  }
  return lineNo;
}

/**
 * Yields the source as raw blocks of whole lines with the line number of each block's first line,
 * for the caller to split (`splitBlock`, `forEachLine`). A block is valid until the next one is asked
 * for: a file is read through one reused buffer (`fileLineBlocks`), so a caller that keeps a block
 * copies it.
 */
export async function* readLineBlocks(source: InputSource): AsyncGenerator<{ firstLineNo: number; block: Buffer }> {
  if (typeof source === "string") {
    yield* readFileLineBlocks(source);
    return;
  }
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let nextLineNo = 1;
  const ends = new LineEnds();
  for await (const chunk of sourceChunks(source)) {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= MAX_LINE_BYTES) throw lineTooLong(sourceName(source), nextLineNo);
      continue;
    }
    const head = chunk.subarray(0, lastNewline + 1);
    const block = pending.length === 0 ? head : Buffer.concat([...pending, head]);
    pending = lastNewline + 1 < chunk.length ? [chunk.subarray(lastNewline + 1)] : [];
    pendingBytes = chunk.length - lastNewline - 1;
    // Counted before the block is given to the caller, which may keep it.
    const lines = ends.of(block).length;
    yield { firstLineNo: nextLineNo, block };
    nextLineNo += lines;
  }
  if (pending.length > 0) yield { firstLineNo: nextLineNo, block: Buffer.concat(pending) };
}

/**
 * A file's blocks of whole lines, read synchronously into one buffer that is reused: each block is a
 * view of it, valid until the next one is asked for (nothing is allocated per chunk, so a long
 * run leaves no trail of chunk buffers for the garbage collector), with the ends of its lines
 * (`LineEnds`, as long-lived as the block). The caller checks the path with `assertRegularFile`
 * first. A line longer than the buffer grows it.
 */
export function* fileLineBlocks(path: string, chunkBytes: number): Generator<{ firstLineNo: number; block: Buffer; lineEnds: Int32Array }> {
  const fd = openSync(path, "r");
  const ends = new LineEnds();
  try {
    let buffer = Buffer.allocUnsafe(chunkBytes);
    let held = 0; // bytes of an unfinished line kept at the start of the buffer
    let position = 0;
    let nextLineNo = 1;
    for (;;) {
      if (held === buffer.length) {
        if (held >= MAX_LINE_BYTES) throw lineTooLong(path, nextLineNo);
        const bigger = Buffer.allocUnsafe(2 * buffer.length);
        buffer.copy(bigger, 0, 0, held);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, held, buffer.length - held, position);
      if (position === 0 && read > 0 && isUtf16Bom(buffer.subarray(0, read))) throw utf16Error(path);
      position += read;
      const end = held + read;
      if (read === 0) {
        if (end === 0) return;
        const last = buffer.subarray(0, end);
        yield { firstLineNo: nextLineNo, block: last, lineEnds: ends.of(last) };
        return;
      }
      const lastNewline = buffer.lastIndexOf(NEWLINE, end - 1);
      if (lastNewline < held) {
        held = end;
        continue;
      }
      const block = buffer.subarray(0, lastNewline + 1);
      const lineEnds = ends.of(block);
      yield { firstLineNo: nextLineNo, block, lineEnds };
      nextLineNo += lineEnds.length;
      buffer.copy(buffer, 0, lastNewline + 1, end);
      held = end - lastNewline - 1;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's blocks of whole lines as `fileLineBlocks` reads them (one reused buffer: a block is
 * valid until the next is asked for), after the regular-file rule, with a turn of the event loop
 * after each block. A read that never waits gives the event loop no turn: Ctrl-C, a progress
 * display, timers and worker threads' messages get one after each block, as a stream read gave.
 */
export async function* readFileLineBlocks(path: string): AsyncGenerator<{ firstLineNo: number; block: Buffer; lineEnds: Int32Array }> {
  await assertRegularFile(path);
  for (const block of fileLineBlocks(path, LINE_BLOCK_BYTES)) {
    yield block;
    await new Promise(setImmediate);
  }
}

/** Yields the file's lines in batches (one batch per chunk read), for throughput. */
export async function* readLineBatches(source: InputSource): AsyncGenerator<Line[]> {
  for await (const { firstLineNo, block } of readLineBlocks(source)) {
    const out: Line[] = [];
    splitBlock(block, firstLineNo, out);
    yield out;
  }
}

/**
 * The source's lines, one at a time. The first block is decoded a line at a time (`blockLines`):
 * the many readers that look at a file's first lines and stop (the slice's task sniff, the eval-log
 * and lm-eval detectors) would otherwise decode and split a whole MiB each. The rest are decoded a
 * block at a time, which is faster for a reader that goes on (0.34 s of CPU against 0.55 s for
 * a 123 MB cases.jsonl read whole).
 */
export async function* readLines(source: InputSource): AsyncGenerator<Line> {
  let first = true;
  for await (const { firstLineNo, block } of readLineBlocks(source)) {
    if (first) {
      first = false;
      yield* blockLines(block, firstLineNo);
      continue;
    }
    const out: Line[] = [];
    splitBlock(block, firstLineNo, out);
    yield* out;
  }
}

/** Bytes `firstTextLine` and `firstNonBlankLine` read before leaving a longer first line to `readLines`. */
const HEAD_BYTES = 1 << 16;

/** The file's first HEAD_BYTES (all of it when shorter: `whole`), after the UTF-16 rule. */
function fileHead(path: string): { data: Buffer; whole: boolean } {
  const head = Buffer.allocUnsafe(HEAD_BYTES);
  let size = 0;
  const fd = openSync(path, "r");
  try {
    for (let read = -1; read !== 0 && size < HEAD_BYTES; size += read) read = readSync(fd, head, size, HEAD_BYTES - size, size);
  } finally {
    closeSync(fd);
  }
  const data = head.subarray(0, size);
  if (size > 0 && isUtf16Bom(data)) throw utf16Error(path);
  return { data, whole: size < HEAD_BYTES };
}

/**
 * The file's first line that is valid UTF-8 and not blank, as `readLines` yields it (null: none).
 * Sniffing a file by its first line through `readLines` would decode and split a whole chunk into
 * strings; this reads a small head, and only a line that does not end within it goes to `readLines`.
 */
export async function firstTextLine(path: string): Promise<Extract<Line, { invalidUtf8: false }> | null> {
  return (await firstLineWhere(path, (line) => !line.invalidUtf8 && line.text.trim() !== "")) as Extract<Line, { invalidUtf8: false }> | null;
}

/**
 * The file's first line that is not blank, as `readLines` yields it (one of invalid UTF-8 included:
 * a sniffer that meets it stops there), or null when every line is blank. A format sniffer's first
 * look, read as `firstTextLine` reads: an eval sniffs its dump for four formats, and `readLines`
 * read and split a whole block of a MiB for each.
 */
export async function firstNonBlankLine(path: string): Promise<Line | null> {
  return firstLineWhere(path, (line) => line.invalidUtf8 || line.text.trim() !== "");
}

/** The file's first line `wanted` takes, from its head (HEAD_BYTES), else from `readLines`; null when none. */
async function firstLineWhere(path: string, wanted: (line: Line) => boolean): Promise<Line | null> {
  await assertRegularFile(path);
  const { data, whole } = fileHead(path);
  let lineNo = 1;
  for (let start = 0; start < data.length; lineNo++) {
    let end = data.indexOf(NEWLINE, start);
    if (end === -1) {
      if (!whole) break;
      end = data.length;
    }
    const bytes = data.subarray(start, end);
    const line: Line = isUtf8(bytes)
      ? { lineNo, text: lineText(bytes.toString("utf8"), lineNo), invalidUtf8: false }
      : { lineNo, text: null, invalidUtf8: true };
    if (wanted(line)) return line;
    start = end + 1;
  }
  if (whole) return null;
  for await (const line of readLines(path)) if (wanted(line)) return line;
  return null;
}
