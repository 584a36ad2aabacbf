// Builds cases.jsonl bytes directly in one reusable buffer: pre-encoded fragments, numbers written
// as ASCII. A million lines assembled as template strings cost three times more, most of it in
// flattening the string ropes and re-encoding them to UTF-8.

const encoder = new TextEncoder();

/** UTF-8 bytes of a fragment, encoded once and copied many times. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

const SHORT_FRAGMENT = 24;
const FLOAT_CACHE_CAP = 1 << 14;
const floatCache = new Map<number, Uint8Array>();
/** Size of the last buffer taken in this thread: the first guess for a sink without a buffer. */
let lastTaken = 1 << 16;

/** The most bytes `writeNumber` writes: `String` of a double is at most 24 characters ("-1.2345678901234567e-308"). */
export const NUMBER_BYTES = 25;

/** Writes `value` as `String(value)` renders it into buf[at …] (room for NUMBER_BYTES), returning the end. */
export function writeNumber(buf: Uint8Array, at: number, value: number): number {
  if (value >= 0 && value < 2147483648 && (value | 0) === value) return writeUint(buf, at, value);
  // Fractions repeat a lot (k / sentence count), and rendering a double is the costly part.
  let rendered = floatCache.get(value);
  if (rendered === undefined) {
    if (floatCache.size >= FLOAT_CACHE_CAP) floatCache.clear();
    rendered = utf8(String(value));
    floatCache.set(value, rendered);
  }
  for (let k = 0; k < rendered.length; k++) buf[at++] = rendered[k]!;
  return at;
}

/** Writes a non-negative 31-bit integer in decimal into buf[at …], returning the end. */
export function writeUint(buf: Uint8Array, at: number, value: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = (v / 10) | 0) digits++;
  const end = at + digits;
  let v = value;
  let k = end;
  do {
    const q = (v / 10) | 0;
    buf[--k] = 0x30 + v - q * 10;
    v = q;
  } while (v > 0);
  return end;
}

/**
 * A growable byte buffer. It writes into a buffer it is given when there is one: fresh memory
 * costs page faults on every byte, which on a million-line cases.jsonl was as much as building the
 * lines, so written buffers come back for the next range (see RangePayload.spare).
 */
export class ByteSink {
  private buf: Uint8Array;
  private used = 0;

  constructor(spare?: Uint8Array) {
    this.buf = spare ?? new Uint8Array(lastTaken + (lastTaken >> 2));
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.used + extra));
    grown.set(this.buf.subarray(0, this.used));
    this.buf = grown;
  }

  /** Copies pre-encoded bytes (a byte loop for short fragments: cheaper than the call to `set`). */
  bytes(fragment: Uint8Array): void {
    this.bytesOf(fragment, 0, fragment.length);
  }

  /** Copies `data[from … to)`, as `bytes` would its subarray (without making one). */
  bytesOf(data: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.reserve(n);
    const buf = this.buf;
    let at = this.used;
    if (n > SHORT_FRAGMENT) {
      buf.set(data.subarray(from, to), at);
      at += n;
    } else {
      for (let k = from; k < to; k++) buf[at++] = data[k]!;
    }
    this.used = at;
  }

  /**
   * Text in UTF-8, as `utf8` encodes it: byte by byte while it is ASCII, the rest through the
   * encoder (a case line per case encoded into a new array, then copied, cost twice the building
   * of the line).
   */
  text(text: string): void {
    const n = text.length;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.reserve(3 * n);
    const buf = this.buf;
    let at = this.used;
    for (let k = 0; k < n; k++) {
      const code = text.charCodeAt(k);
      if (code >= 0x80) {
        at += encoder.encodeInto(text.slice(k), buf.subarray(at)).written;
        break;
      }
      buf[at++] = code;
    }
    this.used = at;
  }

  /** Text known to be ASCII (number renderings, fixed words). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = this.buf;
    let at = this.used;
    for (let k = 0; k < n; k++) buf[at++] = text.charCodeAt(k);
    this.used = at;
  }

  /** A number exactly as `String(value)` (and hence JSON.stringify) renders it. */
  number(value: number): void {
    this.reserve(NUMBER_BYTES);
    this.used = writeNumber(this.buf, this.used, value);
  }

  /**
   * The buffer with room for `extra` more bytes from `length` on, for a caller that writes a whole
   * line in one go (one check per line, not per fragment) and then calls `advance`.
   */
  room(extra: number): Uint8Array {
    this.reserve(extra);
    return this.buf;
  }

  /** Marks the bytes up to `end` (written through `room`'s buffer) as written. */
  advance(end: number): void {
    this.used = end;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.used;
  }

  /** The bytes written: a view of the sink's buffer, which now belongs to the caller. */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.used);
    lastTaken = this.used;
    this.buf = new Uint8Array(0);
    this.used = 0;
    return out;
  }
}
