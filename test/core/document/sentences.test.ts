import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPythonWhitespace } from "../../../src/core/python/whitespace.js";
import {
  PYTHON_WHITESPACE,
  alignEvidence,
  pythonCasefold,
  jaccardTokens,
  splitSentences,
  stripPythonWhitespace,
  tagSentences,
  tokenJaccard,
} from "../../../src/core/document/index.js";

describe("PYTHON_WHITESPACE", () => {
  it("is Python's 29-character \\s set, not JavaScript's", () => {
    const codes = Array.from(PYTHON_WHITESPACE, (ch) => ch.codePointAt(0));
    expect(codes).toEqual([
      0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
      0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ]);
    // Where the two sets disagree.
    for (const ch of ["\u001c", "\u001d", "\u001e", "\u001f", "\u0085"]) {
      expect(/\s/.test(ch)).toBe(false);
      expect(PYTHON_WHITESPACE.includes(ch)).toBe(true);
    }
    expect(/\s/.test("\ufeff")).toBe(true);
    expect(PYTHON_WHITESPACE.includes("\ufeff")).toBe(false);
  });

  it("is what isPythonWhitespace answers for every UTF-16 code unit", () => {
    for (let code = 0; code <= 0xffff; code++) expect(isPythonWhitespace(code)).toBe(PYTHON_WHITESPACE.includes(String.fromCharCode(code)));
  });

  it("strips with the same set", () => {
    expect(stripPythonWhitespace("\u0085\u001c a b \u3000")).toBe("a b");
    expect(stripPythonWhitespace("\ufeffa\ufeff")).toBe("\ufeffa\ufeff");
  });
});

describe("splitSentences", () => {
  it("splits after . ! ? followed by whitespace and strips the pieces", () => {
    expect(splitSentences("  First one.  Second?\nThird!\tFourth  ")).toEqual(["First one.", "Second?", "Third!", "Fourth"]);
  });

  it("splits on U+001C–U+001F and U+0085 but not on U+FEFF", () => {
    for (const ch of ["\u001c", "\u001d", "\u001e", "\u001f", "\u0085", "\u00a0", "\u2028", "\u3000"]) {
      expect(splitSentences(`One.${ch}Two.`)).toEqual(["One.", "Two."]);
    }
    expect(splitSentences("One.\ufeffTwo.")).toEqual(["One.\ufeffTwo."]);
  });

  it("keeps text without terminal punctuation as one sentence", () => {
    expect(splitSentences("no punctuation at all")).toEqual(["no punctuation at all"]);
    expect(splitSentences("ends here. and then trails")).toEqual(["ends here.", "and then trails"]);
  });

  it("needs whitespace after the punctuation", () => {
    expect(splitSentences("released.Next sentence")).toEqual(["released.Next sentence"]);
    expect(splitSentences("3.14 is pi")).toEqual(["3.14 is pi"]);
  });

  it("treats runs of punctuation as one end", () => {
    expect(splitSentences("Really?! Yes... Fine. . Done")).toEqual(["Really?!", "Yes...", "Fine.", ".", "Done"]);
  });

  it("always returns at least one sentence", () => {
    expect(splitSentences("")).toEqual([""]);
    expect(splitSentences(" \n\t\u0085 ")).toEqual([""]);
    expect(splitSentences("word")).toEqual(["word"]);
  });

  it("drops empty pieces", () => {
    expect(splitSentences("A.   \n\n  B.")).toEqual(["A.", "B."]);
  });
});

describe("tagSentences", () => {
  it("numbers sentences from 1", () => {
    expect(tagSentences(["first.", "second!"])).toBe("[1] first. [2] second!");
    expect(tagSentences([])).toBe("");
  });
});

