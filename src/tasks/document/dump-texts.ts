// The texts the case explorer shows from a prediction dump: each wanted line's reasoning, the
// model's raw text (a `<think>…</think><answer>…</answer>` completion, or the answer a judge could
// not read) and the parsed line itself, so that a failed run can show what the model said. Read by
// positional reads when the dump pass recorded line offsets (eval), where the dump pass's block
// scanner finds a line's strings when the caller needs no more of it, else by one streaming pass
// over the dump's bytes that decodes only the wanted lines (diff). Each line is handed to the
// caller as it is read, so that what is parsed of it and not kept dies young.
import { isAscii, isUtf8 } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import {
  ROW_COMPLETION_END,
  ROW_COMPLETION_START,
  ROW_FIELDS,
  ROW_REASONING_END,
  ROW_REASONING_ESCAPED,
  ROW_REASONING_START,
  ROW_STATUS,
} from "../../io/block-scan.js";
import { isBatchOutputLine, parseCompletionLayout, parseDumpLine } from "../../io/dump.js";
import { scanLinesAhead } from "../../io/dump-bytes.js";
import { assertRegularFile } from "../../io/input-file.js";
import { fileLineBlocks, forEachLine, LINE_BLOCK_BYTES } from "../../io/lines.js";
import { dumpLineBlocks, isConvertedDump } from "./dump-source.js";
import { isJsonObject, type JsonObject } from "../../io/records.js";
import { batchOutputRecord } from "../../judges/batch-results.js";
import type { LineOffsets } from "./line-offsets.js";

/** A dump line's texts: every field in each (undefined when the line has none), so that they all have one shape. */
export interface DumpTexts {
  reasoning: string | undefined;
  raw: string | undefined;
  /** The line as the scorer reads it (a batch output line converted to the cache shape). */
  record: JsonObject | undefined;
}

const COALESCE_BYTES = 64 * 1024;
const MAX_READ_BYTES = 4 * 1024 * 1024;

/** Reasoning, raw completion and the parsed line of one dump line's text (nothing for a line that is not a JSON object). */
export function textsOfDumpLine(text: string): DumpTexts {
  const parsed = parseDumpLine(lineContent(text));
  if ("error" in parsed) return { reasoning: undefined, raw: undefined, record: undefined };
  let record = parsed.record;
  if (isBatchOutputLine(record)) {
    const converted = batchOutputRecord(record);
    if ("orphan" in converted) return { reasoning: undefined, raw: undefined, record: undefined };
    record = converted.record;
  }
  const source = isJsonObject(record["prediction"]) ? record["prediction"] : record;
  let reasoning = typeof source["reasoning"] === "string" ? source["reasoning"] : undefined;
  let raw: string | undefined;
  const completion = source["completion"];
  if (typeof completion === "string") {
    raw = completion;
    // The think text is the reasoning when the line gives none.
    if (reasoning === undefined) reasoning = parseCompletionLayout(completion)?.think;
  } else if (typeof source["raw"] === "string") {
    // A judge's answer it could not read (kept beside its error code by mari's judges).
    raw = source["raw"];
  }
  return { reasoning, raw, record };
}

/** A line's text without a leading byte order mark and its line end (`\n`, `\r\n`, then one more `\r`). */
function lineContent(text: string): string {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 0x0a) {
    end--;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
  }
  if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
  return text.slice(start, end);
}

/** `length` bytes of the file from `position` into `buffer`; zeros past the file's end. */
function readAt(fd: number, buffer: Buffer, length: number, position: number): void {
  let done = 0;
  for (let read = -1; done < length && read !== 0; done += read) read = readSync(fd, buffer, done, length - done, position + done);
  buffer.fill(0, done, length);
}

/**
 * Visits the given dump lines (1-based line numbers, sorted and without repeats) that can be read,
 * each as its index in `wanted` and its texts. `recordWanted(index)` false: the caller reads only
 * that line's reasoning and raw text, so its `record` may be left undefined (see visitRead).
 */
