// The duplicate-id check of `mari classify` over a JSONL file in about 4.2 bytes per id: the ids are
// not kept. The file's lines are counted first, so one open-addressing table is made at its final
// size (at most 95% full) and never grows. Each id seen is one slot holding the line it was read
// from and, in the slot's remaining bits, a fingerprint of the id (32 bits a slot while the line
// needs at most 22 bits, so a 12-bit fingerprint at 1M lines; 53 bits, as a double, beyond). The
// slot's position comes from a second, independent hash. When an id's fingerprint matches a slot's,
// the earlier line is read back from the file and its id compared, so the answer is exact, never
// probabilistic: a re-read for ids that differ happens about once per 2^fingerprint-bits slots
// probed (≈ 2,400 times over 1M ids), and every true duplicate costs one re-read of at most 64
// lines. Inputs that cannot be read twice (stdin) use the CompactStringSet instead.
import { closeSync, openSync, readSync } from "node:fs";
import { InputError } from "./errors.js";

/** Writes the two 32-bit hashes of a string's UTF-16 code units to `out[0]` (fingerprint) and `out[1]` (table). */
export type IdHash = (id: string, out: Uint32Array) => void;

/** FNV-1a over the code units in two lanes of different offset bases, each finished by murmur3's mixer. */
export const hashId: IdHash = (id, out) => {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  out[0] = mix(a);
  out[1] = mix(b);
};

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The table is made this much larger than the ids it will hold: at most 95% full. Fuller tables probe
 * longer (and re-read more: twice as often as at 90%, about 0.05 s per million ids) for 5% less memory.
 */
const MAX_LOAD = 0.95;
/** The highest line number a slot holds. */
const MAX_LINE = 0xffffffff;
/** Up to this many bits of line number, a slot is 32 bits (leaving at least 10 for the fingerprint). */
const MAX_LINE_BITS_IN_32 = 22;

/**
 * Ids with the line each was first seen on, for at most `capacity` lines (numbered 1 to capacity).
 * `idAt(line)` must return the id read from that line (the set calls it only for lines it was given,
 * to compare on a fingerprint match).
 */
export class LineIdSet {
  /** Per slot: fingerprint × 2^lineBits + line; 0 marks an empty slot. */
  private readonly slots: Uint32Array | Float64Array;
  /** 2^lineBits: a slot's line is its value modulo this. */
  private readonly lineSpan: number;
  /** How far a 32-bit fingerprint is shifted right to keep the bits a slot has room for. */
  private readonly fingerprintShift: number;
  private readonly hashes = new Uint32Array(2);
  private total = 0;
  /** How many times an earlier id was read back (true duplicates included). */
  rereads = 0;

  constructor(
    private readonly idAt: (line: number) => string,
    private readonly capacity: number,
    private readonly hash: IdHash = hashId,
  ) {
    if (!(capacity >= 0 && capacity <= MAX_LINE)) throw new InputError(`more than ${MAX_LINE} lines are not supported by the duplicate-id check`);
    const lineBits = Math.max(1, Math.ceil(Math.log2(capacity + 1)));
    this.lineSpan = 2 ** lineBits;
    const size = Math.max(16, Math.ceil(capacity / MAX_LOAD) + 1);
    if (lineBits <= MAX_LINE_BITS_IN_32) {
      this.slots = new Uint32Array(size);
      this.fingerprintShift = lineBits;
    } else {
      this.slots = new Float64Array(size);
      this.fingerprintShift = Math.max(0, lineBits - 21);
    }
  }

