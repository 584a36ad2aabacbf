// TRL's own GRPOTrainer, through examples/trl_grpo.py and examples/trl_reward.py unmodified, against
// a real `mari serve` on 127.0.0.1: a tiny seeded policy built from a config with a tokenizer trained
// on the slice (test/trainers/make_tiny_model.py; nothing downloaded), a few CPU steps per setting.
// Item by item, every served line must be the completion decoded from the trainer's own token ids
// with special tokens kept (test/trainers/decode_record.py; the think opener only when the template's
// generation prompt ends with it), its rewards those `mari eval --rewards` gives that text, and the
// rewards TRL trained on the served ones; the replay of the log must give the runs docs/serve.md's
// table says. Skips without the Python virtualenv locally (fails under CI).
//
// Each trainer process spends seconds of CPU importing torch and TRL, so one run serves several
// settings where one run can show them: the three component functions and evaluation during
// training are one run, and the resume continues the ChatML run from its checkpoint-2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { endWithTest, killChild } from "../support/children.js";
import { MARI_SHELL, ROOT, runMari, tempDir } from "../support/cli.js";
import { realToolsRequired, VENV_DIR, venvPython } from "../support/python.js";
import { scaled } from "../support/time-limits.js";
import { CONTRADOC_160, startServe, type ServeProcess } from "../server/support.js";

