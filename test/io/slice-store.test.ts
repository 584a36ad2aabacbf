// The compiled slice on disk: a slice read with a cache directory is written there, and a later
// read of the same bytes (same path, same options) in a fresh process state loads it: the same
// cases, rejected records, hashes and progress count as a read. A corrupt or truncated file is
// never trusted: the slice is read again and the file written anew.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import xxhash from "xxhash-wasm";
import { readDocumentSlice } from "../../src/io/slice.js";
import { clearSliceCache, sliceFileSha256, sliceHashOf, type DocumentSlice, type SliceReadOptions } from "../../src/io/slice-kept.js";
import { defaultCacheDir, readDocumentSliceStored } from "../../src/io/slice-store.js";
import { SETTLED_NS } from "../../src/io/content-memo.js";
import { runMari, tempDir } from "../support/cli.js";
import { caseFields, sliceFields } from "../support/slice-fields.js";

const tmp = tempDir("mari-slice-store-");
afterAll(() => tmp.cleanup());
beforeEach(() => clearSliceCache());

let n = 0;
function fresh(): { slicePath: string; cacheDir: string } {
  const dir = join(tmp.dir, `t${n++}`);
  mkdirSync(dir);
  const slicePath = join(dir, "slice.jsonl");
  const lines = readFileSync("datasets/contradoc/contradoc-160.jsonl", "utf8").split("\n");
  // Two records the reader rejects: they are part of what the cache must give back.
  lines.splice(3, 0, '{"id": "bad", "label": "perhaps", "text": "One. Two."}', "{not json");
  writeFileSync(slicePath, lines.join("\n"));
  return { slicePath, cacheDir: join(dir, "cache") };
}

async function stored(path: string, cacheDir: string, options: SliceReadOptions = {}): Promise<{ slice: DocumentSlice; ticks: number }> {
  clearSliceCache();
  let ticks = 0;
  const slice = await readDocumentSliceStored(path, { ...options, progress: { tick: (k = 1) => (ticks += k), done: () => {} } }, cacheDir);
  return { slice, ticks };
}

const files = (cacheDir: string) => readdirSync(join(cacheDir, "slices")).filter((f) => f.endsWith(".slice"));

