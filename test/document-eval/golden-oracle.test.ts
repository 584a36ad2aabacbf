// A golden multi-run document eval checked against an oracle written here from the spec's
// definitions, not from mari's code: the oracle knows what it generated (which judgment, which
// cited sentences, which references, which line is broken) and computes every number from that,
// without parsing a line, validating a prediction or reading a cases.jsonl. It pins what earlier
// tests left loose: the macro-F1 bootstrap interval with more runs than one packed slot holds
// (8 distinct runs) and more than 52 distinct runs (the string-keyed signature path), exact
// localization and per-case evidence precision and recall on gold of 2 and 3 sentences, wrong
// citations of the gold's own size, format_invalid, the reward means and the rejection counts.
//
// The interval is checked twice. Exactly, by the bootstrap oracle of test/core/metrics (its own
// grouping of cases by outcome signature, macro-F1 and percentiles; only the seeded draw of each
// resample's group counts is shared with src/, since no other draw reproduces the numbers). And loosely,
// sharing nothing: a plain case-by-case bootstrap with its own generator must land within 0.02.
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { evaluateDocuments } from "../../src/tasks/document/evaluate.js";
import { readDocumentCases } from "../../src/report/document-cases.js";
import { oracleInterval, oracleMacroF1, oraclePercentile } from "../core/metrics/bootstrap-oracle.js";
import { tempDir } from "../support/cli.js";

/** A small LCG of the test's own, so the fixture is the same on every run. */
function lcg(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) % n;
  };
}

interface GoldCase {
  id: string;
  n: number;
  label: boolean;
  gold: number[];
}

/** What the oracle decided for one (case, run). */
interface Unit {
  judgment: boolean;
  valid: boolean;
  reason: string | null;
  predicted: Set<number>;
  references: Set<number>;
}

interface Fixture {
  cases: GoldCase[];
  runs: number;
  /** units[run][case] */
  units: Unit[][];
  lines: string[];
  lineRejections: Record<string, number>;
}

const INVALID_KINDS = [
  "bad_judgment",
  "evidence_out_of_document",
  "positive_without_evidence",
  "non_integer_evidence",
  "negative_with_evidence",
  "reasoning_reference_out_of_document",
] as const;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}

/**
 * `caseCount` cases of 5–10 sentences, ~half positive with gold of 1, 2 or 3 sentences; `runs`
 * runs in which a (case, run) is missing, an invalid line of one of six kinds, or a valid
 * prediction (right or wrong judgment; exact, partial, padded, or gold's size with one or all
 * citations wrong).
 * `copies` runs at the end repeat the judgments of the first runs (with other citations), so some
 * runs are not distinct. `judgmentOf`, when given, fixes each (case, run)'s judgment (missing and
 * invalid lines, which score negative, then only stand where it is false). Malformed, blank and
 * duplicate lines are mixed in.
 */
