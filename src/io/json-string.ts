// A JSON string token inside one line's text, for the scanners that read a line without JSON.parse
// (dump-scan.ts, flat-json.ts). Both first refuse a line holding a raw control character (JSON
// allows none inside a string) and note whether it has a backslash anywhere: a line without one
// needs no escape handling at all.

/** A raw control character anywhere in a line: such a line is left to JSON.parse whole. */
export const CONTROL = /[\x00-\x1f]/;

/**
 * The index of the quote closing the string whose content starts at `start`, or -1 when it does
 * not close. `escapes`: whether the line has a backslash anywhere.
 */
export function stringEnd(text: string, start: number, escapes: boolean): number {
  if (!escapes) return text.indexOf('"', start);
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c) i++; // the escaped character, a quote included, cannot end the string
  }
  return -1;
}

/** Whether the string content text[start, end) holds an escape. */
export function hasEscape(text: string, start: number, end: number, escapes: boolean): boolean {
  return escapes && text.lastIndexOf("\\", end) >= start;
}

/**
 * The value of the string whose content is text[start, end) (quotes at start - 1 and end); its
 * escapes are decoded by JSON.parse itself. Undefined when an escape is bad (the full parser then
 * reports it).
 */
export function stringValue(text: string, start: number, end: number, escapes: boolean): string | undefined {
  if (!hasEscape(text, start, end, escapes)) return text.slice(start, end);
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}
