import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runOpenAIJudge, type OpenAIJudgeOptions } from "../../src/judges/openai.js";
import { ChatConfigError } from "../../src/judges/chat-client.js";
import { InputError } from "../../src/io/errors.js";
import type { JudgeCase, Prediction } from "../../src/judges/types.js";
import { tempDir } from "../support/cli.js";
import { honestAnswer, startFakeChatServer, type FakeChatServer, type ScriptedReply, type ChatRequestInfo } from "./support/fake-chat-server.js";

const API_KEY = "sk-test-SECRET-4242-do-not-leak";
const CASES: JudgeCase[] = [
  { id: "a", sentences: ["The sky is blue.", "The sky is green."] },
  { id: "b", sentences: ["One.", "Two."] },
  { id: "c", sentences: ["Alpha beta.", "Gamma delta."] },
  { id: "d", sentences: ["Only one sentence."] },
];

let server: FakeChatServer | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  while (cleanups.length) cleanups.pop()!();
});

async function serve(script?: (info: ChatRequestInfo) => ScriptedReply): Promise<FakeChatServer> {
  server = await startFakeChatServer(script);
  return server;
}

function options(baseUrl: string, extra: Partial<OpenAIJudgeOptions> = {}): OpenAIJudgeOptions {
  return {
    baseUrl,
    model: "test-model",
    apiKey: API_KEY,
    temperature: 0,
    timeoutMs: 5000,
    maxRetries: 3,
    backoff: { baseMs: 1, maxMs: 5, seed: 0 },
    runs: 1,
    concurrency: 2,
    ...extra,
  };
}

async function judge(cases: JudgeCase[], opts: OpenAIJudgeOptions) {
  const predictions: Prediction[] = [];
  const summary = await runOpenAIJudge(cases, opts, (p) => {
    predictions.push(p);
  });
  return { predictions, summary };
}

function expected(caseId: string, run: number): Prediction {
  const answer = JSON.parse(honestAnswer(caseId));
  return {
    case_id: caseId,
    run,
    judgment: answer.judgment,
    evidence_sentence_ids: answer.evidence_sentence_ids,
    reasoning: answer.reasoning,
  };
}

