// Scores a block of a Parquet dump's rows (io/parquet-rows.ts) as a block of its JSONL twin's lines
// is scored (score.ts `scoreLines`): each row's record is made from its fields instead of being
// scanned from a JSON line, and a row handed over as its line is read as a JSONL line. Also what the
// dump pass (score-dump.ts) needs to cut, send and size either kind of chunk.
import type { Line } from "../../io/lines.js";
import { rowRecord, type DumpRowBlock } from "../../io/parquet-rows.js";
import type { JsonObject } from "../../io/records.js";
import { processChunk as scoreLineBlock, scoreLines, type ChunkResult, type LineBlock, type ScoreState } from "./score.js";

/** A pool task of rows: a DumpRowBlock, or part of one. */
export interface RowChunk extends DumpRowBlock {
  kind: "rows";
}

/** What the dump pass hands to scoring: whole lines, or rows as fields. */
export type ScoreChunk = LineBlock | RowChunk;

/** The line of a row scored from its record: never read. */
const RECORD_ROW: Line = { lineNo: 0, text: "", invalidUtf8: false };

/** Pool entry for a chunk of rows. */
export function scoreRows(state: ScoreState, chunk: RowChunk): ChunkResult {
  const { firstLineNo, count, fields } = chunk;
  const lines = new Array<Line>(count);
  const records = new Array<JsonObject | undefined>(count);
  let next = 0;
  for (let i = 0; i < count; i++) {
    const asLine = chunk.lines[next];
    if (asLine !== undefined && asLine[0] === i) {
      next++;
      const lineNo = firstLineNo + i;
      lines[i] = asLine[1] === null ? { lineNo, text: null, invalidUtf8: true } : { lineNo, text: asLine[1], invalidUtf8: false };
    } else {
      lines[i] = RECORD_ROW;
      records[i] = rowRecord(fields, i);
    }
  }
  return scoreLines(state, firstLineNo, lines, records);
}

/** Scores a chunk of either kind (in process). */
export function scoreChunk(state: ScoreState, chunk: ScoreChunk): ChunkResult {
  return "kind" in chunk ? scoreRows(state, chunk) : scoreLineBlock(state, chunk);
}

/** The buffers a chunk hands to a worker thread (a block of lines moves; rows are copied). */
export function chunkTransfers(chunk: ScoreChunk): ArrayBuffer[] {
  return "kind" in chunk ? [] : [chunk.block.buffer as ArrayBuffer];
}

/** The bytes of the dump a chunk's scoring cost is measured against (`--workers auto`). */
export function chunkBytes(chunk: ScoreChunk): number {
  return "kind" in chunk ? chunk.fileBytes : chunk.block.length;
}

/**
 * A block of rows as chunks of at most `rows` rows (all of it without a limit), the file bytes each
 * stands for pushed on `sizes` in order (they add up to the block's).
 */
export function* rowChunks(block: DumpRowBlock, rows: number | undefined, sizes: number[]): Generator<RowChunk> {
  const step = rows === undefined || rows <= 0 ? Math.max(1, block.count) : rows;
  for (let from = 0; from < block.count; from += step) {
    const to = Math.min(block.count, from + step);
    const share = (at: number) => Math.round((block.fileBytes * at) / block.count);
    sizes.push(share(to) - share(from));
    if (from === 0 && to === block.count) {
      yield { kind: "rows", ...block };
      return;
    }
    const fields: DumpRowBlock["fields"] = {};
    for (const [name, values] of Object.entries(block.fields)) fields[name as keyof typeof fields] = values.slice(from, to);
    const lines = block.lines.filter(([i]) => i >= from && i < to).map(([i, text]): [number, string | null] => [i - from, text]);
    yield { kind: "rows", firstLineNo: block.firstLineNo + from, count: to - from, fields, lines, fileBytes: share(to) - share(from) };
  }
}
