// The compiled slice on disk (docs/eval.md, "Performance"): a document slice, once read, split into
// sentences and aligned, is written in its compiled form (compiled-slice.ts) under the user's cache
// directory, keyed by the slice file's content hash, the path as given (cases name it in `where`),
// the read options (the sentence rule among them) and mari's version. A later run of eval, predict
// or serve on the same bytes loads it instead of reading the slice again. The file is written
// atomically and verified on load (its length and a sha256 of its body): a corrupt or truncated one
// is ignored and written again, never trusted. A cache that cannot be written costs speed only.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { MARI_VERSION } from "../version.js";
import { writeFileAtomic } from "./atomic-write.js";
import { compileSlice, openCompiledSlice, type CompiledSlice } from "./compiled-slice.js";
import { sha256File } from "./hashing.js";
import { inPhase, type RunObserver } from "./observer.js";
import {
  keepSlice,
  readDocumentSliceCached,
  recordsRead,
  sliceFileSha256,
  sliceHashOf,
  sliceKeptInProcess,
  type DocumentSlice,
  type RejectedSliceRecord,
  type SliceReadOptions,
} from "./slice.js";

/** Bumped whenever the file layout or the compiled form changes (with mari's version, in every key). */
const LAYOUT = 1;
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
  bodySha256: string;
}

function cacheKey(path: string, options: SliceReadOptions, content: string): string {
  const fields = [LAYOUT, MARI_VERSION, content, path, options.format ?? null, options.sentences ?? "mari", options.strict ?? false];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

/** The file's bytes: a 4-byte header length, the header (JSON), the packed strings, the numbers. */
function encode(slice: DocumentSlice, compiled: CompiledSlice, key: string, records: number): Buffer {
  const strings = Buffer.from(compiled.strings.buffer);
  const numbers = Buffer.from(compiled.numbers);
  const body = createHash("sha256").update(strings).update(numbers).digest("hex");
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
    bodySha256: body,
  };
  const head = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([length, head, strings, numbers]);
}

function shared(bytes: Buffer, start: number, length: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(length);
  new Uint8Array(buffer).set(bytes.subarray(start, start + length));
  return buffer;
}

/** The compiled slice in `bytes`, or undefined when they are not a whole, intact file for `key`. */
function decode(bytes: Buffer, path: string, key: string): { compiled: CompiledSlice; header: Header } | undefined {
  if (bytes.length < 4) return undefined;
  const headLength = bytes.readUInt32LE(0);
  if (4 + headLength > bytes.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString("utf8", 4, 4 + headLength)) as Header;
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== "object" || header.magic !== MAGIC || header.layout !== LAYOUT || header.key !== key) return undefined;
  const { strings, numbersBytes } = header;
  const start = 4 + headLength;
  if (typeof strings?.bytes !== "number" || typeof numbersBytes !== "number" || start + strings.bytes + numbersBytes !== bytes.length) return undefined;
  const body = createHash("sha256").update(bytes.subarray(start)).digest("hex");
  if (body !== header.bodySha256) return undefined;
  const compiled: CompiledSlice = {
    path,
    format: header.format,
    sentences: header.sentences,
    strings: { buffer: shared(bytes, start, strings.bytes), count: strings.count, wide: strings.wide },
    numbers: shared(bytes, start + strings.bytes, numbersBytes),
    cases: header.cases,
    gold: header.gold,
  };
  return { compiled, header };
}

/** The slice from its cache file, or undefined (no file, or one not to be trusted). */
async function load(file: string, path: string, key: string): Promise<{ slice: DocumentSlice; header: Header } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    const decoded = decode(bytes, path, key);
    if (decoded === undefined) return undefined;
    const slice = openCompiledSlice(decoded.compiled);
    slice.rejected.push(...decoded.header.rejected);
    return { slice, header: decoded.header };
  } catch {
    // Bytes that passed the checks yet do not decode (not written by this layout): read the slice again.
    return undefined;
  }
}

/**
 * `readDocumentSliceCached`, with the compiled slice kept in `cacheDir` across processes (none:
 * the plain read). The same DocumentSlice a read gives, cases, rejected records and hash alike.
 */
export async function readDocumentSliceStored(path: string, options: SliceReadOptions, cacheDir: string | undefined): Promise<DocumentSlice> {
  if (cacheDir === undefined || sliceKeptInProcess(path, options)) return readDocumentSliceCached(path, options);
  // A file that cannot be hashed is left to the reader, whose errors name it.
  const content = await sha256File(path).catch(() => undefined);
  if (content === undefined) return readDocumentSliceCached(path, options);
  const key = cacheKey(path, options, content);
  const file = join(cacheDir, "slices", `${key}.slice`);
  const loaded = await load(file, path, key);
  if (loaded !== undefined) {
    const { slice, header } = loaded;
    keepSlice(path, options, slice, content, header.records, header.sliceHash);
    options.progress?.tick(header.records);
    return slice;
  }
  const slice = await readDocumentSliceCached(path, options);
  // Bytes that changed during the read are not what the key names: nothing is stored.
  if (sliceFileSha256(slice) === content) {
    await writeFileAtomic(file, encode(slice, compileSlice(slice), key, recordsRead(slice) ?? 0)).catch(() => undefined);
  }
  return slice;
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
