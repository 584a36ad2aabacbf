// The Kubernetes Indexed Job and the Slurm array of docs/eval.md, run as written: the shard
// commands inside them with the variables each scheduler sets, then their merge-and-gate command,
// through a `mari` on PATH (the built CLI). The merged verdict equals the single run's.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir, MARI_SHELL } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-scheduler-");
afterAll(() => tmp.cleanup());
const docs = readFileSync(join(ROOT, "docs/eval.md"), "utf8");
let bin = "";

function shell(dir: string, script: string, env: Record<string, string>): number {
  const r = spawnSync("sh", ["-c", script], {
    ...SYNC_CHILD,
    cwd: dir,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${script}\n${r.stderr}`);
  return r.status!;
}

/** A working directory as the manifests expect: datasets/ and the lexical judge's dump.jsonl. */
async function workDir(name: string): Promise<string> {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(ROOT, "datasets"), join(dir, "datasets"));
  const r = await runMari(["eval", join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "--out", join(dir, "lexical"), "--quiet"]);
  expect(r.code, r.stderr).toBe(0);
  writeFileSync(join(dir, "dump.jsonl"), readFileSync(join(dir, "lexical", "lexical.predictions.jsonl")));
  return dir;
}

beforeAll(() => {
  bin = join(tmp.dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "mari"), `#!/bin/sh\nexec ${MARI_SHELL} "$@"\n`);
  chmodSync(join(bin, "mari"), 0o755);
});

const gatesOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "merged", "report.json"), "utf8")).gates.map((g: { name: string; passed: boolean }) => [g.name, g.passed]);

describe("docs/eval.md scheduler examples", () => {
  it("the Slurm array script shards with --shard auto; the dependent merge gates", async () => {
    const dir = await workDir("slurm");
    const script = /```sh\n(#!\/bin\/bash\n# mari-shards\.sbatch[\s\S]*?)```/.exec(docs)![1]!;
    for (const id of ["0", "1", "2", "3"])
      expect(shell(dir, script, { SLURM_ARRAY_TASK_ID: id, SLURM_ARRAY_TASK_MIN: "0", SLURM_ARRAY_TASK_COUNT: "4" })).toBe(0);
    const merge = /--wrap "(.*)"\n/.exec(script)![1]!;
    const code = shell(dir, merge, {});
    const single = shell(
      dir,
      `mari eval datasets/contradoc/contradoc-160.jsonl --predictions dump.jsonl --out single --quiet --gate 'accuracy>=0.5' --gate 'macro_f1>=0.45'`,
      {},
    );
    expect(code).toBe(single);
    expect(gatesOf(dir)).toEqual([
      ["accuracy>=0.5", true],
      ["macro_f1>=0.45", true],
    ]);
  });

  it("the Kubernetes Indexed Job's command shards with --shard auto --shard-count; the merge Job gates", async () => {
    const dir = await workDir("k8s");
    const folded = /- >-\n([\s\S]*?)\n\s+volumeMounts/.exec(docs)![1]!;
    const command = folded
      .split("\n")
      .map((l) => l.trim())
      .join(" ");
    for (const index of ["0", "1", "2", "3"]) expect(shell(dir, command, { JOB_COMPLETION_INDEX: index })).toBe(0);
    const args = JSON.parse(/args: (\["mari merge[^\n]*\])\n/.exec(docs)![1]!) as string[];
    expect(shell(dir, args[0]!, {})).toBe(0);
    expect(gatesOf(dir)).toEqual([
      ["accuracy>=0.5", true],
      ["macro_f1>=0.45", true],
    ]);
  });
});
