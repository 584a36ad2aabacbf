// Reads a document self-contradiction slice from JSONL, CSV, a JSON array or ContraDoc/RRC-DSCD
// JSON: field aliases, label coercions, categorical fields, sentence splitting (mari's rule or
// nltk's Punkt) and gold alignment. A bad record is rejected on its own, named by file and line
// (or record index), and reported; with `strict` the first one stops the read (exit 2). A slice
// with no usable case is always an error: there would be nothing to score.
import { dict } from "../core/dict.js";
import { parseBoundedJson } from "./depth.js";
import { alignEvidence, splitSentences } from "../core/document/sentences.js";
import { splitSentencesPunkt } from "../core/document/punkt.js";
import { englishPunktParameters } from "./punkt-english.js";
import { InputError, located } from "./errors.js";
import { heapInUse, heapWithin } from "./input-contract.js";
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { sha256File } from "./hashing.js";
import { inPhase, type RunObserver } from "./observer.js";
import {
  csvColumns,
  detectRecordFormat,
  jsonlRecordItem,
  readRecordBatches,
  readRecords,
  type JsonObject,
  type RecordFormat,
  type RecordItem,
} from "./records.js";
import { forEachLine, readLineBlocks, sourceChunks, sourceName } from "./lines.js";
import { sliceLineScan, type SliceLineScan } from "./slice-scan.js";
import { openCompiledSlice, SliceCompiler } from "./compiled-slice.js";
import {
  caseHashOfJson,
  keepSlice,
  NO_EXTRA_FIELDS,
  isPlainText,
  sliceCaseHash,
  sliceHashOfCaseHashes,
  sliceKeptInProcess,
  takeKeptSlice,
  type DocumentSlice,
  type RejectedSliceRecord,
  type SentenceRule,
  type SliceCase,
  type SliceReadOptions,
} from "./slice-kept.js";

export type { DocumentSlice, RejectedSliceRecord, SentenceRule, SliceCase, SliceReadOptions };

/** Formats read front to back in one pass, whose bytes `onBytes` sees. */
const STREAMED_FORMATS: ReadonlySet<RecordFormat> = new Set(["jsonl", "csv"]);

/** The file's chunks (after the regular-file and UTF-16 checks), each shown to `onBytes` as it passes. */
async function* tapped(path: string, onBytes: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  for await (const chunk of sourceChunks(path)) {
    onBytes(chunk);
    yield chunk;
  }
}

// `unique_id` is RRC-DSCD's id (github.com/isyuhaochen/RRC-DSCD).
const ID_FIELDS = ["id", "case_id", "unique id", "unique_id"] as const;
const LABEL_FIELDS = ["label", "is_self_contradictory"] as const;
// RRC-DSCD's evidence: `contra_list`, or the inserted `contradicted_sentence` with the
// `original_sentence` it contradicts.
const RRC_EVIDENCE_FIELDS = ["contra_list", "contradicted_sentence", "original_sentence"] as const;
const KNOWN_FIELDS = new Set<string>([
  ...ID_FIELDS,
  ...LABEL_FIELDS,
  ...RRC_EVIDENCE_FIELDS,
  "text",
  "sentences",
  "evidence",
  "gold_sentence_ids",
  "scope",
  "doc_type",
  "contra_type",
]);

const LABEL_STRINGS: Readonly<Record<string, boolean>> = {
  contradictory: true,
  non_contradictory: false,
  true: true,
  false: false,
  "1": true,
  "0": false,
};

/** The first field present (not undefined) among aliases. */
function pick(record: JsonObject, names: readonly string[]): unknown {
  for (const name of names) {
    // The value first: most names are absent, and an own-property test is the dearer of the two.
    const value = record[name];
    if (value !== undefined && Object.hasOwn(record, name)) return value;
  }
  return undefined;
}

function coerceLabel(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") return LABEL_STRINGS[value.trim().toLowerCase()];
  return undefined;
}

