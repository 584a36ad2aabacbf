// Rates over possibly empty populations: docs/comparable-reports.md says any mean or rate over nothing is 0.
export function rate(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}
