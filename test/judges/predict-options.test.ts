// `mari predict` options for real use, through the built CLI against real HTTP servers on 127.0.0.1:
// --limit, --prompt, --max-tokens, OPENAI_* defaults, fail-fast on an unreachable URL, malformed
// counts on a cached rerun, Ctrl-C, and the --help endings.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { honestAnswer, startFakeChatServer, type FakeChatServer } from "./support/fake-chat-server.js";
import { endWithTest } from "../support/children.js";

const KEY = "sk-options-test-7777";
const CASE_IDS = ["c-1", "c-2", "c-3", "c-4", "c-5"];

let server: FakeChatServer | undefined;
let work: { dir: string; cleanup: () => void };
let slicePath: string;

beforeAll(() => {
  work = tempDir("mari-predict-opts-");
  slicePath = join(work.dir, "slice.jsonl");
  writeFileSync(
    slicePath,
    CASE_IDS.map((id, i) => JSON.stringify({ id, text: `First sentence ${i}. Second sentence ${i}.`, label: false, evidence: null })).join("\n") + "\n",
  );
  return () => work.cleanup();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Env with the OpenAI defaults pointing at `baseUrl` (and nothing inherited from the machine). */
function env(baseUrl: string): NodeJS.ProcessEnv {
  return { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: baseUrl };
}

function predict(extra: string[], environment: NodeJS.ProcessEnv) {
  return runMari(["predict", slicePath, "--judge", "openai", "--model", "m-1", "--retry-base-ms", "1", "--retry-max-ms", "2", ...extra], { env: environment });
}

describe("mari predict options", () => {
  it("uses OPENAI_BASE_URL / OPENAI_API_KEY by default; --limit judges the first N cases; --max-tokens is sent", async () => {
    server = await startFakeChatServer();
    const out = join(work.dir, "limit.jsonl");
    const r = await predict(["--limit", "2", "--max-tokens", "321", "--out", out, "--quiet"], env(server.baseUrl));
    expect(r.code, r.stderr).toBe(0);
    expect(
      readFileSync(out, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).case_id),
    ).toEqual(["c-1", "c-2"]);
    expect(server.requests.map((q) => q.caseId)).toEqual(["c-1", "c-2"]);
    for (const q of server.requests) {
      expect(q.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(q.body.max_completion_tokens).toBe(321);
      expect(q.body).not.toHaveProperty("max_tokens");
      expect(q.body.seed).toBe(0);
    }
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    expect(meta).toMatchObject({ source: "live", cases: 2, max_tokens: 321, max_tokens_field: "max_completion_tokens", base_url: server.baseUrl });
    expect(readFileSync(`${out}.meta.json`, "utf8")).not.toContain(KEY);
    // eval copies the sidecar into report.json.
    const evalDir = join(work.dir, "limit-eval");
    const evaluated = await runMari(["eval", slicePath, "--predictions", out, "--out", evalDir, "--quiet"]);
    expect(evaluated.code).toBe(0);
    expect(JSON.parse(readFileSync(join(evalDir, "report.json"), "utf8")).system.judge_run).toEqual(meta);
  });

  it("--prompt fills the template, records its hash, and never reuses answers cached under another prompt", async () => {
    server = await startFakeChatServer();
    const template = join(work.dir, "prompt.txt");
    writeFileSync(template, "Case {{case_id}} has {{sentence_count}} sentences:\n{{document}}\nAnswer in JSON.");
    const cache = join(work.dir, "prompt.cache.jsonl");
    const out = join(work.dir, "prompt.jsonl");
    const first = await predict(["--prompt", template, "--cache", cache, "--out", out, "--quiet"], env(server.baseUrl));
    expect(first.code, first.stderr).toBe(0);
    expect(server.requests[0]!.body.messages[1].content).toBe('Case "c-1" has 2 sentences:\n[1] First sentence 0. [2] Second sentence 0.\nAnswer in JSON.');
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    expect(meta.prompt_sha256).toMatch(/^[0-9a-f]{64}$/);
    // Same cache, built-in prompt: every case is asked again.
    const builtIn = await predict(["--cache", cache, "--out", out], env(server.baseUrl));
    expect(builtIn.stderr).toContain("0 from cache, 5 requested");
    // Changed template: misses again, and its hash differs.
    writeFileSync(template, "{{document}}\nIs it contradictory? JSON please.");
    const changed = await predict(["--prompt", template, "--cache", cache, "--out", out], env(server.baseUrl));
    expect(changed.stderr).toContain("0 from cache, 5 requested");
    expect(JSON.parse(readFileSync(`${out}.meta.json`, "utf8")).prompt_sha256).not.toBe(meta.prompt_sha256);
    // Unknown placeholders and a template without the document are refused.
    writeFileSync(template, "{{document}} {{sentences}}");
    const bad = await predict(["--prompt", template], env(server.baseUrl));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown placeholder {{sentences}}");
    writeFileSync(template, "No document here.");
    expect((await predict(["--prompt", template], env(server.baseUrl))).stderr).toContain("does not use {{document}}");
  });

  it("counts malformed answers served from the cache on a rerun", async () => {
    server = await startFakeChatServer((info) => ({ content: info.caseId === "c-2" || info.caseId === "c-4" ? "not json" : honestAnswer(info.caseId) }));
    const cache = join(work.dir, "malformed.cache.jsonl");
    const first = await predict(["--cache", cache, "--quiet"], env(server.baseUrl));
    expect(first.stderr).toContain("2 malformed answers");
    const rerun = await predict(["--cache", cache, "--quiet"], env(server.baseUrl));
    expect(rerun.stderr).toContain("5 from cache, 0 requested, 0 retries, 2 malformed answers, 0 failed requests (2 of the malformed answers from cache)");
  });

  it("stops at once with exit 2 naming the URL when the connection is refused", async () => {
    // Port 0 cannot be connected to: the kernel refuses it, deterministically.
    const url = "http://127.0.0.1:0/v1";
    const out = join(work.dir, "refused.jsonl");
    const r = await predict(["--max-retries", "6", "--retry-base-ms", "60000", "--retry-max-ms", "60000", "--out", out], env(url));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot reach http://127.0.0.1:0/v1/chat/completions: connection refused");
    expect(r.stderr).not.toContain("retry");
    expect(existsSync(out)).toBe(false);
  });

  it("stops at once on a TLS failure (https to a plain-HTTP server), before any request is read", async () => {
    server = await startFakeChatServer();
    const url = server.baseUrl.replace("http:", "https:");
    const r = await predict(["--max-retries", "6", "--retry-base-ms", "60000", "--retry-max-ms", "60000"], env(url));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach ${url}/chat/completions: TLS handshake failed`);
    expect(server.requests).toHaveLength(0);
  });

  it("keeps retrying a server that answered once and then drops connections (not an unreachable URL)", async () => {
    let requests = 0;
    const flaky = createHttpServer((req, res) => {
      requests++;
      let raw = "";
      req.on("data", (d) => (raw += d));
      req.on("end", () => {
        if (requests === 2) {
          req.socket.destroy(); // the second request: connection dropped mid-way
          return;
        }
        const caseId = /Case id: (".*?")/.exec(raw.replace(/\\"/g, '"'))?.[1] ?? '""';
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ choices: [{ message: { content: honestAnswer(JSON.parse(caseId)) }, finish_reason: "stop" }] }));
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/v1`;
    try {
      const r = await predict(["--concurrency", "1"], env(url));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("1 retries");
    } finally {
      flaky.closeAllConnections();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  // With `hangAt` also hanging (answers then arrive out of slice order), the message still counts
  // every answer received, not only the lines written in order.
  async function interrupted(
    name: string,
    concurrency: number,
    hangAt: number | null,
  ): Promise<{ code: number | null; stderr: string; dir: string; out: string; cache: string }> {
    const dir = join(work.dir, name);
    const out = join(dir, "dump.jsonl");
    const cache = join(work.dir, `${name}.cache.jsonl`);
    let child: ReturnType<typeof spawn> | undefined;
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => {
      startFakeChatServer((info) => {
        if (info.index === 2 + (hangAt === null ? 0 : 1)) {
          child!.kill("SIGINT");
          return "hang";
        }
        if (info.index === hangAt) return "hang";
        return { content: honestAnswer(info.caseId) };
      }).then((s) => {
        server = s;
        child = endWithTest(
          spawn(
            process.execPath,
            [
              ...MARI_COMMAND,
              "predict",
              slicePath,
              "--judge",
              "openai",
              "--model",
              "m-1",
              "--concurrency",
              String(concurrency),
              "--cache",
              cache,
              "--out",
              out,
            ],
            {
              env: { ...process.env, ...env(s.baseUrl) },
              stdio: ["ignore", "ignore", "pipe"],
            },
          ),
        );
        child.stderr!.setEncoding("utf8").on("data", (d) => (stderr += d));
        child.on("exit", (code) => resolve(code));
      });
    });
    return { code: await exited, stderr, dir, out, cache };
  }

  it("Ctrl-C: exit 130, no dump and no temp file, and says how to resume", async () => {
    const { code, stderr, dir, out, cache } = await interrupted("interrupt", 1, null);
    expect(code).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    expect(stderr).toContain(`interrupted after 2 of 5 answers; no dump written; the answers so far are in ${cache}; rerun the same command to resume`);
    // Only the slice was read to its end; the judging stopped, and nothing after says done.
    expect(stderr).toMatch(/^judge \(answers\): 2\/5 \(40%\) [\d.]+s stopped$/m);
    expect(stderr.split("\n").filter((line) => /\bdone\b/.test(line))).toEqual([expect.stringMatching(/^read slice \(records\): 5 [\d.]+s done$/)]);
  });

  it("Ctrl-C with answers out of order: counts every answer received", async () => {
    // Request 0 never answers, 1 and 2 do (cached, not yet writable in slice order), then Ctrl-C.
    const { code, stderr } = await interrupted("interrupt-unordered", 3, 0);
    expect(code).toBe(130);
    // Nothing could be written yet (request 0 is first in slice order); the previous count said 0.
    // Answers 1 and 2 came before the signal; 4 may also arrive while it is being delivered.
    expect(stderr).toMatch(/interrupted after [123] of 5 answers/);
  });

  it("lexical: --limit applies, request-only flags are refused", async () => {
    const limited = await runMari(["predict", slicePath, "--judge", "lexical", "--limit", "3"]);
    expect(limited.code).toBe(0);
    expect(
      limited.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).case_id),
    ).toEqual(["c-1", "c-2", "c-3"]);
    const refused = await runMari(["predict", slicePath, "--judge", "lexical", "--batch-requests", join(work.dir, "never.jsonl")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--batch-requests: only for --judge openai");
    expect(existsSync(join(work.dir, "never.jsonl"))).toBe(false);
  });

  it("--help of predict, eval and merge ends with examples and exit codes", async () => {
    for (const command of ["predict", "eval", "merge"]) {
      const r = await runMari([command, "--help"]);
      expect(r.code).toBe(0);
      const tail = r.stdout.slice(r.stdout.lastIndexOf("Example"));
      expect(tail).toMatch(/^Examples?:\n {2}mari /);
      expect(tail).toMatch(/Exit codes: 0 [\s\S]*; 2 usage or input error[\s\S]*3 internal error/);
    }
  });
});
