// The lines of a prediction dump, whatever file holds them: a JSONL file as it is, or a Parquet
// file as one JSON line per row (row N where line N would be). Every dump reader of `mari eval`
// (shape check, scoring, the case explorer's texts) takes its lines from here, so a Parquet dump is
// scored by exactly the code that scores its JSONL twin.
import { readLineBlocks, splitBlock, type Line } from "./lines.js";
import { isParquetFile, parquetLineBlocks } from "./parquet.js";

export interface DumpBlock {
  /** Number of the block's first line (a Parquet file: its first row). */
  firstLineNo: number;
  /** Whole JSONL lines. */
  block: Buffer;
  /** Bytes of the file this block stands for (progress). */
  fileBytes: number;
  /** Whether `block` is the file's own bytes (they then hash to the file's sha256 and have offsets in it). */
  raw: boolean;
}

export async function* dumpLineBlocks(path: string): AsyncGenerator<DumpBlock> {
  if (await isParquetFile(path)) {
    for await (const b of parquetLineBlocks(path)) yield { ...b, raw: false };
    return;
  }
  for await (const b of readLineBlocks(path)) yield { ...b, fileBytes: b.block.length, raw: true };
}

export async function* dumpLines(path: string): AsyncGenerator<Line> {
  for await (const { firstLineNo, block } of dumpLineBlocks(path)) {
    const out: Line[] = [];
    splitBlock(block, firstLineNo, out);
    yield* out;
  }
}
