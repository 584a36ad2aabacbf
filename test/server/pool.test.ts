// Scoring threads: a server with a pool of workers gives exactly the answers and the --log bytes of
// the server that scores on its own thread, for requests scored concurrently — pipelined on one
// connection (the arrival order is fixed, the finishing order is not) and sent by several clients
// at once (replayed on one thread in the order the pooled log shows).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { tagSentences } from "../../src/core/document/sentences.js";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { tempDir } from "../support/cli.js";
import { generateItems } from "./items.js";
import { CONTRADOC_160, serveRefusal, startTestServer } from "./support.js";

interface TestRequest {
  id: string;
  path: "/v1/rewards" | "/get_reward";
  body: string;
}

interface Answer {
  status: number;
  id: string;
  body: string;
}

const J = JSON.stringify;

/**
 * A fixed mix of requests over a few cases (so that run keys collide across requests): dump-shaped
 * items with their own runs, completions without a run or with a sample (numbered by the log),
 * /get_reward queries found by label or by the document in the prompt, and refusals (422, 400).
 */
function requestMix(slice: DocumentSlice, prefix: string): TestRequest[] {
  const cases = slice.cases.slice(0, 6);
  const generated = generateItems(cases, 1200, 11);
  const scored = generated.filter((g) => g.lineLevel === null).map((g) => g.text);
  const completions = generated.filter((g) => g.completion !== undefined).map((g) => g.completion!);
  const unresolved = generated.find((g) => g.lineLevel === "unknown_case_id")!.text;
  const prompt = (caseId: string): string => `Document:\n${tagSentences(slice.cases[slice.byId.get(caseId)!]!.sentences)}\nAnswer:\n`;
  const requests: TestRequest[] = [];
  const add = (path: TestRequest["path"], body: string): void => {
    requests.push({ id: `${prefix}-${requests.length}`, path, body });
  };
  // A large request first: later, smaller ones finish before it on other threads.
  add("/v1/rewards", `{"items":[${scored.slice(0, 400).join(",")}]}`);
  for (let k = 0; k < 24; k++) {
    const at = (k * 37) % 300;
    const some = completions.slice(at, at + 5 + (k % 7) * 3);
    switch (k % 6) {
      case 0:
        add("/v1/rewards", `{"items":[${scored.slice(at, at + 3 + k).join(",")}]}`);
        break;
      case 1:
        add(
          "/v1/rewards",
          `{"items":[${some.map((c, i) => `{"case_id":${J(c.caseId)},${i % 3 === 0 ? `"sample":${i % 4},` : ""}"completion":${J(c.text)}}`).join(",")}]}`,
        );
        break;
      case 2:
        add(
          "/get_reward",
          J({
            query: some.map((c) => prompt(c.caseId) + c.text),
            prompts: some.map((c) => prompt(c.caseId)),
            labels: some.map((c, i) => (i % 2 === 0 ? "" : c.caseId)),
          }),
        );
        break;
      case 3:
        add("/v1/rewards", `{"items":[${scored[at]},${unresolved}]}`);
        break;
      case 4:
        add(
          "/v1/rewards",
          k % 4 === 0 ? `{"items":[${scored[at]}` : `{"items":[${some.map((c) => `{"prompt":${J(prompt(c.caseId))},"completion":${J(c.text)}}`).join(",")}]}`,
        );
        break;
      default:
        add("/get_reward", J({ query: ["a"], prompts: [] }));
    }
  }
  return requests;
}

function requestBytes(port: number, r: TestRequest, last: boolean): string {
  const head = [
    `POST ${r.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(r.body)}`,
    `X-Request-Id: ${r.id}`,
    ...(last ? ["Connection: close"] : []),
  ];
  return `${head.join("\r\n")}\r\n\r\n${r.body}`;
}

/** The answers of HTTP/1.1 responses read back to back from one connection. */
function parseResponses(data: Buffer): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf("\r\n\r\n", at);
    const head = data.subarray(at, end).toString("latin1");
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
    answers.push({
      status: Number(head.split(" ", 2)[1]),
      id: /\r\nx-request-id: (\S+)/i.exec(head)![1]!,
      body: data.subarray(end + 4, end + 4 + length).toString("utf8"),
    });
    at = end + 4 + length;
  }
  return answers;
}

/** Sends every request on one connection without waiting for an answer (HTTP/1.1 pipelining). */
function pipelined(server: RewardsServer, requests: readonly TestRequest[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    // The last request asks the server to close the connection once it has answered it.
    socket.on("end", () => resolve(parseResponses(Buffer.concat(chunks))));
    socket.write(requests.map((r, i) => requestBytes(server.port, r, i === requests.length - 1)).join(""));
  });
}

async function post(server: RewardsServer, r: TestRequest): Promise<Answer> {
  const res = await fetch(server.url + r.path, { method: "POST", body: r.body, headers: { "content-type": "application/json", "x-request-id": r.id } });
  return { status: res.status, id: r.id, body: await res.text() };
}

/** The request ids in the order their first line appears in a --log. */
function loggedOrder(logPath: string): string[] {
  const ids: string[] = [];
  for (const line of readFileSync(logPath, "utf8").split("\n")) {
    if (line === "") continue;
    const id = (JSON.parse(line) as { request: string }).request;
    if (ids[ids.length - 1] !== id) ids.push(id);
  }
  return ids;
}

