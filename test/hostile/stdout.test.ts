// Issue 11, crashes: stdout that cannot be written (ENOSPC on /dev/full, EPIPE on a pipe whose
// reader has gone) is an unwritable output: exit 2 with one line on stderr, never the gate-failed
// code 1 and never a stack trace.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, MARI_BIN, tempDir } from "../support/cli.js";
import { DOC_SLICE, firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-stdout-");
afterAll(() => tmp.cleanup());

/** Runs mari with stdout on `/dev/full`, or on a pipe closed before anything is read. */
function runWithStdout(args: string[], stdout: "full" | "closed"): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const fd = stdout === "full" ? openSync("/dev/full", "w") : undefined;
    const child = spawn(process.execPath, [MARI_BIN, ...args], { stdio: ["ignore", fd ?? "pipe", "pipe"], env: childEnv({ NO_COLOR: "1" }) });
    if (fd !== undefined) closeSync(fd);
    else child.stdout!.destroy();
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

// Enough verdicts to overflow any pipe buffer, so the write after the reader left must fail.
const base = firstLines(PAIRS, 20).map((l) => JSON.parse(l) as Record<string, unknown>);
const many = write(
  tmp.dir,
  "many-pairs.jsonl",
  `${Array.from({ length: 6000 }, (_, i) => JSON.stringify({ ...base[i % base.length], id: `p${i}` })).join("\n")}\n`,
);

describe.skipIf(!existsSync("/dev/full"))("stdout on /dev/full", () => {
  it.each([
    ["classify", ["classify", PAIRS]],
    ["eval summary", ["eval", PAIRS, "--out", join(tmp.dir, "o1"), "--progress", "none"]],
    ["predict --out -", ["predict", DOC_SLICE, "--judge", "lexical", "--out", "-"]],
  ])("%s: exit 2, one line", async (_name, args) => {
    const r = await runWithStdout(args, "full");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^(.*\n)?mari: stdout: cannot write \(ENOSPC\)\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("stdout on a closed pipe", () => {
  it.each([
    ["classify", ["classify", many]],
    ["predict --out -", ["predict", DOC_SLICE, "--judge", "lexical", "--out", "-"]],
  ])("%s: exit 2, one line", async (_name, args) => {
    const r = await runWithStdout(args, "closed");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/mari: stdout: cannot write \(EPIPE\)\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  });
});
