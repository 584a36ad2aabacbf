// Reward histograms of a document eval (report.histograms): the bins, hand-computed counts from the
// eval task, the same counts for any worker count and chunk size, and their rendering in report.md
// and report.html.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCaseRecords } from "../support/cases.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countRewards, REWARD_HISTOGRAM_SLOTS, rewardHistograms } from "../../src/core/metrics/reward-histograms.js";
import { tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { REMEMBERED_REWARD_RUNS } from "../../src/tasks/document/range.js";
import { TINY_DUMP, TINY_SLICE, writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-doc-hist-");
afterAll(() => tmp.cleanup());

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/** Bin index of each value, read back from a one-value histogram. */
function binsOf(rewardAccuracy: number, coverage: number): [string, string] {
  const counts = new Float64Array(REWARD_HISTOGRAM_SLOTS);
  countRewards(counts, rewardAccuracy, coverage);
  const h = rewardHistograms(counts);
  return [h.reward_accuracy!.find((b) => b.count === 1)!.bin, h.reference_coverage!.find((b) => b.count === 1)!.bin];
}

describe("reward histogram bins", () => {
  it("accuracy: -1, 0, 1 exactly, then (1, 1.5] and (1.5, 2]", () => {
    expect([-1, 0, 1, 1 + 1 / 3, 1.5, 1.5000000000000002, 1 + 2 / 3, 2].map((v) => binsOf(v, 0)[0])).toEqual([
      "-1",
      "0",
      "1",
      "(1, 1.5]",
      "(1, 1.5]",
      "(1.5, 2]",
      "(1.5, 2]",
      "(1.5, 2]",
    ]);
    for (const bad of [0.5, -0.5, 2.5, Number.NaN]) expect(() => binsOf(bad, 0)).toThrow(RangeError);
  });

  it("coverage: ten bins over [0, 1], edges compared as written (0.9 − 1 ulp is not 0.9)", () => {
    const below09 = 0.8999999999999999; // ×10 rounds to 9: floor(10·v) would misplace it
    expect([0, 0.09999999999999999, 0.1, 1 / 3, 0.1 * 3, 0.5, 0.7, below09, 0.9, 1].map((v) => binsOf(0, v)[1])).toEqual([
      "[0, 0.1)",
      "[0, 0.1)",
      "[0.1, 0.2)",
      "[0.3, 0.4)",
      "[0.3, 0.4)",
      "[0.5, 0.6)",
      "[0.7, 0.8)",
      "[0.8, 0.9)",
      "[0.9, 1]",
      "[0.9, 1]",
    ]);
    for (const bad of [-0.1, 1.01, Number.NaN]) expect(() => binsOf(0, bad)).toThrow(RangeError);
  });
});

/** P: positive, 10 sentences, gold {1, 2}; N: negative, 4 sentences. */
const BINS_SLICE = [
  { id: "P", sentences: Array.from({ length: 10 }, (_, i) => `p${i + 1}.`), label: true, gold_sentence_ids: [1, 2] },
  { id: "N", sentences: ["n1.", "n2.", "n3.", "n4."], label: false },
];

// (accuracy, coverage) in the comments; run 2 has no prediction for N (scored negative: 1, 0).
const BINS_DUMP = [
  { case_id: "P", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "[1]" }, // 1.5, 0.1
  { case_id: "N", run: 0, judgment: false, reasoning: "[1-4]" }, // 1, 1
  { case_id: "P", run: 1, judgment: true, evidence_sentence_ids: [1, 2], reasoning: "[1-3]" }, // 2, 0.3
  { case_id: "N", run: 1, judgment: true, evidence_sentence_ids: [1], reasoning: "[1-3]" }, // 0, 0.75
  { case_id: "P", run: 2, judgment: true, evidence_sentence_ids: [5], reasoning: "[5-9]" }, // -1, 0.5
  { case_id: "P", run: 3, judgment: false, reasoning: "[1-9]" }, // 0, 0.9
  { case_id: "N", run: 3, judgment: false, reasoning: "[2]" }, // 1, 0.25
];

const EXPECTED_BINS = {
  reward_accuracy: [
    { bin: "-1", count: 1 },
    { bin: "0", count: 2 },
    { bin: "1", count: 3 },
    { bin: "(1, 1.5]", count: 1 },
    { bin: "(1.5, 2]", count: 1 },
  ],
  reference_coverage: [1, 1, 1, 1, 0, 1, 0, 1, 0, 2].map((count, k) => ({ bin: k === 9 ? "[0.9, 1]" : `[${k / 10}, ${(k + 1) / 10})`, count })),
};

describe("report.histograms of mari eval", () => {
  let slice: string;
  let dump: string;
  beforeAll(() => {
    slice = writeJsonl(tmp.dir, "bins.jsonl", BINS_SLICE);
    dump = writeJsonl(tmp.dir, "bins-dump.jsonl", BINS_DUMP);
  });

  it("hand-computed counts over all (case, run) predictions, missing ones included", async () => {
    const out = join(tmp.dir, "bins-out");
    await runTask({ task: "documents", slicePath: slice, dumpPath: dump, workers: 1 }, out);
    const report = readJson(join(out, "report.json"));
    expect(report.rejections).toEqual({ missing_prediction: 1 });
    expect(report.histograms).toEqual(EXPECTED_BINS);
    // The same values cases.jsonl records.
    const cases = await documentCaseRecords(join(out, "cases.jsonl"));
    expect(cases.map((c) => [c.reward_accuracy, c.reference_coverage])).toEqual([
      [1.5, 0.1],
      [2, 0.3],
      [-1, 0.5],
      [0, 0.9],
      [1, 1],
      [0, 0.75],
      [1, 0],
      [1, 0.25],
    ]);
  });

  it("the same counts for 2 workers and one-line chunks", async () => {
    const out = join(tmp.dir, "bins-out-2");
    await runTask({ task: "documents", slicePath: slice, dumpPath: dump, workers: 2, chunkLines: 1, formats: ["json"] }, out);
    expect(readJson(join(out, "report.json")).histograms).toEqual(EXPECTED_BINS);
  });

  it("with enough runs that each case's (accuracy, coverage) pairs are remembered: the counts of every pair binned alone", async () => {
    // Cases of 1 to 9 sentences, gold or not; runs that repeat a few answers per case (as samples
    // of one model do), so that most pairs are met again, and some that cite ranges and odd ids.
    const cases = Array.from({ length: 11 }, (_, i) => {
      const n = 1 + (i % 9);
      return {
        id: `c${i}`,
        sentences: Array.from({ length: n }, (_, k) => `s${k + 1}.`),
        label: i % 3 !== 0,
        gold_sentence_ids: i % 3 !== 0 ? [1 + (i % n)] : [],
      };
    });
    const runs = REMEMBERED_REWARD_RUNS + 17;
    const lines: object[] = [];
    for (let r = 0; r < runs; r++) {
      cases.forEach((c, i) => {
        const n = c.sentences.length;
        const kind = (r * 7 + i * 3) % 11;
        if (kind === 10) return; // a missing prediction
        const a = 1 + ((r + i) % n);
        const b = 1 + ((r * 5 + i) % n);
        const judgment = kind % 2 === 0;
        const reasoning = kind < 4 ? `[${a}]` : kind < 7 ? `[${Math.min(a, b)}-${Math.max(a, b)}]` : kind === 7 ? `[${n + 2}]` : "no reference";
        lines.push({ case_id: c.id, run: r, judgment, evidence_sentence_ids: judgment ? [a] : [], reasoning });
      });
    }
    const many = writeJsonl(tmp.dir, "many-slice.jsonl", cases);
    const manyDump = writeJsonl(tmp.dir, "many-dump.jsonl", lines);
    const out = join(tmp.dir, "many-out");
    await runTask({ task: "documents", slicePath: many, dumpPath: manyDump, workers: 1, formats: ["json"] }, out);
    const counts = new Float64Array(REWARD_HISTOGRAM_SLOTS);
    let pairs = 0;
    for (const record of await documentCaseRecords(join(out, "cases.jsonl"))) {
      countRewards(counts, record.reward_accuracy, record.reference_coverage);
      pairs++;
    }
    expect(pairs).toBe(cases.length * runs);
    expect(readJson(join(out, "report.json")).histograms).toEqual(rewardHistograms(counts));
  });

  it("the three-run tiny slice, and report.md / report.html show both distributions", async () => {
    const out = join(tmp.dir, "tiny-out");
    const tinySlice = writeJsonl(tmp.dir, "tiny.jsonl", TINY_SLICE);
    const tinyDump = writeJsonl(tmp.dir, "tiny-dump.jsonl", TINY_DUMP);
    await runTask({ task: "documents", slicePath: tinySlice, dumpPath: tinyDump, workers: "auto" }, out);
    const report = readJson(join(out, "report.json"));
    // Rewards per run (A, B, C): run 0 (2, 1, 2), run 1 (2, 0, 0: C missing), run 2 (0, 1, 2).
    expect(report.histograms.reward_accuracy.map((b: any) => b.count)).toEqual([0, 3, 2, 0, 4]);
    // Coverage: run 0 A 1/3 and C 2/4; every other prediction cites nothing.
    expect(report.histograms.reference_coverage.map((b: any) => b.count)).toEqual([7, 0, 0, 1, 0, 1, 0, 0, 0, 0]);

    const md = readFileSync(join(out, "report.md"), "utf8");
    const html = readFileSync(join(out, "report.html"), "utf8");
    const shown: Array<[string, string]> = [
      [md, "## Distributions"],
      [md, "### reward_accuracy"],
      [md, "### reference_coverage"],
      [md, "| (1.5, 2\\] | 4 |"],
      [md, "| \\[0, 0.1) | 7 |"],
      [html, "<h3>reward_accuracy</h3>"],
      [html, "<h3>reference_coverage</h3>"],
      [html, 'aria-label="reward_accuracy"'],
      [html, ">(1.5, 2]</text>"],
      [html, ">[0.9, 1]</text>"],
    ];
    for (const [text, fragment] of shown) expect(text).toContain(fragment);
  });
});
