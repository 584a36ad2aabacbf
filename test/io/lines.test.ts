import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isUtf8 } from "node:buffer";
import { LineEnds } from "../../src/io/line-ends.js";
import { blockLines, firstTextLine, lineText, readLines, splitBlock, type Line } from "../../src/io/lines.js";
import { readRecords, detectRecordFormat } from "../../src/io/records.js";
import { tempDir } from "../support/cli.js";

/** A seeded draw of an integer below n, the same on every run (an LCG). */
function seededDraws(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

const tmp = tempDir();
afterAll(tmp.cleanup);

async function linesOf(content: string | Buffer): Promise<Line[]> {
  const path = join(tmp.dir, `f${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(path, content);
  const out: Line[] = [];
  for await (const line of readLines(path)) out.push(line);
  return out;
}

describe("readLines", () => {
  it("numbers lines from 1, strips CRLF and a leading BOM, keeps blank lines", async () => {
    const lines = await linesOf("\uFEFFa\r\n\r\nb\nc");
    expect(lines.map((l) => [l.lineNo, l.text])).toEqual([
      [1, "a"],
      [2, ""],
      [3, "b"],
      [4, "c"],
    ]);
  });

  it("does not invent a line after a final newline; an empty file has no lines", async () => {
    expect((await linesOf("x\n")).length).toBe(1);
    expect((await linesOf("")).length).toBe(0);
  });

  it("reports invalid UTF-8 on its own line and decodes the others", async () => {
    const content = Buffer.concat([Buffer.from("ok\n"), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("\né\n")]);
    const lines = await linesOf(content);
    expect(lines).toEqual([
      { lineNo: 1, text: "ok", invalidUtf8: false },
      { lineNo: 2, text: null, invalidUtf8: true },
      { lineNo: 3, text: "é", invalidUtf8: false },
    ]);
  });

  it("reads a 10 MB line and lines that straddle read chunks intact", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const lines = await linesOf(`first\n${big}\nlast\n`);
    expect(lines.map((l) => l.text?.length)).toEqual([5, big.length, 4]);
    expect(lines[2]!.lineNo).toBe(3);
  });

  it("keeps a multi-byte character split across a chunk boundary", async () => {
    const prefix = "a".repeat((1 << 20) - 1);
    const lines = await linesOf(`${prefix}é\n`);
    expect(lines[0]!.text).toBe(`${prefix}é`);
  });
});

describe("firstTextLine", () => {
  // What it stands in for: the first line readLines yields that is valid UTF-8 and not blank.
  async function viaReadLines(path: string): Promise<Line | null> {
    for await (const line of readLines(path)) if (line.text !== null && line.text.trim() !== "") return line;
    return null;
  }
  const HEAD = 1 << 16;
  const long = "x".repeat(HEAD + 5000);
  const cases: Array<[string, string | Buffer]> = [
    ["empty", ""],
    ["blank lines only", "\n \r\n\t\n"],
    ["BOM and CRLF", "\uFEFFa\r\nb\n"],
    ["a BOM alone, then a line", "\uFEFF\r\n\nsecond\r\n"],
    ["blank lines before", "\n\r\n  \nthird\nfourth\n"],
    ["no final newline", "\n\nlast"],
    ["invalid UTF-8 first", Buffer.concat([Buffer.from([0xff, 0x41, 0x0a]), Buffer.from("é ok\n")])],
    ["invalid UTF-8 only", Buffer.from([0x0a, 0xc3, 0x28])],
    ["a first line longer than the head", `${long}\nnext\n`],
    ["blank lines, then a line across the head's end", `${"\n".repeat(HEAD - 10)}${long}\n`],
    ["a line ending just past the head", `${"y".repeat(HEAD)}\n`],
    ["a blank head, then a line", `${" ".repeat(HEAD + 3)}\nafter\r\n`],
    ["a head of invalid lines", Buffer.concat([Buffer.alloc(HEAD, 0xff), Buffer.from("\nfine\n")])],
  ];
  it.each(cases)("%s: the line readLines would give", async (_name, content) => {
    const path = join(tmp.dir, `h${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(path, content);
    expect(await firstTextLine(path)).toEqual(await viaReadLines(path));
  });

  it("refuses UTF-16 as readLines does", async () => {
    const path = join(tmp.dir, "utf16.txt");
    writeFileSync(path, Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x0a, 0x00]));
    await expect(viaReadLines(path)).rejects.toThrow(/UTF-16/);
    await expect(firstTextLine(path)).rejects.toThrow(/UTF-16/);
  });
});

