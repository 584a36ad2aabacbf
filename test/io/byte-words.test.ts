import { describe, expect, it } from "vitest";
import { byteWords, byteWordsAt } from "../../src/io/byte-words.js";

const viewOf = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

describe("byteWords / byteWordsAt", () => {
  for (const text of ["true", "<think>", "</answer>", ',"evidence_sentence_ids":[', "Judgment: "]) {
    it(`finds ${JSON.stringify(text)} where it is, at any offset, and nowhere one byte differs`, () => {
      const word = byteWords(text);
      for (const pad of ["", "x", "xy", "xyz"]) {
        const view = viewOf(`${pad}${text}!`);
        expect(byteWordsAt(view, pad.length, view.byteLength, word)).toBe(true);
        // Cut short by `end`, or looked for one byte off.
        expect(byteWordsAt(view, pad.length, pad.length + text.length - 1, word)).toBe(false);
        expect(byteWordsAt(view, pad.length + 1, view.byteLength, word)).toBe(false);
        for (let k = 0; k < text.length; k++) {
          const changed = `${pad}${text.slice(0, k)}\u0001${text.slice(k + 1)}!`;
          expect(byteWordsAt(viewOf(changed), pad.length, changed.length, word)).toBe(false);
        }
      }
    });
  }

  it("refuses a text shorter than a word and a negative position", () => {
    expect(() => byteWords("run")).toThrow(RangeError);
    const view = viewOf("true");
    expect(byteWordsAt(view, -1, 4, byteWords("true"))).toBe(false);
  });
});
