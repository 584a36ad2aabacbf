// Every malformed request kind against a real server on 127.0.0.1 (in-process, random port): a 400
// naming the problem, 413 over --max-body, 404/405, raw garbage; items that cannot be resolved to a
// case make the request a 422 listing each; format-invalid predictions are results with their reason
// code; the server keeps answering throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { parseWeights } from "../../src/server/weights.js";
import { parseByteSize } from "../../src/cli/commands/serve.js";
import { tempDir } from "../support/cli.js";
import { CONTRADOC_160, getJson, postJson, startTestServer } from "./support.js";

const MAX_BODY = 4096;
const MAX_ITEMS = 100;

let slice: DocumentSlice;
let server: RewardsServer;
let caseId: string;

beforeAll(async () => {
  slice = await readDocumentSlice(CONTRADOC_160);
  caseId = slice.cases[0]!.id;
  server = await startTestServer(slice, { maxBodyBytes: MAX_BODY, maxItems: MAX_ITEMS });
});

afterAll(async () => {
  await server?.close();
});

/** A raw POST: a Buffer body, sent with content-length, or chunked (no length) when asked. */
function rawPost(path: string, body: Buffer, chunked = false): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      { method: "POST", headers: { "content-type": "application/json", ...(chunked ? {} : { "content-length": body.length }) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      },
    );
    // The server may answer 413 and close before the whole body is sent.
    req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
    if (chunked) {
      for (let at = 0; at < body.length; at += 1000) req.write(body.subarray(at, at + 1000));
      req.end();
    } else req.end(body);
  });
}