describe("readRecords", () => {
  async function recordsOf(name: string, content: string) {
    const path = join(tmp.dir, name);
    writeFileSync(path, content);
    const out = [];
    for await (const item of readRecords(path)) out.push(item);
    return { path, out, format: await detectRecordFormat(path) };
  }

  it("reads JSONL and classifies each bad line with its location", async () => {
    const { path, out, format } = await recordsOf("a.data", '{"id":"1"}\n\n{bad\n[1]\n{"id":NaN}\n{"__proto__":{"x":1},"id":"2"}\n');
    expect(format).toBe("jsonl");
    expect(out.map((o) => o.error?.code ?? "ok")).toEqual(["ok", "blank_line", "malformed_json", "not_an_object", "malformed_json", "ok"]);
    expect(out[2]!.where).toBe(`${path}:3`);
    const proto = out[5]!.record!;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("reads CSV with quoted newlines and reports each record's first line", async () => {
    const { out, format } = await recordsOf("b.data", 'id,text\n1,"two\nlines"\n2,plain\n');
    expect(format).toBe("csv");
    expect(out.map((o) => [o.line, o.record?.id, o.record?.text])).toEqual([
      [2, "1", "two\nlines"],
      [4, "2", "plain"],
    ]);
  });

  it("detects JSONL whose first line is longer than one read chunk (64 KiB)", async () => {
    const long = JSON.stringify({ id: "long", text: "Alpha. ".repeat(20_000) });
    const { out, format } = await recordsOf("long.data", `\uFEFF\n  ${long}\n{"id":"short"}\n`);
    expect(long.length).toBeGreaterThan(1 << 17);
    expect(format).toBe("jsonl");
    expect(out.map((o) => [o.line, o.error?.code ?? o.record?.id])).toEqual([
      [1, "blank_line"],
      [2, "long"],
      [3, "short"],
    ]);
    // A single long line that is a whole-file container, and pretty-printed JSON, stay "json".
    const container = JSON.stringify({ pos: { p1: { text: "A. ".repeat(30_000) } }, neg: {} });
    expect((await recordsOf("long-container.data", container)).format).toBe("json");
    expect((await recordsOf("long-pretty.data", JSON.stringify([{ id: "x", text: "B. ".repeat(30_000) }], null, 2))).format).toBe("json");
  });

  it("rejects a ragged CSV record on its own and reads every other record (was: the rest of the file lost)", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? `p${i},oops` : `p${i},"two\nlines ${i}",x`));
    const { out, format } = await recordsOf("ragged.data", `id,text,more\n${rows.join("\n")}\n`);
    expect(format).toBe("csv");
    expect(out).toHaveLength(3000);
    const bad = out.filter((o) => o.error);
    expect(bad).toHaveLength(1);
    // Rows 0..1499 take two lines each after the header: row 1500 starts on line 2 + 2·1500.
    expect(bad[0]).toMatchObject({ line: 3002, error: { code: "malformed_csv" } });
    expect(bad[0]!.error!.message).toContain("malformed CSV: Invalid Record Length");
    expect(out[1500]).toBe(bad[0]);
    expect(out[1499]).toMatchObject({ line: 3000, record: { id: "p1499" } });
    expect(out[1501]).toMatchObject({ line: 3003, record: { id: "p1501", text: "two\nlines 1501" } });
    expect(out[2999]).toMatchObject({ line: 2 + 2 * 2999 - 1, record: { id: "p2999" } });
  });

  it("a CSV error the parser cannot step over (a stray quote) costs that record only: parsing restarts on the next line", async () => {
    const { out } = await recordsOf("quote.data", 'id,text\n1,ok\n2,"bad"q\n3,kept\n4,"two\nlines"\n5,"open\n6,kept too\n');
    expect(out.map((o) => [o.line, o.record?.id ?? o.error?.code])).toEqual([
      [2, "1"],
      [3, "malformed_csv"],
      [4, "3"],
      [5, "4"],
      [7, "malformed_csv"],
      [8, "6"],
    ]);
    expect(out[1]!.error!.message).toMatch(/^malformed CSV: Invalid Closing Quote: .*; reading goes on at line 4$/);
    expect(out[3]!.record).toEqual({ id: "4", text: "two\nlines" });
    expect(out[4]!.error!.message).toMatch(/^malformed CSV: Quote Not Closed: .*; reading goes on at line 8$/);
  });

  it("reads a ContraDoc container: keys become ids, groups become labels", async () => {
    const { out, format } = await recordsOf("c.data", JSON.stringify({ pos: { p1: { text: "A." } }, neg: { n1: { text: "B." } } }, null, 2));
    expect(format).toBe("json");
    expect(out.map((o) => o.record)).toEqual([
      { text: "A.", id: "p1", label: true },
      { text: "B.", id: "n1", label: false },
    ]);
  });
});

