import { describe, expect, it } from "vitest";
import { binomialHalfCdf, mcnemarExact } from "../../../src/core/metrics/mcnemar.js";

describe("McNemar (exact binomial)", () => {
  it("matches hand-computed two-sided p values", () => {
    // b = 10, c = 5: 2 · (1 + 15 + 105 + 455 + 1365 + 3003) / 2^15
    expect(mcnemarExact(10, 5)).toMatchObject({ baseline_only: 10, current_only: 5, method: "exact_binomial" });
    expect(mcnemarExact(10, 5).p_value).toBeCloseTo(9888 / 32768, 14);
    expect(mcnemarExact(1, 9).p_value).toBeCloseTo(22 / 1024, 14);
    expect(mcnemarExact(9, 1).p_value).toBeCloseTo(22 / 1024, 14);
    expect(mcnemarExact(0, 6).p_value).toBeCloseTo(2 / 64, 14);
    expect(mcnemarExact(3, 3).p_value).toBe(1);
    expect(mcnemarExact(0, 0).p_value).toBe(1);
  });

  it("stays accurate for large discordant counts (no underflow)", () => {
    // P(X ≤ 500), X ~ Bin(1000, 1/2) = 1/2 + C(1000, 500) / 2^1001.
    expect(binomialHalfCdf(500, 1000)).toBeCloseTo(0.5126125090891569, 12);
    expect(binomialHalfCdf(0, 2000)).toBeCloseTo(0, 300);
    const p = mcnemarExact(5000, 5300).p_value;
    expect(p).toBeGreaterThan(0.002);
    expect(p).toBeLessThan(0.004);
  });
});
