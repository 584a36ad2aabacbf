// The per-case accumulators (src/gates/paired-side.ts) against the previous implementation of
// pairedComparison, which kept every (case, run) as an object: a test-only copy of its grouping and
// comparison is below, verbatim apart from its name. On random inputs with repeated (case, run)
// lines, extra labels, values that are null, missing or non-finite, value keys in varying order and
// sides with different cases and runs, every number must be bit-identical (compared as JSON and
// with Object.is on each metric), as must the order of metrics and runs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPairedOutcomes, readPairedSide } from "../../src/gates/baseline.js";
import { mcnemarExact, pairedComparison, pairedSideComparison, type PairedOptions } from "../../src/gates/paired.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";
import { pairedSide } from "../../src/gates/paired-side.js";
import { f1 } from "../../src/core/metrics/binary.js";
import { percentile } from "../../src/core/metrics/bootstrap.js";
import { createPrng } from "../../src/core/metrics/prng.js";
import type { BaselineComparison, PairedDifference } from "../../src/report/types.js";

// ---- test-only copy of the previous per-unit implementation (src/gates/paired.ts before the accumulators) ----
/** One side's per-case means over its runs (see the header), for the paired cases. */
interface SideCases {
  /** Per case: share of its runs judged right. */
  correct: Float64Array;
  /** Per case × class: share of its runs predicting that class (row-major, classCount wide). */
  predictedShare: Float64Array;
  /** Per case: the gold class index. */
  gold: Int32Array;
  /** Per value metric, per case: mean over the runs that have it, NaN when none does. */
  values: Float64Array[];
  /** Units (case, run) of the paired cases on this side. */
  units: number;
}

/** Outcomes grouped by case id in order of first appearance; a repeated (case, run) keeps its first line. */
function groupByCase(outcomes: readonly PairedOutcome[]): { byCase: Map<string, PairedOutcome[]>; runs: string[] } {
  const byCase = new Map<string, PairedOutcome[]>();
  const seen = new Set<string>();
  const runs = new Map<string, true>();
  for (const o of outcomes) {
    const key = `${o.case_id}\u0000${o.run}`;
    if (seen.has(key)) continue;
    seen.add(key);
    runs.set(o.run, true);
    const list = byCase.get(o.case_id);
    if (list) list.push(o);
    else byCase.set(o.case_id, [o]);
  }
  return { byCase, runs: [...runs.keys()] };
}

function sideCases(
  caseIds: readonly string[],
  byCase: Map<string, PairedOutcome[]>,
  indexOf: (label: string) => number,
  classCount: number,
  valueNames: readonly string[],
): SideCases {
  const n = caseIds.length;
  const side: SideCases = {
    correct: new Float64Array(n),
    predictedShare: new Float64Array(n * classCount),
    gold: new Int32Array(n),
    values: valueNames.map(() => new Float64Array(n).fill(NaN)),
    units: 0,
  };
  caseIds.forEach((id, i) => {
    const units = byCase.get(id)!;
    side.units += units.length;
    side.gold[i] = indexOf(units[0]!.gold);
    let right = 0;
    for (const u of units) {
      if (u.gold === u.predicted) right++;
      side.predictedShare[i * classCount + indexOf(u.predicted)]! += 1 / units.length;
    }
    side.correct[i] = right / units.length;
    valueNames.forEach((name, m) => {
      let sum = 0;
      let count = 0;
      for (const u of units) {
        const v = u.values?.[name];
        if (typeof v === "number" && Number.isFinite(v)) {
          sum += v;
          count++;
        }
      }
      if (count > 0) side.values[m]![i] = sum / count;
    });
  });
  return side;
}

/**
 * [accuracy, macro_f1, ...values] of one side with case weights: `weights[i]` copies of case i.
 * Cost O(cases · classes).
 */
