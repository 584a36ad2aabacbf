// custom_id encoding and the reading of single batch output lines.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeCustomId, encodeCustomId } from "../../src/judges/batch-requests.js";
import { readBatchOutputLine } from "../../src/judges/batch-results.js";
import { chatRequestBody } from "../../src/judges/chat-request.js";

const ok = (content: string | null, finish = "stop") => ({
  id: "b1",
  custom_id: encodeCustomId("doc", 1),
  response: {
    status_code: 200,
    request_id: "r",
    body: { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }], usage: { prompt_tokens: 7, completion_tokens: 3 } },
  },
  error: null,
});

describe("custom_id", () => {
  it("round-trips any case id (quotes, brackets, control characters, lone surrogates) and any run", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), (caseId, run) => {
        expect(decodeCustomId(encodeCustomId(caseId, run))).toEqual({ caseId, run });
      }),
      { numRuns: 500, seed: 13 },
    );
    expect(encodeCustomId('a"b\\c', 2)).toBe('["a\\"b\\\\c",2]');
    expect(decodeCustomId(encodeCustomId("\ud800", 0))).toEqual({ caseId: "\ud800", run: 0 });
  });

  it("rejects what encodeCustomId never writes", () => {
    for (const text of ["request-1", "[1,2]", '["a"]', '["a",-1]', '["a",1.5]', '["a",1,2]', '["a"', '{"a":1}']) {
      expect(decodeCustomId(text)).toBeUndefined();
    }
  });
});

describe("batch output lines", () => {
  it("reads an answer through the live parser, with its usage", () => {
    const line = readBatchOutputLine(ok('{"judgment": true, "evidence_sentence_ids": [2], "reasoning": "[2]"}'));
    expect(line).toEqual({
      caseId: "doc",
      run: 1,
      prediction: { judgment: true, evidence_sentence_ids: [2], reasoning: "[2]" },
      usage: { promptTokens: 7, completionTokens: 3 },
    });
  });

  it("gives every failure its own code, keeping the line", () => {
    const code = (record: Record<string, unknown>) => {
      const line = readBatchOutputLine(record);
      return "orphan" in line ? "orphan" : line.prediction.error?.code;
    };
    expect(code(ok('{"judgment": true, "evid', "length"))).toBe("answer_truncated");
    expect(code(ok('{"judgment": false}', "length"))).toBe("answer_truncated");
    expect(code(ok("plain words"))).toBe("answer_not_json");
    expect(code(ok('{"case_id": "other", "judgment": true}'))).toBe("answer_wrong_case");
    expect(code(ok(null))).toBe("empty_answer");
    expect(code({ ...ok(""), response: { status_code: 200, body: { choices: [] } } })).toBe("no_choices");
    expect(code({ ...ok(""), response: { status_code: 429, body: { error: { message: "rate" } } } })).toBe("request_failed");
    expect(code({ ...ok(""), response: null, error: { code: "batch_expired", message: "expired" } })).toBe("request_failed");
    expect(code({ ...ok(""), response: undefined, error: null })).toBe("request_failed");
    expect(code({ ...ok(""), custom_id: "request-7" })).toBe("orphan");
    // vLLM run_batch's failure lines: a 4xx status without a body and `error` a string or an ErrorResponse.
    const vllmString = readBatchOutputLine({ ...ok(""), response: { status_code: 400, request_id: "v" }, error: "Request must not be sent in stream mode" });
    expect("prediction" in vllmString && vllmString.prediction.error).toEqual({
      code: "request_failed",
      message: "batch request failed: Request must not be sent in stream mode",
    });
    const vllmObject = readBatchOutputLine({
      ...ok(""),
      response: { status_code: 404, request_id: "v" },
      error: { error: { message: "The model `x` does not exist.", code: 404 } },
    });
    expect("prediction" in vllmObject && vllmObject.prediction.error?.message).toContain("does not exist");
  });

  it("a batch request body is the live request body", () => {
    const messages = [{ role: "user" as const, content: "x" }];
    expect(chatRequestBody({ model: "m", temperature: 0.7, maxTokens: 50 }, messages, 3, true)).toEqual({
      model: "m",
      messages,
      temperature: 0.7,
      seed: 3,
      max_completion_tokens: 50,
      response_format: { type: "json_object" },
    });
    expect(chatRequestBody({ model: "m", temperature: 0 }, messages, 0, false)).toEqual({ model: "m", messages, temperature: 0, seed: 0 });
  });
});

describe("unreachable URLs", () => {
  const fetchFailure = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
  it("names refused connections, DNS and TLS failures; other errors are retried", async () => {
    const { unreachableCause } = await import("../../src/judges/reachability.js");
    expect(unreachableCause(fetchFailure("ECONNREFUSED"))).toBe("connection refused");
    expect(unreachableCause(fetchFailure("ENOTFOUND"))).toBe("DNS lookup failed");
    expect(unreachableCause(fetchFailure("EAI_AGAIN"))).toBe("DNS lookup failed");
    expect(unreachableCause(fetchFailure("ERR_SSL_WRONG_VERSION_NUMBER"))).toBe("TLS handshake failed");
    expect(unreachableCause(fetchFailure("CERT_HAS_EXPIRED"))).toBe("TLS handshake failed");
    expect(unreachableCause(fetchFailure("ECONNRESET"))).toBeUndefined();
    expect(unreachableCause(fetchFailure("UND_ERR_SOCKET"))).toBeUndefined();
    expect(unreachableCause(new Error("no code"))).toBeUndefined();
  });
});
