// `mari classify -` reads pairs from stdin (a pipe) through the built CLI (run `npm run build` first).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-classify-stdin-");
afterAll(() => tmp.cleanup());

describe("mari classify -", () => {
  it("classifies JSONL piped on stdin exactly like the same file", async () => {
    const corpus = "datasets/memory-pairs/mari-pairs.jsonl";
    const fromFile = await runMari(["classify", corpus, "--progress", "none"]);
    const fromPipe = await runMari(["classify", "-", "--progress", "none"], { input: readFileSync(join(ROOT, corpus), "utf8") });
    expect(fromPipe.code, fromPipe.stderr).toBe(0);
    expect(fromPipe.stdout).toBe(fromFile.stdout);
    expect(fromPipe.stdout.split("\n")).toHaveLength(162);
    expect(fromPipe.stderr).toBe(fromFile.stderr);
  });

  it("sniffs CSV on stdin and matches the file-path run", async () => {
    const csv =
      "\uFEFFid,new,old\r\n" +
      'a,"Cache entries expire after a 30 minute TTL.","Cache entries expire after a 10 minute TTL."\r\n' +
      'b,"Email is sent through SES, always.","Email is sent through SES.\nAlways."\r\n';
    const path = join(tmp.dir, "pairs.csv");
    writeFileSync(path, csv);
    const fromFile = await runMari(["classify", path]);
    const fromPipe = await runMari(["classify", "-"], { input: csv });
    expect(fromPipe.code, fromPipe.stderr).toBe(0);
    expect(fromPipe.stdout).toBe(fromFile.stdout);
    expect(fromPipe.stdout).toContain('{"id":"a","class":"update"');
  });

  it("names the bad line <stdin>:N, keeps going, and exits 2 on empty input", async () => {
    const input = [
      JSON.stringify({ id: "ok", new: "Sessions are stored in Redis.", old: "Sessions are stored in Redis." }),
      "",
      "{not json",
      JSON.stringify({ id: "no-old", new: "text" }),
    ].join("\n");
    const r = await runMari(["classify", "-"], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"id":"ok","class":"restatement","reason":"identical content"}\n');
    expect(r.stderr).toContain("<stdin>:2: blank_line: blank line");
    expect(r.stderr).toContain("<stdin>:3: malformed_json: malformed JSON");
    expect(r.stderr).toContain('<stdin>:4: bad_old: pair "no-old": "old" must be a string');

    const csv = await runMari(["classify", "-"], { input: 'id,new,old\na,x y,x z\nb,"unclosed\n' });
    expect(csv.stderr).toContain("<stdin>:3: malformed_csv: malformed CSV");

    const empty = await runMari(["classify", "-"], { input: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("no pairs classified in <stdin>");
  });
});