describe("blockLines", () => {
  // Pieces that move line ends, carriage returns, a BOM and invalid UTF-8 around a block.
  const PIECES = ["\n", "\r\n", "\r", "a", '{"x":1}', "é", "\uFEFF", "", " "].map((p) => Buffer.from(p, "utf8"));
  const INVALID = [Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82])];

  it("gives the lines splitBlock gives, one at a time, on seeded random blocks", () => {
    const next = seededDraws(7);
    for (let round = 0; round < 2000; round++) {
      const parts: Buffer[] = [];
      const count = next(12);
      for (let k = 0; k < count; k++) parts.push(next(10) === 0 ? INVALID[next(INVALID.length)]! : PIECES[next(PIECES.length)]!);
      const block = Buffer.concat(parts);
      const firstLineNo = 1 + next(1000);
      const expected: Line[] = [];
      const after = splitBlock(block, firstLineNo, expected);
      const lines = [...blockLines(block, firstLineNo)];
      expect(lines, JSON.stringify(block.toString("latin1"))).toEqual(expected);
      expect(firstLineNo + lines.length).toBe(after);
    }
  });

  it("LineEnds cuts seeded random blocks into splitBlock's lines, and grows past its first list", () => {
    const next = seededDraws(11);
    const ends = new LineEnds();
    const blocks: Buffer[] = [Buffer.from("\n".repeat(40_000)), Buffer.from(`${"x\n".repeat(20_000)}tail`)];
    for (let round = 0; round < 2000; round++) {
      const parts: Buffer[] = [];
      const count = next(12);
      for (let k = 0; k < count; k++) parts.push(next(10) === 0 ? INVALID[next(INVALID.length)]! : PIECES[next(PIECES.length)]!);
      blocks.push(Buffer.concat(parts));
    }
    for (const block of blocks) {
      const expected: Line[] = [];
      splitBlock(block, 1, expected);
      const lineEnds = ends.of(block);
      const lines = Array.from(lineEnds, (end, k) => {
        const bytes = block.subarray(k === 0 ? 0 : lineEnds[k - 1]! + 1, end);
        return isUtf8(bytes)
          ? { lineNo: k + 1, text: lineText(bytes.toString("utf8"), k + 1), invalidUtf8: false }
          : { lineNo: k + 1, text: null, invalidUtf8: true };
      });
      expect(lines, JSON.stringify(block.subarray(0, 200).toString("latin1"))).toEqual(expected);
    }
  });
});