function makeFixture(caseCount: number, runs: number, copies: number, seed: number, judgmentOf?: (i: number, r: number) => boolean): Fixture {
  const rand = lcg(seed);
  const cases: GoldCase[] = [];
  for (let i = 0; i < caseCount; i++) {
    const n = 5 + rand(6);
    const label = rand(2) === 0;
    const gold = new Set<number>();
    if (label) {
      const size = 1 + (i % 3);
      while (gold.size < size) gold.add(1 + rand(n));
    }
    cases.push({ id: `doc-${i}`, n, label, gold: [...gold].sort((a, b) => a - b) });
  }
  const units: Unit[][] = [];
  const lines: string[] = [];
  const lineRejections: Record<string, number> = {};
  const reject = (reason: string, text: string) => {
    lines.push(text);
    lineRejections[reason] = (lineRejections[reason] ?? 0) + 1;
  };
  for (let r = 0; r < runs; r++) {
    const row: Unit[] = [];
    const copyOf = r >= runs - copies ? r - (runs - copies) : -1;
    cases.forEach((c, i) => {
      const notGold = range(1, c.n).filter((s) => !c.gold.includes(s));
      const pick = (from: number[], k: number): number[] => {
        const pool = [...from];
        const out: number[] = [];
        while (out.length < k && pool.length > 0) out.push(pool.splice(rand(pool.length), 1)[0]!);
        return out;
      };
      const fixed = judgmentOf?.(i, r);
      const roll = fixed === true ? 100 : rand(100);
      const runKey = r % 3 === 0 ? String(r) : r;
      if (copyOf < 0 && roll < 5) {
        row.push({ judgment: false, valid: false, reason: "missing_prediction", predicted: new Set(), references: new Set() });
        return;
      }
      if (copyOf < 0 && roll < 14) {
        const kind = INVALID_KINDS[rand(INVALID_KINDS.length)]!;
        const body: Record<string, unknown> = { case_id: c.id, run: runKey };
        if (kind === "bad_judgment") Object.assign(body, { judgment: "maybe", evidence_sentence_ids: [1] });
        if (kind === "evidence_out_of_document") Object.assign(body, { judgment: true, evidence_sentence_ids: [1, c.n + 1] });
        if (kind === "positive_without_evidence") Object.assign(body, { judgment: "yes", evidence_sentence_ids: [] });
        if (kind === "non_integer_evidence") Object.assign(body, { judgment: true, evidence_sentence_ids: ["1"] });
        if (kind === "negative_with_evidence") Object.assign(body, { judgment: false, evidence_sentence_ids: [2] });
        if (kind === "reasoning_reference_out_of_document") Object.assign(body, { judgment: false, reasoning: `See [${c.n + 1}].` });
        lines.push(JSON.stringify(body));
        row.push({ judgment: false, valid: false, reason: kind, predicted: new Set(), references: new Set() });
        return;
      }
      const judgment = fixed ?? (copyOf >= 0 ? units[copyOf]![i]!.judgment : rand(10) < 7 ? c.label : !c.label);
      let predicted: number[] = [];
      if (judgment) {
        const style = rand(5);
        if (!c.label) predicted = pick(range(1, c.n), 1 + rand(2));
        else if (style === 0) predicted = [...c.gold];
        else if (style === 1) predicted = [...c.gold, ...pick(notGold, 1)];
        else if (style === 2) predicted = c.gold.length > 1 ? c.gold.slice(1) : [...c.gold];
        // Wrong citations of the right size: as many sentences as gold, none of them gold.
        else if (style === 3) predicted = pick(notGold, c.gold.length);
        // The right size, one sentence wrong: a partial match that is not exact.
        else predicted = [...c.gold.slice(1), ...pick(notGold, 1)];
        if (predicted.length === 0) predicted = [...c.gold];
      }
      const a = 1 + rand(c.n);
      const b = 1 + rand(c.n);
      const referenceStyle = rand(3);
      const reasoning = referenceStyle === 0 ? "" : referenceStyle === 1 ? `Compare [${a}] with [${b}].` : `Sentences [${Math.min(a, b)}]-[${Math.max(a, b)}].`;
      const references = new Set(referenceStyle === 0 ? [] : referenceStyle === 1 ? [a, b] : range(Math.min(a, b), Math.max(a, b)));
      // A repeated id is one cited sentence.
      const cited = predicted.length > 0 && rand(5) === 0 ? [...predicted, predicted[0]!] : predicted;
      const text = JSON.stringify({
        case_id: c.id,
        run: runKey,
        judgment: rand(2) ? judgment : judgment ? "Yes" : "no",
        evidence_sentence_ids: cited,
        reasoning,
      });
      lines.push(text);
      row.push({ judgment, valid: true, reason: null, predicted: new Set(predicted), references });
      // A later line for the same (case, run) is a duplicate: the first one counts.
      if (rand(40) === 0) reject("duplicate_prediction", JSON.stringify({ case_id: c.id, run: String(runKey), judgment: !judgment }));
      if (rand(60) === 0) reject("malformed_json", `{"case_id": "${c.id}", "run": ${r},`);
      if (rand(80) === 0) reject("blank_line", "   ");
    });
    units.push(row);
  }
  return { cases, runs, units, lines, lineRejections };
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Per-unit facts the report derives, from the oracle's own view of the unit. */
function unitFacts(c: GoldCase, u: Unit) {
  const matched = [...u.predicted].filter((s) => c.gold.includes(s)).length;
  const correct = u.judgment === c.label;
  let accuracyReward: number;
  if (!c.label) accuracyReward = correct ? 1 : 0;
  else if (!correct) accuracyReward = 0;
  else accuracyReward = matched === 0 ? -1 : 1 + matched / c.gold.length;
  return {
    matched,
    correct,
    accuracyReward,
    coverage: u.references.size / c.n,
    hit: c.label ? matched > 0 : null,
    exact: c.label ? u.predicted.size === c.gold.length && matched === c.gold.length : null,
    precision: c.label ? (u.predicted.size === 0 ? 0 : matched / u.predicted.size) : null,
    recall: c.label ? matched / c.gold.length : null,
  };
}

function oracleRunMetrics(fx: Fixture, r: number): Record<string, number> {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const hits: number[] = [];
  const exact: number[] = [];
  const precisions: number[] = [];
  let valid = 0;
  const coverage: number[] = [];
  const accuracyRewards: number[] = [];
  fx.cases.forEach((c, i) => {
    const u = fx.units[r]![i]!;
    const f = unitFacts(c, u);
    if (c.label && u.judgment) tp++;
    else if (c.label) fn++;
    else if (u.judgment) fp++;
    else tn++;
    if (c.label) {
      hits.push(f.hit ? 1 : 0);
      exact.push(f.exact ? 1 : 0);
      if (u.judgment && u.predicted.size > 0) precisions.push(f.precision!);
    }
    if (u.valid) valid++;
    coverage.push(f.coverage);
    accuracyRewards.push(f.accuracyReward);
  });
  const cases = fx.cases.length;
  return {
    cases,
    accuracy: (tp + tn) / cases,
    tp,
    fp,
    fn,
    tn,
    macro_f1: oracleMacroF1(tp, fp, fn, tn),
    localization_recall: mean(hits),
    localization_precision: mean(precisions),
    exact_localization: mean(exact),
    format_valid_rate: valid / cases,
    format_invalid: cases - valid,
    reference_coverage_mean: mean(coverage),
    reward_accuracy_mean: mean(accuracyRewards),
    reward_format_mean: valid / cases,
  };
}

/** A plain bootstrap sharing nothing with mari: n case draws per resample from the test's LCG. */
function naiveBootstrap(fx: Fixture, resamples: number): { low: number; high: number } {
  const rand = lcg(12345);
  const n = fx.cases.length;
  const values: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const picks = Array.from({ length: n }, () => rand(n));
    const perRun = fx.units.map((row) => {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      let tn = 0;
      for (const i of picks) {
        const label = fx.cases[i]!.label;
        const j = row[i]!.judgment;
        if (label && j) tp++;
        else if (label) fn++;
        else if (j) fp++;
        else tn++;
      }
      return oracleMacroF1(tp, fp, fn, tn);
    });
    values.push(mean(perRun));
  }
  return { low: oraclePercentile(values, 0.025), high: oraclePercentile(values, 0.975) };
}

