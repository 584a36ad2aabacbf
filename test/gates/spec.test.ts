import { describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import { combineGates, gateName, parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "../../src/gates/spec.js";

describe("--gate", () => {
  it("parses minimums and maximums, with dotted metric paths", () => {
    expect(parseGateFlag("accuracy>=0.6")).toEqual({ kind: "min", metric: "accuracy", threshold: 0.6, source: "cli" });
    expect(parseGateFlag(" revision_cost <= .4 ")).toEqual({ kind: "max", metric: "revision_cost", threshold: 0.4, source: "cli" });
    expect(parseGateFlag("setcons.judgment>=7e-1", "config")).toEqual({ kind: "min", metric: "setcons.judgment", threshold: 0.7, source: "config" });
  });

  it.each([
    "accuracy>0.6",
    "accuracy=0.6",
    "accuracy>=",
    "accuracy>=abc",
    "accuracy>=NaN",
    "accuracy>=Infinity",
    ">=0.5",
    "acc uracy>=0.5",
    "accuracy>=0x10",
    "1st>=0.5",
  ])("rejects %j with an InputError naming the flag", (text) => {
    expect(() => parseGateFlag(text)).toThrow(InputError);
    expect(() => parseGateFlag(text)).toThrow(/^--gate "/);
  });
});

describe("--max-drop", () => {
  it("parses METRIC=DELTA", () => {
    expect(parseMaxDropFlag("macro_f1=0.02")).toEqual({ kind: "max_drop", metric: "macro_f1", threshold: 0.02, source: "cli" });
    expect(parseMaxDropFlag("accuracy = 0")).toMatchObject({ metric: "accuracy", threshold: 0 });
  });
  it.each(["macro_f1", "macro_f1=-0.1", "macro_f1=", "=0.1", "macro_f1>=0.1"])("rejects %j", (text) => {
    expect(() => parseMaxDropFlag(text)).toThrow(/^--max-drop "/);
  });
});

describe("--max-invalid-rate", () => {
  it("reads [0, 1] as a fraction, N% as a percentage and an integer above 1 as a count", () => {
    expect(parseMaxInvalidRate("0.05")).toMatchObject({ kind: "max_invalid_rate", threshold: 0.05, isCount: false });
    expect(parseMaxInvalidRate("0")).toMatchObject({ threshold: 0, isCount: false });
    expect(parseMaxInvalidRate("1")).toMatchObject({ threshold: 1, isCount: false });
    expect(parseMaxInvalidRate("5%")).toMatchObject({ threshold: 0.05, isCount: false });
    expect(parseMaxInvalidRate("5")).toMatchObject({ threshold: 5, isCount: true });
    expect(parseMaxInvalidRate("count:1")).toMatchObject({ threshold: 1, isCount: true });
    expect(parseMaxInvalidRate("count:0")).toMatchObject({ threshold: 0, isCount: true });
    expect(parseMaxInvalidRate("rate:0.5")).toMatchObject({ threshold: 0.5, isCount: false });
  });
  it.each(["-1", "2.5", "abc", "", "150%", "count:1.5", "count:-1", "rate:2"])("rejects %j", (text) => {
    expect(() => parseMaxInvalidRate(text)).toThrow(/^--max-invalid-rate "/);
  });
});

describe("gate names and precedence", () => {
  it("names gates canonically", () => {
    expect(gateName(parseGateFlag("accuracy>=0.60"))).toBe("accuracy>=0.6");
    expect(gateName(parseGateFlag("revision_cost<=0.4"))).toBe("revision_cost<=0.4");
    expect(gateName(parseMaxDropFlag("macro_f1=0.02"))).toBe("max_drop macro_f1=0.02");
    expect(gateName(parseMaxInvalidRate("0.05"))).toBe("max_invalid_rate=0.05");
    expect(gateName(parseMaxInvalidRate("3"))).toBe("max_invalid_count=3");
  });

  it("lets flags win over config and config over task defaults, per kind and metric", () => {
    const cli = [parseGateFlag("accuracy>=0.7")];
    const config = [parseGateFlag("accuracy>=0.5", "config"), parseGateFlag("accuracy<=0.99", "config"), parseMaxInvalidRate("0.1", "config")];
    const defaults = [
      { ...parseGateFlag("update_recall>=0.6"), source: "default" as const },
      { ...parseMaxInvalidRate("0.2"), source: "default" as const },
    ];
    const combined = combineGates(cli, config, defaults);
    expect(combined.map((g) => `${g.source}:${gateName(g)}`)).toEqual([
      "cli:accuracy>=0.7",
      "config:accuracy<=0.99",
      "config:max_invalid_rate=0.1",
      "default:update_recall>=0.6",
    ]);
  });
});
