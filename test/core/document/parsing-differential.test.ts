// The per-prediction parsers were rewritten for speed (no exceptions, no per-reference objects, one
// pass over a completion's tags). This file keeps the straightforward earlier versions as oracles
// and checks that the fast ones agree with them on many seeded random and hostile strings.
import { describe, expect, it } from "vitest";
import { completionAsWritten, decimalDigitValue, DocumentContradictionError, END_MARKERS, parseReasoningReferences } from "../../../src/core/document/index.js";
import type { CompletionEndRule } from "../../../src/core/document/completion-end.js";
import { reasoningReferenceCount } from "../../../src/core/document/references.js";
import { checkedGold, sortedOverlap } from "../../../src/core/document/rewards.js";
import { checkedSentenceIds, sentenceIdsOrCode } from "../../../src/core/document/sentence-ids.js";
import { checkDocumentContradiction, validateDocumentContradiction } from "../../../src/core/document/validation.js";
import { FLOAT_MARKER, markFloatTokens, parseCompletionLayout, parseDumpLine } from "../../../src/io/dump.js";

// ---- oracles: the earlier, obviously-correct versions ----

function oracleDigits(text: string, index: number): { value: number; end: number } | undefined {
  let value = 0;
  let position = index;
  while (position < text.length) {
    const codePoint = text.codePointAt(position) as number;
    const digit = decimalDigitValue(codePoint);
    if (digit < 0) break;
    value = value * 10 + digit;
    if (value > Number.MAX_SAFE_INTEGER) value = Infinity;
    position += codePoint > 0xffff ? 2 : 1;
  }
  return position === index ? undefined : { value, end: position };
}

function oracleReferences(text: string, sentenceCount: number): number[] {
  if (!(sentenceCount >= 1)) throw new DocumentContradictionError("sentence_count_not_positive");
  const ranges: Array<[number, number]> = [];
  let index = 0;
  while (index < text.length) {
    const start = text[index] === "[" ? oracleDigits(text, index + 1) : undefined;
    if (start === undefined) {
      index++;
      continue;
    }
    let last = start.value;
    let position = start.end;
    let compactEnd = false;
    if (text[position] === "-") {
      const end = oracleDigits(text, position + 1);
      if (end === undefined || text[end.end] !== "]") {
        index++;
        continue;
      }
      last = end.value;
      position = end.end + 1;
      compactEnd = true;
    } else if (text[position] === "]") position++;
    else {
      index++;
      continue;
    }
    if (text[position] === "-" && text[position + 1] === "[") {
      const separated = oracleDigits(text, position + 2);
      if (separated !== undefined && text[separated.end] === "]") {
        if (!compactEnd) last = separated.value;
        position = separated.end + 1;
      }
    }
    if (start.value < 1 || last < start.value || last > sentenceCount || !Number.isFinite(last)) {
      throw new DocumentContradictionError("reasoning_reference_out_of_document");
    }
    ranges.push([start.value, last]);
    index = position;
  }
  const ids = new Set<number>();
  for (const [first, last] of ranges) for (let id = first; id <= last; id++) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

function oracleIds(ids: unknown, sentenceCount: number): number[] {
  if (ids === null || ids === undefined) return [];
  if (!Array.isArray(ids)) throw new DocumentContradictionError("non_integer_evidence");
  for (const id of ids) if (typeof id !== "number" || !Number.isInteger(id)) throw new DocumentContradictionError("non_integer_evidence");
  const unique = [...new Set(ids as number[])].sort((a, b) => a - b);
  for (const id of unique) if (id < 1 || id > sentenceCount) throw new DocumentContradictionError("evidence_out_of_document");
  return unique;
}

function oracleLayout(completion: string): { think: string; judgment: string; evidence: string } | undefined {
  const count = (needle: string): number => completion.split(needle).length - 1;
  if (!completion.startsWith("<think>\n") || !completion.endsWith("\n</answer>")) return undefined;
  for (const tag of ["<think>", "</think>", "<answer>", "</answer>"]) if (count(tag) !== 1) return undefined;
  const middle = completion.indexOf("\n</think>\n<answer>\n", 7);
  if (middle === -1) return undefined;
  const answerStart = middle + "\n</think>\n<answer>\n".length;
  const answerEnd = completion.length - "\n</answer>".length;
  if (answerStart > answerEnd) return undefined;
  const lines = completion.slice(answerStart, answerEnd).split("\n");
  if (lines.length !== 2 || !lines[0]!.startsWith("Judgment: ") || !lines[1]!.startsWith("Evidence: ")) return undefined;
  return { think: middle < 8 ? "" : completion.slice(8, middle), judgment: lines[0]!.slice(10), evidence: lines[1]!.slice(10) };
}

function oracleFloatTokens(text: string): string {
  let out = "";
  let copiedTo = 0;
  let i = 0;
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (c === 0x2d || isDigit(c)) {
      const start = i;
      let isFloat = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x2e || d === 0x65 || d === 0x45) isFloat = true;
        else if (!isDigit(d) && d !== 0x2d && d !== 0x2b) break;
      }
      if (isFloat) {
        out += `${text.slice(copiedTo, start)}{"${FLOAT_MARKER}":"${text.slice(start, i)}"}`;
        copiedTo = i;
      }
      continue;
    }
    i++;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

