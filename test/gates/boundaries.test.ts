// Every gate kind at its threshold, just inside and just outside it. A gate compares with a slack
// of GATE_TOLERANCE (1e-12: float noise such as 0.6 computed as 0.5999999999999999 passes), so
// "just outside" is 1e-9 away: a slack as large as 1e-3 would let those through and fail here;
// "inside the slack" is 5e-13 away, which a comparison without slack would fail.
import { describe, expect, it } from "vitest";
import { evaluateGates, GATE_TOLERANCE } from "../../src/gates/evaluate.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "../../src/gates/spec.js";
import type { BaselineComparison } from "../../src/report/types.js";
import { fixtureComparison, fixtureReport } from "../report/fixture.js";

const OUTSIDE = 1e-9;
const IN_SLACK = 5e-13;

function comparisonOf(metric: string, baseline: number, current: number): BaselineComparison {
  return fixtureComparison({ [metric]: { current, baseline, difference: current - baseline, low: 0, high: 0 } });
}

describe("gate boundaries", () => {
  it("the slack is the documented 1e-12", () => {
    expect(GATE_TOLERANCE).toBe(1e-12);
  });

  // [gate flag, metric value, passes?]
  const bounds: [string, number, boolean][] = [
    ["accuracy>=0.6", 0.6, true],
    ["accuracy>=0.6", 0.6 + OUTSIDE, true],
    ["accuracy>=0.6", 0.6 - IN_SLACK, true],
    ["accuracy>=0.6", 0.6 - OUTSIDE, false],
    ["accuracy>=0.6", 0.5991, false],
    ["accuracy>=0", 0, true],
    ["macro_f1>=1", 1, true],
    ["macro_f1>=1", 1 - OUTSIDE, false],
    ["revision_cost<=0.4", 0.4, true],
    ["revision_cost<=0.4", 0.4 - OUTSIDE, true],
    ["revision_cost<=0.4", 0.4 + IN_SLACK, true],
    ["revision_cost<=0.4", 0.4 + OUTSIDE, false],
    ["revision_cost<=0.4", 0.4009, false],
    ["revision_cost<=0", 0, true],
    ["revision_cost<=0", OUTSIDE, false],
  ];
  it.each(bounds)("%s with value %s passes: %s", (flag, value, passes) => {
    const metric = flag.split(/[<>]=/)[0]!;
    const [result] = evaluateGates(fixtureReport({ metrics: { [metric]: value } }), [parseGateFlag(flag)]);
    expect(result).toMatchObject({ value, passed: passes });
  });

  // [max-drop flag, baseline, current, passes?]: a drop is baseline − current (higher is better),
  // current − baseline for lower-is-better metrics.
  const drops: [string, number, number, boolean][] = [
    ["accuracy=0", 0.7, 0.7, true],
    ["accuracy=0", 0.7, 0.7 + OUTSIDE, true],
    ["accuracy=0", 0.7, 0.7 - OUTSIDE, false],
    ["accuracy=0.02", 0.72, 0.7, true],
    ["accuracy=0.02", 0.72 + OUTSIDE, 0.7, false],
    ["accuracy=0.02", 0.72 - OUTSIDE, 0.7, true],
    ["macro_f1=0.05", 0.5, 0.45, true],
    ["macro_f1=0.05", 0.5, 0.45 - OUTSIDE, false],
    ["revision_cost=0", 0.3, 0.3, true],
    ["revision_cost=0", 0.3, 0.3 + OUTSIDE, false],
    ["revision_cost=0", 0.3, 0.3 - OUTSIDE, true],
    ["revision_cost=0.1", 0.3, 0.4, true],
    ["revision_cost=0.1", 0.3, 0.4 + OUTSIDE, false],
    ["format_invalid=0", 2, 3, false],
    ["format_invalid=1", 2, 3, true],
  ];
  it.each(drops)("max-drop %s from %s to %s passes: %s", (flag, baseline, current, passes) => {
    const gate = parseMaxDropFlag(flag);
    const [result] = evaluateGates(fixtureReport(), [gate], { baseline: comparisonOf(gate.metric, baseline, current) });
    expect(result!.passed).toBe(passes);
  });

  // [max-invalid-rate flag, invalid, total, passes?]
  const invalid: [string, number, number, boolean][] = [
    ["0.05", 5, 100, true],
    ["0.05", 6, 100, false],
    ["0.05", 4, 100, true],
    ["5%", 5, 100, true],
    ["5%", 6, 100, false],
    ["rate:0.1", 1, 10, true],
    ["rate:0.1", 2, 10, false],
    ["0", 0, 100, true],
    ["0", 1, 100, false],
    ["1", 100, 100, true],
    ["3", 3, 100, true],
    ["3", 4, 100, false],
    ["3", 2, 100, true],
    ["count:0", 0, 100, true],
    ["count:0", 1, 100, false],
    ["count:1", 1, 1, true],
    ["count:1", 2, 2, false],
  ];
  it.each(invalid)("max-invalid-rate %s with %s of %s invalid passes: %s", (flag, count, total, passes) => {
    const [result] = evaluateGates(fixtureReport(), [parseMaxInvalidRate(flag)], { invalid: { count, total } });
    expect(result!.passed).toBe(passes);
  });
});
