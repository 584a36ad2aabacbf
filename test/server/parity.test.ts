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
  let scoredItems: GeneratedItem[];
  const refused: string[] = [];

  beforeAll(async () => {
    work = tempDir("mari-serve-parity-");
    const slice = await readDocumentSlice(CONTRADOC_160);
    items = generateItems(slice.cases, 2000, 7);
    logPath = join(work.dir, "served.jsonl");
    server = await startServe([CONTRADOC_160, "--log", logPath, "--log-predictions", "--weights", "accuracy=1,format=0.5,coverage=2"]);
    // Items a dump would not score (line-level rejections, orphans) cannot be resolved: sent alone,
    // each is refused with 422 naming it; the rest are scored in batches.
    scoredItems = items.filter((i) => i.lineLevel === null);
    for (let start = 0; start < scoredItems.length; start += 500) {
      const batch = scoredItems.slice(start, start + 500);
      const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[${batch.map((i) => i.text).join(",")}]}`);
      expect(status).toBe(200);
      results.push(...json.results);
    }
    for (const item of items.filter((i) => i.lineLevel !== null)) {
      const { status, json } = await postJson(`${server.url}/v1/rewards`, `{"items":[${scoredItems[0]!.text},${item.text}]}`);
      expect(status, item.text).toBe(422);
      expect(json.error.code).toBe("unresolved_items");
      expect(json.error.items.map((u: any) => [u.index, u.reason])).toEqual([[1, item.lineLevel]]);
      refused.push(item.lineLevel!);
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
    expect(results).toHaveLength(scoredItems.length);
    const served: Record<string, number> = {};
    let k = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.lineLevel !== null) {
        expect(byLine.has(i + 1)).toBe(false);
        continue;
      }
      const result = results[k++];
      expect(Object.keys(result).sort()).toEqual([...REWARD_FIELDS].sort());
      expect(result, `item ${i}: ${item.text}`).toEqual(rewardsOf(byLine.get(i + 1)));
      if (result.reason !== null) served[result.reason] = (served[result.reason] ?? 0) + 1;
    }
    expect(byLine.size).toBe(scoredItems.length);
    // The per-reason counts agree with eval's report: format reasons from the scored items, line-level
    // ones from the refused items (orphans are what the server calls unknown_case_id).
    for (const reason of refused) served[reason] = (served[reason] ?? 0) + 1;
    const { unknown_case_id: unknown = 0, ...reasons } = served;
    const { missing_prediction: _missing, ...evalReasons } = report.rejections;
    expect(reasons).toEqual(evalReasons);
    expect(unknown).toBe(report.orphans.count);
    // Every shape and reason is exercised.
    expect(Object.keys(served).length).toBeGreaterThanOrEqual(14);
    expect(results.filter((r) => r.format_valid).length).toBeGreaterThan(400);
  });

  it("answers /get_reward with the weighted sum and the components of the same completions", async () => {
    const chosen = scoredItems.map((item, i) => ({ item, i })).filter(({ item }) => item.completion !== undefined);
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
    // scores: the sum mapped onto [0, 1] by the weights' bounds (−1 … 1·2 + 0.5·1 + 2·1 = 4.5).
    expect(json.scores).toEqual(sums.map((r) => (r - -1) / (4.5 - -1)));
    expect(json.response_rules.every((r: string) => r === "prompt_prefix")).toBe(true);
  });

  it("logs one line per item, and the log (with --log-predictions) is a dump that eval scores the same", async () => {
    const code = await server.stop();
    expect(code).toBe(0);
    const log = readJsonl(logPath);
    const completions = scoredItems.filter((i) => i.completion !== undefined).length;
    expect(log).toHaveLength(scoredItems.length + completions);
    for (let i = 0; i < scoredItems.length; i++) expect(rewardsOf(log[i]), `log line ${i + 1}`).toEqual(results[i]);
    const { byLine } = await evalRewards(work.dir, "log", logPath);
    let compared = 0;
    for (const [line, rewards] of byLine) {
      expect(rewardsOf(rewards), `log line ${line}`).toEqual(rewardsOf(log[line - 1]));
      compared++;
    }
    // Every item the server scored from the /v1/rewards requests is scored again from the log.
    expect([...byLine.keys()].filter((l) => l <= scoredItems.length)).toHaveLength(scoredItems.length);
    expect(compared).toBe(log.length);
  });
});