describe("openai judge against a real HTTP server", () => {
  it("asks once per case and run, at temperature 0 in JSON mode, and emits in slice × run order", async () => {
    const s = await serve();
    const { predictions, summary } = await judge(CASES, options(s.baseUrl, { runs: 2, concurrency: 3 }));
    expect(predictions).toEqual(CASES.flatMap((c) => [expected(c.id, 0), expected(c.id, 1)]));
    expect(summary).toMatchObject({ predictions: 8, requested: 8, fromCache: 0, malformed: 0, failed: 0, jsonMode: true });
    expect(s.requests).toHaveLength(8);
    for (const r of s.requests) {
      expect(r.body.temperature).toBe(0);
      expect(r.body.model).toBe("test-model");
      expect(r.body.response_format).toEqual({ type: "json_object" });
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
    const user = s.requests.find((r) => r.caseId === "a")!.body.messages[1].content as string;
    expect(user).toContain("[1] The sky is blue. [2] The sky is green.");
  });

  it("keeps at most --concurrency requests in flight and the output order fixed when answers arrive out of order", async () => {
    const many: JudgeCase[] = Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, sentences: [`Sentence ${i}.`] }));
    // The server holds each request until three are open (or the last one has come), then answers
    // them newest first: the client must reorder, and three in flight is reached whatever the speed.
    const total = many.length * 2;
    let held: Array<() => void> = [];
    const s = await serve((info) => {
      const after = new Promise<void>((release) => held.push(release));
      if (held.length === 3 || info.index === total - 1) {
        const batch = held.reverse();
        held = [];
        for (const release of batch) release();
      }
      return { content: honestAnswer(info.caseId), after };
    });
    const { predictions } = await judge(many, options(s.baseUrl, { concurrency: 3, runs: 2 }));
    expect(predictions.map((p) => `${p.case_id}/${p.run}`)).toEqual(many.flatMap((c) => [`${c.id}/0`, `${c.id}/1`]));
    expect(s.maxInFlight).toBe(3);
  });

  it("retries a 500 and an unreadable body, then succeeds", async () => {
    const s = await serve((info) => {
      if (info.caseId === "a" && info.previousAttempts === 0) return { status: 500, body: "boom" };
      if (info.caseId === "a" && info.previousAttempts === 1) return { status: 200, body: "{not json" };
      return { content: honestAnswer(info.caseId) };
    });
    const { predictions, summary } = await judge(CASES, options(s.baseUrl));
    expect(predictions).toEqual(CASES.map((c) => expected(c.id, 0)));
    expect(s.requests.filter((r) => r.caseId === "a").length).toBeGreaterThanOrEqual(3);
    expect(summary.retries).toBe(s.requests.length - CASES.length);
  });

  it("honours Retry-After on 429", async () => {
    const s = await serve((info) =>
      info.previousAttempts === 0 && info.caseId === "b"
        ? { status: 429, body: '{"error":"slow down"}', headers: { "retry-after": "7" } }
        : { content: honestAnswer(info.caseId) },
    );
    const waits: number[] = [];
    const { predictions } = await judge(CASES, options(s.baseUrl, { sleep: async (ms) => void waits.push(ms) }));
    expect(waits).toEqual([7000]);
    expect(predictions[1]).toEqual(expected("b", 0));
  });

  it("times out a hung response and retries it", async () => {
    const s = await serve((info) => (info.caseId === "c" && info.previousAttempts === 0 ? "hang" : { content: honestAnswer(info.caseId) }));
    const { predictions, summary } = await judge(CASES, options(s.baseUrl, { timeoutMs: 1000 }));
    expect(predictions).toEqual(CASES.map((c) => expected(c.id, 0)));
    // The hang is retried. On a loaded machine a healthy answer may also miss the timeout and be
    // retried, even before the server has logged the request: the server sees at most one request
    // per case plus one per retry.
    expect(s.requests.filter((r) => r.caseId === "c").length).toBeGreaterThanOrEqual(2);
    expect(summary.retries).toBeGreaterThanOrEqual(1);
    expect(s.requests.length).toBeLessThanOrEqual(CASES.length + summary.retries);
  });

  it("records malformed and wrong-case answers as failed predictions and goes on", async () => {
    const s = await serve((info) => {
      if (info.caseId === "a") return { content: "Yes, it contradicts itself." };
      if (info.caseId === "b") return { content: honestAnswer("zzz") };
      if (info.caseId === "c") return { content: "[1, 2]" };
      return { content: honestAnswer(info.caseId) };
    });
    const { predictions, summary } = await judge(CASES, options(s.baseUrl));
    expect(predictions.map((p) => p.error?.code)).toEqual(["answer_not_json", "answer_wrong_case", "answer_not_object", undefined]);
    for (const p of predictions.slice(0, 3)) expect(p.judgment).toBeNull();
    expect(predictions[0]!.raw).toBe("Yes, it contradicts itself.");
    expect(summary.malformed).toBe(3);
    expect(predictions[3]).toEqual(expected("d", 0));
  });

  it("falls back without response_format when the server rejects it", async () => {
    const s = await serve((info) =>
      info.body.response_format
        ? { status: 400, body: '{"error":{"message":"response_format is not supported by this model"}}' }
        : { content: honestAnswer(info.caseId) },
    );
    const { predictions, summary } = await judge(CASES, options(s.baseUrl, { concurrency: 1 }));
    expect(predictions).toEqual(CASES.map((c) => expected(c.id, 0)));
    expect(summary.jsonMode).toBe(false);
    expect(s.requests.filter((r) => r.body.response_format)).toHaveLength(1);
  });

  it("gives up after max retries, writes a failed prediction, and does not cache it", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const cachePath = join(dir, "cache.jsonl");
    let healthy = false;
    const s = await serve((info) => (info.caseId === "d" && !healthy ? { status: 503, body: "unavailable" } : { content: honestAnswer(info.caseId) }));
    const first = await judge(CASES, options(s.baseUrl, { cachePath, maxRetries: 2 }));
    expect(first.predictions[3]!.error?.code).toBe("request_failed");
    expect(first.predictions[3]!.error?.message).toContain("gave up after 3 attempts");
    expect(first.summary.failed).toBe(1);
    expect(s.requests.filter((r) => r.caseId === "d")).toHaveLength(3);
    healthy = true;
    const second = await judge(CASES, options(s.baseUrl, { cachePath }));
    expect(second.summary).toMatchObject({ fromCache: 3, requested: 1, failed: 0 });
    expect(second.predictions).toEqual(CASES.map((c) => expected(c.id, 0)));
  });

  it("serves repeats from the cache, but never run r from another run's entry", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const cachePath = join(dir, "cache.jsonl");
    const s = await serve();
    const once = await judge(CASES, options(s.baseUrl, { cachePath }));
    expect(once.summary.requested).toBe(4);
    const twice = await judge(CASES, options(s.baseUrl, { cachePath, runs: 2 }));
    expect(twice.summary).toMatchObject({ fromCache: 4, requested: 4 });
    expect(s.requests.slice(4).map((r) => r.caseId)).toEqual(["a", "b", "c", "d"]);
    const again = await judge(CASES, options(s.baseUrl, { cachePath, runs: 2 }));
    expect(again.summary).toMatchObject({ fromCache: 8, requested: 0 });
    expect(again.predictions).toEqual(twice.predictions);
    // A different model is a different key: nothing is served.
    const otherModel = await judge(CASES, options(s.baseUrl, { cachePath, model: "other" }));
    expect(otherModel.summary.requested).toBe(4);
    expect(readFileSync(cachePath, "utf8")).not.toContain(API_KEY);
  });

  it("ignores a torn last cache line and appends on a fresh line", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const cachePath = join(dir, "cache.jsonl");
    const s = await serve();
    await judge(CASES.slice(0, 2), options(s.baseUrl, { cachePath }));
    writeFileSync(cachePath, readFileSync(cachePath, "utf8") + '{"key":"abc","case_id":"c","pred');
    const resumed = await judge(CASES, options(s.baseUrl, { cachePath }));
    expect(resumed.summary).toMatchObject({ fromCache: 2, requested: 2, skippedCacheLines: [3] });
    const lines = readFileSync(cachePath, "utf8").split("\n");
    expect(lines.filter((l) => l.startsWith('{"key"') && l.endsWith("}"))).toHaveLength(4);
  });

  it("a --cache that is a directory, or whose directory is missing, is an input error before any request", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const s = await serve();
    const asDir = await judge(CASES, options(s.baseUrl, { cachePath: dir })).catch((err) => err);
    expect(asDir).toBeInstanceOf(InputError);
    expect(asDir.message).toBe(`--cache ${dir}: not a file`);
    const noParent = join(dir, "missing", "cache.jsonl");
    const missing = await judge(CASES, options(s.baseUrl, { cachePath: noParent })).catch((err) => err);
    expect(missing).toBeInstanceOf(InputError);
    expect(missing.message).toBe(`--cache ${noParent}: cannot open for appending (ENOENT)`);
    expect(s.requests).toHaveLength(0);
  });

  it("stops the run on 401, redacting a key the server echoes", async () => {
    const s = await serve((info) => ({ status: 401, body: `invalid key ${info.headers.authorization}` }));
    const error = await judge(CASES, options(s.baseUrl)).catch((err) => err);
    expect(error).toBeInstanceOf(ChatConfigError);
    expect(error.message).toContain("HTTP 401");
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).toContain("[redacted]");
  });

  it("redacts a key with quotes and < that the server echoes JSON-escaped", async () => {
    const key = 'sk-"quoted"<key>-4242';
    const s = await serve(() => ({ status: 401, body: JSON.stringify({ error: { message: `invalid key ${key}` } }) }));
    const error = await judge(CASES, options(s.baseUrl, { apiKey: key })).catch((err) => err);
    expect(error).toBeInstanceOf(ChatConfigError);
    expect(error.message).not.toContain("quoted");
    expect(error.message).toContain("[redacted]");
  });
});
