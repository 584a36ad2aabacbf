// The cases digest (src/report/cases-digest.ts): XXH64 with seed 0 as 16 lowercase hex digits,
// whatever pieces the bytes come in; recorded with the schema version that added it; and checked
// for whichever digest fields a report carries. The digest against an independent implementation:
// cases-digest-oracle.test.ts.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { casesHasher, checkCasesDigest, recordCasesDigests, writtenCasesDigest } from "../../src/report/cases-digest.js";
import { laterSchemaVersion, type Report } from "../../src/report/types.js";
import { tempDir } from "../support/cli.js";
import { xxh64Hex } from "../support/cases.js";
import { fixtureReport } from "./fixture.js";

const tmp = tempDir("mari-cases-digest-");
afterAll(() => tmp.cleanup());

async function digestOf(...pieces: Array<string | Uint8Array>): Promise<string> {
  const hasher = await casesHasher();
  for (const piece of pieces) hasher.update(typeof piece === "string" ? Buffer.from(piece) : piece);
  return hasher.digest();
}

describe("the cases digest", () => {
  it("is XXH64 with seed 0: the published vectors", async () => {
    expect(await digestOf("")).toBe("ef46db3751d8e999");
    expect(await digestOf("a")).toBe("d24ec4f1a98c6e5b");
  });

  it("keeps the leading zeros (16 digits)", async () => {
    // XXH64 of these bytes is 0x769dd8e6f48bdc (python's xxhash 4.0.1: 00769dd8e6f48bdc).
    expect(await digestOf("line 572\n")).toBe("00769dd8e6f48bdc");
  });

  it("does not depend on how the bytes are cut, and reads a written file in chunks to the same digest", async () => {
    // Over 1 MiB, so the file is read in more than one chunk; not a multiple of XXH64's 32-byte stripes.
    const bytes = new Uint8Array((1 << 20) + 4321);
    let x = 12345;
    for (let i = 0; i < bytes.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      bytes[i] = x >>> 24;
    }
    const whole = xxh64Hex(bytes);
    expect(await digestOf(bytes)).toBe(whole);
    expect(await digestOf(bytes.subarray(0, 7), bytes.subarray(7, 40), bytes.subarray(40, 1 << 19), bytes.subarray(1 << 19))).toBe(whole);
    const path = join(tmp.dir, "cases.jsonl");
    writeFileSync(path, bytes);
    expect(await writtenCasesDigest(path)).toBe(whole);
  });

  it("is recorded under each file's field with the schema version that added it, never lowering a later one", async () => {
    const cases = { path: join(tmp.dir, "cases.jsonl"), digest: "0123456789abcdef" };
    const report = { ...fixtureReport(), schema_version: "1.1.0" } as Report;
    await recordCasesDigests(report, [cases]);
    expect(report).toMatchObject({ schema_version: "1.3.0", cases_xxh64: "0123456789abcdef" });
    // A file its writer did not hash is read; located.jsonl's field came in 1.4.0.
    const located = join(tmp.dir, "located.jsonl");
    writeFileSync(located, '{"case_id":"a"}\n');
    await recordCasesDigests(report, [{ path: located }]);
    expect(report).toMatchObject({ schema_version: "1.4.0", cases_xxh64: "0123456789abcdef", located_xxh64: xxh64Hex('{"case_id":"a"}\n') });
    const later = { ...fixtureReport(), schema_version: "1.10.0" } as Report;
    await recordCasesDigests(later, [cases]);
    expect(later.schema_version).toBe("1.10.0");
    await expect(recordCasesDigests(later, [{ path: join(tmp.dir, "rewards.jsonl"), digest: "0123456789abcdef" }])).rejects.toThrow(/not a per-case file/);
    expect(laterSchemaVersion("1.2.0", "1.3.0")).toBe("1.3.0");
    expect(laterSchemaVersion("2.0.0", "1.3.0")).toBe("2.0.0");
  });

  it("is not looked for when the report records none (a hand-made report): the file is not even read", async () => {
    await expect(checkCasesDigest("report.json", {}, join(tmp.dir, "absent", "cases.jsonl"))).resolves.toBeUndefined();
  });

  it("checks each field a report carries with its own hash", async () => {
    const path = join(tmp.dir, "checked", "cases.jsonl");
    mkdirSync(join(tmp.dir, "checked"));
    const text = '{"case_id":"a"}\n';
    writeFileSync(path, text);
    const sha256 = createHash("sha256").update(text).digest("hex");
    const xxh64 = xxh64Hex(text);
    const wrong = (hex: string) => (hex[0] === "0" ? "1" : "0") + hex.slice(1);
    await expect(checkCasesDigest("r.json", { cases_xxh64: xxh64 }, path)).resolves.toBeUndefined();
    await expect(checkCasesDigest("r.json", { cases_sha256: sha256 }, path)).resolves.toBeUndefined();
    await expect(checkCasesDigest("r.json", { cases_xxh64: xxh64, cases_sha256: sha256 }, path)).resolves.toBeUndefined();
    const refused = (field: string) =>
      `${path}: does not match r.json (its ${field} differs): the run was interrupted between the two files, or one was changed; rerun it`;
    await expect(checkCasesDigest("r.json", { cases_xxh64: wrong(xxh64) }, path)).rejects.toThrow(refused("cases_xxh64"));
    await expect(checkCasesDigest("r.json", { cases_sha256: wrong(sha256) }, path)).rejects.toThrow(refused("cases_sha256"));
    await expect(checkCasesDigest("r.json", { cases_xxh64: xxh64, cases_sha256: wrong(sha256) }, path)).rejects.toThrow(refused("cases_sha256"));
    await expect(checkCasesDigest("r.json", { cases_xxh64: wrong(xxh64), cases_sha256: sha256 }, path)).rejects.toThrow(refused("cases_xxh64"));
  });

  it("checks a located.jsonl against located_xxh64 only: the digests of cases.jsonl are another file's", async () => {
    const path = join(tmp.dir, "located.jsonl");
    const text = '{"case_id":"b"}\n';
    writeFileSync(path, text);
    const xxh64 = xxh64Hex(text);
    const other = xxh64Hex("another file\n");
    await expect(checkCasesDigest("r.json", { located_xxh64: xxh64, cases_xxh64: other }, path)).resolves.toBeUndefined();
    await expect(checkCasesDigest("r.json", { cases_xxh64: other }, path)).resolves.toBeUndefined();
    await expect(checkCasesDigest("r.json", { located_xxh64: other, cases_xxh64: xxh64 }, path)).rejects.toThrow(
      `${path}: does not match r.json (its located_xxh64 differs)`,
    );
  });
});
