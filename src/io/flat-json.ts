// A JSON line that is one flat object of string values (`{"id":"p1","new":"…","old":"…"}`, the
// shape of a pair corpus), read without JSON.parse. Node 20's JSON.parse interns every string
// value of at most 10 characters: short unique ids (`u07#123456`, `p000123`) then each leave a
// string in V8's old generation and string table until its first full collection, about 32 bytes
// a line (docs/classifier.md, "Where the peak is reached"). Strings cut from the line here are
// ordinary young-generation strings, freed with the line. Anything else — a value that is not a
// string, a key `__proto__`, a raw control character, malformed text — returns undefined and the
// caller parses the line with JSON.parse, so every rule of that path (its errors included) stays
// in one place. Duplicate keys end as JSON.parse leaves them: the first key's position, the last
// value.
import type { JsonObject } from "./records.js";

/**
 * A raw control character: JSON refuses one inside a string, so a line with one (a tab between
 * tokens included, which would be allowed) is left to JSON.parse whole.
 */
const CONTROL = /[\x00-\x1f]/;

function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) at++;
    else return at;
  }
}

/** Whether the line being read has a backslash anywhere (then each string is checked for one). */
let hasBackslash = false;

/** Where the string opened by the quote before `start` closes, or -1. */
function closingQuote(text: string, start: number): number {
  if (!hasBackslash) return text.indexOf('"', start);
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c) i++; // the escaped character, a quote included, cannot end the string
  }
  return -1;
}

/** The string between the quotes at `start - 1` and `end`; undefined when an escape in it is bad. */
function stringBetween(text: string, start: number, end: number): string | undefined {
  if (!hasBackslash || text.lastIndexOf("\\", end) < start) return text.slice(start, end);
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The object JSON.parse would give for `text` when that is a flat object of strings; undefined for
 * any other line (then JSON.parse decides, rejections included).
 */
export function parseFlatStringObject(text: string): JsonObject | undefined {
  if (CONTROL.test(text)) return undefined;
  hasBackslash = text.includes("\\");
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return undefined;
  const record: JsonObject = {};
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return skipSpace(text, at + 1) === text.length ? record : undefined;
  for (;;) {
    if (text.charCodeAt(at) !== 0x22) return undefined;
    const keyEnd = closingQuote(text, at + 1);
    if (keyEnd < 0) return undefined;
    const key = stringBetween(text, at + 1, keyEnd);
    if (key === undefined || key === "__proto__") return undefined;
    at = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(at) !== 0x3a) return undefined;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) !== 0x22) return undefined;
    const valueEnd = closingQuote(text, at + 1);
    if (valueEnd < 0) return undefined;
    const value = stringBetween(text, at + 1, valueEnd);
    if (value === undefined) return undefined;
    record[key] = value;
    at = skipSpace(text, valueEnd + 1);
    const c = text.charCodeAt(at);
    if (c === 0x2c) at = skipSpace(text, at + 1);
    else if (c === 0x7d) return skipSpace(text, at + 1) === text.length ? record : undefined;
    else return undefined;
  }
}
