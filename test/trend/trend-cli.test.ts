// `mari trend` as users run it (the built CLI in a child process) on checkpoint reports with known
// numbers: the files, a regression failing --max-drop-from-best (exit 1, JUnit), and the refusals
// (exit 2, never a stack trace).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { classifierConfigFromFlags } from "../../src/index.js";
import { checkpoint, RUN, writeRun, writeSlice } from "./fixture.js";

const { dir, cleanup } = tempDir("mari-trend-cli-");
const reports = join(dir, "reports");

beforeAll(async () => {
  await writeRun(dir);
});

afterAll(cleanup);

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("mari trend", () => {
  it("draws a quoted glob of checkpoint reports, the same way twice", async () => {
    const r = await runMari(["trend", "reports/ckpt-*", "--out", "t1", "--progress", "none"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("mari trend documents: 5 checkpoints (ckpt-100 … ckpt-500), by step");
    // By macro-F1 (the default): ckpt-300 answers every case right, so its bootstrap interval is
    // [1, 1] and no earlier checkpoint lies inside it.
    expect(r.stdout).toContain(
      "Checkpoint to keep: ckpt-300, the best by macro_f1: ckpt-300 (1); no earlier checkpoint qualifies (0 paired and significantly worse, 2 outside the best's interval).",
    );
    const trend = json(join(dir, "t1/trend.json"));
    expect(trend.points.map((p: { name: string }) => p.name)).toEqual(RUN.map(([name]) => name));
    for (const [i, [name]] of RUN.entries()) expect(trend.points[i].values.macro_f1).toBe(json(join(reports, name, "report.json")).metrics.macro_f1);
    expect(readFileSync(join(dir, "t1/trend.md"), "utf8")).toContain("| ckpt-300 | 300 | 1 (best) |");
    expect(readFileSync(join(dir, "t1/trend.html"), "utf8")).toContain("<h2>macro_f1</h2>");
    // The directory itself, the report.json files in another order: the same trend.json.
    const again = await runMari(["trend", ...RUN.map(([name]) => join(reports, name, "report.json")).reverse(), "--out", join(dir, "t2"), "--quiet"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("");
    const other = json(join(dir, "t2/trend.json"));
    expect(other.points.map((p: { path: string }) => p.path)).toEqual(RUN.map(([name]) => join(reports, name, "report.json")));
    expect({ ...other, points: [] }).toEqual({ ...trend, points: [], drop_comparisons: [] });
  });

  it("fails --max-drop-from-best when the last checkpoint regressed from the best (exit 1, JUnit)", async () => {
    const out = join(dir, "gated");
    const r = await runMari([
      "trend",
      reports,
      "--out",
      out,
      "--max-drop-from-best",
      "accuracy=0.02",
      "--gate",
      "accuracy>=0.7",
      "--report",
      "json,junit",
      "--progress",
      "none",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL max_drop_from_best accuracy=0\.02: best ckpt-300, last ckpt-500: 1 → 0\.7500/);
    expect(r.stdout).toContain("pass accuracy>=0.7");
    const junit = readFileSync(join(out, "trend.junit.xml"), "utf8");
    expect(junit).toContain('<testsuites name="mari" tests="2" failures="1" errors="0"');
    expect(junit).toContain('<failure message="gate failed: max_drop_from_best accuracy=0.02');
    const ok = await runMari(["trend", reports, "--out", out, "--max-drop-from-best", "accuracy=0.25", "--quiet"]);
    expect(ok.code).toBe(0);
  });

  it("refuses another slice (exit 2) unless --allow-different-slice", async () => {
    const other = join(dir, "other");
    mkdirSync(other, { recursive: true });
    const slice = writeSlice(other, 30, "alt");
    await checkpoint(join(other, "reports"), slice, "ckpt-600", () => true, 30, "alt");
    const r = await runMari(["trend", reports, join(other, "reports/ckpt-600"), "--out", join(dir, "mixed"), "--progress", "none"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mari: trend: different slices: .*ckpt-600\/report\.json was scored on .*alt-slice\.jsonl \(30 cases.*--allow-different-slice/);
    const allowed = await runMari([
      "trend",
      reports,
      join(other, "reports/ckpt-600"),
      "--out",
      join(dir, "mixed"),
      "--allow-different-slice",
      "--progress",
      "none",
    ]);
    expect(allowed.stderr).toBe("");
    expect(allowed.code).toBe(0);
    expect(json(join(dir, "mixed/trend.json")).same_slice).toBe(false);
    expect(allowed.stdout).toContain("warning: the reports were scored on different slices");
  });

  it("trends pairs and evidence reports, paired the way mari diff pairs them", async () => {
    const pairs = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    // Two classifier configs as two checkpoints (the default gates may fail, reports written), run in
    // this process: the reports are the trend's inputs.
    await runTask({ task: "pairs", pairs }, join(dir, "pairs-run/step100"));
    await runTask({ task: "pairs", pairs, classifierConfig: classifierConfigFromFlags(["overlapFloor=0.6"]) }, join(dir, "pairs-run/step200"));
    const p = await runMari(["trend", join(dir, "pairs-run"), "--out", join(dir, "pairs-trend"), "--max-drop-from-best", "revision_cost=0", "--quiet"]);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    const pt = json(join(dir, "pairs-trend/trend.json"));
    // revision_cost: lower is better, so its best is the lower one.
    const costs = pt.points.map((x: { values: Record<string, number> }) => x.values.revision_cost);
    const series = pt.series.find((s: { metric: string }) => s.metric === "revision_cost");
    expect(series.higher_is_better).toBe(false);
    expect(series.best.value).toBe(Math.min(...costs));
    // The keep comparison is diff's: the same difference and McNemar as `mari diff`.
    const d = await runMari(["diff", join(dir, "pairs-run/step100"), join(dir, "pairs-run/step200"), "--out", join(dir, "pairs-diff"), "--quiet"]);
    expect(d.code).toBe(0);
    const diff = json(join(dir, "pairs-diff/diff.json"));
    expect(pt.keep.best.name).toBe("step200");
    expect(pt.keep.comparisons[0].difference).toBe(-diff.comparison.metrics.macro_f1.difference);
    expect(pt.keep.comparisons[0].mcnemar_p).toBe(diff.comparison.mcnemar.p_value);

    const docs = join(ROOT, "datasets/evidence-example/docs.jsonl");
    const facts = join(ROOT, "datasets/evidence-example/facts.jsonl");
    for (const step of ["step1", "step2"]) {
      await runTask({ task: "evidence", documents: docs, facts }, join(dir, "evidence-run", step));
    }
    const e = await runMari(["trend", join(dir, "evidence-run"), "--out", join(dir, "evidence-trend"), "--max-drop-from-best", "accepted_rate=0", "--quiet"]);
    expect(e.stderr).toBe("");
    expect(e.code).toBe(0);
    const et = json(join(dir, "evidence-trend/trend.json"));
    expect(et.keep.metric).toBe("accepted_rate");
    expect(et.gates[0]).toMatchObject({ name: "max_drop_from_best accepted_rate=0", value: 0, passed: true });
  });

  it("refuses another task, a broken report and a missing step, each with exit 2 and the file", async () => {
    const pairs = join(dir, "pairs", "ckpt-700");
    // The pairs task's default gates may fail; the report is written either way.
    await runTask({ task: "pairs", pairs: join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl") }, pairs);
    const mixed = await runMari(["trend", reports, pairs, "--out", join(dir, "x")]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/trend: .*ckpt-700\/report\.json is a pairs report, .*ckpt-100\/report\.json a documents report/);

    const broken = join(dir, "broken", "ckpt-800");
    cpSync(join(reports, "ckpt-100"), broken, { recursive: true });
    writeFileSync(join(broken, "report.json"), '{"schema_version": "1.1.0",\n');
    const bad = await runMari(["trend", reports, broken, "--out", join(dir, "x"), "--progress", "none"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mari: .*ckpt-800\/report\.json: trend is not valid JSON/);

    const final = join(dir, "named", "final");
    cpSync(join(reports, "ckpt-500"), final, { recursive: true });
    const step = await runMari(["trend", reports, final, "--x", "step", "--out", join(dir, "x")]);
    expect(step.code).toBe(2);
    expect(step.stderr).toContain('its directory name "final" has no step number');
    // Without --x, a name without a step orders every point by name.
    const byName = await runMari(["trend", reports, final, "--out", join(dir, "by-name"), "--quiet"]);
    expect(byName.code).toBe(0);
    expect(json(join(dir, "by-name/trend.json")).x).toBe("name");
    const none = await runMari(["trend", join(dir, "no-such-*"), "--out", join(dir, "x")]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("matches no file or directory");
    // A gate or keep metric that cannot be decided is a usage error, as for eval: never a failed gate.
    const typo = await runMari(["trend", reports, "--gate", "acuracy>=0.5", "--out", join(dir, "x")]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--gate "acuracy>=0\.5": unknown metric "acuracy".*did you mean "accuracy"/);
    const keepBy = await runMari(["trend", reports, "--keep-by", "macro-f1", "--out", join(dir, "x")]);
    expect(keepBy.code).toBe(2);
    expect(keepBy.stderr).toMatch(/--keep-by macro-f1: not a metric compared case by case for documents reports;.*macro_f1/);
    for (const r of [mixed, bad, step, none, typo, keepBy]) expect(r.stderr).not.toContain("internal error");
  });
});
