// The order runs are listed and summed in: run keys that are non-negative integers ("0", "1",
// "10") first, by value, then every other key in code-unit order. It depends on the keys only, not
// on the order a dump's lines arrive in, so a shuffled dump (a batch output file in completion
// order) gives the same sums to the last bit; a dump written in run order keeps its order.

const INTEGER_KEY = /^(0|[1-9][0-9]*)$/;

export function compareRunKeys(a: string, b: string): number {
  const ai = INTEGER_KEY.test(a);
  const bi = INTEGER_KEY.test(b);
  if (ai !== bi) return ai ? -1 : 1;
  // Integers of any length compare by length first (no leading zeros), then digit by digit.
  if (ai && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The positions of `keys` in run order: `order[r]` is the index in `keys` of the r-th run. */
export function runOrder(keys: readonly string[]): number[] {
  return keys.map((_, i) => i).sort((i, j) => compareRunKeys(keys[i]!, keys[j]!));
}
