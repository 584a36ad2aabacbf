// A document slice once read: its shape, the slices this process keeps by content (so that
// `readDocumentSliceCached` in slice.ts reads a file's bytes once), their hashes and the warnings
// for the records left out. Apart from the reader (slice.ts), so that a run that loads its slice
// from the compiled-slice cache (slice-store.ts) never loads the record readers and sentence
// splitters.
import type { SENTENCE_RULES } from "../core/options/documents.js";
import { hash } from "node:crypto";
import { dict } from "../core/dict.js";
import { sha256Text } from "./hashing.js";
import type { Progress } from "./observer.js";
import type { JsonObject, RecordFormat } from "./records.js";

export interface SliceCase {
  /** 0-based position in the slice (the order of every per-case output). */
  index: number;
  id: string;
  /** Where the record was read: `file:line` or `file#pos/ID`. */
  where: string;
  sentences: string[];
  /**
   * `sentences.length`, read without the sentences: a case of a compiled slice makes its sentences
   * strings when they are first read, and scoring, cases.jsonl and the sums need only their count.
   */
  sentenceCount: number;
  label: boolean;
  /** Sorted, unique, 1-based gold sentence IDs; empty for negatives. */
  gold: number[];
  scope: string | null;
  docType: string | null;
  /** One type, or several (a case counts under each in breakdowns); null when none. */
  contraType: string | readonly string[] | null;
  /** Unknown fields, passed through to per-case output. */
  extra: JsonObject;
}

/**
 * The extra fields of every case that has none: one object, frozen (nothing writes a case's extra
 * fields after the slice reader), instead of a null-prototype object per case, which V8 keeps as a
 * hash table (37,500 of them on the GRPO bench slice, promoted by the young collections one by one).
 */
export const NO_EXTRA_FIELDS: JsonObject = Object.freeze(dict());

/** How a `text` becomes numbered sentences: mari's own rule (the default) or nltk's Punkt. */
export type SentenceRule = (typeof SENTENCE_RULES)[number];

export interface SliceReadOptions {
  format?: RecordFormat;
  /** Default "mari". */
  sentences?: SentenceRule;
  /** Stop at the first bad record instead of rejecting it alone. */
  strict?: boolean;
  /** Ticked once per record read (the display's "read slice" phase). */
  progress?: Progress | undefined;
  /**
   * Given the file's bytes as they are read, in order, when the format is read front to back
   * (JSONL, CSV); never called for the other formats.
   */
  onBytes?: ((chunk: Buffer) => void) | undefined;
  /**
   * A slice loaded from the compiled-slice cache decodes its cases when they are first read, for
   * a caller with work to do before it needs them (`mari serve` listens first); reading its
   * fields then costs a little more (see `openCompiledSlice`).
   */
  casesLater?: boolean | undefined;
}

/** A record left out of the slice, and why. */
export interface RejectedSliceRecord {
  where: string;
  message: string;
}

export interface DocumentSlice {
  path: string;
  format: RecordFormat;
  sentences: SentenceRule;
  cases: SliceCase[];
  byId: Map<string, number>;
  /** Bad records, in file order (empty under `strict`, which throws instead). */
  rejected: RejectedSliceRecord[];
}

/** How many slices `readDocumentSliceCached` keeps (the ones read last). */
export const CACHED_SLICES = 4;

/** A slice kept by content: its path and read options (its bytes' sha256: `fileSha256Of`). */
interface CachedSlice {
  key: string;
  slice: DocumentSlice;
  /** Records read (the progress ticks of the read), ticked again when the slice is reused. */
  records: number;
}

/** Most recently used last. */
const sliceCache: CachedSlice[] = [];

/** The sha256 of the file bytes each slice read by `readDocumentSliceCached` came from. */
const fileSha256Of = new WeakMap<DocumentSlice, string>();

/**
 * The sha256 of the bytes `readDocumentSliceCached` read this slice from (hex), so that a report
 * need not read and hash the file a second time; undefined for a slice read any other way.
 */
export function sliceFileSha256(slice: DocumentSlice): string | undefined {
  return fileSha256Of.get(slice);
}

/** What a slice kept in this process is found by: the path as given and the read options. */
function sliceKey(path: string, options: SliceReadOptions): string {
  return JSON.stringify([path, options.format ?? null, options.sentences ?? "mari", options.strict ?? false]);
}