function sideMetrics(side: SideCases, weights: Uint32Array, classCount: number, f1Classes: number, confusion: Float64Array): Float64Array {
  const n = weights.length;
  const out = new Float64Array(2 + side.values.length);
  confusion.fill(0);
  let total = 0;
  let correct = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (w === 0) continue;
    total += w;
    correct += w * side.correct[i]!;
    const row = side.gold[i]! * classCount;
    for (let c = 0; c < classCount; c++) confusion[row + c]! += w * side.predictedShare[i * classCount + c]!;
  }
  out[0] = total > 0 ? correct / total : 0;
  let f1Sum = 0;
  for (let c = 0; c < f1Classes; c++) {
    let goldC = 0;
    let predC = 0;
    for (let j = 0; j < classCount; j++) {
      goldC += confusion[c * classCount + j]!;
      predC += confusion[j * classCount + c]!;
    }
    const tp = confusion[c * classCount + c]!;
    f1Sum += f1(predC > 0 ? tp / predC : 0, goldC > 0 ? tp / goldC : 0);
  }
  out[1] = f1Classes > 0 ? f1Sum / f1Classes : 0;
  side.values.forEach((value, m) => {
    let sum = 0;
    let defined = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i]!;
      const v = value[i]!;
      if (w === 0 || v !== v) continue;
      sum += w * v;
      defined += w;
    }
    out[2 + m] = defined > 0 ? sum / defined : 0;
  });
  return out;
}

/**
 * Compares `current` with `baseline` on the cases both have (see the header for the pairing).
 * Metrics: accuracy, macro_f1, and every `values` key present on both sides.
 */
function oldPairedComparison(current: readonly PairedOutcome[], baseline: readonly PairedOutcome[], opts: PairedOptions): BaselineComparison {
  const cur = groupByCase(current);
  const base = groupByCase(baseline);
  const caseIds = [...cur.byCase.keys()].filter((id) => base.byCase.has(id));
  const n = caseIds.length;
  const paired = (side: Map<string, PairedOutcome[]>) => caseIds.flatMap((id) => side.get(id)!);
  const pairedCurrent = paired(cur.byCase);
  const pairedBaseline = paired(base.byCase);

  const classes = opts.classes ?? [...new Set([...pairedCurrent, ...pairedBaseline].flatMap((o) => [o.gold, o.predicted]))].sort();
  const classIndex = new Map(classes.map((label, i) => [label, i]));
  // A label outside `classes` still counts for accuracy: it gets its own index past the classes.
  const indexOf = (label: string): number => {
    let i = classIndex.get(label);
    if (i === undefined) {
      i = classIndex.size;
      classIndex.set(label, i);
    }
    return i;
  };
  for (const o of [...pairedCurrent, ...pairedBaseline]) {
    indexOf(o.gold);
    indexOf(o.predicted);
  }
  const classCount = Math.max(1, classIndex.size);
  const f1Classes = opts.classes ? opts.classes.length : classIndex.size;
  const valuesOf = (list: readonly PairedOutcome[]) => new Set(list.flatMap((o) => Object.keys(o.values ?? {})));
  const baselineValues = valuesOf(pairedBaseline);
  const valueNames = [...valuesOf(pairedCurrent)].filter((name) => baselineValues.has(name));
  const sides = [cur, base].map((side) => sideCases(caseIds, side.byCase, indexOf, classCount, valueNames));

  const confusion = new Float64Array(classCount * classCount);
  const ones = new Uint32Array(n).fill(1);
  const point = sides.map((side) => sideMetrics(side, ones, classCount, f1Classes, confusion));
  const names = ["accuracy", "macro_f1", ...valueNames];
  const draws = names.map(() => new Float64Array(opts.resamples));
  if (n > 0) {
    const weights = new Uint32Array(n);
    for (let b = 0; b < opts.resamples; b++) {
      const prng = createPrng(opts.seed, b);
      weights.fill(0);
      for (let k = 0; k < n; k++) weights[prng.nextBelow(n)]!++;
      const c = sideMetrics(sides[0]!, weights, classCount, f1Classes, confusion);
      const r = sideMetrics(sides[1]!, weights, classCount, f1Classes, confusion);
      for (let m = 0; m < names.length; m++) draws[m]![b] = c[m]! - r[m]!;
    }
  }
  const metrics: Record<string, PairedDifference> = {};
  const hasDraws = n > 0 && opts.resamples > 0;
  names.forEach((name, m) => {
    const sorted = draws[m]!.sort();
    const difference = point[0]![m]! - point[1]![m]!;
    metrics[name] = {
      current: point[0]![m]!,
      baseline: point[1]![m]!,
      difference,
      low: hasDraws ? percentile(sorted, 0.025) : difference,
      high: hasDraws ? percentile(sorted, 0.975) : difference,
    };
  });

  // McNemar on cases, each side's case right by a strict majority of its runs.
  let baselineOnly = 0;
  let currentOnly = 0;
  for (let i = 0; i < n; i++) {
    const currentRight = sides[0]!.correct[i]! > 0.5;
    const baselineRight = sides[1]!.correct[i]! > 0.5;
    if (baselineRight && !currentRight) baselineOnly++;
    else if (currentRight && !baselineRight) currentOnly++;
  }

  return {
    path: opts.baselinePath ?? null,
    paired_by: "case",
    matched_cases: n,
    unmatched_current: cur.byCase.size - n,
    unmatched_baseline: base.byCase.size - n,
    units: { current: sides[0]!.units, baseline: sides[1]!.units },
    runs: { current: cur.runs, baseline: base.runs },
    seed: opts.seed,
    resamples: opts.resamples,
    metrics,
    mcnemar: { ...mcnemarExact(baselineOnly, currentOnly), rule: "majority_of_runs" },
  };
}
// ---- end of the copy ----

