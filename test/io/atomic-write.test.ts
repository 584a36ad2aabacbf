// Outputs that cannot be written are input errors naming the path (exit 2), never internal errors,
// and leave no temp file behind. The commands that write through these helpers are checked too.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import { AtomicLineWriter, writeFileAtomic } from "../../src/io/atomic-write.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-atomic-");
afterAll(() => tmp.cleanup());

describe("atomic writes to an unwritable place", () => {
  const aFile = join(tmp.dir, "a-file");
  writeFileSync(aFile, "keep me");
  const aDir = join(tmp.dir, "a-dir");
  mkdirSync(aDir);

  it("writeFileAtomic under a path that is a file: InputError naming the target", async () => {
    const target = join(aFile, "report.json");
    await expect(writeFileAtomic(target, "{}")).rejects.toThrow(InputError);
    await expect(writeFileAtomic(target, "{}")).rejects.toThrow(`${target}: cannot write (`);
    expect(readFileSync(aFile, "utf8")).toBe("keep me");
  });

  it("writeFileAtomic onto a directory: InputError, no temp file left", async () => {
    await expect(writeFileAtomic(aDir, "{}")).rejects.toThrow(`${aDir}: cannot write (EISDIR`);
    expect(readdirSync(tmp.dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("AtomicLineWriter: open under a file and commit onto a directory are InputErrors", async () => {
    await expect(AtomicLineWriter.open(join(aFile, "cases.jsonl"))).rejects.toThrow(InputError);
    // A directory is refused when the writer is opened (src/io/output-guard.ts), before any line is written.
    await expect(AtomicLineWriter.open(aDir)).rejects.toThrow(`${aDir}: cannot write (EISDIR`);
    expect(readdirSync(tmp.dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a writer still works for a good target", async () => {
    const target = join(tmp.dir, "out", "ok.jsonl");
    const writer = await AtomicLineWriter.open(target);
    for (let i = 0; i < 3; i++) await writer.write(`${i}\n`);
    await writer.commit();
    expect(readFileSync(target, "utf8")).toBe("0\n1\n2\n");
  });

  it("a writer keeps the order of writes not awaited, small and large, text and bytes; abort leaves nothing", async () => {
    const target = join(tmp.dir, "out", "order.jsonl");
    const writer = await AtomicLineWriter.open(target);
    const pieces: (string | Uint8Array)[] = [];
    for (let i = 0; i < 200; i++) pieces.push(i % 3 === 0 ? Buffer.from(`${i}:${"b".repeat(i * 37)}\n`) : `${i}:${"t".repeat((i * 997) % 40000)}\n`);
    await Promise.all(pieces.map((piece) => writer.write(piece)));
    const temp = await writer.finish();
    const expected = Buffer.concat(pieces.map((piece) => (typeof piece === "string" ? Buffer.from(piece) : piece)));
    expect(readFileSync(temp).equals(expected)).toBe(true);
    await writer.commit();
    expect(readFileSync(target).equals(expected)).toBe(true);
    const dropped = await AtomicLineWriter.open(join(tmp.dir, "out", "dropped.jsonl"));
    await dropped.write("x".repeat(100_000));
    await dropped.abort();
    expect(readdirSync(join(tmp.dir, "out")).sort()).toEqual(["ok.jsonl", "order.jsonl"]);
  });
});

describe("commands with an unwritable output exit 2 (were 3)", () => {
  const aFile = join(tmp.dir, "out-file");
  writeFileSync(aFile, "");
  const aDir = join(tmp.dir, "out-dir");
  mkdirSync(aDir);
  const data = (...parts: string[]) => join(ROOT, "datasets", ...parts);

  it.each([
    ["sweep --out FILE", ["sweep", data("memory-pairs/mari-pairs.jsonl"), "--out", aFile, "--workers", "1", "--quiet"]],
    ["predict --out DIR", ["predict", data("contradoc/contradoc-160.jsonl"), "--judge", "lexical", "--out", aDir]],
    ["evidence --out FILE", ["evidence", data("evidence-example/docs.jsonl"), "--facts", data("evidence-example/facts.jsonl"), "--out", aFile, "--quiet"]],
  ])("%s", async (name, args) => {
    const r = await runMari(args);
    expect(r.code, r.stderr).toBe(2);
    // --out onto a file is named as such when the folder is made; a folder where a file goes fails the write.
    expect(r.stderr).toContain(name.endsWith("FILE") ? `--out ${aFile}: a file is in the way (--out names a folder for the reports)` : "cannot write (");
    expect(r.stderr).not.toContain("internal error");
  });
});
