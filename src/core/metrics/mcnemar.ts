// McNemar's exact test for two paired sets of right/wrong outcomes (the paired comparison with a
// baseline, src/gates/paired.ts): only the discordant units count, and under "no difference" each
// is equally likely to favour either side, so their split is Binomial(b + c, 1/2).

/** The test's result, as report.json records it (plus the rule that made units right, added by the caller). */
export interface McNemarTest {
  /** Units the baseline got right and the current run got wrong. */
  baseline_only: number;
  /** Units the current run got right and the baseline got wrong. */
  current_only: number;
  p_value: number;
  method: "exact_binomial";
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so that large n does not underflow. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // log of C(n, i) / 2^n from i = 0 upwards, summed relative to the largest term.
  const logs = new Float64Array(k + 1);
  logs[0] = -n * Math.LN2;
  for (let i = 0; i < k; i++) logs[i + 1] = logs[i]! + Math.log(n - i) - Math.log(i + 1);
  let top = -Infinity;
  for (let i = 0; i <= k; i++) top = Math.max(top, logs[i]!);
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logs[i]! - top);
  return Math.min(1, Math.exp(top) * sum);
}

/**
 * McNemar's exact test: `baselineOnly` units only the baseline got right, `currentOnly` units only
 * the current run got right. Two-sided p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2).
 */
export function mcnemarExact(baselineOnly: number, currentOnly: number): McNemarTest {
  const n = baselineOnly + currentOnly;
  const p = n === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(Math.min(baselineOnly, currentOnly), n));
  return { baseline_only: baselineOnly, current_only: currentOnly, p_value: p, method: "exact_binomial" };
}
