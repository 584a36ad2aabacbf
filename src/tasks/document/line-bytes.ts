// Builds cases.jsonl bytes directly in one reusable buffer: pre-encoded fragments, numbers written
// as ASCII. A million lines assembled as template strings cost three times more, most of it in
// flattening the string ropes and re-encoding them to UTF-8.

const encoder = new TextEncoder();

/** UTF-8 bytes of a fragment, encoded once and copied many times. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Pre-encoded bytes also held as little-endian 32-bit words (the last one padded with zeros), for
 * `putFragment` to copy four bytes a store: byte by byte, the fixed parts of a million run lines
 * were most of the time spent writing them.
 */
export interface Fragment {
  readonly bytes: Uint8Array;
  readonly words: Uint32Array;
}

/** A fragment's words run up to this many bytes past its end. */
export const FRAGMENT_SLACK = 3;

/** The Fragment of some bytes. */
export function fragmentOf(bytes: Uint8Array): Fragment {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  const words = new Uint32Array(padded.length / 4);
  for (let w = 0; w < words.length; w++) words[w] = view.getUint32(4 * w, true);
  return { bytes, words };
}

/**
 * Writes `f` at `at` of the buffer `view` covers, returning its end; up to FRAGMENT_SLACK bytes
 * past the end are written over (the caller has room for them, and writes the rest of the line
 * over them or leaves them past the bytes it keeps).
 */
export function putFragment(view: DataView, at: number, f: Fragment): number {
  const words = f.words;
  for (let w = 0, to = at; w < words.length; w++, to += 4) view.setUint32(to, words[w]!, true);
  return at + f.bytes.length;
}

const SHORT_FRAGMENT = 24;
const FLOAT_CACHE_CAP = 1 << 14;
const floatCache = new Map<number, Uint8Array>();
/** Size of the last buffer taken in this thread: the first guess for a sink without a buffer. */
let lastTaken = 1 << 16;

/** The most bytes `writeNumber` writes: `String` of a double is at most 24 characters ("-1.2345678901234567e-308"). */
export const NUMBER_BYTES = 25;

/** Whether `value` is a non-negative 31-bit integer, the numbers `writeUint` writes. */
export function isUint31(value: number): boolean {
  return value >= 0 && value < 2147483648 && (value | 0) === value;
}

/** Writes `value` as `String(value)` renders it into buf[at …] (room for NUMBER_BYTES), returning the end. */
export function writeNumber(buf: Uint8Array, at: number, value: number): number {
  // Small, so that it is inlined where it is called per number; the rest is out of line.
  return isUint31(value) ? writeUint(buf, at, value) : writeNonUint(buf, at, value);
}

/** writeNumber of a value that is not a 31-bit non-negative integer. */
function writeNonUint(buf: Uint8Array, at: number, value: number): number {
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

/**
 * `before`, a number as `writeNumber` renders it, then `after`, with the whole of it pre-encoded
 * for each fraction k / n of one n (k = 0 … n, as it is first met; a case's reference coverages are
 * its reference count over its sentence count): one Fragment copied, found by k, with no lookup by
 * value and no number rendered. Other values, and n = 0, are written piece by piece.
 */
export class FractionBytes {
  private readonly rendered: (Fragment | undefined)[] = [];
  private readonly before: Uint8Array;
  private readonly after: Uint8Array;

  constructor(
    readonly denominator: number,
    private readonly beforeText: string,
    private readonly afterText: string,
  ) {
    this.before = utf8(beforeText);
    this.after = utf8(afterText);
  }

  /** The most bytes `write` writes, FRAGMENT_SLACK included. */
  get most(): number {
    return this.before.length + NUMBER_BYTES + this.after.length + FRAGMENT_SLACK;
  }

  /** The bytes written for k / n (0 ≤ k ≤ n): `before`, the fraction as `String` renders it, `after`. */
  bytesOf(k: number): Uint8Array {
    return this.fragment(k).bytes;
  }

  private fragment(k: number): Fragment {
    let rendered = this.rendered[k];
    if (rendered === undefined) this.rendered[k] = rendered = fragmentOf(utf8(`${this.beforeText}${String(k / this.denominator)}${this.afterText}`));
    return rendered;
  }

  /**
   * The k with k / n exactly `value` (0 ≤ k ≤ n), whose bytes `bytesOf` gives; -1 for any other
   * value (n = 0 included): the same double as k / n renders the same.
   */
  numeratorOf(value: number): number {
    const n = this.denominator;
    const k = Math.round(value * n);
    return k >= 0 && k <= n && k / n === value ? k : -1;
  }

  /** Writes `before`, `value`, `after` at `at` of the buffer `buf` is and `view` covers (room for `most`), returning the end. */
  write(buf: Uint8Array, view: DataView, at: number, value: number): number {
    const k = this.numeratorOf(value);
    if (k >= 0) return putFragment(view, at, this.fragment(k));
    const { before, after } = this;
    for (let b = 0; b < before.length; b++) buf[at++] = before[b]!;
    at = writeNumber(buf, at, value);
    for (let b = 0; b < after.length; b++) buf[at++] = after[b]!;
    return at;
  }
}

/** "00" … "99": two digits a division (a dump's line numbers have six or seven). */
const DIGIT_PAIRS = utf8(Array.from({ length: 100 }, (_, k) => String(k).padStart(2, "0")).join(""));

/** Decimal digits of a non-negative 31-bit integer. */
function decimalDigits(value: number): number {
  if (value < 100_000) return value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 10_000 ? 4 : 5;
  return value < 1_000_000 ? 6 : value < 10_000_000 ? 7 : value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10;
}

/** Writes a non-negative 31-bit integer in decimal into buf[at …], returning the end. */
export function writeUint(buf: Uint8Array, at: number, value: number): number {
  const end = at + decimalDigits(value);
  let v = value;
  let k = end;
  while (v >= 100) {
    const q = (v / 100) | 0;
    const pair = 2 * (v - q * 100);
    buf[--k] = DIGIT_PAIRS[pair + 1]!;
    buf[--k] = DIGIT_PAIRS[pair]!;
    v = q;
  }
  if (v >= 10) {
    buf[--k] = DIGIT_PAIRS[2 * v + 1]!;
    buf[--k] = DIGIT_PAIRS[2 * v]!;
  } else buf[--k] = 0x30 + v;
  return end;
}

/**
 * A growable byte buffer. It writes into a buffer it is given when there is one: fresh memory
 * costs page faults on every byte, which on a million-line cases.jsonl was as much as building the
 * lines, so written buffers come back for the next range (see RangePayload.spare).
 */
export class ByteSink {
  private buf: Uint8Array;
  /** A DataView of `buf`, for putFragment (made when `buf` changes). */
  private words: DataView;
  private used = 0;

  constructor(spare?: Uint8Array) {
    this.buf = spare ?? new Uint8Array(lastTaken + (lastTaken >> 2));
    this.words = viewOf(this.buf);
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.used + extra));
    grown.set(this.buf.subarray(0, this.used));
    this.buf = grown;
    this.words = viewOf(grown);
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

  /** The DataView of `room`'s buffer (valid until the next call to `room` or another write). */
  get view(): DataView {
    return this.words;
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
    this.words = viewOf(this.buf);
    this.used = 0;
    return out;
  }
}

/** A DataView of exactly the bytes of `bytes`. */
function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
