// The cheap paths of reading a dump line give what the general path gives: a raw completion's
// `Evidence:` list read without JSON.parse, and the depth check walking only object fields.
import { describe, expect, it } from "vitest";
import { extractPrediction, markFloatTokens, parseDumpLine } from "../../src/io/dump.js";
import { parseBoundedJson } from "../../src/io/depth.js";
import { lcg } from "../support/lcg.js";

const TOKENS = ["0", "3", "12", "007", "-1", "-0", "1.0", "1e0", "2E1", "123456789", "1234567890", "9007199254740993", "true", "null", '"3"', "[4]", "{}"];
const SEPARATORS = [", ", ",", " ,", ",  ", ",\t"];

function evidenceText(rand: (n: number) => number): string {
  const count = rand(4);
  let text = rand(20) === 0 ? "[ " : "[";
  for (let k = 0; k < count; k++) {
    if (k > 0) text += SEPARATORS[rand(8) < 6 ? 0 : rand(SEPARATORS.length)];
    text += rand(3) === 0 ? TOKENS[rand(TOKENS.length)] : String(1 + rand(9));
  }
  text += rand(20) === 0 ? " ]" : "]";
  return rand(30) === 0 ? text.slice(0, -1) : rand(30) === 0 ? ` ${text}` : text;
}

/** What the general path makes of an `Evidence:` value: the parsed list, or undefined when it refuses it. */
function generalPath(text: string): unknown[] | undefined {
  try {
    const value = parseBoundedJson(markFloatTokens(text));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

describe("a raw completion's Evidence: list", () => {
  it("reads as JSON.parse reads it, over 5,000 random lists", () => {
    const rand = lcg(21);
    const sentences = ["One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven.", "Eight.", "Nine."];
    for (let k = 0; k < 5000; k++) {
      const text = evidenceText(rand);
      const completion = `<think>\nSee [1].\n</think>\n<answer>\nJudgment: yes\nEvidence: ${text}\n</answer>`;
      const got = extractPrediction({ case_id: "c", completion }, sentences, false);
      const expected = generalPath(text);
      if (expected === undefined) {
        expect(got, text).toMatchObject({ ok: false, reason: "bad_completion_format" });
      } else if (!expected.some((item) => typeof item === "string")) {
        expect(got.ok, text).toBe(true);
        if (got.ok) expect(got.prediction.evidence, text).toStrictEqual(expected);
      }
    }
  });
});

describe("the depth check of a dump line", () => {
  const nested = (depth: number, leaf: string) => "[".repeat(depth) + leaf + "]".repeat(depth);

  it("refuses a read field nested past the limit and nothing else", () => {
    for (const key of ["evidence_sentence_ids", "reasoning", "prediction", "judgment"]) {
      expect(parseDumpLine(`{"case_id":"c","${key}":${nested(63, "1")}}`), key).toHaveProperty("record");
      expect(parseDumpLine(`{"case_id":"c","${key}":${nested(64, "1")}}`), key).toMatchObject({ error: { code: "malformed_json" } });
    }
    expect(parseDumpLine(`{"case_id":"c","notes":${nested(200, "1")}}`)).toHaveProperty("record");
    expect(parseDumpLine(`{"case_id":"c","prediction":{"a":${nested(61, "{}")}}}`)).toHaveProperty("record");
    expect(parseDumpLine(`{"case_id":"c","prediction":{"a":${nested(62, "{}")}}}`)).toMatchObject({ error: { code: "malformed_json" } });
  });
});
