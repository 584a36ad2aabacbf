// The per-case accumulators (src/gates/paired-side.ts) and the comparison built on them, against
// the naive comparison of paired-oracle.ts (plain (case, run) objects, written from the docs, not
// from src/). On random inputs with repeated (case, run) lines, extra labels, values that are
// null, missing or non-finite, value keys in varying order and sides with different cases and
// runs, every count and order must be equal and every number within 1e-9.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPairedOutcomes, readPairedSide } from "../../src/gates/side-reader.js";
import { pairedComparison, pairedSideComparison } from "../../src/gates/paired.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";
import { pairedSide } from "../../src/gates/paired-side.js";
import { createPrng } from "../../src/core/metrics/prng.js";
import { expectMatchesNaive, naivePairedComparison } from "./paired-oracle.js";

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
  it("equals the naive comparison on random inputs", () => {
    let matched = 0;
    for (let t = 0; t < 400; t++) {
      const current = randomOutcomes(t, 0);
      const baseline = randomOutcomes(t, 1);
      const opts = { seed: t, resamples: 25, ...(t % 2 === 0 ? { classes: ["positive", "negative"] } : {}) };
      const naive = naivePairedComparison(current, baseline, opts);
      expectMatchesNaive(pairedComparison(current, baseline, opts), naive);
      matched += naive.matched_cases;
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
    expectMatchesNaive(pairedSideComparison(read.side, pairedSide(baseline), opts), naivePairedComparison(outcomes, baseline, opts));
  });
});