describe("malformed request bodies", () => {
  it.each([
    ["not JSON", "/v1/rewards", "items: []", "malformed_json"],
    ["empty", "/v1/rewards", "", "empty_body"],
    ["NaN", "/v1/rewards", '{"items":[NaN]}', "malformed_json"],
    ["an array", "/v1/rewards", "[{}]", "not_an_object"],
    ["a string", "/v1/rewards", '"items"', "not_an_object"],
    ["no items", "/v1/rewards", '{"item":[]}', "missing_field"],
    ["items not a list", "/v1/rewards", '{"items":{"0":{}}}', "wrong_type"],
    ["items null", "/v1/rewards", '{"items":null}', "wrong_type"],
    ["no query", "/get_reward", '{"prompts":[],"labels":[]}', "missing_field"],
    ["prompts not a list", "/get_reward", '{"query":["a"],"prompts":"a","labels":["x"]}', "wrong_type"],
    ["lengths differ", "/get_reward", '{"query":["a","b"],"prompts":["a"],"labels":["x","y"]}', "length_mismatch"],
  ])("%s → 400 %s", async (_name, path, body, code) => {
    const { status, json } = await postJson(`${server.url}${path}`, body);
    expect(status).toBe(400);
    expect(json.error.code).toBe(code);
    expect(json.error.message.length).toBeGreaterThan(10);
  });

  it("invalid UTF-8 → 400 invalid_utf8", async () => {
    const { status, json } = await rawPost("/v1/rewards", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(status).toBe(400);
    expect(json.error.code).toBe("invalid_utf8");
  });

  it("a body over --max-body → 413, whether its length is declared or it is streamed", async () => {
    const big = Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, () => ({ case_id: caseId, judgment: false })) }));
    expect(big.length).toBeGreaterThan(MAX_BODY);
    for (const chunked of [false, true]) {
      const { status, json } = await rawPost("/v1/rewards", big, chunked);
      expect(status).toBe(413);
      expect(json.error.code).toBe("body_too_large");
    }
    const fits = Buffer.from(JSON.stringify({ items: [{ case_id: caseId, judgment: false }] }));
    expect((await rawPost("/v1/rewards", fits, true)).status).toBe(200);
  });

  it("more items than --max-items → 413 too_many_items, on both routes", async () => {
    const ones = Array.from({ length: MAX_ITEMS + 1 }, () => "1").join(",");
    const rewards = await postJson(`${server.url}/v1/rewards`, `{"items":[${ones}]}`);
    expect(rewards.status).toBe(413);
    expect(rewards.json.error.code).toBe("too_many_items");
    const getReward = await postJson(`${server.url}/get_reward`, `{"query":[${ones}],"prompts":[${ones}],"labels":[${ones}]}`);
    expect(getReward.status).toBe(413);
    // At the limit the items are read (and, not being objects, refused one by one: 422, not 413).
    const atLimit = await postJson(`${server.url}/v1/rewards`, `{"items":[${ones.slice(2)}]}`);
    expect(atLimit.status).toBe(422);
    expect(atLimit.json.error.unresolved).toBe(MAX_ITEMS);
  });

  it("values nested deeper than the stack are items refused by name, and nothing is logged", async () => {
    const work = tempDir("mari-serve-deep-");
    const logPath = join(work.dir, "served.jsonl");
    const deepServer = await startTestServer(slice, { maxBodyBytes: 8 << 20, maxItems: MAX_ITEMS, logPath, logPredictions: true });
    try {
      const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
      const id = JSON.stringify(caseId);
      const items = [
        deep,
        `{"case_id":${id},"run":${deep}}`,
        `{"case_id":${id},"judgment":${deep}}`,
        `{"case_id":${id},"judgment":true,"evidence_sentence_ids":[${deep}]}`,
        `{"case_id":${id},"judgment":false,"reasoning":${deep}}`,
      ];
      const { status, json } = await postJson(`${deepServer.url}/v1/rewards`, `{"items":[${items.join(",")}]}`);
      expect(status).toBe(422);
      // Each item is refused as the same dump line would be (depth over 64: malformed_json).
      expect(json.error.items.map((u: any) => u.reason)).toEqual(["not_an_object", "malformed_json", "malformed_json", "malformed_json", "malformed_json"]);
      // The deep values themselves are not echoed back.
      expect(JSON.stringify(json).length).toBeLessThan(10_000);
      // A deep field mari does not read is no reason to refuse the item (as for a dump line).
      const unread = await postJson(`${deepServer.url}/v1/rewards`, `{"items":[{"case_id":${id},"judgment":false,"extra":${deep}}]}`);
      expect(unread.status).toBe(200);
      expect(unread.json.results[0].format_valid).toBe(true);
    } finally {
      await deepServer.close();
    }
    // Only the scored item is logged, without its deep unread field.
    const logged = readFileSync(logPath, "utf8").trimEnd().split("\n");
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ format_valid: true, judgment: false });
    expect(logged[0]!.length).toBeLessThan(1000);
    work.cleanup();
  });

  it("unknown routes → 404, wrong methods → 405", async () => {
    expect((await postJson(`${server.url}/v2/rewards`, "{}")).status).toBe(404);
    expect((await postJson(`${server.url}/health`, "{}")).status).toBe(405);
    const get = await fetch(`${server.url}/v1/rewards`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("a client that goes away mid-body does not disturb the server", async () => {
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.on("connect", resolve));
    socket.write("POST /v1/rewards HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\nexpect: 100-continue\r\n\r\n");
    await new Promise((resolve) => socket.once("data", resolve)); // 100 Continue: the request is in
    socket.write('{"items":[');
    socket.destroy();
    const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[{"case_id":${JSON.stringify(caseId)},"judgment":false}]}`);
    expect(status).toBe(200);
    expect(json.results[0].format_valid).toBe(true);
  });

  it("raw bytes that are not HTTP get a 400 and do not stop the server", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.write("\x00\x01 garbage \r\n\r\n"));
      let text = "";
      socket.setEncoding("utf8").on("data", (d) => (text += d));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe.skipIf(!existsSync("/dev/full"))("a --log that cannot be written (/dev/full)", () => {
  it("refuses the request whose lines cannot be written (503), reports it in /health, and keeps refusing", async () => {
    const full = await startTestServer(slice, { maxBodyBytes: MAX_BODY, maxItems: MAX_ITEMS, logPath: "/dev/full" });
    try {
      const body = `{"items":[{"case_id":${JSON.stringify(caseId)},"judgment":false}]}`;
      // The items are answered only once logged: the first request already fails, nothing is answered unlogged.
      const first = await postJson(`${full.url}/v1/rewards`, body);
      expect(first.status).toBe(503);
      expect(first.json.error.code).toBe("log_unwritable");
      const health = await (await fetch(`${full.url}/health`)).json();
      expect(health.log_error).toMatch(/ENOSPC/);
      expect(health.counters.items).toBe(0);
      const refused = await postJson(`${full.url}/v1/rewards`, body);
      expect(refused.status).toBe(503);
      expect(full.logError()).toMatch(/ENOSPC/);
    } finally {
      await full.close();
    }
  });
});

describe("bad items inside a good body", () => {
  it("format-invalid predictions are results with their reason, in place", async () => {
    const id = JSON.stringify(caseId);
    const items = [
      `{"case_id":${id},"judgment":false}`,
      `{"case_id":${id},"judgment":"perhaps"}`,
      `{"case_id":${id},"judgment":true,"evidence_sentence_ids":[1.0]}`,
      `{"case_id":${id},"judgment":true,"evidence_sentence_ids":"1"}`,
      `{"case_id":${id},"completion":42}`,
      `{"case_id":${id},"prediction":[]}`,
      `{"__proto__":{"polluted":true},"case_id":${id},"judgment":false}`,
    ];
    const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[${items.join(",")}]}`);
    expect(status).toBe(200);
    expect(json.results.map((r: any) => r.reason)).toEqual([
      null,
      "bad_judgment",
      "non_integer_evidence",
      "bad_evidence_field",
      "bad_completion_format",
      "bad_prediction_shape",
      null,
    ]);
    expect(json.results.slice(1, 6).every((r: any) => r.format_valid === false && r.format === 0)).toBe(true);
    expect(({} as any).polluted).toBeUndefined();
  });

  it("items that name no case of the slice make the request a 422 that lists each, with its reason", async () => {
    const id = JSON.stringify(caseId);
    const items = [
      `{"case_id":${id},"judgment":false}`,
      "17",
      "null",
      '{"case_id":["x"]}',
      '{"case_id":"no such case","judgment":true}',
      `{"case_id":${id},"run":2.5,"judgment":false}`,
      '{"judgment":false}',
      '{"judgment":false,"prompt":"Is [1] this document [2] contradictory?"}',
    ];
    const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[${items.join(",")}]}`);
    expect(status).toBe(422);
    expect(json.error.code).toBe("unresolved_items");
    expect(json.error.unresolved).toBe(7);
    expect(json.error.items.map((u: any) => [u.index, u.reason])).toEqual([
      [1, "not_an_object"],
      [2, "not_an_object"],
      [3, "bad_case_id"],
      [4, "unknown_case_id"],
      [5, "bad_run_key"],
      [6, "bad_case_id"],
      [7, "no_document_in_prompt"],
    ]);
    expect(json.error.message).toMatch(/^7 of 8 items could not be scored; the first, item 1: not_an_object/);
  });

  it("in /get_reward: a query that is not text, a prompt that neither prefixes it nor has a header, a label that is not an id", async () => {
    const ok = "<think>\n\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";
    const body = {
      query: [`P${ok}`, 5, `Q${ok}`, `P${ok}`, `P${ok}`],
      prompts: ["P", "P", "P", "P", null],
      labels: [caseId, caseId, caseId, 12, caseId],
    };
    const { status, json } = await postJson(`${server.url}/get_reward`, JSON.stringify(body));
    expect(status).toBe(422);
    expect(json.error.items.map((u: any) => [u.index, u.reason])).toEqual([
      [1, "not_an_object"],
      [2, "response_not_found"],
      [3, "bad_case_id"],
      [4, "response_not_found"],
    ]);
    expect(json.error.message).toMatch(/^4 of 5 queries could not be scored; the first, query 1: not_an_object/);
    const good = await postJson(`${server.url}/get_reward`, JSON.stringify({ query: [`P${ok}`, `P${ok}x`], prompts: ["P", "P"], labels: [caseId, caseId] }));
    expect(good.status).toBe(200);
    expect(good.json.extra_logs.format).toEqual([1, 0]);
    expect(good.json.reasons).toEqual([null, "bad_completion_format"]);
    const health = await (await fetch(`${server.url}/health`)).json();
    expect(health.counters.reasons.bad_completion_format).toBeGreaterThan(0);
  });

  it("/health reports the slice, the version and counters of requests, statuses, items and reasons", async () => {
    const health = await getJson(`${server.url}/health`);
    expect(health.slice).toEqual({ path: CONTRADOC_160, hash: server.sliceHash, cases: 160 });
    expect(health.mari_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(health.counters.statuses["400"]).toBeGreaterThanOrEqual(12);
    expect(health.counters.statuses["413"]).toBe(4);
    expect(health.counters.items).toBe(health.counters.format_valid + Object.values<number>(health.counters.reasons).reduce((a, b) => a + b, 0));
  });
});

describe("flag parsers", () => {
  it("--weights: named weights replace the defaults; anything else is an error", () => {
    expect(parseWeights("accuracy=2")).toEqual({ accuracy: 2, format: 1, coverage: 1 });
    expect(parseWeights("format=0, reference_coverage=0.5")).toEqual({ accuracy: 1, format: 0, coverage: 0.5 });
    for (const bad of ["accuracy", "speed=1", "accuracy=x", "accuracy=1,accuracy=2", "coverage=Infinity", "", "accuracy=1e308,format=1e308"]) {
      expect(parseWeights(bad)).toHaveProperty("error");
    }
  });

  it("--max-body: bytes, kb or mb", () => {
    expect(parseByteSize("8mb", "--max-body")).toBe(8 * 1024 * 1024);
    expect(parseByteSize("512KB", "--max-body")).toBe(512 * 1024);
    expect(parseByteSize("100", "--max-body")).toBe(100);
    for (const bad of ["0", "-1", "1.5mb", "8gb", ""]) expect(() => parseByteSize(bad, "--max-body")).toThrow(/--max-body/);
  });
});
