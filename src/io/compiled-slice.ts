// A document slice compiled once: every string of every case (id, where it was read, breakdown
// fields, extra fields, sentences) as code units in one SharedArrayBuffer, and the offsets,
// labels and gold ids in another. Worker threads (`mari eval`'s
// pool, `mari serve`'s scoring threads) are handed the two buffers, which are shared, not copied,
// and decode their cases from them: one string decode and a slice per string, instead of a
// structured clone of every case object per thread. UTF-16 code units are copied as they are, so
// a lone surrogate survives the trip. A slice is compiled once however many pools use it (kept per
// slice object; slices read again from the same bytes are the same object: readDocumentSliceCached).
import { dict } from "../core/dict.js";
import type { JsonObject, RecordFormat } from "./records.js";
import type { DocumentSlice, SentenceRule, SliceCase } from "./slice-kept.js";

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

export function packStrings(strings: readonly string[]): PackedStrings {
  const count = strings.length;
  // All the text as one string: one test and one write, not one of each per string (412,500 of
  // them on 37,500 cases of five sentences).
  const all = strings.join("");
  const wide = ABOVE_LATIN1.test(all);
  const unitBytes = wide ? 2 : 1;
  const buffer = new SharedArrayBuffer(4 * (count + 1) + unitBytes * all.length);
  const start = new Int32Array(buffer, 0, count + 1);
  let at = 0;
  for (let k = 0; k < count; k++) {
    start[k] = at;
    at += strings[k]!.length;
  }
  start[count] = at;
  // Buffer.write copies a string's code units as they are (utf16le, lone surrogates included), or
  // the low byte of each (latin1, exact when none is above U+00FF).
  Buffer.from(buffer, 4 * (count + 1), unitBytes * all.length).write(all, 0, unitBytes * all.length, wide ? "utf16le" : "latin1");
  return { buffer, count, wide };
}

/** Every string of `packed` decoded as one text, and where each starts in it (`start`, count + 1 entries). */
export interface StringTable {
  text: string;
  start: Int32Array;
}

/** The text of all the strings of `packed`, decoded once. */
export function stringTable(packed: PackedStrings): StringTable {
  const { buffer, count, wide } = packed;
  const start = new Int32Array(buffer, 0, count + 1);
  const unitBytes = wide ? 2 : 1;
  return { text: Buffer.from(buffer, 4 * (count + 1), unitBytes * start[count]!).toString(wide ? "utf16le" : "latin1"), start };
}

/** String k of a table: a slice of its text. */
export function stringAt(table: StringTable, k: number): string {
  return table.text.slice(table.start[k]!, table.start[k + 1]!);
}

/** Strings of a case before its sentences: id, where, scope, doc_type, contra_type (JSON), extra (JSON). */
const CASE_FIELDS = 6;

export interface CompiledSlice {
  path: string;
  format: RecordFormat;
  sentences: SentenceRule;
  /** Every case's CASE_FIELDS strings, then its sentences. */
  strings: PackedStrings;
  /** Int32: caseString (cases + 1), goldStart (cases + 1), gold; then Uint8 labels. */
  numbers: SharedArrayBuffer;
  cases: number;
  gold: number;
}

interface NumberViews {
  caseString: Int32Array;
  goldStart: Int32Array;
  gold: Int32Array;
  label: Uint8Array;
}

function numberViews(buffer: SharedArrayBuffer, cases: number, gold: number): NumberViews {
  const ints = 2 * (cases + 1) + gold;
  return {
    caseString: new Int32Array(buffer, 0, cases + 1),
    goldStart: new Int32Array(buffer, 4 * (cases + 1), cases + 1),
    gold: new Int32Array(buffer, 8 * (cases + 1), gold),
    label: new Uint8Array(buffer, 4 * ints, cases),
  };
}

// Breakdown fields are never "" (an empty value reads as absent), so "" stands for null.
const optional = (value: string | null): string => value ?? "";

