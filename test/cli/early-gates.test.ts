// Gates that cannot hold on any document report are refused before the dump is read: exit 2 with
// the gate named, nothing written into --out. The dump here does not exist, so an error about it
// would mean the gate was checked too late. A gate only the data can refuse (SetCons on a one-run
// dump) is refused after the run, and that run leaves --out as it found it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVERY_KEY, LATER } from "../../src/gates/decide.js";
import { documentReportOutline } from "../../src/tasks/document/report.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const { dir, cleanup } = tempDir("mari-early-gates-");
afterAll(cleanup);

describe("mari eval: gates checked before the dump is read", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--gate", "acuracy>=0.5"], /--gate "acuracy>=0.5": unknown metric "acuracy" for a documents report; did you mean "accuracy"\?/],
    [["--gate", "metrics.macro_f2>=0.5"], /no "macro_f2" under metrics; did you mean "macro_f1"\?/],
    [["--gate", "runs.3.acuracy>=0.5"], /no "acuracy" under runs\.3; did you mean "accuracy"\?/],
    [["--gate", "spread.accuracy.stdev<=0.1"], /no "stdev" under spread\.accuracy; did you mean "std"\?/],
    [["--gate", "ci.macro_f1.low>=0.1", "--bootstrap", "0"], /no "macro_f1" under ci/],
    [["--gate", "setcon.judgment>=0.5"], /no "setcon" under the report; did you mean "setcons"\?/],
    [["--max-drop", "accuracy=0.1"], /--max-drop "accuracy=0.1": needs --baseline REPORT.json/],
    [["--max-drop", "acuracy=0.1", "--baseline", join(dir, "none.json")], /cannot compare "acuracy" with a baseline/],
  ];
  for (const [flags, message] of cases) {
    it(`refuses ${flags.join(" ")} at once`, async () => {
      const out = join(dir, `out-${flags.join("_").replace(/[^a-z0-9_]/gi, "")}`);
      const r = await runMari(["eval", SLICE, "--predictions", join(dir, "missing.jsonl"), "--out", out, ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain("missing.jsonl");
      expect(existsSync(out)).toBe(false);
    });
  }

  it("a gate on a data-dependent value (a breakdown, SetCons) waits for the report", async () => {
    const out = join(dir, "later");
    const r = await runMari(["eval", SLICE, "--out", out, "--quiet", "--progress", "none", "--gate", "breakdowns.scope.local.accuracy>=0"]);
    expect(r.code).toBe(0);
    // The outline covers every key the finished report has, so no real key is refused early.
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as Record<string, unknown>;
    const outline = documentReportOutline(1000) as unknown as Record<string, unknown>;
    for (const key of Object.keys(report)) expect(Object.hasOwn(outline, key), key).toBe(true);
    const metrics = report["metrics"] as Record<string, unknown>;
    expect(Object.keys(outline["metrics"] as object)).toEqual(Object.keys(metrics));
    expect(Object.keys(outline["ci"] as object)).toEqual(Object.keys(report["ci"] as object));
    expect((outline["runs"] as Record<string, unknown>)[EVERY_KEY]).toBe(outline["metrics"]);
    expect(outline["setcons"]).toBe(LATER);
  });
});

describe("mari eval: a run that ends in exit 2 leaves --out as it was", () => {
  const gate = ["--gate", "setcons.judgment>=0.5"];
  function files(out: string): Record<string, string> {
    return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name), "utf8")]));
  }

  it("a fresh --out (nested) is not created", async () => {
    const out = join(dir, "fresh", "deeper");
    const r = await runMari(["eval", SLICE, "--predictions", join(dir, "one-run.jsonl"), "--out", out, ...gate]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("setcons is null in this report: run-to-run consistency needs at least two runs");
    expect(existsSync(join(dir, "fresh"))).toBe(false);
  });

  it("an earlier run's files stay byte for byte, and no temporary file is left", async () => {
    const out = join(dir, "earlier");
    expect((await runMari(["eval", SLICE, "--out", out, "--quiet", "--progress", "none"])).code).toBe(0);
    const before = files(out);
    const r = await runMari(["eval", SLICE, "--predictions", join(dir, "one-run.jsonl"), "--out", out, ...gate]);
    expect(r.code).toBe(2);
    expect(files(out)).toEqual(before);
  });
});

// A one-run dump that differs from the lexical judge's (every answer "no"), so a run that wrote
// its cases.jsonl would change the earlier one.
writeFileSync(
  join(dir, "one-run.jsonl"),
  `${readFileSync(SLICE, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.stringify({ case_id: (JSON.parse(line) as { id: string }).id, judgment: false, evidence_sentence_ids: [] }))
    .join("\n")}\n`,
);

describe("pairs and evidence: an unknown metric is refused before the input is read", () => {
  const EV = join(ROOT, "datasets/evidence-example");
  for (const [name, args] of [
    ["pairs", ["eval", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl")]],
    ["evidence", ["evidence", join(EV, "docs.jsonl"), "--facts", join(EV, "facts.jsonl")]],
  ] as const) {
    it(name, async () => {
      const out = join(dir, `early-${name}`);
      const r = await runMari([...args, "--out", out, "--gate", "acuracy>=0.5", "--quiet"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--gate "acuracy>=0.5": unknown metric "acuracy" for a ${name} report`);
      expect(existsSync(out)).toBe(false);
    });
  }
});
