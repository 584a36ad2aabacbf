// One run's files in --out: a re-run with fewer --report formats leaves exactly its own set (the
// earlier run's report.md, report.html and JUnit file, which mari wrote, are removed); a file of
// one of those names that mari did not write makes the run refuse before it starts, naming it,
// and stays untouched; --out naming a file is said to be one.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-out-set-");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

afterAll(() => cleanup());

async function dump(): Promise<string> {
  const path = join(dir, "dump.jsonl");
  const r = await runMari(["predict", SLICE, "--judge", "lexical", "--out", path, "--quiet"]);
  expect(r.code, r.stderr).toBe(0);
  return path;
}

describe("the report files in --out", () => {
  it("a re-run with fewer formats leaves exactly the new set", async () => {
    const predictions = await dump();
    const out = join(dir, "out");
    const first = await runMari(["eval", SLICE, "--predictions", predictions, "--out", out, "--quiet"]);
    expect(first.code, first.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["cases.jsonl", "report.html", "report.json", "report.junit.xml", "report.md"]);
    const second = await runMari(["eval", SLICE, "--predictions", predictions, "--out", out, "--report", "json,md", "--quiet"]);
    expect(second.code, second.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["cases.jsonl", "report.json", "report.md"]);
    const third = await runMari(["eval", SLICE, "--predictions", predictions, "--out", out, "--report", "json", "--quiet"]);
    expect(third.code, third.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["cases.jsonl", "report.json"]);
  });

  it("refuses, naming it, a file mari did not write under a report name it would leave behind", async () => {
    const predictions = join(dir, "dump.jsonl");
    const out = join(dir, "mine");
    expect((await runMari(["eval", SLICE, "--predictions", predictions, "--out", out, "--report", "json,md", "--quiet"])).code).toBe(0);
    writeFileSync(join(out, "report.html"), "<p>my own notes</p>\n");
    const r = await runMari(["eval", SLICE, "--predictions", predictions, "--out", out, "--report", "json,md", "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${out} holds ${join(out, "report.html")}`);
    expect(r.stderr).toContain("which mari did not write: move or delete it, add its format to --report, or choose another --out");
    expect(readFileSync(join(out, "report.html"), "utf8")).toBe("<p>my own notes</p>\n");
  });

  it("--out naming a file: says a file is in the way, no raw EEXIST", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x\n");
    for (const args of [
      ["eval", SLICE],
      ["view", dir],
    ]) {
      const r = await runMari([...args, "--out", file, "--quiet"]);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).not.toMatch(/EEXIST|ENOTDIR/);
      expect(r.stderr, args[0]).toMatch(/--out .*a-file: (a file is in the way|is a file)/);
    }
  });
});
