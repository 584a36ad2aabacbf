// The flat-object reader (src/io/flat-json.ts) against JSON.parse, the parser it stands in for: on
// generated lines and on those lines mutated character by character, whenever the reader answers,
// JSON.parse accepts the line and gives the same keys in the same order with the same values. On
// lines that are flat objects of strings it must answer, or it would agree by never answering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFlatStringObject } from "../../src/io/flat-json.js";

/** Keys and values as JSON.parse orders them, and whether the object is a plain one. */
const entriesOf = (value: object): unknown => ({ proto: Object.getPrototypeOf(value), entries: Object.entries(value) });

function agrees(line: string): boolean {
  const read = parseFlatStringObject(line);
  if (read === undefined) return false;
  let parsed: unknown;
  expect(() => {
    parsed = JSON.parse(line);
  }).not.toThrow();
  expect(entriesOf(read)).toStrictEqual(entriesOf(parsed as object));
  return true;
}

const key = fc.oneof(
  fc.constantFrom("id", "new", "old", "kind", "gold", "__proto__", "constructor", "toString", "1", "", 'a"b', "é"),
  fc.string({ maxLength: 6 }),
);
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("u07#123456", "Paris is the capital.", 'say "hi"\n\tthen \\ leave', "\u2028\u2029", "\ud800 lone"),
);
const value = fc.oneof({ weight: 6, arbitrary: text }, fc.integer(), fc.boolean(), fc.constant(null), fc.constant([1, "a"]), fc.constant({ a: "b" }));
const space = fc.constantFrom("", "", " ", "  ", "\t", "\r\n ", "\u00a0", "\ufeff");

/** A JSON object line written member by member (so keys may repeat), with some whitespace between tokens. */
const line = fc.tuple(fc.array(fc.tuple(key, value), { maxLength: 6 }), space, fc.boolean()).map(([members, sp, escapeAll]) => {
  const str = (s: string) => (escapeAll ? JSON.stringify(s).replace(/[a-z]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : JSON.stringify(s));
  const body = members.map(([k, v]) => `${sp}${str(k)}${sp}:${sp}${typeof v === "string" ? str(v) : JSON.stringify(v)}${sp}`).join(",");
  return `${sp}{${body}}${sp}`;
});

const mutated = fc
  .tuple(line, fc.nat(), fc.constantFrom("", '"', "\\", "{", "}", ",", ":", " ", "\n", "\u0000", "\u001f", "x", "\\u12", "\\q"))
  .map(([l, at, insert]) => {
    const i = l.length === 0 ? 0 : at % l.length;
    return insert === "" ? l.slice(0, i) + l.slice(i + 1) : l.slice(0, i) + insert + l.slice(i + (at % 2));
  });

describe("parseFlatStringObject", () => {
  it("gives what JSON.parse gives whenever it answers, on generated and mutated lines", () => {
    fc.assert(
      fc.property(line, (l) => void agrees(l)),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(mutated, (l) => void agrees(l)),
      { numRuns: 5000 },
    );
  });

  it("answers for a flat object of strings without raw control characters, however its strings are escaped", () => {
    const flat = fc.tuple(
      fc.uniqueArray(
        key.filter((k) => k !== "__proto__"),
        { maxLength: 6 },
      ),
      fc.array(text, { minLength: 6, maxLength: 6 }),
      space,
    );
    fc.assert(
      fc.property(flat, ([keys, values, sp]) => {
        const l = `{${keys.map((k, i) => `${sp}${JSON.stringify(k)}${sp}:${sp}${JSON.stringify(values[i])}`).join(",")}}`;
        // A no-break space or a BOM makes the line malformed for both; a tab, newline or return
        // between tokens is JSON whitespace, but a line holding one is left to JSON.parse whole.
        if (keys.length > 0 && /[\u00a0\ufeff\t\n\r]/.test(sp)) expect(parseFlatStringObject(l)).toBeUndefined();
        else expect(agrees(l)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the first key's place and the last value when a key repeats, as JSON.parse does", () => {
    const record = parseFlatStringObject('{"id":"a","new":"n","id":"b","old":"o"}');
    expect(record).toBeDefined();
    expect(Object.entries(record ?? {})).toStrictEqual([
      ["id", "b"],
      ["new", "n"],
      ["old", "o"],
    ]);
  });

  it("leaves to JSON.parse every line outside its grammar", () => {
    for (const l of [
      '{"id":1,"new":"n"}',
      '{"__proto__":"x"}',
      '{"\\u005f_proto__":"x"}',
      '{"id":"a\u0001b"}',
      '{"id":"a\\qb"}',
      '{"id":"a"} x',
      '{"id":"a",}',
      '{"id":"a"',
      "[]",
      "",
    ]) {
      expect(parseFlatStringObject(l), l).toBeUndefined();
    }
  });
});
