#!/usr/bin/env node
// A long real GRPO run (TRL's GRPOTrainer through examples/trl_grpo.py, the tiny seeded policy of
// test/trainers/make_tiny_model.py, CPU) against the built `mari serve`, then every served item
// checked against the text the model wrote: the completion decoded from the trainer's own token ids
// with special tokens kept (test/trainers/decode_record.py) and scored by `mari eval --rewards`.
// Counts the two mismatch classes (the served completion is not the text written; the served
// rewards are not mari eval's on it), the rewards TRL trained on that differ from the served ones,
// and what the replay of the log gives.
//   node bench/trl-run.mjs [--steps 100] [--template qwen3|chatml|r1] [--cases 16] [--prompts-per-step 1]
//     [--max-completion-length 32] [--keep DIR]   (--keep: work there, and reuse a policy built there before)
//   node bench/trl-run.mjs --keep DIR --compare-only   (only the checks, on what a run in DIR left: a stopped run's steps)
//   (qwen3 runs with --response-template: TRL hands over parsed messages)
// Writes bench/results/trl-run.json. Needs a build and the Python virtualenv (.venv).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { flag, ROOT } from "./lib/measure.mjs";
import { startServeChild } from "./lib/serve-child.mjs";

const STEPS = flag("--steps", 100);
const CASES = flag("--cases", 16);
const PROMPTS = flag("--prompts-per-step", 1);
const LENGTH = flag("--max-completion-length", 32);
const G = 4;
const at = process.argv.indexOf("--template");
const TEMPLATE = at >= 0 ? process.argv[at + 1] : "qwen3";
const keepAt = process.argv.indexOf("--keep");
const WORK = keepAt >= 0 ? process.argv[keepAt + 1] : mkdtempSync(join(tmpdir(), "mari-trl-run-"));
mkdirSync(WORK, { recursive: true });
const PYTHON = join(ROOT, ".venv/bin/python");
const OFFLINE = { HF_HUB_OFFLINE: "1", TRANSFORMERS_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };
const MARI = [process.execPath, join(ROOT, "bin/mari.js")];

function run(program, args, env = {}) {
  const r = spawnSync(program, args, { cwd: ROOT, env: { ...process.env, ...OFFLINE, ...env }, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${program} ${args.join(" ")} failed (${r.status}):\n${r.stderr.slice(-4000)}`);
  return r.stdout;
}

function runAsync(program, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: ROOT, env: { ...process.env, ...OFFLINE, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-8000)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (${code}):\n${stderr}`))));
  });
}

const jsonl = (path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

// The slice: the contradoc-160 cases with the shortest documents (short prompts keep CPU steps short).
const slicePath = join(WORK, "slice.jsonl");
const decodedSteps = () => new Set(jsonl(served).map((l) => l.step)).size;
const lines = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l !== "");
const shortest = lines
  .map((l) => ({ l, n: JSON.parse(l).text.length }))
  .sort((a, b) => a.n - b.n)
  .slice(0, CASES);
writeFileSync(slicePath, `${shortest.map((x) => x.l).join("\n")}\n`);

const COMPARE_ONLY = process.argv.includes("--compare-only");
const started = Date.now();
const models = join(WORK, "models");
if (!existsSync(join(models, TEMPLATE, "config.json"))) run(PYTHON, ["test/trainers/make_tiny_model.py", "--slice", slicePath, "--out", models]);
const model = join(models, TEMPLATE);
const served = join(WORK, "served.jsonl");
const record = join(WORK, "record");
if (!COMPARE_ONLY) await train();
const trainSeconds = (Date.now() - started) / 1000;

async function train() {
  rmSync(served, { force: true });
  for (const f of readdirSync(WORK)) if (f.startsWith("record.rank")) rmSync(join(WORK, f));
  const server = await startServeChild(slicePath, ["--log", served, "--log-predictions"]);
  try {
    await runAsync(
      PYTHON,
      [
        "examples/trl_grpo.py",
        "--model",
        model,
        "--slice",
        slicePath,
        "--out",
        join(WORK, "out"),
        "--max-steps",
        String(STEPS),
        "--num-generations",
        String(G),
        "--prompts-per-step",
        String(PROMPTS),
        "--max-completion-length",
        String(LENGTH),
        "--record",
        record,
        ...(TEMPLATE === "qwen3" ? ["--response-template"] : []),
      ],
      { MARI_URL: `http://127.0.0.1:${server.port}`, MARI: MARI.join(" ") },
    );
  } finally {
    await server.stop();
  }
}

