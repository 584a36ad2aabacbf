// The run-line scanner's reading of a coverage without a string (wasm/run-lines.ts, exactDecimal):
// whenever it gives a value, that value is the one JSON.parse gives for the same text, to the bit
// (-0 included); it declines (NaN) for what it cannot read exactly, and the reader then asks Number().
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { instantiateSized, WASM_OWN_BYTES } from "../../src/core/wasm.js";
import { RUN_LINES_WASM } from "../../src/gates/run-lines-wasm.js";

const ROOM = 4096;
const { exports, buffer } = instantiateSized<{ heapBase(): number; exactDecimal(block: number, at: number, stop: number): number }>(
  RUN_LINES_WASM,
  "run-lines",
  ROOM,
);
const memory = new Uint8Array(buffer);

/** The module's exactDecimal of a number's text (written into its memory between other bytes). */
function exactDecimal(text: string): number {
  const bytes = Buffer.from(`x${text}y`, "latin1");
  memory.set(bytes, WASM_OWN_BYTES);
  return exports.exactDecimal(WASM_OWN_BYTES, 1, 1 + text.length);
}

/** exactDecimal of a JSON number's text, and JSON.parse's value of it. */
function both(text: string): { exact: number; parsed: number } {
  return { exact: exactDecimal(text), parsed: JSON.parse(text) as number };
}

function agrees(text: string): boolean {
  const { exact, parsed } = both(text);
  return Number.isNaN(exact) || Object.is(exact, parsed);
}

describe("a coverage read without a string", () => {
  it("is JSON.parse's value of every coverage k / n mari writes, n up to 400", () => {
    let read = 0;
    let all = 0;
    for (let n = 1; n <= 400; n++) {
      for (let k = 0; k <= n; k++) {
        const text = String(k / n);
        const { exact, parsed } = both(text);
        all++;
        if (Number.isNaN(exact)) continue;
        read++;
        expect(Object.is(exact, parsed), text).toBe(true);
      }
    }
    // Most are read here: the rest are 17 significant digits (or 16 above 2^53).
    expect(read / all).toBeGreaterThan(0.5);
  });

  it("agrees with JSON.parse or declines, on random decimals of up to 24 digits", () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,17})$/), fc.option(fc.stringMatching(/^[0-9]{1,24}$/), { nil: undefined }))
      .map(([negative, int, frac]) => `${negative ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`);
    fc.assert(fc.property(decimal, agrees), { numRuns: 20000, seed: 20261206 });
  });

  it("declines at and past 2^53 digits and past 22 places, reads just below", () => {
    // 2^53 + 1 computes as 2^53 digit by digit: it must be declined, not read as 2^53.
    for (const text of ["9007199254740993", "0.9007199254740993", "9007199254740992", "90071992547409921", "1.00000000000000000000001"]) {
      expect(exactDecimal(text), text).toBeNaN();
    }
    for (const text of ["9007199254740991", "0.9007199254740991", "0.0000000000000000000001", "-0", "-0.0", "0.5", "123.456"]) {
      const { exact, parsed } = both(text);
      expect(Object.is(exact, parsed), text).toBe(true);
    }
    expect(Object.is(both("-0").exact, -0)).toBe(true);
  });

  it("declines an exponent", () => {
    for (const text of ["1e-7", "2.5E-1", "5e0"]) expect(exactDecimal(text), text).toBeNaN();
  });
});
