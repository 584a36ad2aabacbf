// A Parquet dump is scored from its decoded columns (src/io/parquet-rows.ts), not from JSON lines
// made of its rows. With files pyarrow writes (test/real-tools/write_parquet_rows.py): rows mixing
// the three shapes with nulls in every column give their JSONL twin's report.json and cases.jsonl,
// whatever the worker count and chunk size; and row by row, what scoring is handed (the fields, or
// the row's JSON line) reads as that JSON line does, for doubles, NaN, null list items, `custom_id`
// and bytes that are not UTF-8 too, and on byte-mutated copies of the file.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prng } from "../../bench/lib/log-fuzz.mjs";
import { scanDumpLine } from "../../src/io/dump-scan.js";
import { parseDumpLine, READ_FIELDS } from "../../src/io/dump.js";
import { parquetBatches } from "../../src/io/parquet.js";
import { parquetDumpRows } from "../../src/io/parquet-rows.js";
import { rowRecord } from "../../src/tasks/document/score-rows.js";
import { ROOT, tempDir } from "../support/cli.js";
import { comparableReport } from "../support/comparable-report.js";
import { runTask } from "../support/in-process.js";
import { realToolsRequired, venvPython } from "../support/python.js";
import { scaled } from "../support/time-limits.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const tmp = tempDir("mari-parquet-rows-");
afterAll(() => tmp.cleanup());
const file = (name: string) => join(tmp.dir, name);

type Fields = Record<string, unknown>;

/** The fields mari reads that are present (own and defined), a nested `prediction` object's likewise. */
function readFields(record: Fields): Fields {
  const out: Fields = {};
  for (const field of READ_FIELDS) {
    const value = record[field];
    if (!Object.hasOwn(record, field) || value === undefined) continue;
    out[field] = field === "prediction" && value !== null && typeof value === "object" && !Array.isArray(value) ? readFields(value as Fields) : value;
  }
  return out;
}

type Reading = { line: string | null; handed: { record: Fields } | { line: string | null } };

/** Every row of a Parquet dump: its JSON line, and what scoring is handed for it (the fields read from the columns, or the line). */
async function bothReadings(path: string): Promise<Reading[]> {
  const lines: (string | null)[] = [];
  for await (const batch of parquetBatches(path)) lines.push(...batch.lines);
  const rows: Reading[] = [];
  for await (const block of parquetDumpRows(path)) {
    const asLine = new Map(block.lines);
    for (let i = 0; i < block.count; i++) {
      const line = lines[block.firstLineNo - 1 + i]!;
      rows.push({ line, handed: asLine.has(i) ? { line: asLine.get(i)! } : { record: rowRecord(block.fields, i) } });
    }
  }
  expect(rows.length).toBe(lines.length);
  return rows;
}

/** Checks that each row handed to scoring reads as its JSON line; returns how many were handed as fields. */
function expectSameReading(rows: readonly Reading[]): number {
  let fromColumns = 0;
  for (const { line, handed } of rows) {
    if ("line" in handed) {
      expect(handed.line).toBe(line);
      continue;
    }
    fromColumns++;
    const parsed = parseDumpLine(line);
    if (!("record" in parsed)) throw new Error(`a row handed as fields has a line the reader refuses: ${line}`);
    const read = scanDumpLine(line) ?? parsed.record;
    expect(readFields(handed.record), line!).toStrictEqual(readFields(read));
  }
  return fromColumns;
}

/** The error message a reading ends with, or undefined. */
async function failure(read: Promise<unknown>): Promise<string | undefined> {
  try {
    await read;
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const evaluate = (dump: string, out: string, workers: number, chunkLines?: number) =>
  runTask({ task: "documents", slicePath: SLICE, dumpPath: dump, formats: ["json"], workers, ...(chunkLines ? { chunkLines } : {}) }, out);

describe.runIf(realToolsRequired())("Parquet rows scored from their columns", () => {
  beforeAll(() => {
    const python = spawnSync(venvPython(), [join(ROOT, "test/real-tools/write_parquet_rows.py"), SLICE, tmp.dir], {
      encoding: "utf8",
      timeout: scaled(300_000),
    });
    if (python.status !== 0) throw new Error(`write_parquet_rows.py failed: ${python.stderr}`);
  }, scaled(400_000));

  it(
    "rows mixing shapes, with nulls, score as their JSONL twin (report.json and cases.jsonl), for any workers and chunk size",
    async () => {
      const twin = async (workers: number) => {
        await evaluate(file("dump.jsonl"), file(`jsonl-w${workers}`), workers);
        return { report: comparableReport(file(`jsonl-w${workers}`)), cases: readFileSync(file(`jsonl-w${workers}/cases.jsonl`), "utf8") };
      };
      const twins = [await twin(1), await twin(2)];
      // The twin exercises what it should: every shape, rejections of several kinds, orphans, a judge's error.
      const report = twins[0]!.report as { rejections: Record<string, number>; orphans: { count: number } };
      for (const reason of ["bad_case_id", "bad_run_key", "bad_completion_format", "evidence_out_of_document", "non_integer_evidence", "empty_answer"]) {
        expect(report.rejections[reason], reason).toBeGreaterThan(0);
      }
      expect(report.orphans.count).toBeGreaterThan(0);
      for (const [workers, chunk] of [
        [1, undefined],
        [2, undefined],
        [2, 37],
      ] as const) {
        const out = file(`parquet-w${workers}-c${chunk ?? 0}`);
        await evaluate(file("dump.parquet"), out, workers, chunk);
        expect(comparableReport(out)).toEqual(twins[workers - 1]!.report);
        expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(twins[workers - 1]!.cases);
      }
    },
    scaled(300_000),
  );

  for (const name of ["dump.parquet", "edges.parquet"]) {
    it(`${name}: each row handed to scoring reads as its JSON line`, async () => {
      const rows = await bothReadings(file(name));
      const fromColumns = expectSameReading(rows);
      // Both ways are taken: most rows from the columns, the rest (pyarrow's doubles, nulls in lists, `error`…) as lines.
      expect(fromColumns).toBeGreaterThan(rows.length / 3);
      expect(rows.length - fromColumns).toBeGreaterThan(0);
    });
  }

  it(
    "byte-mutated copies of the pyarrow dump: both readings stop with the same error, or agree row by row",
    async () => {
      const seed = readFileSync(file("dump.parquet"));
      const random = prng(32);
      const outcomes = { read: 0, refused: 0 };
      for (let m = 0; m < 150; m++) {
        const bytes = Buffer.from(seed);
        for (let k = 1 + Math.floor(random() * 8); k > 0; k--) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        const path = file("mutant.parquet");
        writeFileSync(path, bytes);
        const asLines = await failure(
          (async () => {
            for await (const _ of parquetBatches(path));
          })(),
        );
        const asRows = await failure(
          (async () => {
            for await (const _ of parquetDumpRows(path));
          })(),
        );
        expect(asRows, `mutant ${m}`).toBe(asLines);
        if (asLines !== undefined) {
          outcomes.refused++;
          continue;
        }
        outcomes.read++;
        expectSameReading(await bothReadings(path));
      }
      // Mutations that leave the file readable and ones that do not both occur.
      expect(outcomes.read).toBeGreaterThan(10);
      expect(outcomes.refused).toBeGreaterThan(10);
    },
    scaled(300_000),
  );
});
