// Scores a dump line from its bytes (docs/eval.md, "Performance"): the line scanned by
// io/dump-bytes.ts, the case found by its id's bytes, the evidence checked, the reasoning's
// references counted and a raw completion's layout read, all on the bytes as read, into one reused
// outcome: no string, no object, no array per line. It answers only where it gives exactly what
// the string path (score.ts, `scoreLineText`) would: a case the slice reader let through, a
// judgment the string path accepts, evidence of integers; any other line (a rejected judgment, a
// quoted evidence sentence, a completion outside the layout …) returns false and takes the string
// path, whose messages quote the values. test/document-eval/score-bytes.property.test.ts holds
// the two to the same columns. The lines of the commonest shapes are scored before it, in
// WebAssembly (row-scores.ts, from this file's case facts): this takes the ones left over.
import { checkedGold, accuracyReward } from "../../core/document/rewards.js";
import { reasoningReferenceCountOfBytes, recordedReferenceCount, summarizedReferenceCount } from "../../core/document/references.js";
import { pythonTruthy, type DocumentContradictionErrorCode } from "../../core/document/index.js";
import { END_MARKERS, type CompletionEndRule } from "../../core/document/completion-end.js";
import {
  blockWords,
  decodeCompletion,
  JUDGMENT_ABSENT,
  JUDGMENT_STRING,
  JUDGMENT_TRUE,
  RUN_ABSENT,
  RUN_STRING,
  scanLineAt,
  scanLineBytes,
  scanned,
} from "../../io/dump-bytes.js";
import { byteWordsAt } from "../../io/byte-words.js";
import { ANSWER_TAG_LENGTH, DECODED_MARKERS, RAW_MARKERS, tagAt, type LayoutMarkers } from "../../io/layout-bytes.js";
import { compiledCaseIds, type ScoringSlice } from "../../io/compiled-slice.js";

/** What `scoreLineBytes` found, for the caller to write into its columns (one object, reused). */
export interface ByteOutcome {
  /** -1: the line's case id is not in the slice (an orphan; `orphanId` is the id). */
  caseIndex: number;
  orphanId: string;
  /** The run key: RUN_ABSENT ("0"), RUN_INTEGER (`runValue`) or RUN_STRING (`runKey`). */
  runKind: number;
  runValue: number;
  runKey: string;
  /** The prediction's reason code, or null when format-valid. */
  reason: DocumentContradictionErrorCode | null;
  judgment: boolean;
  coverage: number;
  rewardAccuracy: number;
  matched: number;
  /** Sorted, unique evidence IDs in evidence[0 .. evidenceCount). */
  evidence: Int32Array;
  evidenceCount: number;
}

export const byteOutcome: ByteOutcome = {
  caseIndex: -1,
  orphanId: "",
  runKind: RUN_ABSENT,
  runValue: 0,
  runKey: "",
  reason: null,
  judgment: false,
  coverage: 0,
  rewardAccuracy: 0,
  matched: 0,
  evidence: new Int32Array(64),
  evidenceCount: 0,
};

/**
 * The slice's case ids by their UTF-8 bytes (open addressing over an FNV-1a hash): entry k's id is
 * bytes[starts[k] .. starts[k + 1]), its case caseOf[k] (row-scores.ts copies them into WebAssembly).
 */
class CaseIdIndex {
  readonly bytes: Uint8Array;
  /** `bytes` read four bytes at a time, as the block's words are. */
  private readonly words: DataView;
  readonly starts: Int32Array;
  readonly caseOf: Int32Array;
  /**
   * Slot → entry + 1 (0: empty), made at the first lookup that needs it: the lines scored in
   * WebAssembly (all of most dumps) are found through the module's own table.
   */
  private table: Int32Array | undefined;
  private mask = 0;
  /** The entry `find` found last. */
  private lastEntry = 0;

