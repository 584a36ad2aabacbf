// The project's own pair corpus: well-formed, original, and the classifier's verdicts on it frozen
// as a regression fixture (regenerate with `mari classify` only after a deliberate change).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classify } from "../../src/core/classifier/index.js";
import { ROOT } from "../support/cli.js";

const DIR = join(ROOT, "datasets/memory-pairs");
const readJsonl = (name: string): Record<string, string>[] =>
  readFileSync(join(DIR, name), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

describe("datasets/memory-pairs/mari-pairs.jsonl", () => {
  const pairs = readJsonl("mari-pairs.jsonl");

  it("has at least 150 labelled pairs with unique ids across several domains", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(150);
    expect(new Set(pairs.map((p) => p.id)).size).toBe(pairs.length);
    for (const p of pairs) {
      expect(typeof p.new).toBe("string");
      expect(typeof p.old).toBe("string");
      expect(["restatement", "update", "distinct"]).toContain(p.gold);
      expect(["value", "polarity"]).toContain(p.kind);
    }
    expect(new Set(pairs.map((p) => p.domain)).size).toBeGreaterThanOrEqual(6);
    const golds = new Set(pairs.map((p) => p.gold));
    expect(golds.size).toBe(3);
  });

  it("matches the frozen verdicts, pair for pair", () => {
    const frozen = readJsonl("mari-pairs.verdicts.jsonl");
    expect(frozen.map((v) => v.id)).toEqual(pairs.map((p) => p.id));
    const now = pairs.map((p) => ({ id: p.id, ...classify(p.new!, p.old!) }));
    expect(now).toEqual(frozen);
  });
});
