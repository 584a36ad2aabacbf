import { describe, expect, it } from "vitest";
import { parseJudgeAnswer } from "../../src/judges/answer.js";
import { parseRetryAfter, retryDelayMs, seededUnit } from "../../src/judges/backoff.js";
import { chatCompletionsUrl } from "../../src/judges/chat-client.js";
import { cacheKey, type CacheKeyParts } from "../../src/judges/cache.js";

describe("parseJudgeAnswer", () => {
  it("passes the model's values through untouched (mari eval validates them)", () => {
    expect(parseJudgeAnswer('{"judgment": "yes", "evidence_sentence_ids": ["3"], "reasoning": "[3]"}', "c1")).toEqual({
      judgment: "yes",
      evidence_sentence_ids: ["3"],
      reasoning: "[3]",
    });
    expect(parseJudgeAnswer('{"case_id": "c1", "judgment": false}', "c1")).toEqual({
      judgment: false,
      evidence_sentence_ids: null,
      reasoning: null,
    });
  });

  it("keeps floats the model wrote as their text (never silently integers)", () => {
    const body = parseJudgeAnswer('{"judgment": true, "evidence_sentence_ids": [2.0, 3, 4e0], "reasoning": "[2] v 2.5"}', "c1");
    expect(body.evidence_sentence_ids).toEqual(["2.0", 3, "4e0"]);
    expect(body.reasoning).toBe("[2] v 2.5");
  });

  it("reads an object inside a Markdown code fence", () => {
    const body = parseJudgeAnswer('```json\n{"judgment": true, "evidence_sentence_ids": [2], "reasoning": "[2]"}\n```', "c1");
    expect(body.judgment).toBe(true);
  });

  it("turns unreadable answers into failed predictions with a code", () => {
    expect(parseJudgeAnswer("maybe", "c1").error?.code).toBe("answer_not_json");
    expect(parseJudgeAnswer("[true]", "c1").error?.code).toBe("answer_not_object");
    expect(parseJudgeAnswer('{"verdict": true}', "c1").error?.code).toBe("answer_wrong_shape");
    expect(parseJudgeAnswer('{"case_id": "c2", "judgment": true}', "c1").error?.code).toBe("answer_wrong_case");
    expect(parseJudgeAnswer(null, "c1").error?.code).toBe("empty_answer");
    const failed = parseJudgeAnswer("x".repeat(5000), "c1");
    expect(failed).toMatchObject({ judgment: null, evidence_sentence_ids: null, reasoning: null });
    expect(failed.raw!.length).toBe(2001);
  });
});

describe("back-off", () => {
  const policy = { baseMs: 100, maxMs: 1000, seed: 0 };

  it("doubles up to the cap, jitters the upper half, and is reproducible per request", () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(1000, 100 * 2 ** attempt);
      const d = retryDelayMs(policy, "case a run 0", attempt);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
      expect(retryDelayMs(policy, "case a run 0", attempt)).toBe(d);
    }
    const u = seededUnit(0, "r", 0);
    expect(u).toBeGreaterThanOrEqual(0);
    expect(u).toBeLessThan(1);
    expect(seededUnit(1, "r", 0)).not.toBe(u);
  });

  it("honours Retry-After as seconds or an HTTP date", () => {
    expect(retryDelayMs(policy, "k", 0, 7000)).toBe(7000);
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:10 GMT", 4000)).toBe(6000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });
});

describe("endpoint and cache key", () => {
  it("appends /chat/completions to a base URL", () => {
    expect(chatCompletionsUrl("https://api.example.com/v1/")).toBe("https://api.example.com/v1/chat/completions");
    expect(chatCompletionsUrl("http://h/v1/chat/completions")).toBe("http://h/v1/chat/completions");
  });

  it("keys on version, endpoint, model, temperature, max tokens, prompt template, prompt and run", () => {
    const parts: CacheKeyParts = {
      judgeVersion: "v",
      baseUrl: "u",
      model: "m",
      temperature: 0,
      maxTokens: null,
      promptSha256: null,
      messages: [{ role: "user", content: "x" }],
      run: 0,
    };
    const base = cacheKey(parts);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    const changes: Partial<CacheKeyParts>[] = [
      { judgeVersion: "w" },
      { baseUrl: "v" },
      { model: "n" },
      { temperature: 1 },
      { maxTokens: 256 },
      { promptSha256: "0".repeat(64) },
      { messages: [] },
      { run: 1 },
    ];
    for (const change of changes) {
      expect(cacheKey({ ...parts, ...change })).not.toBe(base);
    }
  });
});