  get size(): number {
    return this.total;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Adds `id`, read from `line`; false (and nothing added) when an earlier line had the same id. */
  add(id: string, line: number): boolean {
    if (!(line >= 1 && line <= this.capacity)) {
      throw new InputError(`line ${line}: the file changed while it was read (it had ${this.capacity} lines when counted)`);
    }
    this.hash(id, this.hashes);
    const base = (this.hashes[0]! >>> this.fingerprintShift) * this.lineSpan;
    const slots = this.slots;
    const size = slots.length;
    let slot = home(this.hashes[1]!, size);
    for (;;) {
      const value = slots[slot]!;
      if (value === 0) break;
      const seen = value - base;
      if (seen > 0 && seen < this.lineSpan) {
        this.rereads++;
        if (this.idAt(seen) === id) return false;
      }
      slot = slot + 1 === size ? 0 : slot + 1;
    }
    slots[slot] = base + line;
    this.total++;
    return true;
  }
}

/** The first slot for a hash in a table of `size` slots (any size: multiply and shift). */
function home(hash: number, size: number): number {
  return Math.floor((hash * size) / 0x100000000);
}

/** The number of lines of a file (a final line without "\n" counts), read in 64 KiB chunks. */
export function countLines(path: string): number {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 16);
    let lines = 0;
    let last = 0x0a;
    for (;;) {
      const length = readSync(fd, buffer, 0, buffer.length, null);
      if (length === 0) break;
      let at = buffer.indexOf(0x0a, 0);
      while (at !== -1 && at < length) {
        lines++;
        at = buffer.indexOf(0x0a, at + 1);
      }
      last = buffer[length - 1]!;
    }
    return last === 0x0a ? lines : lines + 1;
  } finally {
    closeSync(fd);
  }
}

/** Every this many lines, the byte offset of a line is kept, so one can be found again cheaply. */
const LINES_PER_MARK = 64;

/**
 * Reads lines of a file back by number: the byte offset of every 64th line is noted as the file is
 * read front to back (`note`), and `line(n)` reads from the nearest mark before line n.
 */
export class LineRereader {
  private marks: Float64Array;
  private fd: number | undefined;
  private buffer = Buffer.allocUnsafe(1 << 14);

  /** `lines`: how many lines the file has, when known (the marks are then made once, at their size). */
  constructor(
    private readonly path: string,
    lines = 0,
  ) {
    this.marks = new Float64Array(Math.max(1024, Math.ceil(lines / LINES_PER_MARK)));
  }

  /** Line `lineNo` (1-based) starts at byte `offset` of the file. Call for every line, in order. */
  note(lineNo: number, offset: number): void {
    if ((lineNo - 1) % LINES_PER_MARK !== 0) return;
    const mark = (lineNo - 1) / LINES_PER_MARK;
    if (mark >= this.marks.length) {
      const marks = new Float64Array(this.marks.length * 2);
      marks.set(this.marks);
      this.marks = marks;
    }
    this.marks[mark] = offset;
  }

  /** The bytes of line `lineNo` (without its "\n"), read from the file again. */
  line(lineNo: number): Buffer {
    this.fd ??= openSync(this.path, "r");
    const mark = Math.floor((lineNo - 1) / LINES_PER_MARK);
    let skip = lineNo - 1 - mark * LINES_PER_MARK;
    let position = this.marks[mark]!;
    for (;;) {
      const length = readSync(this.fd, this.buffer, 0, this.buffer.length, position);
      const atEnd = length < this.buffer.length;
      let start = 0;
      while (skip > 0) {
        const newline = this.buffer.indexOf(0x0a, start);
        if (newline === -1 || newline >= length) break;
        start = newline + 1;
        skip--;
      }
      if (skip === 0) {
        const end = this.buffer.indexOf(0x0a, start);
        if (end !== -1 && end < length) return Buffer.from(this.buffer.subarray(start, end));
        if (atEnd && start < length) return Buffer.from(this.buffer.subarray(start, length)); // the last line, unterminated
      }
      if (atEnd) throw new InputError(`${this.path}: the file changed while it was read (line ${lineNo} is no longer there)`);
      // The line runs past this read: read on from the last line start found, in a bigger buffer if none was.
      if (start === 0) this.buffer = Buffer.allocUnsafe(this.buffer.length * 2);
      position += start;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
