// The document finder folds white space as `\s+` → one space would, without replacing every single space.
import { describe, expect, it } from "vitest";
import { DocumentFinder, findableText } from "../../src/server/document-finder.js";

const WHITE = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];

describe("findableText", () => {
  it("folds every run of white space to one space, as replacing /\\s+/ does", () => {
    const sentences: string[] = [];
    for (let i = 0; i < WHITE.length; i++) {
      const a = WHITE[i]!;
      const b = WHITE[(i * 7 + 3) % WHITE.length]!;
      sentences.push(`${a}word${a}${b}next  ${b}end${a}`, `x${a}y`, `${b}${b}${b}`);
    }
    // The tagged text as the prompt builder writes it: "[i] sentence", joined by spaces.
    const tagged = sentences.map((sentence, i) => `[${i + 1}] ${sentence}`).join(" ");
    expect(findableText(sentences)).toBe(tagged.replace(/\s+/g, " "));
    expect(findableText(["a\u200bb", "c \u0085 d"])).toBe("[1] a\u200bb [2] c \u0085 d");
  });

  it("finds a case in a prompt whose white space differs from the slice's", () => {
    const cases = [
      { id: "a", sentences: ["One line here, long enough to be indexed by its first characters.", "Two."] },
      { id: "b", sentences: ["Another\tdocument entirely,  also long enough for the key of the index.", "Three."] },
    ];
    const finder = new DocumentFinder(cases);
    expect(finder.find("Doc:\n[1]  Another document\u00a0entirely, also long enough for the key of the index.\n[2] Three.\nAnswer")).toEqual({ index: 1 });
  });
});
