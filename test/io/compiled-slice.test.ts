// The slice compiled into shared memory for worker threads: what they decode is the slice as read,
// every field of every case, exactly (lone surrogates, empty strings, user-named keys).
import { describe, expect, it } from "vitest";
import { caseCount, compileSlice, openCompiledSlice, packStrings, type PackedStrings, StringTable } from "../../src/io/compiled-slice.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import { sliceHashOf, type DocumentSlice, type SliceCase } from "../../src/io/slice-kept.js";
import { dict } from "../../src/core/dict.js";
import { caseFields as fields, sliceFields } from "../support/slice-fields.js";

const CONTRADOC_160 = "datasets/contradoc/contradoc-160.jsonl";

describe("compileSlice / openCompiledSlice", () => {
  it("gives back every case field by field, the lookup by id and the slice's hash", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const compiled = compileSlice(slice);
    expect(compiled.strings.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(compiled.numbers).toBeInstanceOf(SharedArrayBuffer);
    const opened = openCompiledSlice(compiled);
    expect(opened.cases.map(fields)).toEqual(slice.cases.map(fields));
    expect([...opened.byId]).toEqual([...slice.byId]);
    expect(sliceHashOf(opened)).toBe(sliceHashOf(slice));
    expect({ ...opened, cases: [], byId: [] }).toEqual({ ...slice, cases: [], byId: [], rejected: [] });
    // Compiled once per slice object; a decoded slice is known as its compiled form.
    expect(compileSlice(slice)).toBe(compiled);
    expect(compileSlice(opened)).toBe(compiled);
  });

  it("with casesLater, decodes the cases when first read: the same slice, counted before", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const opened = openCompiledSlice(compileSlice(slice), true);
    expect(caseCount(opened)).toBe(slice.cases.length);
    expect(Object.getOwnPropertyDescriptor(opened, "cases")?.get).toBeDefined();
    expect(opened.cases.map(fields)).toEqual(slice.cases.map(fields));
    // Decoded once: from then on plain fields, the same objects at every read.
    expect(Object.getOwnPropertyDescriptor(opened, "byId")?.value).toBeInstanceOf(Map);
    expect(opened.cases).toBe(opened.cases);
    expect([...opened.byId]).toEqual([...slice.byId]);
    expect(sliceFields(opened)).toEqual(sliceFields(slice));
    expect(caseCount(slice)).toBe(slice.cases.length);
  });

  it("keeps lone surrogates, empty strings, breakdown values, lists and user-named keys exact", () => {
    const extra = Object.assign(dict(), JSON.parse('{"__proto__": {"x": 1}, "b": [1, -2.5e-7, null, true], "1": "é", "a": {"z": "\\ud800"}}') as object);
    const cases: SliceCase[] = [
      { id: "\ud800x", sentences: ["a\udfffb", ""], label: true, gold: [1, 2], scope: "local", docType: "news", contraType: ["fact", "\u{1f600}"], extra },
      { id: "", sentences: ["é"], label: false, gold: [], scope: null, docType: null, contraType: null, extra: dict() },
      { id: "z", sentences: ["\u{1f600} \n\t x"], label: true, gold: [1], scope: null, docType: "x", contraType: "emotion", extra: dict() },
    ].map((c, index) => ({ ...c, index, where: `s.jsonl:${index + 1}`, sentenceCount: c.sentences.length }));
    const slice: DocumentSlice = {
      path: "s.jsonl",
      format: "jsonl",
      sentences: "punkt",
      cases,
      byId: new Map(cases.map((c) => [c.id, c.index])),
      rejected: [],
    };
    const opened = openCompiledSlice(compileSlice(slice));
    expect(opened.cases.map(fields)).toEqual(cases.map(fields));
    expect(opened.cases.map((c) => c.id)).toEqual(["\ud800x", "", "z"]);
    // Each sentence made once, when first read: the same list at every read.
    expect(opened.cases[0]!.sentences).toBe(opened.cases[0]!.sentences);
    expect(Object.hasOwn(opened.cases[0]!.extra, "__proto__")).toBe(true);
    expect(opened.sentences).toBe("punkt");
  });
});

/** Every string of `packed`, read back through its string table one by one; and all at once, which must agree. */
const unpack = (packed: PackedStrings): string[] => {
  const table = new StringTable(packed);
  const oneByOne = Array.from({ length: packed.count }, (_, k) => table.text(k, k + 1));
  expect(table.strings(0, packed.count)).toEqual(oneByOne);
  return oneByOne;
};

describe("packStrings / StringTable", () => {
  it("gives the strings back as they were, code unit for code unit", () => {
    const strings = ["", "a", "\udc00", "x\ud83d", "[1] \u{1f600} x", "", "é".repeat(1000)];
    const packed = packStrings(strings);
    expect(packed.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(unpack(packed)).toEqual(strings);
    expect(packStrings(strings).wide).toBe(true);
    expect(unpack(packStrings([]))).toEqual([]);
    // Nothing above U+00FF: one byte per code unit, the same strings back.
    const latin1 = ["\u0000", "é\u00ff x", "", "plain"];
    const narrow = packStrings(latin1);
    expect(narrow.wide).toBe(false);
    expect(narrow.buffer.byteLength).toBe(4 * 5 + 10);
    expect(unpack(narrow)).toEqual(latin1);
  });
});
