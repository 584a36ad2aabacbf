// The WebAssembly multinomial draws (src/core/metrics/multinomial-draws.ts, source
// wasm/multinomial.ts) against their definition in binomial.ts: for generated group sizes (a few
// large groups: rejection draws; many small ones: inversion draws; both), seeds (negative, large,
// fractional: all taken as prng.ts takes them) and resample indices, every count and the list of
// drawn groups are the same, resample after resample on one instance (its remembered powers
// included).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { multinomialCounts } from "../../../src/core/metrics/binomial.js";
import { MultinomialDraws } from "../../../src/core/metrics/multinomial-draws.js";
import { createPrng } from "../../../src/core/metrics/prng.js";

const sizesOf = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 6 }),
  fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 300 }),
  fc.array(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 50, max: 20_000 })), { minLength: 1, maxLength: 60 }),
);
const seedOf = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, 1, 2 ** 32 + 5, 17.5, 2 ** 53));

describe("the WebAssembly multinomial draws", () => {
  it("draw binomial.ts's counts, resample after resample", () => {
    fc.assert(
      fc.property(sizesOf, seedOf, fc.integer({ min: 0, max: 100_000 }), (sizes, seed, first) => {
        const draws = new MultinomialDraws(Float64Array.from(sizes));
        const n = sizes.reduce((a, b) => a + b, 0);
        const counts = new Float64Array(sizes.length);
        const drawn = new Int32Array(sizes.length);
        for (let b = first; b < first + 12; b++) {
          const distinct = multinomialCounts(createPrng(seed, b), sizes, n, counts, drawn);
          expect(draws.draw(seed, b, n)).toBe(distinct);
          expect(Array.from(draws.drawn.subarray(0, distinct))).toEqual(Array.from(drawn.subarray(0, distinct)));
          for (let k = 0; k < distinct; k++) expect(draws.counts[drawn[k]!]).toBe(counts[drawn[k]!]);
          let total = 0;
          for (let k = 0; k < distinct; k++) total += counts[drawn[k]!]!;
          expect(total).toBe(n);
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it("draw the same counts for the groups of a GRPO-shaped bootstrap (512 groups of 37,500 cases), 200 resamples", () => {
    const sizes = Array.from({ length: 512 }, (_, g) => 1 + ((g * 2654435761) % 140));
    const n = sizes.reduce((a, b) => a + b, 0);
    const draws = new MultinomialDraws(Float64Array.from(sizes));
    const counts = new Float64Array(sizes.length);
    const drawn = new Int32Array(sizes.length);
    let mismatches = 0;
    for (let b = 0; b < 200; b++) {
      const distinct = multinomialCounts(createPrng(42, b), sizes, n, counts, drawn);
      if (draws.draw(42, b, n) !== distinct) mismatches++;
      for (let k = 0; k < distinct; k++) if (draws.drawn[k] !== drawn[k] || draws.counts[drawn[k]!] !== counts[drawn[k]!]) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});
