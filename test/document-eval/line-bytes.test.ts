import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteSink, utf8 } from "../../src/tasks/document/line-bytes.js";

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

  it("grows past its initial buffer", () => {
    const sink = new ByteSink();
    const block = utf8("0123456789".repeat(1000));
    for (let k = 0; k < 600; k++) sink.bytes(block);
    const out = sink.take();
    expect(out.length).toBe(6_000_000);
    expect(decode(out.subarray(5_999_990))).toBe("0123456789");
  });
});