function oracleAsWritten(text: string, rule: CompletionEndRule): string {
  if (rule.keepSpecialTokens) return text;
  const markers = rule.specialTokens?.length ? [...END_MARKERS, ...rule.specialTokens] : END_MARKERS;
  let end = text.length;
  for (;;) {
    while (end > 0 && " \n\r\t".includes(text[end - 1]!)) end--;
    const marker = markers.find((m) => m.length > 0 && m.length <= end && text.startsWith(m, end - m.length));
    if (marker === undefined) break;
    end -= marker.length;
  }
  return text.slice(0, end);
}

// ---- seeded generators ----

function prng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  };
}

const REFERENCE_PIECES = [
  "[",
  "]",
  "-",
  "[",
  "]",
  "-",
  "1",
  "2",
  "3",
  "7",
  "9",
  "0",
  "10",
  "12",
  "2023",
  "[3]",
  "[2-4]",
  "[4]-[6]",
  "[1-2]-[9]",
  "９",
  "٣",
  "\u{1d7d1}",
  "\ud835",
  "\udfd1",
  "9007199254740991",
  "9007199254740993",
  "99999999999999999999999",
  "00",
  " ",
  "see ",
  "\u2013",
  "\n",
  "]-[",
  "[[",
  "]]",
  "-[",
  "a",
];
// Sentence counts, odd ones included; the oracle lists every cited ID, so none is so large that a
// range such as [1-9007199254740991] could be in the document.
const SENTENCE_COUNTS = [1, 2, 3, 5, 9, 12, 30, 2023, 0, -1, Number.NaN, 2.5];

function randomReasoning(r: (n: number) => number): string {
  let text = "";
  const pieces = r(4) === 0 ? 40 + r(120) : r(14);
  for (let k = 0; k < pieces; k++) text += REFERENCE_PIECES[r(REFERENCE_PIECES.length)];
  return text;
}

const ID_VALUES: unknown[] = [1, 2, 3, 5, 12, 0, -1, -0, 2.5, 1e21, Number.MAX_SAFE_INTEGER + 2, "3", true, null, undefined, [3], { id: 3 }, Number.NaN];

function randomIds(r: (n: number) => number): unknown {
  const kind = r(12);
  if (kind === 0) return null;
  if (kind === 1) return undefined;
  if (kind === 2) return "[1, 2]";
  const ids: unknown[] = [];
  const length = r(6);
  for (let k = 0; k < length; k++) ids.push(r(3) === 0 ? ID_VALUES[r(ID_VALUES.length)] : 1 + r(14));
  if (r(20) === 0) ids.length += 2; // holes
  return ids;
}

const LAYOUT_PIECES = [
  "<think>",
  "</think>",
  "<answer>",
  "</answer>",
  "\n",
  "\n",
  "Judgment: ",
  "Evidence: ",
  "yes",
  "[3, 2]",
  "<",
  "x",
  " ",
  "<thin",
  "answer>",
  "</",
  "think>\n",
  "\r",
];

function randomCompletion(r: (n: number) => number): string {
  if (r(3) === 0) {
    let text = "";
    for (let k = r(16); k > 0; k--) text += LAYOUT_PIECES[r(LAYOUT_PIECES.length)];
    return text;
  }
  // A layout close to the valid one, with a few random edits.
  const think = ["", "a", "Sentence [3] and [4].", "x\ny", "<", "</think>", "\n", "a<", "<\n</answer"][r(9)]!;
  let text = `<think>\n${think}\n</think>\n<answer>\nJudgment: ${["yes", "No", ""][r(3)]}\nEvidence: ${["[1]", "[]", "", "[1]\n", "[1]<", "<answer"][r(6)]}\n</answer>`;
  for (let edits = r(3); edits > 0; edits--) {
    const at = r(text.length + 1);
    const piece = LAYOUT_PIECES[r(LAYOUT_PIECES.length)]!;
    text = r(2) === 0 ? text.slice(0, at) + piece + text.slice(at) : text.slice(0, at) + text.slice(at + 1 + r(4));
  }
  return text;
}

