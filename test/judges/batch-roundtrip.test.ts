// Batch files end to end: `mari predict --batch-requests` for contradoc-160 × 3 runs, an output file
// built here from those requests (good, malformed, failed, truncated answers, one line missing),
// and the same answers served live by a real HTTP server on 127.0.0.1. `mari eval` must give the
// same report and the same cases.jsonl either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { startFakeChatServer, type FakeChatServer, type ScriptedReply } from "./support/fake-chat-server.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const RUNS = 3;
const MODEL = "judge-batch-1";

/** What the "model" does for request i (deterministic, varied). */
type Plan =
  | { kind: "answer"; content: string; finish: "stop" | "length" }
  | { kind: "http_error"; status: number }
  | { kind: "batch_error" } // batch: `error` set; live: a 500
  | { kind: "no_choices" }
  | { kind: "missing" };

interface RequestLine {
  custom_id: string;
  method: string;
  url: string;
  body: { messages: Array<{ role: string; content: string }>; seed: number; model: string };
}

function caseIdOf(request: RequestLine): string {
  const match = /^Case id: (".*")$/m.exec(request.body.messages[1]!.content);
  return JSON.parse(match![1]!);
}

function planFor(i: number, caseId: string, sentenceCount: number): Plan {
  if (i === 17) return { kind: "missing" };
  if (i === 23) return { kind: "answer", content: '{"case_id": "' + caseId + '", "judgment": tr', finish: "length" };
  if (i % 41 === 5) return { kind: "http_error", status: 500 };
  if (i === 88) return { kind: "batch_error" };
  if (i === 99) return { kind: "no_choices" };
  if (i % 29 === 3) return { kind: "answer", content: "I think the document is consistent.", finish: "stop" };
  if (i % 37 === 7) return { kind: "answer", content: JSON.stringify({ verdict: true }), finish: "stop" };
  const positive = i % 3 !== 0;
  const last = Math.max(1, sentenceCount);
  const answer = {
    case_id: caseId,
    judgment: positive,
    evidence_sentence_ids: positive ? [1, last] : [],
    reasoning: positive ? `[1] conflicts with [${last}].` : "No conflict.",
  };
  const text = JSON.stringify(answer);
  return { kind: "answer", content: i % 11 === 0 ? "```json\n" + text + "\n```" : text, finish: "stop" };
}

function completion(content: string | null, finish: string, i: number): Record<string, unknown> {
  return {
    id: `chatcmpl-${i}`,
    object: "chat.completion",
    created: 1700000000,
    model: MODEL,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }],
    usage: { prompt_tokens: 100 + i, completion_tokens: 10, total_tokens: 110 + i },
  };
}

let work: { dir: string; cleanup: () => void };
let server: FakeChatServer | undefined;
let requests: RequestLine[];
let plans: Plan[];

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runMari(args, { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env } });
}

/** An eval output file with the dump's path (it names the dump in `where` locations) written as <DUMP>. */
function readOutput(path: string, dumpPath: string): string {
  return readFileSync(path, "utf8").split(JSON.stringify(dumpPath).slice(1, -1)).join("<DUMP>");
}

/** report.json without what legitimately differs between two dumps of the same predictions. */
function comparable(reportPath: string, dumpPath: string): unknown {
  const report = JSON.parse(readOutput(reportPath, dumpPath));
  delete report.system;
  delete report.elapsed_seconds;
  delete report.predictions.path;
  delete report.predictions.sha256;
  // A failed request's detail differs by transport (a live run adds its retry count, a batch file
  // has the provider's error text); the code, the line and the counts must not.
  for (const example of report.rejection_examples) {
    if (["request_failed", "no_choices"].includes(example.reason)) {
      expect(example.message).toMatch(/^the judge failed: /);
      example.message = "the judge failed: …";
    }
  }
  return report;
}

beforeAll(async () => {
  work = tempDir("mari-batch-");
  const requestFile = join(work.dir, "requests.jsonl");
  // No key and no base URL anywhere: writing requests needs neither.
  const made = await run(["predict", SLICE, "--judge", "openai", "--model", MODEL, "--runs", String(RUNS), "--batch-requests", requestFile]);
  expect(made.code, made.stderr).toBe(0);
  requests = readFileSync(requestFile, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as RequestLine);
  plans = requests.map((r, i) => {
    const n = (r.body.messages[1]!.content.match(/^The document has (\d+) sentence/m) ?? [])[1];
    return planFor(i, caseIdOf(r), Number(n));
  });
});

afterAll(async () => {
  await server?.close();
  work.cleanup();
});

