import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteSink, FractionBytes, utf8 } from "../../src/tasks/document/line-bytes.js";

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe("ByteSink (cases.jsonl bytes)", () => {
  it("renders every number exactly as String() does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double(), fc.integer(), fc.nat(), fc.constantFrom(0, -0, 1 / 3, 2147483647, 2147483648, 1e21, 5e-7)), { maxLength: 40 }),
        (values) => {
          const sink = new ByteSink();
          for (const v of values) {
            sink.number(v);
            sink.bytes(utf8(","));
          }
          expect(decode(sink.take())).toBe(values.map((v) => `${String(v)},`).join(""));
        },
      ),
    );
  });

  it("copies short and long fragments, non-ASCII included, and starts over after take()", () => {
    const sink = new ByteSink();
    const long = "é".repeat(100) + "x";
    sink.bytes(utf8("ab"));
    sink.ascii("12");
    sink.bytes(utf8(long));
    expect(decode(sink.take())).toBe(`ab12${long}`);
    sink.bytes(utf8("z"));
    expect(decode(sink.take())).toBe("z");
  });

  it("writes text as the bytes utf8() gives, lone surrogates and a small buffer included", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.string({ unit: "binary" }),
            fc.string({ unit: "binary-ascii" }),
            fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
          ),
          { maxLength: 8 },
        ),
        (texts) => {
          const sink = new ByteSink(new Uint8Array(4));
          for (const text of texts) sink.text(text);
          const expected = texts.flatMap((text) => Array.from(utf8(text)));
          expect(Array.from(sink.take())).toEqual(expected);
        },
      ),
    );
  });

  it("grows past its initial buffer", () => {
    const sink = new ByteSink();
    const block = utf8("0123456789".repeat(1000));
    for (let k = 0; k < 600; k++) sink.bytes(block);
    const out = sink.take();
    expect(out.length).toBe(6_000_000);
    expect(decode(out.subarray(5_999_990))).toBe("0123456789");
  });
});

describe("FractionBytes", () => {
  it("writes before, the number as String() renders it, then after, fractions k / n or not", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 60 }),
        fc.array(fc.oneof(fc.nat({ max: 70 }), fc.double(), fc.constantFrom(-0, 0, 1, Number.NaN, Number.POSITIVE_INFINITY)), { maxLength: 30 }),
        (n, picks) => {
          const fractions = new FractionBytes(n, "<[", "]>\n");
          const sink = new ByteSink(new Uint8Array(4));
          let expected = "";
          for (const pick of picks) {
            // A nat stands for the fraction pick / n (above n: beyond the cached ones).
            const value = Number.isInteger(pick) && pick >= 0 && !Object.is(pick, -0) && n > 0 ? pick / n : pick;
            const buf = sink.room(fractions.most);
            sink.advance(fractions.write(buf, sink.view, sink.length, value));
            expected += `<[${String(value)}]>\n`;
          }
          expect(decode(sink.take())).toBe(expected);
        },
      ),
    );
  });
});

describe("run lines of cases.jsonl", () => {
  it("are the bytes a plain JSON rendering gives, written one after another into a small buffer", async () => {
    const { coverageTailsOf, writeRunLine } = await import("../../src/tasks/document/range.js");
    const { CASE_REASONS } = await import("../../src/tasks/document/score.js");
    const line = fc.record({
      key: fc.oneof(fc.string(), fc.nat().map(String)),
      line: fc.nat({ max: 2 ** 31 - 1 }),
      judgment: fc.boolean(),
      reasonIdx: fc.nat({ max: CASE_REASONS.length - 1 }),
      evidence: fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 12 }),
      coverage: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, 1, 1 / 3, -0),
        fc.tuple(fc.nat({ max: 40 }), fc.integer({ min: 1, max: 40 })).map(([k, n]) => k / n),
      ),
      // The case's sentence count, when the line is written through its coverage tails.
      sentences: fc.option(fc.nat({ max: 40 })),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), (lines) => {
        // A sink that starts with 8 bytes: the line's one capacity check must grow it.
        const sink = new ByteSink(new Uint8Array(8));
        let expected = "";
        for (const l of lines) {
          const key = utf8(JSON.stringify(l.key));
          const tails = l.sentences === null ? undefined : coverageTailsOf(l.sentences);
          writeRunLine(sink, key, 0, key.length, l.line, l.judgment, l.reasonIdx, Int32Array.from(l.evidence), 0, l.evidence.length, l.coverage, tails);
          const reason = CASE_REASONS[l.reasonIdx];
          const record: Record<string, unknown> = { run: l.key };
          if (l.line !== 0) record.line = l.line;
          record.judgment = l.judgment;
          if (reason !== null) record.reason = reason;
          record.evidence_sentence_ids = l.evidence;
          record.reference_coverage = l.coverage;
          expected += `${JSON.stringify(record)}\n`;
        }
        expect(decode(sink.take())).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
