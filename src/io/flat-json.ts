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
import { CONTROL, stringEnd, stringValue } from "./json-string.js";
import type { JsonObject } from "./records.js";

/** Spaces between tokens (the other JSON whitespace is a control character: such a line is not read here). */
function skipSpace(text: string, at: number): number {
  while (text.charCodeAt(at) === 0x20) at++;
  return at;
}

/**
 * The object JSON.parse would give for `text` when that is a flat object of strings; undefined for
 * any other line (then JSON.parse decides, rejections included).
 */
export function parseFlatStringObject(text: string): JsonObject | undefined {
  if (CONTROL.test(text)) return undefined;
  const hasBackslash = text.includes("\\");
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return undefined;
  const record: JsonObject = {};
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return skipSpace(text, at + 1) === text.length ? record : undefined;
  for (;;) {
    if (text.charCodeAt(at) !== 0x22) return undefined;
    const keyEnd = stringEnd(text, at + 1, hasBackslash);
    if (keyEnd < 0) return undefined;
    const key = stringValue(text, at + 1, keyEnd, hasBackslash);
    if (key === undefined || key === "__proto__") return undefined;
    at = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(at) !== 0x3a) return undefined;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) !== 0x22) return undefined;
    const valueEnd = stringEnd(text, at + 1, hasBackslash);
    if (valueEnd < 0) return undefined;
    const value = stringValue(text, at + 1, valueEnd, hasBackslash);
    if (value === undefined) return undefined;
    record[key] = value;
    at = skipSpace(text, valueEnd + 1);
    const c = text.charCodeAt(at);
    if (c === 0x2c) at = skipSpace(text, at + 1);
    else if (c === 0x7d) return skipSpace(text, at + 1) === text.length ? record : undefined;
    else return undefined;
  }
}
