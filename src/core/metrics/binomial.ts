// Exact seeded binomial and multinomial draws for the bootstrap (bootstrap.ts). Drawing n cases
// with replacement from groups of sizes c_1 … c_S gives group counts that are multinomial
// (n; c_1/n, …, c_S/n); successive binomials draw exactly that: k_1 ~ Bin(n, c_1/n), then
// k_2 ~ Bin(n − k_1, c_2/(n − c_1)), and so on. The cost is O(S) per resample, whatever n.
//
// Binomial(N, p) with p ≤ ½ (p > ½ by symmetry): inversion (BINV: walk the pmf from 0, one
// uniform) when N·p < 10, else Hörmann's transformed rejection with squeeze (BTRS, "The
// generation of binomial random variates", J. Stat. Comput. Simul. 46, 1993), which accepts k with
// exactly the probability pmf(k)/bound(k), the pmf ratio evaluated through Stirling's series with
// its tail correction. Both are exact up to float64 rounding. p is given as an integer ratio so
// the complement is exact too.
//
// The bootstrap draws these in WebAssembly (multinomial-draws.ts), count for count the same: this
// file is their definition, and the reference the tests hold the module to.
import type { Prng } from "./prng.js";

/** Uniform in [0, 1) with 53 random bits (two 32-bit outputs). */
export function uniform53(prng: Prng): number {
  const hi = prng.nextUint32() >>> 5;
  const lo = prng.nextUint32() >>> 6;
  return (hi * 67108864 + lo) / 9007199254740992;
}

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** log k! − (Stirling's approximation (k + ½)·log(k + 1) − (k + 1) + ½·log 2π). */
function stirlingTailExact(k: number): number {
  let logFactorial = 0;
  for (let i = 2; i <= k; i++) logFactorial += Math.log(i);
  return logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + HALF_LOG_2PI);
}
export const STIRLING_TAIL = Float64Array.from({ length: 10 }, (_, k) => stirlingTailExact(k));

function stirlingTail(k: number): number {
  if (k < 10) return STIRLING_TAIL[k]!;
  const k1 = k + 1;
  const sq = k1 * k1;
  return (1 / 12 - (1 / 360 - 1 / 1260 / sq) / sq) / k1;
}

/** q^N, as the pinned draws computed it. */
function qToThe(q: number, N: number): number {
  // biome-ignore lint/style/useExponentiationOperator: the pinned draws were computed with Math.pow
  return Math.pow(q, N);
}

/**
 * Trial counts whose q^N the WebAssembly draws (multinomial-draws.ts) remember per group: counts
 * that agree modulo this share an entry. A bootstrap draws every resample from the same group
 * sizes, so a group's q is the same each time and its trial count varies little: most powers were
 * computed before, and the power was nine tenths of an inversion draw. A value never depends on
 * the memo: a group whose q or count differs computes it afresh.
 */
export const POWER_WAYS = 64;

// The draws below take p as part / whole, not as a double: a double argument to a call that is not
// inlined is boxed, once per group of every resample.

/** Bin(N, p) by inversion, p = part / whole ≤ ½, N·p small. */
function binomialInversion(prng: Prng, N: number, part: number, whole: number): number {
  const p = part / whole;
  const q = 1 - p;
  const s = p / q;
  const a = (N + 1) * s;
  const r0 = qToThe(q, N);
  for (;;) {
    let u = uniform53(prng);
    let r = r0;
    let k = 0;
    while (u > r && k <= N) {
      u -= r;
      k++;
      r *= a / k - s;
    }
    // k > N only through rounding in the tail: draw again.
    if (k <= N) return k;
  }
}

/** Bin(N, p) by BTRS, p = part / whole ≤ ½, N·p ≥ 10. */
function binomialRejection(prng: Prng, N: number, part: number, whole: number): number {
  const p = part / whole;
  const spq = Math.sqrt(N * p * (1 - p));
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = N * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const r = p / (1 - p);
  const alpha = (2.83 + 5.1 / b) * spq;
  const m = Math.floor((N + 1) * p);
  const bound0 = (m + 0.5) * Math.log((m + 1) / (r * (N - m + 1))) + stirlingTail(m) + stirlingTail(N - m);
  for (;;) {
    const u = uniform53(prng) - 0.5;
    let v = uniform53(prng);
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > N) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = Math.log((v * alpha) / (a / (us * us) + b));
    const bound =
      bound0 + (N + 1) * Math.log((N - m + 1) / (N - k + 1)) + (k + 0.5) * Math.log((r * (N - k + 1)) / (k + 1)) - stirlingTail(k) - stirlingTail(N - k);
    if (v <= bound) return k;
  }
}

/** Bin(N, part / whole), 0 ≤ part ≤ whole, whole > 0: exact, seeded by `prng`. */
export function binomial(prng: Prng, N: number, part: number, whole: number): number {
  if (N <= 0 || part <= 0) return 0;
  if (part >= whole) return N;
  if (2 * part > whole) return N - binomial(prng, N, whole - part, whole);
  return N * (part / whole) < 10 ? binomialInversion(prng, N, part, whole) : binomialRejection(prng, N, part, whole);
}

/**
 * Multinomial counts of `n` draws with replacement from groups of `sizes` (Σ sizes = n) into
 * `counts`; the indices of the groups drawn at least once go to `drawn`, in group order. Returns
 * how many were drawn.
 */
export function multinomialCounts(prng: Prng, sizes: ArrayLike<number>, n: number, counts: Float64Array, drawn: Int32Array): number {
  let trials = n;
  let mass = n;
  let distinct = 0;
  for (let s = 0; s < sizes.length && trials > 0; s++) {
    const size = sizes[s]!;
    const k = binomial(prng, trials, size, mass);
    mass -= size;
    trials -= k;
    counts[s] = k;
    if (k > 0) drawn[distinct++] = s;
  }
  return distinct;
}
