// A file's sha256 remembered by its identity: taken from the memo while the file is as it was,
// hashed again after any write, and remembered only for a file written long enough before the read.
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rememberedSha256, SETTLED_NS } from "../../src/io/content-memo.js";

const dir = mkdtempSync(join(tmpdir(), "mari-content-memo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

/**
 * Writes `text` (by `write`) once the file system's clock has moved on from the file's change time:
 * two writes within one tick of it leave the times alike, the case the real clock's SETTLED_NS
 * rule covers and `later` (below) does not.
 */
async function writeInANewTick(file: string, write: () => void): Promise<void> {
  const before = statSync(file, { bigint: true }).ctimeNs;
  for (;;) {
    write();
    if (statSync(file, { bigint: true }).ctimeNs !== before) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
/** A clock this far past the real one: every file written by the test is settled by it. */
const later = (): number => Date.now() + 2 * Number(SETTLED_NS / 1_000_000n);

describe("rememberedSha256", () => {
  it("remembers a settled file's hash and takes it from the memo while the file is as it was", async () => {
    const file = join(dir, "a.jsonl");
    const memo = join(dir, "memo-a");
    writeFileSync(file, '{"id": "a"}\n');
    expect(await rememberedSha256(file, memo, later)).toBe(sha256(file));
    const [name] = readdirSync(memo);
    expect(readFileSync(join(memo, name!), "latin1")).toBe(sha256(file));
    // The memo is what answers now: a hash written into it comes back, the file unread.
    const planted = "0".repeat(64);
    writeFileSync(join(memo, name!), planted);
    expect(await rememberedSha256(file, memo, later)).toBe(planted);
    // Anything but a hash in the memo is passed over, and the file hashed.
    writeFileSync(join(memo, name!), "not a hash");
    expect(await rememberedSha256(file, memo, later)).toBe(sha256(file));
  });

  it("hashes a file again after any write: longer, or rewritten at the same length", async () => {
    const file = join(dir, "b.jsonl");
    const memo = join(dir, "memo-b");
    writeFileSync(file, "one\n");
    await rememberedSha256(file, memo, later);
    await writeInANewTick(file, () => appendFileSync(file, "two\n"));
    expect(await rememberedSha256(file, memo, later)).toBe(sha256(file));
    const upper = readFileSync(file, "utf8").toUpperCase();
    await writeInANewTick(file, () => writeFileSync(file, upper));
    expect(upper.length).toBe(statSync(file).size);
    expect(await rememberedSha256(file, memo, later)).toBe(sha256(file));
    expect(readdirSync(memo).length).toBe(3);
  });

  it("remembers nothing for a file written within SETTLED_NS of the read", async () => {
    const file = join(dir, "c.jsonl");
    const memo = join(dir, "memo-c");
    writeFileSync(file, "fresh\n");
    expect(await rememberedSha256(file, memo)).toBe(sha256(file));
    expect(() => readdirSync(memo)).toThrow();
  });

  it("leaves what is not a regular file to sha256File's errors", async () => {
    await expect(rememberedSha256(join(dir, "missing.jsonl"), join(dir, "memo-d"), later)).rejects.toThrow();
    await expect(rememberedSha256(dir, join(dir, "memo-d"), later)).rejects.toThrow();
  });
});
