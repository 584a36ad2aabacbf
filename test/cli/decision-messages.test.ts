// Through the CLI: unanimous_cases means what its name says; one listing rule for
// rejected records ("… and N more (see …)") in eval, sweep and classify; a judge's own failure
// codes survive into eval's rejections. (The --gate help and quoting hint are in
// test/gates/merge-gates.test.ts, classify --classifier/--config in test/classifier/cli.test.ts.)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { failedPrediction } from "../../src/judges/answer.js";
import { predictionLine } from "../../src/judges/types.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-messages-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const ids = readFileSync(SLICE, "utf8")
  .trim()
  .split("\n")
  .map((l) => (JSON.parse(l) as { id: string }).id);
const QUIET = ["--progress", "none", "--bootstrap", "20"];
const write = (name: string, lines: readonly string[]) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
};
const negative = (id: string, run: number) => JSON.stringify({ case_id: id, run, judgment: false, evidence_sentence_ids: [] });

describe("setcons.unanimous_cases", () => {
  it("counts the unanimous cases (beside cases_in_all_runs), so it agrees with unanimous_rate", async () => {
    // Three runs, all negative, except that run 2 says positive on the first 40 cases.
    const lines = [0, 1, 2].flatMap((run) =>
      ids.map((id, i) => (run === 2 && i < 40 ? JSON.stringify({ case_id: id, run, judgment: true, evidence_sentence_ids: [1] }) : negative(id, run))),
    );
    const out = join(tmp.dir, "setcons");
    const r = await runMari(["eval", SLICE, "--predictions", write("runs.jsonl", lines), "--out", out, "--quiet", ...QUIET]);
    expect(r.code, r.stderr).toBe(0);
    const setcons = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).setcons;
    expect(setcons).toMatchObject({ unanimous_cases: 120, cases_in_all_runs: 160, unanimous_rate: 0.75 });
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/unanimous_cases \| 120/);
  });
});

describe("one rule for listing rejected records", () => {
  it("eval lists ten, then '… and N more (see …/report.json)'", async () => {
    // 13 malformed lines and 12 that are not objects (report.json keeps 5 examples of each reason).
    const lines = ids.map((id, i) => (i < 13 ? `{"case_id": "${id}", broken` : i < 25 ? "[1, 2]" : negative(id, 0)));
    const out = join(tmp.dir, "listing");
    const r = await runMari(["eval", SLICE, "--predictions", write("broken.jsonl", lines), "--out", out, "--quiet", ...QUIET]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/broken\.jsonl:\d+: (malformed_json|not_an_object): /g)).toHaveLength(10);
    expect(r.stderr).toContain(`… and 15 more (see ${join(out, "report.json")})`);
  });

  it("classify lists ten, then '… and N more (see the counts below)'", async () => {
    const pairs = write(
      "pairs.jsonl",
      Array.from({ length: 14 }, (_, i) => JSON.stringify({ id: `p${i}`, new: 7, old: "x" })).concat([JSON.stringify({ id: "ok", new: "a", old: "b" })]),
    );
    const r = await runMari(["classify", pairs]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/pairs\.jsonl:\d+: bad_new: /g)).toHaveLength(10);
    expect(r.stderr).toContain("… and 4 more (see the counts below)");
  });

  it("sweep lists ten, then '… and N more (see report.json)'", async () => {
    const pairs = write("sweep-pairs.jsonl", [
      ...Array.from({ length: 13 }, (_, i) => JSON.stringify({ id: `p${i}`, new: 7, old: "x", gold: "update" })),
      JSON.stringify({ id: "u", new: "The job now times out after 30 minutes.", old: "The job times out after 15 minutes.", gold: "update" }),
      JSON.stringify({ id: "d", new: "Cats sleep a lot.", old: "The job times out after 15 minutes.", gold: "distinct" }),
    ]);
    const r = await runMari(["sweep", pairs, "--out", join(tmp.dir, "sweep"), "--progress", "none", "--workers", "1", "--quiet"]);
    expect(r.code).not.toBe(3);
    expect(r.stderr.match(/sweep-pairs\.jsonl:\d+: bad_new: /g)).toHaveLength(10);
    expect(r.stderr).toContain("… and 3 more (see report.json)");
  });
});

describe("a judge's own rejection codes", () => {
  it("are kept by eval (answer_not_json, answer_wrong_case), not folded into bad_judgment", async () => {
    const lines = ids.map((id, i) =>
      i === 0
        ? JSON.stringify(predictionLine(id, 0, failedPrediction("answer_not_json", "answer is not JSON: Unexpected token", "Sure! Here")))
        : i === 1
          ? JSON.stringify(predictionLine(id, 0, failedPrediction("answer_wrong_case", `answer is about case "other", not "${id}"`, "{}")))
          : i === 2
            ? JSON.stringify({ case_id: id, judgment: "maybe" })
            : negative(id, 0),
    );
    const out = join(tmp.dir, "judge");
    const r = await runMari(["eval", SLICE, "--predictions", write("judge.jsonl", lines), "--out", out, "--quiet", ...QUIET]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.rejections).toMatchObject({ answer_not_json: 1, answer_wrong_case: 1, bad_judgment: 1 });
    expect(r.stderr).toMatch(/judge\.jsonl:1: answer_not_json: the judge failed: answer is not JSON/);
  });
});