describe("LineEnds of blocks of the readers' size", () => {
  /** The ends as the definition gives them: each newline's offset, then the block's end unless it ends in one (an empty block: one line). */
  const reference = (block: Uint8Array): number[] => {
    const ends: number[] = [];
    block.forEach((byte, k) => {
      if (byte === 0x0a) ends.push(k);
    });
    if (ends.length === 0 || ends[ends.length - 1] !== block.length - 1) ends.push(block.length);
    return ends;
  };

  it("finds every newline, wherever it lies in a 16-byte step, in blocks up to and past the module's size", () => {
    const next = seededDraws(5);
    const ends = new LineEnds();
    const sizes = [0, 1, 15, 16, 17, (1 << 14) - 1, 1 << 14, (1 << 14) + 1, 100_003, (1 << 20) - 1, 1 << 20, (1 << 20) + 1];
    for (const size of sizes) {
      for (const spacing of [3, 16, 17, 140, 5000]) {
        const block = Buffer.alloc(size, 0x61);
        for (let k = next(spacing); k < size; k += 1 + next(2 * spacing)) block[k] = 0x0a;
        // A byte that only looks like a newline in its low bits, and multi-byte UTF-8.
        if (size > 3) block.set([0x8a, 0xe2, 0x80], next(size - 3));
        for (const last of [0x0a, 0x62]) {
          if (size > 0) block[size - 1] = last;
          expect(Array.from(ends.of(block)), `size ${size}, spacing ${spacing}`).toEqual(reference(block));
        }
      }
    }
  });

  it("gives the same ends when a block has more newlines than the module has room for", () => {
    const ends = new LineEnds();
    for (const block of [Buffer.alloc(1 << 20, 0x0a), Buffer.from("ab\n".repeat(300_000).slice(0, 1 << 20))]) {
      expect(Array.from(ends.of(block))).toEqual(reference(block));
    }
  });
});

describe("readLines across blocks", () => {
  it("numbers and decodes the lines of a file of several read blocks as the file has them", async () => {
    // ≈ 2.7 MiB: the first block is decoded a line at a time, the others a block at a time.
    const parts: Buffer[] = [Buffer.from("\uFEFF", "utf8")];
    for (let k = 0; k < 40_000; k++) {
      if (k % 997 === 0) parts.push(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
      else parts.push(Buffer.from(`{"k":${k},"pad":"${"é".repeat(k % 50)}"}${k % 7 === 0 ? "\r" : ""}\n`, "utf8"));
    }
    const bytes = Buffer.concat(parts);
    // The expected lines, worked out here from the bytes: split at 0x0a, a final "\r" and the
    // first line's BOM dropped, a line that is not UTF-8 read as null.
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const expected: Line[] = [];
    let start = 0;
    for (let lineNo = 1; start < bytes.length; lineNo++) {
      const end = bytes.indexOf(0x0a, start);
      let text: string | null;
      try {
        text = strict.decode(bytes.subarray(start, end));
      } catch {
        text = null;
      }
      if (text === null) expected.push({ lineNo, text: null, invalidUtf8: true });
      else expected.push({ lineNo, text: (lineNo === 1 ? text.replace(/^\uFEFF/, "") : text).replace(/\r$/, ""), invalidUtf8: false });
      start = end + 1;
    }
    expect(bytes.length).toBeGreaterThan(2 * 2 ** 20);
    expect(await linesOf(bytes)).toEqual(expected);
    // A file is read through one reused buffer: a reader that waits between lines (the event loop
    // turning, as a server's log reader does) still gets each line of the lazily decoded first block.
    const path = join(tmp.dir, "waits.jsonl");
    writeFileSync(path, bytes);
    const waited: Line[] = [];
    for await (const line of readLines(path)) {
      if (line.lineNo % 500 === 0) await new Promise(setImmediate);
      waited.push(line);
    }
    expect(waited).toEqual(expected);
    // The same bytes from a stream, in chunks of an odd size: the stream path cuts the same lines.
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let at = 0; at < bytes.length; at += 65_537) yield bytes.subarray(at, at + 65_537);
    }
    const streamed: Line[] = [];
    for await (const line of readLines({ name: "<stream>", chunks: chunks() })) streamed.push(line);
    expect(streamed).toEqual(expected);
  });
});
