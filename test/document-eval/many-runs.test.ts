// More runs than report.json lists (RUN_ROWS_CAP): the eval task (in this process) and the built
// CLI's merge and diff, a dump of 2 cases × (cap + 37) runs. The listed rows must be the first runs' rows
// of an uncapped computation, `runs_summary` must count the rest, `metrics` and `spread` must cover
// every run, and the report must not depend on --workers / --chunk-size; `mari merge` of shards
// and `mari diff` read the summarised form, and report.md / report.html say where the runs are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import type { Shard } from "../../src/index.js";
import { writeJsonl } from "./helpers.js";
import { documentCaseRecords } from "../support/cases.js";
import { validateReport } from "../../src/report/schema.js";
import { RUN_ROWS_CAP } from "../../src/tasks/document/aggregate.js";
import { rangeRuns } from "../../src/tasks/document/range.js";
import { shardOfCaseId } from "../../src/tasks/document/score-dump.js";

const tmp = tempDir("mari-many-runs-");
afterAll(() => tmp.cleanup());

const RUNS = RUN_ROWS_CAP + 37;
/** A positive with gold [1], a negative. */
const SLICE = [
  { id: "A", sentences: ["a1.", "a2.", "a3."], label: true, gold_sentence_ids: [1], doc_type: "news" },
  { id: "B", sentences: ["b1.", "b2."], label: false, doc_type: "wiki" },
];

interface Line {
  case_id: string;
  run: string | number;
  judgment: boolean;
  evidence_sentence_ids: number[];
}

/** Run keys in order of first appearance: integers and strings mixed, so JSON key order differs from it. */
const runKey = (k: number): string | number => (k % 3 === 0 ? `s${RUNS - k}` : RUNS - k);

function dumpLines(): Line[] {
  let seed = 7;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const lines: Line[] = [];
  for (let k = 0; k < RUNS; k++) {
    for (const c of SLICE) {
      // Some runs lack one case (missing: scored as a negative judgment), never both.
      if (k % 11 === 5 && c.id === "A") continue;
      if (k % 97 === 4 && k % 11 !== 5 && c.id === "B") continue;
      const judgment = rand() < 0.7 ? c.label : !c.label;
      lines.push({ case_id: c.id, run: runKey(k), judgment, evidence_sentence_ids: judgment ? [1 + Math.floor(rand() * 2)] : [] });
    }
  }
  return lines;
}

const LINES = dumpLines();
const slicePath = () => join(tmp.dir, "slice.jsonl");
const report = (dir: string) => JSON.parse(readFileSync(join(tmp.dir, dir, "report.json"), "utf8"));
const stripped = (dir: string) => {
  const r = report(dir);
  delete r.elapsed_seconds;
  delete r.system;
  return JSON.stringify(r, null, 1);
};

/** `mari eval SLICE --predictions DUMP --bootstrap 50` with these workers (and shard), in this process: the reports are the subject. */
async function evalInto(dir: string, dump: string, settings: { workers: number; chunkLines?: number }, shard?: Shard): Promise<void> {
  await runTask({ task: "documents", slicePath: slicePath(), dumpPath: dump, bootstrap: 50, ...settings }, join(tmp.dir, dir), [], shard);
}

/** Per run (by first appearance), the confusion counts scored in the test from the dump alone. */
function confusionByRun(): Map<string, { tp: number; fp: number; fn: number; tn: number }> {
  const byRun = new Map<string, Map<string, boolean>>();
  for (const line of LINES) {
    const key = String(line.run);
    if (!byRun.has(key)) byRun.set(key, new Map());
    byRun.get(key)!.set(line.case_id, line.judgment);
  }
  const out = new Map<string, { tp: number; fp: number; fn: number; tn: number }>();
  for (const [key, judged] of byRun) {
    const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
    for (const c of SLICE) {
      const judgment = judged.get(c.id) ?? false;
      if (c.label) judgment ? counts.tp++ : counts.fn++;
      else judgment ? counts.fp++ : counts.tn++;
    }
    out.set(key, counts);
  }
  return out;
}

