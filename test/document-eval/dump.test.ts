import { describe, expect, it } from "vitest";
import {
  coerceJudgment,
  dumpCaseId,
  dumpRunKey,
  extractPrediction,
  lenientId,
  markFloatTokens,
  parseCompletionLayout,
  parseDumpJson,
} from "../../src/io/dump.js";
import { scoreCase } from "../../src/tasks/document/score.js";
import type { SliceCase } from "../../src/io/slice.js";

const record = (text: string) => {
  const parsed = parseDumpJson(text);
  if ("error" in parsed) throw new Error(parsed.error.code);
  return parsed.record;
};

const sliceCase: SliceCase = {
  index: 0,
  id: "a",
  where: "s.jsonl:1",
  sentences: ["The sky is blue.", "The sky is green.", "Birds fly."],
  sentenceCount: 3,
  label: true,
  gold: [2],
  scope: null,
  docType: null,
  contraType: null,
  extra: {},
};
const score = (text: string, lenientIds = false) => scoreCase(sliceCase, record(text), { lenientIds });

describe("float detection from the source text", () => {
  it("marks fractions and exponents outside strings only", () => {
    expect(markFloatTokens('{"e":[2.0, 3, 2e0, -1.5E+2],"s":"1.5 [2.0]"}')).toBe(
      '{"e":[{"$mari_float":"2.0"}, 3, {"$mari_float":"2e0"}, {"$mari_float":"-1.5E+2"}],"s":"1.5 [2.0]"}',
    );
    expect(markFloatTokens('{"s":"a\\"2.0"}')).toBe('{"s":"a\\"2.0"}');
  });

  it("rejects 2.0 and 2e0 as evidence IDs (JSON.parse would give 2)", () => {
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2.0]}').reason).toBe("non_integer_evidence");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2e0]}').reason).toBe("non_integer_evidence");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2]}').reason).toBeNull();
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2.0]}', true).reason).toBeNull();
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":["[2]"]}', true).evidence).toEqual([2]);
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":["2"]}').reason).toBe("non_integer_evidence");
  });

  it("NaN and Infinity are malformed JSON", () => {
    expect(parseDumpJson('{"case_id":"a","judgment":NaN}')).toMatchObject({ error: { code: "malformed_json" } });
    expect(parseDumpJson('{"x":Infinity}')).toMatchObject({ error: { code: "malformed_json" } });
  });
});

describe("case id and run key", () => {
  it("case_id, else id; strings only", () => {
    expect(dumpCaseId(record('{"id":"x"}'))).toBe("x");
    expect(dumpCaseId(record('{"case_id":"y","id":"x"}'))).toBe("y");
    expect(dumpCaseId(record('{"case_id":5}'))).toBeUndefined();
    expect(dumpCaseId(record('{"__proto__":"p","case_id":"__proto__"}'))).toBe("__proto__");
  });
  it('run, else sample, else 0; 1 and "1" are one run; 1.0 is not an integer', () => {
    expect(dumpRunKey(record('{"run":1}'))).toBe("1");
    expect(dumpRunKey(record('{"run":"1"}'))).toBe("1");
    expect(dumpRunKey(record('{"sample":3}'))).toBe("3");
    expect(dumpRunKey(record('{"run":null,"sample":2}'))).toBe("2");
    expect(dumpRunKey(record("{}"))).toBe("0");
    expect(dumpRunKey(record('{"run":1.0}'))).toBeUndefined();
    expect(dumpRunKey(record('{"run":true}'))).toBeUndefined();
  });
});

