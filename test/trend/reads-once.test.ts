// `mari trend` reads the cases.jsonl of each checkpoint it compares once: the best and the last are
// kept for every comparison that uses them (the keep scan, each --max-drop-from-best gate), and
// the other candidates are read once each. Counted on the function every load of cases goes through.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDir } from "../support/cli.js";
import { writeRun } from "./fixture.js";

vi.mock("../../src/gates/side-reader.js", async (original) => {
  const actual = await original<typeof import("../../src/gates/side-reader.js")>();
  return { ...actual, readPairedSide: vi.fn(actual.readPairedSide) };
});

const { dir, cleanup } = tempDir("mari-trend-once-");
beforeAll(async () => {
  await writeRun(dir);
});
afterAll(cleanup);

describe("trendReports reads", () => {
  it("each compared checkpoint's cases once, however many comparisons use it", async () => {
    // The suite shares modules between files: load them afresh so that they see the mock.
    vi.resetModules();
    const sideReader = await import("../../src/gates/side-reader.js");
    const { parseMaxDropFlag, trendReports } = await import("../../src/index.js");
    const read = vi.mocked(sideReader.readPairedSide);
    read.mockClear();
    const { trend } = await trendReports({
      inputs: [join(dir, "reports")],
      // Kept by a metric whose best (ckpt-100) is not the gates' best (ckpt-300).
      keepBy: "format_valid_rate",
      gates: [parseMaxDropFlag("accuracy=0.02"), parseMaxDropFlag("accuracy=0.3"), parseMaxDropFlag("macro_f1=0.3")],
    });
    const paths = read.mock.calls.map(([path]) => path);
    expect(new Set(paths).size).toBe(paths.length);
    // ckpt-100 is the first point: nothing before it to pair, but as the keep's best it is checked
    // against its cases. The gates pair the last with ckpt-300.
    expect(trend.keep!.comparisons).toEqual([]);
    expect(paths.map((p) => p.split("/").at(-2)).sort()).toEqual(["ckpt-100", "ckpt-300", "ckpt-500"]);
    expect(trend.drop_comparisons.map((d) => d.best.name)).toEqual(["ckpt-300", "ckpt-300", "ckpt-300"]);
  });
});
