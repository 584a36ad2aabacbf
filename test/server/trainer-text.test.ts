// The rules that turn what a trainer sends into what the model wrote: the completion's end
// (core/document/completion-end.ts), the response inside a decoded query (server/trainer-query.ts),
// the case from the document in a prompt (server/document-finder.ts), the log's run keys
// (server/log-run-keys.ts) and the [0, 1] score map (server/weights.ts).
import { describe, expect, it } from "vitest";
import { completionAsWritten, END_MARKERS, withoutLeadingMarkers } from "../../src/core/document/completion-end.js";
import { tagSentences } from "../../src/core/document/sentences.js";
import type { SliceCase } from "../../src/io/slice.js";
import { DocumentFinder } from "../../src/server/document-finder.js";
import { LogRunKeys } from "../../src/server/log-run-keys.js";
import { cleanUpTokenizationSpaces, responseOfQuery } from "../../src/server/trainer-query.js";
import { rewardBounds, unitScore } from "../../src/server/weights.js";

const ANSWER = "<think>\nSee [1].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";

describe("completionAsWritten", () => {
  it.each([
    ["ChatML end of turn", `${ANSWER}<|im_end|>`],
    ["end of turn and padding, any number", `${ANSWER}<|im_end|><|endoftext|><|endoftext|><|endoftext|>`],
    ["Llama 3", `${ANSWER}<|eot_id|>`],
    ["Llama 2 / Mistral", `${ANSWER}</s>`],
    ["Gemma", `${ANSWER}<end_of_turn>\n<eos>`],
    ["DeepSeek", `${ANSWER}<｜end▁of▁sentence｜>`],
    ["Phi-3", `${ANSWER}<|end|>`],
    ["a trailing newline", `${ANSWER}\n`],
    ["whitespace between markers", `${ANSWER}\n<|im_end|>\n \t\r\n`],
  ])("removes %s from the end", (_name, text) => {
    expect(completionAsWritten(text)).toBe(ANSWER);
  });

  it("leaves the middle, the start and unknown markers alone", () => {
    const middle = `<think>\nx<|im_end|>y\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>`;
    expect(completionAsWritten(middle)).toBe(middle);
    expect(completionAsWritten(`<|im_end|>${ANSWER}`)).toBe(`<|im_end|>${ANSWER}`);
    expect(completionAsWritten(`${ANSWER}<|my_end|>`)).toBe(`${ANSWER}<|my_end|>`);
    expect(completionAsWritten(`${ANSWER}<|im_end`)).toBe(`${ANSWER}<|im_end`);
    expect(completionAsWritten("<|im_end|>")).toBe("");
  });

  it("takes further markers, or removes nothing when asked to keep them", () => {
    expect(completionAsWritten(`${ANSWER}<|my_end|>\n`, { specialTokens: ["<|my_end|>"] })).toBe(ANSWER);
    expect(completionAsWritten(`${ANSWER}<|im_end|>\n`, { keepSpecialTokens: true })).toBe(`${ANSWER}<|im_end|>\n`);
  });

  it("skips leading padding of a left-padded batch", () => {
    expect(withoutLeadingMarkers("<|endoftext|><|endoftext|>prompt")).toBe("prompt");
    expect(withoutLeadingMarkers("prompt<|endoftext|>")).toBe("prompt<|endoftext|>");
    expect(new Set(END_MARKERS).size).toBe(END_MARKERS.length);
  });
});

describe("responseOfQuery", () => {
  it("cuts the prompt off as sent, as the decode clean-up prints it, or after the last assistant turn", () => {
    const prompt = "<|im_start|>user\nIs it so ? It 's [1] odd , yes .<|im_end|>\n<|im_start|>assistant\n";
    expect(responseOfQuery(prompt + ANSWER, prompt)).toEqual({ response: ANSWER, rule: "prompt_prefix", thinkFromPrompt: false });
    expect(cleanUpTokenizationSpaces(prompt)).toBe("<|im_start|>user\nIs it so? It's [1] odd, yes.<|im_end|>\n<|im_start|>assistant\n");
    expect(responseOfQuery(cleanUpTokenizationSpaces(prompt + ANSWER), prompt)).toEqual({
      response: ANSWER,
      rule: "prompt_prefix_cleaned",
      thinkFromPrompt: false,
    });
    // A prompt the query does not hold at all (a BOS added twice, say): the text after the last assistant turn.
    expect(responseOfQuery(`<s>other text<|im_start|>assistant\n${ANSWER}`, prompt)).toEqual({
      response: ANSWER,
      rule: "assistant_turn",
      thinkFromPrompt: false,
    });
    const llama = "<|start_header_id|>assistant<|end_header_id|>\n\n";
    expect(responseOfQuery(`x${llama}first${llama}${ANSWER}`, "y")).toEqual({ response: ANSWER, rule: "assistant_turn", thinkFromPrompt: false });
    expect(responseOfQuery(`<|endoftext|><|endoftext|>${prompt}${ANSWER}`, prompt)).toEqual({
      response: ANSWER,
      rule: "prompt_prefix",
      thinkFromPrompt: false,
    });
    expect(responseOfQuery("no header here", "prompt")).toBeUndefined();
    // A reasoning template's prompt ends with the think opener: the response gets it back.
    const r1 = "<｜User｜>Is it so?<｜Assistant｜><think>\n";
    const written = ANSWER.slice("<think>\n".length);
    expect(responseOfQuery(r1 + written, r1)).toEqual({ response: ANSWER, rule: "prompt_prefix", thinkFromPrompt: true });
    expect(responseOfQuery(`${r1}${ANSWER}`, r1)).toEqual({ response: ANSWER, rule: "prompt_prefix", thinkFromPrompt: false });
  });
});

