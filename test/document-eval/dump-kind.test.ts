// How an eval tells what holds its dump's lines: the first non-blank line the sniffers read from
// the file's head, as `readLines` would give it, and the kind told once per version of a settled
// file, sniffed again when the file changes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { firstNonBlankLine, readLines, type Line } from "../../src/io/lines.js";
import { isConvertedDump } from "../../src/tasks/document/dump-source.js";
import { tempDir } from "../support/cli.js";

const tmp = tempDir("mari-dump-kind-");
afterAll(() => tmp.cleanup());

/** The first non-blank line as `readLines` yields it, an invalid one included. */
async function byReadLines(path: string): Promise<Line | null> {
  for await (const line of readLines(path)) if (line.invalidUtf8 || line.text.trim() !== "") return line;
  return null;
}

describe("firstNonBlankLine", () => {
  const contents: Array<[string, Buffer]> = [
    ["text after blank lines", Buffer.from('\n  \r\n\t\n{"case_id": "a"}\nmore\n')],
    ["a byte order mark and CRLF", Buffer.from('\uFEFF{"a": 1}\r\n', "utf8")],
    ["invalid UTF-8 first", Buffer.concat([Buffer.from("\n"), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("\n{}\n")])],
    ["only blank lines", Buffer.from("\n \n\r\n")],
    ["an empty file", Buffer.alloc(0)],
    ["no final newline", Buffer.from("\n\nlast")],
    ["a first line past the head", Buffer.from(`\n${"x".repeat(100_000)}\nnext\n`)],
    ["blank lines past the head", Buffer.from(`${" \n".repeat(40_000)}{"late": true}\n`)],
  ];
  it.each(contents)("gives readLines' first non-blank line: %s", async (name, bytes) => {
    const path = join(tmp.dir, `${name.replaceAll(" ", "-")}.jsonl`);
    writeFileSync(path, bytes);
    expect(await firstNonBlankLine(path)).toEqual(await byReadLines(path));
  });
});

describe("the dump's kind", () => {
  it("is told again when a settled file is written anew", async () => {
    const path = join(tmp.dir, "dump.jsonl");
    writeFileSync(path, `${JSON.stringify({ case_id: "a", run: 0, judgment: false, evidence_sentence_ids: [], reasoning: "No." })}\n`);
    expect(await isConvertedDump(path)).toBe(false);
    // Settled (written more than three seconds ago): its kind is remembered for this version.
    await new Promise((resolve) => setTimeout(resolve, 3200));
    expect(await isConvertedDump(path)).toBe(false);
    expect(await isConvertedDump(path)).toBe(false);
    // The same path, now a promptfoo JSONL output: a new version of the file, sniffed again.
    writeFileSync(path, `${JSON.stringify({ testIdx: 0, promptIdx: 0, provider: { id: "echo" }, response: { output: "x" } })}\n`);
    expect(await isConvertedDump(path)).toBe(true);
  }, 30_000);
});
