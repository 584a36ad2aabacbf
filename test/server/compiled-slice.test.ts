// The slice the scoring threads share: what they decode from the shared buffer is the slice as read.
import { describe, expect, it } from "vitest";
import { readDocumentSlice, type SliceCase } from "../../src/io/slice.js";
import { compileSlice, openCompiledSlice } from "../../src/server/compiled-slice.js";
import { findableText } from "../../src/server/document-finder.js";
import { CONTRADOC_160 } from "./support.js";

const scored = (c: SliceCase) => ({ id: c.id, sentences: c.sentences, label: c.label, gold: c.gold });

describe("compileSlice / openCompiledSlice", () => {
  it("gives back every case's id, sentences, label and gold, and its findable text", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const compiled = compileSlice(slice);
    expect(compiled.buffer).toBeInstanceOf(SharedArrayBuffer);
    const opened = openCompiledSlice(compiled);
    expect(opened.slice.cases.map(scored)).toEqual(slice.cases.map(scored));
    expect([...opened.slice.byId]).toEqual([...slice.byId]);
    expect(opened.findableTexts).toEqual(slice.cases.map((c) => findableText(c.sentences)));
  });

  it("keeps lone surrogates, empty strings and odd section sizes exact", () => {
    const cases = [
      { id: "\ud800x", sentences: ["a\udfffb", ""], label: true, gold: [1, 2] },
      { id: "", sentences: ["é"], label: false, gold: [] },
      { id: "z", sentences: ["\u{1f600} \n\t x"], label: true, gold: [1] },
    ].map((c, index) => ({ ...c, index, where: "", scope: null, docType: null, contraType: null, extra: {} }));
    const byId = new Map(cases.map((c) => [c.id, c.index]));
    const opened = openCompiledSlice(compileSlice({ cases, byId }));
    expect(opened.slice.cases.map(scored)).toEqual(cases.map(scored));
    expect(opened.slice.cases.map((c) => c.id)).toEqual(["\ud800x", "", "z"]);
    expect(opened.findableTexts[2]).toBe("[1] \u{1f600} x");
  });
});
