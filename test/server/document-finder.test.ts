// The document finder: white space folded as `\s+` → one space would; the document asked about is the
// last one in the prompt (a few-shot example before it, even a longer one, is not it); one inside
// another is part of it; two cases with the same text are ambiguous; and, on random prompts built
// from slices made to trip it (short texts, texts that begin others, long shared beginnings, white
// space variants, stray `[1]`s), the same answer as a plain reading of the rule: fold the prompt,
// try every case at every `[1]`.
import { describe, expect, it } from "vitest";
import { tagSentences } from "../../src/core/document/sentences.js";
import { DocumentFinder, findableText, type FindResult } from "../../src/server/document-finder.js";

const WHITE = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];

type TestCase = { id: string; sentences: string[] };

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

const long = (tag: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} of the ${tag} document, written out at some length here.`);

describe("which document a prompt is about", () => {
  const cases: TestCase[] = [
    { id: "example", sentences: long("worked example", 30) },
    { id: "asked", sentences: long("asked-about", 4) },
    { id: "short", sentences: ["Tiny."] },
    { id: "prefix", sentences: long("asked-about", 3) },
    { id: "twin-a", sentences: ["Same text here,", "twice in the slice."] },
    { id: "twin-b", sentences: ["Same text  here,", "twice in the slice."] },
  ];
  const finder = new DocumentFinder(cases);
  const doc = (i: number): string => tagSentences(cases[i]!.sentences);

  it("a few-shot example from the slice before the real document, however long, is not the one asked about", () => {
    const prompt = `Example:\n${doc(0)}\nAnswer: <answer>\nJudgment: no\n</answer>\n\nNow this one:\n${doc(1)}\nAnswer:`;
    expect(finder.find(prompt)).toEqual({ index: 1 });
    // Either order: the last document is the one asked about.
    expect(finder.find(`First ${doc(1)}. Then ${doc(0)}`)).toEqual({ index: 0 });
    // Laid out one sentence a line, the same.
    expect(finder.find(`${doc(0).replaceAll(" [", "\n[")}\n\n${doc(2)}`)).toEqual({ index: 2 });
    expect(finder.find(`${doc(2)}\n\n${doc(0).replaceAll(" [", "\n  [")}`)).toEqual({ index: 0 });
  });

  it("every [1] is tried: stray ones before, between and inside the text do not hide a document", () => {
    expect(finder.find(`Cite as [1] or [1]-[2]; [1]\n is the first.\n${doc(1)}`)).toEqual({ index: 1 });
    expect(finder.find(`[1] [1] [1] [1]\t${doc(2)} [1] not a document`)).toEqual({ index: 2 });
  });

  it("a document whose text begins another's is part of that one", () => {
    expect(finder.find(`Read ${doc(1)} and answer.`)).toEqual({ index: 1 });
    expect(finder.find(`Read ${doc(3)} and answer.`)).toEqual({ index: 3 });
  });

  it("no document, or a text several cases share (white space folded), is said so", () => {
    expect(finder.find("no document [2] here, [1]")).toMatchObject({ problem: "no_document_in_prompt" });
    for (const twin of [doc(4), doc(5)]) {
      expect(finder.find(`x ${twin}`)).toMatchObject({ problem: "ambiguous_document", message: expect.stringContaining('"twin-a", "twin-b"') });
    }
    // A later unambiguous document is the one asked about; an earlier one does not save an ambiguous last.
    expect(finder.find(`${doc(4)} then ${doc(2)}`)).toEqual({ index: 2 });
    expect(finder.find(`${doc(2)} then ${doc(4)}`)).toMatchObject({ problem: "ambiguous_document" });
  });
});

/** The rule read plainly: fold the prompt; at every `[1] `, every case whose text is there; drop those inside another; the last. */
function byTheRule(cases: readonly TestCase[], prompt: string): FindResult {
  const fold = (text: string): string => text.replace(/\s+/g, " ");
  const texts = cases.map((c) => fold(tagSentences(c.sentences)));
  const text = fold(prompt);
  const found: Array<{ start: number; end: number; index: number }> = [];
  for (let at = text.indexOf("[1] "); at !== -1; at = text.indexOf("[1] ", at + 1)) {
    texts.forEach((t, index) => {
      if (text.startsWith(t, at)) found.push({ start: at, end: at + t.length, index });
    });
  }
  const outer = found.filter((f) => !found.some((g) => g.start <= f.start && g.end >= f.end && g.end - g.start > f.end - f.start));
  if (outer.length === 0) return { problem: "no_document_in_prompt", message: "" };
  const lastStart = Math.max(...outer.map((f) => f.start));
  const last = outer.filter((f) => f.start === lastStart);
  return last.length === 1 ? { index: last[0]!.index } : { problem: "ambiguous_document", message: "" };
}

/** A small seeded generator (xorshift32), so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

describe("the finder against the rule read plainly", () => {
  it("gives the same answer on 3,000 random prompts over slices made to trip it", () => {
    const pick = random(20261204);
    const words = ["alpha", "beta", "gamma", "[1]", "[2]", "x", "the long word sequence that runs past a chunk of sixty-four characters"];
    const sentence = (): string => Array.from({ length: 1 + pick(6) }, () => words[pick(words.length)]).join(pick(5) === 0 ? "  " : pick(7) === 0 ? "\n" : " ");
    let disagreements = 0;
    const outcomes = { found: 0, no_document_in_prompt: 0, ambiguous_document: 0 };
    for (let round = 0; round < 30; round++) {
      const cases: TestCase[] = [];
      for (let k = 0; k < 12; k++) {
        const kind = pick(4);
        const base = cases.length > 0 && kind === 0 ? cases[pick(cases.length)]! : undefined;
        // A case that begins another (more sentences), a white space twin, or a new one.
        const sentences = base
          ? [...base.sentences, sentence()]
          : kind === 1 && cases.length > 0
            ? cases[pick(cases.length)]!.sentences.map((s) => s.replace(" ", "\t "))
            : Array.from({ length: 1 + pick(4) }, sentence);
        cases.push({ id: `c${k}`, sentences });
      }
      const finder = new DocumentFinder(cases);
      for (let p = 0; p < 100; p++) {
        const parts: string[] = [];
        for (let q = 0; q < 1 + pick(4); q++) {
          const c = cases[pick(cases.length)]!;
          let doc = tagSentences(c.sentences);
          if (pick(3) === 0) doc = doc.replaceAll(" [", WHITE[pick(WHITE.length)]! + "[");
          if (pick(6) === 0) doc = doc.slice(0, pick(doc.length + 1)); // a document cut short
          parts.push(pick(4) === 0 ? `[1] ${words[pick(words.length)]}` : "", doc);
        }
        const prompt = parts.join(pick(2) === 0 ? "\n\n" : " ");
        const want = byTheRule(cases, prompt);
        const got = finder.find(prompt);
        outcomes["index" in want ? "found" : want.problem]++;
        const same = "index" in want ? "index" in got && got.index === want.index : "problem" in got && got.problem === want.problem;
        if (!same) disagreements++;
        if (!same && disagreements <= 3) expect({ prompt, got }).toEqual({ prompt, got: want });
      }
    }
    expect(disagreements).toBe(0);
    // The prompts reach every outcome, not only the easy one.
    for (const n of Object.values(outcomes)) expect(n).toBeGreaterThan(100);
  });
});
