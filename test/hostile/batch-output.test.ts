// `mari predict --batch-results` (a batch output file
// → a dump) lost answers without a word. With the default --runs 1, every line of a 2-run output's
// second run became an "orphan" (exit 0, nothing in meta.json); a retried request kept its first,
// failed line over the later answer; and a dump written beside an earlier run's meta.json (or whose
// own meta.json could not be written) was reported with the old run's model and usage.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, expectInputError, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-batch-output-");
afterAll(() => tmp.cleanup());
const predict = (args: string[]) => runMari(["predict", ...args], { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });

let slice: string;
let customIds: string[];
beforeAll(async () => {
  slice = write(tmp.dir, "slice.jsonl", `${firstLines(DOC_SLICE, 6).join("\n")}\n`);
  const requests = join(tmp.dir, "requests.jsonl");
  const r = await predict([slice, "--judge", "openai", "--model", "m", "--runs", "2", "--batch-requests", requests]);
  expect(r.code, r.stderr).toBe(0);
  customIds = readFileSync(requests, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).custom_id as string);
});

/** A batch output line: a negative answer for `customId`, or a failed request. */
function outputLine(customId: string, failed = false): string {
  const [caseId] = JSON.parse(customId) as [string, number];
  const answer = JSON.stringify({ case_id: caseId, judgment: false, evidence_sentence_ids: [] });
  const body = {
    choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5 },
  };
  return JSON.stringify(
    failed
      ? { id: "b", custom_id: customId, response: null, error: { code: "server_error", message: "try again" } }
      : { id: "b", custom_id: customId, response: { status_code: 200, body }, error: null },
  );
}
const meta = (dump: string) => JSON.parse(readFileSync(`${dump}.meta.json`, "utf8"));

describe("--batch-results", () => {
  it("a 2-run output read with the default --runs 1 is refused, not half orphans", async () => {
    const output = write(tmp.dir, "two-runs.jsonl", `${customIds.map((id) => outputLine(id)).join("\n")}\n`);
    const dump = join(tmp.dir, "two-runs-dump.jsonl");
    const r = await predict([slice, "--judge", "openai", "--batch-results", output, "--out", dump]);
    expectInputError(r, /two-runs\.jsonl:2: 6 output lines name runs up to 1 of slice cases, but --runs is 1 \(the default is 1\): give .* \(--runs 2\)/);
    expect(existsSync(dump)).toBe(false);
    const ok = await predict([slice, "--judge", "openai", "--runs", "2", "--batch-results", output, "--out", dump]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(meta(dump).batch).toEqual({ predictions: 12, missing: 0, failed: 0, malformed: 0, orphans: 0, duplicates: 0 });
  });

  it("a retried request's answer replaces its earlier failure; a later failure never replaces an answer", async () => {
    const [first, second, ...rest] = customIds;
    const lines = [outputLine(first!, true), outputLine(second!), ...rest.map((id) => outputLine(id)), outputLine(first!), outputLine(second!, true)];
    const output = write(tmp.dir, "retried.jsonl", `${lines.join("\n")}\n`);
    const dump = join(tmp.dir, "retried-dump.jsonl");
    const r = await predict([slice, "--judge", "openai", "--runs", "2", "--batch-results", output, "--out", dump]);
    expect(r.code, r.stderr).toBe(0);
    const predictions = readFileSync(dump, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(predictions).toHaveLength(12);
    expect(predictions.filter((p) => JSON.stringify(p).includes("request_failed"))).toEqual([]);
    expect(meta(dump).batch).toMatchObject({ predictions: 12, failed: 0, duplicates: 2 });
  });
});

describe("DUMP.meta.json always belongs to the dump beside it", () => {
  it("a stale meta.json from an earlier run is removed when a new dump is written", async () => {
    const dump = join(tmp.dir, "lexical.jsonl");
    writeFileSync(`${dump}.meta.json`, JSON.stringify({ judge: "openai", model: "an-earlier-model", runs: 1 }));
    const r = await runMari(["predict", slice, "--judge", "lexical", "--out", dump]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(`${dump}.meta.json`)).toBe(false);
    const out = join(tmp.dir, "lexical-report");
    const e = await runMari(["eval", slice, "--predictions", dump, "--out", out, "--quiet", "--progress", "none", "--report", "json"]);
    expect(e.code, e.stderr).toBe(0);
    expect(readFileSync(join(out, "report.json"), "utf8")).not.toContain("an-earlier-model");
  });

  it.skipIf(!existsSync("/dev/full"))("a meta.json that cannot be written (ENOSPC) is exit 2 naming it", async () => {
    const output = write(tmp.dir, "full.jsonl", `${customIds.map((id) => outputLine(id)).join("\n")}\n`);
    const dump = join(tmp.dir, "full-dump.jsonl");
    symlinkSync("/dev/full", `${dump}.meta.json`);
    const r = await predict([slice, "--judge", "openai", "--runs", "2", "--batch-results", output, "--out", dump]);
    expectInputError(r, /full-dump\.jsonl\.meta\.json: cannot write \(ENOSPC.*; the dump .*full-dump\.jsonl is complete, without its meta\.json/);
  });
});
