// The texts diff.html's explorer takes from a dump without line offsets (a finished report records
// none): one pass over the dump decoding only the wanted lines. On a JSONL dump larger than the
// reading buffer (lines across its refills, a CRLF line, blank and broken lines) they must equal each
// wanted line's texts read on its own, and a Parquet dump of the same rows must give the same texts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPrng } from "../../src/core/metrics/prng.js";
import { readDumpTexts, textsOfDumpLine } from "../../src/tasks/document/dump-texts.js";
import { tempDir } from "../support/cli.js";
import { writeParquet } from "../support/parquet.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

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
    const shown = (m: Map<number, { reasoning?: string; raw?: string }>) => [...m].map(([n, t]) => [n, t.reasoning, t.raw]);
    const fromParquet = await readDumpTexts(parquetPath, rowLines);
    expect(fromParquet.size).toBe(rowLines.length);
    expect(shown(fromParquet)).toEqual(shown(await readDumpTexts(rowsPath, rowLines)));
  });
});
