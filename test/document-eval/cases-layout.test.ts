import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentSlice } from "../../src/io/slice.js";
import { DOCUMENT_CASES_JSON_SCHEMA, documentCaseLineSchema, documentCasesLineSchema, documentRunLineSchema } from "../../src/report/cases-schema.js";
import { scoreCase } from "../../src/tasks/document/score.js";
import { asPreviousLayout as previousLayoutCopy, documentCaseRecords } from "../support/cases.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { writeJsonl } from "./helpers.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const tmp = tempDir("mari-cases-layout-");
afterAll(() => tmp.cleanup());
const q = ["--quiet", "--progress", "none", "--bootstrap", "200"];
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/** A dump of 3 runs over the slice: valid and invalid predictions, missing ones, a repeat and an orphan. */
function dumpRows(seed: number): unknown[] {
  const cases = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  let k = seed;
  const next = (n: number) => {
    k = (k * 1103515245 + 12345) % 2147483648;
    return (k >>> 4) % n;
  };
  const rows: unknown[] = [];
  for (let run = 0; run < 3; run++) {
    for (const c of cases) {
      const shape = next(20);
      if (shape === 0) continue; // missing
      const judgment = next(3) !== 0 ? c.label : !c.label;
      if (shape === 1) rows.push({ case_id: c.id, run, judgment: "maybe" });
      else if (shape === 2) rows.push({ case_id: c.id, run, judgment: true, evidence_sentence_ids: [999], reasoning: "" });
      else rows.push({ case_id: c.id, run, judgment, evidence_sentence_ids: judgment ? [1 + next(4), 1 + next(12)] : [], reasoning: `[${1 + next(3)}]` });
    }
  }
  rows.push({ case_id: cases[0].id, run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "" }, { case_id: "orphan", run: 0, judgment: true });
  return rows;
}

/** The previous layout's record of every (case, run), in slice order × run order, from the slice and the dump alone. */
async function expectedRecords(dumpPath: string): Promise<Record<string, unknown>[]> {
  const slice = await readDocumentSlice(SLICE);
  const ids = new Set(slice.cases.map((c) => c.id));
  const kept = new Map<string, { lineNo: number; record: Record<string, unknown> }>();
  const runs: string[] = [];
  readFileSync(dumpPath, "utf8")
    .trim()
    .split("\n")
    .forEach((text, i) => {
      const record = JSON.parse(text);
      if (!ids.has(record.case_id)) return;
      const run = String(record.run);
      if (!runs.includes(run)) runs.push(run);
      const key = `${record.case_id}\u0000${run}`;
      if (!kept.has(key)) kept.set(key, { lineNo: i + 1, record });
    });
  const out: Record<string, unknown>[] = [];
  for (const c of slice.cases) {
    for (const run of runs) {
      const got = kept.get(`${c.id}\u0000${run}`);
      const s = scoreCase(c, got?.record ?? null, { lenientIds: false });
      const predicted = s.evidence.length;
      const gold = c.gold.length;
      out.push({
        case_id: c.id,
        case_index: c.index,
        label: c.label,
        run,
        line: got?.lineNo ?? null,
        judgment: s.judgment,
        format_valid: s.reason === null,
        reason: s.reason,
        evidence_sentence_ids: s.evidence,
        judgment_correct: s.judgment === c.label,
        localization_hit: c.label ? s.matched > 0 : null,
        exact_localization: c.label ? s.matched === gold && predicted === gold : null,
        evidence_precision: c.label ? (predicted > 0 ? s.matched / predicted : 0) : null,
        evidence_recall: c.label ? (gold > 0 ? s.matched / gold : 0) : null,
        reward_accuracy: s.rewardAccuracy,
        reference_coverage: s.referenceCoverage,
        reward_format: s.reason === null ? 1 : 0,
        matched_evidence_count: s.matched,
        gold_sentence_ids: c.gold,
        sentence_count: c.sentences.length,
        gold_evidence_count: gold,
        scope: c.scope,
        doc_type: c.docType,
        contra_type: c.contraType,
        fields: c.extra,
      });
    }
  }
  return out;
}

/** A copy of a report directory whose cases.jsonl is rewritten in the previous layout (one full line per (case, run)). */
const asPreviousLayout = (dir: string, name: string): Promise<string> => previousLayoutCopy(dir, join(tmp.dir, name));

let oldDump: string;
let newDump: string;
const out = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  oldDump = writeJsonl(tmp.dir, "old.jsonl", dumpRows(1));
  newDump = writeJsonl(tmp.dir, "new.jsonl", dumpRows(2));
  const base = await runMari(["eval", SLICE, "--predictions", oldDump, "--out", out("old"), ...q]);
  expect(base.code, base.stderr).toBeLessThan(2);
  const now = await runMari(["eval", SLICE, "--predictions", newDump, "--out", out("new"), "--workers", "2", "--chunk-size", "7", ...q]);
  expect(now.code, now.stderr).toBeLessThan(2);
});

