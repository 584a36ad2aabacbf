// The real `mari serve` CLI in a child process: refusals to start, the bearer token on a public
// interface, 50 parallel clients, and graceful shutdown (SIGTERM/SIGINT) with a request in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { readDocumentSlice } from "../../src/io/slice.js";
import { generateItems, type GeneratedItem } from "./items.js";
import { CONTRADOC_160, getJson, postJson, serveRefusal, startServe, type ServeProcess } from "./support.js";

const TOKEN = "serve-test-token-3f9a1c";

describe("refusals to start (exit 2, a message, no listening)", () => {
  it.each([
    [["--host", "0.0.0.0"], {}, /not a loopback interface.*--token-env/],
    [["--host", "0.0.0.0", "--token-env", "MARI_SERVE_UNSET_TOKEN"], {}, /MARI_SERVE_UNSET_TOKEN.*not set or is empty/],
    [["--token-env", "MARI_SERVE_EMPTY_TOKEN"], { MARI_SERVE_EMPTY_TOKEN: " " }, /not set or is empty/],
    [["--weights", "accuracy=1,speed=2"], {}, /--weights/],
    [["--max-body", "lots"], {}, /--max-body/],
    [["--log-predictions"], {}, /needs --log/],
    [["--log", "no/such/dir/served.jsonl"], {}, /cannot open --log file/],
  ] as const)("%j", async (args, env, message) => {
    const r = await serveRefusal([CONTRADOC_160, ...args], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("internal error");
  });

  it("a missing slice", async () => {
    const r = await serveRefusal(["no/such/slice.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no/such/slice.jsonl");
  });
});

describe("a public interface with --token-env", () => {
  let server: ServeProcess;
  let base: string;

  beforeAll(async () => {
    server = await startServe([CONTRADOC_160, "--host", "0.0.0.0", "--token-env", "MARI_SERVE_TOKEN"], { MARI_SERVE_TOKEN: TOKEN });
    base = server.url.replace("0.0.0.0", "127.0.0.1");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers only requests that carry the token, and never prints it", async () => {
    const body = '{"items":[]}';
    for (const authorization of [
      undefined,
      "Bearer",
      `Bearer ${TOKEN}x`,
      `Bearer x${TOKEN}`,
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN} ${TOKEN}`,
    ]) {
      const res = await fetch(`${base}/v1/rewards`, { method: "POST", body, headers: authorization ? { authorization } : {} });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    }
    expect((await fetch(`${base}/health`)).status).toBe(401);
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
      expect(await postJson(`${base}/v1/rewards`, body, { authorization })).toEqual({ status: 200, json: { results: [] } });
    }
    expect((await fetch(`${base}/health`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect(server.stderr()).toContain("token on");
    expect(server.stderr()).not.toContain(TOKEN);
  });
});

describe("concurrency and shutdown", () => {
  let server: ServeProcess;
  let items: GeneratedItem[];
  let expected: any[];

  beforeAll(async () => {
    const slice = await readDocumentSlice(CONTRADOC_160);
    // Only items that name a slice case: one that does not would make its request a 422.
    items = generateItems(slice.cases, 1400, 3)
      .filter((i) => i.lineLevel === null)
      .slice(0, 1000);
    expect(items).toHaveLength(1000);
    server = await startServe([CONTRADOC_160]);
    const all = await postJson(`${server.url}/v1/rewards`, `{"items":[${items.map((i) => i.text).join(",")}]}`);
    expected = all.json.results;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("50 parallel clients each get their own results, in their own order", async () => {
    const clients = Array.from({ length: 50 }, (_, c) => {
      // Client c sends 20 items, picked with a stride so that the batches interleave, reversed.
      const picked = Array.from({ length: 20 }, (_, k) => (c + 50 * k) % items.length).reverse();
      return { picked, body: `{"items":[${picked.map((i) => items[i]!.text).join(",")}]}` };
    });
    const answers = await Promise.all(clients.map((c) => postJson(`${server.url}/v1/rewards`, c.body, { "x-request-id": `client-${c.picked[0]}` })));
    answers.forEach((a, c) => {
      expect(a.status).toBe(200);
      expect(a.json.results).toEqual(clients[c]!.picked.map((i) => expected[i]));
    });
    const health = await getJson(`${server.url}/health`);
    expect(health.counters.requests["/v1/rewards"]).toBe(51);
    expect(health.counters.items).toBe(2000);
  });

  it("SIGTERM: stops accepting, finishes the request in flight, exits 0", async () => {
    const { port } = new URL(server.url);
    // An idle keep-alive connection, and a request whose headers are in (the server said 100 Continue)
    // but whose body is not yet sent.
    const idle = await openSocket(Number(port));
    // Listened for from the start: on a loaded machine the keep-alive timeout may close it first.
    const idleClosed = new Promise<void>((resolve) => idle.on("close", () => resolve()));
    idle.write("GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
    await readUntil(idle, '"counters"');
    const inFlight = await openSocket(Number(port));
    const body = `{"items":[${items
      .slice(0, 5)
      .map((i) => i.text)
      .join(",")}]}`;
    inFlight.write(
      `POST /v1/rewards HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\n\r\n`,
    );
    await readUntil(inFlight, "100 Continue\r\n\r\n");

    server.child.kill("SIGTERM");
    await server.waitFor("SIGTERM: stopping");
    await idleClosed;
    // The server stops listening before it prints "stopping", so this connection is refused.
    await expect(openSocket(Number(port))).rejects.toThrow(/ECONNREFUSED/);

    inFlight.write(body);
    const answer = await readUntil(inFlight, "]}");
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(answer.slice(answer.indexOf("{"))).results).toEqual(expected.slice(0, 5));
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain("stopped");
  });

  it("SIGINT: exits 0 too", async () => {
    const other = await startServe([CONTRADOC_160]);
    expect((await fetch(`${other.url}/health`)).status).toBe(200);
    expect(await other.stop("SIGINT")).toBe(0);
    expect(other.stderr()).toContain("SIGINT: stopping");
  });
});

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Reads from the socket until the text seen so far contains `marker`; resolves with all of it. */
function readUntil(socket: Socket, marker: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (d: Buffer): void => {
      text += d.toString("utf8");
      if (text.includes(marker)) {
        socket.off("data", onData);
        resolve(text);
      }
    };
    socket.on("data", onData);
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`socket closed before ${JSON.stringify(marker)}; got ${JSON.stringify(text)}`)));
  });
}
