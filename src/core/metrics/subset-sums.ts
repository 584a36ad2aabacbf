// Sums of packed counter rows over every subset of small blocks of items (the "four Russians"
// trick), for sums Σ_{item in S} row(item) over sets S that change many times while the rows stay
// fixed: the bootstrap's drawn signature groups (bootstrap.ts). Items are cut into blocks of at
// most five; every non-empty subset of a block has its row sum stored, so a set adds one stored
// row per block it meets instead of one row per item. Rows hold integer counters packed into
// float64 fields (the caller keeps every sum below 2^53 and every field below its bound), so all
// sums are exact and their order changes no bit.

/** Items per block at most: 31 stored rows for 5 items. */
const MOST_BLOCK_ITEMS = 5;

/** The rows of the last table built in this thread (see the constructor). */
let scratch = new Float64Array(0);

export class SubsetSums {
  /** Stored rows per block: 2^blockItems − 1 (the empty subset has none). */
  readonly span: number;
  readonly rows: Float64Array;

  constructor(
    readonly blocks: number,
    readonly blockItems: number,
    readonly slots: number,
  ) {
    this.span = 2 ** blockItems - 1;
    const size = blocks * this.span * slots;
    // Rows are taken from one buffer per thread, grown as needed: an eval builds two tables of up
    // to tens of megabytes, and fresh pages cost more (page faults) than clearing used ones. A
    // table is only used within one synchronous call, so two never share the buffer at once.
    if (scratch.length < size) scratch = new Float64Array(size);
    this.rows = scratch.subarray(0, size);
    this.rows.fill(0);
  }

  /**
   * The most items per block (at most five, at least one) for which `blocksOf(items per block)`
   * blocks of `slots` float64 rows stay within `entries`.
   */
  static blockItemsWithin(blocksOf: (blockItems: number) => number, slots: number, entries: number): number {
    let k = MOST_BLOCK_ITEMS;
    while (k > 1 && blocksOf(k) * (2 ** k - 1) * slots > entries) k--;
    return k;
  }

  /** Offset in `rows` of the row of subset `mask` (non-zero) of `block`. */
  at(block: number, mask: number): number {
    return (block * this.span + mask - 1) * this.slots;
  }

  /**
   * Fills the single items' rows: item i's row (at `rowOf(i)`) packs, run by run, whether run r's
   * bitset (`bits`, `words` words per run, bit i) holds i, as field r % perSlot (of `field`) of
   * slot ⌊r / perSlot⌋. Each row is written in one pass, and the bitsets it reads (runs · words
   * words) stay in cache: writing run by run scattered every run's bits over the whole table.
   */
  fillSingles(bits: Uint32Array, words: number, runs: number, items: number, field: number, perSlot: number, rowOf: (item: number) => number): void {
    const { rows, slots } = this;
    for (let i = 0; i < items; i++) {
      const row = rowOf(i);
      const w = i >>> 5;
      const bit = 1 << (i & 31);
      for (let q = 0; q < slots; q++) {
        let packed = 0;
        for (let r = q * perSlot, end = Math.min(runs, r + perSlot), scale = 1; r < end; r++, scale *= field) if (bits[r * words + w]! & bit) packed += scale;
        rows[row + q] = packed;
      }
    }
  }

  /** Fills every subset's row once the single items' rows (masks 1 << j) are filled. */
  completeSubsets(): void {
    const { rows, slots, span } = this;
    for (let block = 0; block < this.blocks; block++) {
      // A subset's row is its lowest item's plus the rest's (a smaller mask, filled before it).
      for (let mask = 3; mask <= span; mask++) {
        const low = mask & -mask;
        if (low === mask) continue;
        const to = this.at(block, mask);
        const a = this.at(block, low);
        const b = this.at(block, mask - low);
        for (let q = 0; q < slots; q++) rows[to + q] = rows[a + q]! + rows[b + q]!;
      }
    }
  }

  /**
   * out[q] = Σ rows[picked[k] + q] over the `count` row offsets picked, for q = from … to − 1.
   * Eight rows are added per pass over `out`: the loads, not the additions, are the cost.
   */
  sum(picked: Int32Array, count: number, out: Float64Array, from: number, to: number): void {
    const rows = this.rows;
    out.fill(0, from, to);
    let k = 0;
    for (; k + 8 <= count; k += 8) {
      const a = picked[k]!;
      const b = picked[k + 1]!;
      const c = picked[k + 2]!;
      const d = picked[k + 3]!;
      const e = picked[k + 4]!;
      const f = picked[k + 5]!;
      const g = picked[k + 6]!;
      const h = picked[k + 7]!;
      for (let q = from; q < to; q++)
        out[q]! += rows[a + q]! + rows[b + q]! + rows[c + q]! + rows[d + q]! + rows[e + q]! + rows[f + q]! + rows[g + q]! + rows[h + q]!;
    }
    for (; k < count; k++) {
      const a = picked[k]!;
      for (let q = from; q < to; q++) out[q]! += rows[a + q]!;
    }
  }
}
