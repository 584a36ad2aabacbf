// The RL trainers' own reward clients against a real `mari serve` on 127.0.0.1: OpenRLHF 0.6 and
// 0.9 (remote reward model) and its single-turn agent executor, verl's naive reward manager with
// examples/verl_reward.py (TRL's real GRPOTrainer runs in test/trainers/trl-grpo.test.ts).
// The clients are emulated in Python (test/server/trainer-clients/emulate.py, with the real
// `requests` library, so the request bytes are the real ones): queries ending in the template's end
// marker, Llama 3's decode clean-up, left padding, no labels. Every one of the 160 contradoc-160
// responses must get exactly the rewards `mari eval --rewards` gives the clean completion, and the
// Skips without python3 + requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tagSentences } from "../../src/core/document/sentences.js";
import { readDocumentSlice, type SliceCase } from "../../src/io/slice.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { CONTRADOC_160, startServe, type ServeProcess } from "./support.js";
import { SYNC_CHILD } from "../support/children.js";

const hasRequests = spawnSync("python3", ["-c", "import requests"], SYNC_CHILD).status === 0;
const EMULATOR = join(ROOT, "test/server/trainer-clients/emulate.py");
const GROUP = 4;

interface Rewards {
  accuracy: number;
  reference_coverage: number;
  format: number;
  format_valid: boolean;
  reason: string | null;
}

/** The k-th sample a policy might write for a case: right, wrong, off the layout, or half right. */
function completionFor(c: SliceCase, k: number): string {
  const n = c.sentences.length;
  const think = `Compared [1] with [${n}] and read [${Math.min(2, n)}]-[${n}] again.`;
  const layout = (judgment: string, evidence: number[]): string =>
    `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${JSON.stringify(evidence)}\n</answer>`;
  switch ((c.index + k) % GROUP) {
    case 0:
      return layout(c.label ? "yes" : "no", c.label ? c.gold : []);
    case 1:
      return layout(c.label ? "no" : "yes", c.label ? [] : [1]);
    case 2:
      return `Judgment: ${c.label ? "yes" : "no"}\nEvidence: []`;
    default:
      return layout("yes", [n]);
  }
}

function content(c: SliceCase): string {
  return `Does this document contradict itself? Think in <think>, answer in <answer>.\n\n${tagSentences(c.sentences)}`;
}

