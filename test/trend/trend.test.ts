// `trendReports` in process on checkpoint reports made by the real evaluateDocuments: every point
// is its report's own numbers, the best and the kept checkpoint are the ones a hand computation
// gives, only the reports a comparison needs have their cases read, and the published schema holds.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TREND_JSON_SCHEMA, validateTrend } from "../../src/report/trend-schema.js";
import { renderTrendJson } from "../../src/tasks/trend/render.js";
import { parseMaxDropFlag, trendReports } from "../../src/index.js";
import { ROOT, tempDir } from "../support/cli.js";
import { CASES, RUN, writeRun } from "./fixture.js";

const { dir, cleanup } = tempDir("mari-trend-");
const reports = join(dir, "reports");

beforeAll(async () => {
  await writeRun(dir);
});

afterAll(cleanup);

/** Accuracy of a checkpoint of RUN, counted by hand. */
function accuracy(right: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < CASES; i++) if (right(i)) n++;
  return n / CASES;
}

describe("trendReports", () => {
  it("makes each point of its report's own numbers, ordered by step", async () => {
    const { trend } = await trendReports({ inputs: [reports] });
    expect(trend.x).toBe("step");
    expect(trend.points.map((p) => p.name)).toEqual(RUN.map(([name]) => name));
    expect(trend.points.map((p) => p.step)).toEqual([100, 200, 300, 400, 500]);
    expect(trend.series.map((s) => s.metric)).toEqual([
      "accuracy",
      "macro_f1",
      "localization_recall",
      "format_valid_rate",
      "reference_coverage_mean",
      "reward_accuracy_mean",
      "reward_format_mean",
    ]);
    for (const [i, [name, right]] of RUN.entries()) {
      const report = JSON.parse(readFileSync(join(reports, name, "report.json"), "utf8"));
      const point = trend.points[i]!;
      expect(point.values["accuracy"]).toBe(accuracy(right));
      for (const s of trend.series) expect(point.values[s.metric]).toBe(report.metrics[s.metric]);
      for (const [metric, ci] of Object.entries(point.ci)) expect(ci).toEqual(report.ci[metric]);
      expect(Object.keys(point.ci).sort()).toEqual(
        Object.keys(report.ci)
          .filter((m) => trend.series.some((s) => s.metric === m))
          .sort(),
      );
      expect(point.dataset.slice_hash).toBe(report.dataset.slice_hash);
    }
    expect(validateTrend(JSON.parse(renderTrendJson(trend)))).toEqual([]);
  });

  it("keeps the earliest checkpoint not significantly worse than the best, as computed by hand", async () => {
    const screened = (await trendReports({ inputs: [reports], keepBy: "accuracy", seed: 0, bootstrap: 1000 })).trend.keep!;
    const everyOne = (await trendReports({ inputs: [reports], keepBy: "accuracy", seed: 0, bootstrap: 1000, pairedScan: true })).trend.keep!;
    // Best by hand: the highest accuracy, the earliest on a tie.
    const values = RUN.map(([, right]) => accuracy(right));
    const bestIndex = values.indexOf(Math.max(...values));
    expect(bestIndex).toBe(2);
    for (const keep of [screened, everyOne]) expect(keep.best).toEqual({ index: 2, name: "ckpt-300", value: 1 });
    // The screen: the best's own accuracy interval is Wilson's, at 40 of 40 right [n/(n+z²), 1].
    const z = 1.959963984540054;
    const low = CASES / (CASES + z * z);
    expect(screened.screen.interval!.low).toBeCloseTo(low, 12);
    expect(screened.screen.interval!.high).toBe(1);
    const inside = RUN.slice(0, bestIndex).map((_, i) => values[i]! >= low);
    expect(inside).toEqual([false, true]);
    // Each earlier checkpoint is wrong on k cases the best gets right and right wherever the best
    // is, so a paired resample's difference is ≤ 0, and exactly 0 when it draws none of the k
    // cases: probability ((n − k)/n)^n. The interval's upper end is below 0 (significantly worse)
    // exactly when that probability is under 2.5%; the figures are far from 2.5%, so 1,000
    // resamples cannot land on the other side.
    const expected = RUN.slice(0, bestIndex).map(([name, right]) => {
      let k = 0;
      for (let i = 0; i < CASES; i++) if (!right(i)) k++;
      const zero = ((CASES - k) / CASES) ** CASES;
      expect(zero < 0.005 || zero > 0.1).toBe(true);
      return { name, k, worse: zero < 0.025 };
    });
    expect(expected).toEqual([
      { name: "ckpt-100", k: 20, worse: true },
      { name: "ckpt-200", k: 2, worse: false },
    ]);
    // Kept: the earliest not significantly worse, among those inside the interval (screened) or all.
    const kept = expected.find((c, i) => inside[i] && !c.worse)!;
    expect(kept.name).toBe(expected.find((c) => !c.worse)!.name);
    for (const keep of [screened, everyOne]) expect(keep.kept).toEqual({ index: 1, name: kept.name, value: 0.95 });
    expect(screened.screen.skipped).toBe(1);
    expect(screened.comparisons.map((c) => [c.name, c.significantly_worse])).toEqual([["ckpt-200", false]]);
    expect(everyOne.screen).toEqual({ interval: null, skipped: 0 });
    expect(everyOne.comparisons.map((c) => [c.name, c.significantly_worse])).toEqual([
      ["ckpt-100", true],
      ["ckpt-200", false],
    ]);
    const c200 = screened.comparisons[0]!;
    expect(everyOne.comparisons[1]).toEqual(c200);
    expect(c200.difference).toBeCloseTo(-2 / CASES, 12);
    expect(c200.high).toBe(0);
    expect(c200.matched_cases).toBe(CASES);
    // McNemar on 2 discordant cases, both the best's: p = 2 · (1/2)^2.
    expect(c200.mcnemar_p).toBeCloseTo(0.5, 12);
  });

  it("reads the cases of only the reports a comparison needs", async () => {
    // The scan stops at ckpt-200, and without gates the later checkpoints are never paired: their
    // cases.jsonl may be gone.
    const copy = tempDir("mari-trend-partial-");
    try {
      await writeRun(copy.dir);
      for (const name of ["ckpt-400", "ckpt-500"]) rmSync(join(copy.dir, "reports", name, "cases.jsonl"));
      const { trend } = await trendReports({ inputs: [join(copy.dir, "reports")], keepBy: "accuracy", pairedScan: true });
      expect(trend.keep!.kept.name).toBe("ckpt-200");
      // With the screen, ckpt-100 (outside the best's interval) needs no cases either.
      rmSync(join(copy.dir, "reports", "ckpt-100", "cases.jsonl"));
      expect((await trendReports({ inputs: [join(copy.dir, "reports")], keepBy: "accuracy" })).trend.keep!.kept.name).toBe("ckpt-200");
      // A gate on the last point against the best needs ckpt-500's cases: a precise input error.
      await expect(trendReports({ inputs: [join(copy.dir, "reports")], keepBy: "accuracy", gates: [parseMaxDropFlag("accuracy=0.02")] })).rejects.toThrow(
        /trend ckpt-500 .*ckpt-500\/report\.json: the per-case results .*cases\.jsonl are missing/,
      );
    } finally {
      copy.cleanup();
    }
  });

  it("compares the last point with the best, paired, for --max-drop-from-best", async () => {
    const { trend } = await trendReports({ inputs: [reports], gates: [parseMaxDropFlag("accuracy=0.02"), parseMaxDropFlag("accuracy=0.3")] });
    expect(trend.gates.map((g) => [g.name, g.passed])).toEqual([
      ["max_drop_from_best accuracy=0.02", false],
      ["max_drop_from_best accuracy=0.3", true],
    ]);
    // ckpt-500 misses cases 0-9, the best none: a drop of 10/40.
    expect(trend.gates[0]!.value).toBeCloseTo(0.25, 12);
    expect(trend.drop_comparisons[0]!.best.name).toBe("ckpt-300");
    expect(trend.drop_comparisons[0]!.comparison.mcnemar).toMatchObject({ baseline_only: 10, current_only: 0 });
  });

  it("orders by the report files' times with --x time, and records them", async () => {
    const { trend } = await trendReports({ inputs: [reports], x: "time" });
    expect(trend.x).toBe("time");
    const times = trend.points.map((p) => Date.parse(p.time!));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(validateTrend(JSON.parse(renderTrendJson(trend)))).toEqual([]);
  });

  it("is published, in step with its definition, at schema/trend.schema.json", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "schema/trend.schema.json"), "utf8"))).toEqual(TREND_JSON_SCHEMA);
  });
});
