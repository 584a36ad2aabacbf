// The slice compiled into shared memory for worker threads: what they decode is the slice as read,
// every field of every case, exactly (lone surrogates, empty strings, user-named keys).
import { describe, expect, it } from "vitest";
import { caseCount, compiledCaseIds, compileSlice, openCompiledSlice, type PackedStrings, SliceCompiler, StringTable } from "../../src/io/compiled-slice.js";
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

/** A case of `sentences` (its fields plain), numbered `index`. */
const caseOf = (index: number, sentences: string[], id = `c${index}`): SliceCase => ({
  index,
  id,
  where: `s.jsonl:${index + 1}`,
  sentences,
  sentenceCount: sentences.length,
  label: index % 2 === 0,
  gold: index % 2 === 0 ? [1] : [],
  scope: null,
  docType: null,
  contraType: null,
  extra: dict(),
});

/** The strings a compiled slice of `cases` lays out: every case's six fields, then every sentence. */
const laidOut = (cases: SliceCase[]): string[] => [...cases.flatMap((c) => [c.id, c.where, "", "", "", ""]), ...cases.flatMap((c) => c.sentences)];

describe("SliceCompiler / StringTable", () => {
  it("gives the strings back as they were, code unit for code unit, one byte each while it can", () => {
    const wideCases = [caseOf(0, ["", "a", "\udc00", "x\ud83d"]), caseOf(1, ["[1] \u{1f600} x", "", "é".repeat(1000)])];
    const wide = compileSlice({ path: "s.jsonl", format: "jsonl", sentences: "mari", cases: wideCases, byId: new Map(), rejected: [] });
    expect(wide.strings.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(wide.strings.wide).toBe(true);
    expect(unpack(wide.strings)).toEqual(laidOut(wideCases));
    // Nothing above U+00FF: one byte per code unit, the same strings back.
    const narrowCases = [caseOf(0, ["\u0000", "é\u00ff x", "", "plain"])];
    const narrow = compileSlice({ path: "s.jsonl", format: "jsonl", sentences: "mari", cases: narrowCases, byId: new Map(), rejected: [] });
    expect(narrow.strings.wide).toBe(false);
    const units = laidOut(narrowCases).join("").length;
    expect(narrow.strings.buffer.byteLength).toBe(4 * (narrow.strings.count + 1) + units);
    expect(unpack(narrow.strings)).toEqual(laidOut(narrowCases));
  });

  it("widens what it wrote when a string above U+00FF comes late, in the fields or the sentences, past every first buffer", () => {
    // Thousands of cases of one-byte text (past the texts' 64 KB and the lists' 4,096 entries), then
    // one wide string: in a sentence, or in an id (the other text stays narrow until the end).
    const many = (wideAt: "sentence" | "id"): SliceCase[] =>
      Array.from({ length: 5000 }, (_, i) =>
        i === 4321
          ? caseOf(i, [wideAt === "sentence" ? "late \u0100 \ud800" : "plain é"], wideAt === "id" ? "id-\u{1f600}" : `c${i}`)
          : caseOf(i, [`sentence ${i} é`, "x".repeat(i % 40)]),
      );
    for (const wideAt of ["sentence", "id"] as const) {
      const cases = many(wideAt);
      const compiler = new SliceCompiler();
      for (const c of cases) compiler.add(c);
      expect(compiler.whereOf(4999)).toBe("s.jsonl:5000");
      const compiled = compiler.finish("s.jsonl", "jsonl", "mari");
      expect(compiled.strings.wide).toBe(true);
      expect(unpack(compiled.strings)).toEqual(laidOut(cases));
      const opened = openCompiledSlice(compiled);
      expect(opened.cases.map(fields)).toEqual(cases.map(fields));
    }
  });

  it("lays a slice out the same whether compiled as read or from its case objects", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const compiler = new SliceCompiler();
    for (const c of slice.cases) compiler.add(c);
    const asRead = compiler.finish(slice.path, slice.format, slice.sentences);
    const fromObjects = compileSlice(slice);
    expect(Buffer.from(asRead.strings.buffer).equals(Buffer.from(fromObjects.strings.buffer))).toBe(true);
    expect(Buffer.from(asRead.numbers).equals(Buffer.from(fromObjects.numbers))).toBe(true);
    expect({ ...asRead, strings: null, numbers: null }).toEqual({ ...fromObjects, strings: null, numbers: null });
  });
});

