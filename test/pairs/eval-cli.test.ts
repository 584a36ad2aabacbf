// `mari eval PAIRS` through the built CLI (run `npm run build` first).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { MIXED_PAIRS, PASSING_PAIRS, writeFixture } from "./fixtures.js";

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const readLines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("mari eval PAIRS", () => {
  it("scores the shipped corpus exactly as its gold labels and frozen verdicts say", async () => {
    const corpus = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    const out = join(dir, "corpus");
    const r = await runMari(["eval", corpus, "--out", out, "--progress", "none"]);
    expect([0, 1]).toContain(r.code);
    const report = readJson(join(out, "report.json"));
    const gold = new Map(readLines(corpus).map((p) => [p.id, p.gold]));
    const expected: Record<string, Record<string, number>> = {};
    for (const g of ["restatement", "update", "distinct"]) expected[g] = { restatement: 0, update: 0, distinct: 0 };
    for (const v of readLines(join(ROOT, "datasets/memory-pairs/mari-pairs.verdicts.jsonl"))) {
      const row = expected[gold.get(v.id)] as Record<string, number>;
      row[v.class] = (row[v.class] ?? 0) + 1;
    }
    expect(report.confusion).toEqual(expected);
    expect(report.dataset.cases).toBe(161);
    // The default gates (docs/pairs.md), evaluated here on the confusion counted above.
    const rate = (gold: string, predicted: string) => {
      const row = expected[gold]!;
      const total = row.restatement! + row.update! + row.distinct!;
      return total === 0 ? 0 : row[predicted]! / total;
    };
    const gates = [
      {
        metric: "restatement_to_update_rate",
        kind: "max",
        threshold: 1 / 36,
        value: rate("restatement", "update"),
        passed: rate("restatement", "update") <= 1 / 36,
      },
      { metric: "distinct_to_update_rate", kind: "max", threshold: 0.05, value: rate("distinct", "update"), passed: rate("distinct", "update") <= 0.05 },
      { metric: "update_recall", kind: "min", threshold: 0.6, value: rate("update", "update"), passed: rate("update", "update") >= 0.6 },
    ];
    expect(
      report.gates.map((g: Record<string, unknown>) => ({ metric: g.metric, kind: g.kind, threshold: g.threshold, value: g.value, passed: g.passed })),
    ).toEqual(gates);
    expect(r.code).toBe(gates.every((g) => g.passed) ? 0 : 1);
    expect(readLines(join(out, "cases.jsonl"))).toHaveLength(161);
  });

  it("refuses document-only flags on a pair slice instead of ignoring them", async () => {
    const corpus = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    const dump = join(dir, "model-dump.jsonl");
    const r = await runMari(["eval", corpus, "--predictions", dump, "--seed", "3", "--out", join(dir, "refused"), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${corpus}: a pair corpus is evaluated by the built-in classifier; --predictions, --seed only apply to document slices`);
    const lenient = await runMari(["eval", corpus, "--lenient-ids", "--out", join(dir, "refused2"), "--quiet"]);
    expect(lenient.code).toBe(2);
    expect(lenient.stderr).toContain("--lenient-ids only apply to document slices");
  });

  it("exits 1 when a default gate fails and 0 when all pass", async () => {
    const failing = await runMari(["eval", writeFixture(dir, "mixed.jsonl", MIXED_PAIRS), "--out", join(dir, "m"), "--quiet"]);
    expect(failing.code).toBe(1);
    expect(readJson(join(dir, "m", "report.json")).task).toBe("pairs");
    const passing = await runMari(["eval", writeFixture(dir, "pass.jsonl", PASSING_PAIRS), "--out", join(dir, "p")]);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("revision_cost");
  });

  it("reads CSV (quoted newlines included) and applies --costs and --classifier", async () => {
    const csv =
      'id,new,old,gold,kind\nu1,"The cache TTL is 30 minutes.","The cache TTL is 10 minutes.",update,value\n' +
      'r1,"We use Postgres.","we use\n postgres.",Restatement,\nd1,Mars is red.,The office opens at nine.,distinct,\n';
    const pairs = writeFixture(dir, "pairs.csv", csv);
    const costs = writeFixture(dir, "costs.json", JSON.stringify({ stale_kept: 5 }));
    const out = join(dir, "csv");
    const r = await runMari(["eval", pairs, "--out", out, "--costs", costs, "--classifier", "residueMax=1", "--quiet"]);
    expect(r.code).toBe(0);
    const report = readJson(join(out, "report.json"));
    expect(report.pairs.labelled).toBe(3);
    expect(report.revision_cost.unit_prices.stale_kept).toBe(5);
    expect(report.system.config.classifier.residueMax).toBe(1);
    const cases = readLines(join(out, "cases.jsonl"));
    expect(cases.map((c) => [c.id, c.gold, c.class])).toEqual([
      ["u1", "update", "update"],
      ["r1", "restatement", "restatement"],
      ["d1", "distinct", "distinct"],
    ]);
  });

  it("exits 2 on a bad classifier setting and on rejected records under --strict", async () => {
    const pairs = writeFixture(dir, "pass2.jsonl", PASSING_PAIRS);
    const badConfig = await runMari(["eval", pairs, "--out", join(dir, "x2"), "--classifier", "overlapFloor=0"]);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/--classifier: overlapFloor|overlapFloor must be/);
    const withBad = writeFixture(dir, "bad.jsonl", PASSING_PAIRS + '{"id":"q","new":"a"}\n');
    const strict = await runMari(["eval", withBad, "--out", join(dir, "x4"), "--strict", "--quiet"]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/bad\.jsonl:4: bad_old/);
  });

  it("--shard splits the pairs by id, and mari merge gives back the single-run report and cases", async () => {
    const pairs = writeFixture(dir, "mixed3.jsonl", MIXED_PAIRS + '{"id":"bad","new":1,"old":"x"}\n');
    const usable: number[] = [];
    for (const index of [0, 1]) {
      const out = join(dir, `shard${index}`);
      const r = await runMari(["eval", pairs, "--out", out, "--shard", `${index}/2`, "--quiet", "--report", "json"]);
      expect([0, 1]).toContain(r.code);
      const report = readJson(join(out, "report.json"));
      expect(report.shard).toEqual({ index, count: 2 });
      expect(report.dataset.cases).toBe(7);
      usable.push(report.pairs.usable);
    }
    expect(usable[0]! + usable[1]!).toBe(7);
    const merged = await runMari(["merge", join(dir, "shard0", "report.json"), join(dir, "shard1", "report.json"), "--out", join(dir, "merged"), "--quiet"]);
    const whole = await runMari(["eval", pairs, "--out", join(dir, "whole"), "--quiet"]);
    expect(merged.code).toBe(whole.code);
    expect(readFileSync(join(dir, "merged", "cases.jsonl"), "utf8")).toBe(readFileSync(join(dir, "whole", "cases.jsonl"), "utf8"));
    const strip = (r: Record<string, unknown>) => ({ ...r, system: null, elapsed_seconds: null });
    expect(strip(readJson(join(dir, "merged", "report.json")))).toEqual(strip(readJson(join(dir, "whole", "report.json"))));
  });

  it("lets --gate replace a default gate", async () => {
    const pairs = writeFixture(dir, "mixed2.jsonl", MIXED_PAIRS);
    const r = await runMari([
      "eval",
      pairs,
      "--out",
      join(dir, "g"),
      "--quiet",
      "--gate",
      "update_recall>=0.5",
      "--gate",
      "restatement_to_update_rate<=0.5",
      "--gate",
      "distinct_to_update_rate<=0.5",
    ]);
    expect(r.code).toBe(0);
    expect(readJson(join(dir, "g", "report.json")).gates).toHaveLength(3);
  });
});
