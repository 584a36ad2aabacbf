// Fourth round, finding 19: `mari trend` reads report.json's metrics, so a report edited after its
// run could pass a gate or become the best point. Each report a decision rests on (the gated last
// checkpoint, the best of --keep-by) is checked against its cases.jsonl, as `mari diff` checks.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { writeRun } from "../trend/fixture.js";
import { expectInputError, expectNoCrash } from "./helpers.js";

const tmp = tempDir("mari-trend-forged-");
afterAll(() => tmp.cleanup());
beforeAll(async () => {
  await writeRun(tmp.dir);
});

/** A copy of the run's reports with one report.json's metrics edited. */
function forged(name: string, checkpoint: string, metrics: Record<string, number>): string {
  const dir = join(tmp.dir, name);
  cpSync(join(tmp.dir, "reports"), dir, { recursive: true });
  const path = join(dir, checkpoint, "report.json");
  const report = JSON.parse(readFileSync(path, "utf8"));
  Object.assign(report.metrics, metrics);
  writeFileSync(path, JSON.stringify(report, null, 2));
  return dir;
}

describe("finding 19: trend refuses a report whose metrics its cases contradict", () => {
  it("the honest run: the gate is evaluated (ckpt-500 misses 10 of 40)", async () => {
    const r = await runMari(["trend", join(tmp.dir, "reports"), "--gate", "accuracy>=0.9", "--out", join(tmp.dir, "t-honest"), "--quiet"]);
    expectNoCrash(r);
    expect(r.code, r.stderr).toBe(1);
  });

  it("--gate on the last checkpoint: accuracy edited to 0.95 does not pass, it is refused", async () => {
    const dir = forged("gate", "ckpt-500", { accuracy: 0.95 });
    const r = await runMari(["trend", dir, "--gate", "accuracy>=0.9", "--out", join(tmp.dir, "t-gate"), "--quiet"]);
    expectInputError(r, /trend .*ckpt-500.*report\.json: its accuracy \(0\.95\) does not match its cases\.jsonl \(0\.75\)/);
  });

  it("the best point: macro_f1 edited to 5 does not become the checkpoint to keep, it is refused", async () => {
    const dir = forged("best", "ckpt-100", { macro_f1: 5 });
    const r = await runMari(["trend", dir, "--out", join(tmp.dir, "t-best"), "--quiet"]);
    expectInputError(r, /trend .*ckpt-100.*report\.json: its macro_f1 \(5\) does not match its cases\.jsonl/);
  });
});
