// `mari eval` on a serve log whose items carry their generation identity (docs/serve.md, "Runs"):
// runs from the identity whatever the line order, one phase at a time, the newest attempt of a step
// winning, only the cases the log covers scored unless --limit says otherwise. The log is written
// by a real `mari serve` from /v1/rewards requests shaped as examples/trl_reward.py sends them.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readDocumentSlice, type SliceCase } from "../../src/io/slice.js";
import { runMari, tempDir } from "../support/cli.js";
import { CONTRADOC_160, startServe } from "../server/support.js";

const G = 3;

interface Item {
  case_id: string;
  completion: string;
  phase: "train" | "eval";
  step: number;
  attempt: number;
  prompt_index: number;
  generation: number;
  batch?: number;
}

function completion(c: SliceCase, g: number): string {
  const judgment = g % 2 === 0 ? (c.label ? "yes" : "no") : c.label ? "no" : "yes";
  const evidence = judgment === "yes" ? (c.label ? c.gold : [1]) : [];
  return `<think>\nRead [1].\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${JSON.stringify(evidence)}\n</answer><|im_end|>`;
}

/** Steps of 2 prompts with G generations each, over `cases` in order, from `first` step on. */
function steps(cases: SliceCase[], first: number, count: number, attempt: number, phase: "train" | "eval" = "train"): Item[] {
  const items: Item[] = [];
  for (let s = 0; s < count; s++) {
    for (let p = 0; p < 2; p++) {
      const c = cases[((first + s) * 2 + p) % cases.length]!;
      for (let g = 0; g < G; g++) items.push({ case_id: c.id, completion: completion(c, g), phase, step: first + s, attempt, prompt_index: p, generation: g });
    }
  }
  return items;
}

async function post(url: string, items: Item[]): Promise<void> {
  const response = await fetch(`${url}/v1/rewards`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ items }) });
  expect(response.status).toBe(200);
}

describe("mari eval replays a serve log by generation identity", () => {
  it("runs from the identity in any line order, two servers' logs together, eval apart, newest attempt wins", async () => {
    const work = tempDir("mari-replay-");
    try {
      const cases = (await readDocumentSlice(CONTRADOC_160)).cases.slice(0, 10);
      // Attempt 1 trains steps 0-5 (12 prompts: the 10 cases, then 2 again); attempt 2 resumes at step 4.
      const first = steps(cases, 0, 6, 100);
      const second = steps(cases, 4, 2, 200);
      const evaluation = steps(cases.slice(0, 2), 4, 1, 100, "eval").map((x) => ({ ...x, batch: 0 }));
      const logs = [join(work.dir, "a.jsonl"), join(work.dir, "b.jsonl")];
      const servers = await Promise.all(logs.map((log) => startServe([CONTRADOC_160, "--log", log, "--log-predictions", "--workers", "1"])));
      try {
        // Each request split over the two servers, in an order unlike the steps'.
        const all = [...second, ...evaluation, ...first.reverse()];
        for (let i = 0; i < all.length; i += 5) await post(servers[(i / 5) % 2]!.url, all.slice(i, i + 5));
      } finally {
        for (const server of servers) expect(await server.stop()).toBe(0);
      }
      const log = join(work.dir, "all.jsonl");
      writeFileSync(log, logs.map((l) => readFileSync(l, "utf8")).join(""));
      const replay = async (name: string, extra: string[] = []) => {
        const out = join(work.dir, name);
        const rewards = join(work.dir, `${name}-rewards.jsonl`);
        const r = await runMari(["eval", CONTRADOC_160, "--predictions", log, "--out", out, "--rewards", rewards, "--report", "json", "--quiet", ...extra]);
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      };

      const train = await replay("train");
      // Steps 4 and 5 of attempt 1 (2 steps x 2 prompts x G) are superseded by attempt 2's.
      expect(train.system.config.serve_replay).toEqual({
        phase: "train",
        identified_lines: first.length + second.length + evaluation.length,
        other_phase_lines: evaluation.length,
        superseded_lines: 2 * 2 * G,
        attempts: 2,
        covered_cases: 10,
        scored_cases: "covered",
      });
      // 12 prompts over 10 cases: the first pass is runs 0..2 over all 10, the second 0~1..2~1 over 2.
      expect(Object.keys(train.runs).sort()).toEqual(["0", "0~1", "1", "1~1", "2", "2~1"]);
      // A run is over every scored case: the unfinished second pass misses 8 cases in each of its G runs.
      expect(train.runs["0"].cases).toBe(10);
      expect(train.rejections.duplicate_prediction).toBeUndefined();
      expect(train.rejections.missing_prediction).toBe(8 * G);

      const evalReport = await replay("eval", ["--phase", "eval"]);
      expect(Object.keys(evalReport.runs).sort()).toEqual(["0", "1", "2"]);
      expect(evalReport.runs["0"].cases).toBe(2);
      expect(evalReport.system.config.serve_replay).toMatchObject({ covered_cases: 2, other_phase_lines: first.length + second.length });

      // --limit chooses the cases instead: the slice's first 12, the 2 the log does not cover missing.
      const limited = await replay("limited", ["--limit", "12"]);
      expect(limited.system.config.serve_replay.scored_cases).toBe("limit");
      expect(limited.runs["0"].cases).toBe(12);
      expect(limited.rejections.missing_prediction).toBe(8 * G + 2 * 2 * G);

      // A phase the log does not hold is said as such.
      const trainOnly = join(work.dir, "train-only.jsonl");
      writeFileSync(
        trainOnly,
        readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => !l.includes('"phase":"eval"'))
          .join("\n"),
      );
      const none = await runMari(["eval", CONTRADOC_160, "--predictions", trainOnly, "--out", join(work.dir, "none"), "--phase", "eval", "--quiet"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("a mari serve log with no eval line");

      // --phase on a dump without identities is refused, not ignored.
      const plain = join(work.dir, "plain.jsonl");
      writeFileSync(plain, `${JSON.stringify({ case_id: cases[0]!.id, completion: completion(cases[0]!, 0) })}\n`);
      const refused = await runMari(["eval", CONTRADOC_160, "--predictions", plain, "--out", join(work.dir, "plain"), "--phase", "eval", "--quiet"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("--phase applies to a mari serve --log");
    } finally {
      work.cleanup();
    }
  });

  it("an item with a malformed identity is refused (422 bad_generation_identity), naming the field", async () => {
    const server = await startServe([CONTRADOC_160, "--workers", "1"]);
    try {
      const cases = (await readDocumentSlice(CONTRADOC_160)).cases;
      const good = steps(cases, 0, 1, 1)[0]!;
      const bad = [
        { ...good, phase: "test" },
        { ...good, generation: -1 },
        { ...good, attempt: 1.5 },
        { ...good, prompt_index: "0" },
      ];
      const response = await fetch(`${server.url}/v1/rewards`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items: [good, ...bad] }),
      });
      expect(response.status).toBe(422);
      const error = (await response.json()).error;
      expect(error.items.map((x: any) => [x.index, x.reason, x.message])).toEqual([
        [1, "bad_generation_identity", 'phase is neither "train" nor "eval"'],
        [2, "bad_generation_identity", "generation is not a non-negative integer"],
        [3, "bad_generation_identity", "attempt is not a non-negative integer"],
        [4, "bad_generation_identity", "prompt_index is not a non-negative integer"],
      ]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
