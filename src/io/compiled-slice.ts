// A document slice compiled once: every string of every case (id, where it was read, breakdown
// fields, extra fields, sentences) as code units in one SharedArrayBuffer, and the offsets,
// labels and gold ids in another. Worker threads (`mari eval`'s
// pool, `mari serve`'s scoring threads) are handed the two buffers, which are shared, not copied,
// and decode their cases from them (every case's fields as one string, then slices of it; a case's
// sentences when first read), instead of a structured clone of every case object per thread. UTF-16 code units are copied as they are, so
// a lone surrogate survives the trip. A slice is compiled once however many pools use it (kept per
// slice object; slices read again from the same bytes are the same object: readDocumentSliceCached).
import { dict } from "../core/dict.js";
import type { JsonObject, RecordFormat } from "./records.js";
import { NO_EXTRA_FIELDS, type DocumentSlice, type SentenceRule, type SliceCase } from "./slice-kept.js";
import type { SliceLineScan } from "./slice-scan.js";

/** The cases a scorer reads (`mari serve`'s item resolvers and `scoreCase`). */
export type ScoringSlice = Pick<DocumentSlice, "cases" | "byId">;

/** Strings laid end to end: string k is the code units text[start[k] .. start[k + 1]). */
export interface PackedStrings {
  /** `count + 1` Int32 offsets, then the text (offsets first: their alignment is fixed). */
  buffer: SharedArrayBuffer;
  count: number;
  /**
   * The text as UTF-16 code units (2 bytes each) when some code unit is above U+00FF, else as one
   * byte each (Latin-1): half the memory, and each thread decodes it into a one-byte string, as
   * the slice reader's own strings of such text are.
   */
  wide: boolean;
}

const ABOVE_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * The strings of `packed`, decoded as they are asked for: strings k … l − 1 are one decode of their
 * code units (`text`), each a slice of it. A slice's sentences are most of its text (10 of the
 * GRPO bench slice's 11 MB) and an eval reads few of them, so they are not all decoded on opening.
 */
export class StringTable {
  /** Where string k starts among the code units (count + 1 entries). */
  readonly start: Int32Array;
  readonly #units: Buffer;
  readonly #unitBytes: number;
  readonly #encoding: "latin1" | "utf16le";

  constructor(packed: PackedStrings) {
    const { buffer, count, wide } = packed;
    this.start = new Int32Array(buffer, 0, count + 1);
    this.#unitBytes = wide ? 2 : 1;
    this.#encoding = wide ? "utf16le" : "latin1";
    this.#units = Buffer.from(buffer, 4 * (count + 1), this.#unitBytes * this.start[count]!);
  }

  /** Strings from … to − 1 as one text (string k is its part from start[k] − start[from]). */
  text(from: number, to: number): string {
    return this.#units.toString(this.#encoding, this.#unitBytes * this.start[from]!, this.#unitBytes * this.start[to]!);
  }

  /** Strings from … to − 1, decoded together. */
  strings(from: number, to: number): string[] {
    const text = this.text(from, to);
    const base = this.start[from]!;
    const list = new Array<string>(to - from);
    for (let k = from; k < to; k++) list[k - from] = text.slice(this.start[k]! - base, this.start[k + 1]! - base);
    return list;
  }
}

/**
 * A case's strings before its sentences: id, where, scope, doc_type, contra_type (JSON), extra
 * (JSON). Every case's come first, case by case; then every case's sentences, case by case.
 */
const CASE_FIELDS = 6;

export interface CompiledSlice {
  path: string;
  format: RecordFormat;
  sentences: SentenceRule;
  /** Every case's CASE_FIELDS strings, then every case's sentences. */
  strings: PackedStrings;
  /** Int32: sentenceStart (cases + 1, each case's first sentence among the strings), goldStart (cases + 1), gold; then Uint8 labels. */
  numbers: SharedArrayBuffer;
  cases: number;
  gold: number;
}

interface NumberViews {
  sentenceStart: Int32Array;
  goldStart: Int32Array;
  gold: Int32Array;
  label: Uint8Array;
}

function numberViews(buffer: SharedArrayBuffer, cases: number, gold: number): NumberViews {
  const ints = 2 * (cases + 1) + gold;
  return {
    sentenceStart: new Int32Array(buffer, 0, cases + 1),
    goldStart: new Int32Array(buffer, 4 * (cases + 1), cases + 1),
    gold: new Int32Array(buffer, 8 * (cases + 1), gold),
    label: new Uint8Array(buffer, 4 * ints, cases),
  };
}

