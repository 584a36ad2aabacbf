// `--shard auto` under Slurm with SLURM_ARRAY_TASK_ID below SLURM_ARRAY_TASK_MIN
// scored "shard -2/3" and exited 0 (a report no merge can use). It is refused.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, expectInputError } from "./helpers.js";

const tmp = tempDir("mari-shard-env-");
afterAll(() => tmp.cleanup());

it("a Slurm task id below the array's minimum is refused", async () => {
  const out = join(tmp.dir, "below");
  const env = { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_MIN: "5", SLURM_ARRAY_TASK_COUNT: "3" };
  const r = await runMari(["eval", DOC_SLICE, "--shard", "auto", "--out", out, "--quiet", "--progress", "none"], { env });
  expectInputError(r, /--shard auto \(SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=5\): the task id is below the array's first id/);
  expect(existsSync(join(out, "report.json"))).toBe(false);
});

it("the array's first id is shard 0", async () => {
  const out = join(tmp.dir, "first");
  const env = { SLURM_ARRAY_TASK_ID: "5", SLURM_ARRAY_TASK_MIN: "5", SLURM_ARRAY_TASK_COUNT: "3" };
  const r = await runMari(["eval", DOC_SLICE, "--shard", "auto", "--out", out, "--quiet", "--progress", "none", "--report", "json"], { env });
  expect(r.code, r.stderr).toBe(0);
});
