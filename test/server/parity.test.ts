// Parity: `mari serve` answers with exactly the values `mari eval --rewards` writes for the same
// predictions, over the contradoc-160 slice and 2,000 generated items of every shape (both CLIs
// run for real). Also /get_reward's weighted sum and extra_logs, and the --log file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readDocumentSlice } from "../../src/io/slice.js";
import { runMari, tempDir } from "../support/cli.js";
import { generateItems, type GeneratedItem } from "./items.js";
import { CONTRADOC_160, postJson, startServe, type ServeProcess } from "./support.js";

const REWARD_FIELDS = ["accuracy", "reference_coverage", "format", "matched_evidence_count", "gold_evidence_count", "format_valid", "reason"] as const;
const WEIGHTS = { accuracy: 1, format: 0.5, coverage: 2 };

function readJsonl(path: string): any[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

function rewardsOf(line: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(REWARD_FIELDS.map((f) => [f, line[f]]));
}

/** Runs the real `mari eval --rewards` on a dump; its reward lines keyed by dump line, and report.json. */
async function evalRewards(dir: string, name: string, dumpPath: string): Promise<{ byLine: Map<number, any>; report: any }> {
  const out = join(dir, `${name}-report`);
  const rewardsPath = join(dir, `${name}-rewards.jsonl`);
  const r = await runMari([
    "eval",
    CONTRADOC_160,
    "--predictions",
    dumpPath,
    "--rewards",
    rewardsPath,
    "--out",
    out,
    "--report",
    "json",
    "--quiet",
    "--workers",
    "1",
    "--bootstrap",
    "10",
  ]);
  expect(r.stderr).not.toContain("internal error");
  expect(r.code).toBe(0);
  return {
    byLine: new Map(readJsonl(rewardsPath).map((line) => [line.line as number, line])),
    report: JSON.parse(readFileSync(join(out, "report.json"), "utf8")),
  };
}

describe("mari serve = mari eval --rewards", () => {
  let work: { dir: string; cleanup: () => void };
  let items: GeneratedItem[];
  let server: ServeProcess;
  let logPath: string;
  const results: any[] = [];

  beforeAll(async () => {
    work = tempDir("mari-serve-parity-");
    const slice = await readDocumentSlice(CONTRADOC_160);
    items = generateItems(slice.cases, 2000, 7);
    logPath = join(work.dir, "served.jsonl");
    server = await startServe([CONTRADOC_160, "--log", logPath, "--log-predictions", "--weights", "accuracy=1,format=0.5,coverage=2"]);
    for (let start = 0; start < items.length; start += 500) {
      const batch = items.slice(start, start + 500);
      const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[${batch.map((i) => i.text).join(",")}]}`);
      expect(status).toBe(200);
      results.push(...json.results);
    }
  });

  afterAll(async () => {
    await server?.stop();
    work?.cleanup();
  });

  it("gives every item the rewards eval writes for the same dump line, in item order", async () => {
    const dumpPath = join(work.dir, "dump.jsonl");
    writeFileSync(dumpPath, items.map((i) => i.text).join("\n") + "\n");
    const { byLine, report } = await evalRewards(work.dir, "dump", dumpPath);
    expect(results).toHaveLength(items.length);
    const served: Record<string, number> = {};
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const result = results[i];
      expect(Object.keys(result).sort()).toEqual([...REWARD_FIELDS].sort());
      if (item.lineLevel === null) {
        expect(result, `item ${i}: ${item.text}`).toEqual(rewardsOf(byLine.get(i + 1)));
      } else {
        expect(byLine.has(i + 1)).toBe(false);
        expect(result.reason, item.text).toBe(item.lineLevel);
        expect(result.format_valid).toBe(false);
      }
      if (result.reason !== null) served[result.reason] = (served[result.reason] ?? 0) + 1;
    }
    expect(byLine.size).toBe(items.filter((i) => i.lineLevel === null).length);
    // The per-reason counts agree with eval's report (orphans are what the server calls unknown_case_id).
    const { unknown_case_id: unknown = 0, ...reasons } = served;
    const { missing_prediction: _missing, ...evalReasons } = report.rejections;
    expect(reasons).toEqual(evalReasons);
    expect(unknown).toBe(report.orphans.count);
    // Every shape and reason is exercised.
    expect(Object.keys(served).length).toBeGreaterThanOrEqual(14);
    expect(results.filter((r) => r.format_valid).length).toBeGreaterThan(400);
  });

  it("answers /get_reward with the weighted sum and the components of the same completions", async () => {
    const chosen = items.map((item, i) => ({ item, i })).filter(({ item }) => item.completion !== undefined);
    expect(chosen.length).toBeGreaterThan(300);
    const prompts = chosen.map(({ item }) => `<|user|>Does document ${item.completion!.caseId} contradict itself?<|assistant|>`);
    const body = {
      query: chosen.map(({ item }, k) => prompts[k] + item.completion!.text),
      prompts,
      labels: chosen.map(({ item }) => item.completion!.caseId),
    };
    const { status, json } = await postJson(`${server.url}/get_reward`, JSON.stringify(body));
    expect(status).toBe(200);
    const expected = chosen.map(({ i }) => results[i]);
    expect(json.extra_logs.accuracy).toEqual(expected.map((r) => r.accuracy));
    expect(json.extra_logs.reference_coverage).toEqual(expected.map((r) => r.reference_coverage));
    expect(json.extra_logs.format).toEqual(expected.map((r) => r.format));
    const sums = expected.map((r) => WEIGHTS.accuracy * r.accuracy + WEIGHTS.format * r.format + WEIGHTS.coverage * r.reference_coverage);
    expect(json.rewards).toEqual(sums);
    expect(json.scores).toEqual(sums);
  });

  it("logs one line per item, and the log (with --log-predictions) is a dump that eval scores the same", async () => {
    const code = await server.stop();
    expect(code).toBe(0);
    const log = readJsonl(logPath);
    const completions = items.filter((i) => i.completion !== undefined).length;
    expect(log).toHaveLength(items.length + completions);
    for (let i = 0; i < items.length; i++) expect(rewardsOf(log[i]), `log line ${i + 1}`).toEqual(results[i]);
    const { byLine } = await evalRewards(work.dir, "log", logPath);
    let compared = 0;
    for (const [line, rewards] of byLine) {
      expect(rewardsOf(rewards), `log line ${line}`).toEqual(rewardsOf(log[line - 1]));
      compared++;
    }
    // Every item the server scored from the /v1/rewards requests is scored again from the log.
    expect([...byLine.keys()].filter((l) => l <= items.length)).toHaveLength(items.filter((i) => i.lineLevel === null).length);
    expect(compared).toBeGreaterThan(items.length / 2);
  });
});
