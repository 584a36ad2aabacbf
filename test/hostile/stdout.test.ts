// Crashes: stdout that cannot be written (ENOSPC on /dev/full, EPIPE on a pipe whose
// reader has gone) is an unwritable output: exit 2 with one line on stderr, never the gate-failed
// code 1 and never a stack trace.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/cli.js";
import { DOC_SLICE, firstLines, PAIRS, runWithBrokenStream, write } from "./helpers.js";

const tmp = tempDir("mari-stdout-");
afterAll(() => tmp.cleanup());

// Enough verdicts to overflow any pipe buffer, so the write after the reader left must fail.
const base = firstLines(PAIRS, 20).map((l) => JSON.parse(l) as Record<string, unknown>);
const many = write(
  tmp.dir,
  "many-pairs.jsonl",
  `${Array.from({ length: 6000 }, (_, i) => JSON.stringify({ ...base[i % base.length], id: `p${i}` })).join("\n")}\n`,
);

describe.skipIf(!existsSync("/dev/full"))("stdout on /dev/full", () => {
  it.each([
    ["classify", ["classify", PAIRS, "--progress", "none"]],
    ["eval summary", ["eval", PAIRS, "--out", join(tmp.dir, "o1"), "--progress", "none"]],
    ["predict --out -", ["predict", DOC_SLICE, "--judge", "lexical", "--out", "-", "--progress", "none"]],
  ])("%s: exit 2, one line", async (_name, args) => {
    const r = await runWithBrokenStream(args, "stdout", "full");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^(.*\n)?mari: stdout: cannot write \(ENOSPC\)\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("stdout on a closed pipe", () => {
  it.each([
    ["classify", ["classify", many, "--progress", "none"]],
    ["predict --out -", ["predict", DOC_SLICE, "--judge", "lexical", "--out", "-", "--progress", "none"]],
  ])("%s: exit 2, one line", async (_name, args) => {
    const r = await runWithBrokenStream(args, "stdout", "closed");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/mari: stdout: cannot write \(EPIPE\)\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  });
});
