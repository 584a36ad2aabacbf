import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.js";
import { readDocumentSlice, sliceCaseFromRecord, sniffSliceTask } from "../../src/io/slice.js";
import { InputError } from "../../src/io/errors.js";

const tmp = tempDir("mari-slice-");
afterAll(() => tmp.cleanup());

describe("slice records", () => {
  it("aliases, label coercions, scope flattening, pass-through fields", () => {
    const a = sliceCaseFromRecord(
      { "unique id": "u1", text: "One. Two!  Three?", is_self_contradictory: "Contradictory", evidence: ["two"], scope: ["local"], note: 1 },
      0,
      "f:1",
    );
    expect(a).toMatchObject({ id: "u1", sentences: ["One.", "Two!", "Three?"], label: true, gold: [2], scope: "local", extra: { note: 1 } });
    const b = sliceCaseFromRecord({ case_id: "c", text: "x", label: "0", evidence: "ignored on negatives" }, 1, "f:2");
    expect(b).toMatchObject({ label: false, gold: [] });
    for (const [label, expected] of [
      [true, true],
      ["FALSE", false],
      [1, true],
      ["non_contradictory", false],
    ] as const) {
      expect(sliceCaseFromRecord({ id: "x", text: "t", label, gold_sentence_ids: [1] }, 0, "f:1").label).toBe(expected);
    }
  });

  it("gold_sentence_ids override alignment; an all-zero Jaccard maps to sentence 1", () => {
    expect(sliceCaseFromRecord({ id: "g", sentences: ["a", "b", "c"], label: true, gold_sentence_ids: [3, 1, 3], evidence: "b" }, 0, "f:1").gold).toEqual([
      1, 3,
    ]);
    expect(sliceCaseFromRecord({ id: "z", text: "Alpha. Beta.", label: true, evidence: "zzz" }, 0, "f:1").gold).toEqual([1]);
  });

  it("slice errors name the location", () => {
    const bad = (record: Record<string, unknown>) => () => sliceCaseFromRecord(record, 0, "s.jsonl:7");
    expect(bad({ text: "x", label: true })).toThrow(InputError);
    expect(bad({ id: "a", text: "x", label: "maybe" })).toThrow('s.jsonl:7: slice error: unusable label "maybe"');
    expect(bad({ id: "a", text: "x", label: true, gold_sentence_ids: [1.5] })).toThrow("gold_sentence_ids must be a list of integers");
    expect(bad({ id: "a", text: "x", label: true, scope: ["a", "b"], evidence: "x" })).toThrow("scope must be a string or a one-element list");
  });
});

describe("reading and sniffing", () => {
  it("detects pairs corpora and document slices", async () => {
    const pairs = join(tmp.dir, "p.jsonl");
    writeFileSync(pairs, '{"id":"1","new":"a","old":"b"}\n');
    const docs = join(tmp.dir, "d.jsonl");
    writeFileSync(docs, '\n{"id":"1","text":"a.","label":false}\n');
    expect(await sniffSliceTask(pairs)).toBe("pairs");
    expect(await sniffSliceTask(docs)).toBe("documents");
    const slice = await readDocumentSlice(docs);
    expect(slice.cases.map((c) => c.where)).toEqual([`${docs}:2`]);
    expect(slice.byId.get("1")).toBe(0);
  });
});