function distinctRuns(fx: Fixture): number {
  return new Set(fx.units.map((row) => row.map((u) => (u.judgment ? "1" : "0")).join(""))).size;
}

const { dir, cleanup } = tempDir("mari-golden-");
afterAll(cleanup);

async function evaluate(name: string, fx: Fixture) {
  const slicePath = join(dir, `${name}.slice.jsonl`);
  const dumpPath = join(dir, `${name}.dump.jsonl`);
  writeFileSync(
    slicePath,
    fx.cases
      .map((c) =>
        JSON.stringify({
          id: c.id,
          sentences: range(1, c.n).map((s) => `Sentence ${s} of ${c.id}.`),
          label: c.label,
          ...(c.label ? { gold_sentence_ids: c.gold } : {}),
        }),
      )
      .join("\n") + "\n",
  );
  writeFileSync(dumpPath, fx.lines.join("\n") + "\n");
  const outDir = join(dir, name);
  const outcome = await evaluateDocuments({ slicePath, dumpPath, outDir, workers: 1, formats: ["json"] });
  const records = new Map<string, Record<string, unknown>>();
  for await (const item of readDocumentCases(join(outDir, "cases.jsonl"))) {
    if ("error" in item) throw new Error(`cases.jsonl:${item.lineNo}: ${item.error}`);
    records.set(`${item.record.case_id}\u0000${item.record.run}`, item.record);
  }
  const report = JSON.parse(readFileSync(join(outDir, "report.json"), "utf8"));
  return { outcome, report, records };
}