describe("cases.jsonl of a document eval", () => {
  it("round-trips to exactly the previous layout's per-(case, run) records, computed from the slice and the dump", async () => {
    for (const [dir, dump] of [
      [out("old"), oldDump],
      [out("new"), newDump],
    ] as const) {
      const expected = await expectedRecords(dump);
      expect(expected).toHaveLength(160 * 3);
      const records = await documentCaseRecords(join(dir, "cases.jsonl"));
      // Same keys in the same order, same values: the previous layout's lines, byte for byte.
      expect(records.map((r) => JSON.stringify(r))).toEqual(expected.map((r) => JSON.stringify(r)));
      const previousBytes = expected.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
      expect(statSync(join(dir, "cases.jsonl")).size).toBeLessThan(previousBytes / 3);
    }
  });

  it("is one case line per case, then one run line per run, each as the published schema says", () => {
    const published = JSON.parse(readFileSync(join(ROOT, "schema/document-cases.schema.json"), "utf8"));
    expect(published).toEqual(DOCUMENT_CASES_JSON_SCHEMA);
    const lines = readFileSync(join(out("new"), "cases.jsonl"), "utf8")
      .trimEnd()
      .split("\n");
    expect(lines).toHaveLength(160 * 4);
    lines.forEach((text, i) => {
      const row = JSON.parse(text);
      const schema = i % 4 === 0 ? documentCaseLineSchema : documentRunLineSchema;
      expect(schema.safeParse(row).success, `line ${i + 1}: ${text}`).toBe(true);
      expect(documentCasesLineSchema.safeParse(row).success).toBe(true);
      // Nothing the reader derives, and no null, is written.
      expect(text).not.toContain("null");
      for (const key of ["format_valid", "judgment_correct", "reward_accuracy", "matched_evidence_count", "gold_evidence_count", "localization_hit"])
        expect(row).not.toHaveProperty(key);
    });
  });
});

describe("--baseline, mari diff and mari merge on either layout", () => {
  it("--baseline: a previous-layout baseline gives the comparison of the new-layout one", async () => {
    const previous = await asPreviousLayout(out("old"), "old-previous");
    const comparisons: Record<string, unknown>[] = [];
    for (const base of [out("old"), previous]) {
      const name = `with-${comparisons.length}`;
      const r = await runMari(["eval", SLICE, "--predictions", newDump, "--baseline", base, "--out", out(name), ...q]);
      expect(r.code, r.stderr).toBeLessThan(2);
      const { path: _, ...comparison } = readJson(join(out(name), "report.json")).baseline;
      comparisons.push(comparison);
      expect(readFileSync(join(out(name), "cases.jsonl"), "utf8")).toBe(readFileSync(join(out("new"), "cases.jsonl"), "utf8"));
    }
    expect(comparisons[0]?.matched_cases).toBe(160);
    expect(comparisons[1]).toEqual(comparisons[0]);
  });

  it("mari diff: the same changed cases and comparison with OLD or NEW in the previous layout", async () => {
    const oldPrevious = await asPreviousLayout(out("old"), "old-previous-diff");
    const newPrevious = await asPreviousLayout(out("new"), "new-previous-diff");
    const diffs = [];
    for (const [before, after] of [
      [out("old"), out("new")],
      [oldPrevious, out("new")],
      [out("old"), newPrevious],
    ]) {
      const name = `diff-${diffs.length}`;
      const r = await runMari(["diff", before!, after!, "--out", out(name), "--quiet"]);
      expect(r.code, r.stderr).toBe(0);
      const diff = readJson(join(out(name), "diff.json"));
      diffs.push({ regressed: diff.regressed, fixed: diff.fixed, mixed: diff.mixed, metrics: diff.comparison.metrics, mcnemar: diff.comparison.mcnemar });
    }
    expect(diffs[0]!.regressed.length + diffs[0]!.fixed.length + diffs[0]!.mixed.length).toBeGreaterThan(0);
    expect(diffs[1]).toEqual(diffs[0]);
    expect(diffs[2]).toEqual(diffs[0]);
  });

  it("mari merge: shards (one in the previous layout) merge to the single run's cases.jsonl and metrics", async () => {
    const shards: string[] = [];
    for (const i of [0, 1]) {
      const dir = out(`shard-${i}`);
      // The shards are inputs here: run in this process.
      await runTask({ task: "documents", slicePath: SLICE, dumpPath: newDump, bootstrap: 200 }, dir, [], { index: i, count: 2 });
      shards.push(dir);
    }
    const previous = await asPreviousLayout(shards[1]!, "shard-1-previous");
    for (const [name, second] of [
      ["merged", shards[1]!],
      ["merged-previous", previous],
    ] as const) {
      const r = await runMari(["merge", join(shards[0]!, "report.json"), join(second, "report.json"), "--out", out(name), "--quiet"]);
      expect(r.code, r.stderr).toBeLessThan(2);
      expect(readFileSync(join(out(name!), "cases.jsonl"), "utf8")).toBe(readFileSync(join(out("new"), "cases.jsonl"), "utf8"));
      expect(readJson(join(out(name!), "report.json")).metrics).toEqual(readJson(join(out("new"), "report.json")).metrics);
    }
  });
});
