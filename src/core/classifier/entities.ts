// Entity extraction (docs/classifier.md): capitalised spans of up to four words, read
// from the original-case text. Entities make tokens value-like and decide `sharedEntity`.
import { CALENDAR_WORDS, STOPWORDS } from "./word-lists.js";
import { isGoSpace, simpleLower } from "./text.js";

/** Only the first 12 distinct entities count, for the shared-entity test and for marking values. */
const MAX_ENTITIES = 12;
const MAX_SPAN_WORDS = 4;

const NON_ASCII_KEPT = /^[\p{L}\p{Nd}\u2019]$/u;
const HAS_LETTER = /\p{L}/u;
const STARTS_UPPER = /^\p{Lu}/u;
const UPPER_OR_DIGIT = /[\p{Lu}\p{Nd}]/u;

interface Span {
  words: string[];
  initial: boolean;
  /** The trimmed original-case form of the span's first field. */
  firstRaw: string;
}

/** A code point the field trim keeps: a letter, a decimal digit, `'`, `’` or `-`. */
function isKept(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x27 || code === 0x2d;
  }
  return NON_ASCII_KEPT.test(String.fromCodePoint(code));
}

/** Where Go's `strings.TrimFunc` with "not kept" would start the field `text[from, to)` (`to` if nothing is kept). */
function trimmedStart(text: string, from: number, to: number): number {
  let start = from;
  while (start < to) {
    const code = text.codePointAt(start)!;
    if (isKept(code)) break;
    start += code > 0xffff ? 2 : 1;
  }
  return start;
}

/** Where the trimmed field ends (`start` < the result when something is kept). */
function trimmedEnd(text: string, start: number, to: number): number {
  let end = to;
  while (end > start) {
    let width = 1;
    let code = text.charCodeAt(end - 1);
    if (code >= 0xdc00 && code <= 0xdfff && end - 2 >= start && isHighSurrogate(text.charCodeAt(end - 2))) {
      width = 2;
      code = text.codePointAt(end - 2)!;
    }
    if (isKept(code)) break;
    end -= width;
  }
  return end;
}

/** Whether the trimmed-off tail `text[from, to)` contains `.` `!` `?` `;` or `:`. */
function tailEndsSentence(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3b || c === 0x3a) return true;
  }
  return false;
}

/** Whether `text[from, to)` contains `]`. */
function hasClosingBracket(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x5d) return true;
  return false;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether the code point at `text[at]` is uppercase (Lu); ASCII answered without a regex. */
function startsUpperAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return code >= 0x41 && code <= 0x5a;
  return STARTS_UPPER.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Lower-cased, curly apostrophe straightened, one `'s` and then one `'` removed from the end. */
function normalizeEntityWord(trimmed: string): string {
  let word = simpleLower(trimmed).replaceAll("\u2019", "'");
  if (word.endsWith("'s")) word = word.slice(0, -2);
  if (word.endsWith("'")) word = word.slice(0, -1);
  return word;
}

function isStopwordLike(word: string): boolean {
  if (STOPWORDS.has(word)) return true;
  const apostrophe = word.indexOf("'");
  return apostrophe > 0 && STOPWORDS.has(word.slice(0, apostrophe));
}

function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `iPhone`, `LGBTQ`, `Qwen3`: an uppercase letter or a digit after the first code point. */
function isSelfEvident(raw: string): boolean {
  const first = raw.codePointAt(0)!;
  return UPPER_OR_DIGIT.test(raw.slice(first > 0xffff ? 2 : 1));
}

function isCalendarWord(word: string): boolean {
  return CALENDAR_WORDS.has(word);
}

/**
 * The capitalised spans of `text`, read line by line ("\n") and field by field (Go's whitespace),
 * by index: a field is sliced out only when it starts with an uppercase letter.
 */
function collectSpans(text: string): Span[] {
  const spans: Span[] = [];
  let current: Span | null = null;
  const flush = (): void => {
    if (current !== null) {
      const n = current.words.length;
      if (n >= 1 && n <= MAX_SPAN_WORDS && !current.words.every(isCalendarWord)) spans.push(current);
      current = null;
    }
  };
  let atSentenceStart = true;
  let inBracket = false;
  /** One field, `text[from, to)`. */
  const field = (from: number, to: number): void => {
    // Bracketed scaffolding such as `[1]` is skipped; it does not change atSentenceStart.
    if (inBracket || text.charCodeAt(from) === 0x5b) {
      inBracket = !hasClosingBracket(text, from, to);
      flush();
      return;
    }
    const start = trimmedStart(text, from, to);
    if (start === to) {
      // Pure punctuation (a bare `—`): the whole field is the tail.
      const endsSentence = tailEndsSentence(text, from, to);
      flush();
      if (endsSentence) atSentenceStart = true;
      return;
    }
    const end = trimmedEnd(text, start, to);
    const endsSentence = tailEndsSentence(text, end, to);
    // The uppercase test comes first: it is cheap and rules out most words.
    const trimmed = startsUpperAt(text, start) ? text.slice(start, end) : "";
    const word = trimmed === "" ? "" : normalizeEntityWord(trimmed);
    const joins = word !== "" && !isStopwordLike(word) && HAS_LETTER.test(word) && codePointLength(word) >= 2;
    if (joins) {
      if (current === null) current = { words: [], initial: atSentenceStart, firstRaw: trimmed };
      current.words.push(word);
    } else {
      flush();
    }
    if (endsSentence) flush();
    atSentenceStart = endsSentence;
  };
  let fieldStart = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isGoSpace(code)) {
      if (fieldStart < 0) fieldStart = i;
      continue;
    }
    if (fieldStart >= 0) {
      field(fieldStart, i);
      fieldStart = -1;
    }
    if (code === 0x0a) {
      // A line ends: a span never runs over it, and the next line starts a sentence.
      flush();
      atSentenceStart = true;
      inBracket = false;
    }
  }
  if (fieldStart >= 0) field(fieldStart, text.length);
  flush();
  return spans;
}

/** Every word of the spans but the first of a span that starts a sentence. */
function midSentenceWords(spans: readonly Span[]): Set<string> {
  const words = new Set<string>();
  for (const span of spans) {
    for (let i = span.initial ? 1 : 0; i < span.words.length; i++) words.add(span.words[i]!);
  }
  return words;
}

/** The text's entity keys (words joined by single spaces), at most 12, in reading order. */
export function extractEntities(text: string): string[] {
  const spans = collectSpans(text);
  if (spans.length === 0) return [];
  // The words capitalised mid-sentence, gathered only if a lone sentence-initial word asks.
  let midSentence: Set<string> | null = null;
  const keys: string[] = [];
  for (const span of spans) {
    // A lone capitalised word at the start of a sentence is just capitalisation, unless the text
    // also capitalises it mid-sentence or its shape (iPhone, Qwen3) shows it is a name.
    if (span.initial && span.words.length === 1) {
      midSentence ??= midSentenceWords(spans);
      if (!midSentence.has(span.words[0]!) && !isSelfEvident(span.firstRaw)) continue;
    }
    const key = span.words.join(" ");
    if (keys.includes(key)) continue;
    keys.push(key);
    if (keys.length === MAX_ENTITIES) break;
  }
  return keys;
}
