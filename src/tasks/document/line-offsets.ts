// Where each dump line starts, recorded from the blocks as the dump pass reads them (only when an
// HTML report is asked for), so the case explorer can fetch the reasoning of the lines it shows by
// positional reads afterwards: no second pass over the dump, and no text kept for lines it never shows.
export class LineOffsets {
  // Each block's first line, where it starts in the dump and its lines' ends as its reader found
  // them (a copy): one copy per block rather than a loop over every line of the dump (a 1M-line
  // dump's offsets took 15 ms of the pass that way, mostly in filling and growing an array).
  private readonly blockFirst: number[] = [];
  private readonly blockStart: number[] = [];
  private readonly blockEnds: Int32Array[] = [];
  private count = 0;
  private end = 0;
  /** The block the last range was found in (the explorer asks for lines in order). */
  private lastBlock = 0;

  /**
   * A block of whole lines starting at line `firstLineNo` (1-based), `length` bytes long, whose
   * lines end at `lineEnds` (`LineEnds`, as its reader found them); blocks arrive in order.
   */
  add(firstLineNo: number, length: number, lineEnds: Int32Array): void {
    if (firstLineNo !== this.count + 1) throw new Error(`LineOffsets: block at line ${firstLineNo} after ${this.count} lines`);
    if (lineEnds.length > 0) {
      this.blockFirst.push(firstLineNo);
      this.blockStart.push(this.end);
      this.blockEnds.push(lineEnds.slice());
    }
    this.count += lineEnds.length;
    this.end += length;
  }

  /** Byte range [start, end) of line `lineNo` (newline included), or undefined past the end. */
  range(lineNo: number): [number, number] | undefined {
    if (lineNo < 1 || lineNo > this.count) return undefined;
    const b = this.blockOf(lineNo);
    const ends = this.blockEnds[b]!;
    const base = this.blockStart[b]!;
    // Line k of a block starts after line k − 1's newline; its range ends where the next line starts.
    const k = lineNo - this.blockFirst[b]!;
    const start = k === 0 ? base : base + ends[k - 1]! + 1;
    if (lineNo === this.count) return [start, this.end];
    return [start, k + 1 < ends.length ? base + ends[k]! + 1 : this.blockStart[b + 1]!];
  }

  /** The block holding line `lineNo` (one of the added lines). */
  private blockOf(lineNo: number): number {
    const first = this.blockFirst;
    let b = this.lastBlock;
    if (!(first[b]! <= lineNo && (b + 1 === first.length || lineNo < first[b + 1]!))) {
      // The last block starting at or before the line.
      let low = 0;
      let high = first.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (first[middle]! <= lineNo) low = middle;
        else high = middle - 1;
      }
      b = low;
    }
    this.lastBlock = b;
    return b;
  }
}
