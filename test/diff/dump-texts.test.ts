// The texts diff.html's explorer takes from a dump without line offsets (a finished report records
// none): one pass over the dump decoding only the wanted lines. On a JSONL dump larger than the
// reading buffer (lines across its refills, a CRLF line, blank and broken lines) they must equal each
// wanted line's texts read on its own, and a Parquet dump of the same rows must give the same texts.
// With the offsets an eval records, the positional reads (near lines read together, one buffer
// reused for reads of every size) must give the same texts too.
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPrng } from "../../src/core/metrics/prng.js";
import { type DumpTexts, forEachDumpLine, textsOfDumpLine } from "../../src/tasks/document/dump-texts.js";
import { LineOffsets } from "../../src/tasks/document/line-offsets.js";
import { tempDir } from "../support/cli.js";
import { writeParquet } from "../support/parquet.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

/** The texts forEachDumpLine visits for the given line numbers (sorted and without repeats for it), by line number. */
async function readDumpTexts(path: string, lineNumbers: readonly number[], offsets?: LineOffsets): Promise<Map<number, DumpTexts>> {
  const wanted = [...new Set(lineNumbers)].sort((a, b) => a - b);
  const texts = new Map<number, DumpTexts>();
  await forEachDumpLine(path, wanted, offsets, (index, t) => texts.set(wanted[index]!, t));
  return texts;
}

const prng = createPrng(5, 0);
const rows = Array.from({ length: 400 }, (_, i) => ({
  case_id: `c${i % 37}`,
  run: Math.floor(i / 37),
  judgment: i % 3 === 0,
  evidence_sentence_ids: i % 3 === 0 ? [1 + (i % 5)] : [],
  // Long enough that the file is several reading buffers.
  reasoning: `Run ${i}: ${"sentence [2] says otherwise. ".repeat(40 + prng.nextBelow(200))}`,
  ...(i % 7 === 0 ? { completion: `<think>why ${i}</think><answer>yes</answer>` } : {}),
}));

describe("dump texts read without line offsets", () => {
  it("are each wanted line's texts, in a JSONL dump and in a Parquet one", async () => {
    const lines = rows.map((row) => JSON.stringify(row));
    // Lines that give no texts, or carry a CR, among the rows (JSONL only: the Parquet file has the rows).
    const jsonl = [...lines.slice(0, 50), "", "{broken", `${lines[50]}\r`, ...lines.slice(51)];
    const jsonlPath = join(dir, "dump.jsonl");
    writeFileSync(jsonlPath, `${jsonl.join("\n")}\n`);
    const wanted = Array.from({ length: 60 }, () => 1 + prng.nextBelow(jsonl.length + 3));
    const texts = await readDumpTexts(jsonlPath, wanted);
    const expected = new Map([...new Set(wanted)].filter((n) => n <= jsonl.length).map((n) => [n, textsOfDumpLine(jsonl[n - 1]!)]));
    expect(new Map([...texts].sort((a, b) => a[0] - b[0]))).toEqual(new Map([...expected].sort((a, b) => a[0] - b[0])));
    expect([...texts.values()].filter((t) => t.reasoning !== undefined).length).toBeGreaterThan(40);

    // The same rows as Parquet (a row where its line would be): the same reasoning and raw texts.
    const parquetPath = join(dir, "dump.parquet");
    writeParquet(parquetPath, rows);
    const rowsPath = join(dir, "rows.jsonl");
    writeFileSync(rowsPath, `${lines.join("\n")}\n`);
    const rowLines = Array.from({ length: 50 }, (_, k) => 1 + 8 * k);
    const shown = (m: Map<number, { reasoning?: string | undefined; raw?: string | undefined }>) => [...m].map(([n, t]) => [n, t.reasoning, t.raw]);
    const fromParquet = await readDumpTexts(parquetPath, rowLines);
    expect(fromParquet.size).toBe(rowLines.length);
    expect(shown(fromParquet)).toEqual(shown(await readDumpTexts(rowsPath, rowLines)));
  });

  it("are each wanted line's texts when read by the offsets an eval records", async () => {
    const lines = rows.map((row) => JSON.stringify(row));
    // A line far longer than the others: the reused buffer grows for it, and later smaller reads
    // use only their part of it.
    const long = JSON.stringify({ case_id: "long", run: 0, judgment: false, evidence_sentence_ids: [], reasoning: "x".repeat(300_000) });
    const jsonl = [...lines.slice(0, 50), "", "{broken", `${lines[50]}\r`, ...lines.slice(51, 200), long, ...lines.slice(200)];
    const text = `${jsonl.join("\n")}\n`;
    const path = join(dir, "offsets.jsonl");
    writeFileSync(path, text);
    const bytes = Buffer.from(text);
    const ends: number[] = [];
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at);
    const offsets = new LineOffsets();
    offsets.add(1, bytes.length, Int32Array.from(ends));
    const readOnItsOwn = (n: number) => textsOfDumpLine(`${jsonl[n - 1]!}\n`);
    for (let round = 0; round < 4; round++) {
      const wanted = [...Array.from({ length: 40 + 30 * round }, () => 1 + prng.nextBelow(jsonl.length + 3)), 203, 1 + prng.nextBelow(10)];
      const texts = await readDumpTexts(path, wanted, offsets);
      const expected = [...new Set(wanted)].filter((n) => n <= jsonl.length).map((n) => [n, readOnItsOwn(n)] as const);
      expect([...texts].sort((a, b) => a[0] - b[0])).toEqual(expected.sort((a, b) => a[0] - b[0]));
      expect(texts.get(203)!.reasoning).toHaveLength(300_000);
    }
    // Lines the offsets place past the end of a dump cut short since give no texts.
    truncateSync(path, bytes.length - Buffer.byteLength(`${jsonl.at(-1)!}\n`) - 10);
    const cut = await readDumpTexts(path, [1, jsonl.length - 1, jsonl.length], offsets);
    expect(cut.get(1)).toEqual(readOnItsOwn(1));
    expect(cut.get(jsonl.length - 1)).toEqual({});
    expect(cut.get(jsonl.length)).toEqual({});
  });

  it("are at the offsets of each line, recorded block after block", () => {
    // Blocks of many lines, of one line and of none; the offsets must grow past their first room.
    const blocks = [Array.from({ length: 3000 }, (_, i) => `{"n":${i}}`), ["{}"], [], Array.from({ length: 700 }, (_, i) => "x".repeat(i % 7))];
    const offsets = new LineOffsets();
    let lineNo = 1;
    let at = 0;
    const expected: Array<[number, number]> = [];
    for (const lines of blocks) {
      const text = lines.map((line) => `${line}\n`).join("");
      const ends: number[] = [];
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", end + 1)) ends.push(end);
      offsets.add(lineNo, text.length, Int32Array.from(ends));
      for (const line of lines) {
        expected.push([at, at + line.length + 1]);
        at += line.length + 1;
      }
      lineNo += lines.length;
    }
    expect(Array.from({ length: lineNo - 1 }, (_, k) => offsets.range(k + 1))).toEqual(expected);
    expect(offsets.range(lineNo)).toBeUndefined();
    expect(offsets.range(0)).toBeUndefined();
  });
});
