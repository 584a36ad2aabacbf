// `mari merge` keeps the gates. For random shard counts 1–5 and random gates the
// merged result is the single run's report.json (minus timing and system), report.junit.xml and
// exit code; shards with different gates are refused; merge takes its own gate flags; --shard auto
// reads Kubernetes Indexed Job and Slurm array variables. The single runs and the merges are real
// child processes (their exit codes are compared); the shards are run in this process, by the tasks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { gatesOf, runTask, runShards, type TaskInput } from "../support/in-process.js";

const tmp = tempDir("mari-merge-gates-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
let dump = "";
const QUIET = ["--quiet", "--progress", "none"];

beforeAll(async () => {
  // The lexical judge's dump: a real dump with a mix of right and wrong judgments.
  const r = await runMari(["eval", SLICE, "--out", join(tmp.dir, "lexical"), ...QUIET]);
  expect(r.code, r.stderr).toBe(0);
  dump = join(tmp.dir, "lexical", "lexical.predictions.jsonl");
});

/** report.json without the fields that legitimately differ (timing, provenance). */
function reportOf(dir: string): unknown {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  delete report.elapsed_seconds;
  delete report.system;
  return report;
}
const junitOf = (dir: string) => readFileSync(join(dir, "report.junit.xml"), "utf8").replace(/ time="[^"]*"/g, "");

let seed = 20261201;
const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function randomGates(metrics: readonly string[]): string[] {
  const args: string[] = [];
  const n = Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) args.push("--gate", `${pick(metrics)}${rand() < 0.5 ? ">=" : "<="}${(Math.round(rand() * 20) / 20).toString()}`);
  if (rand() < 0.4) args.push("--max-invalid-rate", pick(["0.05", "count:0", "50%"]));
  return args;
}

/** `input` as `mari eval` arguments, for the single run. */
function evalArgs(input: TaskInput): string[] {
  if (input.task === "pairs") return ["eval", input.pairs];
  if (input.task === "evidence") {
    const files = (["facts", "located", "materials", "current"] as const).flatMap((name) => (input[name] !== undefined ? [`--${name}`, input[name]] : []));
    return ["evidence", input.documents, ...files];
  }
  const bootstrap = input.bootstrap !== undefined ? ["--bootstrap", String(input.bootstrap)] : [];
  return ["eval", input.slicePath, ...(input.dumpPath !== undefined ? ["--predictions", input.dumpPath] : []), ...bootstrap];
}

/** The single run (a child process), `shards` shard runs (in process) and their merge (a child process). */
async function splitAndMerge(name: string, input: TaskInput, gates: string[], shards: number, mergeArgs: string[] = [], shardGates = gates) {
  const single = await runMari([...evalArgs(input), ...gates, "--out", join(tmp.dir, name, "single"), ...QUIET]);
  const reports = await runShards(input, gatesOf(shardGates), shards, join(tmp.dir, name));
  const merged = await runMari(["merge", ...reports.reverse(), ...mergeArgs, "--out", join(tmp.dir, name, "merged"), "--quiet"]);
  return { single, merged, dirs: [join(tmp.dir, name, "single"), join(tmp.dir, name, "merged")] as const };
}
const documents = (bootstrap: number): TaskInput => ({ task: "documents", slicePath: SLICE, dumpPath: dump, bootstrap });

