// The Python behaviours the evidence code depends on, checked against values printed by CPython 3.11.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  codePointOffset,
  compareCodePoints,
  containsCodePoints,
  encodeUtf8Strict,
  EvidenceValueError,
  groundingCoverage,
  JsonSyntaxError,
  normalizeClaim,
  parsePythonInt,
  parsePythonJson,
  PyFloat,
  pythonCasefold,
  pythonFloatRepr,
  pythonStr,
  pythonStringRepr,
  pyTruthy,
  roundHalfEven,
  sha256Hex,
  sha256OfText,
  sliceCodePoints,
  toPlainJson,
  wordTokens,
} from "../../src/core/evidence/index.js";
import { SYNC_CHILD } from "../support/children.js";

const python = spawnSync("python3", ["--version"], { ...SYNC_CHILD, encoding: "utf8" });
const hasPython = python.status === 0 && /Python 3\.(1[1-9]|[2-9]\d)/.test(python.stdout + python.stderr);

const nodeSha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("casefold and word tokens", () => {
  it("folds as Python's str.casefold()", () => {
    expect(pythonCasefold("ΣΑΣ ﬁle Straße ꭰ Ꭰ \u01f0 \u0390")).toBe("σασ file strasse Ꭰ Ꭰ j\u030c \u03b9\u0308\u0301");
    expect(pythonCasefold("İstanbul")).toBe("i̇stanbul");
    expect(pythonCasefold("ASCII Only")).toBe("ascii only");
  });
  it("tokenises with Unicode \\w (letters, numbers, underscore; not combining marks)", () => {
    expect([...wordTokens("Straße_2 naïve ٣ 😀 e\u0301")].sort()).toEqual(["e", "naïve", "strasse_2", "٣"].sort());
  });
});

