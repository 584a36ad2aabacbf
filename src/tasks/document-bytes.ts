// Builds cases.jsonl bytes directly in one reusable buffer: pre-encoded fragments, numbers written
// as ASCII. A million lines assembled as template strings cost three times more, most of it in
// flattening the string ropes and re-encoding them to UTF-8.

const encoder = new TextEncoder();

/** UTF-8 bytes of a fragment, encoded once and copied many times. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * A growable byte buffer shared by every sink of a thread (one range is built at a time), so large
 * ranges leave no trail of dead ArrayBuffers behind: V8 frees those lazily, and on a million-line
 * run they drove peak RSS past 900 MB.
 */
let shared = new Uint8Array(1 << 22);

const SHORT_FRAGMENT = 24;
const FLOAT_CACHE_CAP = 1 << 14;
const floatCache = new Map<number, Uint8Array>();

export class ByteSink {
  private used = 0;

  private reserve(extra: number): void {
    if (this.used + extra <= shared.length) return;
    const grown = new Uint8Array(Math.max(shared.length * 2, this.used + extra));
    grown.set(shared.subarray(0, this.used));
    shared = grown;
  }

  /** Copies pre-encoded bytes (a byte loop for short fragments: cheaper than the call to `set`). */
  bytes(fragment: Uint8Array): void {
    const n = fragment.length;
    this.reserve(n);
    const buf = shared;
    let at = this.used;
    if (n > SHORT_FRAGMENT) {
      buf.set(fragment, at);
      at += n;
    } else {
      for (let k = 0; k < n; k++) buf[at++] = fragment[k]!;
    }
    this.used = at;
  }

  /** Text known to be ASCII (number renderings, fixed words). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = shared;
    let at = this.used;
    for (let k = 0; k < n; k++) buf[at++] = text.charCodeAt(k);
    this.used = at;
  }

  /** A number exactly as `String(value)` (and hence JSON.stringify) renders it. */
  number(value: number): void {
    if (value >= 0 && value < 2147483648 && (value | 0) === value) {
      this.uint(value);
      return;
    }
    // Fractions repeat a lot (k / sentence count), and rendering a double is the costly part.
    let rendered = floatCache.get(value);
    if (rendered === undefined) {
      if (floatCache.size >= FLOAT_CACHE_CAP) floatCache.clear();
      rendered = utf8(String(value));
      floatCache.set(value, rendered);
    }
    this.bytes(rendered);
  }

  /** A non-negative 31-bit integer in decimal. */
  private uint(value: number): void {
    let digits = 1;
    for (let v = value; v >= 10; v = (v / 10) | 0) digits++;
    this.reserve(digits);
    const buf = shared;
    let at = this.used + digits;
    this.used = at;
    let v = value;
    do {
      const q = (v / 10) | 0;
      buf[--at] = 0x30 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /** A copy of the bytes written, in its own ArrayBuffer; the shared buffer is free again. */
  take(): Uint8Array {
    const out = shared.slice(0, this.used);
    this.used = 0;
    return out;
  }
}
