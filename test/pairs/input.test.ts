import { describe, expect, it } from "vitest";
import { isPairRecord, parsePairRecord } from "../../src/core/pairs/index.js";

describe("pair records", () => {
  it("reads id, new, old, gold and kind, and carries other fields through", () => {
    const parsed = parsePairRecord({ id: "p1", new: "A", old: "B", gold: "update", kind: "value", source: "quad" });
    expect(parsed).toEqual({ pair: { id: "p1", newText: "A", oldText: "B", gold: "update", kind: "value", extra: { source: "quad" } } });
  });

  it("matches gold case-insensitively after trimming; blank gold is unlabelled", () => {
    const gold = (g: unknown) => {
      const parsed = parsePairRecord({ id: "x", new: "", old: "", gold: g });
      if (!("pair" in parsed)) throw new Error("expected a pair");
      return parsed.pair;
    };
    expect(gold(" Update ").gold).toBe("update");
    expect(gold("").gold).toBeNull();
    expect(gold(null).gold).toBeNull();
    expect(gold("").unrecognisedGold).toBeUndefined();
    expect(gold("contradiction")).toMatchObject({ gold: null, unrecognisedGold: "contradiction" });
    expect(gold(2)).toMatchObject({ gold: null, unrecognisedGold: "2" });
  });

  it.each([
    [{ new: "a", old: "b" }, "bad_id"],
    [{ id: 7, new: "a", old: "b" }, "bad_id"],
    [{ id: "", new: "a", old: "b" }, "bad_id"],
    [{ id: "x", old: "b" }, "bad_new"],
    [{ id: "x", new: ["a"], old: "b" }, "bad_new"],
    [{ id: "x", new: "a", old: null }, "bad_old"],
    [{ id: "x", new: "a", old: "b", kind: 3 }, "bad_kind"],
  ])("rejects %j as %s", (record, code) => {
    const parsed = parsePairRecord(record);
    expect("error" in parsed && parsed.error.code).toBe(code);
  });

  it("keeps a __proto__ field as a plain pass-through value", () => {
    const parsed = parsePairRecord(JSON.parse('{"id":"x","new":"a","old":"b","__proto__":{"polluted":1}}'));
    expect("pair" in parsed).toBe(true);
    if (!("pair" in parsed)) return;
    expect(Object.keys(parsed.pair.extra)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("detects pair records by their new and old fields", () => {
    expect(isPairRecord({ id: "x", new: "a", old: "b" })).toBe(true);
    expect(isPairRecord({ id: "x", text: "a" })).toBe(false);
  });
});