describe("casefold, word tokens and claim keys on random text", () => {
  // ASCII (letters of both cases, digits, "_", punctuation, spaces) mixed with characters whose
  // folding, NFKC form or word class is special, surrogate pairs and lone surrogates.
  const ALPHABET = [..."aZz09_ -.,!\t", "ß", "ﬁ", "İ", "Σ", "ς", "\u0345", "\u0301", "½", "٣", "Ꭰ", "😀", "𝐀", "\ud800", "\udc00", "é", "Å", "\u00a0"];
  let state = 99;
  const rand = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const texts = Array.from({ length: 400 }, (_, i) => {
    // Half pure ASCII (the fast paths), half mixed.
    const pool = i % 2 === 0 ? ALPHABET.slice(0, 13) : ALPHABET;
    return Array.from({ length: rand(30) }, () => pool[rand(pool.length)]).join("");
  });
  // The definitions the fast paths must agree with: fold each code point, then the Unicode runs.
  const foldEach = (text: string) => Array.from(text, (ch) => pythonCasefold(ch)).join("");
  it("agree with folding one code point at a time and the Unicode word patterns", () => {
    for (const text of texts) {
      expect(pythonCasefold(text)).toBe(foldEach(text));
      expect([...wordTokens(text)]).toEqual([...new Set(foldEach(text).match(/[\p{L}\p{N}_]+/gu) ?? [])]);
      expect(normalizeClaim(text)).toBe((foldEach(text.normalize("NFKC")).match(/[\p{L}\p{N}]+/gu) ?? []).join(" "));
    }
  });
  it("give the grounding coverage of the quotes joined with spaces, quote by quote", () => {
    for (let i = 0; i + 2 < texts.length; i += 3) {
      const [claim, a, b] = [texts[i]!, texts[i + 1]!, texts[i + 2]!];
      const claimTokens = wordTokens(claim);
      const quoteTokens = wordTokens(`${a} ${b}`);
      const covered = [...claimTokens].filter((t) => quoteTokens.has(t)).length;
      const expected = claimTokens.size === 0 ? 0 : roundHalfEven(0.8 * (covered / claimTokens.size) + 0.1 * 1 + 0.1 * 1, 4);
      expect(
        groundingCoverage(claim, [
          { document_id: "x/a", quote: a },
          { document_id: "x/b", quote: b },
        ]),
      ).toBe(expected);
    }
  });
  it.skipIf(!hasPython)("agree with CPython's casefold() and re \\w+", () => {
    // Lone surrogates cannot travel through JSON to Python's str intact in both directions: left out.
    const wellFormed = texts.filter((t) => !/[\ud800-\udfff]/.test(t.replaceAll(/[\ud800-\udbff][\udc00-\udfff]/g, "")));
    const script = "import json,re,sys\n" + "for t in json.load(sys.stdin):\n" + " f=t.casefold()\n" + " print(json.dumps([f,re.findall(r'\\w+',f)]))";
    const result = spawnSync("python3", ["-c", script], { ...SYNC_CHILD, input: JSON.stringify(wellFormed), encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    wellFormed.forEach((text, i) => {
      const [folded, tokens] = JSON.parse(lines[i]!) as [string, string[]];
      expect(pythonCasefold(text)).toBe(folded);
      expect([...wordTokens(text)]).toEqual([...new Set(tokens)]);
    });
  });
});

describe("code points", () => {
  const text = "😀 refunds close";
  it("counts and offsets in code points, as Python indices", () => {
    expect(text.length).toBe(16);
    expect(codePointLength(text)).toBe(15);
    expect(codePointOffset(text, text.indexOf("refunds"))).toBe(2);
    expect(sliceCodePoints(text, 2, 9)).toBe("refunds");
    expect(sliceCodePoints("a😀b", 1, 2)).toBe("😀");
  });
  it("never matches half of a surrogate pair (Python compares whole code points)", () => {
    expect(containsCodePoints("x😀y", "\ud83d")).toBe(false);
    expect(containsCodePoints("x😀y", "\ude00")).toBe(false);
    expect(containsCodePoints("\ude00 x😀y", "\ude00")).toBe(true);
    expect(codePointLength("\ud800x")).toBe(2);
  });
  it("orders strings by code point, like Python's sorted()", () => {
    const sorted = ["\uffff", "\u{1F600}", "a", "\ue000"].sort(compareCodePoints);
    expect(sorted).toEqual(["a", "\ue000", "\uffff", "\u{1F600}"]);
  });
});

describe("str() and repr()", () => {
  it("prints floats as Python's repr", () => {
    const values = [599.0, 0.1, 1e16, 1.5e16, 1e-5, 0.0001, 123456789012345.6, -0.0, 2.5e-7, 1e22, 3.14, 100.0, 1234567890123456.0];
    const python = [
      "599.0",
      "0.1",
      "1e+16",
      "1.5e+16",
      "1e-05",
      "0.0001",
      "123456789012345.6",
      "-0.0",
      "2.5e-07",
      "1e+22",
      "3.14",
      "100.0",
      "1234567890123456.0",
    ];
    expect(values.map(pythonFloatRepr)).toEqual(python);
  });
  it("keeps int and float apart: JSON 599 is '599', 599.0 is '599.0'", () => {
    const value = parsePythonJson('{"a": 599, "b": 599.0, "c": 5.99e2, "d": 12345678901234567890}') as Map<string, unknown>;
    expect(["a", "b", "c", "d"].map((k) => pythonStr(value.get(k)))).toEqual(["599", "599.0", "599.0", "12345678901234567890"]);
    expect(pythonStr(599)).toBe("599");
    expect(pythonStr(new PyFloat(599))).toBe("599.0");
  });
  it("prints True, None, lists and dicts in Python's form, keys in source order", () => {
    expect(pythonStr(true)).toBe("True");
    expect(pythonStr(null)).toBe("None");
    expect(pythonStr(parsePythonJson('{"k": [1, 2.0, null, true, {"n": "x"}]}'))).toBe("{'k': [1, 2.0, None, True, {'n': 'x'}]}");
    expect(pythonStr(parsePythonJson('{"2": 1, "1": 2}'))).toBe("{'2': 1, '1': 2}");
    expect(pythonStr([])).toBe("[]");
    expect(pythonStr({})).toBe("{}");
  });
  it("quotes and escapes strings as repr()", () => {
    expect(pythonStringRepr("a'b")).toBe(`"a'b"`);
    expect(pythonStringRepr(`a"b'c`)).toBe(`'a"b\\'c'`);
    expect(pythonStringRepr("tab\there\n")).toBe("'tab\\there\\n'");
    expect(pythonStringRepr("\x00\x7f\x85\u200b\u00e9\u{1F600}\ud800")).toBe("'\\x00\\x7f\\x85\\u200bé😀\\ud800'");
    expect(pythonStringRepr("a\\b")).toBe("'a\\\\b'");
  });
  it("applies Python truthiness to floats from files", () => {
    expect(pyTruthy(new PyFloat(0))).toBe(false);
    expect(pyTruthy(new PyFloat(0.5))).toBe(true);
    expect(pyTruthy(new Map())).toBe(false);
    expect(pyTruthy("false")).toBe(true);
  });
});

describe("round(x, 4)", () => {
  it("rounds the binary value half to even, as Python", () => {
    expect(roundHalfEven(0.125, 2)).toBe(0.12);
    expect(roundHalfEven(0.375, 2)).toBe(0.38);
    expect(roundHalfEven(0.45, 1)).toBe(0.5);
    expect(roundHalfEven(1.00005, 4)).toBe(1.0001);
    expect(roundHalfEven(0.00015, 4)).toBe(0.0001);
    expect(roundHalfEven(2.5, 0)).toBe(2);
    expect(roundHalfEven(0.03125, 4)).toBe(0.0312);
    expect(roundHalfEven(0.8 * (2 / 3) + 0.1 * 0.5 + 0.1 * 1, 4)).toBe(0.6833);
  });
});

describe("int(token)", () => {
  it("accepts what Python's int() accepts", () => {
    expect([" 1", "+1", "01", "1_0", "٣", "-1", "\u3000 7 ", "𝟗"].map(parsePythonInt)).toEqual([1n, 1n, 1n, 10n, 3n, -1n, 7n, 9n]);
  });
  it("rejects what Python's int() rejects", () => {
    for (const bad of ["1__0", "_1", "1_", "-", "", "1.0", "0x1", "+-1"]) expect(parsePythonInt(bad)).toBeNull();
  });
});

describe("SHA-256 and strict UTF-8", () => {
  it("matches node:crypto on known vectors and varied text", () => {
    expect(sha256OfText("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256OfText("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const text of ["😀 refunds close", "é".repeat(55), "x".repeat(63), "y".repeat(64), "z".repeat(1000), "İ\u0000\uffff\u{10ffff}"]) {
      expect(sha256OfText(text)).toBe(nodeSha(text));
    }
    const bytes = new Uint8Array(200_003).map((_, i) => (i * 31) & 0xff);
    expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
    // Every tail length around the one- and two-block padding.
    for (let n = 0; n <= 130; n++)
      expect(sha256Hex(bytes.subarray(7, 7 + n))).toBe(
        createHash("sha256")
          .update(bytes.subarray(7, 7 + n))
          .digest("hex"),
      );
  });
  it("raises Python's UnicodeEncodeError message on a lone surrogate instead of writing U+FFFD", () => {
    expect(() => encodeUtf8Strict("ab\ud800")).toThrow(EvidenceValueError);
    expect(() => encodeUtf8Strict("😀b\udc00")).toThrow("'utf-8' codec can't encode character '\\udc00' in position 2: surrogates not allowed");
    // sha256OfText too, wherever the lone half sits; pairs alone hash as node:crypto does.
    for (const text of ["\ud800", "\udc00x", "x\ud83d", "😀\ude00", "\ud83d😀", "a\udc00\ud800b"]) expect(() => sha256OfText(text)).toThrow(EvidenceValueError);
    expect(sha256OfText("😀😀x😀")).toBe(nodeSha("😀😀x😀"));
  });
});

describe("Python-faithful JSON reader", () => {
  it("keeps key order, the last value of a repeated key, and __proto__ as data", () => {
    const value = parsePythonJson('{"b": 1, "a": 2, "b": 3, "__proto__": {"x": 1}}') as Map<string, unknown>;
    expect([...value.keys()]).toEqual(["b", "a", "__proto__"]);
    expect(value.get("b")).toBe(3);
    const plain = toPlainJson(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(["b", "a", "__proto__"]);
  });
  it("decodes escapes, keeps lone surrogates, and rejects what is not JSON", () => {
    expect(parsePythonJson('"a\\u00e9\\ud83d\\ude00\\ud800\\n"')).toBe("aé😀\ud800\n");
    for (const bad of ["NaN", "[1,]", "{'a': 1}", "01", '"\t"', "[1] x", "Infinity", ""]) {
      expect(() => parsePythonJson(bad)).toThrow(JsonSyntaxError);
    }
    expect(() => parsePythonJson("[".repeat(100_000))).toThrow(JsonSyntaxError);
  });
});
