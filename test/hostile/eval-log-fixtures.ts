// The honest inspect_ai and promptfoo logs of the fourth round's tests (built by
// bench/lib/eval-log-fixtures.mjs, which the fuzz bench shares), cut from the ContraDoc slice.
import { DOC_SLICE, firstLines } from "./helpers.js";

export { inspectEvalBytes, inspectJsonLog, inspectMembers, promptfooJsonLog, promptfooResults } from "../../bench/lib/eval-log-fixtures.mjs";

export interface SliceCase {
  id: string;
  label: boolean;
}

/** The first `n` documents of the ContraDoc slice: their lines and their ids and labels. */
export function sliceCases(n: number): { lines: string[]; cases: SliceCase[] } {
  const lines = firstLines(DOC_SLICE, n);
  return { lines, cases: lines.map((l) => JSON.parse(l) as SliceCase) };
}

/** Where each central-directory entry of a zip starts. */
export function centralEntries(zip: Buffer): number[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const start = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  const at: number[] = [];
  let p = start;
  for (let i = 0; i < count; i++) {
    at.push(p);
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return at;
}