/** Whether this process keeps a slice read from `path` with `options` (its file may have changed since). */
export function sliceKeptInProcess(path: string, options: SliceReadOptions = {}): boolean {
  const key = sliceKey(path, options);
  return sliceCache.some((c) => c.key === key);
}

/**
 * Keeps a slice read from bytes with sha256 `content` in `records` records (the progress ticks of
 * the read), so that a later read of the same path, options and bytes gives it back. A slice made
 * some other way (loaded from the compiled-slice cache on disk) comes with its hash `sliceHash`
 * (as `sliceHashOf` computes it).
 */
export function keepSlice(path: string, options: SliceReadOptions, slice: DocumentSlice, content: string, records: number, sliceHash?: string): void {
  fileSha256Of.set(slice, content);
  if (sliceHash !== undefined) hashOf.set(slice, sliceHash);
  sliceCache.push({ key: sliceKey(path, options), slice, records });
  if (sliceCache.length > CACHED_SLICES) sliceCache.shift();
}

/** The slice kept for `path` and `options` read from bytes with sha256 `content` (now the most recently used), or undefined. */
export function takeKeptSlice(path: string, options: SliceReadOptions, content: string | undefined): { slice: DocumentSlice; records: number } | undefined {
  const key = sliceKey(path, options);
  const at = sliceCache.findIndex((c) => c.key === key && fileSha256Of.get(c.slice) === content);
  if (at < 0) return undefined;
  const [hit] = sliceCache.splice(at, 1);
  sliceCache.push(hit!);
  return hit;
}

/** Records the slice's read ticked (its progress count), for a slice kept by `readDocumentSliceCached`. */
export function recordsRead(slice: DocumentSlice): number | undefined {
  return sliceCache.find((c) => c.slice === slice)?.records;
}

/** Forgets every slice `readDocumentSliceCached` keeps. */
export function clearSliceCache(): void {
  sliceCache.length = 0;
}

/** Report lines for rejected slice records: the first `cap` in full, then how many more. */
export function sliceRejectionWarnings(slice: DocumentSlice, cap = 20): string[] {
  const lines = slice.rejected.slice(0, cap).map((r) => `${r.where}: slice error: ${r.message} (record left out)`);
  if (slice.rejected.length > cap) lines.push(`${slice.path}: ${slice.rejected.length - cap} more slice records left out`);
  return lines;
}

/**
 * What JSON.stringify may write escaped in a string: a quote, a backslash, control characters, a
 * surrogate (a lone one is escaped; a string with a pair takes the JSON.stringify path all the same).
 */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * canonicalJson's text of {id, sentences, label, gold}, written with its keys already in sorted
 * order (a string, a boolean and arrays of strings and integers: no key inside to sort). Strings
 * with nothing to escape (nearly all) are written between quotes as they are: ≈ 1.5× as fast as
 * JSON.stringify of the object.
 */
function caseJson(c: Pick<SliceCase, "gold" | "id" | "label" | "sentences">, sentencesPlain: boolean): string {
  const { id, sentences } = c;
  let plain = !JSON_ESCAPED.test(id);
  for (let k = 0; plain && !sentencesPlain && k < sentences.length; k++) plain = !JSON_ESCAPED.test(sentences[k]!);
  if (!plain || sentences.length === 0) return JSON.stringify({ gold: c.gold, id, label: c.label, sentences });
  return `{"gold":[${c.gold.join(",")}],"id":"${id}","label":${c.label},"sentences":["${sentences.join('","')}"]}`;
}

/**
 * A case's content hash: sha256 of canonicalJson's text of {id, sentences, label, gold}, in hex.
 * `sentencesPlain`: the caller found its sentences plain (isPlainText of them together).
 */
export function sliceCaseHash(c: Pick<SliceCase, "gold" | "id" | "label" | "sentences">, sentencesPlain = false): string {
  return caseHashOfJson(caseJson(c, sentencesPlain));
}

/**
 * A case's content hash from canonicalJson's text of {id, sentences, label, gold}, as a string or
 * its UTF-8 bytes (the slice scan writes those: slice-scan.ts).
 */
