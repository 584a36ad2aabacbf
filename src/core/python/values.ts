// The value model shared by model outputs and structured materials, with Python's str(), repr()
// and truthiness. JSON loses the difference between 599 and 599.0 that Python's str() shows, so a
// float that came from a literal such as `599.0` is carried as a PyFloat (see python-json.ts);
// plain JavaScript numbers are ints when integral and floats otherwise. A Map is a dict whose
// insertion order is kept exactly (JavaScript objects move integer-like keys to the front).

import { pythonTruthy } from "./truthiness.js";
import { pythonStringRepr } from "./text.js";
import { PYTHON_WHITESPACE } from "./whitespace.js";

/** A Python float whose JSON literal had a fraction or exponent (599.0 stays "599.0"). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A number as Python sees it: a JavaScript number (an int when integral) or an explicit float. */
export type PyNumber = number | PyFloat;

export function numericValue(value: PyNumber): number {
  return value instanceof PyFloat ? value.value : value;
}

export type PyMapping = ReadonlyMap<string, unknown> | { readonly [key: string]: unknown };

export function isMapping(value: unknown): value is PyMapping {
  if (value instanceof Map) return true;
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof PyFloat) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `key in mapping` / `mapping[key]` without ever reading a prototype property. */
export function mappingHas(mapping: PyMapping, key: string): boolean {
  return mapping instanceof Map ? mapping.has(key) : Object.hasOwn(mapping, key);
}

export function mappingGet(mapping: PyMapping, key: string): unknown {
  if (mapping instanceof Map) return mapping.get(key);
  return Object.hasOwn(mapping, key) ? (mapping as Record<string, unknown>)[key] : undefined;
}

export function mappingEntries(mapping: PyMapping): [string, unknown][] {
  return mapping instanceof Map ? [...mapping.entries()] : Object.entries(mapping);
}

/** Python's bool(value). */
export function pyTruthy(value: unknown): boolean {
  if (value instanceof PyFloat) return value.value !== 0;
  return pythonTruthy(value);
}

/** Python's repr() of a float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa!.replace(".", "");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${body}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1) || "0";
  return `${sign}${whole}.${fraction}`;
}

function pythonIntText(x: number): string {
  return Math.abs(x) < 1e21 ? String(x === 0 ? 0 : x) : BigInt(x).toString();
}

/** Python's str(value). */
export function pythonStr(value: unknown): string {
  return typeof value === "string" ? value : pythonRepr(value);
}

/** Python's repr(value), as str() shows values nested in lists and dicts. */
export function pythonRepr(value: unknown): string {
  if (typeof value === "string") return pythonStringRepr(value);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? pythonIntText(value) : pythonFloatRepr(value);
  if (value instanceof PyFloat) return pythonFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (isMapping(value)) {
    return `{${mappingEntries(value)
      .map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

const WHITESPACE = new Set(PYTHON_WHITESPACE);
const DIGIT_RUN_START = new Map<number, number>();

/** The value of a Unicode decimal digit (category Nd): Nd runs are aligned blocks of 0–9. */
function decimalDigitValue(ch: string): number | null {
  if (ch >= "0" && ch <= "9") return ch.charCodeAt(0) - 48;
  if (!/^\p{Nd}$/u.test(ch)) return null;
  const cp = ch.codePointAt(0)!;
  let start = DIGIT_RUN_START.get(cp);
  if (start === undefined) {
    start = cp;
    while (/^\p{Nd}$/u.test(String.fromCodePoint(start - 1))) start--;
    DIGIT_RUN_START.set(cp, start);
  }
  return (cp - start) % 10;
}

/**
 * Python's `int(text)` for a str (base 10): surrounding whitespace, a sign, Unicode decimal digits
 * and single underscores between digits are accepted ("+1", " 01", "1_0" → 10, "３" → 3).
 * Returns null where Python raises ValueError.
 */
export function parsePythonInt(text: string): bigint | null {
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && WHITESPACE.has(chars[start]!)) start++;
  while (end > start && WHITESPACE.has(chars[end - 1]!)) end--;
  let negative = false;
  if (start < end && (chars[start] === "+" || chars[start] === "-")) {
    negative = chars[start] === "-";
    start++;
  }
  if (start === end) return null;
  let digits = "";
  for (let i = start; i < end; i++) {
    const ch = chars[i]!;
    if (ch === "_") {
      // Only between two digits.
      if (i === start || i === end - 1 || chars[i + 1] === "_") return null;
      continue;
    }
    const value = decimalDigitValue(ch);
    if (value === null) return null;
    digits += String(value);
  }
  const magnitude = BigInt(digits);
  return negative ? -magnitude : magnitude;
}