describe("a compiled slice's id map", () => {
  it("answers every Map read as a map of the cases' ids would, whichever read comes first", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const expected = new Map(slice.cases.map((c) => [c.id, c.index]));
    const reads: Array<(map: Map<string, number>) => unknown> = [
      (map) => map.size,
      (map) => map.get(slice.cases[7]!.id),
      (map) => map.has("no such id"),
      (map) => [...map],
      (map) => [...map.keys()],
      (map) => [...map.values()],
      (map) => [...map.entries()],
      (map) => {
        const seen: unknown[] = [];
        map.forEach((value, key) => seen.push([key, value]));
        return seen;
      },
    ];
    for (const read of reads) {
      const opened = openCompiledSlice(compileSlice(slice));
      expect(read(opened.byId)).toEqual(read(expected));
      expect(new Map(opened.byId)).toEqual(expected);
    }
    const changed = openCompiledSlice(compileSlice(slice)).byId;
    expect(changed.delete(slice.cases[0]!.id)).toBe(true);
    changed.set("new", 99);
    expect(changed.size).toBe(expected.size);
    expect(changed.get("new")).toBe(99);
    const cleared = openCompiledSlice(compileSlice(slice)).byId;
    cleared.clear();
    expect(cleared.size).toBe(0);
    expect([...cleared]).toEqual([]);
  });
});

describe("compiledCaseIds", () => {
  it("gives every case's id as UTF-8 bytes in case order, for a slice opened from its compiled form", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    // A slice of case objects has no compiled form of its own yet.
    expect(compiledCaseIds(slice)).toBeUndefined();
    const opened = openCompiledSlice(compileSlice(slice));
    // ContraDoc's text has characters above U+00FF: its compiled text is wide.
    expect(compileSlice(slice).strings.wide).toBe(true);
    const ids = compiledCaseIds(opened)!;
    expect(ids.starts.length).toBe(slice.cases.length + 1);
    const decoded = slice.cases.map((_, k) => Buffer.from(ids.bytes.subarray(ids.starts[k]!, ids.starts[k + 1]!)).toString("utf8"));
    expect(decoded).toEqual(slice.cases.map((c) => c.id));
  });

  it("gives none when an id is not ASCII (Latin-1 in one byte, or wider), nor for a slice it did not open", () => {
    for (const id of ["café", "id-\u{1f600}", "id-\u0100"]) {
      const cases = [caseOf(0, ["One."]), caseOf(1, ["Two."], id)];
      const compiler = new SliceCompiler();
      for (const c of cases) compiler.add(c);
      const opened = openCompiledSlice(compiler.finish("s.jsonl", "jsonl", "mari"));
      expect(opened.cases[1]!.id).toBe(id);
      expect(compiledCaseIds(opened)).toBeUndefined();
    }
    const cases = [caseOf(0, ["One."]), caseOf(1, ["Two."], "")];
    const compiler = new SliceCompiler();
    for (const c of cases) compiler.add(c);
    const opened = openCompiledSlice(compiler.finish("s.jsonl", "jsonl", "mari"));
    expect(compiledCaseIds(opened)).toEqual({ bytes: new Uint8Array(Buffer.from("c0")), starts: Int32Array.from([0, 2, 2]) });
    expect(compiledCaseIds({ cases: opened.cases })).toBeUndefined();
    // ASCII ids in a text made wide by a sentence.
    const wideCases = [caseOf(0, ["Ōne."]), caseOf(1, ["Two \u{1f600}."], "id-1")];
    const wideCompiler = new SliceCompiler();
    for (const c of wideCases) wideCompiler.add(c);
    const wideCompiled = wideCompiler.finish("s.jsonl", "jsonl", "mari");
    expect(wideCompiled.strings.wide).toBe(true);
    expect(compiledCaseIds(openCompiledSlice(wideCompiled))).toEqual({ bytes: new Uint8Array(Buffer.from("c0id-1")), starts: Int32Array.from([0, 2, 6]) });
  });

  it("gives each case its own gold, the negative ones an empty list, of exactly their length", () => {
    const golds = [[], [3], [1, 4], [2, 5, 7], [1, 2, 3, 4, 6], []];
    const cases = golds.map((gold, i) => ({ ...caseOf(i, ["A.", "B.", "C.", "D.", "E.", "F.", "G."]), gold, label: gold.length > 0 }));
    const compiler = new SliceCompiler();
    for (const c of cases) compiler.add(c);
    const opened = openCompiledSlice(compiler.finish("s.jsonl", "jsonl", "mari"));
    expect(opened.cases.map((c) => c.gold)).toEqual(golds);
  });
});