/** CSV cells are strings: a cell that holds a JSON array (e.g. `[1, 2]`) is read as one. */
function maybeJsonArray(value: unknown): unknown {
  if (typeof value !== "string" || !value.trim().startsWith("[")) return value;
  try {
    const parsed: unknown = parseBoundedJson(value);
    return Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Breakdown fields: a string, or a one-element list (flattened); empty → absent. */
function categorical(value: unknown, field: string, fail: (msg: string) => never): string | null {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    if (v.length === 1 && (typeof v[0] === "string" || typeof v[0] === "number")) return String(v[0]);
  }
  return fail(`${field} must be a string or a one-element list`);
}

/** `contra_type`: a string, or a list of any length (a case may have several types). */
function contraTypes(value: unknown, fail: (msg: string) => never): string | string[] | null {
  const v = maybeJsonArray(value);
  if (!Array.isArray(v))
    return typeof v === "object" && v !== null ? fail("contra_type must be a string or a list of strings") : categorical(v, "contra_type", fail);
  const types = v.map((t) => (typeof t === "string" || typeof t === "number" ? String(t) : fail("contra_type must be a string or a list of strings")));
  const unique = [...new Set(types.filter((t) => t !== ""))];
  return unique.length === 0 ? null : unique.length === 1 ? unique[0]! : unique;
}

function evidenceStrings(value: unknown, field: string, fail: (msg: string) => never): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  return fail(`${field} must be a string or a list of strings`);
}

/** Evidence strings: `evidence`, else RRC-DSCD's `contra_list`, else its `contradicted_sentence` (+ `original_sentence`). */
function goldEvidence(record: JsonObject, fail: (msg: string) => never): string[] {
  if (record.evidence !== undefined && record.evidence !== null) return evidenceStrings(maybeJsonArray(record.evidence), "evidence", fail);
  if (record.contra_list !== undefined && record.contra_list !== null) return evidenceStrings(maybeJsonArray(record.contra_list), "contra_list", fail);
  if (record.contradicted_sentence === undefined || record.contradicted_sentence === null) return [];
  return [
    ...evidenceStrings(record.contradicted_sentence, "contradicted_sentence", fail),
    ...evidenceStrings(record.original_sentence, "original_sentence", fail),
  ];
}

/** RRC-DSCD's records carry no label: its loaders treat a record with a non-empty `contra_list` as positive. */
function rrcLabel(record: JsonObject): boolean | undefined {
  const list = maybeJsonArray(record.contra_list);
  return Array.isArray(list) && list.length > 0 ? true : undefined;
}

function splitText(text: string, rule: SentenceRule): string[] {
  return rule === "punkt" ? splitSentencesPunkt(text, englishPunktParameters()) : splitSentences(text);
}

function readSentences(value: unknown, fail: (msg: string) => never): string[] | undefined {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return undefined;
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === "string")) {
    return fail("sentences must be a non-empty list of strings");
  }
  return v as string[];
}

