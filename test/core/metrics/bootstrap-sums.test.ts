// The WebAssembly resample values (src/core/metrics/bootstrap-sums.ts, source
// wasm/bootstrap-sums.ts) against bootstrap.ts's unpacked loop, bit for bit: generated slices of
// many sizes and run counts, with runs repeated (distinct runs weighted), one gold class only,
// counters of 1 to 17 bits (one to many per lane), the GRPO shape (8 runs × 37,500 cases) and the
// 1M-line bench's (1,123 runs × 891 cases); and a row changed on purpose is seen.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bootstrapMacroF1Values, bootstrapUnpacked, signatureTable } from "../../../src/core/metrics/bootstrap.js";
import { bootstrapSumsValues } from "../../../src/core/metrics/bootstrap-sums.js";
import { createPrng } from "../../../src/core/metrics/prng.js";

/** A slice of n cases and R runs drawn from `distinct` run patterns (judged right with probability `skill`). */
function slice(n: number, R: number, distinct: number, positiveShare: number, skill: number, salt: number): { labels: Uint8Array; codes: Uint8Array } {
  const rand = createPrng(salt, 7);
  const labels = Uint8Array.from({ length: n }, () => (rand.nextUint32() / 2 ** 32 < positiveShare ? 1 : 0));
  const patterns = Array.from({ length: distinct }, () => Uint8Array.from(labels, (l) => 2 * l + (rand.nextUint32() / 2 ** 32 < skill ? l : 1 - l)));
  const codes = new Uint8Array(n * R);
  for (let r = 0; r < R; r++) codes.set(patterns[r < distinct ? r : rand.nextBelow(distinct)]!, r * n);
  return { labels, codes };
}

/** Both loops' values of resamples from … to − 1, as bit patterns. */
function bothValues(labels: Uint8Array, codes: Uint8Array, R: number, seed: number, from: number, to: number): { wasm: string; unpacked: string } {
  const bitsOf = (values: Float64Array): string => Array.from(new BigUint64Array(values.buffer, values.byteOffset, values.length), String).join(",");
  const table = signatureTable(labels, codes, R);
  return {
    wasm: bitsOf(bootstrapMacroF1Values(labels, codes, R, seed, from, to)),
    unpacked: bitsOf(bootstrapUnpacked(table, labels.length, seed, from, to)),
  };
}

describe("the WebAssembly resample values", () => {
  it("are the unpacked loop's, bit for bit, on generated slices", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(0, 0.1, 0.5, 1),
        fc.constantFrom(0.5, 0.8, 0.99),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 10_000 }),
        (n, R, distinct, positiveShare, skill, seed, from) => {
          const { labels, codes } = slice(n, R, Math.min(R, distinct), positiveShare, skill, seed ^ n);
          const { wasm, unpacked } = bothValues(labels, codes, R, seed, from, from + 30);
          expect(wasm).toBe(unpacked);
        },
      ),
      { numRuns: 150, seed: 5 },
    );
  });

  it("are the unpacked loop's with counters of 17 bits (one run a lane): 70,000 cases", () => {
    const { labels, codes } = slice(70_000, 5, 5, 0.3, 0.9, 3);
    const { wasm, unpacked } = bothValues(labels, codes, 5, 11, 0, 20);
    expect(wasm).toBe(unpacked);
  });

  it("are the unpacked loop's in the GRPO shape: 8 runs × 37,500 cases", () => {
    const { labels, codes } = slice(37_500, 8, 8, 0.4, 0.7, 1);
    const { wasm, unpacked } = bothValues(labels, codes, 8, 2024, 0, 100);
    expect(wasm).toBe(unpacked);
  });

  it("are the unpacked loop's in the 1M-line bench's shape: 1,123 runs × 891 cases", () => {
    const { labels, codes } = slice(891, 1123, 1000, 0.5, 0.75, 2);
    const { wasm, unpacked } = bothValues(labels, codes, 1123, 42, 950, 1000);
    expect(wasm).toBe(unpacked);
  }, 60_000);

  it("are the same in blocks of resamples as in one", () => {
    const { labels, codes } = slice(500, 30, 12, 0.5, 0.8, 4);
    const whole = bootstrapMacroF1Values(labels, codes, 30, 9, 0, 60);
    const parts = [bootstrapMacroF1Values(labels, codes, 30, 9, 0, 25), bootstrapMacroF1Values(labels, codes, 30, 9, 25, 60)];
    expect(Array.from(whole)).toEqual([...parts[0]!, ...parts[1]!]);
  });

  it("tell a changed judgment from the right one (the comparison can fail)", () => {
    const { labels, codes } = slice(891, 50, 50, 0.5, 0.75, 6);
    const table = signatureTable(labels, codes, 50);
    const right = bootstrapSumsValues(table, 891, 50, 10, 1, 0, 20);
    // Run 17's judgment flipped in one group: some resample draws it, and its value moves.
    const codesChanged = table.codes.slice();
    codesChanged[17 * table.groups + 3]! ^= 1;
    const changed = bootstrapSumsValues({ ...table, codes: codesChanged }, 891, 50, 10, 1, 0, 20);
    expect(Array.from(changed)).not.toEqual(Array.from(right));
    expect(Array.from(right)).toEqual(Array.from(bootstrapUnpacked(table, 891, 1, 0, 20)));
  });
});