// Breakdown fields are never "" (an empty value reads as absent), so "" stands for null.
const optional = (value: string | null): string => value ?? "";

/**
 * Code units written end to end into a buffer that grows: one byte each (Latin-1) until a string
 * with a code unit above U+00FF comes, then two (UTF-16, what was written widened once). Strings
 * are gathered and written PENDING_WRITES at a time: Buffer.write's own JavaScript, once a string,
 * was about 1.5 % of a cold GRPO bench eval.
 */
class UnitWriter {
  #bytes: Buffer;
  /** Units written (gathered ones included); units in the buffer. */
  units = 0;
  #written = 0;
  /** Whether the buffer holds two bytes a unit (isWide: once the gathered strings are written). */
  #wide = false;
  #pending: string[] = [];
  /** One-byte units gathered by `writeLatin1`: source[from … to), written before anything after them. */
  #range: Uint8Array | undefined;
  #rangeFrom = 0;
  #rangeTo = 0;
  /** Whether every gathered string was said to be narrow. */
  #pendingNarrow = true;

  /** `bytes`: the room to start with (the buffer doubles when it runs out). */
  constructor(bytes: number) {
    this.#bytes = Buffer.allocUnsafe(Math.max(bytes, 1 << 16));
  }

  /** Writes `text`; `narrow`: the caller found no code unit of it above U+00FF. */
  write(text: string, narrow = false): void {
    if (this.#range !== undefined) this.#copyRange(this.#range);
    this.#pending.push(text);
    this.#pendingNarrow &&= narrow;
    this.units += text.length;
    if (this.#pending.length === PENDING_WRITES) this.#flush();
  }

  /**
   * Writes the one-byte (Latin-1) units source[from … to), which must stay as they are until the
   * next write or `flush`: units that follow the last ones written so are gathered with them, and
   * a run of them is copied at once.
   */
  writeLatin1(source: Uint8Array, from: number, to: number): void {
    this.units += to - from;
    if (this.#range === source && this.#rangeTo === from) {
      this.#rangeTo = to;
      return;
    }
    this.flush();
    this.#range = source;
    this.#rangeFrom = from;
    this.#rangeTo = to;
  }

  /** Writes what is gathered. */
  flush(): void {
    this.#flush();
  }

  #copyRange(source: Uint8Array): void {
    const bytes = source.subarray(this.#rangeFrom, this.#rangeTo);
    this.#range = undefined;
    const wide = this.#wide;
    const need = (this.#written + bytes.length) << (wide ? 1 : 0);
    if (need > this.#bytes.length) this.#bytes = grownBytes(this.#bytes, this.#written << (wide ? 1 : 0), need);
    if (!wide) this.#bytes.set(bytes, this.#written);
    else
      for (let k = 0; k < bytes.length; k++) {
        this.#bytes[2 * (this.#written + k)] = bytes[k]!;
        this.#bytes[2 * (this.#written + k) + 1] = 0;
      }
    this.#written += bytes.length;
  }

  #flush(): void {
    if (this.#range !== undefined) this.#copyRange(this.#range);
    if (this.#pending.length === 0) return;
    const text = this.#pending.join("");
    if (!this.#wide && !this.#pendingNarrow && ABOVE_LATIN1.test(text)) this.#widen();
    this.#pending = [];
    this.#pendingNarrow = true;
    const shift = this.#wide ? 1 : 0;
    const need = (this.#written + text.length) << shift;
    if (need > this.#bytes.length) this.#bytes = grownBytes(this.#bytes, this.#written << shift, need);
    // Buffer.write copies a string's code units as they are (utf16le, lone surrogates included), or
    // the low byte of each (latin1, exact when none is above U+00FF).
    this.#bytes.write(text, this.#written << shift, text.length << shift, this.#wide ? "utf16le" : "latin1");
    this.#written += text.length;
  }

  /** Bytes written (gathered ones counted as they will be). */
  bytes(): number {
    return this.#wide ? 2 * this.units : this.units;
  }

  /** Code units from … to − 1 as a string. */
  text(from: number, to: number): string {
    this.#flush();
    return this.#wide ? this.#bytes.toString("utf16le", 2 * from, 2 * to) : this.#bytes.toString("latin1", from, to);
  }

  /** Whether a unit above U+00FF was written. */
  isWide(): boolean {
    this.#flush();
    return this.#wide;
  }

  /** The units into `target` from byte `at`, two bytes each when `wide` (which this writer may not be). */
  copyInto(target: Uint8Array, at: number, wide: boolean): void {
    this.#flush();
    if (wide === this.#wide) target.set(this.#bytes.subarray(0, this.units << (wide ? 1 : 0)), at);
    else for (let k = 0; k < this.units; k++) target[at + 2 * k] = this.#bytes[k]!;
  }

  #widen(): void {
    const wide = Buffer.alloc(Math.max(2 * this.#bytes.length, 1 << 16));
    for (let k = 0; k < this.#written; k++) wide[2 * k] = this.#bytes[k]!;
    this.#bytes = wide;
    this.#wide = true;
  }
}

/** Strings a UnitWriter gathers before it writes them. */
const PENDING_WRITES = 64;

/** How long an array that holds `length` items grows to hold `need`: doubled until it does. */
function grownLength(length: number, need: number): number {
  while (length < need) length *= 2;
  return length;
}

/** `bytes` with its first `used` bytes copied into a buffer of at least `need` bytes. */
function grownBytes(bytes: Buffer, used: number, need: number): Buffer {
  const next = Buffer.allocUnsafe(grownLength(bytes.length, need));
  bytes.copy(next, 0, 0, used);
  return next;
}

/** The most room a compiler reserves for a slice's text before it is written (a larger slice's text grows). */
const MOST_RESERVED_BYTES = 64 * 2 ** 20;
/** File bytes reckoned per case, and per sentence, for the room a compiler starts with (the GRPO bench slice: 340 and 31). */
const ROOM_BYTES_PER_CASE = 128;
const ROOM_BYTES_PER_SENTENCE = 16;

/** An Int32 list that grows. */
class Int32List {
  values: Int32Array;
  length = 0;

  constructor(room: number) {
    this.values = new Int32Array(Math.max(room, 1 << 12));
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const values = new Int32Array(2 * this.length);
      values.set(this.values);
      this.values = values;
    }
    this.values[this.length++] = value;
  }
}

/**
 * A slice compiled case by case, as it is read: a case's strings are written into the text the
 * moment it is added, so that a read keeps no case object (the GRPO bench's slice read kept 37,500
 * of them, with 412,500 sentence strings, for the young collections to copy and promote). Every
 * case's CASE_FIELDS strings come first in the finished slice, then every case's sentences: two
 * texts, put together at the end.
 */
export class SliceCompiler {
  readonly #fields: UnitWriter;
  readonly #sentences: UnitWriter;
  /** Where each case field starts in the fields' text; where each sentence starts in the sentences' text. */
  readonly #fieldStart: Int32List;
  readonly #sentenceStart: Int32List;
  /** Per case: its first sentence (among the sentences) and its first gold id; the gold ids; labels. */
  readonly #firstSentence: Int32List;
  readonly #firstGold: Int32List;
  readonly #gold: Int32List;
  #labels: Buffer;
  cases = 0;

  /**
   * `fileBytes`: the size of the file the slice is read from, when known, from which the room each
   * part is given to start with is reckoned (up to MOST_RESERVED_BYTES; room not written to is only
   * address space). The sentences take at most as many one-byte units as the file has bytes; the
   * other fields (each case's `where` among them) are given a quarter of that; the cases and
   * sentences are counted at one per ROOM_BYTES_PER_CASE and ROOM_BYTES_PER_SENTENCE bytes of file.
   * On the GRPO bench slice nothing grows: each doubling had copied a part into fresh memory, which
   * the kernel maps page by page, and its first run sent the optimized code of the function doing
   * it back to the interpreter (`--trace-deopt`).
   */
  constructor(fileBytes = 0) {
    const room = Math.min(fileBytes, MOST_RESERVED_BYTES);
    const cases = Math.ceil(room / ROOM_BYTES_PER_CASE);
    this.#sentences = new UnitWriter(room);
    this.#fields = new UnitWriter(Math.floor(room / 4));
    this.#fieldStart = new Int32List(CASE_FIELDS * cases);
    this.#sentenceStart = new Int32List(Math.ceil(room / ROOM_BYTES_PER_SENTENCE));
    this.#firstSentence = new Int32List(cases);
    this.#firstGold = new Int32List(cases);
    this.#gold = new Int32List(cases);
    this.#labels = Buffer.allocUnsafe(Math.max(cases, 1 << 12));
  }

  /**
   * Adds case number `cases` (its `index`). `sentenceText`: its sentences joined, when the caller
   * has them so; `narrow`: the caller found none of them above U+00FF.
   */
  add(
    c: Pick<SliceCase, "id" | "where" | "scope" | "docType" | "contraType" | "extra" | "sentences" | "gold" | "label">,
    sentenceText = c.sentences.join(""),
    narrow = false,
  ): void {
    const scope = optional(c.scope);
    const docType = optional(c.docType);
    const contraType = c.contraType === null ? "" : JSON.stringify(c.contraType);
    // A case without extra fields shares the reader's one frozen object (NO_EXTRA_FIELDS).
    const extra = c.extra === NO_EXTRA_FIELDS || Object.keys(c.extra).length === 0 ? "" : JSON.stringify(c.extra);
    this.#addFields(c.id, c.where, scope, docType, contraType, extra);
    this.#firstSentence.push(this.#sentenceStart.length);
    let at = this.#sentences.units;
    for (const sentence of c.sentences) {
      this.#sentenceStart.push(at);
      at += sentence.length;
    }
    this.#sentences.write(sentenceText, narrow);
    this.#firstGold.push(this.#gold.length);
    for (const id of c.gold) this.#gold.push(id);
    this.#addLabel(c.label);
  }

  /** A case's CASE_FIELDS strings (the optional ones "" when absent) and where each starts. */
  #addFields(id: string, where: string, scope: string, docType: string, contraType: string, extra: string): void {
    const fieldStart = this.#fieldStart;
    let at = this.#fields.units;
    fieldStart.push(at);
    fieldStart.push((at += id.length));
    fieldStart.push((at += where.length));
    fieldStart.push((at += scope.length));
    fieldStart.push((at += docType.length));
    fieldStart.push(at + contraType.length);
    this.#fields.write(id + where + scope + docType + contraType + extra);
  }

  /** The case's label, the last of its parts: the case is counted. */
  #addLabel(label: boolean): void {
    if (this.cases === this.#labels.length) this.#labels = grownBytes(this.#labels, this.cases, this.cases + 1);
    this.#labels[this.cases++] = label ? 1 : 0;
  }

  /**
   * Adds case number `cases` from line `line` of the block `scan` read last (slice-scan.ts), as
   * `add` adds the case the general reader makes of the same line.
   */
  addScanned(scan: SliceLineScan, line: number, id: string, where: string): void {
    // A scanned case has no contra_type.
    this.#addFields(id, where, scan.scope(line), scan.docType(line), "", scan.extra(line));
    this.#firstSentence.push(this.#sentenceStart.length);
    let at = this.#sentences.units;
    const lengths = scan.ints;
    const first = scan.sentenceLengthsAt(line);
    const end = first + scan.sentenceCount(line);
    for (let k = first; k < end; k++) {
      this.#sentenceStart.push(at);
      at += lengths[k]!;
    }
    const bytesAt = scan.sentencesAt(line);
    this.#sentences.writeLatin1(scan.units, bytesAt, bytesAt + scan.sentencesLength(line));
    this.#firstGold.push(this.#gold.length);
    const gold = scan.gold(line);
    if (gold > 0) this.#gold.push(gold);
    this.#addLabel(scan.label(line));
  }

  /** Writes the sentences gathered from the block `addScanned` read from, before the scan reads another. */
  endScannedBlock(): void {
    this.#sentences.flush();
  }

  /** Bytes the compiled slice takes so far (the room reserved beyond them is untouched memory). */
  heldBytes(): number {
    const lists = this.#fieldStart.length + this.#sentenceStart.length + this.#firstSentence.length + this.#firstGold.length + this.#gold.length;
    return this.#fields.bytes() + this.#sentences.bytes() + this.cases + 4 * lists;
  }

  /** The `where` of case `index` (added already). */
  whereOf(index: number): string {
    return this.#fields.text(this.#fieldStart.values[CASE_FIELDS * index + 1]!, this.#fieldStart.values[CASE_FIELDS * index + 2]!);
  }

  finish(path: string, format: RecordFormat, sentences: SentenceRule): CompiledSlice {
    const cases = this.cases;
    const fieldCount = CASE_FIELDS * cases;
    const count = fieldCount + this.#sentenceStart.length;
    const fieldUnits = this.#fields.units;
    const wide = this.#fields.isWide() || this.#sentences.isWide();
    const unitBytes = wide ? 2 : 1;
    const buffer = new SharedArrayBuffer(4 * (count + 1) + unitBytes * (fieldUnits + this.#sentences.units));
    const start = new Int32Array(buffer, 0, count + 1);
    start.set(this.#fieldStart.values.subarray(0, fieldCount));
    shiftedInto(start, fieldCount, this.#sentenceStart.values, count - fieldCount, fieldUnits);
    start[count] = fieldUnits + this.#sentences.units;
    const text = new Uint8Array(buffer, 4 * (count + 1));
    this.#fields.copyInto(text, 0, wide);
    this.#sentences.copyInto(text, unitBytes * fieldUnits, wide);
    const gold = this.#gold.length;
    const numbers = new SharedArrayBuffer(4 * (2 * (cases + 1) + gold) + cases);
    const v = numberViews(numbers, cases, gold);
    shiftedInto(v.sentenceStart, 0, this.#firstSentence.values, cases, fieldCount);
    v.sentenceStart[cases] = count;
    v.goldStart.set(this.#firstGold.values.subarray(0, cases));
    v.goldStart[cases] = gold;
    v.gold.set(this.#gold.values.subarray(0, gold));
    v.label.set(this.#labels.subarray(0, cases));
    return { path, format, sentences, strings: { buffer, count, wide }, numbers, cases, gold };
  }
}

/**
 * target[at + k] = source[k] + shift for k < count. The loop is all the function does: each of
 * finish's two loops, compiled on the fly, met a store after it that had not run yet and sent V8
 * back to the interpreter (`--trace-deopt`).
 */
function shiftedInto(target: Int32Array, at: number, source: Int32Array, count: number, shift: number): void {
  for (let k = 0; k < count; k++) target[at + k] = source[k]! + shift;
}

function compile(slice: DocumentSlice): CompiledSlice {
  const compiler = new SliceCompiler();
  for (const c of slice.cases) compiler.add(c);
  return compiler.finish(slice.path, slice.format, slice.sentences);
}

const compiledOf = new WeakMap<DocumentSlice, CompiledSlice>();

/** `slice` compiled, once per slice object. */
export function compileSlice(slice: DocumentSlice): CompiledSlice {
  let compiled = compiledOf.get(slice);
  if (compiled === undefined) compiledOf.set(slice, (compiled = compile(slice)));
  return compiled;
}

/**
 * A case of a compiled slice, whose sentences become strings when they are first read. An eval
 * reads only their count (`sentenceCount`) but for the cases its page shows: making every
 * sentence a string on opening (412,500 of them for the GRPO bench's slice) and copying them
 * through the young generation cost about 3 % of a `--report json` eval of that slice. Its `where`
 * too, which only a message about the case reads.
 */
class CompiledCase implements SliceCase {
  readonly #strings: StringTable;
  /** Where the case's first sentence is among the strings. */
  readonly #firstSentence: number;
  #sentences: string[] | undefined;

  constructor(
    readonly index: number,
    readonly id: string,
    readonly label: boolean,
    readonly gold: number[],
    readonly scope: string | null,
    readonly docType: string | null,
    readonly contraType: string | readonly string[] | null,
    readonly extra: JsonObject,
    readonly sentenceCount: number,
    strings: StringTable,
    firstSentence: number,
  ) {
    this.#strings = strings;
    this.#firstSentence = firstSentence;
  }

  get where(): string {
    return this.#strings.text(CASE_FIELDS * this.index + 1, CASE_FIELDS * this.index + 2);
  }

  get sentences(): string[] {
    this.#sentences ??= this.#strings.strings(this.#firstSentence, this.#firstSentence + this.sentenceCount);
    return this.#sentences;
  }
}

/**
 * The id → index map of a compiled slice's cases, filled when first read: an eval whose dump lines
 * are all found through the case index (score-bytes.ts, from the compiled ids) never reads it, and
 * filling it took 37,500 insertions and 3.7 MB of hash tables on the GRPO bench slice (a sampling
 * heap profile). Every read of a Map, and every change, fills it first.
 */
class CaseIdMap extends Map<string, number> {
  #cases: readonly SliceCase[] | undefined;

  constructor(cases: readonly SliceCase[]) {
    super();
    this.#cases = cases;
  }

  #filled(): Map<string, number> {
    const cases = this.#cases;
    if (cases !== undefined) {
      this.#cases = undefined;
      for (const c of cases) super.set(c.id, c.index);
    }
    return this;
  }

  override get size(): number {
    this.#filled();
    return super.size;
  }
  override get(key: string): number | undefined {
    this.#filled();
    return super.get(key);
  }
  override has(key: string): boolean {
    this.#filled();
    return super.has(key);
  }
  override set(key: string, value: number): this {
    this.#filled();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.#filled();
    return super.delete(key);
  }
  override clear(): void {
    this.#cases = undefined;
    super.clear();
  }
  override forEach(visit: (value: number, key: string, map: Map<string, number>) => void, thisArg?: unknown): void {
    this.#filled();
    super.forEach(visit, thisArg);
  }
  override keys(): MapIterator<string> {
    this.#filled();
    return super.keys();
  }
  override values(): MapIterator<number> {
    this.#filled();
    return super.values();
  }
  override entries(): MapIterator<[string, number]> {
    this.#filled();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, number]> {
    this.#filled();
    return super[Symbol.iterator]();
  }
}

/** The cases of a compiled slice, decoded (their sentences when first read). */
function decodeCases(compiled: CompiledSlice, v: NumberViews): Pick<DocumentSlice, "cases" | "byId"> {
  const cases = decodeInto(new StringTable(compiled.strings), v, compiled.cases);
  return { cases, byId: new CaseIdMap(cases) };
}

/**
 * The cases without gold (every negative one: 18,528 of the GRPO bench slice's 37,500) share one
 * empty list, which is never changed: no case's gold is, once read.
 */
const NO_GOLD: number[] = [];

/**
 * Gold ids gold[from … to) as a list of exactly their length (a literal for the commonest counts:
 * one grown by push has room for 17). One by one: a subarray per case, then Array.from, cost 15
 * times more.
 */
function goldOf(v: NumberViews, from: number, to: number): number[] {
  const ids = v.gold;
  switch (to - from) {
    case 0:
      return NO_GOLD;
    case 1:
      return [ids[from]!];
    case 2:
      return [ids[from]!, ids[from + 1]!];
    case 3:
      return [ids[from]!, ids[from + 1]!, ids[from + 2]!];
  }
  const gold: number[] = [];
  for (let k = from; k < to; k++) gold.push(ids[k]!);
  return gold;
}

/**
 * decodeCases's loop, and all its function does: code after a loop V8 compiles on the fly has no
 * type feedback yet (it had not run), which sent the compiled code back to the interpreter.
 */
function decodeInto(strings: StringTable, v: NumberViews, count: number): SliceCase[] {
  const cases: SliceCase[] = new Array(count);
  // A string's slice, the empty-field test and the gold copy written out: as functions called from the
  // loop before V8 compiled it on the fly, each was also compiled on its own. Every case's fields
  // are one text (the strings before the first sentence start at 0).
  const { start } = strings;
  const text = strings.text(0, CASE_FIELDS * count);
  for (let i = 0; i < count; i++) {
    const first = CASE_FIELDS * i;
    const gold = goldOf(v, v.goldStart[i]!, v.goldStart[i + 1]!);
    // Optional fields by their length first: most cases have none, and need no string for them.
    const c = new CompiledCase(
      i,
      text.slice(start[first]!, start[first + 1]!),
      v.label[i] === 1,
      gold,
      start[first + 2] === start[first + 3] ? null : text.slice(start[first + 2]!, start[first + 3]!),
      start[first + 3] === start[first + 4] ? null : text.slice(start[first + 3]!, start[first + 4]!),
      start[first + 4] === start[first + 5] ? null : (JSON.parse(text.slice(start[first + 4]!, start[first + 5]!)) as string | string[]),
      // Keys are the user's: a null-prototype object, as the slice reader builds it.
      start[first + 5] === start[first + 6]
        ? NO_EXTRA_FIELDS
        : Object.assign(dict(), JSON.parse(text.slice(start[first + 5]!, start[first + 6]!)) as Record<string, unknown>),
      v.sentenceStart[i + 1]! - v.sentenceStart[i]!,
      strings,
      v.sentenceStart[i]!,
    );
    cases[i] = c;
  }
  return cases;
}

/**
 * The slice a compiled slice was made from, every case field as read (rejected records are not
 * kept). With `casesLater` its cases are decoded when first read (then kept): `mari serve` starts
 * listening before that, and `caseCount` does not need them. Such a slice has getters of its own,
 * which makes V8 keep it as a hash table (a few nanoseconds more per read of any of its fields), so
 * it is only for a caller that reads it seldom.
 */
export function openCompiledSlice(compiled: CompiledSlice, casesLater = false): DocumentSlice {
  const { path, format, sentences } = compiled;
  // Made now: numbers that do not fit their buffer throw here, where the cache's reader catches them.
  const v = numberViews(compiled.numbers, compiled.cases, compiled.gold);
  let slice: DocumentSlice;
  if (casesLater) {
    const decode = (): Pick<DocumentSlice, "cases" | "byId"> => {
      const decoded = decodeCases(compiled, v);
      for (const key of ["cases", "byId"] as const)
        Object.defineProperty(slice, key, { value: decoded[key], writable: true, enumerable: true, configurable: true });
      return decoded;
    };
    slice = {
      path,
      format,
      sentences,
      get cases() {
        return decode().cases;
      },
      get byId() {
        return decode().byId;
      },
      rejected: [],
    };
  } else {
    const { cases, byId } = decodeCases(compiled, v);
    slice = { path, format, sentences, cases, byId, rejected: [] };
  }
  compiledOf.set(slice, compiled);
  return slice;
}

/**
 * The case ids of a slice opened from its compiled form, in case order, as one run of UTF-8 bytes:
 * id k is bytes[starts[k] … starts[k + 1]). Copied from the compiled text (a case index needs them
 * so: score-bytes.ts), where each id otherwise took a map entry read back and a string encoded.
 * Undefined for a slice not opened from its compiled form, or one with an id that is not ASCII
 * (its compiled text is then not its UTF-8).
 */
export function compiledCaseIds(slice: Pick<DocumentSlice, "cases">): { bytes: Uint8Array; starts: Int32Array } | undefined {
  const compiled = compiledOf.get(slice as DocumentSlice);
  if (compiled === undefined) return undefined;
  const { buffer, count, wide } = compiled.strings;
  const start = new Int32Array(buffer, 0, count + 1);
  const starts = idStarts(start, compiled.cases);
  const bytes = new Uint8Array(starts[compiled.cases]!);
  const text = new Uint8Array(buffer, 4 * (count + 1));
  // A wide text is UTF-16LE: an ASCII unit is its byte and a zero.
  const seen = wide ? copyWideIds(text, start, bytes, starts) : copyIds(text, start, bytes, starts);
  return seen < 0x80 ? { bytes, starts } : undefined;
}

// The loops below are all their functions do: a loop V8 compiles on the fly, meeting code after it
// that had not run yet, sends V8 back to the interpreter.

/** Where each case's id starts when the ids lie one after the other (cases + 1 entries). */
function idStarts(start: Int32Array, cases: number): Int32Array {
  const starts = new Int32Array(cases + 1);
  for (let i = 0; i < cases; i++) starts[i + 1] = starts[i]! + start[CASE_FIELDS * i + 1]! - start[CASE_FIELDS * i]!;
  return starts;
}

/** Copies each case's id from the compiled text (a byte a unit) into `bytes` at `starts`; returns its units or-ed together (ASCII: below 0x80). */
function copyIds(text: Uint8Array, start: Int32Array, bytes: Uint8Array, starts: Int32Array): number {
  let seen = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    let to = starts[i]!;
    const end = start[CASE_FIELDS * i + 1]!;
    for (let k = start[CASE_FIELDS * i]!; k < end; k++) {
      const unit = text[k]!;
      seen |= unit;
      bytes[to++] = unit;
    }
  }
  return seen;
}

/** copyIds of a wide compiled text (two bytes a unit, little-endian). */
function copyWideIds(text: Uint8Array, start: Int32Array, bytes: Uint8Array, starts: Int32Array): number {
  let seen = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    let to = starts[i]!;
    const end = 2 * start[CASE_FIELDS * i + 1]!;
    for (let k = 2 * start[CASE_FIELDS * i]!; k < end; k += 2) {
      const unit = text[k]! | (text[k + 1]! << 8);
      seen |= unit;
      bytes[to++] = unit;
    }
  }
  return seen;
}

/** How many cases `slice` has, without decoding a slice opened from its compiled form. */
export function caseCount(slice: DocumentSlice): number {
  return compiledOf.get(slice)?.cases ?? slice.cases.length;
}
