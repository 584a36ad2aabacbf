// mari serve against what is not a trainer: a --log that is its own slice or a FIFO, a web page
// (another Host, an Origin, text/plain), a log a killed server left torn, and a restart appending to
// its own log. Real servers on 127.0.0.1; the CLI as a child process where start-up is at stake.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { CONTRADOC_160, postJson, serveRefusal, startServe, startTestServer } from "./support.js";
import { SYNC_CHILD } from "../support/children.js";

const ANSWER = "<think>\nSee [1].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";

let slice: DocumentSlice;
let caseId: string;
beforeAll(async () => {
  slice = await readDocumentSlice(CONTRADOC_160);
  caseId = slice.cases[0]!.id;
});

describe("--log", () => {
  it("may not be the slice (nor a link to it), nor a FIFO: refused before listening, the slice untouched", async () => {
    const work = tempDir("mari-serve-log-");
    try {
      const copy = join(work.dir, "slice.jsonl");
      writeFileSync(copy, readFileSync(join(ROOT, CONTRADOC_160)));
      const link = join(work.dir, "link.jsonl");
      symlinkSync(copy, link);
      for (const log of [copy, link]) {
        const { code, stderr } = await serveRefusal([copy, "--log", log]);
        expect(code).toBe(2);
        expect(stderr).toMatch(/is also an input of this run/);
      }
      expect(readFileSync(copy)).toEqual(readFileSync(join(ROOT, CONTRADOC_160)));
      const fifo = join(work.dir, "fifo");
      execFileSync("mkfifo", [fifo], SYNC_CHILD);
      const refused = await serveRefusal([copy, "--log", fifo]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/is a FIFO/);
    } finally {
      work.cleanup();
    }
  });

  it("a torn last line is left on its own line; a restart does not hand out the run keys already in the log", async () => {
    const work = tempDir("mari-serve-restart-");
    try {
      const log = join(work.dir, "served.jsonl");
      const first = await startServe([CONTRADOC_160, "--log", log, "--log-predictions"]);
      const item = { case_id: caseId, completion: ANSWER };
      expect((await postJson(`${first.url}/v1/rewards`, JSON.stringify({ items: [item, item] }))).status).toBe(200);
      expect(await first.stop("SIGKILL")).toBe(null);
      appendFileSync(log, '{"request":"torn","item":0,"case_id":');
      const second = await startServe([CONTRADOC_160, "--log", log, "--log-predictions"]);
      expect((await postJson(`${second.url}/v1/rewards`, JSON.stringify({ items: [item] }))).status).toBe(200);
      expect(await second.stop()).toBe(0);
      const lines = readFileSync(log, "utf8").split("\n");
      expect(lines).toHaveLength(5);
      expect(lines[2]).toBe('{"request":"torn","item":0,"case_id":');
      expect([0, 1, 3].map((i) => JSON.parse(lines[i]!).run)).toEqual(["0", "1", "2"]);
      const out = join(work.dir, "replay");
      const r = await runMari(["eval", CONTRADOC_160, "--predictions", log, "--out", out, "--report", "json", "--quiet"]);
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      // The torn line is counted where it is; the three served items are three runs, no duplicate.
      expect(report.rejections.malformed_json).toBe(1);
      expect(report.rejections.duplicate_prediction).toBeUndefined();
      expect(Object.keys(report.runs).sort()).toEqual(["0", "1", "2"]);
    } finally {
      work.cleanup();
    }
  });
});