describe(`more than RUN_ROWS_CAP (${RUN_ROWS_CAP}) runs`, () => {
  beforeAll(async () => {
    writeJsonl(tmp.dir, "slice.jsonl", SLICE);
    writeJsonl(tmp.dir, "dump.jsonl", LINES);
    const listedRuns = new Set(Array.from({ length: RUN_ROWS_CAP }, (_, k) => String(runKey(k))));
    writeJsonl(
      tmp.dir,
      "first-runs.jsonl",
      LINES.filter((line) => listedRuns.has(String(line.run))),
    );
    await evalInto("w1", join(tmp.dir, "dump.jsonl"), { workers: 1 });
  });

  it("lists the first runs' rows as an uncapped eval of those runs gives them, and counts the rest", async () => {
    const r = report("w1");
    expect(validateReport(r)).toEqual([]);
    // 1.3.0, the version of its cases digest (cases_xxh64), above runs_summary's 1.2.0.
    expect(r.schema_version).toBe("1.3.0");
    const keys = r.predictions.runs as string[];
    expect(keys).toEqual(Array.from({ length: RUNS }, (_, k) => String(runKey(k))));
    expect(r.runs_summary).toEqual({ runs: RUNS, listed: RUN_ROWS_CAP, omitted: RUNS - RUN_ROWS_CAP });
    expect(Object.keys(r.runs).sort()).toEqual(keys.slice(0, RUN_ROWS_CAP).sort());
    // Exactly the cap: nothing summarised, and each run's row is the same.
    await evalInto("first", join(tmp.dir, "first-runs.jsonl"), { workers: 1 });
    const uncapped = report("first");
    expect(uncapped.runs_summary).toBeUndefined();
    expect(uncapped.schema_version).toBe("1.3.0");
    expect(Object.keys(uncapped.runs)).toHaveLength(RUN_ROWS_CAP);
    expect(r.runs).toEqual(uncapped.runs);
    // And the counts scored here from the dump.
    const confusion = confusionByRun();
    for (const key of keys.slice(0, RUN_ROWS_CAP)) {
      const c = confusion.get(key)!;
      expect(r.runs[key]).toMatchObject({ cases: 2, ...c, accuracy: (c.tp + c.tn) / 2 });
    }
  });

  it("headline and spread cover every run, listed or not", () => {
    const r = report("w1");
    const accuracies = [...confusionByRun().values()].map((c) => (c.tp + c.tn) / 2);
    expect(accuracies).toHaveLength(RUNS);
    const mean = accuracies.reduce((a, b) => a + b, 0) / RUNS;
    const std = Math.sqrt(accuracies.reduce((a, v) => a + (v - mean) ** 2, 0) / RUNS);
    expect(r.metrics.accuracy).toBeCloseTo(mean, 12);
    expect(r.spread.accuracy.std).toBeCloseTo(std, 12);
    expect(r.spread.accuracy.min).toBe(Math.min(...accuracies));
    expect(r.spread.accuracy.max).toBe(Math.max(...accuracies));
    const tp = [...confusionByRun().values()].reduce((a, c) => a + c.tp, 0);
    expect(r.ci.accuracy.n).toBe(2 * RUNS);
    expect(r.metrics.tp).toBeCloseTo(tp / RUNS, 12);
  });

  it("is the same report with --workers 2 and another chunk size", async () => {
    await evalInto("w2", join(tmp.dir, "dump.jsonl"), { workers: 2, chunkLines: 97 });
    expect(stripped("w2")).toBe(stripped("w1"));
    expect(readFileSync(join(tmp.dir, "w2", "cases.jsonl"), "utf8")).toBe(readFileSync(join(tmp.dir, "w1", "cases.jsonl"), "utf8"));
  });

  it("report.md and report.html say where the runs not shown are", () => {
    const note = `${RUNS - 12} more runs: report.json lists the first ${RUN_ROWS_CAP} of ${RUNS}, and its spread covers all of them.`;
    expect(readFileSync(join(tmp.dir, "w1", "report.md"), "utf8")).toContain(note);
    expect(readFileSync(join(tmp.dir, "w1", "report.md"), "utf8")).toContain(`Headline = mean over ${RUNS} runs`);
    expect(readFileSync(join(tmp.dir, "w1", "report.html"), "utf8")).toContain(`${RUNS - 20} more runs: report.json lists the first ${RUN_ROWS_CAP}`);
  });

  it("merge of shards equals the single report; diff reads it", async () => {
    expect([shardOfCaseId("A", 2), shardOfCaseId("B", 2)].sort()).toEqual([0, 1]);
    expect(LINES.filter((line) => line.case_id === "A").length).toBeLessThanOrEqual(RUN_ROWS_CAP);
    expect(LINES.filter((line) => line.case_id === "B").length).toBeGreaterThan(RUN_ROWS_CAP);
    const shards: string[] = [];
    for (const i of [0, 1]) {
      await evalInto(`shard-${i}`, join(tmp.dir, "dump.jsonl"), { workers: 1 + i }, { index: i, count: 2 });
      // Case A hashes to shard 0, B to shard 1; a shard has the runs present on its case, which
      // is under the cap for A (runs lacking A are not in shard 0) and over it for B.
      const id = shardOfCaseId("A", 2) === i ? "A" : "B";
      const present = LINES.filter((line) => line.case_id === id).length;
      const r = report(`shard-${i}`);
      expect(Object.keys(r.runs)).toHaveLength(Math.min(present, RUN_ROWS_CAP));
      expect(r.runs_summary).toEqual(present > RUN_ROWS_CAP ? { runs: present, listed: RUN_ROWS_CAP, omitted: present - RUN_ROWS_CAP } : undefined);
      shards.push(join(tmp.dir, `shard-${i}`, "report.json"));
    }
    const merged = await runMari(["merge", ...shards, "--out", join(tmp.dir, "merged"), "--quiet"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(stripped("merged")).toBe(stripped("w1"));
    const diff = await runMari(["diff", join(tmp.dir, "first"), join(tmp.dir, "w1"), "--out", join(tmp.dir, "diff"), "--quiet"]);
    expect(diff.code, diff.stderr).toBe(0);
    const d = JSON.parse(readFileSync(join(tmp.dir, "diff", "diff.json"), "utf8"));
    // OLD has the first RUN_ROWS_CAP runs, NEW all of them: every case is on both sides.
    expect(d.shared_cases).toBe(2);
    expect(d.comparison.runs.current).toHaveLength(RUNS);
    expect(d.comparison.runs.baseline).toHaveLength(RUN_ROWS_CAP);
  });
});

describe("more runs than one aggregation range holds (rangeRuns: a case's runs cut into blocks)", () => {
  const BLOCK = rangeRuns(Number.MAX_SAFE_INTEGER);
  const R = BLOCK + 300;
  // Case B only; run k judges it positive when k % 5 === 0 (a false positive), and lacks it when k % 7 === 3.
  const lines: Line[] = [];
  for (let k = 0; k < R; k++) if (k % 7 !== 3) lines.push({ case_id: "B", run: k, judgment: k % 5 === 0, evidence_sentence_ids: k % 5 === 0 ? [1] : [] });

  it("gives the report that its counts imply, for any --workers", async () => {
    expect(rangeRuns(R)).toBe(BLOCK);
    expect(rangeRuns(BLOCK)).toBe(BLOCK);
    writeJsonl(tmp.dir, "slice-b.jsonl", [SLICE[1]]);
    const dump = writeJsonl(tmp.dir, "blocks.jsonl", lines);
    for (const workers of [1, 2]) {
      await runTask(
        { task: "documents", slicePath: join(tmp.dir, "slice-b.jsonl"), dumpPath: dump, formats: ["json"], bootstrap: 20, workers },
        join(tmp.dir, `blocks-${workers}`),
      );
    }
    expect(stripped("blocks-2")).toBe(stripped("blocks-1"));
    expect(readFileSync(join(tmp.dir, "blocks-2", "cases.jsonl"), "utf8")).toBe(readFileSync(join(tmp.dir, "blocks-1", "cases.jsonl"), "utf8"));
    const r = report("blocks-1");
    const present = lines.map((line) => String(line.run));
    expect(r.runs_summary).toEqual({ runs: present.length, listed: RUN_ROWS_CAP, omitted: present.length - RUN_ROWS_CAP });
    const rows = await documentCaseRecords(join(tmp.dir, "blocks-1", "cases.jsonl"));
    expect(rows.map((row) => String(row.run))).toEqual(present);
    expect(rows.map((row) => row.judgment)).toEqual(lines.map((line) => line.judgment));
    const fp = lines.filter((line) => line.judgment).length;
    expect(r.metrics.fp).toBeCloseTo(fp / present.length, 12);
    expect(r.metrics.accuracy).toBeCloseTo(1 - fp / present.length, 12);
    expect(r.majority.fp).toBe(0);
    // Per-run values over both blocks: each run has its one case once.
    const n = present.length;
    const q = fp / n;
    expect(r.spread.cases).toEqual({ std: 0, min: 1, max: 1 });
    expect(r.spread.accuracy.std).toBeCloseTo(Math.sqrt(q * (1 - q)), 12);
    // Run pairs agree when both judge alike: (C(fp, 2) + C(n − fp, 2)) / C(n, 2).
    expect(r.setcons.judgment).toBeCloseTo((fp * (fp - 1) + (n - fp) * (n - fp - 1)) / (n * (n - 1)), 12);
  });
});
