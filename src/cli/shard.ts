// `--shard I/N` and `--shard auto`: which part of the cases this process scores. `auto` reads the
// index a batch scheduler gives each task, so one command line serves every task of a job:
// - Kubernetes Indexed Job: JOB_COMPLETION_INDEX (0-based). Kubernetes exposes only the index to
//   the pod, not the job's `completions`, so N comes from --shard-count.
// - Slurm job array: SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN (arrays may start at 1 or any
//   number), N = SLURM_ARRAY_TASK_COUNT (or --shard-count). A stepped array (--array=0-9:2) is
//   refused: its ids do not number the shards 0 … N-1.
import { MAX_SHARDS } from "../core/limits.js";
import { InputError } from "../io/errors.js";
import type { Shard } from "../tasks/document/score-dump.js";

function nonNegativeInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InputError(`${name}="${text}": expected an integer ≥ 0`);
  return Number(text.trim());
}

function checked(index: number, count: number, what: string): Shard {
  if (count > MAX_SHARDS) throw new InputError(`--shard ${what}: the shard count ${count} is above ${MAX_SHARDS}`);
  if (index < 0) throw new InputError(`--shard ${what}: the task id is below the array's first id (a negative shard index)`);
  if (count < 1 || index >= count) throw new InputError(`--shard ${what}: index ${index} is not below the shard count ${count}`);
  return { index, count };
}

/** The shard asked for, or undefined for the whole input. `env` defaults to process.env. */
export function resolveShard(text: string | undefined, countText?: string, env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  if (text === undefined) {
    if (countText !== undefined) throw new InputError("--shard-count is only used with --shard auto");
    return undefined;
  }
  const flagCount = countText === undefined ? undefined : nonNegativeInteger("--shard-count", countText);
  if (text.trim() !== "auto") {
    if (flagCount !== undefined) throw new InputError("--shard-count is only used with --shard auto (--shard I/N names N itself)");
    const m = /^(\d+)\/(\d+)$/.exec(text.trim());
    if (!m || Number(m[2]) < 1 || Number(m[2]) > MAX_SHARDS || Number(m[1]) >= Number(m[2])) {
      throw new InputError(`--shard "${text}": expected I/N with 0 ≤ I < N ≤ ${MAX_SHARDS} (e.g. 0/4), or auto`);
    }
    return { index: Number(m[1]), count: Number(m[2]) };
  }
  const k8s = env["JOB_COMPLETION_INDEX"];
  if (k8s !== undefined && k8s !== "") {
    const index = nonNegativeInteger("JOB_COMPLETION_INDEX", k8s);
    if (flagCount === undefined) {
      throw new InputError(
        "--shard auto: JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job) but Kubernetes does not tell the pod the job's completions; give --shard-count N (the job's spec.completions)",
      );
    }
    return checked(index, flagCount, `auto (JOB_COMPLETION_INDEX=${index})`);
  }
  const slurm = env["SLURM_ARRAY_TASK_ID"];
  if (slurm !== undefined && slurm !== "") {
    const id = nonNegativeInteger("SLURM_ARRAY_TASK_ID", slurm);
    const min = nonNegativeInteger("SLURM_ARRAY_TASK_MIN", env["SLURM_ARRAY_TASK_MIN"] ?? "0");
    const step = env["SLURM_ARRAY_TASK_STEP"];
    if (step !== undefined && step !== "" && step.trim() !== "1") {
      throw new InputError(`--shard auto: SLURM_ARRAY_TASK_STEP=${step}; use a contiguous array (--array=0-N) so task ids number the shards`);
    }
    const envCount = env["SLURM_ARRAY_TASK_COUNT"];
    const count = flagCount ?? (envCount !== undefined && envCount !== "" ? nonNegativeInteger("SLURM_ARRAY_TASK_COUNT", envCount) : undefined);
    if (count === undefined) throw new InputError("--shard auto: SLURM_ARRAY_TASK_COUNT is not set; give --shard-count N");
    return checked(id - min, count, `auto (SLURM_ARRAY_TASK_ID=${id}, SLURM_ARRAY_TASK_MIN=${min})`);
  }
  throw new InputError("--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set; give --shard I/N");
}
