// The compiled slice on disk (docs/eval.md, "Performance"): a document slice, once read, split into
// sentences and aligned, is written in its compiled form (compiled-slice.ts) under the user's cache
// directory, keyed by the slice file's content hash (remembered by the file's identity between
// runs, content-memo.ts), the path as given (cases name it in `where`),
// the read options (the sentence rule among them) and mari's version. A later run of eval, predict
// or serve on the same bytes loads it instead of reading the slice again. The file is written
// atomically and verified on load (its length and an XXH64 of its body, xxh64.ts: it guards against
// damage, not against a hand that could rewrite the header too): a corrupt or truncated one is
// ignored and written again, never trusted. A cache that cannot be written costs speed only.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { XXHashAPI } from "xxhash-wasm";
import { MARI_VERSION } from "../version.js";
import { compileSlice, openCompiledSlice, type CompiledSlice } from "./compiled-slice.js";
import { rememberedSha256 } from "./content-memo.js";
import { xxh64Api, xxh64With } from "./xxh64.js";
import { withoutPretenuring } from "./v8-phases.js";
import { inPhase, type RunObserver } from "./observer.js";
import {
  keepSlice,
  recordsRead,
  sliceFileSha256,
  sliceHashOf,
  sliceKeptInProcess,
  type DocumentSlice,
  type RejectedSliceRecord,
  type SliceReadOptions,
} from "./slice-kept.js";

/** Bumped whenever the file layout or the compiled form changes (with mari's version, in every key). */
const LAYOUT = 3;
const MAGIC = "mari-compiled-slice";

/** The user cache directory: `$XDG_CACHE_HOME`, else `~/.cache` (the XDG base directory default), with mari's folder in it. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env["XDG_CACHE_HOME"];
  return join(base !== undefined && base.startsWith("/") ? base : join(homedir(), ".cache"), "mari");
}

interface Header {
  magic: string;
  layout: number;
  version: string;
  key: string;
  format: DocumentSlice["format"];
  sentences: DocumentSlice["sentences"];
  cases: number;
  gold: number;
  strings: { count: number; wide: boolean; bytes: number };
  numbersBytes: number;
  rejected: RejectedSliceRecord[];
  records: number;
  sliceHash: string;
  /** XXH64 of the strings, then the numbers (SHA-256 until layout 2: 13 MB of it on the GRPO bench slice took 8 ms of every load). */
  bodyXxh64: string;
}

