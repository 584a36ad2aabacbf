// A Parquet dump's rows handed to scoring as the values of the fields mari reads (docs/eval.md,
// "Parquet"), column by column, instead of as JSON lines to be scanned again: each value is the one
// the dump reader (dump-scan.ts, else `parseDumpLine`) takes from the row's JSON line (parquet.ts
// `rowLine`): a null is absent, an INT64 a number (rounded beyond 2^53 as JSON.parse rounds its
// digits), a whole DOUBLE below 1e21 the integer its JSON text shows, NaN and ±Infinity absent (their
// JSON text is `null`). A row holding anything whose JSON text has rules of its own (another double,
// a null inside a list, a struct but in `prediction`, binary, a field such as `error` whose presence
// changes the line's meaning, a string that is not UTF-8, a row long enough to pass the line limit)
// is handed over as its JSON line instead, and read by the very code that reads a JSONL line.
// test/real-tools/parquet-rows.test.ts holds the two ways of reading a row to the same values.
import type { DecodedArray } from "hyparquet";
import { READ_FIELDS } from "./dump.js";
import { MAX_DECODED_RECORD_BYTES } from "./input-contract.js";
import { parquetColumnBatches, rowLine } from "./parquet.js";

/** The fields of a dump line scoring reads from a structured, cache-shaped or raw-completion line. */
export const ROW_FIELDS = ["case_id", "id", "run", "sample", "judgment", "evidence_sentence_ids", "evidence", "reasoning", "completion", "prediction"] as const;
export type RowField = (typeof ROW_FIELDS)[number];

/** Those a cache-shaped `prediction` object carries (any other read field inside one: the row is read as its line). */
const PREDICTION_FIELDS: ReadonlySet<string> = new Set(["judgment", "evidence_sentence_ids", "evidence", "reasoning", "completion"]);
/** Read fields without a value here (`error`, `custom_id`, `response`: their presence alone changes a line's meaning), and `__proto__`. */
const LINE_FIELDS: ReadonlySet<string> = new Set([...READ_FIELDS.filter((f) => !(ROW_FIELDS as readonly string[]).includes(f)), "__proto__"]);

/** A block of a Parquet dump's rows, as scoring takes it. */
export interface DumpRowBlock {
  /** Number of the block's first row in the file (where a JSONL line number would be). */
  firstLineNo: number;
  count: number;
  /** Per read field the file has a column for: row i's value at i (undefined: absent). */
  fields: { [F in RowField]?: unknown[] };
  /** Rows handed over as their JSON line instead (null: a line that is not valid UTF-8), as [row index, line], by index. */
  lines: Array<[number, string | null]>;
  /** The part of the file these rows stand for (progress in bytes). */
  fileBytes: number;
}

/** A value whose row is read from its JSON line. */
const AS_LINE: unique symbol = Symbol("as its line");
type AsLine = typeof AS_LINE;

/** A value inside a list (and a `prediction` member): a scalar as its JSON text reads back, or AS_LINE. */
function item(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "bigint":
      return Number(value);
    case "number":
      // A whole number below 1e21 is written as its digits (-0 as 0); any other is a float token or `null`.
      return Number.isInteger(value) && Math.abs(value) < 1e21 ? value + 0 : AS_LINE;
    default:
      return AS_LINE;
  }
}

const SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A list of scalars as its JSON text reads back, or AS_LINE. A list of INT64 values within 2^53
 * (evidence ids) is converted where it is, for it is the batch's own and its JSON text, digits, is
 * the same either way: a million small arrays fewer to allocate and collect.
 */
function list(value: unknown[]): unknown[] | AsLine {
  let exact = true;
  for (let k = 0; k < value.length && exact; k++) {
    const v = value[k];
    exact = typeof v === "bigint" && v <= SAFE_INTEGER && v >= -SAFE_INTEGER;
  }
  if (exact) {
    for (let k = 0; k < value.length; k++) value[k] = Number(value[k]);
    return value;
  }
  const out = new Array<unknown>(value.length);
  for (let k = 0; k < value.length; k++) {
    const v = item(value[k]);
    if (v === AS_LINE) return AS_LINE;
    out[k] = v;
  }
  return out;
}

/** A top-level value of a read field (or of a `prediction` member): undefined when absent. */
function fieldValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  if (Array.isArray(value)) return list(value);
  return item(value);
}

