// Headline over runs (docs/comparable-reports.md): arithmetic mean; spread = population std, min, max.
export interface Spread {
  mean: number;
  std: number;
  min: number;
  max: number;
}

/**
 * The spread of `width` columns over `count` rows without holding the columns (at a million runs
 * and 21 metrics they were 168 MB): `fill(i, row)` writes row i's values into `row`, once for the
 * sums, min and max and, unless `meanOnly`, once more for the squared deviations from the mean, so
 * it must give the same values both times. Each column's additions are those of a two-pass loop
 * over it, in row order, so the results are the same bits.
 */
export function spreadsOf(width: number, count: number, fill: (i: number, row: Float64Array) => void, meanOnly = false): Spread[] {
  if (count === 0) return Array.from({ length: width }, () => ({ mean: 0, std: 0, min: 0, max: 0 }));
  const row = new Float64Array(width);
  const sum = new Float64Array(width);
  const min = new Float64Array(width).fill(Infinity);
  const max = new Float64Array(width).fill(-Infinity);
  for (let i = 0; i < count; i++) {
    fill(i, row);
    for (let c = 0; c < width; c++) {
      const v = row[c]!;
      sum[c]! += v;
      if (v < min[c]!) min[c] = v;
      if (v > max[c]!) max[c] = v;
    }
  }
  const mean = sum.map((s) => s / count);
  const squares = new Float64Array(width);
  if (!meanOnly) {
    for (let i = 0; i < count; i++) {
      fill(i, row);
      for (let c = 0; c < width; c++) squares[c]! += (row[c]! - mean[c]!) * (row[c]! - mean[c]!);
    }
  }
  return Array.from({ length: width }, (_, c) => ({ mean: mean[c]!, std: Math.sqrt(squares[c]! / count), min: min[c]!, max: max[c]! }));
}
