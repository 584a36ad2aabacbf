import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runPairEval } from "../../src/tasks/pairs/run.js";
import { exitCodeOf, renderSummary } from "../../src/cli/summary.js";
import type { RunObserver } from "../../src/io/observer.js";
import { InputError } from "../../src/io/errors.js";
import { validateReport } from "../../src/report/schema.js";
import { tempDir } from "../support/cli.js";
import { MIXED_PAIRS, PASSING_PAIRS, writeFixture } from "./fixtures.js";

/** An observer that keeps what a terminal would show on stderr. */
function recorder(): RunObserver & { text: string } {
  const observer = {
    text: "",
    progress: () => ({ tick() {}, done() {} }),
    log: (message: string) => void (observer.text += `mari: ${message}\n`),
    note: (message: string) => void (observer.text += `mari: ${message}\n`),
  };
  return observer;
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function workspace() {
  const t = tempDir();
  cleanup = t.cleanup;
  return t.dir;
}

async function evalPairs(dir: string, text: string, extra: Partial<Parameters<typeof runPairEval>[0]> = {}) {
  const pairs = writeFixture(dir, "pairs.jsonl", text);
  const out = join(dir, "out");
  const stderr = recorder();
  const outcome = await runPairEval({ pairs, out, observer: stderr, ...extra });
  const stdout = renderSummary(outcome.report, { outDir: outcome.outDir, files: outcome.files }, (_style, text) => text);
  return { code: exitCodeOf(outcome), out, stdout, stderr: stderr.text };
}

describe("pair evaluation (in-process)", () => {
  it("scores a mixed corpus: metrics, confusion, cost detail, gates, cases", async () => {
    const dir = workspace();
    const { code, out, stdout } = await evalPairs(dir, MIXED_PAIRS);
    expect(code).toBe(1); // every default gate fails on this corpus
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(validateReport(report)).toEqual([]);
    expect(report.task).toBe("pairs");
    expect(report.confusion).toEqual({
      restatement: { restatement: 1, update: 1, distinct: 0 },
      update: { restatement: 0, update: 1, distinct: 1 },
      distinct: { restatement: 0, update: 1, distinct: 1 },
    });
    const m = report.metrics;
    expect(m.revision_cost_total).toBe(6); // 3 + 1 + 2
    expect(m.revision_cost).toBe(1);
    expect(m.accuracy).toBe(0.5);
    expect(m.update_precision).toBe(1 / 3);
    expect(m.update_recall).toBe(0.5);
    expect([m.restatement_to_update, m.restatement_to_update_rate, m.distinct_to_update, m.distinct_to_update_rate]).toEqual([1, 0.5, 1, 0.5]);
    expect(m.restatement_f1).toBeCloseTo(2 / 3, 15);
    expect(m.update_f1).toBeCloseTo(0.4, 15);
    expect(m.distinct_f1).toBe(0.5);
    expect(m.macro_f1).toBeCloseTo((2 / 3 + 0.4 + 0.5) / 3, 15);
    expect(report.breakdowns.kind.value).toMatchObject({ pairs: 3, update_recall: 1, update_precision: 0.5 });
    expect(report.breakdowns.kind.polarity).toMatchObject({ pairs: 1, update_recall: 0 });
    expect(report.revision_cost.unit_prices).toEqual({ downrank_live: 2, lost_corroboration: 1, stale_kept: 1, false_corroboration: 1 });
    expect(report.revision_cost.cells).toContainEqual({ gold: "restatement", predicted: "update", count: 1, unit_cost: 3, cost: 3 });
    expect(report.pairs).toMatchObject({ records: 7, usable: 7, labelled: 6, unlabelled: 1, rejected: 0 });
    expect(report.gates.map((g: { name: string; passed: boolean }) => [g.name, g.passed])).toEqual([
      ["restatement_to_update_rate<=1/36", false],
      ["distinct_to_update_rate<=0.05", false],
      ["update_recall>=0.6", false],
    ]);
    expect(report.gates[0].threshold).toBe(1 / 36);
    expect(report.gates[2].detail).toMatch(/default gate/);
    const cases = readFileSync(join(out, "cases.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(cases).toHaveLength(7);
    expect(cases[1]).toMatchObject({ id: "r2", gold: "restatement", class: "update", cost: 3, kind: "value" });
    expect(cases[1].reason).toBe('value swap: "25" -> "15"');
    expect(cases[5]).toMatchObject({ id: "d2", note: "=HYPERLINK(1)" });
    expect(cases[6]).toMatchObject({ id: "x1", gold: null, class: "update", cost: null, kind: null });
    expect(Object.keys(cases[0]).slice(0, 6)).toEqual(["id", "gold", "class", "reason", "cost", "kind"]);
    for (const f of ["report.md", "report.html", "report.junit.xml"]) expect(readFileSync(join(out, f), "utf8").length).toBeGreaterThan(0);
    expect(stdout).toContain("revision_cost");
  });

  it("exits 0 when every default gate passes", async () => {
    const { code, out } = await evalPairs(workspace(), PASSING_PAIRS);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.gates.every((g: { passed: boolean }) => g.passed)).toBe(true);
    expect(report.metrics.revision_cost).toBe(0);
  });

  it("applies --costs prices", async () => {
    const dir = workspace();
    const costs = writeFixture(dir, "costs.json", JSON.stringify({ downrank_live: 10 }));
    const { out } = await evalPairs(dir, MIXED_PAIRS, { costs });
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.metrics.revision_cost_total).toBe(11 + 1 + 10);
    expect(report.revision_cost.matrix.restatement.update).toBe(11);
  });

  it("rejects a bad costs file as an input error naming the file", async () => {
    const dir = workspace();
    const costs = writeFixture(dir, "costs.json", JSON.stringify({ downrank_live: -1 }));
    await expect(evalPairs(dir, MIXED_PAIRS, { costs })).rejects.toThrow(InputError);
    await expect(evalPairs(dir, MIXED_PAIRS, { costs })).rejects.toThrow(/costs\.json: unit price downrank_live must be a finite number >= 0/);
  });

  it("counts bad records with file:line and keeps going; --strict makes that exit 2", async () => {
    const dir = workspace();
    const text = PASSING_PAIRS + '{"id":"r1","new":"a","old":"b","gold":"update"}\nnot json\n{"id":"z","new":3,"old":"b"}\n';
    const { code, out, stderr } = await evalPairs(dir, text);
    expect(code).toBe(0);
    expect(stderr).toMatch(/pairs\.jsonl:4: duplicate_id: duplicate id "r1" \(first seen at .*pairs\.jsonl:1\)/);
    expect(stderr).toMatch(/pairs\.jsonl:5: malformed_json/);
    expect(stderr).toMatch(/pairs\.jsonl:6: bad_new/);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.rejections).toEqual({ duplicate_id: 1, malformed_json: 1, bad_new: 1 });
    expect(report.pairs.labelled).toBe(3);
    const strict = await evalPairs(dir, text, { strict: true });
    expect(strict.code).toBe(2);
    expect(readFileSync(join(strict.out, "report.junit.xml"), "utf8")).toContain("<error");
  });

  it("is an input error when no pair is labelled", async () => {
    const dir = workspace();
    await expect(evalPairs(dir, '{"id":"a","new":"x","old":"y","gold":"maybe"}\n')).rejects.toThrow(/no labelled pair to score/);
  });

  it("lets a user gate replace the default gate on the same metric", async () => {
    const { parseGateFlag } = await import("../../src/gates/spec.js");
    const { code, out } = await evalPairs(workspace(), MIXED_PAIRS, {
      gates: [parseGateFlag("update_recall>=0.5"), parseGateFlag("restatement_to_update_rate<=0.5"), parseGateFlag("distinct_to_update_rate<=0.5")],
    });
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.gates.map((g: { name: string }) => g.name)).toEqual([
      "update_recall>=0.5",
      "restatement_to_update_rate<=0.5",
      "distinct_to_update_rate<=0.5",
    ]);
  });
});
