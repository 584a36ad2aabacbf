// Requests a reasoning model accepts (OpenAI's o-series and gpt-5 refuse a non-default temperature
// and the old `max_tokens`): through the built CLI against a real HTTP server on 127.0.0.1 that
// records the request bodies, live and batch alike; and a custom prompt in JSON mode must say JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { startFakeChatServer, type FakeChatServer } from "./support/fake-chat-server.js";

const KEY_ENV = { MARI_TEST_JUDGE_KEY: "sk-reasoning-0123456789" };
const IDS = ["r-1", "r-2"];
let server: FakeChatServer;
let work: { dir: string; cleanup: () => void };
let slice: string;

beforeAll(async () => {
  work = tempDir("mari-reasoning-");
  slice = join(work.dir, "slice.jsonl");
  writeFileSync(slice, IDS.map((id) => JSON.stringify({ id, text: `One of ${id}. Two of ${id}.`, label: false })).join("\n") + "\n");
  server = await startFakeChatServer();
});
afterAll(async () => {
  await server.close();
  work.cleanup();
});

const base = () => [
  "predict",
  slice,
  "--judge",
  "openai",
  "--base-url",
  server.baseUrl,
  "--model",
  "o-test",
  "--api-key-env",
  "MARI_TEST_JUDGE_KEY",
  "--quiet",
];
const predict = (extra: string[]) => runMari([...base(), ...extra], { env: KEY_ENV });

/** The bodies the server received during `action`. */
async function bodiesOf(action: () => Promise<{ code: number | null; stderr: string }>) {
  const first = server.requests.length;
  const r = await action();
  expect(r.code, r.stderr).toBe(0);
  // In the order of the cases (requests run concurrently and may arrive in any order).
  return server.requests
    .slice(first)
    .sort((a, b) => IDS.indexOf(a.caseId) - IDS.indexOf(b.caseId))
    .map((q) => q.body as Record<string, unknown>);
}

/** The request bodies of a --batch-requests file written with `extra`. */
async function batchBodies(extra: string[]) {
  const file = join(work.dir, `requests-${extra.join("_")}.jsonl`);
  const r = await runMari(["predict", slice, "--judge", "openai", "--model", "o-test", "--batch-requests", file, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l).body as Record<string, unknown>);
}

describe("reasoning-model requests", () => {
  it("by default: no temperature, the token limit as max_completion_tokens, live and batch alike", async () => {
    const live = await bodiesOf(() => predict(["--max-tokens", "4000"]));
    expect(live).toHaveLength(2);
    for (const body of live) {
      expect(body).not.toHaveProperty("temperature");
      expect(body).not.toHaveProperty("max_tokens");
      expect(body.max_completion_tokens).toBe(4000);
    }
    const batch = await batchBodies(["--max-tokens", "4000"]);
    // A batch line carries exactly the live body.
    expect(batch).toEqual(live);
  });

  it("--max-tokens-field max_tokens sends the old name; --temperature is sent when given", async () => {
    const live = await bodiesOf(() => predict(["--max-tokens", "50", "--max-tokens-field", "max_tokens", "--temperature", "0"]));
    for (const body of live) {
      expect(body.max_tokens).toBe(50);
      expect(body).not.toHaveProperty("max_completion_tokens");
      expect(body.temperature).toBe(0);
    }
    expect(await batchBodies(["--max-tokens", "50", "--max-tokens-field", "max_tokens", "--temperature", "0"])).toEqual(live);
  });

  it("the meta sidecar records what was sent", async () => {
    const out = join(work.dir, "meta.jsonl");
    await bodiesOf(() => predict(["--max-tokens", "9", "--out", out]));
    expect(JSON.parse(readFileSync(`${out}.meta.json`, "utf8"))).toMatchObject({ temperature: null, max_tokens: 9, max_tokens_field: "max_completion_tokens" });
  });

  it("refuses an unknown --max-tokens-field", async () => {
    const r = await predict(["--max-tokens-field", "max_output_tokens"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-tokens-field must be one of max_completion_tokens, max_tokens");
  });

  it("a custom --prompt in JSON mode must contain the word JSON, and says why", async () => {
    const template = join(work.dir, "no-json.txt");
    writeFileSync(template, "Is this document self-contradictory?\n{{document}}");
    const before = server.requests.length;
    for (const extra of [[], ["--batch-requests", join(work.dir, "never.jsonl")]]) {
      const r = await predict(["--prompt", template, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/must contain the word JSON: OpenAI refuses such a request otherwise.*--no-json-mode/);
    }
    expect(server.requests.length).toBe(before);
    // Without JSON mode the same template is fine; with the word (any case) too.
    expect(await bodiesOf(() => predict(["--prompt", template, "--no-json-mode"]))).toHaveLength(2);
    writeFileSync(template, "Answer as a json object.\n{{document}}");
    expect(await bodiesOf(() => predict(["--prompt", template]))).toHaveLength(2);
  });
});