  constructor(byId: ReadonlyMap<string, number>, compiled?: { bytes: Uint8Array; starts: Int32Array }) {
    if (compiled !== undefined) {
      // Entry k is case k, whose id the compiled slice holds.
      this.bytes = compiled.bytes;
      this.words = new DataView(compiled.bytes.buffer, compiled.bytes.byteOffset, compiled.bytes.byteLength);
      this.starts = compiled.starts;
      const caseOf = new Int32Array(compiled.starts.length - 1);
      for (let k = 0; k < caseOf.length; k++) caseOf[k] = k;
      this.caseOf = caseOf;
      return;
    }
    const ids = Array.from(byId.keys());
    const index = Array.from(byId.values());
    // Room for every id as ASCII (most are): the buffer grown between calls of putAsciiIds had V8
    // compile it twice, on the fly and then whole.
    let bytes = Buffer.allocUnsafe(Math.max(1 << 16, ids.join("").length));
    const starts = new Int32Array(ids.length + 1);
    const caseOf = new Int32Array(ids.length);
    // The ASCII ids that fit by putAsciiIds, each other one here (UTF-8, with room for three bytes
    // a character): a rare case inside its loop would meet code without type feedback once V8 had
    // compiled the loop on the fly.
    let skipped = 0;
    for (let k = 0; (k = putAsciiIds(ids, index, k, skipped, bytes, starts, caseOf)) < ids.length; ) {
      const id = ids[k]!;
      const used = starts[k - skipped]!;
      if (bytes.length - used < 3 * id.length) {
        const bigger = Buffer.allocUnsafe(2 * bytes.length + 3 * id.length);
        bytes.copy(bigger, 0, 0, used);
        bytes = bigger;
        continue;
      }
      // An id with a lone surrogate has no UTF-8 bytes of its own (a dump line can name it only
      // with a `\u` escape, which the string path reads).
      if (!isWellFormed(id)) skipped++;
      else {
        starts[k - skipped + 1] = used + bytes.write(id, used, "utf8");
        caseOf[k - skipped] = index[k]!;
      }
      k++;
    }
    const entries = ids.length - skipped;
    this.bytes = bytes;
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.starts = skipped === 0 ? starts : starts.slice(0, entries + 1);
    this.caseOf = skipped === 0 ? caseOf : caseOf.slice(0, entries);
  }

  /** The hash table of the entries, made now. */
  private madeTable(): Int32Array {
    let size = 16;
    while (size < 2 * this.caseOf.length) size *= 2;
    this.mask = size - 1;
    this.table = hashTable(this.words, this.bytes, this.starts, this.caseOf.length, size);
    return this.table;
  }

  /** The case index of the id `block[start .. end)` (`words`: the block's), or -1. */
  find(block: Uint8Array, words: DataView, start: number, end: number): number {
    const length = end - start;
    // A case's runs are often written one after the other, and a run's cases in slice order (the
    // index's order): the id found last, then the one after it, before hashing.
    const last = this.lastEntry;
    if (this.isEntry(last, block, words, start, length)) return this.caseOf[last]!;
    if (last + 1 < this.caseOf.length && this.isEntry(last + 1, block, words, start, length)) {
      this.lastEntry = last + 1;
      return this.caseOf[last + 1]!;
    }
    const table = this.table ?? this.madeTable();
    // The slot before the hash's, so that each probe steps the same way (a step first taken only
    // after the code is optimized would undo that).
    let slot = (hashOf(words, block, start, end) + this.mask) & this.mask;
    for (;;) {
      slot = (slot + 1) & this.mask;
      const entry = table[slot]! - 1;
      if (entry < 0) return -1;
      if (this.isEntry(entry, block, words, start, length)) {
        this.lastEntry = entry;
        return this.caseOf[entry]!;
      }
    }
  }

  /** Whether entry `entry` is the id of `length` bytes at `start` of the block. */
  private isEntry(entry: number, block: Uint8Array, words: DataView, start: number, length: number): boolean {
    const from = this.starts[entry]!;
    return this.starts[entry + 1]! - from === length && sameBytes(this.words, this.bytes, from, words, block, start, length);
  }
}

