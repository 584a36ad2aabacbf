// The slice as `mari serve`'s scoring threads share it: read and split once on the main thread,
// then laid out in one SharedArrayBuffer (every string's UTF-16 code units, their offsets, the
// labels and gold ids) that each worker maps and decodes, instead of reading and splitting the
// file again. UTF-16 code units are copied as they are, so a lone surrogate survives the trip.
import type { DocumentSlice, SliceCase } from "../io/slice.js";
import { findableText } from "./document-finder.js";

/** The cases a request is scored against: what the item resolvers and `scoreCase` read. */
export type ScoringSlice = Pick<DocumentSlice, "cases" | "byId">;

/** Section sizes (in elements) of the shared buffer, in layout order. */
interface Layout {
  cases: number;
  /** UTF-16 code units of all strings. */
  units: number;
  /** Strings: per case its id, its sentences, then its findable text. */
  strings: number;
  gold: number;
}

export interface CompiledSlice {
  buffer: SharedArrayBuffer;
  layout: Layout;
}

interface Views {
  text: Uint16Array;
  /** String k is text[stringStart[k] .. stringStart[k + 1]). */
  stringStart: Int32Array;
  /** Case i's strings start at caseString[i]; its sentences are the strings between id and findable text. */
  caseString: Int32Array;
  /** Case i's gold ids are gold[goldStart[i] .. goldStart[i + 1]). */
  goldStart: Int32Array;
  gold: Int32Array;
  label: Uint8Array;
}

/** The typed views over `buffer`; each section starts on an 8-byte boundary. */
function viewsOf(buffer: SharedArrayBuffer, layout: Layout): Views {
  let offset = 0;
  const take = <T>(make: (at: number, length: number) => T, length: number, bytesPer: number): T => {
    const view = make(offset, length);
    offset += Math.ceil((length * bytesPer) / 8) * 8;
    return view;
  };
  return {
    text: take((at, n) => new Uint16Array(buffer, at, n), layout.units, 2),
    stringStart: take((at, n) => new Int32Array(buffer, at, n), layout.strings + 1, 4),
    caseString: take((at, n) => new Int32Array(buffer, at, n), layout.cases + 1, 4),
    goldStart: take((at, n) => new Int32Array(buffer, at, n), layout.cases + 1, 4),
    gold: take((at, n) => new Int32Array(buffer, at, n), layout.gold, 4),
    label: take((at, n) => new Uint8Array(buffer, at, n), layout.cases, 1),
  };
}

function bytesOf(layout: Layout): number {
  const round = (bytes: number): number => Math.ceil(bytes / 8) * 8;
  return round(layout.units * 2) + round((layout.strings + 1) * 4) + 2 * round((layout.cases + 1) * 4) + round(layout.gold * 4) + round(layout.cases);
}

/** Lays `slice` out in one shared buffer (done once, on the main thread). */
export function compileSlice(slice: ScoringSlice): CompiledSlice {
  const strings: string[] = [];
  let units = 0;
  let gold = 0;
  for (const c of slice.cases) {
    strings.push(c.id, ...c.sentences, findableText(c.sentences));
    gold += c.gold.length;
  }
  for (const s of strings) units += s.length;
  const layout: Layout = { cases: slice.cases.length, units, strings: strings.length, gold };
  const buffer = new SharedArrayBuffer(bytesOf(layout));
  const v = viewsOf(buffer, layout);
  let at = 0;
  strings.forEach((s, k) => {
    v.stringStart[k] = at;
    for (let i = 0; i < s.length; i++) v.text[at + i] = s.charCodeAt(i);
    at += s.length;
  });
  v.stringStart[strings.length] = at;
  let stringIndex = 0;
  let goldIndex = 0;
  slice.cases.forEach((c, i) => {
    v.caseString[i] = stringIndex;
    stringIndex += c.sentences.length + 2;
    v.goldStart[i] = goldIndex;
    v.gold.set(c.gold, goldIndex);
    goldIndex += c.gold.length;
    v.label[i] = c.label ? 1 : 0;
  });
  v.caseString[layout.cases] = stringIndex;
  v.goldStart[layout.cases] = goldIndex;
  return { buffer, layout };
}

/**
 * The cases of a compiled slice, and each one's findable text (for the document finder). Fields the
 * scorer never reads (where, scope, breakdowns, extra) are left empty.
 */
export function openCompiledSlice(compiled: CompiledSlice): { slice: ScoringSlice; findableTexts: string[] } {
  const v = viewsOf(compiled.buffer, compiled.layout);
  // One decode of all the text; each string is then a slice of it.
  const all = Buffer.from(v.text.buffer, v.text.byteOffset, v.text.byteLength).toString("utf16le");
  const stringAt = (k: number): string => all.slice(v.stringStart[k]!, v.stringStart[k + 1]!);
  const cases: SliceCase[] = [];
  const findableTexts: string[] = [];
  const byId = new Map<string, number>();
  for (let i = 0; i < compiled.layout.cases; i++) {
    const first = v.caseString[i]!;
    const last = v.caseString[i + 1]! - 1;
    const sentences: string[] = [];
    for (let k = first + 1; k < last; k++) sentences.push(stringAt(k));
    const id = stringAt(first);
    cases.push({
      index: i,
      id,
      where: "",
      sentences,
      label: v.label[i] === 1,
      gold: Array.from(v.gold.subarray(v.goldStart[i]!, v.goldStart[i + 1]!)),
      scope: null,
      docType: null,
      contraType: null,
      extra: {},
    });
    findableTexts.push(stringAt(last));
    if (!byId.has(id)) byId.set(id, i);
  }
  return { slice: { cases, byId }, findableTexts };
}
