// Parses one request body for `mari serve`: strict UTF-8 and the dump's JSON reader (so that `2.0`
// as an evidence ID is a float here exactly as in a dump line).
import { isAscii, isUtf8 } from "node:buffer";
import { withFloatMarks } from "../io/dump.js";
import { parseJsonLine, type JsonObject } from "../io/records.js";
import { RequestError } from "./body.js";

/**
 * The body as text: strict UTF-8, a leading byte order mark dropped. Checked, then decoded, by
 * Node's own routines: a body of megabytes decodes in half the time a fatal TextDecoder takes, and
 * in a quarter of it when it is ASCII (Python's json, hence `requests`, escapes everything else).
 */
function bodyText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // ASCII is Latin-1: decoded as such, the bytes are copied without a second look.
  if (isAscii(buffer)) return buffer.toString("latin1");
  if (!isUtf8(buffer)) throw new RequestError(400, "invalid_utf8", "request body is not valid UTF-8");
  const text = buffer.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The body as a JSON object; RequestError 400 naming the problem otherwise. `check` sees the body
 * before its float tokens are marked (which costs memory in proportion to them), so a request with
 * too many items is refused before that work. `floats: false` skips the marking, for a body whose
 * numbers nobody reads as ids (OpenRLHF's: lists of text).
 */
export function parseBodyObject(bytes: Uint8Array, check?: (body: JsonObject) => void, floats = true): JsonObject {
  const text = bodyText(bytes);
  // No depth bound on the whole body: a too-deep item is that item's problem (score-items.ts), not the batch's.
  const parsed = parseJsonLine(text, Number.POSITIVE_INFINITY);
  if ("error" in parsed) {
    const { code, message } = parsed.error;
    if (code === "blank_line") throw new RequestError(400, "empty_body", "request body is empty; expected a JSON object");
    if (code === "not_an_object") throw new RequestError(400, code, "request body is not a JSON object");
    throw new RequestError(400, code, message);
  }
  check?.(parsed.record);
  return floats ? withFloatMarks(text, parsed.record) : parsed.record;
}

/** A required array field of the body. */
export function arrayField(body: JsonObject, name: string): unknown[] {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  if (value === undefined) throw new RequestError(400, "missing_field", `request body has no "${name}" field`);
  if (!Array.isArray(value)) throw new RequestError(400, "wrong_type", `"${name}" must be an array`);
  return value;
}
