import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { printSummary, renderSummary } from "../../src/cli/summary.js";
import { fixtureReport } from "./fixture.js";

function sink(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      stream.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  stream.text = "";
  return stream;
}

describe("summary", () => {
  it("shows headline metrics with CIs, rejections, orphans, gates and the files", () => {
    const text = renderSummary(fixtureReport(), { outDir: "out", files: ["out/report.json", "out/report.md"] }, (_style, t) => t);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("mari documents: 4 cases, 2 runs (dump.jsonl)");
    expect(text).toContain("  accuracy              0.7500  95% CI [0.3000, 0.9500] n=4  ±0.2500 over runs\n");
    expect(text).toContain("  macro_f1              0.7333  95% CI [0.2000, 1] n=4\n");
    expect(text).toContain("  setcons.judgment  0.5000\n");
    expect(text).not.toMatch(/^ {2}tp /m);
    expect(text).toContain("  rejected/invalid: 3 (bad_judgment 2, malformed_json 1)\n");
    expect(text).toContain("  orphans: 1 predictions for unknown case ids\n");
    expect(text).toContain("  pass accuracy>=0.6 (value 0.7500)\n");
    expect(text).toContain("  FAIL macro_f1>=0.8 (value 0.7333) below <threshold> & falling\n");
    // The files, then the verdict as the last line.
    expect(lines.slice(-2)).toEqual(["report: out/report.json, out/report.md", "gates: 1 of 2 gates FAILED"]);
  });

  it("prints nothing when quiet, and no colour codes on a non-terminal stream", () => {
    const quiet = sink();
    printSummary(fixtureReport(), { quiet: true, outDir: "out", stream: quiet });
    expect(quiet.text).toBe("");
    const plain = sink();
    printSummary(fixtureReport(), { quiet: false, outDir: "out", stream: plain });
    expect(plain.text).toContain("mari documents: 4 cases");
    expect(plain.text).not.toContain("\u001b[");
  });

  it("colours with FORCE_COLOR", () => {
    const saved = process.env.FORCE_COLOR;
    const savedNo = process.env.NO_COLOR;
    process.env.FORCE_COLOR = "1";
    delete process.env.NO_COLOR;
    try {
      const stream = sink();
      printSummary(fixtureReport(), { quiet: false, outDir: "out", stream });
      expect(stream.text).toContain("\u001b[");
    } finally {
      if (saved === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = saved;
      if (savedNo !== undefined) process.env.NO_COLOR = savedNo;
    }
  });

  it.each([
    ["a terminal, no variables", { isTTY: true }, {}, true],
    ["a terminal under NO_COLOR", { isTTY: true }, { NO_COLOR: "1" }, false],
    ["a terminal with FORCE_COLOR=0", { isTTY: true }, { FORCE_COLOR: "0" }, false],
    ["a pipe", { isTTY: false }, {}, false],
    ["a pipe with FORCE_COLOR=1, NO_COLOR too", { isTTY: false }, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
    ["a dumb terminal", { isTTY: true }, { TERM: "dumb" }, false],
  ] as const)("colour through chalk on %s", (_name, stream, env, coloured) => {
    const names = ["FORCE_COLOR", "NO_COLOR", "NODE_DISABLE_COLORS", "TERM"] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) delete process.env[n];
    Object.assign(process.env, env);
    try {
      const out = Object.assign(sink(), stream);
      printSummary(fixtureReport(), { quiet: false, outDir: "out", stream: out });
      expect(out.text.includes("\u001b["), out.text).toBe(coloured);
      expect(out.text.replace(/\u001b\[\d+m/g, "")).toContain("gates: 1 of 2 gates FAILED");
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });
});