/** A trainer run: about 25 s on an idle machine. */
const TIMEOUT = scaled(240_000);
/** Building the policy: most of it is importing torch and transformers, slow on a loaded machine. */
const BUILD_TIMEOUT = scaled(300_000);
const G = 4;
const CASES = 12;
const OFFLINE = { HF_HUB_OFFLINE: "1", TRANSFORMERS_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", TOKENIZERS_PARALLELISM: "false", OMP_NUM_THREADS: "1" };
const FIELDS = ["accuracy", "reference_coverage", "format", "format_valid", "reason"] as const;

interface Decoded {
  phase: "train" | "eval";
  step: number;
  batch: number;
  position: number;
  rank: number;
  case_id: string;
  rewards: number[];
  completion: string;
}

function readJsonl(path: string): any[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/**
 * Runs a program to its end, rejecting with its stderr's tail on failure. It leads its own process
 * group (torchrun's workers with it), ended with the test whatever its outcome, or after `budget`.
 */
function runProgram(program: string, args: string[], env: NodeJS.ProcessEnv = {}, budget = TIMEOUT): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = endWithTest(
      spawn(program, args, { cwd: ROOT, env: { ...process.env, ...OFFLINE, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true }),
      { group: true },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-6000)));
    const timer = setTimeout(() => killChild(child), budget - 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${program} ${args.join(" ")} exited ${code}:\n${stderr}`));
    });
  });
}

describe.skipIf(!realToolsRequired())("TRL's GRPOTrainer against mari serve (skipped without .venv)", () => {
  let work: { dir: string; cleanup: () => void };
  let slicePath: string;
  let models: string;

  beforeAll(async () => {
    work = tempDir("mari-trl-");
    // The slice: the 12 contradoc-160 cases with the shortest documents (short prompts, short CPU steps).
    const lines = readFileSync(join(ROOT, CONTRADOC_160), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    const shortest = lines
      .map((l) => ({ l, n: JSON.parse(l).text.length as number }))
      .sort((a, b) => a.n - b.n)
      .slice(0, CASES);
    slicePath = join(work.dir, "slice.jsonl");
    writeFileSync(slicePath, `${shortest.map((x) => x.l).join("\n")}\n`);
    // MARI_TINY_MODELS names a directory make_tiny_model.py wrote before (any slice: its byte-level
    // tokenizer encodes any text), to skip the build while iterating locally; CI builds it here.
    models = process.env.MARI_TINY_MODELS ?? join(work.dir, "models");
    if (process.env.MARI_TINY_MODELS === undefined) {
      await runProgram(venvPython(), ["test/trainers/make_tiny_model.py", "--slice", slicePath, "--out", models], {}, BUILD_TIMEOUT);
    }
  }, BUILD_TIMEOUT);

  afterAll(() => work?.cleanup());

  interface Trained {
    log: any[];
    logPath: string;
    decoded: Decoded[];
    dir: string;
  }

  /**
   * One training process against one mari serve (or one per process): the served log, and every
   * completion TRL scored, decoded with the run's tokenizer. `resume`: start from a copy of an
   * earlier run's checkpoint, its served log and records kept in front of this attempt's.
   */
  async function train(
    name: string,
    template: "chatml" | "r1" | "qwen3",
    extra: string[],
    options: { processes?: number; servers?: number; resume?: { from: Trained; checkpoint: string } } = {},
  ): Promise<Trained> {
    const dir = join(work.dir, name);
    mkdirSync(dir, { recursive: true });
    const logPath = join(dir, "served.jsonl");
    const record = join(dir, "record");
    const model = join(models, template);
    const earlier = options.resume;
    if (earlier !== undefined) {
      cpSync(join(earlier.from.dir, "out", earlier.checkpoint), join(dir, "out", earlier.checkpoint), { recursive: true });
      for (const f of readdirSync(earlier.from.dir).filter((f) => f.startsWith("record.rank"))) cpSync(join(earlier.from.dir, f), join(dir, f));
    }
    // Several servers: one --log each, the process p sending to server p mod n; the logs replay together.
    const logs = Array.from({ length: options.servers ?? 1 }, (_, i) => join(dir, `served-${i}.jsonl`));
    const servers: ServeProcess[] = [];
    try {
      for (const log of logs) servers.push(await startServe([slicePath, "--log", log, "--log-predictions", "--workers", "1"]));
      const script = ["examples/trl_grpo.py", "--model", model, "--slice", slicePath, "--out", join(dir, "out"), "--num-generations", String(G)];
      const args = [...script, "--max-completion-length", "40", "--record", record, ...extra];
      const env = { MARI_URL: servers.map((s) => s.url).join(","), MARI: MARI_SHELL };
      if (options.processes === undefined) await runProgram(venvPython(), args, env);
      else {
        const torchrun = join(VENV_DIR, "bin", "torchrun");
        await runProgram(torchrun, ["--standalone", "--nproc_per_node", String(options.processes), ...args], env);
      }
    } finally {
      for (const server of servers) expect(await server.stop()).toBe(0);
    }
    const before = earlier === undefined ? "" : readFileSync(earlier.from.logPath, "utf8");
    writeFileSync(logPath, before + logs.map((log) => readFileSync(log, "utf8")).join(""));
    const records = readdirSync(dir)
      .filter((f) => f.startsWith("record.rank"))
      .sort()
      .map((f) => join(dir, f));
    const opener = template === "r1" ? "<think>\n" : "";
    const decoded = (await runProgram(venvPython(), ["test/trainers/decode_record.py", model, opener, ...records]))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Decoded);
    return { log: readJsonl(logPath), logPath, decoded, dir };
  }

  /** A run that several tests check, trained once, by whichever of them runs first. */
  function shared(start: () => Promise<Trained>): () => Promise<Trained> {
    let run: Promise<Trained> | undefined;
    return () => (run ??= start());
  }

  // First attempt of the resume test as well: 4 steps, checkpoints at 2 and 4.
  const chatml = shared(() => train("chatml", "chatml", ["--max-steps", "4", "--save-steps", "2"]));
  // Three component functions, and 4 held-out cases evaluated at step 2.
  const componentsWithEval = shared(() => train("components-eval", "chatml", ["--max-steps", "2", "--components", "--eval-cases", "4", "--eval-steps", "2"]));

  /**
   * Every served line is the text the model wrote, with mari eval's rewards on it, and TRL trained
   * on them (`components`: one reward function per component). A resumed run's records of a step
   * that was generated again are matched to the served lines by attempt.
   */
  async function expectServedAsWritten(run: Trained, components = false): Promise<void> {
    const dump = join(run.dir, "decoded.jsonl");
    writeFileSync(dump, run.decoded.map((d, i) => JSON.stringify({ case_id: d.case_id, run: String(i), completion: d.completion })).join("\n") + "\n");
    const rewards = join(run.dir, "decoded-rewards.jsonl");
    const r = await runMari(["eval", slicePath, "--predictions", dump, "--rewards", rewards, "--out", join(run.dir, "decoded"), "--report", "json", "--quiet"]);
    expect(r.code).toBe(0);
    const want = readJsonl(rewards);
    expect(want).toHaveLength(run.decoded.length);
    // The newest record of each identity (a resumed step is recorded again, later in its file).
    const key = (phase: string, attempt: number, step: number, batch: number, prompt: number, generation: number) =>
      `${phase}/${attempt}/${step}/${batch}/${prompt}/${generation}`;
    const attempts = [...new Set(run.log.map((l) => l.attempt as number))].sort((a, b) => a - b);
    const byKey = new Map<string, number>();
    // Records are in attempt order within each rank's file: the k-th time an identity is recorded is attempt k.
    const seen = new Map<string, number>();
    run.decoded.forEach((d, i) => {
      const base = `${d.phase}/${d.step}/${d.batch}/${Math.floor(d.position / G)}/${d.position % G}`;
      const k = seen.get(base) ?? 0;
      seen.set(base, k + 1);
      byKey.set(key(d.phase, attempts[k]!, d.step, d.batch, Math.floor(d.position / G), d.position % G), i);
    });
    // One served line per completion TRL scored, whatever the number of reward functions.
    expect(run.log).toHaveLength(run.decoded.length);
    for (const line of run.log) {
      const i = byKey.get(key(line.phase, line.attempt, line.step, line.batch ?? 0, line.prompt_index, line.generation));
      expect(i, `served line ${line.request}/${line.item} has a recorded completion`).toBeDefined();
      const d = run.decoded[i!]!;
      expect(line.case_id).toBe(d.case_id);
      expect(line.completion).toBe(d.completion);
      for (const field of FIELDS) expect(line[field], `${field} of ${line.request}/${line.item}`).toEqual(want[i!][field]);
      const trained = components ? [line.accuracy, line.format, line.reference_coverage] : [line.accuracy + line.format + line.reference_coverage];
      expect(d.rewards).toEqual(trained.map((x) => Math.fround(x)));
    }
  }

  /** `mari eval` on the served log: report.json, and the rewards lines it replayed. */
  async function replay(run: Trained, name: string, extra: string[] = []): Promise<any> {
    const out = join(run.dir, name);
    const r = await runMari(["eval", slicePath, "--predictions", run.logPath, "--out", out, "--report", "json", "--quiet", ...extra]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
  }

  const runKeys = (report: any): string[] => Object.keys(report.runs).sort();
  const generations = Array.from({ length: G }, (_, g) => String(g));

  it(
    "ChatML: the tokens as written (no think opener added), runs 0..G-1 over the cases trained on",
    async () => {
      const run = await chatml();
      await expectServedAsWritten(run);
      // A completion that closes a think block it never opened is scored as written.
      const report = await replay(run, "replay");
      expect(runKeys(report)).toEqual(generations);
      // 4 steps x 2 prompts: 8 of the 12 cases, each once; only those are scored.
      expect(report.system.config.serve_replay).toMatchObject({
        phase: "train",
        covered_cases: 8,
        superseded_lines: 0,
        other_phase_lines: 0,
        scored_cases: "covered",
      });
      for (const r of Object.values<any>(report.runs)) expect(r.cases).toBe(8);
      expect(report.rejections.missing_prediction).toBeUndefined();
    },
    TIMEOUT,
  );

  it(
    "an R1-style template (the generation prompt ends with the opener): the opener is the prompt's, given back",
    async () => {
      const run = await train("r1", "r1", ["--max-steps", "2"]);
      await expectServedAsWritten(run);
      expect(run.log.every((l) => l.completion.includes("<think>"))).toBe(true);
      expect(runKeys(await replay(run, "replay"))).toEqual(generations);
    },
    TIMEOUT,
  );

  it(
    "the response-template path (TRL hands over parsed messages): the tokens are scored, not a rebuilt text",
    async () => {
      const run = await train("response-template", "qwen3", ["--max-steps", "2", "--response-template"]);
      await expectServedAsWritten(run);
      expect(runKeys(await replay(run, "replay"))).toEqual(generations);
    },
    TIMEOUT,
  );

  it(
    "three component functions: one request and one log line per completion, each component trained on",
    async () => {
      const run = await componentsWithEval();
      await expectServedAsWritten(run, true);
      expect(runKeys(await replay(run, "replay"))).toEqual(generations);
    },
    TIMEOUT,
  );

  it(
    "evaluation during training: eval lines are their own phase, replayed apart with --phase eval",
    async () => {
      const run = await componentsWithEval();
      await expectServedAsWritten(run, true);
      const evalLines = run.log.filter((l) => l.phase === "eval");
      // One evaluation at step 2 over the 4 held-out cases, G generations each.
      expect(evalLines).toHaveLength(4 * G);
      const trained = await replay(run, "replay-train");
      expect(runKeys(trained)).toEqual(generations);
      expect(trained.system.config.serve_replay).toMatchObject({ other_phase_lines: 4 * G, covered_cases: 4 });
      const evaluation = await replay(run, "replay-eval", ["--phase", "eval"]);
      expect(runKeys(evaluation)).toEqual(generations);
      for (const r of Object.values<any>(evaluation.runs)) expect(r.cases).toBe(4);
    },
    TIMEOUT,
  );

  it(
    "two processes (torchrun, gloo), one mari serve each: a group split over processes replays as runs 0..G-1",
    async () => {
      // 2 completions per process: each prompt's group of 4 spans both processes, and both servers.
      const run = await train("torchrun", "chatml", ["--max-steps", "2", "--per-device-batch", "2"], { processes: 2, servers: 2 });
      for (const i of [0, 1]) expect(readFileSync(join(run.dir, `served-${i}.jsonl`), "utf8")).not.toBe("");
      await expectServedAsWritten(run);
      expect(new Set(run.decoded.map((d) => d.rank))).toEqual(new Set([0, 1]));
      const report = await replay(run, "replay");
      expect(runKeys(report)).toEqual(generations);
      // 2 steps x 1 prompt: 2 cases, each with its 4 generations.
      for (const r of Object.values<any>(report.runs)) expect(r.cases).toBe(2);
    },
    TIMEOUT,
  );

  it(
    "resumed from a checkpoint: the regenerated steps supersede the old ones (newest wins, counted)",
    async () => {
      // The first attempt is the ChatML run (4 steps, checkpoints at 2 and 4); the second resumes
      // from a copy of its checkpoint-2 and trains to step 4 again.
      const run = await train("resume", "chatml", ["--max-steps", "4", "--save-steps", "2", "--resume"], {
        resume: { from: await chatml(), checkpoint: "checkpoint-2" },
      });
      await expectServedAsWritten(run);
      const attempts = new Set(run.log.map((l) => l.attempt));
      expect(attempts.size).toBe(2);
      const report = await replay(run, "replay");
      // Steps 2 and 3 (global_step at generation) were generated twice: 2 steps x 2 prompts x G lines superseded.
      expect(report.system.config.serve_replay).toMatchObject({ superseded_lines: 2 * 2 * G, attempts: 2 });
      expect(runKeys(report)).toEqual(generations);
      expect(report.rejections.duplicate_prediction).toBeUndefined();
    },
    TIMEOUT,
  );
});
