// The reference tests judgments and flags with Python's bool(), not a type check, so the port
// needs Python's notion of truthiness rather than JavaScript's.

/**
 * Python's `bool(value)` for the values a JSON reader or a library caller can produce.
 * Falsy: `false`, `0`, `-0`, `0n`, `""`, `null`, `undefined`, an empty array, an empty Map or Set,
 * and a plain object with no own keys. Everything else is truthy, including the string `"false"`
 * and `NaN` (Python's `bool(float("nan"))` is True, unlike JavaScript's).
 */
export function pythonTruthy(value: unknown): boolean {
  switch (typeof value) {
    case "boolean":
      return value;
    case "number":
      return value !== 0;
    case "bigint":
      return value !== 0n;
    case "string":
      return value.length > 0;
    case "undefined":
      return false;
    case "object":
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof Map || value instanceof Set) return value.size > 0;
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
        return Object.keys(value).length > 0;
      }
      return true;
    default:
      return true;
  }
}
