// The smoke path: `mari predict --limit 5` then `mari eval`. Without --limit the report says how
// much of the slice the dump covers and suggests --limit; with `--limit 5` exactly the first five
// cases are scored, recorded in report.json, with the numbers of a slice cut to those five cases.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const tmp = tempDir("mari-eval-limit-");
afterAll(() => tmp.cleanup());
const q = ["--quiet", "--report", "json", "--workers", "1"];
const report = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));

async function evalTo(name: string, args: string[]) {
  const out = join(tmp.dir, name);
  const r = await runMari(["eval", ...args, "--out", out, ...q]);
  return { r, out };
}

describe("mari eval --limit", () => {
  it("a 5-case smoke dump: warned about coverage without --limit; scored as the first five cases with it", async () => {
    const smoke = join(tmp.dir, "smoke.jsonl");
    const made = await runMari(["predict", SLICE, "--judge", "lexical", "--limit", "5", "--out", smoke]);
    expect(made.code, made.stderr).toBe(0);

    const whole = await evalTo("whole", [SLICE, "--predictions", smoke]);
    expect(whole.r.code, whole.r.stderr).toBe(0);
    const warnings: string[] = report(whole.out).warnings;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("the dump covers 5 of 160 cases");
    expect(warnings[0]).toContain("pass --limit 5");
    expect(warnings[0]).not.toContain("the dump's format");

    const limited = await evalTo("limited", [SLICE, "--predictions", smoke, "--limit", "5"]);
    expect(limited.r.code, limited.r.stderr).toBe(0);
    const got = report(limited.out);
    expect(got.dataset).toMatchObject({ cases: 5, limit: 5, slice_cases: 160 });
    expect(got.system.config.limit).toBe(5);
    expect(got.warnings).toBeUndefined();
    expect(got.rejections.missing_prediction).toBeUndefined();

    // The same numbers as a slice file holding only the first five cases.
    const cut = join(tmp.dir, "first-five.jsonl");
    writeFileSync(cut, `${readFileSync(SLICE, "utf8").split("\n").slice(0, 5).join("\n")}\n`);
    const direct = await evalTo("direct", [cut, "--predictions", smoke]);
    expect(direct.r.code, direct.r.stderr).toBe(0);
    const want = report(direct.out);
    for (const key of ["metrics", "runs", "ci", "breakdowns", "rejections", "invalid", "setcons", "majority"]) expect(got[key], key).toEqual(want[key]);
    expect(readFileSync(join(limited.out, "cases.jsonl"), "utf8")).toBe(readFileSync(join(direct.out, "cases.jsonl"), "utf8"));
  });

  it("a full dump with --limit: lines of the other cases are skipped, not orphans; the lexical baseline is limited too", async () => {
    const full = join(tmp.dir, "full.jsonl");
    expect((await runMari(["predict", SLICE, "--judge", "lexical", "--out", full])).code).toBe(0);
    const limited = await evalTo("full-limited", [SLICE, "--predictions", full, "--limit", "5", "--strict"]);
    expect(limited.r.code, limited.r.stderr).toBe(0);
    const got = report(limited.out);
    expect(got.dataset.cases).toBe(5);
    expect(got.orphans.count).toBe(0);
    expect(got.predictions.lines).toBe(160);
    const baseline = await evalTo("lexical-limited", [SLICE, "--limit", "5"]);
    expect(baseline.r.code, baseline.r.stderr).toBe(0);
    expect(report(baseline.out).metrics).toEqual(got.metrics);
    expect(readFileSync(join(baseline.out, "lexical.predictions.jsonl"), "utf8").trimEnd().split("\n")).toHaveLength(5);
  });

  it("a dump of scattered cases is warned about without a --limit number", async () => {
    const lines = readFileSync(SLICE, "utf8").trimEnd().split("\n");
    const ids = [lines[3]!, lines[70]!].map((l) => JSON.parse(l).id as string);
    const dump = join(tmp.dir, "scattered.jsonl");
    writeFileSync(dump, ids.map((id) => JSON.stringify({ case_id: id, judgment: false, evidence_sentence_ids: [] })).join("\n") + "\n");
    const r = await evalTo("scattered", [SLICE, "--predictions", dump]);
    expect(report(r.out).warnings[0]).toContain("the dump covers 2 of 160 cases; the other 158 are scored as missing_prediction; pass --limit N");
  });

  it("refuses --limit 0, --limit with --shard, and --limit on a pair corpus", async () => {
    for (const [args, message] of [
      [[SLICE, "--limit", "0"], "--limit"],
      [[SLICE, "--limit", "5", "--shard", "0/2"], "--limit and --shard"],
      [[PAIRS, "--limit", "5"], "--limit only apply to document slices"],
    ] as const) {
      const { r } = await evalTo(`refused-${message.length}-${args.length}`, [...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