function compile(slice: DocumentSlice): CompiledSlice {
  const strings: string[] = [];
  let gold = 0;
  for (const c of slice.cases) {
    const extra = Object.keys(c.extra).length === 0 ? "" : JSON.stringify(c.extra);
    strings.push(c.id, c.where, optional(c.scope), optional(c.docType), c.contraType === null ? "" : JSON.stringify(c.contraType), extra);
    for (const sentence of c.sentences) strings.push(sentence);
    gold += c.gold.length;
  }
  const cases = slice.cases.length;
  const numbers = new SharedArrayBuffer(4 * (2 * (cases + 1) + gold) + cases);
  const v = numberViews(numbers, cases, gold);
  let stringIndex = 0;
  let goldAt = 0;
  slice.cases.forEach((c, i) => {
    v.caseString[i] = stringIndex;
    stringIndex += CASE_FIELDS + c.sentenceCount;
    v.goldStart[i] = goldAt;
    for (const id of c.gold) v.gold[goldAt++] = id;
    v.label[i] = c.label ? 1 : 0;
  });
  v.caseString[cases] = stringIndex;
  v.goldStart[cases] = goldAt;
  const { path, format, sentences } = slice;
  return { path, format, sentences, strings: packStrings(strings), numbers, cases, gold };
}

const compiledOf = new WeakMap<DocumentSlice, CompiledSlice>();

/** `slice` compiled, once per slice object. */
export function compileSlice(slice: DocumentSlice): CompiledSlice {
  let compiled = compiledOf.get(slice);
  if (compiled === undefined) compiledOf.set(slice, (compiled = compile(slice)));
  return compiled;
}

/**
 * The extra fields of every case that has none: one object, frozen (nothing writes a case's extra
 * fields after the slice reader), instead of a null-prototype object per case, which V8 keeps as a
 * hash table (37,500 of them on the GRPO bench slice, promoted by the young collections one by one).
 */
const NO_EXTRA: JsonObject = Object.freeze(dict());

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
    return stringAt(this.#strings, this.#firstSentence - CASE_FIELDS + 1);
  }

  get sentences(): string[] {
    if (this.#sentences === undefined) {
      const list = new Array<string>(this.sentenceCount);
      for (let k = 0; k < list.length; k++) list[k] = stringAt(this.#strings, this.#firstSentence + k);
      this.#sentences = list;
    }
    return this.#sentences;
  }
}

/** The cases of a compiled slice, decoded (their sentences when first read). */
function decodeCases(compiled: CompiledSlice, v: NumberViews): Pick<DocumentSlice, "cases" | "byId"> {
  const byId = new Map<string, number>();
  return { cases: decodeInto(stringTable(compiled.strings), v, compiled.cases, byId), byId };
}

/**
 * decodeCases's loop, and all its function does: code after a loop V8 compiles on the fly has no
 * type feedback yet (it had not run), which sent the compiled code back to the interpreter.
 */
function decodeInto(strings: StringTable, v: NumberViews, count: number, byId: Map<string, number>): SliceCase[] {
  const cases: SliceCase[] = new Array(count);
  // stringAt, the empty-field test and the gold copy written out: as functions called from the
  // loop before V8 compiled it on the fly, each was also compiled on its own.
  const { text, start } = strings;
  for (let i = 0; i < count; i++) {
    const first = v.caseString[i]!;
    // Gold ids copied one by one: a subarray per case, then Array.from, cost 15 times more.
    const gold: number[] = [];
    for (let k = v.goldStart[i]!; k < v.goldStart[i + 1]!; k++) gold.push(v.gold[k]!);
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
        ? NO_EXTRA
        : Object.assign(dict(), JSON.parse(text.slice(start[first + 5]!, start[first + 6]!)) as Record<string, unknown>),
      v.caseString[i + 1]! - first - CASE_FIELDS,
      strings,
      first + CASE_FIELDS,
    );
    cases[i] = c;
    byId.set(c.id, i);
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

/** How many cases `slice` has, without decoding a slice opened from its compiled form. */
export function caseCount(slice: DocumentSlice): number {
  return compiledOf.get(slice)?.cases ?? slice.cases.length;
}
