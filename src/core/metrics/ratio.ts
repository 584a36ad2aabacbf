// Rates over possibly empty populations: Appendix A says any mean or rate over nothing is 0.
export function rate(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}
