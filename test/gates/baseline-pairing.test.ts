// Through the CLI: a 5-run report against a 1-run baseline pairs every case (the
// old pairing used run "0" alone and dropped 4 of 5 units silently); the report says how many
// cases were paired, how many are on one side only and which runs each side had; a --max-drop
// with nothing to pair is exit 2.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const tmp = tempDir("mari-pairing-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const QUIET = ["--quiet", "--progress", "none", "--bootstrap", "50"];
const read = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
let baselineDir = "";
let fiveRuns = "";

beforeAll(async () => {
  const cases = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; label: boolean });
  // A positive judgment needs evidence to be format-valid; a negative one needs none.
  const line = (c: { id: string; label: boolean }, judgment: boolean, run?: string) =>
    JSON.stringify({ case_id: c.id, ...(run !== undefined ? { run } : {}), judgment, evidence_sentence_ids: judgment ? [1] : [] });
  // Baseline: one run, always right. Candidate: five runs; run "0" is always right too, runs 1–4
  // are wrong on every case. Pairing on run "0" alone would see no drop at all.
  const baselineDump = join(tmp.dir, "baseline.jsonl");
  writeFileSync(baselineDump, cases.map((c) => line(c, c.label)).join("\n") + "\n");
  fiveRuns = join(tmp.dir, "five.jsonl");
  const rows = ["0", "1", "2", "3", "4"].flatMap((run) => cases.map((c) => line(c, run === "0" ? c.label : !c.label, run)));
  writeFileSync(fiveRuns, rows.join("\n") + "\n");
  baselineDir = join(tmp.dir, "base");
  // The baselines are inputs here: written in this process.
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: baselineDump, bootstrap: 50 }, baselineDir);
});

describe("baseline pairing on cases", () => {
  it("a 5-run report against a 1-run baseline compares every case and fails the drop", async () => {
    const out = join(tmp.dir, "five");
    const r = await runMari(["eval", SLICE, "--predictions", fiveRuns, "--baseline", baselineDir, "--max-drop", "accuracy=0.01", "--out", out, ...QUIET]);
    expect(r.code, r.stderr).toBe(1);
    const report = read(out);
    expect(report.baseline).toMatchObject({
      paired_by: "case",
      matched_cases: 160,
      unmatched_current: 0,
      unmatched_baseline: 0,
      units: { current: 800, baseline: 160 },
      runs: { current: ["0", "1", "2", "3", "4"], baseline: ["0"] },
    });
    expect(report.baseline.metrics.accuracy.current).toBeCloseTo(0.2, 12);
    expect(report.gates[0]).toMatchObject({ kind: "max_drop", passed: false });
    expect(report.gates[0].value).toBeCloseTo(0.8, 12);
    expect(report.gates[0].detail).toContain("paired on 160 cases (every case of both sides is compared)");
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("current 5 runs (0, 1, 2, 3, 4), baseline 1 run (0)");
  });

  it("a --bootstrap 0 report states no macro-F1 interval and serves as a baseline", async () => {
    const noBootstrap = join(tmp.dir, "no-bootstrap");
    const first = await runMari(["eval", SLICE, "--predictions", fiveRuns, "--out", noBootstrap, "--quiet", "--progress", "none", "--bootstrap", "0"]);
    expect(first.code, first.stderr).toBe(0);
    const report = read(noBootstrap);
    // No resample was drawn: an interval of [0, 0] would claim macro-F1 is certainly 0.
    expect(report.ci.macro_f1).toBeUndefined();
    expect(report.ci.accuracy.method).toBe("wilson");
    const out = join(tmp.dir, "against-no-bootstrap");
    const r = await runMari(["eval", SLICE, "--predictions", fiveRuns, "--baseline", noBootstrap, "--max-drop", "accuracy=0.01", "--out", out, ...QUIET]);
    expect(r.code, r.stderr).toBe(0);
    expect(read(out).baseline.metrics.accuracy.difference).toBe(0);
  });

  it("a baseline over fewer cases: the drop says it was decided on fewer than all cases", async () => {
    const smallBase = join(tmp.dir, "small-base");
    const smallDump = join(tmp.dir, "small.jsonl");
    const smallSlice = join(tmp.dir, "small-slice.jsonl");
    writeFileSync(smallSlice, readFileSync(SLICE, "utf8").trim().split("\n").slice(0, 100).join("\n") + "\n");
    writeFileSync(smallDump, readFileSync(join(tmp.dir, "baseline.jsonl"), "utf8"));
    await runTask({ task: "documents", slicePath: smallSlice, dumpPath: smallDump, bootstrap: 50 }, smallBase);
    const r2 = await runMari([
      "eval",
      SLICE,
      "--predictions",
      fiveRuns,
      "--baseline",
      smallBase,
      "--max-drop",
      "accuracy=0.9",
      "--out",
      join(tmp.dir, "vs-small"),
      ...QUIET,
    ]);
    expect(r2.code, r2.stderr).toBe(0);
    const detail = read(join(tmp.dir, "vs-small")).gates[0].detail as string;
    expect(detail).toMatch(/^decided on 100 shared cases, not all cases \(60 only in the current run, 0 only in the baseline\)/);
  });

  it("--max-drop with nothing to pair is an input error (exit 2), never a pass", async () => {
    const otherSlice = join(tmp.dir, "other-slice.jsonl");
    writeFileSync(otherSlice, JSON.stringify({ id: "elsewhere-1", sentences: ["a.", "b."], label: false }) + "\n");
    const otherDump = join(tmp.dir, "other.jsonl");
    writeFileSync(otherDump, JSON.stringify({ case_id: "elsewhere-1", judgment: false }) + "\n");
    const otherBase = join(tmp.dir, "other-base");
    await runTask({ task: "documents", slicePath: otherSlice, dumpPath: otherDump, bootstrap: 50 }, otherBase);
    const r = await runMari([
      "eval",
      SLICE,
      "--predictions",
      fiveRuns,
      "--baseline",
      otherBase,
      "--max-drop",
      "accuracy=0.5",
      "--out",
      join(tmp.dir, "none"),
      ...QUIET,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("nothing to pair");
  });
});
