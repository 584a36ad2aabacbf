import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bitsKey, lowBitsKeys, unitsKey } from "../../../src/core/metrics/bits-key.js";

describe("row keys", () => {
  it("lowBitsKeys is bitsKey of each row's low bits (short rows as numbers, long ones as units)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 4 }), (bytes, rows) => {
        const count = Math.floor(bytes.length / rows);
        const keys = lowBitsKeys(bytes, count, rows);
        expect(keys.length).toBe(rows);
        for (let r = 0; r < rows; r++) expect(keys[r]).toBe(bitsKey(count, (k) => bytes[r * count + k]! & 1));
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