describe("batch request file", () => {
  it("has one POST line per (case, run), custom_id decoding to them, and a seed per run", () => {
    expect(requests).toHaveLength(160 * RUNS);
    const slice = readFileSync(SLICE, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l).id as string);
    requests.forEach((r, i) => {
      expect(r.method).toBe("POST");
      expect(r.url).toBe("/v1/chat/completions");
      expect(JSON.parse(r.custom_id)).toEqual([slice[Math.floor(i / RUNS)], i % RUNS]);
      expect(r.body.seed).toBe(i % RUNS);
      expect(r.body.model).toBe(MODEL);
      expect(caseIdOf(r)).toBe(slice[Math.floor(i / RUNS)]);
    });
    expect(new Set(requests.map((r) => r.custom_id)).size).toBe(requests.length);
  });
});

describe("batch output vs live judge", () => {
  it("gives the live judge's report and cases.jsonl, via eval directly and via --batch-results", async () => {
    // The output file, as the Batch API / vLLM run_batch would write it.
    const outputLines: string[] = [];
    requests.forEach((r, i) => {
      const plan = plans[i]!;
      const base = { id: `batch_req_${i}`, custom_id: r.custom_id };
      if (plan.kind === "missing") return;
      if (plan.kind === "answer") {
        outputLines.push(
          JSON.stringify({ ...base, response: { status_code: 200, request_id: `req-${i}`, body: completion(plan.content, plan.finish, i) }, error: null }),
        );
      } else if (plan.kind === "http_error") {
        outputLines.push(
          JSON.stringify({
            ...base,
            response: { status_code: plan.status, request_id: `req-${i}`, body: { error: { message: "server error" } } },
            error: null,
          }),
        );
      } else if (plan.kind === "batch_error") {
        outputLines.push(
          JSON.stringify({
            ...base,
            response: null,
            error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." },
          }),
        );
      } else {
        outputLines.push(
          JSON.stringify({
            ...base,
            response: { status_code: 200, request_id: `req-${i}`, body: { id: "x", object: "chat.completion", choices: [] } },
            error: null,
          }),
        );
      }
    });
    const output = join(work.dir, "output.jsonl");
    writeFileSync(output, outputLines.join("\n") + "\n");

    // The live judge against a server that recognises each request by its exact body.
    const byBody = new Map(requests.map((r, i) => [JSON.stringify(r.body), i]));
    const unknownBodies: string[] = [];
    server = await startFakeChatServer((info): ScriptedReply => {
      const i = byBody.get(JSON.stringify(info.body));
      if (i === undefined) {
        unknownBodies.push(JSON.stringify(info.body).slice(0, 200));
        return { status: 400, body: '{"error":"unexpected request body"}' };
      }
      const plan = plans[i]!;
      if (plan.kind === "answer") return { status: 200, body: JSON.stringify(completion(plan.content, plan.finish, i)) };
      if (plan.kind === "http_error") return { status: plan.status, body: '{"error":{"message":"server error"}}' };
      if (plan.kind === "batch_error") return { status: 500, body: '{"error":{"message":"expired"}}' };
      if (plan.kind === "no_choices") return { status: 200, body: '{"id":"x","object":"chat.completion","choices":[]}' };
      return { status: 200, body: JSON.stringify(completion('{"judgment": false}', "stop", i)) }; // the missing one
    });
    const liveDump = join(work.dir, "live.jsonl");
    const live = await run(
      [
        "predict",
        SLICE,
        "--judge",
        "openai",
        "--model",
        MODEL,
        "--runs",
        String(RUNS),
        "--max-retries",
        "0",
        "--concurrency",
        "8",
        "--quiet",
        "--out",
        liveDump,
      ],
      { OPENAI_API_KEY: "sk-roundtrip", OPENAI_BASE_URL: server.baseUrl },
    );
    expect(live.code, live.stderr).toBe(0);
    expect(unknownBodies).toEqual([]);
    expect(server.requests).toHaveLength(160 * RUNS);
    // The missing output line: the live dump without that (case, run) line.
    const missing = requests[17]!;
    const [missingCase, missingRun] = JSON.parse(missing.custom_id);
    const liveLines = readFileSync(liveDump, "utf8").trimEnd().split("\n");
    const kept = liveLines.filter((l) => {
      const p = JSON.parse(l);
      return !(p.case_id === missingCase && p.run === missingRun);
    });
    expect(kept).toHaveLength(liveLines.length - 1);
    writeFileSync(liveDump, kept.join("\n") + "\n");

    // Token usage: summed over the requests that answered, in the sidecar and the summary.
    const answered = plans.map((p, i) => ({ p, i })).filter(({ p }) => p.kind === "answer" || p.kind === "missing");
    const promptTokens = answered.reduce((sum, { i }) => sum + 100 + i, 0);
    expect(live.stderr).toContain(`tokens: ${promptTokens} prompt, ${answered.length * 10} completion`);
    const meta = JSON.parse(readFileSync(`${liveDump}.meta.json`, "utf8"));
    expect(meta).toMatchObject({
      source: "live",
      model: MODEL,
      runs: RUNS,
      cases: 160,
      prompt_sha256: null,
      usage: { prompt_tokens: promptTokens, completion_tokens: answered.length * 10 },
    });
    expect(readFileSync(`${liveDump}.meta.json`, "utf8")).not.toContain("sk-roundtrip");

    const evalLive = await run(["eval", SLICE, "--predictions", liveDump, "--out", join(work.dir, "eval-live"), "--quiet"]);
    const evalBatch = await run(["eval", SLICE, "--predictions", output, "--out", join(work.dir, "eval-batch"), "--quiet"]);
    expect(evalLive.code, evalLive.stderr).toBe(evalBatch.code);
    const liveReport = comparable(join(work.dir, "eval-live/report.json"), liveDump);
    expect(comparable(join(work.dir, "eval-batch/report.json"), output)).toEqual(liveReport);
    const liveCases = readOutput(join(work.dir, "eval-live/cases.jsonl"), liveDump);
    expect(readOutput(join(work.dir, "eval-batch/cases.jsonl"), output)).toBe(liveCases);

    // What the report says about the failures (the same for both, checked once).
    const report = liveReport as any;
    const failedOrBroken = plans.filter(
      (p) => p.kind !== "missing" && !(p.kind === "answer" && p.finish === "stop" && p.content.includes('"judgment"')),
    ).length;
    expect(report.invalid.missing_prediction ?? report.rejections.missing_prediction).toBe(1);
    // Each failed or broken answer is format-invalid under the judge's own code (or bad_judgment).
    const judgeCodes = [
      "bad_judgment",
      "request_failed",
      "answer_truncated",
      "no_choices",
      "answer_not_json",
      "answer_not_object",
      "answer_wrong_shape",
      "answer_wrong_case",
      "empty_answer",
    ];
    expect(judgeCodes.reduce((sum, code) => sum + (report.invalid?.[code] ?? report.rejections[code] ?? 0), 0)).toBe(failedOrBroken);
    expect(report.invalid?.answer_truncated ?? report.rejections.answer_truncated).toBe(1);
    // Each failure kind under its own code in the live dump (and, below, in the converted batch dump).
    const codesOf = (dump: string) =>
      readFileSync(dump, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).error?.code)
        .filter(Boolean)
        .sort();
    const liveCodes = codesOf(liveDump);
    for (const code of ["request_failed", "answer_truncated", "no_choices", "answer_not_json", "answer_wrong_shape"]) expect(liveCodes).toContain(code);

    // The same output file turned into an ordinary dump first.
    const converted = join(work.dir, "converted.jsonl");
    const conv = await run(["predict", SLICE, "--judge", "openai", "--runs", String(RUNS), "--batch-results", output, "--out", converted]);
    expect(conv.code, conv.stderr).toBe(0);
    expect(conv.stderr).toContain(`${160 * RUNS - 1} predictions`);
    expect(conv.stderr).toContain("1 missing");
    const convertedMeta = JSON.parse(readFileSync(`${converted}.meta.json`, "utf8"));
    expect(convertedMeta.usage.prompt_tokens).toBe(promptTokens - 100 - 17);
    // Without --model, the model the responses name.
    expect(convertedMeta.model).toBe(MODEL);
    expect(codesOf(converted)).toEqual(liveCodes);
    const evalConverted = await run(["eval", SLICE, "--predictions", converted, "--out", join(work.dir, "eval-converted"), "--quiet"]);
    expect(evalConverted.code).toBe(evalLive.code);
    expect(comparable(join(work.dir, "eval-converted/report.json"), converted)).toEqual(liveReport);
    expect(readOutput(join(work.dir, "eval-converted/cases.jsonl"), converted)).toBe(liveCases);
  });

  it("counts a custom_id that names no slice case as an orphan, never as a prediction", async () => {
    const output = join(work.dir, "orphans.jsonl");
    const answer = (customId: string) =>
      JSON.stringify({
        id: "b",
        custom_id: customId,
        response: { status_code: 200, request_id: "r", body: completion('{"judgment": false}', "stop", 0) },
        error: null,
      });
    writeFileSync(
      output,
      [
        answer(requests[0]!.custom_id),
        answer("request-1"),
        answer(JSON.stringify(["no-such-case", 0])),
        answer("3489738220_3") /* a slice case id, but not an encoded custom_id */,
      ].join("\n") + "\n",
    );
    const r = await run(["eval", SLICE, "--predictions", output, "--out", join(work.dir, "eval-orphans"), "--quiet"]);
    expect(existsSync(join(work.dir, "eval-orphans/report.json")), r.stderr).toBe(true);
    const report = JSON.parse(readFileSync(join(work.dir, "eval-orphans/report.json"), "utf8"));
    expect(report.predictions.lines).toBe(4);
    const orphanCount = typeof report.orphans === "number" ? report.orphans : report.orphans.count;
    expect(orphanCount).toBe(3);
  });
});
