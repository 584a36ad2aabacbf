// Fourth round, `.eval` zips (findings 3, 10 and 18): every size and offset the central directory
// declares is checked against the file before anything is allocated; members may not overlap; a
// member decompresses to its declared size, within the record bound; its CRC-32 is checked.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { evalLogLines } from "../../src/judges/eval-logs.js";
import { MAX_DECODED_RECORD_BYTES } from "../../src/io/input-contract.js";
import { runMari, tempDir } from "../support/cli.js";
import { zipBytes } from "../support/zip.js";
import { centralEntries, inspectEvalBytes, sliceCases } from "./eval-log-fixtures.js";
import { expectInputError, expectNoCrash } from "./helpers.js";

const tmp = tempDir("mari-eval-zip-");
afterAll(() => tmp.cleanup());
const { lines: sliceLines, cases } = sliceCases(6);
const slicePath = join(tmp.dir, "slice.jsonl");
writeFileSync(slicePath, `${sliceLines.join("\n")}\n`);
const q = ["--quiet", "--progress", "none", "--workers", "1", "--report", "json"];

function writeEval(name: string, bytes: Buffer): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The dump line evalLogLines gives for the member of `caseId`, epoch 1. */
async function lineOfCase(path: string, caseId: string): Promise<Record<string, unknown>> {
  const lines = (await evalLogLines(path, "inspect-eval")).map((l) => JSON.parse(l!) as Record<string, unknown>);
  const found = lines.find((l) => l.case_id === caseId && l.run === "1");
  expect(found, JSON.stringify(lines)).toBeDefined();
  return found!;
}

describe("a .eval's central directory is checked before anything is allocated", () => {
  it("finding 3: a member's compressed size 0xFFFFFFFE is an input error naming the file, not a native abort", async () => {
    const zip = inspectEvalBytes(cases);
    zip.writeUInt32LE(0xfffffffe, centralEntries(zip)[1]! + 20);
    const path = writeEval("huge-compressed.eval", zip);
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", join(tmp.dir, "o3"), ...q]);
    expectInputError(r, /huge-compressed\.eval: starts like a zip archive .* lie beyond the members' part of the file/);
  });

  it("finding 10: 41 directory entries naming one member are refused as overlapping, before any is decompressed", async () => {
    const big = { name: "samples/x_epoch_1.json", text: JSON.stringify({ id: cases[0]!.id, epoch: 1, note: "x".repeat(2_000_000) }) };
    const zip = zipBytes([big], 8);
    const [entry] = centralEntries(zip);
    const eocd = zip.length - 22;
    const one = zip.subarray(entry!, eocd);
    const directory = Buffer.concat(Array.from({ length: 41 }, () => one));
    const end = Buffer.from(zip.subarray(eocd));
    end.writeUInt16LE(41, 8);
    end.writeUInt16LE(41, 10);
    end.writeUInt32LE(directory.length, 12);
    const path = writeEval("overlap.eval", Buffer.concat([zip.subarray(0, entry!), directory, end]));
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", join(tmp.dir, "o10"), ...q]);
    expectInputError(r, /overlap\.eval: .*members overlap/);
  });

  it("finding 10: a member that decompresses past its declared size is that sample's error (the budget is the declared size)", async () => {
    const zip = inspectEvalBytes(cases);
    const at = centralEntries(zip)[1]!; // the first sample (after header.json)
    zip.writeUInt32LE(10, at + 24);
    const line = await lineOfCase(writeEval("understated.eval", zip), cases[0]!.id);
    expect(line.error).toMatchObject({ code: "request_failed" });
    expect(JSON.stringify(line.error)).toMatch(/cannot be decompressed|decompresses to/);
  });

  it("finding 10: a member declaring more than the record bound is not decompressed", async () => {
    // Deflate's ratio (about 1,000:1) lets a small member claim any size: the claim is refused.
    const zip = inspectEvalBytes(cases);
    zip.writeUInt32LE(MAX_DECODED_RECORD_BYTES + 1, centralEntries(zip)[1]! + 24);
    const line = await lineOfCase(writeEval("overstated.eval", zip), cases[0]!.id);
    expect(JSON.stringify(line.error)).toContain(`over the ${MAX_DECODED_RECORD_BYTES}-byte bound of one record`);
  });

  it("finding 10: a deflate bomb member is stopped at its declared size, not inflated whole", async () => {
    const bomb = deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const zip = inspectEvalBytes(cases, 0);
    const at = centralEntries(zip)[1]!;
    // The first sample's member, stored, replaced by the bomb as a deflated member of the same declared size.
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(local + 30, local + 30 + zip.readUInt16LE(local + 26));
    const header = Buffer.from(zip.subarray(local, local + 30));
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(bomb.length, 18);
    // Rebuilt by hand: one deflated member whose declared size is 2 bytes.
    const central = Buffer.from(zip.subarray(at, at + 46 + name.length));
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(bomb.length, 20);
    central.writeUInt32LE(2, 24);
    central.writeUInt32LE(0, 42);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length, 12);
    end.writeUInt32LE(30 + name.length + bomb.length, 16);
    const path = writeEval("bomb.eval", Buffer.concat([header, name, bomb, central, end]));
    const lines = await evalLogLines(path, "inspect-eval");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cannot be decompressed|decompresses to/);
  });
});

describe("a .eval member's CRC-32 is checked", () => {
  it("finding 18: a member edited after the log was written is that sample's error, not scored", async () => {
    const zip = inspectEvalBytes(cases, 0);
    // In the first sample's stored JSON, its evidence [1] becomes [2]: valid JSON, same length.
    const at = zip.indexOf('evidence_sentence_ids\\":[1]');
    expect(at).toBeGreaterThan(0);
    zip.write("2", at + 'evidence_sentence_ids\\":['.length, "latin1");
    const path = writeEval("edited.eval", zip);
    const line = await lineOfCase(path, cases[0]!.id);
    expect(JSON.stringify(line.error)).toContain("fails its CRC-32 check");
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", join(tmp.dir, "o18"), ...q]);
    expectNoCrash(r);
  });
});

describe("a .eval member's text is strict UTF-8", () => {
  it("a member holding invalid UTF-8 (its CRC-32 right) is that sample's error, not decoded to U+FFFD", async () => {
    const zip = inspectEvalBytes(cases, 0);
    const central = centralEntries(zip)[1]!;
    const local = zip.readUInt32LE(central + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26);
    const size = zip.readUInt32LE(central + 20);
    // A byte of the stored sample's reasoning ("Compare …") becomes 0xFF; the CRC-32 is made to match.
    const at = zip.indexOf("Compare", start);
    expect(at).toBeGreaterThan(start);
    zip[at] = 0xff;
    const crc = crc32(zip.subarray(start, start + size));
    zip.writeUInt32LE(crc, local + 14);
    zip.writeUInt32LE(crc, central + 16);
    const line = await lineOfCase(writeEval("invalid-utf8.eval", zip), cases[0]!.id);
    expect(JSON.stringify(line.error)).toContain("is not valid UTF-8");
  });
});
