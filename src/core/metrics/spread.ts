// Headline over runs (docs/comparable-reports.md): arithmetic mean; spread = population std, min, max.
export interface Spread {
  mean: number;
  std: number;
  min: number;
  max: number;
}

export function spreadOf(values: ArrayLike<number>): Spread {
  if (values.length === 0) return { mean: 0, std: 0, min: 0, max: 0 };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / values.length;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) * (values[i]! - mean);
  return { mean, std: Math.sqrt(squares / values.length), min, max };
}
