// Nesting depth of parsed JSON. JSON.parse accepts any depth, but the recursive JSON.stringify
// (used to quote values in messages and to carry unknown fields through to cases.jsonl) overflows
// the stack near 10,000 levels. Every value read from an input is checked here, without
// recursion, and one nested deeper than MAX_JSON_DEPTH is rejected where it was read.
import { MAX_JSON_DEPTH } from "../core/limits.js";

/** True when `value` nests objects/arrays more than `limit` levels deep (a scalar is depth 0). */
export function exceedsDepth(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current as object);
    for (const child of children) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
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