describe("responseOfQuery: the rules one by one", () => {
  it("a decode that joined n't to its word still finds the prompt (the clean-up's n't rule)", () => {
    // No assistant header: only the cleaned prompt can find the response.
    const prompt = "Is it so ? I do n't know .\n";
    expect(cleanUpTokenizationSpaces(prompt)).toBe("Is it so? I don't know.\n");
    expect(responseOfQuery(`Is it so? I don't know.\n${ANSWER}`, prompt)).toEqual({ response: ANSWER, rule: "prompt_prefix_cleaned", thinkFromPrompt: false });
  });

  it("the assistant header that comes last in the query wins, whichever template it is from", () => {
    const chatml = "<|im_start|>assistant\n";
    const llama2 = "[/INST]";
    // A few-shot turn of one template quoted before the real turn of another, in both orders.
    expect(responseOfQuery(`${chatml}example answer ${llama2}${ANSWER}`, "other prompt")).toEqual({
      response: ANSWER,
      rule: "assistant_turn",
      thinkFromPrompt: false,
    });
    expect(responseOfQuery(`${llama2}example answer ${chatml}${ANSWER}`, "other prompt")).toEqual({
      response: ANSWER,
      rule: "assistant_turn",
      thinkFromPrompt: false,
    });
  });
});

function fakeCase(index: number, id: string, sentences: string[]): SliceCase {
  return {
    index,
    id,
    where: `t:${index + 1}`,
    sentences,
    sentenceCount: sentences.length,
    label: false,
    gold: [],
    scope: null,
    docType: null,
    contraType: null,
    extra: {},
  };
}

describe("DocumentFinder", () => {
  const long = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} of the long document.`);
  const cases = [
    fakeCase(0, "long", long),
    fakeCase(1, "longer", [...long, "And one more."]),
    fakeCase(2, "short", ["Tiny."]),
    fakeCase(3, "twin-a", ["Same text here.", "Twice in the slice."]),
    fakeCase(4, "twin-b", ["Same text here.", "Twice in the slice."]),
  ];
  const finder = new DocumentFinder(cases);

  it("finds the case whose tagged document the prompt holds, whitespace folded, the longest one first", () => {
    expect(finder.find(`Read this:\n\n${tagSentences(long)}\n\nAnswer.`)).toEqual({ index: 0 });
    expect(finder.find(`Read:  ${tagSentences([...long, "And one more."]).replaceAll(" [", "\n[")}`)).toEqual({ index: 1 });
    expect(finder.find("Doc: [1] Tiny. Is it contradictory?")).toEqual({ index: 2 });
  });

  it("says when there is no document, or when several cases have its text", () => {
    expect(finder.find("no document [2] here")).toMatchObject({ problem: "no_document_in_prompt" });
    expect(finder.find(`x ${tagSentences(["Same text here.", "Twice in the slice."])}`)).toMatchObject({
      problem: "ambiguous_document",
      message: expect.stringContaining('"twin-a", "twin-b"'),
    });
  });
});

describe("LogRunKeys", () => {
  it("numbers repeats of a case, by sample when given, and never hands out a key an item took", () => {
    const keys = new LogRunKeys();
    expect([keys.next("a", null, null), keys.next("a", null, null), keys.next("b", null, null)]).toEqual(["0", "1", "0"]);
    expect([keys.next("c", null, "0"), keys.next("c", null, "1"), keys.next("c", null, "0"), keys.next("c", null, "0")]).toEqual(["0", "1", "0~1", "0~2"]);
    expect(keys.next("d", "0", null)).toBe("0");
    expect(keys.next("d", null, null)).toBe("1");
    keys.take("e", "0");
    keys.take("e", "1");
    expect(keys.next("e", null, null)).toBe("2");
  });
});

describe("scores", () => {
  it("map the weighted reward onto [0, 1] by the weights' bounds", () => {
    const bounds = rewardBounds({ accuracy: 1, format: 1, coverage: 1 });
    expect(bounds).toEqual({ low: -1, high: 4 });
    expect([-1, 0, 1.05, 4].map((r) => unitScore(r, bounds))).toEqual([0, 1 / 5, 2.05 / 5, 1]);
    expect(rewardBounds({ accuracy: -2, format: 0.5, coverage: 0 })).toEqual({ low: -4, high: 2.5 });
    expect(unitScore(3, rewardBounds({ accuracy: 0, format: 0, coverage: 0 }))).toBe(0);
  });
});
