// A small seeded PRNG for the bootstrap. Reports must be reproducible from (seed, B) alone and
// independent of how work is split, so every bootstrap resample b draws from its own stream,
// seeded from (seed, b); no state is shared between resamples.
//
// Generator: SplitMix32-style seeding into Mulberry32 (32-bit state, period 2^32, passes
// PractRand to 32 GB for this use: uniform case indices for resampling, not cryptography).

/** Mixes two 32-bit integers into a well-spread 32-bit seed (murmur3 finaliser). */
function mixSeed(seed: number, stream: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream | 0, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface Prng {
  /** Next value, uniform in [0, 2^32). */
  nextUint32(): number;
  /** Uniform integer in [0, bound), bound ≤ 2^32 (rejection sampling: no modulo bias). */
  nextBelow(bound: number): number;
}

/**
 * Mulberry32 seeded from (seed, stream). A class, not closures: the bootstrap makes a generator per
 * resample, and a fresh pair of closures each time kept its hot call sites from inlining them.
 */
export function createPrng(seed: number, stream = 0): Prng {
  return new Mulberry32(mixSeed(seed, stream));
}

class Mulberry32 implements Prng {
  // In a typed array: a state above 2^30 in a field was a new heap number at every draw.
  private readonly state = new Uint32Array(1);

  constructor(state: number) {
    this.state[0] = state;
  }

  nextUint32(): number {
    const t0 = (this.state[0]! + 0x6d2b79f5) >>> 0;
    this.state[0] = t0;
    let t = t0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  nextBelow(bound: number): number {
    if (bound <= 1) return 0;
    const limit = Math.floor(0x100000000 / bound) * bound;
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % bound;
    }
  }
}
