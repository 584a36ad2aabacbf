import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_JSON_SCHEMA, validateReport } from "../../src/report/schema.js";
import { ROOT } from "../support/cli.js";
import { fixtureReport } from "./fixture.js";

describe("report schema", () => {
  it("accepts a complete report and one with only the required keys", () => {
    expect(validateReport(fixtureReport())).toEqual([]);
    const minimal = fixtureReport();
    for (const key of ["spread", "breakdowns", "setcons", "majority", "orphans", "invalid"] as const) delete minimal[key];
    expect(validateReport({ ...minimal, predictions: null, task_extra: { anything: 1 } })).toEqual([]);
  });

  it("survives a JSON round trip (what scripts read back)", () => {
    expect(validateReport(JSON.parse(JSON.stringify(fixtureReport())))).toEqual([]);
  });

  it("rejects a bad report and says where", () => {
    const bad = { ...fixtureReport(), task: "poems", metrics: { accuracy: "high" }, gates: [{ name: "x" }] } as unknown;
    const errors = validateReport(bad);
    expect(errors.some((e) => e.startsWith("task:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("metrics.accuracy:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("gates.0.passed:"))).toBe(true);
    expect(validateReport(null)).toHaveLength(1);
    const { elapsed_seconds: _, ...missing } = fixtureReport();
    expect(validateReport(missing)).toEqual([expect.stringMatching(/^elapsed_seconds:/)]);
    expect(validateReport({ ...fixtureReport(), dataset: { ...fixtureReport().dataset, sha256: "xyz" } })[0]).toMatch(/^dataset.sha256:/);
  });

  it("is published, in step with its definition, at schema/report.schema.json", () => {
    const published = JSON.parse(readFileSync(join(ROOT, "schema/report.schema.json"), "utf8"));
    expect(published).toEqual(REPORT_JSON_SCHEMA);
    expect(published.required).toEqual(expect.arrayContaining(["schema_version", "task", "metrics", "runs", "ci", "gates", "rejections"]));
  });
});
