// The edges of the flags that decide what is scored and what passes: a shard index equal to the
// count, negative rates and percentages, and `--bootstrap 0` against a baseline (no resample is
// drawn, so each paired difference's interval collapses onto the difference itself, not onto 0).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveShard } from "../../src/cli/shard.js";
import { InputError } from "../../src/io/errors.js";
import { parseMaxDropFlag, parseMaxInvalidRate } from "../../src/gates/spec.js";
import { evaluateDocuments } from "../../src/tasks/document/evaluate.js";
import { ROOT, tempDir } from "../support/cli.js";

describe("--shard I/N", () => {
  it.each(["4/4", "5/4", "1/0", "0/0", "-1/4", "1/4/2", "a/4"])("%s is refused", (text) => {
    expect(() => resolveShard(text, undefined, {})).toThrow(InputError);
  });
  it.each([
    ["0/1", 0, 1],
    ["3/4", 3, 4],
    [" 0/4 ", 0, 4],
  ] as const)("%s is shard %i of %i", (text, index, count) => {
    expect(resolveShard(text, undefined, {})).toEqual({ index, count });
  });
  it("auto: an index equal to the count is refused, from Kubernetes or Slurm", () => {
    expect(() => resolveShard("auto", "4", { JOB_COMPLETION_INDEX: "4" })).toThrow(/index 4 is not below the shard count 4/);
    expect(resolveShard("auto", "4", { JOB_COMPLETION_INDEX: "3" })).toEqual({ index: 3, count: 4 });
    expect(() => resolveShard("auto", undefined, { SLURM_ARRAY_TASK_ID: "5", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" })).toThrow(
      /index 4 is not below the shard count 4/,
    );
    expect(resolveShard("auto", undefined, { SLURM_ARRAY_TASK_ID: "4", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" })).toEqual({
      index: 3,
      count: 4,
    });
  });
});

describe("--max-invalid-rate and --max-drop refuse negative and out-of-range values", () => {
  it.each(["rate:-0.1", "-5%", "-0.1", "rate:1.1", "101%", "count:-1", "count:1.5", "2.5"])("--max-invalid-rate %s is refused", (text) => {
    expect(() => parseMaxInvalidRate(text)).toThrow(InputError);
  });
  it.each([
    ["rate:0", 0, false],
    ["0%", 0, false],
    ["100%", 1, false],
    ["rate:1", 1, false],
    ["count:0", 0, true],
    ["2", 2, true],
  ] as const)("--max-invalid-rate %s is threshold %s (count: %s)", (text, threshold, isCount) => {
    expect(parseMaxInvalidRate(text)).toMatchObject({ threshold, isCount });
  });
  it("--max-drop takes 0 and refuses a negative drop", () => {
    expect(parseMaxDropFlag("accuracy=0")).toMatchObject({ threshold: 0 });
    expect(() => parseMaxDropFlag("accuracy=-0.01")).toThrow(InputError);
  });
});

describe("a baseline compared with --bootstrap 0, and with itself", () => {
  const { dir, cleanup } = tempDir("mari-flag-edges-");
  const slicePath = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
  const cases = readFileSync(slicePath, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; label: boolean });
  // `right(i)` says which cases the dump judges right (citing sentence 1 when it says positive).
  const dumpOf = (name: string, right: (i: number) => boolean): string => {
    const path = join(dir, name);
    const lines = cases.map((c, i) => {
      const judgment = right(i) ? c.label : !c.label;
      return JSON.stringify({ case_id: c.id, judgment, evidence_sentence_ids: judgment ? [1] : [] });
    });
    writeFileSync(path, lines.join("\n") + "\n");
    return path;
  };
  let basePath: string;
  beforeAll(async () => {
    basePath = join(dir, "base");
    await evaluateDocuments({ slicePath, dumpPath: dumpOf("base.jsonl", (i) => i % 2 === 0), outDir: basePath, workers: 1, formats: ["json"] });
  });
  afterAll(cleanup);

  it("--bootstrap 0: every paired interval is [difference, difference], the difference not 0", async () => {
    const outcome = await evaluateDocuments({
      slicePath,
      dumpPath: dumpOf("better.jsonl", (i) => i % 4 !== 1),
      outDir: join(dir, "no-bootstrap"),
      workers: 1,
      bootstrap: 0,
      baselinePath: join(basePath, "report.json"),
      formats: ["json"],
    });
    const comparison = outcome.report.baseline!;
    expect(comparison.resamples).toBe(0);
    expect(comparison.metrics["accuracy"]!.difference).toBeCloseTo(0.25, 12);
    for (const [name, d] of Object.entries(comparison.metrics)) {
      expect(d.difference, name).toBeCloseTo(d.current - d.baseline, 12);
      expect([d.low, d.high], name).toEqual([d.difference, d.difference]);
    }
    expect(outcome.report.ci.macro_f1).toBeUndefined();
  });

  it("an identical baseline: every difference is 0 and --max-drop METRIC=0 passes", async () => {
    const metrics = ["accuracy", "macro_f1", "localization_recall", "exact_localization", "format_valid_rate", "reward_accuracy_mean"];
    const outcome = await evaluateDocuments({
      slicePath,
      dumpPath: dumpOf("same.jsonl", (i) => i % 2 === 0),
      outDir: join(dir, "same"),
      workers: 1,
      baselinePath: join(basePath, "report.json"),
      gates: metrics.map((m) => parseMaxDropFlag(`${m}=0`)),
      formats: ["json"],
    });
    const comparison = outcome.report.baseline!;
    for (const [name, d] of Object.entries(comparison.metrics)) expect([d.difference, d.low, d.high], name).toEqual([0, 0, 0]);
    expect(outcome.report.gates.map((g) => [g.name, g.value, g.passed])).toEqual(metrics.map((m) => [`max_drop ${m}=0`, 0, true]));
  });
});
