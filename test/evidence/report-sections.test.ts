// report.md of the shipped example shows the evidence sections (claim states, errors by code,
// dependencies, freshness), not only the metrics and rejections. Runs the BUILT CLI.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const EXAMPLE = join(ROOT, "datasets/evidence-example");

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir("mari-evidence-md-")));
afterEach(() => cleanup());

it("report.md of the example has claim states with gold accuracy, errors by code, dependencies and freshness", async () => {
  const out = join(dir, "out");
  const file = (name: string) => join(EXAMPLE, name);
  const r = await runMari([
    "evidence",
    file("docs.jsonl"),
    "--facts",
    file("facts.jsonl"),
    "--current",
    file("current.jsonl"),
    "--out",
    out,
    "--report",
    "json,md",
  ]);
  expect(r.code).toBe(0);
  const md = readFileSync(join(out, "report.md"), "utf8");
  expect(md).toContain("## Claim states");
  expect(md).toContain("| insufficient_evidence | 7 | 0.6364 |");
  expect(md).toMatch(/Accuracy against gold: 1 \[0\.\d{4}, 1\] over 4 claims with a gold state\./);
  expect(md).toContain("## Errors by code");
  expect(md).toMatch(/\| unknown_document \| 1 \| \S*facts\.jsonl:6 \(case "unknown-document"\): facts-extract-v3 references an unknown document \|/);
  expect(md).toContain("## Dependencies");
  expect(md).toContain("4 distinct dependencies cited by accepted cases.");
  expect(md).toContain("Dependency conflicts: none.");
  expect(md).toContain("## Freshness");
  expect(md).toMatch(/\| current \| 2 \|\n\| missing \| 1 \|\n\| stale \| 1 \|/);
});