function expectClose(actual: unknown, expected: number, what: string): void {
  expect(typeof actual, what).toBe("number");
  expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-12);
}

function checkAgainstOracle(fx: Fixture, got: Awaited<ReturnType<typeof evaluate>>): void {
  const { report, records } = got;
  const runKeys = Object.keys(report.runs);
  expect(runKeys).toEqual(range(0, fx.runs - 1).map(String));
  const perRun = runKeys.map((_, r) => oracleRunMetrics(fx, r));
  for (const [r, key] of runKeys.entries()) {
    for (const [metric, value] of Object.entries(perRun[r]!)) expectClose(report.runs[key][metric], value, `run ${key} ${metric}`);
  }
  for (const metric of Object.keys(perRun[0]!)) {
    expectClose(report.metrics[metric], mean(perRun.map((m) => m[metric]!)), `headline ${metric}`);
  }
  // Every (case, run): the localization fields and evidence precision/recall.
  let checked = 0;
  fx.cases.forEach((c, i) => {
    for (const [r, key] of runKeys.entries()) {
      const u = fx.units[r]![i]!;
      const f = unitFacts(c, u);
      const rec = records.get(`${c.id}\u0000${key}`);
      expect(rec, `${c.id} run ${key}`).toBeDefined();
      expect(rec!.judgment, `${c.id} run ${key} judgment`).toBe(u.judgment);
      expect(rec!.format_valid, `${c.id} run ${key} format_valid`).toBe(u.valid);
      expect(rec!.reason ?? null, `${c.id} run ${key} reason`).toBe(u.reason);
      expect(rec!.localization_hit, `${c.id} run ${key} hit`).toBe(f.hit);
      expect(rec!.exact_localization, `${c.id} run ${key} exact`).toBe(f.exact);
      if (f.precision === null) expect(rec!.evidence_precision).toBeNull();
      else expectClose(rec!.evidence_precision, f.precision, `${c.id} run ${key} evidence_precision`);
      if (f.recall === null) expect(rec!.evidence_recall).toBeNull();
      else expectClose(rec!.evidence_recall, f.recall, `${c.id} run ${key} evidence_recall`);
      expectClose(rec!.reward_accuracy, f.accuracyReward, `${c.id} run ${key} reward_accuracy`);
      checked++;
    }
  });
  expect(checked).toBe(fx.cases.length * fx.runs);
  // Rejections: line-level reasons plus every per-case reason over all runs.
  const rejections: Record<string, number> = { ...fx.lineRejections };
  for (const row of fx.units) for (const u of row) if (u.reason !== null) rejections[u.reason] = (rejections[u.reason] ?? 0) + 1;
  expect(report.rejections).toEqual(rejections);
}