export async function forEachDumpLine(
  dumpPath: string,
  wanted: ArrayLike<number>,
  offsets: LineOffsets | undefined,
  visit: (index: number, texts: DumpTexts) => void,
  recordWanted: (index: number) => boolean = () => true,
): Promise<void> {
  if (wanted.length === 0) return;
  if (offsets !== undefined) {
    // Synchronous reads into one reused buffer: an eval's page wants lines scattered over the whole
    // dump (thousands of reads), and each awaited read cost more than decoding its lines.
    const fd = openSync(dumpPath, "r");
    try {
      visitAtOffsets(fd, wanted, offsets, visit, recordWanted);
    } finally {
      closeSync(fd);
    }
    return;
  }
  // One pass over the blocks, decoding the wanted lines only (every other line is only a newline
  // found), up to the last wanted one.
  const last = wanted[wanted.length - 1]!;
  // Lines come in order: the next wanted one is `wanted[next]`.
  let next = 0;
  const skip = (lineNo: number): boolean => {
    while (wanted[next]! < lineNo) next++;
    return wanted[next] !== lineNo;
  };
  const visitLine = (_lineNo: number, text: string | null): void => {
    if (text !== null) visit(next, textsOfDumpLine(text));
  };
  if (await isConvertedDump(dumpPath)) {
    for await (const { firstLineNo, block } of dumpLineBlocks(dumpPath)) {
      if (firstLineNo > last) break;
      forEachLine(block, firstLineNo, visitLine, skip);
    }
    return;
  }
  // A JSONL dump: its own bytes through one reused buffer (nothing allocated per chunk).
  await assertRegularFile(dumpPath);
  for (const { firstLineNo, block } of fileLineBlocks(dumpPath, LINE_BLOCK_BYTES)) {
    if (firstLineNo > last) break;
    forEachLine(block, firstLineNo, visitLine, skip);
  }
}

/** forEachDumpLine by the offsets the dump pass recorded: lines close to each other in one read (gaps up to COALESCE_BYTES are read and skipped). */
function visitAtOffsets(
  fd: number,
  wanted: ArrayLike<number>,
  offsets: LineOffsets,
  visit: (index: number, texts: DumpTexts) => void,
  recordWanted: (index: number) => boolean,
): void {
  let buffer = Buffer.allocUnsafe(0);
  let k = 0;
  while (k < wanted.length) {
    const first = offsets.range(wanted[k]!);
    if (first === undefined) {
      k++;
      continue;
    }
    let last = k;
    let end = first[1];
    while (last + 1 < wanted.length) {
      const next = offsets.range(wanted[last + 1]!);
      if (next === undefined || next[0] - end > COALESCE_BYTES || next[1] - first[0] > MAX_READ_BYTES) break;
      end = next[1];
      last++;
    }
    if (buffer.length < end - first[0]) buffer = Buffer.allocUnsafe(Math.max(end - first[0], 2 * buffer.length));
    readAt(fd, buffer, end - first[0], first[0]);
    visitRead(buffer, first[0], wanted, k, last, offsets, visit, recordWanted);
    k = last + 1;
  }
}

/**
 * Visits wanted[from … to], read into `buffer` from byte `at` of the dump. A function of its own,
 * called once per read: the loop over the reads stays short, so V8 compiles this one (with the
 * line's parse) when it is hot instead of compiling the whole loop over the reads again on stack.
 *
 * The lines are first copied together and read by the dump pass's block scanner (io/block-scan.ts):
 * a line of the shapes it reads, whose record the caller does not want, then gives its texts from
 * where its row says its strings lie, instead of the whole line decoded and parsed (most of the
 * case explorer's time on a GRPO-shaped dump). Any other line is parsed whole.
 */