describe("merge gates the merged result as the single run", () => {
  it("documents: random shard counts 1–5 and random gates", async () => {
    const metrics = ["accuracy", "macro_f1", "localization_recall", "format_valid_rate", "breakdowns.scope.local.accuracy", "majority.accuracy"];
    let failing = 0;
    for (let round = 0; round < 3; round++) {
      const shards = 1 + Math.floor(rand() * 5);
      // Round 0 always has a failing gate: the old merge wrote gates: [] and exited 0 there.
      const gates = [...randomGates(metrics), ...(round === 0 ? ["--gate", "accuracy>=0.99"] : [])];
      const { single, merged, dirs } = await splitAndMerge(`doc-${round}`, documents(30), gates, shards);
      expect(merged.code, `${gates.join(" ")} over ${shards} shards: ${merged.stderr}`).toBe(single.code);
      expect(reportOf(dirs[1])).toEqual(reportOf(dirs[0]));
      expect(junitOf(dirs[1])).toBe(junitOf(dirs[0]));
      if (single.code === 1) failing++;
    }
    expect(failing).toBeGreaterThan(0);
  });

  it("pairs: random shard counts 1–5 and random gates (default gates included)", async () => {
    const metrics = ["accuracy", "update_recall", "update_precision", "revision_cost"];
    for (let round = 0; round < 2; round++) {
      const shards = 1 + Math.floor(rand() * 5);
      const gates = randomGates(metrics);
      const { single, merged, dirs } = await splitAndMerge(`pairs-${round}`, { task: "pairs", pairs: PAIRS }, gates, shards);
      expect(merged.code, merged.stderr).toBe(single.code);
      expect(reportOf(dirs[1])).toEqual(reportOf(dirs[0]));
      expect(junitOf(dirs[1])).toBe(junitOf(dirs[0]));
    }
  });

  it("evidence: --shard and merge, random shard counts 1–5 and random gates", async () => {
    const E = join(ROOT, "datasets/evidence-example");
    const input: TaskInput = {
      task: "evidence",
      documents: join(E, "docs.jsonl"),
      facts: join(E, "facts.jsonl"),
      located: join(E, "located.jsonl"),
      materials: join(E, "materials.jsonl"),
      current: join(E, "current.jsonl"),
    };
    const metrics = ["accepted_rate", "located_accepted_rate", "grounding_mean", "claim_state_accuracy"];
    for (let round = 0; round < 2; round++) {
      const shards = 2 + Math.floor(rand() * 4);
      const gates = [...randomGates(metrics), ...(round === 0 ? ["--gate", "accepted_rate>=0.5"] : [])];
      const { single, merged, dirs } = await splitAndMerge(`evidence-${round}`, input, gates, shards);
      expect(merged.code, `${gates.join(" ")} over ${shards} shards: ${merged.stderr}`).toBe(single.code);
      if (round === 0) expect(single.code).toBe(1);
      expect(reportOf(dirs[1])).toEqual(reportOf(dirs[0]));
      expect(junitOf(dirs[1])).toBe(junitOf(dirs[0]));
      for (const name of ["cases.jsonl", "located.jsonl"]) expect(readFileSync(join(dirs[1], name), "utf8")).toBe(readFileSync(join(dirs[0], name), "utf8"));
    }
  });

  it("the gate failing on one shard fails the merge with exit 1, as the single run", async () => {
    const { single, merged, dirs } = await splitAndMerge("fixed", documents(50), ["--gate", "accuracy>=0.99"], 2);
    expect(single.code).toBe(1);
    expect(merged.code).toBe(1);
    const gates = (reportOf(dirs[1]) as { gates: { name: string; passed: boolean }[] }).gates;
    expect(gates).toEqual([expect.objectContaining({ name: "accuracy>=0.99", passed: false })]);
  });

  it("merge takes --gate and --max-drop with --baseline itself", async () => {
    const base = join(tmp.dir, "fixed", "single", "report.json");
    const gates = ["--gate", "macro_f1>=0.3", "--max-drop", "accuracy=0.001", "--baseline", base];
    const { single, merged, dirs } = await splitAndMerge("flags", documents(50), gates, 3, gates, []);
    expect(merged.code, merged.stderr).toBe(single.code);
    expect(reportOf(dirs[1])).toEqual(reportOf(dirs[0]));
    expect(junitOf(dirs[1])).toBe(junitOf(dirs[0]));
  });

  it("shards run with different gates are refused (exit 2)", async () => {
    const dirs = [0, 1].map((i) => join(tmp.dir, "differ", `shard-${i}`));
    await runTask(documents(1000), dirs[0]!, gatesOf(["--gate", "accuracy>=0.5"]), { index: 0, count: 2 });
    await runTask(documents(1000), dirs[1]!, gatesOf(["--gate", "accuracy>=0.6"]), { index: 1, count: 2 });
    const r = await runMari(["merge", ...dirs.map((d) => join(d, "report.json")), "--out", join(tmp.dir, "differ", "m"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/other gates.*accuracy>=0\.6 vs accuracy>=0\.5/);
  });
});

describe("--shard auto", () => {
  it("Slurm array: task id relative to SLURM_ARRAY_TASK_MIN, count from SLURM_ARRAY_TASK_COUNT", async () => {
    const out = join(tmp.dir, "slurm");
    const env = { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" };
    const r = await runMari(["eval", SLICE, "--predictions", dump, "--shard", "auto", "--out", out, ...QUIET], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).shard).toMatchObject({ index: 2, count: 4 });
  });

  it("Kubernetes Indexed Job: JOB_COMPLETION_INDEX with --shard-count; without it, exit 2 saying why", async () => {
    const out = join(tmp.dir, "k8s");
    const env = { JOB_COMPLETION_INDEX: "1" };
    const ok = await runMari(["eval", SLICE, "--predictions", dump, "--shard", "auto", "--shard-count", "3", "--out", out, ...QUIET], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).shard).toMatchObject({ index: 1, count: 3 });
    const missing = await runMari(["eval", SLICE, "--predictions", dump, "--shard", "auto", "--out", out, ...QUIET], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--shard-count");
    const none = await runMari(["eval", SLICE, "--predictions", dump, "--shard", "auto", "--out", out, ...QUIET], {
      env: { JOB_COMPLETION_INDEX: "", SLURM_ARRAY_TASK_ID: "" },
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/neither JOB_COMPLETION_INDEX/);
  });
});

describe("a gate that cannot be decided is a usage error (exit 2), never a failed gate", () => {
  const run = (args: string[]) => runMari(["eval", SLICE, "--predictions", dump, "--bootstrap", "20", "--out", join(tmp.dir, "typo"), ...QUIET, ...args]);

  it("a misspelt metric: did you mean, and the valid list", async () => {
    const r = await run(["--gate", "acuracy>=0.5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "accuracy"?');
    expect(r.stderr).toMatch(/valid metrics: cases, accuracy, .*macro_f1/);
  });

  it("a dotted breakdown path with an unknown value names the existing values", async () => {
    const r = await run(["--gate", "breakdowns.scope.lokal.accuracy>=0.5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no "lokal" under breakdowns\.scope; did you mean "local"\? existing: .*local/);
  });

  it("a SetCons gate on a one-run dump says SetCons needs two runs", async () => {
    const r = await run(["--gate", "setcons.judgment>=0.7"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"setcons.judgment": setcons is null in this report: run-to-run consistency needs at least two runs');
  });

  it("--max-drop: a misspelt metric, no --baseline, and a baseline with nothing to pair", async () => {
    const typo = await run(["--max-drop", "acuracy=0.1", "--baseline", join(tmp.dir, "fixed", "single")]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "accuracy"?');
    const noBaseline = await run(["--max-drop", "accuracy=0.1"]);
    expect(noBaseline.code).toBe(2);
    expect(noBaseline.stderr).toContain("needs --baseline");
  });

  it("a gate without an operator mentions quoting", async () => {
    const r = await run(["--gate", "accuracy"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--gate 'accuracy>=0.6'");
    expect(r.stderr).toContain("redirect");
    const help = await runMari(["eval", "--help"]);
    expect(help.stdout).not.toContain("<metric>=<value>");
    expect(help.stdout).toMatch(/--gate\s+'accuracy>=0\.6'/);
  });
});
