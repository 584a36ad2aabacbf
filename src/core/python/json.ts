// A JSON reader that keeps what Python's json.loads keeps and JSON.parse loses: whether a number
// was written as an int or a float (599 vs 599.0, which str() prints differently), big ints
// exactly, and the order of object keys (objects become Maps; a repeated key keeps its first
// position and its last value, like a dict). NaN and Infinity are rejected (not JSON).

import { PyFloat } from "./values.js";

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = "JsonSyntaxError";
  }
}

// Python's json module stops near its recursion limit (1000) too.
const MAX_DEPTH = 1000;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const PLAIN_STRING = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(message, this.i);
  }

  skipSpace(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      this.i++;
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (this.text.startsWith("true", this.i)) return this.literal(4, true);
    if (this.text.startsWith("false", this.i)) return this.literal(5, false);
    if (this.text.startsWith("null", this.i)) return this.literal(4, null);
    return this.number();
  }

  literal<T>(length: number, value: T): T {
    this.i += length;
    return value;
  }

  number(): unknown {
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail(this.i < this.text.length ? "unexpected character" : "unexpected end of JSON");
    this.i += match[0].length;
    if (match[1] !== undefined || match[2] !== undefined) return new PyFloat(Number(match[0]));
    const n = Number(match[0]);
    return Number.isSafeInteger(n) ? n : BigInt(match[0]);
  }

  string(): string {
    const t = this.text;
    this.i++; // opening quote
    // Most strings have no escape: up to the closing quote in one slice.
    for (let j = this.i; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === 0x22) {
        const plain = t.slice(this.i, j);
        this.i = j + 1;
        return plain;
      }
      if (c === 0x5c || c < 0x20) break;
    }
    let out = "";
    for (;;) {
      PLAIN_STRING.lastIndex = this.i;
      const run = PLAIN_STRING.exec(t)![0];
      out += run;
      this.i += run.length;
      const c = t[this.i];
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c !== "\\") this.fail(c === undefined ? "unterminated string" : "control character in string");
      const e = t[this.i + 1];
      if (e === "u") {
        const hex = t.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else if (e !== undefined && ESCAPES[e] !== undefined) {
        out += ESCAPES[e];
        this.i += 2;
      } else {
        this.fail("bad escape");
      }
    }
  }

  array(depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.i++];
      if (c === "]") return out;
      if (c !== ",") {
        this.i--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  object(depth: number): Map<string, unknown> {
    this.i++;
    const out = new Map<string, unknown>();
    this.skipSpace();
    if (this.text[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"') this.fail("expected a string key");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.i] !== ":") this.fail("expected ':'");
      this.i++;
      out.set(key, this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.i++];
      if (c === "}") return out;
      if (c !== ",") {
        this.i--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}

/** Parses one JSON text into the Python-faithful value model (throws JsonSyntaxError). */
export function parsePythonJson(text: string): unknown {
  const reader = new Reader(text);
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.i !== text.length) reader.fail("unexpected data after the JSON value");
  return value;
}

/**
 * The value as plain JSON-serialisable data: Maps become objects (a "__proto__" key stays a data
 * property), PyFloats numbers, big ints numbers when exact and decimal strings otherwise.
 */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") return BigInt(Number(value)) === value ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of value) {
      Object.defineProperty(out, key, { value: toPlainJson(member), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
