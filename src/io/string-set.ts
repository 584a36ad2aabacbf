// A compact exact set of strings, for duplicate-id checks over millions of records (`mari
// classify`): a JavaScript Set<string> costs ≈ 60–80 bytes per short id; this keeps each id's UTF-16
// code units in one byte arena (LEB128 per code unit: one byte per ASCII character; injective, so
// lone surrogates are exact too), a 32-bit hash per id, and an open-addressing table of ids.
// A lookup compares bytes only when the hashes match, so membership is exact, never probabilistic.
// About 20 + 1.5 · 8 bytes per 20-character id.

export class CompactStringSet {
  private arena = new Uint8Array(1 << 16);
  private used = 0;
  private starts = new Int32Array(1 << 10);
  private hashes = new Uint32Array(1 << 10);
  /** Entry index + 1 per slot; 0 = empty. Size a power of two, at most half full. */
  private slots = new Int32Array(1 << 11);
  private count = 0;
  private scratch = new Uint8Array(256);

  get size(): number {
    return this.count;
  }

  /** Adds `s`; false when it was already there. */
  add(s: string): boolean {
    const length = this.encode(s);
    const bytes = this.scratch;
    let h = 0x811c9dc5;
    for (let k = 0; k < length; k++) h = Math.imul(h ^ bytes[k]!, 0x01000193);
    h >>>= 0;
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) break;
      if (this.hashes[entry - 1] === h && this.equals(entry - 1, length)) return false;
      slot = (slot + 1) & mask;
    }
    this.insert(h, length, slot);
    return true;
  }

  /** `s` as LEB128 code units into the scratch buffer; returns the byte length. */
  private encode(s: string): number {
    if (this.scratch.length < s.length * 3) this.scratch = new Uint8Array(s.length * 3);
    const out = this.scratch;
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      while (c >= 0x80) {
        out[n++] = (c & 0x7f) | 0x80;
        c >>>= 7;
      }
      out[n++] = c;
    }
    return n;
  }

  private equals(entry: number, length: number): boolean {
    const start = this.starts[entry]!;
    const end = entry + 1 < this.count ? this.starts[entry + 1]! : this.used;
    if (end - start !== length) return false;
    const a = this.arena;
    const b = this.scratch;
    for (let k = 0; k < length; k++) if (a[start + k] !== b[k]) return false;
    return true;
  }

  private insert(h: number, length: number, slot: number): void {
    if (this.used + length > this.arena.length) this.arena = grow(this.arena, this.used + length);
    if (this.count === this.starts.length) {
      this.starts = grow(this.starts, this.count + 1);
      this.hashes = grow(this.hashes, this.count + 1);
    }
    this.arena.set(this.scratch.subarray(0, length), this.used);
    this.starts[this.count] = this.used;
    this.hashes[this.count] = h;
    this.used += length;
    this.count++;
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let slot = this.hashes[e]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    this.slots = slots;
  }
}

function grow<T extends Uint8Array | Int32Array | Uint32Array>(array: T, needed: number): T {
  let size = array.length * 2;
  while (size < needed) size *= 2;
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}
