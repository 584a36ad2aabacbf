// sweep.json has its own published schema (schema/sweep.schema.json): a real sweep conforms to it,
// the published file is in step with its definition, and a sweep.json is not taken for a report.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateReport } from "../../src/report/schema.js";
import { SWEEP_JSON_SCHEMA, validateSweep } from "../../src/report/sweep-schema.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

describe("sweep.json schema", () => {
  it("a full-grid sweep conforms; the published schema matches its definition", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const r = await runMari(["sweep", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--grid", "full", "--out", dir, "--progress", "none", "--quiet"]);
      expect([0, 1]).toContain(r.code);
      const sweep = JSON.parse(readFileSync(join(dir, "sweep.json"), "utf8"));
      expect(validateSweep(sweep)).toEqual([]);
      expect(validateReport(sweep).length).toBeGreaterThan(0);
      expect(validateSweep({ ...sweep, rows: [{ ...sweep.rows[0], passed: "yes" }] })).toEqual([expect.stringContaining("rows.0.passed")]);
      // The Markdown names the plot's files instead of embedding an image a job summary cannot show.
      const md = readFileSync(join(dir, "report.md"), "utf8");
      expect(md).not.toContain("](pareto.svg)");
      expect(md).toContain("pareto.svg");
    } finally {
      cleanup();
    }
  });

  it("is published at schema/sweep.schema.json", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "schema/sweep.schema.json"), "utf8"))).toEqual(SWEEP_JSON_SCHEMA);
  });
});
