// Where each dump line starts, recorded from the blocks as the dump pass reads them (only when an
// HTML report is asked for), so the case explorer can fetch the reasoning of the lines it shows by
// positional reads afterwards: no second pass over the dump, and no text kept for lines it never shows.
export class LineOffsets {
  private starts = new Float64Array(1024);
  private count = 0;
  private end = 0;

  /**
   * A block of whole lines starting at line `firstLineNo` (1-based), `length` bytes long, whose
   * lines end at `lineEnds` (`LineEnds`, as its reader found them); blocks arrive in order.
   */
  add(firstLineNo: number, length: number, lineEnds: Int32Array): void {
    if (firstLineNo !== this.count + 1) throw new Error(`LineOffsets: block at line ${firstLineNo} after ${this.count} lines`);
    // Line k starts after line k − 1's newline.
    for (let k = 0; k < lineEnds.length; k++) this.push(this.end + (k === 0 ? 0 : lineEnds[k - 1]! + 1));
    this.end += length;
  }

  private push(offset: number): void {
    if (this.count === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.count++] = offset;
  }

  /** Byte range [start, end) of line `lineNo` (newline included), or undefined past the end. */
  range(lineNo: number): [number, number] | undefined {
    if (lineNo < 1 || lineNo > this.count) return undefined;
    return [this.starts[lineNo - 1]!, lineNo < this.count ? this.starts[lineNo]! : this.end];
  }
}
