// Nesting depth of parsed JSON. JSON.parse accepts any depth, but the recursive JSON.stringify
// (used to quote values in messages and to carry unknown fields through to cases.jsonl) overflows
// the stack near 10,000 levels. Every value read from an input is checked here, without
// recursion, and one nested deeper than MAX_JSON_DEPTH is rejected where it was read.
import { MAX_JSON_DEPTH } from "../core/limits.js";

/** True when `value` nests objects/arrays more than `limit` levels deep (a scalar is depth 0). */
export function exceedsDepth(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  // Every limit in use is this small: recursion then takes at most `limit` frames and, unlike the
  // explicit stack below, allocates nothing for the usual flat list or small object.
  if (limit <= MAX_JSON_DEPTH) return deeperThan(value, limit);
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current as object);
    for (const child of children) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Whether `value`, at level 1, has an object or array below level `limit`. */
function deeperThan(value: object, limit: number): boolean {
  if (limit < 1) return true;
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  for (let k = 0; k < children.length; k++) {
    const child = children[k];
    if (typeof child === "object" && child !== null && deeperThan(child, limit - 1)) return true;
  }
  return false;
}

/** The message every reader gives for an over-deep value. */
export const TOO_DEEP_MESSAGE = `malformed JSON: nested deeper than ${MAX_JSON_DEPTH} levels (the documented limit)`;

/** JSON.parse, then the depth check: an over-deep value throws a SyntaxError with TOO_DEEP_MESSAGE. */
export function parseBoundedJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (exceedsDepth(value)) throw new SyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels (the documented limit)`);
  return value;
}

/**
 * A dump line standing for a record too deep to carry (an eval-tool log's sample or result): its
 * `case_id` nests MAX_JSON_DEPTH levels inside the line, so the dump reader rejects it as
 * malformed_json with TOO_DEEP_MESSAGE, counted and located like any other line.
 */
export function tooDeepLine(): string {
  return `{"case_id":${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}}`;
}