function readJsonl(path: string): any[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

function emulate(client: string, job: Record<string, unknown>): any {
  const run = spawnSync("python3", [EMULATOR, client], { ...SYNC_CHILD, input: JSON.stringify(job), encoding: "utf8", maxBuffer: 64 << 20 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

const sum = (r: Rewards): number => 1 * r.accuracy + 1 * r.format + 1 * r.reference_coverage;

describe.skipIf(!hasRequests)("trainers' reward clients, unmodified, against mari serve (skipped without python3 + requests)", () => {
  let work: { dir: string; cleanup: () => void };
  let cases: SliceCase[];
  /** `mari eval --rewards` on the clean completions, by `case_id/sample`. */
  const expected = new Map<string, Rewards>();
  let server: ServeProcess;

  const rows = (samples: number) =>
    cases.map((c) => ({ case_id: c.id, content: content(c), completions: Array.from({ length: samples }, (_, k) => completionFor(c, k)) }));
  const expectedOf = (samples: number): Rewards[] => cases.flatMap((c) => Array.from({ length: samples }, (_, k) => expected.get(`${c.id}/${k}`)!));

  beforeAll(async () => {
    work = tempDir("mari-trainers-");
    cases = (await readDocumentSlice(CONTRADOC_160)).cases;
    const dump = join(work.dir, "clean.jsonl");
    writeFileSync(
      dump,
      cases.flatMap((c) => Array.from({ length: GROUP }, (_, k) => JSON.stringify({ case_id: c.id, sample: k, completion: completionFor(c, k) }))).join("\n") +
        "\n",
    );
    const rewards = join(work.dir, "clean-rewards.jsonl");
    const r = await runMari([
      "eval",
      CONTRADOC_160,
      "--predictions",
      dump,
      "--rewards",
      rewards,
      "--out",
      join(work.dir, "clean"),
      "--report",
      "json",
      "--quiet",
    ]);
    expect(r.code).toBe(0);
    const lines = readFileSync(dump, "utf8").split("\n");
    for (const line of readJsonl(rewards)) {
      const source = JSON.parse(lines[line.line - 1]!);
      expected.set(`${source.case_id}/${source.sample}`, line);
    }
    // Every kind of answer is among them: valid and invalid, right and wrong, gold hit and missed.
    const all = [...expected.values()];
    expect(new Set(all.map((x) => x.reason))).toEqual(new Set([null, "bad_completion_format"]));
    expect(new Set(all.map((x) => x.accuracy)).size).toBeGreaterThanOrEqual(4);
    server = await startServe([CONTRADOC_160]);
  });

  afterAll(async () => {
    await server?.stop();
    work?.cleanup();
  });

  const job = (template: string, labels: boolean, samples = 1) => ({
    base: server.url,
    url: `${server.url}/get_reward`,
    template,
    labels,
    rows: rows(samples),
  });

  it("OpenRLHF 0.6 (left-padded batch decoded with its special tokens, ChatML): the rewards of the clean completions", () => {
    const got = emulate("openrlhf-v0.6", job("chatml", true));
    expect(got.map((x: any) => x.reward)).toEqual(expectedOf(1).map(sum));
  });

  it.each([
    ["with labels", true],
    ["without --label_key (empty labels)", false],
  ])("OpenRLHF 0.9 (Llama 3: <|eot_id|> and the decode clean-up), %s: rewards, scores in [0, 1], extra_logs", (_name, labels) => {
    const got = emulate("openrlhf-v0.9", job("llama3", labels));
    const want = expectedOf(1);
    expect(got.map((x: any) => x.reward)).toEqual(want.map(sum));
    expect(got.map((x: any) => x.score)).toEqual(want.map((r) => (sum(r) - -1) / (4 - -1)));
    for (const x of got) expect(x.score >= 0 && x.score <= 1).toBe(true);
    expect(got.map((x: any) => x.extra_logs.accuracy)).toEqual(want.map((r) => r.accuracy));
    expect(got.map((x: any) => x.extra_logs.reference_coverage)).toEqual(want.map((r) => r.reference_coverage));
    expect(got.map((x: any) => x.extra_logs.format_valid)).toEqual(want.map((r) => (r.format_valid ? 1 : 0)));
    // The documents' text changed under the clean-up for many cases: the response was still found.
    const changed = cases.filter((c) => /( [.?!,]| ' | n't| '[msv]| 're)/.test(tagSentences(c.sentences))).length;
    expect(changed).toBeGreaterThan(20);
  });

  it("a DeepSeek-R1 template (the think opener in the prompt): OpenRLHF 0.9 and verl get the clean completions' rewards", () => {
    const want = expectedOf(1).map(sum);
    expect(emulate("openrlhf-v0.9", job("deepseek_r1", true)).map((x: any) => x.reward)).toEqual(want);
    expect(emulate("verl-naive", job("deepseek_r1", true)).map((x: any) => x.reward)).toEqual(want);
  });

  it("OpenRLHF's agent executor at head (one query per request, no labels, Llama 3): the same rewards and scores", () => {
    const got = emulate("openrlhf-agent", job("llama3", false));
    const want = expectedOf(1);
    expect(got.map((x: any) => x.reward)).toEqual(want.map(sum));
    expect(got.map((x: any) => x.score)).toEqual(want.map((r) => (sum(r) + 1) / 5));
    expect(got.map((x: any) => x.extra_logs.format)).toEqual(want.map((r) => r.format));
  });

  it("verl's naive reward manager with examples/verl_reward.py (decoded without special tokens)", () => {
    const got = emulate("verl-naive", job("llama3", true));
    const want = expectedOf(1);
    expect(got.map((x: any) => x.reward)).toEqual(want.map(sum));
    expect(got.map((x: any) => x.extra.format)).toEqual(want.map((r) => r.format));
  });

  it("an item that names no case is an error the trainer sees (422), not a silent 0", () => {
    const bad = job("chatml", true);
    bad.rows = bad.rows.slice(0, 3).map((row, i) => (i === 1 ? { ...row, case_id: "not-a-case", content: "no document here" } : row));
    const got = emulate("openrlhf-v0.9", bad);
    expect(got.http_error).toBe(422);
    const error = JSON.parse(got.body).error;
    expect(error.items).toEqual([{ index: 1, reason: "no_document_in_prompt", message: expect.stringContaining("tagged document") }]);
    const trl = emulate("verl-naive", bad);
    expect(trl.runtime_error).toMatch(/^mari serve answered 422/);
  });
});