describe("tokens and Jaccard", () => {
  it("takes runs of [a-z0-9] from the case-folded text", () => {
    expect([...jaccardTokens("The Q3 revenue, re-stated: 4.5M!")]).toEqual(["the", "q3", "revenue", "re", "stated", "4", "5m"]);
    expect(jaccardTokens("Über ÄRGER")).toEqual(new Set(["ber", "rger"]));
  });

  it("case-folds like Python where ASCII letters result", () => {
    expect(pythonCasefold("Straße STRASSE ẞ")).toBe("strasse strasse ss");
    expect(jaccardTokens("Straße")).toEqual(new Set(["strasse"]));
    expect(jaccardTokens("ﬁle ﬂow ﬀ ﬃ ﬄ ﬅ ﬆ")).toEqual(new Set(["file", "flow", "ff", "ffi", "ffl", "st"]));
    expect(jaccardTokens("ſun")).toEqual(new Set(["sun"]));
    // ŉ → ʼn, ǰ → j + caron, ẖ → h + macron below: the mark splits the run.
    expect(jaccardTokens("ŉ ǰx ẖx ẗx ẘx ẙx ẚx")).toEqual(new Set(["n", "j", "x", "h", "t", "w", "y", "a"]));
    // İ case-folds (and lower-cases) to i + combining dot, so "İstanbul" is two tokens.
    expect(jaccardTokens("İstanbul")).toEqual(new Set(["i", "stanbul"]));
    // Kelvin sign folds to k; fullwidth letters stay non-ASCII.
    expect(jaccardTokens("\u212a Ａb")).toEqual(new Set(["k", "b"]));
  });

  it("computes |A∩B| / |A∪B| with 0 for two empty sets", () => {
    expect(tokenJaccard(new Set(["a", "b"]), new Set(["b", "c"]))).toBe(1 / 3);
    expect(tokenJaccard(new Set(["a"]), new Set(["a"]))).toBe(1);
    expect(tokenJaccard(new Set(), new Set())).toBe(0);
    expect(tokenJaccard(new Set(["a"]), new Set())).toBe(0);
  });
});

describe("alignEvidence", () => {
  const sentences = ["The plant opened in 2001.", "It closed in 1999.", "Workers were paid well."];

  it("maps each evidence string to its most similar sentence", () => {
    expect(alignEvidence(sentences, ["it closed in 1999"])).toEqual([2]);
    expect(alignEvidence(sentences, ["workers paid", "the plant opened"])).toEqual([1, 3]);
  });

  it("returns sorted unique IDs", () => {
    expect(alignEvidence(sentences, ["workers were paid", "It closed", "workers well"])).toEqual([2, 3]);
  });

  it("breaks ties towards the lowest index", () => {
    expect(alignEvidence(["alpha beta", "alpha gamma", "alpha beta"], ["alpha"])).toEqual([1]);
    expect(alignEvidence(["gamma", "alpha beta", "alpha beta"], ["beta alpha"])).toEqual([2]);
  });

  it("maps a best score of 0 to the argmax, sentence 1 when all tie", () => {
    expect(alignEvidence(sentences, ["zzz nothing shared"])).toEqual([1]);
    expect(alignEvidence(sentences, ["!!!"])).toEqual([1]);
  });

  it("ignores empty evidence strings", () => {
    expect(alignEvidence(sentences, [])).toEqual([]);
    expect(alignEvidence(sentences, ["", "  \n"])).toEqual([]);
    expect(alignEvidence(sentences, ["", "workers"])).toEqual([3]);
  });
});