describe("prediction shapes and reason order", () => {
  it("judgment coercion is exact and untrimmed", () => {
    expect(coerceJudgment("YES")).toBe(true);
    expect(coerceJudgment("False")).toBe(false);
    expect(coerceJudgment(" yes")).toBeUndefined();
    expect(coerceJudgment(1)).toBeUndefined();
  });

  it("reasons, in docs/comparable-reports.md order", () => {
    expect(score('{"case_id":"a","prediction":[1]}').reason).toBe("bad_prediction_shape");
    expect(score('{"case_id":"a","completion":"yes"}').reason).toBe("bad_completion_format");
    expect(score('{"case_id":"a","judgment":"maybe"}').reason).toBe("bad_judgment");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":3}').reason).toBe("bad_evidence_field");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[true]}').reason).toBe("non_integer_evidence");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[4]}').reason).toBe("evidence_out_of_document");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[-1]}').reason).toBe("evidence_out_of_document");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[0]}').reason).toBe("evidence_out_of_document");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[1.5]}').reason).toBe("non_integer_evidence");
    expect(score('{"case_id":"a","judgment":true}').reason).toBe("positive_without_evidence");
    expect(score('{"case_id":"a","judgment":false,"evidence_sentence_ids":[1]}').reason).toBe("negative_with_evidence");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[4],"reasoning":5}').reason).toBe("evidence_out_of_document");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2],"reasoning":5}').reason).toBe("bad_reasoning");
    expect(score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[2],"reasoning":"[9]"}').reason).toBe("reasoning_reference_out_of_document");
  });

  it("a format-invalid prediction scores negative with no evidence", () => {
    const s = score('{"case_id":"a","judgment":true,"evidence_sentence_ids":[9],"reasoning":"[1]"}');
    expect(s).toMatchObject({ judgment: false, evidence: [], referenceCoverage: 0, rewardAccuracy: 0 });
  });

  it("valid prediction rewards", () => {
    const s = score('{"case_id":"a","prediction":{"judgment":"yes","evidence_sentence_ids":[2,3],"reasoning":"[1]-[2] vs [3]"}}');
    expect(s).toMatchObject({ judgment: true, reason: null, evidence: [2, 3], referenceCoverage: 1, rewardAccuracy: 2, matched: 1 });
  });

  it("a million brackets of reasoning is linear", () => {
    const reasoning = "[".repeat(1_000_000);
    const s = scoreCase(sliceCase, { case_id: "a", judgment: false, reasoning }, { lenientIds: false });
    expect(s.reason).toBeNull();
  });
});

describe("raw completions", () => {
  const completion = (answer: string, think = "I compare [1] and [2].") => `<think>\n${think}\n</think>\n<answer>\n${answer}\n</answer>`;
  it("parses the exact layout", () => {
    expect(parseCompletionLayout(completion("Judgment: yes\nEvidence: [2]"))).toEqual({
      think: "I compare [1] and [2].",
      judgment: "yes",
      evidence: "[2]",
    });
    expect(parseCompletionLayout(`${completion("Judgment: yes\nEvidence: [2]")}\n`)).toBeUndefined();
    expect(parseCompletionLayout(`x${completion("Judgment: yes\nEvidence: [2]")}`)).toBeUndefined();
    expect(parseCompletionLayout(completion("Judgment: yes\nEvidence: [2]", "<think>"))).toBeUndefined();
  });

  it("scores IDs and quoted sentences; reasoning is the think block", () => {
    const ids = extractPrediction({ completion: completion("Judgment: yes\nEvidence: [2, 3]") }, sliceCase.sentences, false);
    expect(ids).toEqual({ ok: true, prediction: { judgment: true, evidence: [2, 3], reasoning: "I compare [1] and [2]." } });
    const quoted = scoreCase(sliceCase, { completion: completion('Judgment: yes\nEvidence: ["the sky is GREEN"]') }, { lenientIds: false });
    expect(quoted).toMatchObject({ reason: null, evidence: [2], referenceCoverage: 2 / 3 });
    const missing = scoreCase(sliceCase, { completion: completion('Judgment: yes\nEvidence: ["cats"]') }, { lenientIds: false });
    expect(missing.reason).toBe("evidence_out_of_document");
    const float = scoreCase(sliceCase, { completion: completion("Judgment: yes\nEvidence: [2.0]") }, { lenientIds: false });
    expect(float.reason).toBe("non_integer_evidence");
    const bad = scoreCase(sliceCase, { completion: completion("Judgment: maybe\nEvidence: []") }, { lenientIds: false });
    expect(bad.reason).toBe("bad_judgment");
  });

  it("lenient ids", () => {
    expect(lenientId(" [7] ")).toBe(7);
    expect(lenientId("x")).toBe("x");
  });
});
