import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCaseLineSchema, documentRunLineSchema, documentRunsLineSchema } from "../../src/report/cases-schema.js";
import { asPreviousLayout, documentCaseRecords } from "../support/cases.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { writeJsonl } from "./helpers.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const RUNS = 30;
const tmp = tempDir("mari-sparse-cli-");
afterAll(() => tmp.cleanup());
const q = ["--quiet", "--progress", "none", "--bootstrap", "200"];
const out = (name: string) => join(tmp.dir, name);
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const stripped = (dir: string) => {
  const r = readJson(join(dir, "report.json"));
  delete r.elapsed_seconds;
  delete r.system;
  return r;
};

/** Each run answers about a quarter of the cases; some answers format-invalid. */
function dumpRows(seed: number): unknown[] {
  const cases = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  let k = seed >>> 0;
  const next = (n: number) => {
    k = (Math.imul(k, 1103515245) + 12345) >>> 0;
    return (k >>> 8) % n;
  };
  const rows: unknown[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const c of cases) {
      if (next(4) !== 0) continue;
      const judgment = next(3) !== 0 ? c.label : !c.label;
      if (next(15) === 0) rows.push({ case_id: c.id, run, judgment: "maybe" });
      else rows.push({ case_id: c.id, run, judgment, evidence_sentence_ids: judgment ? [1 + next(4)] : [], reasoning: `[${1 + next(3)}]` });
    }
  }
  return rows;
}

/** A copy of a report directory whose cases.jsonl has every (case, run) on a line of its own (the previous layout). */
const writtenOut = (dir: string, name: string): Promise<string> => asPreviousLayout(dir, out(name));

let oldDump: string;
let newDump: string;

beforeAll(async () => {
  oldDump = writeJsonl(tmp.dir, "old.jsonl", dumpRows(1));
  newDump = writeJsonl(tmp.dir, "new.jsonl", dumpRows(2));
  for (const [name, dump, extra] of [
    ["old", oldDump, []],
    ["new", newDump, []],
    ["new-w2", newDump, ["--workers", "2", "--chunk-size", "7"]],
  ] as const) {
    const r = await runMari(["eval", SLICE, "--predictions", dump, "--out", out(name), ...extra, ...q]);
    expect(r.code, r.stderr).toBeLessThan(2);
  }
});

describe("a sparse eval", () => {
  it("writes a runs line, then per case its case line and the run lines of its kept lines; the same for any --workers", async () => {
    const text = readFileSync(join(out("new"), "cases.jsonl"), "utf8");
    expect(readFileSync(join(out("new-w2"), "cases.jsonl"), "utf8")).toBe(text);
    expect(stripped(out("new-w2"))).toEqual(stripped(out("new")));
    const lines = text.trimEnd().split("\n");
    const runs = JSON.parse(lines[0]!);
    expect(documentRunsLineSchema.safeParse(runs).success).toBe(true);
    expect(runs.runs).toEqual(Array.from({ length: RUNS }, (_, r) => String(r)));
    const report = readJson(join(out("new"), "report.json"));
    const kept = report.predictions.lines;
    expect(lines).toHaveLength(1 + 160 + kept);
    for (const line of lines.slice(1)) {
      const row = JSON.parse(line);
      const schema = "case_id" in row ? documentCaseLineSchema : documentRunLineSchema;
      expect(schema.safeParse(row).success, line).toBe(true);
      expect(row.reason).not.toBe("missing_prediction");
    }
    // Every absent (case, run) is read back as a missing prediction and counted as one.
    const records = await documentCaseRecords(join(out("new"), "cases.jsonl"));
    expect(records).toHaveLength(160 * RUNS);
    const missing = records.filter((r) => r.reason === "missing_prediction").length;
    expect(missing).toBe(160 * RUNS - kept);
    expect(report.rejections.missing_prediction).toBe(missing);
    expect(report.metrics.cases).toBe(160);
  });

  it("--baseline and mari diff: the same comparison as with every (case, run) written out", async () => {
    const oldOut = await writtenOut(out("old"), "old-out");
    const newOut = await writtenOut(out("new"), "new-out");
    const baselines: Record<string, unknown>[] = [];
    for (const base of [out("old"), oldOut]) {
      const name = `with-${baselines.length}`;
      const r = await runMari(["eval", SLICE, "--predictions", newDump, "--baseline", base, "--out", out(name), ...q]);
      expect(r.code, r.stderr).toBeLessThan(2);
      const { path: _, ...comparison } = readJson(join(out(name), "report.json")).baseline;
      baselines.push(comparison);
    }
    expect(baselines[0]!.matched_cases).toBe(160);
    expect(baselines[1]).toEqual(baselines[0]);
    const diffs: Array<{ regressed: unknown[]; fixed: unknown[]; mixed: unknown[]; comparison: unknown }> = [];
    for (const [before, after] of [
      [out("old"), out("new")],
      [oldOut, newOut],
    ]) {
      const name = `diff-${diffs.length}`;
      const r = await runMari(["diff", before!, after!, "--out", out(name), "--quiet"]);
      expect(r.code, r.stderr).toBe(0);
      const diff = readJson(join(out(name), "diff.json"));
      const { path: _, ...comparison } = diff.comparison;
      diffs.push({ regressed: diff.regressed, fixed: diff.fixed, mixed: diff.mixed, comparison });
    }
    expect(diffs[0]!.regressed.length + diffs[0]!.fixed.length + diffs[0]!.mixed.length).toBeGreaterThan(0);
    expect(diffs[1]).toEqual(diffs[0]);
  });

  it("mari merge: two shards merge to the single run's cases.jsonl and report", async () => {
    const shards: string[] = [];
    for (const i of [0, 1]) {
      // The shards are inputs here: run in this process.
      await runTask({ task: "documents", slicePath: SLICE, dumpPath: newDump, bootstrap: 200 }, out(`shard-${i}`), [], { index: i, count: 2 });
      shards.push(join(out(`shard-${i}`), "report.json"));
    }
    const r = await runMari(["merge", ...shards, "--out", out("merged"), "--quiet"]);
    expect(r.code, r.stderr).toBeLessThan(2);
    expect(readFileSync(join(out("merged"), "cases.jsonl"), "utf8")).toBe(readFileSync(join(out("new"), "cases.jsonl"), "utf8"));
    const merged = readJson(join(out("merged"), "report.json"));
    const single = readJson(join(out("new"), "report.json"));
    expect(merged.metrics).toEqual(single.metrics);
    expect(merged.rejections).toEqual(single.rejections);
  });
});