describe("readDocumentSliceStored", () => {
  it("loads what a read gives: cases, rejected records, hashes, progress", async () => {
    const { slicePath, cacheDir } = fresh();
    const read = await readDocumentSlice(slicePath);
    const first = await stored(slicePath, cacheDir);
    expect(files(cacheDir)).toHaveLength(1);
    const second = await stored(slicePath, cacheDir);
    expect(second.slice).not.toBe(first.slice);
    expect(sliceFields(second.slice)).toEqual(sliceFields(read));
    expect(second.slice.rejected).toHaveLength(2);
    expect(sliceHashOf(second.slice)).toBe(sliceHashOf(read));
    expect(sliceFileSha256(second.slice)).toBe(sliceFileSha256(first.slice));
    expect(second.ticks).toBe(first.ticks);
    // With casesLater (mari serve), the same slice, its cases decoded when first read.
    const later = await stored(slicePath, cacheDir, { casesLater: true });
    expect(sliceHashOf(later.slice)).toBe(sliceHashOf(read));
    expect(sliceFields(later.slice)).toEqual(sliceFields(read));
  });

  it("a later read takes the file, not the slice (shown by a file re-sealed with one letter changed)", async () => {
    const { slicePath, cacheDir } = fresh();
    const read = await readDocumentSlice(slicePath);
    await stored(slicePath, cacheDir);
    const file = join(cacheDir, "slices", files(cacheDir)[0]!);
    const bytes = readFileSync(file);
    const headLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString("utf8", 4, 4 + headLength));
    const body = Buffer.from(bytes.subarray(4 + headLength));
    const first = read.cases[0]!.sentences[0]!;
    const at = body.indexOf(first, 0, header.strings.wide ? "utf16le" : "latin1");
    expect(at).toBeGreaterThan(0);
    body[at] = first.charCodeAt(0) === 0x58 ? 0x59 : 0x58;
    // Re-sealed with the package itself, not mari's wrapper of it.
    header.bodyXxh64 = (await xxhash()).h64Raw(body).toString(16).padStart(16, "0");
    const head = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(head.length);
    writeFileSync(file, Buffer.concat([length, head, body]));
    const loaded = await stored(slicePath, cacheDir);
    expect(loaded.slice.cases[0]!.sentences[0]).toBe(String.fromCharCode(body[at]!) + first.slice(1));
    expect(loaded.slice.cases.slice(1).map(caseFields)).toEqual(read.cases.slice(1).map(caseFields));
  });

  it.each([
    ["a flipped byte", (b: Buffer) => Buffer.from(b.map((x, i) => (i === b.length - 7 ? x ^ 1 : x)))],
    ["a truncated file", (b: Buffer) => b.subarray(0, b.length - 100)],
    ["a broken header", (b: Buffer) => Buffer.from(b.map((x, i) => (i === 6 ? 0x7b : x)))],
    ["an empty file", () => Buffer.alloc(0)],
  ])("%s is not trusted: the slice is read again and the file written anew", async (_name, damage) => {
    const { slicePath, cacheDir } = fresh();
    const read = await readDocumentSlice(slicePath);
    await stored(slicePath, cacheDir);
    const file = join(cacheDir, "slices", files(cacheDir)[0]!);
    const good = readFileSync(file);
    writeFileSync(file, damage(good));
    const again = await stored(slicePath, cacheDir);
    expect(sliceFields(again.slice)).toEqual(sliceFields(read));
    expect(readFileSync(file).equals(good)).toBe(true);
  });

  it("keys by content and sentence rule: changed bytes or another rule never load a stale file", async () => {
    const { slicePath, cacheDir } = fresh();
    await stored(slicePath, cacheDir);
    const punkt = await stored(slicePath, cacheDir, { sentences: "punkt" });
    expect(sliceFields(punkt.slice)).toEqual(sliceFields(await readDocumentSlice(slicePath, { sentences: "punkt" })));
    expect(files(cacheDir)).toHaveLength(2);
    const lines = readFileSync(slicePath, "utf8").split("\n");
    writeFileSync(slicePath, lines.slice(0, 40).join("\n"));
    const changed = await stored(slicePath, cacheDir);
    expect(sliceFields(changed.slice)).toEqual(sliceFields(await readDocumentSlice(slicePath)));
    expect(files(cacheDir)).toHaveLength(3);
  });

  it("a settled slice file is known by its identity the next time; a write makes it read and hashed again", async () => {
    const { slicePath, cacheDir } = fresh();
    const read = await readDocumentSlice(slicePath);
    // Older than SETTLED_NS by the real clock, as a slice kept between runs is.
    await new Promise((resolve) => setTimeout(resolve, Number(SETTLED_NS / 1_000_000n) + 500));
    const first = await stored(slicePath, cacheDir);
    expect(readdirSync(join(cacheDir, "contents"))).toHaveLength(1);
    const again = await stored(slicePath, cacheDir);
    expect(sliceFileSha256(again.slice)).toBe(sliceFileSha256(first.slice));
    expect(sliceFields(again.slice)).toEqual(sliceFields(read));
    // One letter changed, the length kept: a new identity, so the new bytes are hashed and read.
    const text = readFileSync(slicePath, "latin1");
    const at = text.indexOf(read.cases[0]!.sentences[0]!);
    writeFileSync(slicePath, text.slice(0, at) + (text[at] === "X" ? "Y" : "X") + text.slice(at + 1), "latin1");
    const changed = await stored(slicePath, cacheDir);
    expect(sliceFileSha256(changed.slice)).toBe(createHash("sha256").update(readFileSync(slicePath)).digest("hex"));
    expect(sliceFields(changed.slice)).toEqual(sliceFields(await readDocumentSlice(slicePath)));
  }, 60_000);

  it("defaults to $XDG_CACHE_HOME/mari, else ~/.cache/mari", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/mari");
    // A relative value is ignored, as the XDG base directory specification says.
    expect(defaultCacheDir({ XDG_CACHE_HOME: "rel" })).toMatch(/\.cache\/mari$/);
  });
});

describe("mari eval --cache-dir / --no-cache", () => {
  it("keeps the compiled slice where --cache-dir says, nothing under --no-cache, the same report either way", async () => {
    const { slicePath, cacheDir } = fresh();
    const dump = join(tmp.dir, `dump${n}.jsonl`);
    const ids = readFileSync(slicePath, "utf8")
      .split("\n")
      .flatMap((l) => {
        try {
          return [(JSON.parse(l) as { id: string }).id];
        } catch {
          return [];
        }
      });
    writeFileSync(dump, ids.map((id) => JSON.stringify({ case_id: id, judgment: false, evidence_sentence_ids: [], reasoning: "" })).join("\n"));
    const report = async (out: string, flags: string[]) => {
      const r = await runMari(["eval", slicePath, "--predictions", dump, "--out", out, "--report", "json", "--quiet", ...flags]);
      expect(r.code).toBe(0);
      const j = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      delete j.system;
      delete j.elapsed_seconds;
      return j;
    };
    const none = await report(join(tmp.dir, `o${n}a`), ["--no-cache", "--cache-dir", cacheDir]);
    expect(() => readdirSync(cacheDir)).toThrow();
    const cold = await report(join(tmp.dir, `o${n}b`), ["--cache-dir", cacheDir]);
    expect(files(cacheDir)).toHaveLength(1);
    const warm = await report(join(tmp.dir, `o${n}c`), ["--cache-dir", cacheDir]);
    expect(cold).toEqual(none);
    expect(warm).toEqual(none);
  });
});
