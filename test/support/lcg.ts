// The tests' own pseudo-random numbers: a linear congruential generator, so that a generated input
// is the same on every run and machine (fast-check's seeds aside).

/** Numbers in [0, n) from `seed`, the same sequence every time. */
export function lcg(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}
