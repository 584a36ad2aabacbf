// Entity extraction (docs/classifier.md): capitalised spans of up to four words, read
// from the original-case text. Entities make tokens value-like and decide `sharedEntity`.
import { CALENDAR_WORDS, STOPWORDS } from "./word-lists.js";
import { simpleLower, splitFields } from "./text.js";

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

/** Where Go's `strings.TrimFunc` with "not kept" would start the field (its length if nothing is kept). */
function trimmedStart(field: string): number {
  let start = 0;
  while (start < field.length) {
    const code = field.codePointAt(start)!;
    if (isKept(code)) break;
    start += code > 0xffff ? 2 : 1;
  }
  return start;
}

/** Where the trimmed field ends (`start` < the result when something is kept). */
function trimmedEnd(field: string, start: number): number {
  let end = field.length;
  while (end > start) {
    let width = 1;
    let code = field.charCodeAt(end - 1);
    if (code >= 0xdc00 && code <= 0xdfff && end - 2 >= start && isHighSurrogate(field.charCodeAt(end - 2))) {
      width = 2;
      code = field.codePointAt(end - 2)!;
    }
    if (isKept(code)) break;
    end -= width;
  }
  return end;
}

/** Whether the trimmed-off tail `field[from..]` contains `.` `!` `?` `;` or `:`. */
function tailEndsSentence(field: string, from: number): boolean {
  for (let i = from; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3b || c === 0x3a) return true;
  }
  return false;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether the first code point is uppercase (Lu); ASCII answered without a regex. */
function startsUpper(word: string): boolean {
  const code = word.charCodeAt(0);
  if (code < 0x80) return code >= 0x41 && code <= 0x5a;
  return STARTS_UPPER.test(word);
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

function collectSpans(text: string): Span[] {
  const spans: Span[] = [];
  let current: Span | null = null;
  const flush = (): void => {
    if (current !== null) {
      const n = current.words.length;
      if (n >= 1 && n <= MAX_SPAN_WORDS && !current.words.every((w) => CALENDAR_WORDS.has(w))) spans.push(current);
      current = null;
    }
  };
  for (const line of text.split("\n")) {
    let atSentenceStart = true;
    let inBracket = false;
    for (const field of splitFields(line)) {
      // Bracketed scaffolding such as `[1]` is skipped; it does not change atSentenceStart.
      if (inBracket || field.startsWith("[")) {
        inBracket = !field.includes("]");
        flush();
        continue;
      }
      const start = trimmedStart(field);
      if (start === field.length) {
        // Pure punctuation (a bare `—`): the whole field is the tail.
        const endsSentence = tailEndsSentence(field, 0);
        flush();
        if (endsSentence) atSentenceStart = true;
        continue;
      }
      const end = trimmedEnd(field, start);
      const trimmed = start === 0 && end === field.length ? field : field.slice(start, end);
      const endsSentence = tailEndsSentence(field, end);
      // The uppercase test comes first: it is cheap and rules out most words.
      const word = startsUpper(trimmed) ? normalizeEntityWord(trimmed) : "";
      const joins = word !== "" && !isStopwordLike(word) && HAS_LETTER.test(word) && codePointLength(word) >= 2;
      if (joins) {
        if (current === null) current = { words: [], initial: atSentenceStart, firstRaw: trimmed };
        current.words.push(word);
      } else {
        flush();
      }
      if (endsSentence) flush();
      atSentenceStart = endsSentence;
    }
    flush();
  }
  flush();
  return spans;
}

/** The text's entity keys (words joined by single spaces), at most 12, in reading order. */
export function extractEntities(text: string): string[] {
  const spans = collectSpans(text);
  if (spans.length === 0) return [];
  const midSentence = new Set<string>();
  for (const span of spans) {
    for (let i = span.initial ? 1 : 0; i < span.words.length; i++) midSentence.add(span.words[i]!);
  }
  const keys: string[] = [];
  for (const span of spans) {
    // A lone capitalised word at the start of a sentence is just capitalisation, unless the text
    // also capitalises it mid-sentence or its shape (iPhone, Qwen3) shows it is a name.
    if (span.initial && span.words.length === 1 && !midSentence.has(span.words[0]!) && !isSelfEvident(span.firstRaw)) {
      continue;
    }
    const key = span.words.join(" ");
    if (keys.includes(key)) continue;
    keys.push(key);
    if (keys.length === MAX_ENTITIES) break;
  }
  return keys;
}
