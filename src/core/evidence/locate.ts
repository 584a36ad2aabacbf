// The reference's default `locate(material, locator)` (docs/evidence.md): selects the part of
// a material a locator points at, failing with the Python exception the reference would raise.
// Index and key errors keep Python's str() of the exception, which reports quote in details.

import { codePointLength, sliceCodePoints } from "../python/text.js";
import { isMapping, mappingGet, mappingHas, numericValue, parsePythonInt, pythonRepr, pythonStr, PyFloat } from "../python/values.js";
import type { Locator } from "./refs.js";

/** Python's exception classes that a locator may raise; `message` is Python's str(exception). */
export type LocateErrorKind = "IndexError" | "KeyError" | "TypeError" | "ValueError" | "NotImplementedError";

export class LocateError extends Error {
  constructor(
    readonly kind: LocateErrorKind,
    message: string,
  ) {
    super(message);
    this.name = kind;
  }
}

/** `KeyError(key)`: str() shows the key's repr, e.g. 'plan'. */
export function keyError(key: unknown): LocateError {
  return new LocateError("KeyError", pythonRepr(key));
}

/** What a caller-supplied locate function looks like (the reference's `locate=` argument). */
export type LocateFunction = (material: unknown, locator: Locator | null) => unknown;

const MAX_INDEX = 2n ** 63n - 1n;

function isPythonInt(value: unknown): value is number | bigint {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

function typeName(value: unknown): string {
  if (value instanceof PyFloat || typeof value === "number") return "float";
  if (typeof value === "string") return "str";
  return value === null || value === undefined ? "NoneType" : typeof value;
}

/** Python `sequence[index]` for a list or a str (negative indices count from the end). */
function indexSequence(sequence: readonly unknown[] | string, index: unknown): unknown {
  const what = typeof sequence === "string" ? "string" : "list";
  if (!isPythonInt(index)) {
    throw new LocateError(
      "TypeError",
      typeof sequence === "string"
        ? `string indices must be integers, not '${typeName(index)}'`
        : `list indices must be integers or slices, not ${typeName(index)}`,
    );
  }
  const i = BigInt(index);
  if (i > MAX_INDEX || i < -MAX_INDEX - 1n) throw new LocateError("IndexError", "cannot fit 'int' into an index-sized integer");
  const items = typeof sequence === "string" ? Array.from(sequence) : sequence;
  const resolved = i < 0n ? i + BigInt(items.length) : i;
  if (resolved < 0n || resolved >= BigInt(items.length)) throw new LocateError("IndexError", `${what} index out of range`);
  return items[Number(resolved)];
}

function pointerTokens(pointer: string): string[] {
  // "~1" → "/" first, then "~0" → "~".
  return pointer
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function resolvePointer(material: unknown, pointer: string): unknown {
  if (pointer === "") return material;
  let current = material;
  for (const token of pointerTokens(pointer)) {
    if (isMapping(current)) {
      if (!mappingHas(current, token)) throw keyError(token);
      current = mappingGet(current, token);
    } else if (Array.isArray(current)) {
      const index = parsePythonInt(token);
      if (index === null) throw new LocateError("ValueError", `invalid literal for int() with base 10: ${pythonRepr(token)}`);
      current = indexSequence(current, index);
    } else {
      throw keyError(token);
    }
  }
  return current;
}

function isSequence(value: unknown): value is readonly unknown[] | string {
  return Array.isArray(value) || typeof value === "string";
}

/** The reference's default locator. Page and media locators need a caller's locate function. */
export function defaultLocate(material: unknown, locator: Locator | null): unknown {
  if (locator === null) return material;
  if (locator.type === "TextSpan" && typeof material === "string") {
    const { start, end } = locator;
    if (numericValue(end) > codePointLength(material)) throw new LocateError("IndexError", pythonStr(end));
    if (!isPythonInt(start) || !isPythonInt(end)) {
      throw new LocateError("TypeError", "slice indices must be integers or None or have an __index__ method");
    }
    return sliceCodePoints(material, Number(start), Number(end));
  }
  if (locator.type === "JsonPointer") return resolvePointer(material, locator.pointer);
  if (locator.type === "RecordField" && isMapping(material)) {
    if (!mappingHas(material, locator.record_id)) throw keyError(locator.record_id);
    const record = mappingGet(material, locator.record_id);
    if (!isMapping(record)) throw new LocateError("TypeError", "record is not a mapping");
    if (!mappingHas(record, locator.field)) throw keyError(locator.field);
    return mappingGet(record, locator.field);
  }
  if (locator.type === "TableCell" && isSequence(material)) {
    const row = indexSequence(material, locator.row);
    if (!Array.isArray(row)) throw new LocateError("TypeError", "table row is not a sequence");
    return indexSequence(row, locator.column);
  }
  if (locator.type === "PageRegion" || locator.type === "MediaTimeRange") {
    throw new LocateError("NotImplementedError", locator.type);
  }
  throw new LocateError("TypeError", locator.type);
}