function cacheKey(path: string, options: SliceReadOptions, content: string): string {
  const fields = [LAYOUT, MARI_VERSION, content, path, options.format ?? null, options.sentences ?? "mari", options.strict ?? false];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

/**
 * The file's bytes in their parts, written one after another rather than copied into one buffer: a
 * 4-byte header length, the header (JSON), the packed strings, the numbers.
 */
function encode(slice: DocumentSlice, compiled: CompiledSlice, key: string, records: number, xxh64: XXHashAPI): Buffer[] {
  const strings = Buffer.from(compiled.strings.buffer);
  const numbers = Buffer.from(compiled.numbers);
  const body = xxh64With(xxh64);
  body.update(strings);
  body.update(numbers);
  const header: Header = {
    magic: MAGIC,
    layout: LAYOUT,
    version: MARI_VERSION,
    key,
    format: slice.format,
    sentences: slice.sentences,
    cases: compiled.cases,
    gold: compiled.gold,
    strings: { count: compiled.strings.count, wide: compiled.strings.wide, bytes: strings.length },
    numbersBytes: numbers.length,
    rejected: slice.rejected,
    records,
    sliceHash: sliceHashOf(slice),
    bodyXxh64: body.digest(),
  };
  const head = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return [length, head, strings, numbers];
}

/** Reads `into.length` bytes of `fd` from `position`; false when the file ends first. */
function readFully(fd: number, into: Uint8Array, position: number): boolean {
  for (let done = 0; done < into.length; ) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/** The header of an open cache file, or undefined when it is not one for `key` of the file's size. */
function readHeader(fd: number, key: string): { header: Header; bodyAt: number } | undefined {
  const size = fstatSync(fd).size;
  const length = Buffer.alloc(4);
  if (size < 4 || !readFully(fd, length, 0)) return undefined;
  const headLength = length.readUInt32LE(0);
  if (4 + headLength > size) return undefined;
  const head = Buffer.alloc(headLength);
  if (!readFully(fd, head, 4)) return undefined;
  let header: Header;
  try {
    header = JSON.parse(head.toString("utf8")) as Header;
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== "object" || header.magic !== MAGIC || header.layout !== LAYOUT || header.key !== key) return undefined;
  const { strings, numbersBytes } = header;
  const bodyAt = 4 + headLength;
  if (typeof strings?.bytes !== "number" || typeof numbersBytes !== "number" || bodyAt + strings.bytes + numbersBytes !== size) return undefined;
  return { header, bodyAt };
}

/**
 * The compiled slice in the cache file, or undefined when it is not a whole, intact file for
 * `key`. The body is read straight into the shared buffers the threads are handed (no copy of the
 * file in between) and its XXH64 checked against the header's.
 */
function decodeFile(fd: number, path: string, key: string, xxh64: XXHashAPI): { compiled: CompiledSlice; header: Header } | undefined {
  const read = readHeader(fd, key);
  if (read === undefined) return undefined;
  const { header, bodyAt } = read;
  const stringsBuffer = new SharedArrayBuffer(header.strings.bytes);
  const numbers = new SharedArrayBuffer(header.numbersBytes);
  const stringBytes = new Uint8Array(stringsBuffer);
  const numberBytes = new Uint8Array(numbers);
  if (!readFully(fd, stringBytes, bodyAt) || !readFully(fd, numberBytes, bodyAt + stringBytes.length)) return undefined;
  const body = xxh64With(xxh64);
  body.update(stringBytes);
  body.update(numberBytes);
  if (body.digest() !== header.bodyXxh64) return undefined;
  const compiled: CompiledSlice = {
    path,
    format: header.format,
    sentences: header.sentences,
    strings: { buffer: stringsBuffer, count: header.strings.count, wide: header.strings.wide },
    numbers,
    cases: header.cases,
    gold: header.gold,
  };
  return { compiled, header };
}

/** The slice from its cache file, or undefined (no file, or one not to be trusted). */
function load(file: string, path: string, key: string, casesLater: boolean, xxh64: XXHashAPI): { slice: DocumentSlice; header: Header } | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const decoded = decodeFile(fd, path, key, xxh64);
    if (decoded === undefined) return undefined;
    const slice = openCompiledSlice(decoded.compiled, casesLater);
    slice.rejected.push(...decoded.header.rejected);
    return { slice, header: decoded.header };
  } catch {
    // Bytes that passed the checks yet do not decode (not written by this layout; with
    // `casesLater`, only the sizes are checked here), or a read that failed: read the slice again.
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * `readDocumentSliceCached`, with the compiled slice kept in `cacheDir` across processes (none:
 * the plain read). The same DocumentSlice a read gives, cases, rejected records and hash alike;
 * with `options.casesLater`, one loaded from the cache decodes its cases when they are first read.
 */
export async function readDocumentSliceStored(path: string, options: SliceReadOptions, cacheDir: string | undefined): Promise<DocumentSlice> {
  if (cacheDir === undefined || sliceKeptInProcess(path, options)) return readSlice(path, options);
  // A file that cannot be hashed is left to the reader, whose errors name it.
  const content = await rememberedSha256(path, join(cacheDir, "contents")).catch(() => undefined);
  if (content === undefined) return readSlice(path, options);
  const key = cacheKey(path, options, content);
  const file = join(cacheDir, "slices", `${key}.slice`);
  const xxh64 = await xxh64Api();
  const loaded = load(file, path, key, options.casesLater === true, xxh64);
  if (loaded !== undefined) {
    const { slice, header } = loaded;
    keepSlice(path, options, slice, content, header.records, header.sliceHash);
    options.progress?.tick(header.records);
    return slice;
  }
  const slice = await readSlice(path, options);
  // Bytes that changed during the read are not what the key names: nothing is stored.
  if (sliceFileSha256(slice) === content) {
    const { writeFileAtomic } = await import("./atomic-write.js");
    await writeFileAtomic(file, encode(slice, compileSlice(slice), key, recordsRead(slice) ?? 0, xxh64)).catch(() => undefined);
  }
  return slice;
}

/**
 * `readDocumentSliceCached`, its module loaded only when a slice is read: a slice loaded from the
 * cache needs none of the record readers and sentence splitters (a faster `mari serve` start). Read
 * without V8's pretenuring (v8-phases.ts): the GRPO bench's run without the cache took 0.96–0.98× the CPU
 * (alternating pairs).
 */
async function readSlice(path: string, options: SliceReadOptions): Promise<DocumentSlice> {
  return withoutPretenuring(async () => (await import("./slice.js")).readDocumentSliceCached(path, options));
}

/** `readDocumentSliceStored` as one phase of a run, counted in records read. */
export function readDocumentSliceStoredObserved(
  path: string,
  options: SliceReadOptions,
  cacheDir: string | undefined,
  observer: RunObserver,
): Promise<DocumentSlice> {
  return inPhase(observer, "read slice (records)", undefined, (progress) => readDocumentSliceStored(path, { ...options, progress }, cacheDir));
}
