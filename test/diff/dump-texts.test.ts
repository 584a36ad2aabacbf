// The texts diff.html's explorer takes from a dump without line offsets (a finished report records
// none): one pass over the dump decoding only the wanted lines. On a JSONL dump larger than the
// reading buffer (lines across its refills, a CRLF line, blank and broken lines) they must equal each
// wanted line's texts read on its own, and a Parquet dump of the same rows must give the same texts.
// With the offsets an eval records, the positional reads (near lines read together, one buffer
// reused for reads of every size) must give the same texts too, and so must the texts taken from the
// block scanner's rows of the lines whose record the caller does not want.
import { isAscii } from "node:buffer";
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

  it("are each line's texts when read from the block scanner's rows, the record not wanted", async () => {
    // Lines of every shape the scanner reads and of shapes it leaves to the parse: escapes, text
    // beyond ASCII, a `\u` escape, a cache-shaped prediction, raw completions in and out of the
    // layout, a reasoning beside a completion, null, a batch output line, a BOM, CR line ends,
    // invalid UTF-8, broken lines.
    const layout = (think: string, judgment: string) => `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: [1, 2]\n</answer>`;
    const shapes: string[] = [
      JSON.stringify({ case_id: "a", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "Sentence [1] says so." }),
      JSON.stringify({ case_id: "a", run: 1, judgment: false, evidence_sentence_ids: [], reasoning: 'He said "no"\\ then\tleft.\nSentence [2].' }),
      JSON.stringify({ case_id: "b", run: 0, judgment: true, evidence_sentence_ids: [2], reasoning: "Café, naïve, 日本 and 🙂 in [2]." }),
      '{"case_id":"b","run":1,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"An \\u escape: \\u00e9 [2]."}',
      JSON.stringify({ case_id: "c", run: 0, prediction: { judgment: true, evidence_sentence_ids: [1], reasoning: "Nested [1]." } }),
      JSON.stringify({ case_id: "c", run: 1, prediction: { completion: layout("Nested think [1].", "yes") } }),
      JSON.stringify({ case_id: "d", run: 0, completion: layout("Think [1] and [2].", "yes") }),
      JSON.stringify({ case_id: "d", run: 1, completion: layout("Ünïcode think 🙂 [1].", "no") }),
      JSON.stringify({ case_id: "d", run: 2, completion: "Judgment: yes" }),
      JSON.stringify({ case_id: "d", run: 3, reasoning: "Both [1].", completion: layout("Think [1].", "yes") }),
      JSON.stringify({ case_id: "e", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: null }),
      JSON.stringify({ custom_id: "e/1", response: { status_code: 200, body: { choices: [{ message: { content: "Judgment: yes" } }] } } }),
      `\ufeff${JSON.stringify({ case_id: "f", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "After a BOM [1]." })}`,
      `${JSON.stringify({ case_id: "f", run: 1, judgment: true, evidence_sentence_ids: [1], reasoning: "CR [1]." })}\r`,
      JSON.stringify({ case_id: "f", run: 2, judgment: 2.0, evidence_sentence_ids: [1.0], reasoning: "Floats [1]." }),
      '{"case_id":"f","run":3,"reasoning":"first","reasoning":"second [1]"}',
      "{broken",
      "",
    ];
    const valid: Buffer[] = [];
    for (let k = 0; k < 240; k++) valid.push(Buffer.from(shapes[k % shapes.length]!));
    // The same with a line of invalid UTF-8 among them (the lines read together then take the parse).
    const invalid = [...valid];
    invalid[100] = Buffer.concat([
      Buffer.from('{"case_id":"g","run":0,"judgment":true,"evidence_sentence_ids":[1],"reasoning":"bad '),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(' [1]"}'),
    ]);
    // Only the ASCII lines (their strings are then cut from one decoded text).
    const ascii = valid.filter((line) => isAscii(line));
    for (const [name, lines] of [
      ["valid", valid],
      ["ascii", ascii],
      ["invalid", invalid],
    ] as const) {
      const bytes = Buffer.concat(lines.flatMap((line) => [line, Buffer.from("\n")]));
      const path = join(dir, `shapes-${name}.jsonl`);
      writeFileSync(path, bytes);
      const ends: number[] = [];
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at);
      const offsets = new LineOffsets();
      offsets.add(1, bytes.length, Int32Array.from(ends));
      const wanted = Array.from({ length: lines.length }, (_, k) => k + 1);
      const texts = new Map<number, DumpTexts>();
      await forEachDumpLine(
        path,
        wanted,
        offsets,
        (index, t) => texts.set(wanted[index]!, t),
        () => false,
      );
      let fromRows = 0;
      for (const n of wanted) {
        const own = textsOfDumpLine(`${lines[n - 1]!.toString("utf8")}\n`);
        const t = texts.get(n)!;
        expect({ line: n, reasoning: t.reasoning, raw: t.raw }).toEqual({ line: n, reasoning: own.reasoning, raw: own.raw });
        // A line read from its row comes without its record; any other one with it, as parsed.
        if (t.record === undefined && own.record !== undefined) fromRows++;
        else expect(t.record).toEqual(own.record);
      }
      // The 9 of the 18 shapes the scanner reads (7 of the 15 ASCII ones) came from their rows, each at least 13 times.
      if (name === "valid") expect(fromRows).toBeGreaterThanOrEqual(13 * 9);
      else if (name === "ascii") expect(fromRows).toBeGreaterThanOrEqual(13 * 7);
      else expect(fromRows).toBe(0);
    }
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
