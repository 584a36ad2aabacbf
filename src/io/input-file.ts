// The one rule for every input file of every command: a path must name a regular file (a symlink
// is followed to one); a device (/dev/zero would be read forever), a FIFO with no writer (would
// block forever), a socket or a directory is refused up front. `-` (stdin) is the way to stream,
// where a command supports it. A UTF-16 file is refused with the fix, not read as garbled UTF-8.
import { noteInput } from "./output-guard.js";
import { open, readFile, stat } from "node:fs/promises";
import { InputError } from "./errors.js";
import { MAX_WHOLE_FILE_BYTES } from "./input-contract.js";

/**
 * Why `-` is refused where an input is a file (most are: read more than once, hashed, or read with
 * the files beside it); commands that stream stdin say so in their help.
 */
export const STDIN_REFUSED = "-: this input is read from a file, not from standard input; save it to a file and give that path";

function kindOf(info: import("node:fs").Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Throws an InputError when `path` exists but is not a regular file, or is `-` where no file of
 * that name exists (a reader that streams stdin never asks). A missing or unreadable path is left
 * to the read itself, whose error each caller already words.
 */
export async function assertRegularFile(path: string): Promise<void> {
  let info: import("node:fs").Stats;
  try {
    info = await stat(path);
  } catch {
    if (path === "-") throw new InputError(STDIN_REFUSED);
    return;
  }
  if (!info.isFile()) {
    throw new InputError(`${path}: is ${kindOf(info)}, not a regular file; inputs must be regular files (use - to read stdin where the command supports it)`);
  }
  noteInput(path, info);
}

/** The UTF-16 byte-order marks (little- and big-endian). */
export function isUtf16Bom(head: Uint8Array): boolean {
  return head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
}

export function utf16Error(name: string): InputError {
  return new InputError(`${name}: UTF-16: convert to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)`);
}

/** Passes chunks through, refusing a source that starts with a UTF-16 byte-order mark. */
export async function* refuseUtf16(name: string, chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk.length > 0) {
      if (isUtf16Bom(chunk)) throw utf16Error(name);
      first = false;
    }
    yield chunk;
  }
}

/** A file's bytes in chunks, after the regular-file rule; refuses UTF-16. */
export async function* inputFileChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  await assertRegularFile(path);
  yield* refuseUtf16(path, fileChunks(path, chunkBytes));
}

/**
 * A file's bytes in chunks of `chunkBytes` (the last one shorter), each a buffer of its own. Read
 * through a file handle rather than a read stream: the first use of Node's stream code cost an
 * eval about 1.5 ms of CPU, which sniffs its slice's format this way.
 */
async function* fileChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const file = await open(path, "r");
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await file.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield bytesRead === chunkBytes ? chunk : chunk.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** Whether a regular file starts with these (latin1) bytes; false for a missing or shorter file. */
export async function fileStartsWith(path: string, magic: string): Promise<boolean> {
  await assertRegularFile(path);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead === magic.length && head.toString("latin1") === magic;
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/** The error for a whole-file input of MAX_WHOLE_FILE_BYTES or more. */
export function wholeFileTooLarge(name: string): InputError {
  return new InputError(`${name}: ${MAX_WHOLE_FILE_BYTES} bytes or more, above the documented limit for a file read whole (use JSONL, read line by line)`);
}

/** A whole small file's bytes, after the regular-file rule; refuses UTF-16 and a file too large to be one string. */
export async function readInputBytes(path: string): Promise<Buffer> {
  await assertRegularFile(path);
  const size = await stat(path).then(
    (info) => info.size,
    () => 0,
  );
  if (size >= MAX_WHOLE_FILE_BYTES) throw wholeFileTooLarge(path);
  const bytes = await readFile(path);
  if (isUtf16Bom(bytes)) throw utf16Error(path);
  return bytes;
}

/** A whole small file as text, after the regular-file rule; refuses UTF-16 and invalid UTF-8. */
export async function readInputText(path: string): Promise<string> {
  const bytes = await readInputBytes(path);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new InputError(`${path}: invalid_utf8: the file is not valid UTF-8`);
  }
}
