// The predict task functions of the library, called in process: the lexical judge, the batch
// request file and the batch output file turned into a dump, and a live run against a real HTTP
// server on 127.0.0.1. Each writes what `mari predict` writes, says nothing unless given an
// observer, and shows its phases in order through the observer it is given.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  convertBatchResults,
  predictFromBatchResults,
  predictLexical,
  predictOpenAI,
  writePredictBatchRequests,
  type Progress,
  type RunObserver,
} from "../../src/index.js";
import { readJsonl } from "../support/jsonl.js";
import { ROOT, tempDir } from "../support/cli.js";
import { completionBody, honestAnswer, startFakeChatServer } from "./support/fake-chat-server.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const tmp = tempDir("mari-predict-tasks-");
afterAll(() => tmp.cleanup());

/** An observer that writes down each phase with its total, ticks and how it ended, and every message. */
function recorder(): RunObserver & { phases: { label: string; total: number | undefined; ticks: number; ended?: "done" | "stopped" }[]; messages: string[] } {
  const phases: { label: string; total: number | undefined; ticks: number; ended?: "done" | "stopped" }[] = [];
  const messages: string[] = [];
  return {
    phases,
    messages,
    progress(label: string, total?: number): Progress {
      const phase: (typeof phases)[number] = { label, total, ticks: 0 };
      phases.push(phase);
      return {
        tick: (n = 1) => void (phase.ticks += n),
        done: (completed = true) => void (phase.ended ??= completed ? "done" : "stopped"),
      };
    },
    log: (message) => void messages.push(message),
    note: (message) => void messages.push(message),
  };
}

/** A batch output line answering request `custom_id` with `content`. */
function outputLine(customId: string, content: string): string {
  return JSON.stringify({ custom_id: customId, response: { status_code: 200, body: JSON.parse(completionBody(content)) }, error: null });
}

describe("predict task functions", () => {
  it("predictLexical writes the lexical judge's dump of the first N cases and counts the positives", async () => {
    const out = join(tmp.dir, "lexical.jsonl");
    const observer = recorder();
    const outcome = await predictLexical({ slicePath: SLICE, limit: 12, out, observer });
    const lines = readJsonl(out);
    expect(lines).toHaveLength(12);
    expect(outcome).toEqual({ cases: 12, positives: lines.filter((l) => l["judgment"] === true).length });
    expect(observer.phases.map((p) => [p.label, p.ticks, p.ended])).toEqual([
      ["read slice (records)", 160, "done"],
      ["judge (cases)", 12, "done"],
      ["write dump (predictions)", 12, "done"],
    ]);
  });

  it("batch requests, then the output file answering them, become a dump with its meta", async () => {
    const requestsPath = join(tmp.dir, "requests.jsonl");
    const written = await writePredictBatchRequests({
      slicePath: SLICE,
      limit: 4,
      requestsPath,
      request: { model: "m-batch", runs: 2, jsonMode: true },
    });
    const requests = readJsonl(requestsPath) as { custom_id: string; body: { messages: { content: string }[] } }[];
    expect(written).toMatchObject({ cases: 4, lines: 8 });
    expect(requests).toHaveLength(8);
    // Every request answered but the last; one request answered twice (the first answer is kept).
    const caseIds = requests.map((r) => JSON.parse(/^Case id: (".*")$/m.exec(r.body.messages[1]!.content)![1]!) as string);
    const output = requests.slice(0, 7).map((r, i) => outputLine(r.custom_id, honestAnswer(caseIds[i]!)));
    output.push(outputLine(requests[0]!.custom_id, honestAnswer(caseIds[0]!)));
    const resultsPath = join(tmp.dir, "output.jsonl");
    writeFileSync(resultsPath, `${output.join("\n")}\n`);
    const out = join(tmp.dir, "batch.jsonl");
    const observer = recorder();
    const { cases, summary } = await predictFromBatchResults({ slicePath: SLICE, limit: 4, resultsPath, runs: 2, out, model: "m-batch", observer });
    expect(cases).toBe(4);
    expect(summary).toMatchObject({ predictions: 7, missing: 1, duplicates: 1, orphans: 0, failed: 0, malformed: 0 });
    expect(readJsonl(out).map((l) => [l["case_id"], l["run"]])).toEqual([0, 1, 2, 3].flatMap((c) => [0, 1].map((run) => [caseIds[2 * c], run])).slice(0, 7));
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    expect(meta).toMatchObject({ source: "batch", model: "m-batch", runs: 2, cases: 4, batch: { predictions: 7, missing: 1, duplicates: 1 } });
    expect(observer.phases.map((p) => [p.label, p.ticks, p.ended])).toEqual([
      ["read slice (records)", 160, "done"],
      ["read batch results (lines)", 8, "done"],
      ["write dump (predictions)", 8, "done"],
    ]);
  });

  it("convertBatchResults refuses a run past --runs, naming the line, and writes nothing", async () => {
    const resultsPath = join(tmp.dir, "runs-past.jsonl");
    writeFileSync(resultsPath, `${outputLine(JSON.stringify(["c-1", 3]), honestAnswer("c-1"))}\n`);
    const out = join(tmp.dir, "never.jsonl");
    const cases = [{ id: "c-1", sentences: ["One.", "Two."] }];
    await expect(convertBatchResults(resultsPath, cases, 1, out)).rejects.toThrow(`${resultsPath}:1: 1 output lines name runs up to 3`);
    expect(existsSync(out)).toBe(false);
  });

  it("predictOpenAI judges every case × run against a real server and writes the dump and meta", async () => {
    const server = await startFakeChatServer();
    try {
      const out = join(tmp.dir, "live.jsonl");
      const observer = recorder();
      const { cases, summary } = await predictOpenAI({
        slicePath: SLICE,
        limit: 3,
        out,
        observer,
        judge: {
          baseUrl: server.baseUrl,
          apiKey: "k",
          model: "m-live",
          runs: 2,
          concurrency: 2,
          timeoutMs: 10_000,
          maxRetries: 0,
          backoff: { baseMs: 0, maxMs: 0, seed: 0 },
        },
      });
      expect(cases).toBe(3);
      expect(summary).toMatchObject({ predictions: 6, requested: 6, failed: 0, malformed: 0 });
      expect(readJsonl(out)).toHaveLength(6);
      expect(JSON.parse(readFileSync(`${out}.meta.json`, "utf8"))).toMatchObject({ source: "live", model: "m-live", runs: 2, cases: 3 });
      expect(observer.phases.map((p) => [p.label, p.total, p.ticks, p.ended])).toEqual([
        ["read slice (records)", undefined, 160, "done"],
        ["judge (answers)", 6, 6, "done"],
      ]);
      expect(observer.messages).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("predictOpenAI: a server that answers nothing is an input error, no dump, the phase ends done and no more", async () => {
    const server = await startFakeChatServer(() => ({ status: 500, body: '{"error":{"message":"down"}}' }));
    try {
      const out = join(tmp.dir, "dead.jsonl");
      const observer = recorder();
      await expect(
        predictOpenAI({
          slicePath: SLICE,
          limit: 2,
          out,
          observer,
          judge: {
            baseUrl: server.baseUrl,
            apiKey: "k",
            model: "m",
            runs: 1,
            concurrency: 1,
            timeoutMs: 10_000,
            maxRetries: 0,
            backoff: { baseMs: 0, maxMs: 0, seed: 0 },
          },
        }),
      ).rejects.toThrow(/no request succeeded \(2 failed\)/);
      expect(existsSync(out)).toBe(false);
      // Each failed request is a note (a diagnostic --quiet silences).
      expect(observer.messages).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