export function caseHashOfJson(json: string | Uint8Array): string {
  // The one-shot hash is ≈ 3× faster than a Hash object per case.
  return hash("sha256", json, "hex");
}

/** What JSON_ESCAPED finds, and every code unit above U+00FF. */
const NOT_PLAIN = /["\\\u0000-\u001f\u0100-\uffff]/;

/**
 * Whether `text` is plain: nothing JSON.stringify would escape and nothing above U+00FF, so it is
 * written as it is in a case's JSON (caseJson) and one byte per code unit in a compiled slice. One
 * test of a case's sentences together, where each sentence was tested for each (about 20 ms of the
 * GRPO bench slice's read).
 */
export function isPlainText(text: string): boolean {
  return !NOT_PLAIN.test(text);
}

const hashOf = new WeakMap<object, string>();

/** The slice's hash when it is known already (computed, or kept with a slice loaded from the cache), else undefined. */
export function knownSliceHash(slice: Pick<DocumentSlice, "cases" | "sentences">): string | undefined {
  return hashOf.get(slice);
}

/**
 * sha256 over the sorted per-case hashes (id, sentences, label, gold): the slice's content,
 * order-free. A rule other than mari's is hashed in too (mari's hash stays what it always was).
 * Computed once per slice object (slices are not changed once read).
 */
export function sliceHashOf(slice: Pick<DocumentSlice, "cases" | "sentences">): string {
  let known = hashOf.get(slice);
  if (known === undefined) {
    known = sliceHashOfCaseHashes(
      slice.cases.map((c) => sliceCaseHash(c)),
      slice.sentences,
    );
    hashOf.set(slice, known);
  }
  return known;
}

/** The slice hash of cases with these hashes (sliceCaseHash), under sentence rule `rule`. */
export function sliceHashOfCaseHashes(caseHashes: string[], rule: SentenceRule): string {
  return sha256Text((rule === "mari" ? "" : `sentences=${rule}\n`) + sortedDigests(caseHashes).join("\n"));
}

/**
 * Hex digests as sliceCaseHash writes them (64 lowercase hex digits), in the order `sort()` gives
 * them: hex digits sort as their values, so the digests are sorted by their leading digits read as
 * a number, packed with their index into one float each (a typed array sorts those natively), and
 * only digests that share those digits are then compared whole. `sort()` of 37,500 sha256 digests
 * (the GRPO bench slice's cases) took 14–26 ms in a script that timed it alone.
 */
export function sortedDigests(digests: readonly string[]): string[] {
  const n = digests.length;
  if (n < 2) return [...digests];
  // Index bits below the key digits, all within a double's 53-bit integers.
  const indexScale = 2 ** Math.ceil(Math.log2(n));
  const keyDigits = Math.floor((53 - Math.log2(indexScale)) / 4);
  const packed = packedDigestKeys(digests, keyDigits, indexScale);
  packed.sort();
  const sorted = new Array<string>(n);
  for (let k = 0; k < n; k++) sorted[k] = digests[packed[k]! % indexScale]!;
  sortTies(sorted, packed, indexScale);
  return sorted;
}

/** Each digest's first `keyDigits` hex digits as a number, times indexScale, plus its index. */
function packedDigestKeys(digests: readonly string[], keyDigits: number, indexScale: number): Float64Array {
  const packed = new Float64Array(digests.length);
  for (let k = 0; k < digests.length; k++) {
    const digest = digests[k]!;
    let key = 0;
    for (let d = 0; d < keyDigits; d++) {
      const c = digest.charCodeAt(d);
      key = key * 16 + (c <= 0x39 ? c - 0x30 : c - 0x57);
    }
    packed[k] = key * indexScale + k;
  }
  return packed;
}

/** Sorts each run of `sorted` whose packed keys share their key (the digests' leading digits) whole. */
function sortTies(sorted: string[], packed: Float64Array, indexScale: number): void {
  for (let k = 0; k < sorted.length; ) {
    const key = Math.floor(packed[k]! / indexScale);
    let end = k + 1;
    while (end < sorted.length && Math.floor(packed[end]! / indexScale) === key) end++;
    if (end - k > 1) sorted.splice(k, end - k, ...sorted.slice(k, end).sort());
    k = end;
  }
}
