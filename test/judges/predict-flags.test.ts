// `mari predict --judge openai --temperature T --no-json-mode` through the built CLI: what the
// server receives (from its own log), and that the temperature is part of the cache key.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { honestAnswer, startFakeChatServer, type FakeChatServer } from "./support/fake-chat-server.js";

const KEY_ENV = { MARI_TEST_JUDGE_KEY: "sk-options-0123456789" };
const IDS = ["t-1", "t-2", "t-3"];

let server: FakeChatServer;
let work: { dir: string; cleanup: () => void };
let slice: string;

beforeAll(async () => {
  work = tempDir("mari-predict-options-");
  slice = join(work.dir, "slice.jsonl");
  writeFileSync(slice, IDS.map((id) => JSON.stringify({ id, text: `First of ${id}. Second of ${id}.`, label: false, evidence: null })).join("\n") + "\n");
  server = await startFakeChatServer();
});
afterAll(async () => {
  await server.close();
  work.cleanup();
});

const predict = (extra: string[]) =>
  runMari(["predict", slice, "--judge", "openai", "--base-url", server.baseUrl, "--model", "m", "--api-key-env", "MARI_TEST_JUDGE_KEY", "--quiet", ...extra], {
    env: KEY_ENV,
  });

const expectedDump = () =>
  IDS.map((id) => {
    const a = JSON.parse(honestAnswer(id));
    return JSON.stringify({ case_id: id, run: 0, judgment: a.judgment, evidence_sentence_ids: a.evidence_sentence_ids, reasoning: a.reasoning });
  }).join("\n") + "\n";

describe("mari predict options", () => {
  it("--temperature is sent as given and keys the cache", async () => {
    const cache = join(work.dir, "t.cache.jsonl");
    const first = server.requests.length;
    const hot = await predict(["--temperature", "0.7", "--cache", cache]);
    expect(hot.code, hot.stderr).toBe(0);
    expect(hot.stdout).toBe(expectedDump());
    const sent = server.requests.slice(first);
    expect(sent.map((r) => r.body.temperature)).toEqual([0.7, 0.7, 0.7]);
    expect(sent.every((r) => r.body.response_format?.type === "json_object")).toBe(true);

    const again = server.requests.length;
    const repeat = await predict(["--temperature", "0.7", "--cache", cache]);
    expect(repeat.code).toBe(0);
    expect(server.requests.length).toBe(again); // all three from the cache
    expect(repeat.stdout).toBe(hot.stdout);

    const cooler = await predict(["--temperature", "0.2", "--cache", cache]);
    expect(cooler.code).toBe(0);
    expect(server.requests.slice(again).map((r) => r.body.temperature)).toEqual([0.2, 0.2, 0.2]);
    expect(readFileSync(cache, "utf8").trim().split("\n")).toHaveLength(6);
  });

  it("--no-json-mode sends no response_format; the default sends one", async () => {
    const first = server.requests.length;
    const plain = await predict(["--no-json-mode"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe(expectedDump());
    const sent = server.requests.slice(first);
    expect(sent).toHaveLength(3);
    for (const r of sent) {
      expect(r.body).not.toHaveProperty("response_format");
      expect(r.body).not.toHaveProperty("temperature");
    }
  });

  it("refuses a temperature that is not a number (its range is the server's to judge)", async () => {
    for (const bad of ["hot", "0.7x"]) {
      const r = await predict(["--temperature", bad]);
      expect(r.code, `${bad}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("--temperature");
    }
  });
});