function outcome<T>(run: () => T): { value: T } | { code: string } {
  try {
    return { value: run() };
  } catch (error) {
    if (error instanceof DocumentContradictionError) return { code: error.code };
    throw error;
  }
}

describe("the fast per-prediction parsers agree with their plain versions", () => {
  it("reasoning references: the same IDs, count or reason on 20,000 random and hostile texts", () => {
    const r = prng(11);
    let rejected = 0;
    let cited = 0;
    for (let k = 0; k < 20_000; k++) {
      const text = randomReasoning(r);
      const n = SENTENCE_COUNTS[r(SENTENCE_COUNTS.length)]!;
      const expected = outcome(() => oracleReferences(text, n));
      expect(
        outcome(() => parseReasoningReferences(text, n)),
        JSON.stringify([text, n]),
      ).toEqual(expected);
      const count = reasoningReferenceCount(text, n);
      expect("code" in expected ? expected.code : expected.value.length, JSON.stringify([text, n])).toBe(count);
      if ("code" in expected) rejected++;
      else if (expected.value.length > 0) cited++;
    }
    // Both outcomes are well represented, so the comparison is not vacuous.
    expect(rejected).toBeGreaterThan(2000);
    expect(cited).toBeGreaterThan(2000);
  });

  it("references: many wide and repeated ranges, and a million brackets", () => {
    const r = prng(5);
    for (let k = 0; k < 300; k++) {
      let text = "";
      for (let m = 10 + r(200); m > 0; m--) {
        const first = 1 + r(500);
        text += r(2) === 0 ? `[${first}] ` : `[${first}-${first + r(300)}], `;
      }
      expect(parseReasoningReferences(text, 1000)).toEqual(oracleReferences(text, 1000));
      expect(reasoningReferenceCount(text, 1000)).toBe(oracleReferences(text, 1000).length);
    }
    expect(reasoningReferenceCount("[".repeat(1_000_000), 5)).toBe(0);
    expect(reasoningReferenceCount("[1]".repeat(100_000), 5)).toBe(1);
    expect(reasoningReferenceCount([3, "[4]", { a: "[1-2]" }], 5)).toBe(oracleReferences(JSON.stringify([3, "[4]", { a: "[1-2]" }]), 5).length);
  });

  it("sentence IDs: the same sorted unique list or reason on 10,000 random lists", () => {
    const r = prng(23);
    for (let k = 0; k < 10_000; k++) {
      const ids = randomIds(r);
      const n = SENTENCE_COUNTS[r(SENTENCE_COUNTS.length)]!;
      const expected = outcome(() => oracleIds(ids, n));
      const fast = sentenceIdsOrCode(ids as unknown[], n, "non_integer_evidence", "evidence_out_of_document");
      expect(typeof fast === "string" ? { code: fast } : { value: fast }).toEqual(expected);
      expect(outcome(() => checkedSentenceIds(ids as unknown[], n, "non_integer_evidence", "evidence_out_of_document"))).toEqual(expected);
    }
  });

  it("validation: the returning check agrees with the throwing one, and coverage with the IDs", () => {
    const r = prng(31);
    const judgments: unknown[] = [true, false, "false", "", 0, 1, null, [], {}];
    // bool(x) in Python for each: a non-empty string is true whatever it says.
    const truthy = [true, false, true, false, false, true, false, false, false];
    for (let k = 0; k < 10_000; k++) {
      const n = SENTENCE_COUNTS[r(SENTENCE_COUNTS.length)]!;
      const pick = r(judgments.length);
      const judgment = judgments[pick];
      const ids = randomIds(r) as unknown[];
      const reasoning = randomReasoning(r);
      const expected = outcome(() => validateDocumentContradiction(n, judgment, ids, reasoning));
      const fast = checkDocumentContradiction(n, judgment, ids, reasoning);
      if ("code" in expected) expect(fast).toBe(expected.code);
      else {
        expect(fast).toEqual({
          judgment: expected.value.judgment,
          evidenceSentenceIds: expected.value.evidenceSentenceIds,
          referenceCount: expected.value.reasoningSentenceIds.length,
        });
        expect(expected.value.judgment).toBe(truthy[pick]);
      }
    }
  });

  it("gold checks and the overlap of sorted lists", () => {
    const r = prng(41);
    for (let k = 0; k < 5_000; k++) {
      const gold = randomIds(r) as unknown[];
      const positive = r(2) === 0;
      const n = SENTENCE_COUNTS[r(SENTENCE_COUNTS.length)]!;
      const fast = checkedGold(gold, n, positive);
      const ids = outcome(() => oracleIds(gold, n));
      if ("code" in ids) expect(fast).toBe(ids.code === "non_integer_evidence" ? "non_integer_gold" : "gold_out_of_document");
      else if (positive && ids.value.length === 0) expect(fast).toBe("positive_gold_without_evidence");
      else if (!positive && ids.value.length > 0) expect(fast).toBe("negative_gold_with_evidence");
      else expect(fast).toEqual(ids.value);
      const a = oracleIds(
        Array.from({ length: r(6) }, () => 1 + r(9)),
        9,
      );
      const b = oracleIds(
        Array.from({ length: r(6) }, () => 1 + r(9)),
        9,
      );
      expect(sortedOverlap(a, b)).toBe(a.filter((id) => b.includes(id)).length);
    }
  });

  it("completion layout: the same parts or refusal on 20,000 random and near-valid completions", () => {
    const r = prng(53);
    let parsed = 0;
    for (let k = 0; k < 20_000; k++) {
      const text = randomCompletion(r);
      const expected = oracleLayout(text);
      expect(parseCompletionLayout(text), JSON.stringify(text)).toEqual(expected);
      if (expected !== undefined) parsed++;
    }
    expect(parsed).toBeGreaterThan(2000);
  });

  it("float tokens: the same rewrite on 20,000 random JSON-like texts with strings and escapes", () => {
    const r = prng(67);
    const pieces = ['"', '"', "\\", "\\\\", '\\"', "2.0", "1e3", "-3", "7", "E", ".", ",", "[", "]", "{", "}", ":", "a", " ", "x.5", "12"];
    let rewritten = 0;
    for (let k = 0; k < 20_000; k++) {
      let text = "";
      for (let m = r(30); m > 0; m--) text += pieces[r(pieces.length)];
      const expected = oracleFloatTokens(text);
      expect(markFloatTokens(text), JSON.stringify(text)).toBe(expected);
      if (expected !== text) rewritten++;
    }
    expect(rewritten).toBeGreaterThan(2000);
  });

  it("completion ends: the same text kept on 20,000 random endings, default and custom markers", () => {
    const r = prng(79);
    const pieces = [...END_MARKERS, "</answer>", "\n", " ", "\t", "x", ">", "|>", "<|im_end", "s>", "D]", "<END>", "!", "Ω"];
    const rules: CompletionEndRule[] = [
      {},
      { keepSpecialTokens: true },
      { specialTokens: ["<END>"] },
      { specialTokens: ["!", ""] },
      { specialTokens: ["s>", "Ω"] },
    ];
    let cut = 0;
    for (let k = 0; k < 20_000; k++) {
      let text = r(2) === 0 ? "<answer>\nJudgment: yes\n</answer>" : "";
      for (let m = r(6); m > 0; m--) text += pieces[r(pieces.length)];
      const rule = rules[r(rules.length)]!;
      const expected = oracleAsWritten(text, rule);
      expect(completionAsWritten(text, rule), JSON.stringify([text, rule])).toBe(expected);
      if (expected !== text) cut++;
    }
    expect(cut).toBeGreaterThan(5000);
  });

  it("dump lines: the shortest line with a field nested too deeply is still refused", () => {
    // `{"id":` + 64 levels: the shortest line whose read field exceeds the bound (135 characters).
    const line = (levels: number): string => `{"id":${"[".repeat(levels)}${"]".repeat(levels)}}`;
    expect(line(64).length).toBe(135);
    expect(parseDumpLine(line(64))).toEqual({ error: { code: "malformed_json", message: expect.stringContaining("nested deeper than 64") } });
    expect(parseDumpLine(line(63))).toHaveProperty("record");
    expect(parseDumpLine(`{"x":${"[".repeat(200)}${"]".repeat(200)}}`)).toHaveProperty("record");
  });
});
