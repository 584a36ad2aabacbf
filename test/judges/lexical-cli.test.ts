// `mari predict --judge lexical` through the built CLI on the shipped slice.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

describe("mari predict --judge lexical", () => {
  it("writes the same dump every time, to stdout or atomically to --out", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const first = await runMari(["predict", SLICE, "--judge", "lexical"]);
      expect(first.code).toBe(0);
      const out = join(dir, "lexical.jsonl");
      const second = await runMari(["predict", SLICE, "--judge", "lexical", "--out", out]);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe("");
      expect(readFileSync(out, "utf8")).toBe(first.stdout);
      const lines = first.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(160);
      expect(Object.keys(lines[0]).sort()).toEqual(["case_id", "evidence_sentence_ids", "judgment", "reasoning", "run"]);
      const positive = lines.find((l) => l.judgment === true);
      expect(positive.evidence_sentence_ids.length).toBeGreaterThanOrEqual(2);
      expect(positive.reasoning).toMatch(/^\[\d+\] vs \[\d+\]: /);
      expect(first.stderr).toMatch(/160 cases, \d+ judged contradictory/);
    } finally {
      cleanup();
    }
  });

  it("rejects --runs > 1 and a missing slice with exit 2", async () => {
    expect((await runMari(["predict", SLICE, "--judge", "lexical", "--runs", "2"])).code).toBe(2);
    const missing = await runMari(["predict", "no/such/slice.jsonl", "--judge", "lexical"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no/such/slice.jsonl");
    expect((await runMari(["predict", SLICE])).code).toBe(2);
  });
});
