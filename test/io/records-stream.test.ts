// readRecords from a stream (stdin): sniffed from the head, then replayed, must give exactly what
// the same bytes give from a file, whatever the chunk boundaries.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRecords, type RecordItem } from "../../src/io/records.js";
import { readLines, STDIN_NAME, type StreamSource } from "../../src/io/lines.js";
import { tempDir } from "../support/cli.js";

const tmp = tempDir("mari-records-stream-");
afterAll(() => tmp.cleanup());

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(items: AsyncIterable<RecordItem>): Promise<RecordItem[]> {
  const out: RecordItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const INPUTS: Record<string, string> = {
  jsonl: '{"id":"1"}\n\n{bad\n[1]\r\n{"id":"2","t":"é"}\n{"id":"3"}',
  bomBlankJsonl: '\uFEFF\n \n{"id":"1"}\n{"id":"2"}\n',
  csv: '\uFEFFid,text\r\n1,"two\nlines"\r\n2,plain,extra\r\n3,"x"\r\n',
  csvStrayQuote: 'id,text\n1,ok\n2,"bad"q\n3,kept\n4,"open\n5,kept too\n6,"x"y',
  longFirstLine: `${JSON.stringify({ id: "long", text: "Alpha. ".repeat(20_000) })}\n{"id":"short"}\n`,
  jsonArray: '[\n  {"id": "a"},\n  2\n]\n',
  container: '{"pos": {"p1": {"text": "x"}}, "neg": {"n1": {"text": "y"}}}',
  empty: "",
};

describe("readRecords from a stream", () => {
  for (const [label, content] of Object.entries(INPUTS)) {
    it(`${label}: same records and line numbers as from a file, for any chunking`, async () => {
      const path = join(tmp.dir, `${label}.data`);
      writeFileSync(path, content);
      const fromFile = (await collect(readRecords(path))).map((item) => ({ ...item, where: item.where.replace(path, STDIN_NAME) }));
      const bytes = Buffer.from(content, "utf8");
      for (const size of [1, 3, 64, 1 << 16, bytes.length + 1]) {
        if (size < 64 && bytes.length > 10_000) continue; // the long line: tiny chunks add nothing but time
        const source: StreamSource = { name: STDIN_NAME, chunks: chunked(bytes, size) };
        expect(await collect(readRecords(source)), `chunks of ${size}`).toEqual(fromFile);
      }
    });
  }

  it("reads lines of a stream with a split multi-byte character and invalid UTF-8", async () => {
    const bytes = Buffer.concat([Buffer.from("a\né\n"), Buffer.from([0xff, 0x0a]), Buffer.from("z")]);
    const lines = [];
    for await (const line of readLines({ name: STDIN_NAME, chunks: chunked(bytes, 1) })) lines.push(line);
    expect(lines.map((l) => [l.lineNo, l.text])).toEqual([
      [1, "a"],
      [2, "é"],
      [3, null],
      [4, "z"],
    ]);
  });

  it("releases the stream when the reader stops early", async () => {
    let released = false;
    async function* endless(): AsyncGenerator<Buffer> {
      try {
        for (let i = 0; ; i++) yield Buffer.from(`{"id":"${i}"}\n`);
      } finally {
        released = true;
      }
    }
    const ids: unknown[] = [];
    for await (const item of readRecords({ name: STDIN_NAME, chunks: endless() })) {
      ids.push(item.record?.id);
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(["0", "1", "2"]);
    expect(released).toBe(true);
  });
});
