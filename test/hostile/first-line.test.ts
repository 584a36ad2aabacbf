// One line never decides how a whole pairs or documents file is read: the format is sniffed from
// several lines, so a bad first line (malformed, `""`, `true`, garbage) is that line's rejection and
// invalid UTF-8 elsewhere stays that line's; a CSV's header decides its task even when its first
// data row cannot be read, and a stray quote there costs that row only. Through the real CLI.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { expectNoCrash, firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-first-line-");
afterAll(() => tmp.cleanup());
const pairLines = firstLines(PAIRS, 12);
let n = 0;

async function classify(text: string | Buffer) {
  const r = await runMari(["classify", write(tmp.dir, `in-${n++}.jsonl`, text)]);
  expectNoCrash(r);
  return { code: r.code, verdicts: r.stdout.trim() === "" ? 0 : r.stdout.trim().split("\n").length, stderr: r.stderr };
}

const lines = (...parts: Array<string | Buffer>): Buffer => Buffer.concat(parts.map((p) => Buffer.concat([Buffer.from(p), Buffer.from("\n")])));
const INVALID = Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"id":"\xff"}

describe("a bad first line is one rejection", () => {
  it("a malformed first line plus invalid UTF-8 further on: two rejections, every valid pair read", async () => {
    const r = await classify(lines('{"id": "bad", "new": ', ...pairLines.slice(1, 6), INVALID, ...pairLines.slice(6)));
    expect(r.code, r.stderr).toBe(0);
    expect(r.verdicts).toBe(pairLines.length - 1);
    expect(r.stderr).toMatch(/:1: malformed_json/);
    expect(r.stderr).toMatch(/:7: invalid_utf8: line is not valid UTF-8/);
    expect(r.stderr).not.toMatch(/the file is not valid UTF-8/);
  });

  it("a head of mostly non-objects with invalid UTF-8 after a malformed first line: still JSONL, line by line", async () => {
    const r = await classify(lines("{bad", "[1]", "[2]", pairLines[0]!, INVALID, pairLines[1]!));
    expect(r.verdicts, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/4 records rejected \(invalid_utf8: 1, malformed_json: 1, not_an_object: 2\)/);
  });

  it.each([['""'], ["true"], ["garbage, not JSON"]])("first line %s: read as JSONL, not CSV", async (first) => {
    const r = await classify(lines(first, ...pairLines.slice(1)));
    expect(r.code, r.stderr).toBe(0);
    expect(r.verdicts).toBe(pairLines.length - 1);
    expect(r.stderr).toMatch(/1 record rejected/);
  });

  it("leading `true` lines: eval reads a pairs file as pairs, as classify does", async () => {
    const path = write(tmp.dir, "true-lines.jsonl", lines("true", "true", ...pairLines));
    const c = await classify(lines("true", "true", ...pairLines));
    expect(c.verdicts).toBe(pairLines.length);
    const out = join(tmp.dir, "true-out");
    const r = await runMari(["eval", path, "--out", out, "--quiet", "--report", "json"]);
    expectNoCrash(r);
    expect(r.stderr).not.toMatch(/slice error/);
    expect(r.stderr).toMatch(/true-lines\.jsonl:1: not_an_object/);
  });

  it("a single-column CSV of numbers is still CSV", async () => {
    const r = await runMari(["classify", write(tmp.dir, "numbers.csv", "id\n1\n2\n3\n")]);
    expectNoCrash(r);
    expect(r.stderr).toMatch(/bad_new|"new"/);
    expect(r.stderr).not.toMatch(/malformed_json|not_an_object/);
  });
});

describe("a CSV's header decides its task", () => {
  it("a stray quote in the first data row is that row's rejection: classify reads every other pair", async () => {
    const rows = pairLines.map((l) => JSON.parse(l) as { id: string; new: string; old: string });
    const csvField = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const csv = ["id,new,old", '"p1,"a b,c', ...rows.map((r) => [r.id, r.new, r.old].map(csvField).join(","))].join("\n");
    const r = await runMari(["classify", write(tmp.dir, "stray.csv", `${csv}\n`)]);
    expectNoCrash(r);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(rows.length);
    expect(r.stderr).toMatch(/stray\.csv:2: malformed_csv: malformed CSV: Invalid Closing Quote: .*reading goes on at line 3/);
  });

  it("a pairs CSV whose first data row is malformed is read as pairs, the row named", async () => {
    const out = join(tmp.dir, "csv-out");
    const csv = 'id,new,old,gold\n"p1,"a b,c,update\np2,the sky is blue,the sky was grey,update\n';
    const r = await runMari(["eval", write(tmp.dir, "bad-first.csv", csv), "--out", out, "--quiet", "--report", "json"]);
    expectNoCrash(r);
    expect(r.stderr).not.toMatch(/slice error/);
    expect(r.stderr).toMatch(/bad-first\.csv:2: malformed_csv/);
  });
});
