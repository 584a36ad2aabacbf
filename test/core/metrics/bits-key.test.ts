import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bitsKey, lowBitsKey, unitsKey } from "../../../src/core/metrics/bits-key.js";

describe("row keys", () => {
  it("lowBitsKey is bitsKey of the bytes' low bits (short rows as numbers, long ones as units)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(20), (bytes, skip) => {
        const from = Math.min(skip, bytes.length);
        const count = bytes.length - from;
        expect(lowBitsKey(bytes, from, count)).toBe(bitsKey(count, (k) => bytes[from + k]! & 1));
      }),
      { numRuns: 200 },
    );
  });

  it("unitsKey spells one code unit per 16-bit unit, across its 4,096-unit chunks", () => {
    const units = Uint16Array.from({ length: 9000 }, (_, k) => (k * 40503) & 0xffff);
    const key = unitsKey(units, 3, 8999);
    expect(key.length).toBe(8996);
    for (let k = 0; k < key.length; k += 97) expect(key.charCodeAt(k)).toBe(units[3 + k]);
  });
});
