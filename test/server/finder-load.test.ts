// The unlabelled document finder under a request built to make it slow: a slice of 2,000 short
// cases (each shorter than the finder's index key) and one /get_reward body of about 7.5 MB whose
// prompts hold a few-shot example document and thousands of stray `[1]`s before the real one. A
// finder whose cost is (occurrences of `[1]`) × (short cases) spends minutes on it; this one answers
// it, every query scored against the last document of its prompt, while /health keeps answering.
// The real CLI in a child process, with two scoring threads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { tempDir } from "../support/cli.js";
import { startServe, type ServeProcess } from "./support.js";
import { scaled } from "../support/time-limits.js";

const CASES = 2000;
const QUERIES = 1000;
const ANSWER = "<think>\nSee [1].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";

function post(url: string, body: string, sent: () => void): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/get_reward`,
      { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString()) }));
      },
    );
    req.on("error", reject);
    req.on("finish", sent);
    req.end(body);
  });
}

describe("2,000 short cases and an 8 MB unlabelled request", () => {
  let work: { dir: string; cleanup: () => void };
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    work = tempDir("mari-finder-load-");
    const slice = join(work.dir, "short.jsonl");
    writeFileSync(
      slice,
      Array.from({ length: CASES }, (_, k) => JSON.stringify({ id: `s${k}`, sentences: [`Fact ${k} holds.`], label: false })).join("\n") + "\n",
    );
    server = await startServe([slice, "--workers", "2"]);
  });

  afterAll(async () => {
    await server?.stop();
    work?.cleanup();
  });

  it("is answered, each query against the last document of its prompt, and /health answers meanwhile", { timeout: scaled(240_000) }, async () => {
    const stray = "[1] ".repeat(900);
    const prompts = Array.from(
      { length: QUERIES },
      (_, i) => `Example: [1] Fact ${(i + 1) % CASES}. holds.\n[1] Fact ${(i + 7) % CASES} holds.\nCite as ${stray}\nNow: [1] Fact ${i} holds.\n`,
    );
    const body = JSON.stringify({ query: prompts.map((p) => p + ANSWER), prompts, labels: prompts.map(() => "") });
    expect(body.length).toBeGreaterThan(7_000_000);
    let health: Promise<Response> | undefined;
    const answer = await post(server!.url, body, () => {
      // The body is sent: the server is reading or scoring it now.
      health = fetch(`${server!.url}/health`);
    });
    expect(answer.status).toBe(200);
    expect(answer.json.case_ids).toEqual(prompts.map((_, i) => `s${i}`));
    expect(answer.json.rewards.every((r: number) => r === answer.json.rewards[0])).toBe(true);
    const h = await health!;
    expect(h.status).toBe(200);
    expect((await h.json()).status).toBe("ok");
  });
});
