// Slices kept in this process by content: read again from the same bytes (same path, same options),
// the slice is the same object, not parsed again; changed bytes or other options read it anew.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readDocumentSlice, readDocumentSliceCached } from "../../src/io/slice.js";
import { CACHED_SLICES, clearSliceCache, sliceFileSha256, sliceHashOf } from "../../src/io/slice-kept.js";
import { sliceFields } from "../support/slice-fields.js";

const dir = mkdtempSync(join(tmpdir(), "mari-slice-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => clearSliceCache());

const ids = (slice: { cases: { id: string }[] }) => slice.cases.map((c) => c.id);

describe("readDocumentSliceCached", () => {
  it.each([
    ["JSONL", "datasets/contradoc/contradoc-160.jsonl", "slice.jsonl"],
    ["CSV", "datasets/contradoc/contradoc-160.csv", "slice.csv"],
  ])("%s: the same bytes give the same slice object; changed bytes a new read", async (_name, source, name) => {
    const path = join(dir, name);
    copyFileSync(source, path);
    let read = 0;
    let reused = 0;
    const first = await readDocumentSliceCached(path, { progress: { tick: (n = 1) => (read += n), done: () => {} } });
    // Compiled as it was read: the slice a plain read gives, field by field.
    const plain = await readDocumentSlice(path);
    expect(sliceFields(first)).toEqual(sliceFields(plain));
    // Its hash, computed case by case during the read, is the plain slice's.
    expect(sliceHashOf(first)).toBe(sliceHashOf(plain));
    expect(await readDocumentSliceCached(path, { progress: { tick: (n = 1) => (reused += n), done: () => {} } })).toBe(first);
    // The progress display counts the records of a kept slice as those of its read.
    expect([read, reused]).toEqual([160, 160]);
    // Rewritten with the same bytes: still the same content.
    writeFileSync(path, readFileSync(source));
    expect(await readDocumentSliceCached(path)).toBe(first);
    // Other options are another slice.
    const punkt = await readDocumentSliceCached(path, { sentences: "punkt" });
    expect(punkt).not.toBe(first);
    expect(punkt.sentences).toBe("punkt");
    // A byte more (a blank line at the end): other bytes, read again, the same cases.
    writeFileSync(path, `${readFileSync(source, "utf8")}\n`);
    const changed = await readDocumentSliceCached(path);
    expect(changed).not.toBe(first);
    expect(ids(changed)).toEqual(ids(first));
  });

  it("a JSON array slice (hashed after its read) is kept too", async () => {
    const path = join(dir, "slice.json");
    writeFileSync(path, JSON.stringify([{ id: "a", text: "One. Two.", label: false }]));
    const first = await readDocumentSliceCached(path);
    expect(first.format).toBe("json");
    expect(await readDocumentSliceCached(path)).toBe(first);
    writeFileSync(path, JSON.stringify([{ id: "b", text: "One. Two.", label: false }]));
    expect(ids(await readDocumentSliceCached(path))).toEqual(["b"]);
  });

  it(`keeps the last ${CACHED_SLICES} slices read`, async () => {
    const paths = Array.from({ length: CACHED_SLICES + 1 }, (_, k) => {
      const path = join(dir, `s${k}.jsonl`);
      writeFileSync(path, `{"id": "c${k}", "text": "One. Two.", "label": false}\n`);
      return path;
    });
    const slices = [];
    for (const path of paths) slices.push(await readDocumentSliceCached(path));
    expect(await readDocumentSliceCached(paths[CACHED_SLICES]!)).toBe(slices[CACHED_SLICES]);
    expect(await readDocumentSliceCached(paths[1]!)).toBe(slices[1]);
    // The first one read was dropped when the last came in.
    const again = await readDocumentSliceCached(paths[0]!);
    expect(again).not.toBe(slices[0]);
    expect(ids(again)).toEqual(["c0"]);
  });

  it("a file that is gone is the reader's error, even after a read was kept", async () => {
    const path = join(dir, "gone.jsonl");
    writeFileSync(path, '{"id": "a", "text": "One.", "label": false}\n');
    await readDocumentSliceCached(path);
    rmSync(path);
    await expect(readDocumentSliceCached(path)).rejects.toThrow(/cannot read slice \(ENOENT\)/);
  });
  it.each([
    ["JSONL (hashed as read)", "kept.jsonl"],
    ["a JSON array (hashed after the read)", "kept.json"],
  ])("%s: the sha256 of the bytes read is kept for the report", async (_name, name) => {
    const path = join(dir, name);
    const jsonl = readFileSync("datasets/contradoc/contradoc-160.jsonl");
    const bytes = name.endsWith(".json")
      ? Buffer.from(
          JSON.stringify(
            jsonl
              .toString("utf8")
              .split("\n")
              .filter(Boolean)
              .map((l) => JSON.parse(l)),
          ),
        )
      : jsonl;
    writeFileSync(path, bytes);
    const slice = await readDocumentSliceCached(path);
    expect(sliceFileSha256(slice)).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(sliceFileSha256(await readDocumentSlice(path))).toBeUndefined();
  });
});