const LABELS = ["positive", "negative", "update", "weird"];
const VALUE_NAMES = ["localization_recall", "format_valid_rate", "cost", "reward_accuracy_mean"];

function randomOutcomes(seed: number, stream: number): PairedOutcome[] {
  const prng = createPrng(seed, stream);
  const cases = 1 + prng.nextBelow(12);
  const runs = 1 + prng.nextBelow(9);
  const labels = 2 + prng.nextBelow(3);
  const out: PairedOutcome[] = [];
  const lines = prng.nextBelow(cases * runs * 2 + 1);
  for (let k = 0; k < lines; k++) {
    const values: Record<string, number | null> = {};
    const names = [...VALUE_NAMES].sort(() => prng.nextBelow(3) - 1);
    for (const name of names) {
      const pick = prng.nextBelow(6);
      if (pick === 0) continue;
      values[name] = pick === 1 ? null : pick === 2 ? Number.NaN : pick === 3 ? prng.nextBelow(2) : prng.nextBelow(1000) / 7;
    }
    const o: PairedOutcome = {
      case_id: `c${prng.nextBelow(cases)}`,
      run: String(prng.nextBelow(runs)),
      gold: LABELS[prng.nextBelow(labels)]!,
      predicted: LABELS[prng.nextBelow(labels)]!,
    };
    if (prng.nextBelow(5) > 0) o.values = values;
    out.push(o);
  }
  return out;
}

describe("paired comparison from per-case accumulators", () => {
  it("equals the per-unit implementation bit for bit on random inputs", () => {
    let matched = 0;
    for (let t = 0; t < 400; t++) {
      const current = randomOutcomes(t, 0);
      const baseline = randomOutcomes(t, 1);
      const opts = { seed: t, resamples: 25, ...(t % 2 === 0 ? { classes: ["positive", "negative"] } : {}) };
      const now = pairedComparison(current, baseline, opts);
      const old = oldPairedComparison(current, baseline, opts);
      expect(JSON.stringify(now)).toBe(JSON.stringify(old));
      for (const [name, m] of Object.entries(old.metrics)) {
        for (const key of ["current", "baseline", "difference", "low", "high"] as const) expect(Object.is(now.metrics[name]![key], m[key])).toBe(true);
      }
      matched += old.matched_cases;
    }
    expect(matched).toBeGreaterThan(500);
  });

  it("reads a cases.jsonl into the same comparison as the outcome objects", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-paired-side-"));
    const file = join(dir, "cases.jsonl");
    const lines: string[] = [];
    const prng = createPrng(7, 0);
    for (let run = 0; run < 40; run++) {
      for (let c = 0; c < 30; c++) {
        const label = c % 3 === 0;
        const judgment = prng.nextBelow(3) > 0 ? label : !label;
        lines.push(
          JSON.stringify({
            case_id: `d${c}`,
            run,
            gold: label,
            judgment,
            localization_hit: label ? prng.nextBelow(2) === 1 : null,
            reference_coverage: prng.nextBelow(100) / 99,
            format_valid: prng.nextBelow(9) > 0,
          }),
        );
      }
    }
    // Bad lines are skipped and counted (a repeated (case, run) is refused outright: baseline.test.ts).
    lines.splice(17, 0, "not json", "");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { outcomes, skippedLines } = await readPairedOutcomes(file);
    const read = await readPairedSide(file);
    expect(read.skippedLines).toBe(skippedLines);
    expect(read.side.size).toBe(1200);
    const baseline = outcomes.filter((_, i) => i % 5 !== 0).map((o) => ({ ...o, predicted: o.predicted === "positive" ? "negative" : "positive" }));
    const opts = { seed: 3, resamples: 200, classes: ["positive", "negative"] };
    expect(JSON.stringify(pairedSideComparison(read.side, pairedSide(baseline), opts))).toBe(JSON.stringify(oldPairedComparison(outcomes, baseline, opts)));
  });
});