describe("golden multi-run eval against an independent oracle", () => {
  // 120 cases: 7 bits per counter, 7 runs per packed slot, so 8 distinct runs need two slots.
  const eight = makeFixture(120, 10, 2, 2024);
  // 60 cases × 56 runs: more than 52 distinct runs, the string-keyed signature path. Cases follow
  // 8 judgment patterns, so they share signatures: patterns 1 and 2 differ from pattern 0 only in
  // the first and in the last run, and each pattern has cases of both labels, so a signature that
  // dropped its label or a run would merge groups. Run r's pattern bits are r·37 mod 64 (distinct).
  const manyPattern = (i: number, r: number): boolean => {
    const bits = (r * 37) % 64;
    const pattern = i % 8;
    if (pattern <= 2) return ((bits & 1) === 1) !== ((pattern === 1 && r === 0) || (pattern === 2 && r === 55));
    return ((bits >> (pattern - 2)) & 1) === 1;
  };
  const many = makeFixture(60, 56, 0, 77, manyPattern);
  it("the fixtures have what they are meant to have", () => {
    expect(distinctRuns(eight)).toBe(8);
    expect(eight.runs).toBe(10);
    expect(distinctRuns(many)).toBe(56);
    const signatures = new Set(many.cases.map((c, i) => `${c.label}${many.units.map((row) => +row[i]!.judgment).join("")}`));
    expect(signatures.size).toBeLessThan(many.cases.length / 2);
    for (let p = 0; p < 8; p++) expect(new Set(many.cases.filter((_, i) => i % 8 === p).map((c) => c.label)).size, `pattern ${p}`).toBe(2);
    for (const fx of [eight, many]) {
      const goldSizes = new Set(fx.cases.filter((c) => c.label).map((c) => c.gold.length));
      expect([...goldSizes].sort()).toEqual([1, 2, 3]);
      const reasons = new Set(fx.units.flat().map((u) => u.reason));
      for (const kind of [...INVALID_KINDS, "missing_prediction"]) expect(reasons.has(kind), kind).toBe(true);
      for (const reason of ["duplicate_prediction", "malformed_json", "blank_line"]) expect(fx.lineRejections[reason], reason).toBeGreaterThan(0);
    }
    // Wrong citations of gold's size on multi-sentence gold: accuracy reward −1, not exact, recall 0.
    const wrongOfSize = eight.cases.some((c, i) =>
      eight.units.some((row) => {
        const u = row[i]!;
        return c.gold.length >= 2 && u.judgment && u.predicted.size === c.gold.length && [...u.predicted].every((s) => !c.gold.includes(s));
      }),
    );
    expect(wrongOfSize).toBe(true);
    const partialOfSize = eight.cases.some((c, i) =>
      eight.units.some((row) => {
        const u = row[i]!;
        const matched = [...u.predicted].filter((s) => c.gold.includes(s)).length;
        return u.judgment && u.predicted.size === c.gold.length && matched > 0 && matched < c.gold.length;
      }),
    );
    expect(partialOfSize).toBe(true);
  });

  // Each test runs its own eval (no beforeAll): a mutation tester that switches a mutant on per
  // test then sees the mutant in the code under test.
  it("8 distinct runs of 10: every run's metrics, the headline means and every (case, run) match the oracle", async () => {
    const got = await evaluate("eight-tables", eight);
    expect(got.outcome.inputErrors).toEqual([]);
    checkAgainstOracle(eight, got);
  });

  it("56 distinct runs: every run's metrics, the headline means and every (case, run) match the oracle", async () => {
    checkAgainstOracle(many, await evaluate("many-tables", many));
  });

  it.each([
    ["8 distinct runs", eight],
    ["56 distinct runs", many],
  ] as const)("%s: the macro-F1 interval equals the oracle's resampling, and a plain bootstrap agrees within 0.02", async (name, fx) => {
    const got = await evaluate(`${name.split(" ")[0]}-interval`, fx);
    const ci = got.report.ci.macro_f1;
    expect([ci.seed, ci.resamples, ci.n]).toEqual([0, 1000, fx.cases.length]);
    const labels = Uint8Array.from(fx.cases, (c) => +c.label);
    // Outcome codes run-major, 2·label + judgment, as the oracle of test/core/metrics reads them.
    const codes = Uint8Array.from(fx.units.flatMap((row) => row.map((u, i) => 2 * labels[i]! + +u.judgment)));
    const exact = oracleInterval(labels, codes, fx.runs, 0, 1000);
    expectClose(ci.low, exact.low, "macro_f1 low");
    expectClose(ci.high, exact.high, "macro_f1 high");
    const plain = naiveBootstrap(fx, 1000);
    expect(Math.abs(ci.low - plain.low)).toBeLessThan(0.02);
    expect(Math.abs(ci.high - plain.high)).toBeLessThan(0.02);
    expect(ci.low).toBeLessThan(got.report.metrics.macro_f1);
    expect(ci.high).toBeGreaterThan(got.report.metrics.macro_f1);
  });
});