/** A table of `size` slots (a power of two) holding entry + 1 of each of the `entries` ids (bytes[starts[k] … starts[k + 1])) at its hash, probing on. */
function hashTable(words: DataView, bytes: Uint8Array, starts: Int32Array, entries: number, size: number): Int32Array {
  const table = new Int32Array(size);
  for (let k = 0; k < entries; k++) {
    let slot = hashOf(words, bytes, starts[k]!, starts[k + 1]!) & (size - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (size - 1);
    table[slot] = k + 1;
  }
  return table;
}

/**
 * Writes ids[k …] as entries k − skipped … of CaseIdIndex (their bytes, starts and cases) while
 * they are ASCII and fit (a byte loop: a Buffer write per id was most of this index's time on
 * 37,500 ids); returns the k it stopped at.
 */
function putAsciiIds(
  ids: readonly string[],
  index: readonly number[],
  k: number,
  skipped: number,
  bytes: Buffer,
  starts: Int32Array,
  caseOf: Int32Array,
): number {
  for (; k < ids.length; k++) {
    const id = ids[k]!;
    let end = starts[k - skipped]!;
    if (bytes.length - end < id.length) return k;
    for (let j = 0; j < id.length; j++) {
      const code = id.charCodeAt(j);
      if (code >= 0x80) return k;
      bytes[end++] = code;
    }
    starts[k - skipped + 1] = end;
    caseOf[k - skipped] = index[k]!;
  }
  return k;
}

/** String.prototype.isWellFormed (Node 20; not in the ES2023 typings): no lone surrogate. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Whether a[aStart ..] and b[bStart ..] agree on `length` bytes (aWords, bWords: their words), a word at a time. */
function sameBytes(aWords: DataView, a: Uint8Array, aStart: number, bWords: DataView, b: Uint8Array, bStart: number, length: number): boolean {
  if (length < 4) {
    for (let k = 0; k < length; k++) if (a[aStart + k] !== b[bStart + k]) return false;
    return true;
  }
  // The words at 0, 4, 8 … and the one ending at the last byte.
  for (let k = 0; k < length; k += 4) {
    const at = Math.min(k, length - 4);
    if (aWords.getInt32(aStart + at, true) !== bWords.getInt32(bStart + at, true)) return false;
  }
  return true;
}

/** A hash of bytes[start .. end) (`words`: their words) mixed a word at a time, then its tail a byte at a time. */
function hashOf(words: DataView, bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  let k = start;
  for (; k + 4 <= end; k += 4) {
    h = Math.imul(h ^ words.getInt32(k, true), 0x5bd1e995);
    h ^= h >>> 15;
  }
  for (; k < end; k++) h = Math.imul(h ^ bytes[k]!, 0x01000193);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** What scoring needs of each case, worked out on its first line: sentence count, gold label, gold IDs. */
export class CaseFacts {
  readonly ids: CaseIdIndex;
  /** 0: not yet worked out; 1: ready; 2: a case the string path must score (it throws). */
  private readonly known: Uint8Array;
  readonly sentenceCount: Int32Array;
  readonly positive: Uint8Array;
  readonly gold: (readonly number[])[];

  constructor(private readonly slice: ScoringSlice) {
    this.ids = new CaseIdIndex(slice.byId, compiledCaseIds(slice));
    const n = slice.cases.length;
    this.known = new Uint8Array(n);
    this.sentenceCount = new Int32Array(n);
    this.positive = new Uint8Array(n);
    this.gold = new Array<readonly number[]>(n);
  }

  /** Whether case `index` can be scored here (as scoreCase does it, without throwing). */
  ready(index: number): boolean {
    if (this.known[index] === 0) {
      const c = this.slice.cases[index]!;
      const n = c.sentenceCount;
      const positive = pythonTruthy(c.label);
      const gold = n >= 1 ? checkedGold(c.gold, n, positive) : "sentence_count_not_positive";
      if (typeof gold === "string") this.known[index] = 2;
      else {
        this.known[index] = 1;
        this.sentenceCount[index] = n;
        this.positive[index] = positive ? 1 : 0;
        this.gold[index] = gold;
      }
    }
    return this.known[index] === 1;
  }
}

const factsOf = new WeakMap<ScoringSlice, CaseFacts>();
/** The slice of the last line and its facts: a run scores one slice, so the WeakMap is seldom asked. */
let lastSlice: ScoringSlice | undefined;
let lastFacts: CaseFacts | undefined;

export function factsFor(slice: ScoringSlice): CaseFacts {
  if (slice === lastSlice) return lastFacts!;
  let facts = factsOf.get(slice);
  if (facts === undefined) factsOf.set(slice, (facts = new CaseFacts(slice)));
  lastSlice = slice;
  lastFacts = facts;
  return facts;
}

/**
 * Whether a completion ending in "\n</answer>" is read as written under `rule` (no end marker of
 * the rule can end there, so `completionAsWritten` returns it unchanged).
 */
function answerEndIsFinal(rule: CompletionEndRule | undefined): boolean {
  if (rule?.keepSpecialTokens) return true;
  const end = "\n</answer>";
  const markers = rule?.specialTokens?.length ? [...END_MARKERS, ...rule.specialTokens] : END_MARKERS;
  return !markers.some((m) => m.length > 0 && (m.length <= end.length ? end.endsWith(m) : m.endsWith(end)));
}
const finalEnd = new WeakMap<object, boolean>();
/** The rule of the last completion and `answerEndIsFinal` of it (the WeakMap's key for no rule is finalEnd itself). */
let lastRule: object | undefined;
let lastFinal = false;

export function answerEndIsFinalFor(completionEnd: CompletionEndRule | undefined): boolean {
  const rule = completionEnd ?? finalEnd;
  if (rule === lastRule) return lastFinal;
  let final = finalEnd.get(rule);
  if (final === undefined) finalEnd.set(rule, (final = answerEndIsFinal(completionEnd)));
  lastRule = rule;
  lastFinal = final;
  return final;
}

/** A judgment string as `coerceJudgment` reads it (ASCII, at most five characters); undefined to leave it to the string path. */
function judgmentOfBytes(bytes: Uint8Array, start: number, end: number): boolean | undefined {
  const length = end - start;
  if (length < 2 || length > 5) return undefined;
  let folded = 0;
  for (let k = start; k < end; k++) {
    let c = bytes[k]!;
    if (c >= 0x80) return undefined;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    folded = folded * 128 + c;
  }
  if (folded === YES || folded === TRUE_WORD) return true;
  if (folded === NO || folded === FALSE_WORD) return false;
  return undefined;
}
const packed = (word: string): number => [...word].reduce((n, ch) => n * 128 + ch.charCodeAt(0), 0);
const YES = packed("yes");
const NO = packed("no");
const TRUE_WORD = packed("true");
const FALSE_WORD = packed("false");

/** Raw evidence as read from the line, before the checks: evidence[0 .. count), doubles as JSON gives them. */
let rawEvidence: Float64Array = new Float64Array(64);
let rawCount = 0;

/**
 * The `Evidence:` list of a completion in the plain form (`[]`, `[3, 12]`: integers of at most
 * nine digits without a leading zero, joined by ", ") into rawEvidence; false for any other text.
 */
function plainIdsOfBytes(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start < 2 || bytes[start] !== 0x5b || bytes[end - 1] !== 0x5d) return false;
  rawCount = 0;
  if (end - start === 2) return true;
  let at = start + 1;
  for (;;) {
    const from = at;
    let value = 0;
    while (at < end && bytes[at]! >= 0x30 && bytes[at]! <= 0x39) value = value * 10 + (bytes[at++]! - 0x30);
    const digits = at - from;
    if (digits === 0 || digits > 9 || (digits > 1 && bytes[from] === 0x30)) return false;
    if (rawCount === rawEvidence.length) rawEvidence = grown(rawEvidence);
    rawEvidence[rawCount++] = value;
    if (at === end - 1) return true;
    if (bytes[at] !== 0x2c || bytes[at + 1] !== 0x20) return false;
    at += 2;
  }
}

function grown(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Where the layout's think text lies (set by `completionLayout`), and the judgment it gives. */
let thinkStart = 0;
let thinkEnd = 0;
let layoutJudgment = false;

/** A view of the decoded completion's buffer, made again only when the buffer is (it grows seldom). */
let decodedView = new DataView(new ArrayBuffer(0));

function decodedWords(decoded: Uint8Array): DataView {
  if (decodedView.buffer !== decoded.buffer) decodedView = new DataView(decoded.buffer as ArrayBuffer, decoded.byteOffset, decoded.byteLength);
  return decodedView;
}

/**
 * `parseCompletionLayout` on the decoded completion's UTF-8 bytes [0, end) (a completion written
 * with `\/`, which its raw bytes may hide a tag behind), with a judgment `coerceJudgment` accepts
 * and a plain evidence list: sets thinkStart/thinkEnd, layoutJudgment and rawEvidence. False for
 * anything else (the string path then says why). scanned.newlines and scanned.tags say where its
 * newlines and `<`s are. Tags, prefixes and digits are ASCII, so a byte position orders as a
 * character position does, and a marker, a prefix or a tag matches the bytes where it matches the
 * text. `view` reads the bytes a word at a time.
 */
function decodedLayout(bytes: Uint8Array, view: DataView, end: number): boolean {
  const { newlines, newlineCount: count, tags, tagCount } = scanned;
  const m = DECODED_MARKERS;
  const nl = m.newline;
  // The text ends in a newline and `</answer>`: its last newline.
  const answerEnd = end - m.answerClose.length;
  if (count === 0 || newlines[count - 1] !== answerEnd || !byteWordsAt(view, answerEnd, end, m.answerClose)) return false;
  // It starts with `<think>` and a newline (its first, as `<think>` holds none).
  if (!byteWordsAt(view, 0, end, m.thinkOpen)) return false;
  // The middle marker begins at a newline: the first newline (from the opening one on) it begins at.
  let k = 0;
  while (k < count && !byteWordsAt(view, newlines[k]!, end, m.thinkToAnswer)) k++;
  if (k === count) return false;
  const middle = newlines[k]!;
  const answerStart = middle + m.thinkToAnswer.length;
  if (answerStart > answerEnd) return false;
  // Exactly two answer lines: the marker holds newlines k .. k + 2, so k + 3 ends the judgment line
  // and k + 4 must be the last.
  if (k + 4 !== count - 1) return false;
  const places0 = 0;
  const places1 = middle + nl;
  const places2 = answerStart - ANSWER_TAG_LENGTH - nl;
  const places3 = answerEnd + nl;
  for (let t = 0; t < tagCount; t++) {
    const at = tags[t]!;
    if (at === places0 || at === places1 || at === places2 || at === places3) continue;
    if (tagAt(bytes, view, at, end)) return false;
  }
  const newline = newlines[k + 3]!;
  if (!byteWordsAt(view, middle, end, m.thinkToJudgment) || !byteWordsAt(view, newline, end, m.judgmentToEvidence)) return false;
  return answerValues(bytes, 0, m, middle, newline, answerEnd);
}

/**
 * The answer of a completion in the layout (its prefixes checked), its think text after `<think>`
 * at `start` and before the middle marker at `middle`, its judgment line ending in the newline at
 * `newline` and its evidence line in the one at `answerEnd`: sets thinkStart/thinkEnd,
 * layoutJudgment and rawEvidence; false when the judgment is not one `coerceJudgment` accepts or
 * the evidence list is not plain.
 */
function answerValues(bytes: Uint8Array, start: number, m: LayoutMarkers, middle: number, newline: number, answerEnd: number): boolean {
  const judgment = judgmentOfBytes(bytes, middle + m.thinkToJudgment.length, newline);
  if (judgment === undefined || !plainIdsOfBytes(bytes, newline + m.judgmentToEvidence.length, answerEnd)) return false;
  layoutJudgment = judgment;
  thinkStart = start + m.thinkOpen.length;
  thinkEnd = Math.max(thinkStart, middle);
  return true;
}

/**
 * Scores the line `block[start .. end)` (newline and final "\r" excluded) into `byteOutcome`, as
 * the string path would; false when the line is not the byte path's (nothing is then set). The
 * block must be valid UTF-8. `line`: the line's number in the block, when its lines were read
 * ahead (scanLinesAhead).
 */
export function scoreLineBytes(
  slice: ScoringSlice,
  completionEnd: CompletionEndRule | undefined,
  block: Buffer,
  start: number,
  end: number,
  line = -1,
): boolean {
  if (!(line >= 0 ? scanLineAt(block, start, end, line) : scanLineBytes(block, start, end))) return false;
  const s = scanned;
  if (s.caseId.start < 0) return false;
  const facts = factsFor(slice);
  const out = byteOutcome;
  const caseIndex = facts.ids.find(block, blockWords(), s.caseId.start, s.caseId.end);
  out.caseIndex = caseIndex;
  out.runKind = s.runKind;
  out.runValue = s.runValue;
  if (caseIndex < 0) {
    out.orphanId = block.toString("utf8", s.caseId.start, s.caseId.end);
    return true;
  }
  if (!facts.ready(caseIndex)) return false;
  // The prediction's judgment, evidence and reasoning text (bytes[reasonStart .. reasonEnd)).
  let judgment: boolean;
  let evidence: Float64Array;
  let bytes: Uint8Array = block;
  let reasonStart = 0;
  let reasonEnd = 0;
  if (s.judgmentKind !== JUDGMENT_ABSENT) {
    if (s.judgmentKind === JUDGMENT_STRING) {
      const coerced = judgmentOfBytes(block, s.judgment.start, s.judgment.end);
      if (coerced === undefined) return false;
      judgment = coerced;
    } else judgment = s.judgmentKind === JUDGMENT_TRUE;
    evidence = s.evidence;
    rawCount = Math.max(0, s.evidenceCount);
    if (s.reasoning.start >= 0) {
      reasonStart = s.reasoning.start;
      reasonEnd = s.reasoning.end;
    }
  } else if (s.completion.start >= 0) {
    if (!answerEndIsFinalFor(completionEnd)) return false;
    if (s.completionSlash) {
      const length = decodeCompletion(block);
      bytes = s.decoded;
      if (!decodedLayout(bytes, decodedWords(bytes), length)) return false;
    } else {
      // The scan read the raw bytes in the layout (io/dump-bytes.ts) where they hold it.
      const { start: at, end: quote } = s.completion;
      if (s.layoutMiddle < 0 || !answerValues(block, at, RAW_MARKERS, s.layoutMiddle, s.layoutNewline, quote - RAW_MARKERS.answerClose.length)) return false;
    }
    judgment = layoutJudgment;
    // The list as plainIdsOfBytes left it: a longer one than it had room for is in a new array.
    evidence = rawEvidence;
    reasonStart = thinkStart;
    reasonEnd = thinkEnd;
  } else return false;
  scoreChecked(facts, caseIndex, judgment, evidence, bytes, reasonStart, reasonEnd);
  if (out.runKind === RUN_STRING) out.runKey = block.toString("utf8", s.run.start, s.run.end);
  return true;
}

/** `checkDocumentContradiction` and the rewards of `scoreCase`, on the raw evidence and the reasoning's bytes. */
function scoreChecked(
  facts: CaseFacts,
  caseIndex: number,
  judgment: boolean,
  evidence: Float64Array,
  bytes: Uint8Array,
  reasonStart: number,
  reasonEnd: number,
): void {
  const out = byteOutcome;
  const n = facts.sentenceCount[caseIndex]!;
  const expectedPositive = facts.positive[caseIndex] === 1;
  const gold = facts.gold[caseIndex]!;
  let reason: DocumentContradictionErrorCode | null = null;
  let count = 0;
  if (rawCount > 0) {
    let low = Infinity;
    let high = -Infinity;
    for (let k = 0; k < rawCount; k++) {
      const id = evidence[k]!;
      if (id < low) low = id;
      if (id > high) high = id;
    }
    if (low < 1 || high > n) reason = "evidence_out_of_document";
  }
  if (reason === null) {
    if (judgment && rawCount === 0) reason = "positive_without_evidence";
    else if (!judgment && rawCount > 0) reason = "negative_with_evidence";
  }
  let referenceCount = 0;
  if (reason === null && reasonEnd > reasonStart) {
    // The line's own bytes: their references were recorded as the line was scanned, or summed up
    // by the block's WebAssembly pass (its only text holding references is this one).
    const references =
      bytes === scanned.decoded
        ? reasoningReferenceCountOfBytes(bytes, reasonStart, reasonEnd, n)
        : scanned.referenceSummary !== -1
          ? summarizedReferenceCount(scanned.referenceSummary, scanned.referenceHighest, n)
          : recordedReferenceCount(reasonStart, reasonEnd, n);
    if (typeof references === "string") reason = references;
    else referenceCount = references;
  }
  if (reason === null) count = sortedUnique(evidence);
  out.reason = reason;
  // A format-invalid prediction scores as a negative judgment without evidence or references.
  const judged = reason === null && count > 0;
  let matched = 0;
  for (let i = 0, j = 0; i < count && j < gold.length; ) {
    const x = out.evidence[i]!;
    const y = gold[j]!;
    if (x === y) {
      matched++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  out.judgment = judged;
  out.evidenceCount = count;
  out.matched = matched;
  out.coverage = reason === null ? referenceCount / n : 0;
  out.rewardAccuracy = accuracyReward(expectedPositive, judged === expectedPositive, matched, gold.length);
}

/** Above this many IDs a list is sorted with the typed array's sort rather than by insertion. */
const INSERTION_SORT_MAX = 16;

/** The first rawCount entries of `raw` (integers inside the document) sorted and de-duplicated into byteOutcome.evidence; their count. */
function sortedUnique(raw: Float64Array): number {
  if (byteOutcome.evidence.length < rawCount) byteOutcome.evidence = new Int32Array(2 * rawCount);
  const ids = byteOutcome.evidence;
  let count = 0;
  if (rawCount > INSERTION_SORT_MAX) {
    for (let k = 0; k < rawCount; k++) ids[k] = raw[k]!;
    ids.subarray(0, rawCount).sort();
    for (let k = 0; k < rawCount; k++) if (count === 0 || ids[k] !== ids[count - 1]) ids[count++] = ids[k]!;
    return count;
  }
  for (let k = 0; k < rawCount; k++) {
    const id = raw[k]!;
    let at = count;
    while (at > 0 && ids[at - 1]! > id) at--;
    if (at > 0 && ids[at - 1] === id) continue;
    for (let m = count; m > at; m--) ids[m] = ids[m - 1]!;
    ids[at] = id;
    count++;
  }
  return count;
}
