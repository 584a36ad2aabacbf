// The duplicate-id check of `mari classify` over a JSONL file in a few bytes per id: the ids are not
// kept. Each id seen is an 8-byte slot (a 32-bit fingerprint and the line it was read from) in one
// of 64 open-addressing tables, chosen by a second, independent 32-bit hash: 38 bits of hash in all.
// When an id's fingerprint matches a slot's, the earlier line is read back from the file and its
// id compared exactly, so the answer is exact, never probabilistic; with 38 bits of hash a re-read
// for ids that differ happens about n²/2³⁹ times over n ids (twice per million), and every true
// duplicate costs one re-read of at most 64 lines. Inputs that cannot be read twice (stdin) use the
// CompactStringSet instead.
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

const TABLES = 64;
const FIRST_SLOTS = 1024;
/** A table grows by a quarter once more than this share of its slots is taken. */
const MAX_LOAD = 0.85;
/** The highest line number a slot holds (0 marks an empty slot). */
const MAX_LINE = 0xffffffff;
/** Address space reserved per table (untouched pages cost no memory): 2²⁷ slots. */
const MAX_TABLE_BYTES = 2 ** 30;

/** A resizable ArrayBuffer (ES2024, in Node 20; the TypeScript lib here predates it). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

/** A resizable buffer and the Uint32Array that tracks its length (both replaced when it cannot grow in place). */
interface Table {
  buffer: ResizableArrayBuffer;
  slots: Uint32Array;
}

/**
 * A table of `bytes`, able to grow in place to `reserve` bytes. Resizable: a table grows in place,
 * so a long run leaves no trail of outgrown arrays (V8 frees those only at a full collection, which
 * a run that promotes almost nothing rarely has).
 */
function table(bytes: number, reserve = MAX_TABLE_BYTES): Table {
  const buffer = new ResizableArrayBuffer(bytes, { maxByteLength: Math.max(bytes, reserve) });
  return { buffer, slots: new Uint32Array(buffer) };
}

/**
 * The 65 tables, each reserving MAX_TABLE_BYTES of address space (65 GiB, no memory). Under an
 * address-space limit (`ulimit -v`) the reservation fails: the tables then reserve only what they
 * hold and are copied into a larger buffer when they grow.
 */
function tables(count: number, bytes: number): { tables: Table[]; reserve: number } {
  try {
    return { tables: Array.from({ length: count }, () => table(bytes)), reserve: MAX_TABLE_BYTES };
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return { tables: Array.from({ length: count }, () => table(bytes, 0)), reserve: 0 };
  }
}

/**
 * Ids with the line each was first seen on. `idAt(line)` must return the id read from that line
 * (the set calls it only for lines it was given, to compare on a fingerprint match).
 */
export class LineIdSet {
  /** Per table: [fingerprint, line] pairs. */
  private readonly tables: Table[];
  private readonly counts = new Int32Array(TABLES);
  /** Where a table's entries wait while it grows (the size of the largest table grown so far). */
  private readonly scratch: Table;
  /** Address space each table reserves to grow in place (0: grown by copying, see `tables`). */
  private readonly reserve: number;
  private readonly hashes = new Uint32Array(2);
  private total = 0;
  /** How many times an earlier id was read back (true duplicates included). */
  rereads = 0;

  constructor(
    private readonly idAt: (line: number) => string,
    private readonly hash: IdHash = hashId,
  ) {
    const made = tables(TABLES + 1, 8 * FIRST_SLOTS);
    this.scratch = made.tables.pop()!;
    this.tables = made.tables;
    this.reserve = made.reserve;
  }

  get size(): number {
    return this.total;
  }

  /** Bytes held by the tables. */
  get bytes(): number {
    return this.tables.reduce((sum, t) => sum + t.buffer.byteLength, 0);
  }

  /** Adds `id`, read from `line`; false (and nothing added) when an earlier line had the same id. */
  add(id: string, line: number): boolean {
    if (line < 1 || line > MAX_LINE) throw new InputError(`line ${line}: more than ${MAX_LINE} lines are not supported by the duplicate-id check`);
    this.hash(id, this.hashes);
    const fingerprint = this.hashes[0]!;
    const t = this.hashes[1]! & (TABLES - 1);
    const table = this.tables[t]!.slots;
    const slots = table.length >>> 1;
    let slot = home(fingerprint, slots);
    for (;;) {
      const seen = table[2 * slot + 1]!;
      if (seen === 0) break;
      if (table[2 * slot] === fingerprint) {
        this.rereads++;
        if (this.idAt(seen) === id) return false;
      }
      slot = slot + 1 === slots ? 0 : slot + 1;
    }
    table[2 * slot] = fingerprint;
    table[2 * slot + 1] = line;
    this.total++;
    if (++this.counts[t]! > slots * MAX_LOAD) this.grow(this.tables[t]!);
    return true;
  }

  /** A quarter more slots, the entries placed again (in the same buffer, by way of the scratch one). */
  private grow(t: Table): void {
    const old = t.slots.length;
    const slots = Math.ceil((old >>> 1) * 1.25);
    if (8 * slots > MAX_TABLE_BYTES) throw new InputError(`more ids than the duplicate-id check holds (${TABLES} × ${MAX_TABLE_BYTES / 8} slots)`);
    if (this.scratch.buffer.byteLength < 4 * old) grow(this.scratch, 4 * old, this.reserve);
    const moved = this.scratch.slots;
    moved.set(t.slots);
    grow(t, 8 * slots, this.reserve);
    const table = t.slots;
    table.fill(0, 0, old);
    for (let s = 0; s < old; s += 2) {
      const line = moved[s + 1]!;
      if (line === 0) continue;
      let slot = home(moved[s]!, slots);
      while (table[2 * slot + 1] !== 0) slot = slot + 1 === slots ? 0 : slot + 1;
      table[2 * slot] = moved[s]!;
      table[2 * slot + 1] = line;
    }
  }
}

/** Makes `t` `bytes` long: in place within its reservation, else as a new buffer (contents not kept). */
function grow(t: Table, bytes: number, reserve: number): void {
  if (bytes <= t.buffer.maxByteLength) {
    t.buffer.resize(bytes);
  } else {
    const bigger = table(bytes, reserve);
    t.buffer = bigger.buffer;
    t.slots = bigger.slots;
  }
}

/** The first slot for a fingerprint in a table of `slots` slots (any size: multiply and shift). */
function home(fingerprint: number, slots: number): number {
  return Math.floor((fingerprint * slots) / 0x100000000);
}

/** Every this many lines, the byte offset of a line is kept, so one can be found again cheaply. */
const LINES_PER_MARK = 64;

/**
 * Reads lines of a file back by number: the byte offset of every 64th line is noted as the file is
 * read front to back (`note`), and `line(n)` reads from the nearest mark before line n.
 */
export class LineRereader {
  private marks = new Float64Array(1024);
  private fd: number | undefined;
  private buffer = Buffer.allocUnsafe(1 << 14);

  constructor(private readonly path: string) {}

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