/** A `prediction` struct as the reader of its JSON text sees it: the members read, in their slots. */
function predictionValue(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || ArrayBuffer.isView(value) || value instanceof Date) return fieldValue(value);
  const record: Record<string, unknown> = {
    judgment: undefined,
    evidence_sentence_ids: undefined,
    evidence: undefined,
    reasoning: undefined,
    completion: undefined,
  };
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue;
    if (PREDICTION_FIELDS.has(key)) {
      const v = fieldValue(member);
      if (v === AS_LINE) return AS_LINE;
      record[key] = v;
    } else if ((ROW_FIELDS as readonly string[]).includes(key) || LINE_FIELDS.has(key)) {
      return AS_LINE;
    } else {
      // A member nobody reads: only its text can matter (bytes that are not UTF-8; its depth, kept small here).
      const v = Array.isArray(member) ? list(member) : item(member);
      if (v === AS_LINE) return AS_LINE;
    }
  }
  return record;
}

/**
 * At least as many characters as `value`'s JSON text has (a string's may all be escaped), or -1 for
 * a value whose row is read from its line (bytes that are not UTF-8, a kind of value not sized here).
 */
function textBound(value: unknown): number {
  switch (typeof value) {
    case "string":
      return value.length * 6 + 2;
    case "boolean":
    case "bigint":
    case "number":
    case "undefined":
      return 32;
    case "object": {
      if (value === null) return 4;
      if (value instanceof Uint8Array) return Math.ceil(value.length / 3) * 4 + 2;
      if (value instanceof Date) return 40;
      if (ArrayBuffer.isView(value)) return -1;
      let total = 2;
      if (Array.isArray(value)) {
        for (const v of value) {
          const size = textBound(v);
          if (size < 0) return -1;
          total += size + 1;
        }
        return total;
      }
      for (const [key, v] of Object.entries(value)) {
        const size = textBound(v);
        if (size < 0) return -1;
        total += key.length * 6 + 4 + size;
      }
      return total;
    }
    default:
      return -1;
  }
}

/** Rows whose line could reach the line limit are read from their line: it is measured, and refused, there. */
const MAX_BOUND = MAX_DECODED_RECORD_BYTES / 3;

/** The dump's rows, a block per batch of the reader (parquet.ts), as scoring takes them. */
export async function* parquetDumpRows(path: string): AsyncGenerator<DumpRowBlock> {
  for await (const batch of parquetColumnBatches(path)) {
    const { count, names, columns } = batch;
    const asLine = new Uint8Array(count);
    const bound = new Float64Array(count).fill(2);
    const fields: DumpRowBlock["fields"] = {};
    // A name twice: the line's last one would win; every row is read from its line.
    if (new Set(names).size !== names.length) asLine.fill(1);
    columns.forEach((column, c) => {
      if (column === undefined) return;
      const name = names[c]!;
      const keyBound = name.length * 6 + 4;
      if ((ROW_FIELDS as readonly string[]).includes(name)) fields[name as RowField] = fieldColumn(name, column, count, asLine, bound, keyBound);
      else otherColumn(LINE_FIELDS.has(name), column, count, asLine, bound, keyBound);
    });
    const lines: DumpRowBlock["lines"] = [];
    const keys = names.map((name) => `${JSON.stringify(name)}:`);
    for (let row = 0; row < count; row++) {
      if (asLine[row] === 1 || bound[row]! >= MAX_BOUND) lines.push([row, rowLine(path, batch.firstRow + row, keys, columns, row)]);
    }
    yield { firstLineNo: batch.firstRow, count, fields, lines, fileBytes: batch.fileBytes };
  }
}

/** A read field's column: its values, each row's text bound added, rows that need their line marked. */
function fieldColumn(name: string, column: DecodedArray, count: number, asLine: Uint8Array, bound: Float64Array, keyBound: number): unknown[] {
  const values = new Array<unknown>(count);
  const convert = name === "prediction" ? predictionValue : fieldValue;
  for (let row = 0; row < count; row++) {
    const raw = column[row];
    if (raw === null || raw === undefined) continue;
    // The common case first: a string (no conversion, its bound from its length).
    if (typeof raw === "string") {
      values[row] = raw;
      bound[row]! += keyBound + raw.length * 6 + 2;
      continue;
    }
    const value = convert(raw);
    const size = textBound(raw);
    if (value === AS_LINE || size < 0) asLine[row] = 1;
    else values[row] = value;
    bound[row]! += keyBound + size;
  }
  return values;
}

/** Another column: nothing of it is read, but a value that is not UTF-8 or a field such as `error` sends its row to its line. */
function otherColumn(changesMeaning: boolean, column: DecodedArray, count: number, asLine: Uint8Array, bound: Float64Array, keyBound: number): void {
  for (let row = 0; row < count; row++) {
    const raw = column[row];
    if (raw === null || raw === undefined) continue;
    const size = textBound(raw);
    if (changesMeaning || size < 0) asLine[row] = 1;
    bound[row]! += keyBound + size;
  }
}
