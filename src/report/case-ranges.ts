// Where each case's lines are in a document eval's cases.jsonl, noted while the file is read once
// (by the paired side reader of `mari diff`), so that the case explorer can read back the few cases
// it shows by positional reads instead of a second pass over the file. A case's lines are one byte
// segment (its case line and run lines, or its previous-layout lines); a file where some case's
// lines are not contiguous is marked `scattered`, and is then read whole as before.
import { open } from "node:fs/promises";
import { forEachLine } from "../io/lines.js";
import { type CaseItem, DocumentCasesDecoder } from "./document-cases.js";

export class CaseRanges {
  /** Per segment: its case id, first byte, end byte, first line number and case_index (NaN when its lines disagree). */
  readonly ids: string[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly firstLines: number[] = [];
  readonly caseIndices: number[] = [];
  private readonly slotOf = new Map<string, number>();
  /** Some case's lines are in more than one segment: the file must be read whole. */
  scattered = false;
  /** The sparse layout's runs line (line 1): its end byte, 0 when the file has none. */
  runsLineEnd = 0;
  private current = -1;

  /** The line `[start, end)` (file bytes), numbered `lineNo`, belongs to case `id` (its case_index `index`). */
  note(id: string, index: unknown, start: number, end: number, lineNo: number): void {
    const value = typeof index === "number" ? index : Number.NaN;
    let slot = this.current;
    if (slot < 0 || this.ids[slot] !== id) {
      if (this.slotOf.has(id)) {
        this.scattered = true;
        return;
      }
      slot = this.current = this.ids.length;
      this.slotOf.set(id, slot);
      this.ids.push(id);
      this.starts.push(start);
      this.firstLines.push(lineNo);
      this.caseIndices.push(value);
      this.ends.push(end);
      return;
    }
    this.ends[slot] = end;
    if (this.caseIndices[slot] !== value) this.caseIndices[slot] = Number.NaN;
  }

  /** The segment of a case id, if it has one. */
  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }
}

/**
 * The items of the given segments of a cases.jsonl (in file order), as readDocumentCases gives them
 * for those cases' lines: each segment decoded on its own after the runs line (sparse layout), its
 * case's absent runs given at its end.
 */
export async function readCaseSegments(casesPath: string, ranges: CaseRanges, slots: readonly number[], visit: (item: CaseItem) => void): Promise<void> {
  const ordered = [...slots].sort((a, b) => ranges.starts[a]! - ranges.starts[b]!);
  if (ordered.length === 0) return;
  const file = await open(casesPath, "r");
  try {
    const read = async (start: number, end: number): Promise<Buffer> => {
      const buffer = Buffer.alloc(end - start);
      let done = 0;
      while (done < buffer.length) {
        const { bytesRead } = await file.read(buffer, done, buffer.length - done, start + done);
        if (bytesRead === 0) throw new Error(`${casesPath} changed while it was read (shorter than before)`);
        done += bytesRead;
      }
      return buffer;
    };
    const runsLine = ranges.runsLineEnd > 0 ? await read(0, ranges.runsLineEnd) : null;
    for (const slot of ordered) {
      const decoder = new DocumentCasesDecoder();
      const decode = (lineNo: number, text: string | null): void => decoder.decode(lineNo, text, visit);
      if (runsLine !== null) forEachLine(runsLine, 1, decode);
      forEachLine(await read(ranges.starts[slot]!, ranges.ends[slot]!), ranges.firstLines[slot]!, decode);
      decoder.finish(visit);
    }
  } finally {
    await file.close();
  }
}
