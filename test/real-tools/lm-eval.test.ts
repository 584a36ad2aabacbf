// A real lm-evaluation-harness run (lm_eval's own CLI from the suite's virtualenv, with the canned
// model of test/real-tools/lm_eval_mari.py, which needs no download) over a mari slice, through the
// task YAML docs/judges.md shows: its --log_samples file is read as a dump and scores exactly as
// the JSONL dump a plain conversion of it gives (case id = doc.id, run = the repeat, or
// FILTER/REPEAT with two filters); its results_*.json is refused, naming the samples file.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { comparableReport } from "../support/comparable-report.js";
import { realToolsRequired, venvPython } from "../support/python.js";
import { scaled } from "../support/time-limits.js";

const tmp = tempDir("mari-lm-eval-");
afterAll(() => tmp.cleanup());
const file = (name: string) => join(tmp.dir, name);
let outputDir = "";
const outputFile = (prefix: string) => join(outputDir, readdirSync(outputDir).find((n) => n.startsWith(prefix))!);

/** The plain conversion of a samples file: one JSONL line per response, the answer's JSON fields or the tagged completion. */
function convert(samplesPath: string): string {
  const samples = readFileSync(samplesPath, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { doc: { id: string }; filter: string; resps: string[][]; filtered_resps: unknown[] });
  const filters = new Set(samples.map((s) => s.filter));
  const lines: string[] = [];
  for (const s of samples) {
    const raw = s.resps.flat();
    const filtered = s.filtered_resps.flat() as string[];
    (filtered.length === raw.length ? filtered : raw).forEach((answer, i) => {
      const head = { case_id: s.doc.id, run: filters.size > 1 ? `${s.filter}/${i}` : String(i) };
      lines.push(JSON.stringify(answer.startsWith("<think>") ? { ...head, completion: answer } : { ...head, ...JSON.parse(answer) }));
    });
  }
  return `${lines.join("\n")}\n`;
}

/** report.json without the paths, hashes and the --id-field flag that only one side was given. */
function comparable(dir: string): unknown {
  const report = comparableReport(dir) as { system: { config: Record<string, unknown> }; rejection_examples: { where: string }[] };
  delete report.system.config.id_field;
  report.rejection_examples = report.rejection_examples.map((e) => ({ ...e, where: e.where.replace(/^.*:(\d+)$/, "line $1") }));
  return report;
}

describe.runIf(realToolsRequired())("an lm-evaluation-harness --log_samples file", () => {
  beforeAll(() => {
    const slice = file("slice.jsonl");
    writeFileSync(slice, readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 24).join("\n") + "\n");
    const tasks = file("tasks");
    mkdirSync(tasks);
    // The task YAML of docs/judges.md, for this slice.
    const doc = readFileSync(join(ROOT, "docs/judges.md"), "utf8");
    const yaml = /```yaml\n(task: mari_contradoc\n[\s\S]*?)```/.exec(doc)?.[1];
    if (yaml === undefined) throw new Error("docs/judges.md has no lm-eval task YAML starting `task: mari_contradoc`");
    writeFileSync(join(tasks, "mari_contradoc.yaml"), yaml.replace("path/to/slice.jsonl", slice));
    // The same task with two filters that each keep every repeat.
    writeFileSync(
      join(tasks, "mari_contradoc_filters.yaml"),
      "include: mari_contradoc.yaml\ntask: mari_contradoc_filters\nfilter_list:\n" +
        ["strip", "again"].map((name) => `  - name: ${name}\n    filter:\n      - function: remove_whitespace\n`).join(""),
    );
    const home = file("home");
    const run = spawnSync(
      venvPython(),
      [
        join(ROOT, "test/real-tools/lm_eval_mari.py"),
        "--model",
        "mari-canned",
        "--tasks",
        "mari_contradoc,mari_contradoc_filters",
        "--include_path",
        tasks,
        "--log_samples",
        "--output_path",
        file("lm-out"),
      ],
      {
        encoding: "utf8",
        timeout: scaled(400_000),
        env: { ...process.env, HOME: home, HF_HOME: join(home, "hf"), HF_DATASETS_OFFLINE: "1", HF_HUB_OFFLINE: "1", TOKENIZERS_PARALLELISM: "false" },
      },
    );
    if (run.status !== 0) throw new Error(`lm_eval failed (${run.status}): ${run.stderr.slice(-3000)}`);
    const [modelDir] = readdirSync(file("lm-out"));
    outputDir = join(file("lm-out"), modelDir!);
  }, scaled(500_000));

  // The samples files are samples_<task>_<date>.jsonl, the date starting with the year's 2.
  for (const [task, prefix] of [
    ["mari_contradoc", "samples_mari_contradoc_2"],
    ["mari_contradoc_filters", "samples_mari_contradoc_filters_"],
  ] as const) {
    it(
      `${task}: scores as its plain conversion`,
      async () => {
        const samples = outputFile(prefix);
        const twin = file(`${task}.twin.jsonl`);
        writeFileSync(twin, convert(samples));
        const slice = file("slice.jsonl");
        const a = await runMari(["eval", slice, "--predictions", samples, "--id-field", "id", "--out", file(`${task}-out`), "--report", "json", "--quiet"]);
        expect(a.code, a.stderr).toBe(0);
        const b = await runMari(["eval", slice, "--predictions", twin, "--out", file(`${task}-twin`), "--report", "json", "--quiet"]);
        expect(b.code, b.stderr).toBe(0);
        expect(comparable(file(`${task}-out`))).toEqual(comparable(file(`${task}-twin`)));
        expect(readFileSync(file(`${task}-out/cases.jsonl`), "utf8")).toBe(readFileSync(file(`${task}-twin/cases.jsonl`), "utf8"));
        const report = JSON.parse(readFileSync(file(`${task}-out/report.json`), "utf8"));
        expect([...report.predictions.runs].sort()).toEqual(
          task === "mari_contradoc" ? ["0", "1", "2"] : ["again/0", "again/1", "again/2", "strip/0", "strip/1", "strip/2"],
        );
        expect(report.dataset.cases).toBe(24);
      },
      scaled(600_000),
    );
  }

  it("its results_*.json is refused, naming the samples files beside it", async () => {
    const results = outputFile("results_");
    const r = await runMari(["eval", file("slice.jsonl"), "--predictions", results, "--out", file("results-out"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("this is lm-evaluation-harness's results file");
    expect(r.stderr).toContain(outputFile("samples_mari_contradoc_2"));
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
