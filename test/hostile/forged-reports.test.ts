// Fields of a report read back are checked against what they summarize. `mari
// diff` gated on report.json's metrics without looking at cases.jsonl (a flipped cases.jsonl with a
// recomputed cases digest passed `accuracy>=0.5`, exit 0), and `mari merge` took the first shard's
// `predictions.lines` and every shard's `line_rejections` on trust (a merged report whose line
// accounting no longer added up, exit 0).
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { asOlderReport, redigest } from "../support/cases.js";
import { evalShards } from "../support/shards.js";
import { DOC_SLICE, expectInputError } from "./helpers.js";

const tmp = tempDir("mari-forged-");
afterAll(() => tmp.cleanup());
let n = 0;

function editJson(path: string, change: (value: any) => void): void {
  const value = JSON.parse(readFileSync(path, "utf8"));
  change(value);
  writeFileSync(path, JSON.stringify(value));
}

/** A copy of `dir` changed by `edit`, its report's cases digest recomputed as a forger would. */
function forged(dir: string, edit: (copy: string) => void): string {
  const copy = join(tmp.dir, `forged-${n++}`);
  cpSync(dir, copy, { recursive: true });
  edit(copy);
  const cases = readFileSync(join(copy, "cases.jsonl"));
  editJson(join(copy, "report.json"), (rep) => redigest(rep, cases));
  return copy;
}

describe("mari diff checks report.json's metrics against its cases.jsonl", () => {
  const old = join(tmp.dir, "old");
  beforeAll(async () => {
    // OLD is an input here: written in this process.
    await runTask({ task: "documents", slicePath: DOC_SLICE, formats: ["json"] }, old);
  });
  const diff = (now: string, ...flags: string[]) => runMari(["diff", old, now, "--out", join(tmp.dir, `diff-${n++}`), "--quiet", ...flags]);

  it("an honest pair of reports passes its gate", async () => {
    const r = await diff(old, "--gate", "accuracy>=0.5");
    expect(r.code, r.stderr).toBe(0);
  });

  const flipJudgments = (copy: string) => {
    const path = join(copy, "cases.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    const flipped = lines.map((l) =>
      l.includes('"judgment":') ? l.replace(/"judgment":(true|false)/, (_m, v) => `"judgment":${v === "true" ? "false" : "true"}`) : l,
    );
    writeFileSync(path, flipped.join("\n"));
  };

  it("every judgment flipped in cases.jsonl, hash recomputed: refused, not gated on the stale accuracy", async () => {
    const now = forged(old, flipJudgments);
    const r = await diff(now, "--gate", "accuracy>=0.5");
    expectInputError(r, /diff NEW .*report\.json: its accuracy \(0\.55\) does not match its cases\.jsonl \(0\.45\)/);
  });

  it("an older report (cases_sha256): honest, it passes; flipped, its digest refuses it, and recomputed, its accuracy", async () => {
    const older = asOlderReport(forged(old, () => {}));
    const honest = await diff(older, "--gate", "accuracy>=0.5");
    expect(honest.code, honest.stderr).toBe(0);
    const changed = join(tmp.dir, `changed-${n++}`);
    cpSync(older, changed, { recursive: true });
    flipJudgments(changed);
    expectInputError(await diff(changed, "--gate", "accuracy>=0.5"), /cases\.jsonl: does not match .*report\.json \(its cases_sha256 differs\)/);
    const now = forged(older, flipJudgments);
    expectInputError(await diff(now, "--gate", "accuracy>=0.5"), /diff NEW .*report\.json: its accuracy \(0\.55\) does not match its cases\.jsonl \(0\.45\)/);
  });

  it("report.json's accuracy edited: refused, on either side", async () => {
    const now = forged(old, (copy) => editJson(join(copy, "report.json"), (rep) => void (rep.metrics.accuracy = 0.99)));
    expectInputError(await diff(now), /diff NEW .*: its accuracy \(0\.99\) does not match its cases\.jsonl \(0\.55\)/);
    const r = await runMari(["diff", now, old, "--out", join(tmp.dir, "diff-swap"), "--quiet"]);
    expectInputError(r, /diff OLD .*: its accuracy \(0\.99\) does not match/);
  });
});

describe("mari merge checks the shards' line accounting", () => {
  let dirs: [string, string];
  beforeAll(async () => {
    dirs = await evalShards(tmp.dir, "doc", DOC_SLICE);
  });
  const merge = (second: string) =>
    runMari(["merge", join(dirs[0], "report.json"), join(second, "report.json"), "--out", join(tmp.dir, `merged-${n++}`), "--quiet"]);

  it("honest shards merge", async () => {
    const r = await merge(dirs[1]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("a shard claiming other dump line counts is refused", async () => {
    const second = forged(dirs[1], (copy) => editJson(join(copy, "report.json"), (rep) => void (rep.predictions.lines += 7)));
    expectInputError(await merge(second), /report\.json: counts 167 dump lines, the first report 160/);
  });

  it("line_rejections added to a shard are refused: the lines no longer add up", async () => {
    const second = forged(dirs[1], (copy) => editJson(join(copy, "report.json"), (rep) => void (rep.shard.line_rejections.malformed_json = 12)));
    expectInputError(await merge(second), /merge: the shards do not account for the dump's 160 lines \(12 rejected \+ 0 orphans \+ 160 kept = 172\)/);
  });
});
