// Wilson score interval for a proportion (docs/eval.md, "Metrics"; z pinned by docs/comparable-reports.md).
export const WILSON_Z = 1.959963984540054;

/** 95% Wilson interval for `successes` out of `n`; [0, 0] when n = 0 (a rate over nothing is 0). */
export function wilsonInterval(successes: number, n: number, z = WILSON_Z): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 0 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