describe("without a token, only this machine's programs are answered", () => {
  let server: RewardsServer;
  beforeAll(async () => {
    server = await startTestServer(slice);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A POST with the given headers exactly (node's fetch would set its own Host). */
  function post(
    headers: Record<string, string>,
    body = JSON.stringify({ items: [{ case_id: caseId, judgment: false }] }),
  ): Promise<{ status: number; json: any }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${server.url}/v1/rewards`,
        { method: "POST", headers: { "content-length": Buffer.byteLength(body), ...headers }, setHost: false },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  it.each([
    ["127.0.0.1 with its port", { host: "127.0.0.1:8000" }, 200],
    ["localhost", { host: "localhost" }, 200],
    ["[::1]", { host: "[::1]:8000" }, 200],
    ["a loopback Origin", { host: "127.0.0.1", origin: "http://localhost:3000" }, 200],
    ["a DNS-rebound name", { host: "attacker.example:8000" }, 403],
    ["a name that only starts like loopback", { host: "127.0.0.1.example.com" }, 403],
    ["a web page's Origin", { host: "127.0.0.1:8000", origin: "https://attacker.example" }, 403],
    ["the opaque Origin null", { host: "127.0.0.1:8000", origin: "null" }, 403],
  ])("Host/Origin: %s → %s", async (_name, headers, status) => {
    const answer = await post({ "content-type": "application/json", ...headers });
    expect(answer.status).toBe(status);
    if (status === 403) expect(answer.json.error.code).toBe("forbidden");
  });

  it.each([
    ["text/plain (what a page may send unasked)", "text/plain", 415],
    ["form data", "application/x-www-form-urlencoded", 415],
    ["none", undefined, 415],
    ["JSON with a charset", "application/json; charset=utf-8", 200],
  ])("Content-Type %s → %s", async (_name, type, status) => {
    const answer = await post({ host: "127.0.0.1", ...(type ? { "content-type": type } : {}) });
    expect(answer.status).toBe(status);
  });
});

describe("limits a trainer may hit", () => {
  const hasRequests = spawnSync("python3", ["-c", "import requests"], SYNC_CHILD).status === 0;

  it.skipIf(!hasRequests)("a body over --max-body reaches Python's requests as the 413, not a broken pipe (skipped without python3 + requests)", async () => {
    const server = await startServe([CONTRADOC_160, "--max-body", "64kb"]);
    try {
      const script = `import json, requests, sys
body = json.dumps({"items": [{"case_id": "x", "completion": "a" * 1000}] * 16000}).encode()
for declared in (True, False):
    data = body if declared else iter([body[i:i + 65536] for i in range(0, len(body), 65536)])
    r = requests.post(sys.argv[1] + "/v1/rewards", data=data, headers={"Content-Type": "application/json"}, timeout=60)
    print(r.status_code, r.json()["error"]["code"])
`;
      const run = spawnSync("python3", ["-c", script, server.url], { ...SYNC_CHILD, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("413 body_too_large\n413 body_too_large\n");
      // A request with more items than --max-items is refused before its float tokens are marked.
      const floats = `{"items":[${Array.from({ length: 200_000 }, () => "1.0").join(",")}]}`;
      const big = await startServe([CONTRADOC_160, "--max-items", "100"]);
      try {
        const answer = await postJson(`${big.url}/v1/rewards`, floats);
        expect(answer.status).toBe(413);
        expect(answer.json.error.code).toBe("too_many_items");
      } finally {
        await big.stop();
      }
    } finally {
      await server.stop();
    }
  });

  it("a token with white space is refused at start (it could never match a Bearer header)", async () => {
    const { code, stderr } = await serveRefusal([CONTRADOC_160, "--token-env", "MARI_SPACED_TOKEN"], { MARI_SPACED_TOKEN: "two words" });
    expect(code).toBe(2);
    expect(stderr).toMatch(/contains white space/);
    expect(stderr).not.toContain("two words");
  });
});

describe("mari eval reads a raw completion's end by the same rule", () => {
  it("end markers and trailing whitespace are removed; --keep-special-tokens and --special-token change that, recorded in report.json", async () => {
    const work = tempDir("mari-eval-end-");
    try {
      const dump = join(work.dir, "dump.jsonl");
      const ends = ["", "<|im_end|>", "<|eot_id|>\n", "\n", "<|my_end|>"];
      writeFileSync(dump, ends.map((end, run) => JSON.stringify({ case_id: caseId, run, completion: ANSWER + end })).join("\n") + "\n");
      const reasons = async (...flags: string[]): Promise<{ reasons: (string | null)[]; config: any }> => {
        const out = join(work.dir, `out${flags.join("")}`);
        const rewards = join(out, "rewards.jsonl");
        const r = await runMari(["eval", CONTRADOC_160, "--predictions", dump, "--out", out, "--rewards", rewards, "--report", "json", "--quiet", ...flags]);
        expect(r.stderr).not.toMatch(/internal error/);
        const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
        return {
          reasons: readFileSync(rewards, "utf8")
            .trimEnd()
            .split("\n")
            .map((l) => JSON.parse(l).reason),
          config: report.system.config,
        };
      };
      const plain = await reasons();
      expect(plain.reasons).toEqual([null, null, null, null, "bad_completion_format"]);
      expect(plain.config).not.toHaveProperty("keep_special_tokens");
      expect(plain.config).not.toHaveProperty("special_tokens");
      const extra = await reasons("--special-token", "<|my_end|>");
      expect(extra.reasons).toEqual([null, null, null, null, null]);
      expect(extra.config.special_tokens).toEqual(["<|my_end|>"]);
      const kept = await reasons("--keep-special-tokens");
      expect(kept.reasons).toEqual([null, "bad_completion_format", "bad_completion_format", "bad_completion_format", "bad_completion_format"]);
      expect(kept.config.keep_special_tokens).toBe(true);
      const both = await runMari([
        "eval",
        CONTRADOC_160,
        "--predictions",
        dump,
        "--out",
        join(work.dir, "x"),
        "--keep-special-tokens",
        "--special-token",
        "<a>",
      ]);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/contradict each other/);
    } finally {
      work.cleanup();
    }
  });
});
