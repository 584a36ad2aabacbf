// `mari eval SLICE` with no --predictions: the built-in lexical judge runs offline, its dump lands
// next to the report, and every report format says the predictions come from a baseline.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

describe("mari eval without --predictions", () => {
  it("runs the lexical judge and evaluates its dump exactly as a user-supplied dump", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const auto = join(dir, "auto");
      const r = await runMari(["eval", SLICE, "--out", auto, "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("built-in lexical judge");
      const report = JSON.parse(readFileSync(join(auto, "report.json"), "utf8"));
      expect(report.system.judge).toBe("lexical");
      expect(report.system.judge_note).toMatch(/baseline/);
      expect(readFileSync(join(auto, "report.md"), "utf8")).toContain(report.system.judge_note);
      expect(readFileSync(join(auto, "report.junit.xml"), "utf8")).toContain('name="judge" value="lexical"');
      expect(readFileSync(join(auto, "report.html"), "utf8")).toMatch(/baseline/);

      // The same dump handed in by a user gives the same metrics and per-case lines.
      const dump = join(auto, "lexical.predictions.jsonl");
      const manual = join(dir, "manual");
      const m = await runMari(["eval", SLICE, "--predictions", dump, "--out", manual, "--progress", "none"]);
      expect(m.code, m.stderr).toBe(0);
      const manualReport = JSON.parse(readFileSync(join(manual, "report.json"), "utf8"));
      expect(manualReport.metrics).toEqual(report.metrics);
      expect(manualReport.system.judge).toBeNull();
      expect(readFileSync(join(manual, "cases.jsonl"), "utf8")).toBe(readFileSync(join(auto, "cases.jsonl"), "utf8"));
      expect(report.dataset.cases).toBe(160);
    } finally {
      cleanup();
    }
  });
});
