// `mari predict` through the built CLI, against a real chat-completions server on 127.0.0.1.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { childEnv, runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { honestAnswer, startFakeChatServer, type FakeChatServer } from "./support/fake-chat-server.js";
import { endWithTest } from "../support/children.js";

const API_KEY = "sk-live-TOPSECRET-0123456789";
const KEY_ENV = { MARI_TEST_JUDGE_KEY: API_KEY };

const CASE_IDS = ["doc-1", "doc-2", "doc-3", "doc-4", "doc-5", "doc-6"];

let server: FakeChatServer | undefined;
let work: { dir: string; cleanup: () => void };
let slicePath: string;

beforeAll(() => {
  work = tempDir("mari-predict-");
  slicePath = join(work.dir, "slice.jsonl");
  writeFileSync(
    slicePath,
    CASE_IDS.map((id, i) =>
      JSON.stringify({
        id,
        text: `Document ${i} opens here. The office has ${i + 2} floors. The office has ${i + 3} floors.`,
        label: i % 2 === 0,
        evidence: i % 2 === 0 ? `The office has ${i + 3} floors.` : null,
      }),
    ).join("\n") + "\n",
  );
  return () => work.cleanup();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function openaiArgs(baseUrl: string, extra: string[] = []): string[] {
  return [
    "predict",
    slicePath,
    "--judge",
    "openai",
    "--base-url",
    baseUrl,
    "--model",
    "judge-1",
    "--api-key-env",
    "MARI_TEST_JUDGE_KEY",
    "--retry-base-ms",
    "1",
    "--retry-max-ms",
    "5",
    ...extra,
  ];
}

function expectedDump(runs: number): string {
  const lines: string[] = [];
  for (const id of CASE_IDS) {
    for (let run = 0; run < runs; run++) {
      const a = JSON.parse(honestAnswer(id));
      lines.push(JSON.stringify({ case_id: id, run, judgment: a.judgment, evidence_sentence_ids: a.evidence_sentence_ids, reasoning: a.reasoning }));
    }
  }
  return lines.join("\n") + "\n";
}

describe("mari predict --judge openai", () => {
  it("writes the dump to stdout in slice × run order", async () => {
    server = await startFakeChatServer();
    const r = await runMari(openaiArgs(server.baseUrl, ["--runs", "2", "--concurrency", "4"]), { env: KEY_ENV });
    expect(r.stderr).toContain("12 predictions");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedDump(2));
  });

  it("survives 500, 429, a hung response, malformed JSON and a wrong-case answer; never writes the key", async () => {
    server = await startFakeChatServer((info) => {
      const first = info.previousAttempts === 0;
      if (info.caseId === "doc-1" && first) return { status: 500, body: `{"error":"internal"}` };
      if (info.caseId === "doc-2" && first) return { status: 429, body: `{"error":"rate"}`, headers: { "retry-after": "0" } };
      if (info.caseId === "doc-3" && first) return "hang";
      if (info.caseId === "doc-4") return { content: '{"judgment": true, "evidence_sentence_ids": [2, ' };
      if (info.caseId === "doc-5") return { content: honestAnswer("doc-1") };
      return { content: honestAnswer(info.caseId) };
    });
    const dump = join(work.dir, "faults.jsonl");
    const cache = join(work.dir, "faults.cache.jsonl");
    const r = await runMari(openaiArgs(server.baseUrl, ["--timeout-ms", "1500", "--out", dump, "--cache", cache, "--concurrency", "3"]), { env: KEY_ENV });
    expect(r.code).toBe(0);
    // The 500, the 429 and the hang are each retried. On a loaded machine a healthy request may
    // also miss the 1.5 s timeout and be retried, even before the server has logged it, so the
    // count is checked against the retries the run reported one by one, not against a constant.
    expect(server.requests.filter((q) => ["doc-1", "doc-2", "doc-3"].includes(q.caseId)).length).toBeGreaterThanOrEqual(6);
    const retries = Number(/(\d+) retries, 2 malformed answers, 0 failed requests/.exec(r.stderr)?.[1]);
    expect(retries).toBeGreaterThanOrEqual(3);
    expect(r.stderr.match(/: retry \d+ for case /g)).toHaveLength(retries);
    expect(server.requests.length).toBeLessThanOrEqual(CASE_IDS.length + retries);
    expect(r.stderr).toContain("timed out after 1500 ms");
    const lines = readFileSync(dump, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.case_id)).toEqual(CASE_IDS);
    expect(lines[3]).toMatchObject({ judgment: null, error: { code: "answer_not_json" } });
    expect(lines[4]).toMatchObject({ judgment: null, error: { code: "answer_wrong_case" } });
    for (const i of [0, 1, 2, 5]) expect(lines[i].error).toBeUndefined();
    for (const text of [readFileSync(dump, "utf8"), readFileSync(cache, "utf8"), r.stdout, r.stderr]) {
      expect(text).not.toContain(API_KEY);
    }
    // The cache is itself a dump in the cache shape, one line per answer.
    const cached = readFileSync(cache, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(cached).toHaveLength(6);
    expect(Object.keys(cached[0]).sort()).toEqual(["case_id", "key", "prediction", "run"]);

    // mari eval scores the dump: the two malformed answers are format-invalid (bad_judgment), nothing else.
    const evalDir = join(work.dir, "faults-eval");
    const evaluated = await runMari(["eval", slicePath, "--predictions", dump, "--out", evalDir, "--quiet"]);
    expect(evaluated.code).toBe(0);
    const report = JSON.parse(readFileSync(join(evalDir, "report.json"), "utf8"));
    expect(report.metrics.format_valid_rate).toBeCloseTo(4 / 6, 12);
    // The judge's own failure codes, kept by eval: not folded into bad_judgment.
    expect(report.rejections).toEqual({ answer_not_json: 1, answer_wrong_case: 1 });
  });

  it("resumes after SIGKILL: the final dump equals an uninterrupted run's", async () => {
    // One server for all three runs (the base URL is part of the cache key), deciding per request:
    // healthy, except that the killed run's 6th request kills the client and is never answered.
    let child: ReturnType<typeof spawn> | undefined;
    let killAt = -1;
    server = await startFakeChatServer((info) => {
      if (info.index === killAt) {
        child!.kill("SIGKILL");
        return "hang";
      }
      return { content: honestAnswer(info.caseId) };
    });
    const s = server;
    const reference = await runMari(openaiArgs(s.baseUrl, ["--runs", "2"]), { env: KEY_ENV });
    expect(reference.code).toBe(0);

    const cache = join(work.dir, "resume.cache.jsonl");
    const dump = join(work.dir, "resume.jsonl");
    killAt = s.requests.length + 5;
    await new Promise<void>((resolve) => {
      child = endWithTest(
        spawn(process.execPath, [...MARI_COMMAND, ...openaiArgs(s.baseUrl, ["--runs", "2", "--concurrency", "1", "--cache", cache, "--out", dump])], {
          env: childEnv(KEY_ENV),
          stdio: "ignore",
        }),
      );
      child.on("exit", () => resolve());
    });
    expect(child!.signalCode).toBe("SIGKILL");
    expect(existsSync(dump)).toBe(false); // the dump only appears when complete
    // The kill came with the 6th request, so at most the 5 answers before it are cached (how many
    // reached the file by then is up to the machine; a torn last line is ignored on resume).
    const complete = readFileSync(cache, "utf8")
      .split("\n")
      .filter((line) => {
        try {
          return JSON.parse(line).key !== undefined;
        } catch {
          return false;
        }
      }).length;
    expect(complete).toBeLessThanOrEqual(5);

    const before = s.requests.length;
    const resumed = await runMari(openaiArgs(s.baseUrl, ["--runs", "2", "--cache", cache, "--out", dump]), { env: KEY_ENV });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${complete} from cache, ${12 - complete} requested`);
    expect(s.requests.length - before).toBe(12 - complete);
    expect(readFileSync(dump, "utf8")).toBe(reference.stdout);
    expect(readFileSync(cache, "utf8")).not.toContain(API_KEY);
  });

  it("exits 2 without the key's variable, without required flags, and on 401 (key redacted)", async () => {
    server = await startFakeChatServer((info) => ({ status: 401, body: `bad key: ${info.headers.authorization}` }));
    const noKey = await runMari(openaiArgs(server.baseUrl), { env: { MARI_TEST_JUDGE_KEY: "" } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("MARI_TEST_JUDGE_KEY");
    const noModel = await runMari(["predict", slicePath, "--judge", "openai", "--api-key-env", "MARI_TEST_JUDGE_KEY"], {
      env: { ...KEY_ENV, OPENAI_BASE_URL: "" },
    });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain("--base-url URL (or OPENAI_BASE_URL), --model M");
    const refused = await runMari(openaiArgs(server.baseUrl), { env: KEY_ENV });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("HTTP 401");
    expect(refused.stderr).not.toContain(API_KEY);
    expect(refused.stdout).toBe("");
    // The key itself pasted where its variable's name belongs: refused, and never echoed.
    const pasted = await runMari(["predict", slicePath, "--judge", "openai", "--base-url", server.baseUrl, "--model", "m", "--api-key-env", API_KEY]);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain("--api-key-env takes the NAME of an environment variable");
    expect(pasted.stderr + pasted.stdout).not.toContain(API_KEY);
    const badRuns = await runMari(openaiArgs(server.baseUrl, ["--runs", "0"]), { env: KEY_ENV });
    expect(badRuns.code).toBe(2);
  });

  it("exits 2 and writes no dump when no request succeeds", async () => {
    server = await startFakeChatServer(() => ({ status: 503, body: "down" }));
    const dump = join(work.dir, "dead.jsonl");
    const r = await runMari(openaiArgs(server.baseUrl, ["--max-retries", "1", "--out", dump]), { env: KEY_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no request succeeded (6 failed)");
    expect(r.stderr).toContain("HTTP 503");
    expect(existsSync(dump)).toBe(false);
    expect(server.requests).toHaveLength(12);
  });
});