describe("a pool of scoring threads answers and logs as one thread does", () => {
  let slice: DocumentSlice;
  let work: { dir: string; cleanup: () => void };
  const servers: RewardsServer[] = [];

  const start = async (workers: number, name: string): Promise<{ server: RewardsServer; log: string }> => {
    const log = join(work.dir, `${name}.jsonl`);
    const server = await startTestServer(slice, { workers, logPath: log, logPredictions: true, maxItems: 1000 });
    servers.push(server);
    return { server, log };
  };

  beforeAll(async () => {
    slice = await readDocumentSlice(CONTRADOC_160);
    work = tempDir("mari-serve-pool-");
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    work.cleanup();
  });

  it("gives the same answers and log bytes for requests pipelined on one connection", async () => {
    const requests = requestMix(slice, "p");
    const one = await start(1, "pipelined-1");
    const pool = await start(3, "pipelined-3");
    const expected = await pipelined(one.server, requests);
    const answers = await pipelined(pool.server, requests);
    expect(expected.map((a) => a.id)).toEqual(requests.map((r) => r.id));
    expect(new Set(expected.map((a) => a.status))).toEqual(new Set([200, 400, 422]));
    expect(answers).toEqual(expected);
    const logged = readFileSync(one.log, "utf8");
    expect(logged.split("\n").length).toBeGreaterThan(500);
    expect(readFileSync(pool.log, "utf8")).toBe(logged);
  });

  it("logs several clients' concurrent requests as one thread logs them in the same arrival order", async () => {
    const requests = requestMix(slice, "c");
    const pool = await start(2, "clients-2");
    const clients = 5;
    const answers = new Map<string, Answer>();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let k = c; k < requests.length; k += clients) {
          const answer = await post(pool.server, requests[k]!);
          answers.set(answer.id, answer);
        }
      }),
    );
    // One thread, sent the logged requests one at a time in the order the pooled log holds them (refused requests log nothing).
    const one = await start(1, "clients-1");
    const byId = new Map(requests.map((r) => [r.id, r]));
    const order = loggedOrder(pool.log);
    expect(order.length).toBeGreaterThan(10);
    const replayed = order.concat(requests.map((r) => r.id).filter((id) => !order.includes(id)));
    for (const id of replayed) expect(await post(one.server, byId.get(id)!)).toEqual(answers.get(id));
    expect(readFileSync(pool.log, "utf8")).toBe(readFileSync(one.log, "utf8"));
  });
});

describe("hostile bodies on scoring threads", () => {
  it("are refused by a pool exactly as on one thread, and the pool keeps serving", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const id = J(slice.cases[0]!.id);
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const bodies: Array<[TestRequest["path"], string | Blob]> = [
      ["/v1/rewards", `{"items":[${deep},{"case_id":${id},"run":${deep}},{"case_id":${id},"judgment":true,"evidence_sentence_ids":[${deep}]}]}`],
      ["/v1/rewards", `{"items":[{"case_id":${id},"judgment":false,"extra":${deep}}]}`],
      ["/v1/rewards", new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])])],
      ["/v1/rewards", ""],
      ["/v1/rewards", "[1]"],
      ["/v1/rewards", `{"items":[${"1,".repeat(200)}1]}`],
      ["/get_reward", `{"query":[${deep}],"prompts":["a"]}`],
      ["/v1/rewards", `{"items":[{"case_id":${id},"judgment":"no"}]}`],
    ];
    const answersOf = async (workers: number): Promise<Array<{ status: number; body: string }>> => {
      const server = await startTestServer(slice, { workers, maxBodyBytes: 8 << 20 });
      try {
        const answers = [];
        for (const [path, body] of bodies) {
          const res = await fetch(server.url + path, { method: "POST", body, headers: { "content-type": "application/json" } });
          answers.push({ status: res.status, body: await res.text() });
        }
        return answers;
      } finally {
        await server.close();
      }
    };
    const expected = await answersOf(1);
    expect(expected.map((a) => a.status)).toEqual([422, 200, 400, 400, 400, 413, 422, 200]);
    expect(await answersOf(2)).toEqual(expected);
  });

  it("a log that cannot be written refuses requests (503) on a pool as on one thread", async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    const body = `{"items":[{"case_id":${J(slice.cases[0]!.id)},"judgment":"no"}]}`;
    for (const workers of [1, 2]) {
      const server = await startTestServer(slice, { workers, logPath: "/dev/full" });
      try {
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${server.url}/v1/rewards`, { method: "POST", body, headers: { "content-type": "application/json" } });
          expect(res.status).toBe(503);
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe("log_unwritable");
        }
        expect(server.logError()).toMatch(/cannot write --log \/dev\/full/);
      } finally {
        await server.close();
      }
    }
  });
});

describe("mari serve --workers", () => {
  it.each([["0"], ["many"], ["1.5"]])("refuses --workers %s (exit 2)", async (value) => {
    const r = await serveRefusal([CONTRADOC_160, "--workers", value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--workers/);
    expect(r.stderr).not.toContain("internal error");
  });
});