function visitRead(
  buffer: Buffer,
  at: number,
  wanted: ArrayLike<number>,
  from: number,
  to: number,
  offsets: LineOffsets,
  visit: (index: number, texts: DumpTexts) => void,
  recordWanted: (index: number) => boolean,
): void {
  const lines = to - from + 1;
  const starts = new Int32Array(lines);
  const ends = new Int32Array(lines);
  const parsed = new Uint8Array(lines);
  let size = 0;
  let fromRows = 0;
  for (let j = from; j <= to; j++) {
    const range = offsets.range(wanted[j]!)!;
    starts[j - from] = range[0] - at;
    ends[j - from] = range[1] - at;
    size += range[1] - range[0] + 1;
    if (recordWanted(j)) parsed[j - from] = 1;
    else fromRows++;
  }
  // Scanned only when some line may be taken from its row.
  const block = fromRows > 0 ? scannedLines(buffer, starts, ends, size) : undefined;
  for (let j = from; j <= to; j++) {
    const texts = block === undefined || parsed[j - from] === 1 ? undefined : textsOfRow(block, j - from);
    visit(j, texts ?? textsOfDumpLine(buffer.toString("utf8", starts[j - from]!, ends[j - from]!)));
  }
}

/** Lines the block scanner read (scannedLines): their rows, and their bytes as text when that is one code unit a byte. */
interface ScannedLines {
  bytes: Buffer;
  rows: Int32Array;
  /** The bytes as a string when they are all ASCII (a byte's offset is then its character's), else undefined. */
  ascii: string | undefined;
}

/**
 * The lines buffer[starts[k] .. ends[k]), each without its line end and followed by a newline, in
 * one block read by the block scanner; undefined when it was not read (the scanner reads valid
 * UTF-8 only). Each line is copied by the typed array's own `set` of a plain view: Buffer's copy
 * runs JavaScript of its own per call, which this phase runs unoptimized (explorer.ts).
 */
function scannedLines(buffer: Buffer, starts: Int32Array, ends: Int32Array, size: number): ScannedLines | undefined {
  const bytes = Buffer.allocUnsafe(size);
  const lineEnds = new Int32Array(starts.length);
  let length = 0;
  for (let k = 0; k < starts.length; k++) {
    let end = ends[k]!;
    if (end > starts[k]! && buffer[end - 1] === 0x0a) end--;
    bytes.set(new Uint8Array(buffer.buffer, buffer.byteOffset + starts[k]!, end - starts[k]!), length);
    length += end - starts[k]!;
    lineEnds[k] = length;
    bytes[length++] = 0x0a;
  }
  const block = bytes.subarray(0, length);
  if (!isUtf8(block)) return undefined;
  const scanned = scanLinesAhead(block, lineEnds);
  if (scanned === undefined) return undefined;
  return { bytes: block, rows: scanned.rows, ascii: isAscii(block) ? block.toString("latin1") : undefined };
}

/** The JSON string between the quotes at start − 1 and end of the scanned lines, decoded as JSON.parse of its whole line decodes it. */
function jsonString(lines: ScannedLines, start: number, end: number, escaped: boolean): string {
  if (lines.ascii !== undefined) return escaped ? (JSON.parse(lines.ascii.slice(start - 1, end + 1)) as string) : lines.ascii.slice(start, end);
  // An escape-free string is its UTF-8 as it is.
  return escaped ? (JSON.parse(lines.bytes.toString("utf8", start - 1, end + 1)) as string) : lines.bytes.toString("utf8", start, end);
}

/** The texts of line k of scanned lines, when its row holds the line (its record left out), else undefined. */
function textsOfRow(lines: ScannedLines, k: number): DumpTexts | undefined {
  const { rows } = lines;
  const row = k * ROW_FIELDS;
  if (rows[row + ROW_STATUS] !== 1) return undefined;
  const reasoningStart = rows[row + ROW_REASONING_START]!;
  let reasoning = reasoningStart < 0 ? undefined : jsonString(lines, reasoningStart, rows[row + ROW_REASONING_END]!, rows[row + ROW_REASONING_ESCAPED] === 1);
  const completionStart = rows[row + ROW_COMPLETION_START]!;
  // The scanner reads a completion only when its layout is written with escaped newlines.
  const raw = completionStart < 0 ? undefined : jsonString(lines, completionStart, rows[row + ROW_COMPLETION_END]!, true);
  if (reasoning === undefined && raw !== undefined) reasoning = parseCompletionLayout(raw)?.think;
  return { reasoning, raw, record: undefined };
}