function readGoldIds(value: unknown, sentenceCount: number, fail: (msg: string) => never): number[] | undefined {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return undefined;
  if (!Array.isArray(v)) return fail("gold_sentence_ids must be a list of integers");
  for (const id of v) {
    if (typeof id !== "number" || !Number.isInteger(id)) return fail("gold_sentence_ids must be a list of integers");
    if (id < 1 || id > sentenceCount) {
      return fail(`gold_sentence_ids entry ${id} is outside the document (1..${sentenceCount})`);
    }
  }
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

/** One record's slice error: `where: slice error: detail`. */
export class SliceRecordError extends InputError {
  constructor(
    readonly where: string,
    readonly detail: string,
  ) {
    super(`${where}: slice error: ${detail}`);
  }
}

/** Turns one slice record into a case, or throws SliceRecordError (an InputError) naming its location. */
export function sliceCaseFromRecord(record: JsonObject, index: number, where: string, rule: SentenceRule = "mari"): SliceCase {
  const fail = (message: string): never => {
    throw new SliceRecordError(where, message);
  };
  const id = pick(record, ID_FIELDS);
  if (typeof id !== "string" || id.length === 0) fail("missing id (a non-empty string in `id`, `case_id`, `unique id` or `unique_id`)");
  const sentences = readSentences(record.sentences, fail) ?? (typeof record.text === "string" ? splitText(record.text, rule) : undefined);
  if (sentences === undefined) fail("missing text (a string `text` or a list `sentences`)");
  const rawLabel = pick(record, LABEL_FIELDS);
  const label = rawLabel === undefined ? rrcLabel(record) : coerceLabel(rawLabel);
  if (label === undefined) fail(`unusable label ${JSON.stringify(rawLabel) ?? "(missing)"}`);
  let gold: number[] = [];
  if (label) {
    gold = readGoldIds(record.gold_sentence_ids, sentences!.length, fail) ?? alignEvidence(sentences!, goldEvidence(record, fail));
    if (gold.length === 0) fail("a positive case needs gold evidence (non-empty `evidence`, `gold_sentence_ids` or `contra_list`)");
  }
  let extra = NO_EXTRA_FIELDS;
  for (const key of Object.keys(record)) {
    if (KNOWN_FIELDS.has(key)) continue;
    if (extra === NO_EXTRA_FIELDS) extra = dict();
    extra[key] = record[key];
  }
  return {
    index,
    id: id as string,
    where,
    sentences: sentences!,
    sentenceCount: sentences!.length,
    label: label!,
    gold,
    scope: categorical(record.scope, "scope", fail),
    docType: categorical(record.doc_type, "doc_type", fail),
    contraType: contraTypes(record.contra_type, fail),
    extra,
  };
}

/** Where a slice read puts each case it takes. */
interface CaseSink {
  /** Cases taken so far: the next one's index. */
  readonly cases: number;
  add(c: SliceCase): void;
  /** Takes the case of line `line` of the block `scan` read last (a sink without it has every case from the general reader). */
  addScanned?(scan: SliceLineScan, line: number, id: string, where: string): void;
  /** Called when the cases of the block the scan read last are all taken, before it reads another. */
  endScannedBlock?(): void;
  /** Where case `index` (taken already) was read. */
  whereOf(index: number): string;
  /** Bytes the sink holds outside the heap, bounded with the heap the read fills. */
  heldBytes(): number;
}

/**
 * Reads a whole slice into `sink`. A bad record (unreadable, unusable or a repeated id) is
 * rejected on its own and listed in `rejected`; with `strict` it throws InputError (exit 2)
 * instead. No usable case at all throws, naming the first rejected record. `scanLines`: a JSONL
 * slice's common lines read by WebAssembly (slice-scan.ts) when the sink takes them, the same cases
 * as the general reader makes of them (false: every line by the general reader, for the tests
 * that check so).
 */
async function readSliceInto(
  path: string,
  options: SliceReadOptions,
  sink: CaseSink,
  scanLines = true,
): Promise<{ format: RecordFormat; byId: Map<string, number>; rejected: RejectedSliceRecord[] }> {
  refuseStdinSlice(path);
  const { format, sentences = "mari", strict = false, progress, onBytes } = options;
  const byId = new Map<string, number>();
  const rejected: RejectedSliceRecord[] = [];
  // What the slice holds is the heap it adds: a process may hold more of its own (a training loop).
  const heapAtStart = heapInUse();
  const reject = (where: string, message: string): void => {
    if (strict) throw new SliceRecordError(where, message);
    rejected.push({ where, message });
  };
  /** Whether `id` is new (else its record is rejected as a repeat of the case read first). */
  const isNewId = (id: string, where: string): boolean => {
    const previous = byId.get(id);
    if (previous === undefined) return true;
    reject(where, `duplicate id ${JSON.stringify(id)} (first at ${sink.whereOf(previous)})`);
    return false;
  };
  const take = (item: RecordItem): void => {
    progress?.tick();
    if (item.error) {
      // A blank line carries no record.
      if (item.error.code !== "blank_line") reject(item.where, item.error.message);
      return;
    }
    let c: SliceCase;
    try {
      c = sliceCaseFromRecord(item.record, sink.cases, item.where, sentences);
    } catch (err) {
      if (!(err instanceof SliceRecordError) || strict) throw err;
      rejected.push({ where: err.where, message: err.detail });
      return;
    }
    if (!isNewId(c.id, item.where)) return;
    byId.set(c.id, c.index);
    sink.add(c);
  };
  let detected: RecordFormat;
  try {
    detected = format ?? (await detectRecordFormat(path));
    // The same bytes as the path gives (the file's chunks), named by the path: a stream of them
    // lets `onBytes` see each chunk once, as it is read.
    const source = onBytes !== undefined && STREAMED_FORMATS.has(detected) ? { name: path, chunks: tapped(path, onBytes) } : path;
    const scan = scanLines && detected === "jsonl" && sentences === "mari" && sink.addScanned !== undefined ? sliceLineScan() : null;
    if (scan !== null) {
      const name = sourceName(source);
      const addScanned = sink.addScanned!.bind(sink);
      // The block's lines with records, and the next line's number among them. The two callbacks
      // are made once: new ones per block had V8 throw away forEachLine's optimized code at each.
      // A block is read and taken with no await between, so reads taking turns on one thread can
      // share the thread's scan.
      let scanned = 0;
      let line = 0;
      const readByJs = (lineNo: number, text: string | null): void =>
        take(jsonlRecordItem(name, text === null ? { lineNo, text, invalidUtf8: true } : { lineNo, text, invalidUtf8: false }));
      const takeScanned = (lineNo: number): boolean => {
        const k = line++;
        if (k >= scanned || !scan.isCase(k)) return false;
        progress?.tick();
        const id = scan.id(k);
        const where = `${name}:${lineNo}`;
        if (isNewId(id, where)) {
          byId.set(id, sink.cases);
          addScanned(scan, k, id, where);
        }
        return true;
      };
      for await (const { firstLineNo, block } of readLineBlocks(source)) {
        scanned = scan.read(block);
        line = 0;
        forEachLine(block, firstLineNo, readByJs, takeScanned);
        sink.endScannedBlock?.();
        heapWithin(path, "slice error: the slice", heapAtStart, sink.cases, "cases", sink.heldBytes());
      }
    } else {
      for await (const items of readRecordBatches(source, detected)) {
        for (const item of items) take(item);
        heapWithin(path, "slice error: the slice", heapAtStart, sink.cases, "cases", sink.heldBytes());
      }
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") {
      throw new InputError(located(path, undefined, `cannot read slice (${code})`));
    }
    throw err;
  }
  if (sink.cases === 0) {
    const first = rejected[0];
    const why = first === undefined ? "" : `; ${rejected.length} record(s) rejected, the first: ${first.where}: slice error: ${first.message}`;
    throw new InputError(located(path, undefined, `slice error: the slice has no cases${why}`));
  }
  return { format: detected, byId, rejected };
}

/**
 * Reads a whole slice (readSliceInto), every case an object as read. `options` may be just the
 * record format.
 */
export async function readDocumentSlice(path: string, options: SliceReadOptions | RecordFormat = {}): Promise<DocumentSlice> {
  const read = typeof options === "string" ? { format: options } : options;
  const cases: SliceCase[] = [];
  const sink: CaseSink = {
    get cases() {
      return cases.length;
    },
    add: (c) => cases.push(c),
    whereOf: (index) => cases[index]!.where,
    heldBytes: () => 0,
  };
  const { format, byId, rejected } = await readSliceInto(path, read, sink);
  return { path, format, sentences: read.sentences ?? "mari", cases, byId, rejected };
}

/** A sink that compiles each case as it comes (compiled-slice.ts's SliceCompiler) and keeps its content hash. */
class CompilingSink implements CaseSink {
  readonly compiler: SliceCompiler;
  readonly caseHashes: string[] = [];

  constructor(fileBytes: number) {
    this.compiler = new SliceCompiler(fileBytes);
  }

  get cases(): number {
    return this.compiler.cases;
  }

  add(c: SliceCase): void {
    const text = c.sentences.join("");
    const plain = isPlainText(text);
    this.caseHashes.push(sliceCaseHash(c, plain));
    this.compiler.add(c, text, plain);
  }

  addScanned(scan: SliceLineScan, line: number, id: string, where: string): void {
    this.caseHashes.push(caseHashOfJson(scan.hashedJson(line)));
    this.compiler.addScanned(scan, line, id, where);
  }

  endScannedBlock(): void {
    this.compiler.endScannedBlock();
  }

  whereOf(index: number): string {
    return this.compiler.whereOf(index);
  }

  heldBytes(): number {
    return this.compiler.heldBytes();
  }
}

/**
 * readDocumentSlice's slice, compiled as it is read and opened from its compiled form: the same
 * cases, ids, rejected records and hash, with no case object kept through the read (the GRPO
 * bench's slice read had kept 37,500 of them and their 412,500 sentences for the young collections
 * to copy and promote: its young collections took up to 13 ms each, now 1–4 ms, `--trace-gc`).
 * Its hash is computed case by case on the way.
 */
export async function readDocumentSliceCompiled(
  path: string,
  options: SliceReadOptions,
  scanLines = true,
): Promise<{ slice: DocumentSlice; sliceHash: string }> {
  // The file's size, when it has one (the read names any file it cannot read).
  const fileBytes = await stat(path).then(
    (info) => info.size,
    () => 0,
  );
  const sink = new CompilingSink(fileBytes);
  const { format, rejected } = await readSliceInto(path, options, sink, scanLines);
  const rule = options.sentences ?? "mari";
  const slice = openCompiledSlice(sink.compiler.finish(path, format, rule), options.casesLater === true);
  slice.rejected.push(...rejected);
  return { slice, sliceHash: sliceHashOfCaseHashes(sink.caseHashes, rule) };
}

/**
 * A slice read as readDocumentSlice reads it, compiled as it is read (readDocumentSliceCompiled),
 * and kept in this process by content: a slice read again (the same path as given, the same
 * options) from a file whose bytes have the same sha256 is not parsed, split and aligned again: the
 * same DocumentSlice comes back (and with it its hash and compiled form, which are kept per slice
 * object). The bytes are hashed as they are read (JSONL, CSV; the other formats after the read); a
 * later call hashes the file to compare, far cheaper than a read. Slices are not changed once read,
 * so sharing one between runs is safe.
 */
export async function readDocumentSliceCached(path: string, options: SliceReadOptions = {}): Promise<DocumentSlice> {
  if (sliceKeptInProcess(path, options)) {
    // A file that cannot be hashed is left to the reader, whose errors name it.
    const content = await sha256File(path).catch(() => undefined);
    const hit = takeKeptSlice(path, options, content);
    if (hit !== undefined) {
      options.progress?.tick(hit.records);
      return hit.slice;
    }
  }
  const bytes = createHash("sha256");
  let streamed = false;
  let records = 0;
  const progress = options.progress;
  const { slice, sliceHash } = await readDocumentSliceCompiled(path, {
    ...options,
    progress: {
      tick: (n = 1) => {
        records += n;
        progress?.tick(n);
      },
      done: (completed) => progress?.done(completed),
    },
    onBytes: (chunk) => {
      streamed = true;
      bytes.update(chunk);
    },
  });
  keepSlice(path, options, slice, streamed ? bytes.digest("hex") : await sha256File(path), records, sliceHash);
  return slice;
}

/** Reads a whole slice as one phase of a run, counted in records read (a slice kept by content counts its read's). */
export function readDocumentSliceObserved(path: string, options: SliceReadOptions, observer: RunObserver): Promise<DocumentSlice> {
  return inPhase(observer, "read slice (records)", undefined, (progress) => readDocumentSliceCached(path, { ...options, progress }));
}

/** Which task a slice belongs to, from its first records (or a CSV's header): pairs (`new`/`old`) or documents. */
const SNIFF_RECORDS = 100;

/**
 * A slice is a file: it is sniffed, then read, and its bytes hashed for the report, so "-" (which
 * other inputs take as standard input) is refused by name rather than looked up as a file.
 */
export function refuseStdinSlice(path: string): void {
  if (path === "-") throw new InputError("-: a slice cannot be read from standard input; save it to a file and give that path");
}

export async function sniffSliceTask(path: string): Promise<"documents" | "pairs"> {
  refuseStdinSlice(path);
  const format = await detectRecordFormat(path);
  if (format === "csv") {
    // Every CSV record has the header's columns, so the header decides even when the first data
    // rows cannot be read.
    const columns = await csvColumns(path);
    return columns?.includes("new") === true && columns.includes("old") ? "pairs" : "documents";
  }
  // Decided by the first SNIFF_RECORDS usable records, not the first alone: a first pair missing
  // `new` or `old` is one rejected pair, not a reason to read the corpus as documents.
  let pairs = 0;
  let documents = 0;
  let seen = 0;
  for await (const item of readRecords(path, format)) {
    if (item.error) continue;
    if ("new" in item.record && "old" in item.record) pairs++;
    else if ("text" in item.record) documents++;
    if (++seen >= SNIFF_RECORDS) break;
  }
  return pairs > documents ? "pairs" : "documents";
}
