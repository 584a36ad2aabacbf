// Scores a block of a Parquet dump's rows (io/parquet-rows.ts) as a block of its JSONL twin's lines
// is scored (score.ts `scoreLines`): each row's record is made from its fields instead of being
// scanned from a JSON line, and a row handed over as its line is read as a JSONL line. Also what the
// dump pass (score-dump.ts) needs to cut, send and size either kind of chunk.
import { deserialize, serialize } from "node:v8";
import type { Line } from "../../io/lines.js";
import type { DumpRowBlock } from "../../io/parquet-rows.js";
import type { JsonObject } from "../../io/records.js";
import { processChunk as scoreLineBlock, scoreLines, type ChunkResult, type LineBlock, type ScoreState } from "./score.js";

/** A pool task of rows: a DumpRowBlock, or part of one. */
export interface RowChunk {
  kind: "rows";
  firstLineNo: number;
  count: number;
  fileBytes: number;
  /**
   * The rows' fields and lines; for a worker thread, their v8 serialization: one buffer moved (not
   * copied again), whose size batches chunks into messages as a block of lines' bytes do.
   */
  rows: RowValues | Uint8Array;
}
type RowValues = Pick<DumpRowBlock, "fields" | "lines">;

/** What the dump pass hands to scoring: whole lines, or rows as fields. */
export type ScoreChunk = LineBlock | RowChunk;

/** The line of a row scored from its record: never read. */
const RECORD_ROW: Line = { lineNo: 0, text: "", invalidUtf8: false };

/** Row `i` of a block (not one of its `lines`) as the record its JSON line would be read into. */
export function rowRecord(fields: DumpRowBlock["fields"], i: number): JsonObject {
  return {
    case_id: fields.case_id?.[i],
    id: fields.id?.[i],
    run: fields.run?.[i],
    sample: fields.sample?.[i],
    judgment: fields.judgment?.[i],
    evidence_sentence_ids: fields.evidence_sentence_ids?.[i],
    evidence: fields.evidence?.[i],
    reasoning: fields.reasoning?.[i],
    completion: fields.completion?.[i],
    prediction: fields.prediction?.[i],
  } as JsonObject;
}

/** Pool entry for a chunk of rows. */
export function scoreRows(state: ScoreState, chunk: RowChunk): ChunkResult {
  const { firstLineNo, count } = chunk;
  const { fields, lines: asLines } = chunk.rows instanceof Uint8Array ? (deserialize(chunk.rows) as RowValues) : chunk.rows;
  const lines = new Array<Line>(count);
  const records = new Array<JsonObject | undefined>(count);
  let next = 0;
  for (let i = 0; i < count; i++) {
    const asLine = asLines[next];
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

/** The buffers a chunk hands to a worker thread, when there are threads (rows are then serialized: scoreRows reads them back). */
export function chunkTransfers(chunk: ScoreChunk, threads: boolean): ArrayBuffer[] {
  if (!("kind" in chunk)) return [chunk.block.buffer as ArrayBuffer];
  if (!threads) return [];
  if (!(chunk.rows instanceof Uint8Array)) {
    const bytes = serialize(chunk.rows);
    // A buffer of its own (a view into a shared pool could not be moved).
    chunk.rows = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  }
  return [chunk.rows.buffer as ArrayBuffer];
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
    const chunk = { kind: "rows", firstLineNo: block.firstLineNo + from, count: to - from, fileBytes: share(to) - share(from) } as const;
    if (from === 0 && to === block.count) {
      yield { ...chunk, rows: { fields: block.fields, lines: block.lines } };
      return;
    }
    const fields: DumpRowBlock["fields"] = {};
    for (const [name, values] of Object.entries(block.fields)) fields[name as keyof typeof fields] = values.slice(from, to);
    const lines = block.lines.filter(([i]) => i >= from && i < to).map(([i, text]): [number, string | null] => [i - from, text]);
    yield { ...chunk, rows: { fields, lines } };
  }
}