// The text the model wrote, and mari eval's rewards on it.
const opener = TEMPLATE === "r1" ? "<think>\n" : "";
const records = readdirSync(WORK)
  .filter((f) => f.startsWith("record.rank"))
  .map((f) => join(WORK, f));
const decoded = run(PYTHON, ["test/trainers/decode_record.py", model, opener, ...records])
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => JSON.parse(l));
const dump = join(WORK, "decoded.jsonl");
writeFileSync(dump, decoded.map((d, i) => JSON.stringify({ case_id: d.case_id, run: String(i), completion: d.completion })).join("\n") + "\n");
const rewardsPath = join(WORK, "decoded-rewards.jsonl");
run(MARI[0], [
  MARI[1],
  "eval",
  slicePath,
  "--predictions",
  dump,
  "--rewards",
  rewardsPath,
  "--out",
  join(WORK, "decoded-report"),
  "--report",
  "json",
  "--quiet",
]);
const evalRewards = jsonl(rewardsPath);

const key = (phase, step, batch, prompt, generation) => `${phase}/${step}/${batch}/${prompt}/${generation}`;
const byIdentity = new Map(decoded.map((d, i) => [key(d.phase, d.step, d.batch, Math.floor(d.position / G), d.position % G), i]));
const log = jsonl(served);
const counts = { served: log.length, written: decoded.length, unmatched: 0, text_mismatch: 0, reward_mismatch: 0, trained_reward_mismatch: 0, format_valid: 0 };
const FIELDS = ["accuracy", "reference_coverage", "format", "format_valid", "reason"];
for (const line of log) {
  const i = byIdentity.get(key(line.phase, line.step, line.batch ?? 0, line.prompt_index, line.generation));
  if (i === undefined) {
    counts.unmatched++;
    continue;
  }
  const want = evalRewards[i];
  if (line.completion !== decoded[i].completion) counts.text_mismatch++;
  if (FIELDS.some((f) => line[f] !== want[f])) counts.reward_mismatch++;
  const sum = line.accuracy + line.format + line.reference_coverage;
  if (Math.fround(sum) !== decoded[i].rewards[0]) counts.trained_reward_mismatch++;
  if (line.format_valid) counts.format_valid++;
}

// The replay: mari eval on the served log itself.
const replayOut = join(WORK, "replay");
run(MARI[0], [MARI[1], "eval", slicePath, "--predictions", served, "--out", replayOut, "--report", "json", "--quiet"]);
const report = JSON.parse(readFileSync(join(replayOut, "report.json"), "utf8"));

const result = {
  command: COMPARE_ONLY
    ? `node bench/trl-run.mjs --keep DIR --compare-only (after a run in DIR stopped before its last step)`
    : `node bench/trl-run.mjs --steps ${STEPS} --template ${TEMPLATE} --cases ${CASES} --prompts-per-step ${PROMPTS} --max-completion-length ${LENGTH}`,
  date: new Date().toISOString().slice(0, 10),
  load_average: loadavg().map((x) => Math.round(x * 10) / 10),
  steps: COMPARE_ONLY ? decodedSteps() : STEPS,
  ...(COMPARE_ONLY ? { stopped_early: true } : {}),
  template: TEMPLATE,
  response_template: TEMPLATE === "qwen3",
  num_generations: G,
  prompts_per_step: PROMPTS,
  max_completion_length: LENGTH,
  ...(COMPARE_ONLY ? {} : { wall_seconds: Math.round(trainSeconds) }),
  counts,
  replay: {
    runs: Object.keys(report.runs).length,
    cases_per_run: [...new Set(Object.values(report.runs).map((r) => r.cases))],
    serve_replay: report.system.config.serve_replay ?? null,
    rejections: report.rejections,
  },
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/trl-run.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
if (keepAt < 0) rmSync(WORK, { recursive: true, force: true });