describe("alignEvidence against jaccardTokens and tokenJaccard", () => {
  /** The alignment as its definition reads, on the reference tokens and score. */
  function alignByDefinition(sentences: readonly string[], evidence: readonly string[]): number[] {
    const gold = new Set<number>();
    for (const quote of evidence) {
      if (stripPythonWhitespace(quote).length === 0) continue;
      const quoteTokens = jaccardTokens(quote);
      let best = 0;
      let bestScore = -1;
      sentences.forEach((sentence, index) => {
        const score = tokenJaccard(quoteTokens, jaccardTokens(sentence));
        if (score > bestScore) [best, bestScore] = [index, score];
      });
      if (sentences.length > 0) gold.add(best + 1);
    }
    return [...gold].sort((a, b) => a - b);
  }
  // Few words, cases and folds among them, so that tokens repeat, tie and match across texts.
  const word = fc.constantFrom(
    "alpha",
    "Alpha",
    "BETA",
    "beta",
    "g4mma",
    "x",
    "42",
    "Straße",
    "strasse",
    "ﬁle",
    "file",
    "İstanbul",
    "\u212a",
    "k",
    "ſun",
    "sun",
    "é",
    "",
  );
  const gap = fc.constantFrom("", " ", ", ", ". ", "-", "\u00a0", "\n", "!");
  const text = fc.array(fc.tuple(word, gap), { maxLength: 8 }).map((parts) => parts.map(([w, g]) => w + g).join(""));

  it("gives the gold ids the definition gives", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), fc.array(text, { maxLength: 4 }), (sentences, evidence) => {
        expect(alignEvidence(sentences, evidence)).toEqual(alignByDefinition(sentences, evidence));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives them for quotes that are a sentence's text, as it is or with whitespace around it", () => {
    // Such a quote is found without tokens unless a sentence before it may share its tokens.
    const picked = fc.array(text, { minLength: 1, maxLength: 6 }).chain((sentences) =>
      fc.tuple(
        fc.constant(sentences),
        fc.array(
          fc.tuple(fc.nat(), fc.constantFrom("", " ", "\n", "\u00a0")).map(([k, pad]) => pad + sentences[k % sentences.length]! + pad),
          { minLength: 1, maxLength: 3 },
        ),
      ),
    );
    fc.assert(
      fc.property(picked, ([sentences, evidence]) => {
        expect(alignEvidence(sentences, evidence)).toEqual(alignByDefinition(sentences, evidence));
      }),
      { numRuns: 3000 },
    );
    // An earlier sentence with the quote's tokens in another text wins the tie.
    expect(alignEvidence(["Beta, alpha!", "alpha beta"], ["alpha beta"])).toEqual([1]);
    expect(alignEvidence(["sun", "\u017fun"], ["\u017fun"])).toEqual([1]);
    expect(alignEvidence(["beta", "alpha beta"], ["alpha beta"])).toEqual([2]);
  });

  it("keeps a vocabulary larger than its first tables", () => {
    const many = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${"y".repeat(i % 50)}`);
    const sentences = [many.slice(0, 1500).join(" "), many.slice(1500).join(" "), many.slice(1000, 2000).join(" ")];
    const evidence = [many.slice(1000, 2000).join(" "), many.slice(2900).join(" "), many.slice(0, 1400).join(" ")];
    expect(alignEvidence(sentences, evidence)).toEqual(alignByDefinition(sentences, evidence));
  });
});

describe("splitSentences against the reference's re.split", () => {
  // `re.split(r"(?<=[.!?])\s+", text)` with Python's `\s`, then stripped pieces, empty ones dropped.
  const pythonBreak = new RegExp(`(?<=[.!?])[${PYTHON_WHITESPACE}]+`);
  const bySplit = (text: string): string[] => {
    const pieces = text
      .split(pythonBreak)
      .map(stripPythonWhitespace)
      .filter((piece) => piece.length > 0);
    return pieces.length > 0 ? pieces : [stripPythonWhitespace(text)];
  };
  const text = fc
    .array(fc.constantFrom("a", "Bc", ".", "!", "?", "...", " ", "  ", "\n", "\u0085", "\u001c", "\u3000", "\ufeff", "ß", "3.14"), { maxLength: 30 })
    .map((parts) => parts.join(""));

  it("gives the pieces the reference's split gives", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(splitSentences(t)).toEqual(bySplit(t));
      }),
      { numRuns: 3000 },
    );
  });
});
