import { describe, expect, it } from "vitest";
import { CostsError, DEFAULT_UNIT_PRICES, parseUnitPrices } from "../../src/core/pairs/index.js";

describe("--costs validation", () => {
  it("accepts the four unit prices, defaulting any left out", () => {
    expect(parseUnitPrices({})).toEqual(DEFAULT_UNIT_PRICES);
    expect(parseUnitPrices({ downrank_live: 5, stale_kept: 0.5 })).toEqual({ ...DEFAULT_UNIT_PRICES, downrank_live: 5, stale_kept: 0.5 });
    expect(Object.is(parseUnitPrices({ stale_kept: -0 }).stale_kept, 0)).toBe(true);
  });

  it.each([
    [[], /JSON object/],
    [null, /JSON object/],
    [3, /JSON object/],
    [{ downrank: 2 }, /unknown unit price "downrank"/],
    [{ stale_kept: -1 }, /finite number >= 0, got -1/],
    [{ stale_kept: "1" }, /finite number >= 0, got "1"/],
    [{ stale_kept: null }, /finite number >= 0, got null/],
    [{ stale_kept: Infinity }, /finite number >= 0/],
    [{ stale_kept: Number.NaN }, /finite number >= 0/],
  ])("rejects %j", (value, message) => {
    expect(() => parseUnitPrices(value)).toThrow(CostsError);
    expect(() => parseUnitPrices(value)).toThrow(message);
  });

  it("rejects a __proto__ key parsed from JSON", () => {
    expect(() => parseUnitPrices(JSON.parse('{"__proto__": 1}'))).toThrow(/unknown unit price "__proto__"/);
  });
});
