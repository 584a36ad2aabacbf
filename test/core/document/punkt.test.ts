// `--sentences punkt` against nltk 3.8: the committed fixture (nltk's spans on every document of
// datasets/contradoc/, made by punkt/nltk_oracle.py) compared sentence by sentence, edge cases
// whose expected splits nltk gave, and a live run of python3-nltk that skips when nltk 3.8 is absent.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parsePunktParameters, punktSpans, splitSentencesPunkt } from "../../../src/core/document/punkt.js";
import { splitSentences } from "../../../src/core/document/sentences.js";
import { englishPunktParameters } from "../../../src/io/punkt-english.js";
import { SYNC_CHILD } from "../../support/children.js";

const ROOT = join(import.meta.dirname, "../../..");
const ORACLE = join(import.meta.dirname, "punkt/nltk_oracle.py");
const DATASETS = ["contradoc-891.jsonl", "contradoc-clean.jsonl", "contradoc-160.jsonl"].map((f) => `datasets/contradoc/${f}`);
const params = englishPunktParameters();

function jsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(join(ROOT, path), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("Punkt against the nltk 3.8 fixture", () => {
  const texts = new Map<string, string>();
  for (const file of DATASETS) for (const r of jsonl(file)) texts.set(`${file}\t${r.id as string}`, r.text as string);
  const fixture = jsonl("test/core/document/punkt/nltk-3.8-contradoc.jsonl");

  it("covers every document of the shipped slices", () => {
    expect(fixture).toHaveLength(texts.size);
    expect(new Set(fixture.map((r) => `${r.file as string}\t${r.id as string}`))).toEqual(new Set(texts.keys()));
  });

  it("gives nltk's sentences, sentence by sentence, on every document", () => {
    const mismatches: string[] = [];
    let sentences = 0;
    let differFromMari = 0;
    for (const r of fixture) {
      const text = texts.get(`${r.file as string}\t${r.id as string}`)!;
      // The fixture's offsets count code points, as Python's do.
      const codePoints = Array.from(text);
      const expected = (r.spans as Array<[number, number]>).map(([s, e]) => codePoints.slice(s, e).join(""));
      const actual = splitSentencesPunkt(text, params);
      sentences += expected.length;
      if (actual.length !== expected.length) mismatches.push(`${r.file as string} ${r.id as string}: ${actual.length} sentences, nltk ${expected.length}`);
      else {
        const at = expected.findIndex((sentence, i) => sentence !== actual[i]);
        if (at >= 0)
          mismatches.push(`${r.file as string} ${r.id as string} sentence ${at + 1}: ${JSON.stringify(actual[at])} vs nltk ${JSON.stringify(expected[at])}`);
      }
      if (JSON.stringify(splitSentences(text)) !== JSON.stringify(expected)) differFromMari++;
    }
    expect(mismatches).toEqual([]);
    expect(sentences).toBeGreaterThan(20_000);
    // The two numberings really differ on these documents, so the fixture tests something.
    expect(differFromMari).toBeGreaterThan(100);
  });
});

// Expected splits as nltk 3.8 gives them (printed by nltk_oracle.py --texts).
const EDGE_CASES: Array<[string, string[]]> = [
  ["Very bad acting!!! I promise.", ["Very bad acting!!!", "I promise."]],
  ["(Sent1.) Sent2.", ["(Sent1.)", "Sent2."]],
  ["He paid $4.50 at 4 p.m. on Friday. Then he left.", ["He paid $4.50 at 4 p.m. on Friday.", "Then he left."]],
  ['Mr. Smith went to Washington. He said "Hi." Then he left.', ["Mr. Smith went to Washington.", 'He said "Hi."', "Then he left."]],
  ["J. S. Bach was born. It rained.", ["J. S. Bach was born.", "It rained."]],
  ["Hello world.\n\nNew para. End", ["Hello world.", "New para.", "End"]],
  ["Items 1. 2. 3. Done.", ["Items 1.", "2.", "3.", "Done."]],
  ["Élan vital. Über alles. ÉCOLE.", ["Élan vital.", "Über alles.", "ÉCOLE."]],
  ["end.\u0085Next one. And\u00a0this. Last", ["end.", "Next one.", "And\u00a0this.", "Last"]],
  ["  Leading space. Trailing space.   ", ["  Leading space.", "Trailing space."]],
  ["What? No! Yes... maybe. Done.", ["What?", "No!", "Yes... maybe.", "Done."]],
  ['He said "Stop." -- and she did.', ['He said "Stop."', "-- and she did."]],
  ["See Fig. 3. It shows p. 12. Then.", ["See Fig.", "3.", "It shows p. 12.", "Then."]],
  ["Dr. No. Mrs. Robinson. Inc. Ltd. ok.", ["Dr. No.", "Mrs. Robinson.", "Inc. Ltd. ok."]],
  ["observance.It is glued. Next.", ["observance.It is glued.", "Next."]],
  ['A sentence.\n(Another one.)\n"Quoted." End.', ["A sentence.", "(Another one.)", '"Quoted."', "End."]],
  ["x.. Y. z... W", ["x.. Y. z... W"]],
  ["I was born in the U.S.A. Then I moved.", ["I was born in the U.S.A. Then I moved."]],
  ["The co-op. Inc. The end.", ["The co-op.", "Inc.", "The end."]],
  ["one , two. Three; four: five. six", ["one , two.", "Three; four: five.", "six"]],
  ["𝐀bc. 𝐁cd. done.", ["𝐀bc.", "𝐁cd.", "done."]],
];

describe("Punkt edge cases", () => {
  it.each(EDGE_CASES)("%j", (text, expected) => {
    expect(splitSentencesPunkt(text, params)).toEqual(expected);
  });

  it("an empty or blank text is one empty sentence (nltk gives none; mari needs n ≥ 1)", () => {
    expect(splitSentencesPunkt("", params)).toEqual([""]);
    expect(splitSentencesPunkt(" \n ", params)).toEqual([""]);
  });

  it("the parameters decide: without the abbreviation 'dr', 'Dr. No.' splits after 'Dr.'", () => {
    const bare = parsePunktParameters({ abbrevTypes: "", collocations: "", sentStarters: "", orthoContext: "" });
    expect(splitSentencesPunkt("Dr. No. Yes.", params)).toEqual(["Dr. No.", "Yes."]);
    expect(splitSentencesPunkt("Dr. No. Yes.", bare)).toEqual(["Dr.", "No.", "Yes."]);
  });

  it("refuses a malformed parameter line with the file it came from", () => {
    expect(() => parsePunktParameters({ abbrevTypes: "", collocations: "a b", sentStarters: "", orthoContext: "" })).toThrow(/collocations\.tab/);
    expect(() => parsePunktParameters({ abbrevTypes: "", collocations: "", sentStarters: "", orthoContext: "word\tx" })).toThrow(/ortho_context\.tab/);
  });
});

// The live oracle: nltk 3.8 itself (Debian's python3-nltk) on the edge cases and contradoc-160.
const PYTHONS = ["python3", "/usr/bin/python3"];
function findNltk(): { python?: string; why: string } {
  const seen: string[] = [];
  for (const python of PYTHONS) {
    const r = spawnSync(python, [ORACLE, "--version"], { ...SYNC_CHILD, encoding: "utf8" });
    const version = r.status === 0 ? r.stdout.trim() : undefined;
    if (version?.startsWith("3.8")) return { python, why: "" };
    seen.push(`${python}: ${version !== undefined ? `nltk ${version}` : r.error ? r.error.message : (r.stderr.trim().split("\n").at(-1) ?? "failed")}`);
  }
  return { why: `needs nltk 3.8 (Debian: apt-get install python3-nltk); ${seen.join("; ")}` };
}
const nltk = findNltk();

// Seeded random texts built from the pieces Punkt decides on: abbreviations, initials, numbers,
// ellipses, closing quotes and brackets, Python-only whitespace, case changes, line breaks.
const PIECES = [
  "Dr.",
  "p.m.",
  "U.S.",
  "Inc.",
  "J.",
  "S.",
  "No.",
  "3.",
  "12.",
  "3.14",
  "...",
  "..",
  "!",
  "?",
  "!!",
  ".",
  ",",
  ";",
  ":",
  '"',
  "'",
  ")",
  "(",
  "]",
  "}",
  "--",
  "-",
  " ",
  " ",
  " ",
  "  ",
  "\n",
  "\n\n",
  "\u0085",
  "\u00a0",
  "\u2003",
  "\t",
  "The",
  "the",
  "He",
  "he",
  "It",
  "Mr.",
  "mrs.",
  "Élan",
  "éclair",
  "ÉCOLE",
  "x",
  "A",
  "b",
  "co-op.",
  "Jan.",
  "Smith",
  "However",
  "in",
  "𝐀bc",
];
function randomTexts(seed: number, count: number): string[] {
  let state = seed >>> 0;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  return Array.from({ length: count }, () => Array.from({ length: 5 + next(60) }, () => PIECES[next(PIECES.length)]).join(""));
}

describe("Punkt on random texts", () => {
  it("returns sentences in text order, never overlapping, each a piece of the text", () => {
    for (const text of randomTexts(1, 500)) {
      let from = 0;
      for (const [start, end] of punktSpans(text, params)) {
        expect(start).toBeGreaterThanOrEqual(from);
        expect(end).toBeGreaterThan(start);
        from = end;
      }
      expect(from).toBeLessThanOrEqual(text.length);
    }
  });
});

describe("Punkt against live nltk 3.8", () => {
  beforeEach((ctx) => {
    if (nltk.python === undefined) ctx.skip(nltk.why);
  });

  it("1,500 seeded random texts of tricky pieces split as nltk splits them", () => {
    const texts = [...randomTexts(2, 500), ...randomTexts(3, 500), ...randomTexts(4, 500)];
    const r = spawnSync(nltk.python!, [ORACLE, "--texts"], { ...SYNC_CHILD, encoding: "utf8", input: JSON.stringify(texts), maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    const expected = JSON.parse(r.stdout) as string[][];
    const mismatches = texts.flatMap((text, i) => {
      const want = expected[i]!.length === 0 ? [""] : expected[i]!;
      const got = splitSentencesPunkt(text, params);
      return JSON.stringify(got) === JSON.stringify(want) ? [] : [`${JSON.stringify(text)}: ${JSON.stringify(got)} vs nltk ${JSON.stringify(want)}`];
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("edge cases and every document of contradoc-160 split as nltk splits them", () => {
    const texts = [...EDGE_CASES.map(([text]) => text), "", "   ", ...jsonl(DATASETS[2]!).map((r) => r.text as string)];
    const r = spawnSync(nltk.python!, [ORACLE, "--texts"], { ...SYNC_CHILD, encoding: "utf8", input: JSON.stringify(texts), maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    const expected = JSON.parse(r.stdout) as string[][];
    expect(expected).toHaveLength(texts.length);
    texts.forEach((text, i) => {
      // nltk gives no sentence for a blank text; mari keeps one empty sentence there.
      const want = expected[i]!.length === 0 ? [""] : expected[i];
      expect(splitSentencesPunkt(text, params), JSON.stringify(text.slice(0, 80))).toEqual(want);
    });
  });
});
