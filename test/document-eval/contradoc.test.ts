// The shipped contradoc-160 slice (80 positives / 80 negatives) with dumps whose metrics are known
// in advance. Through the built CLI (run `npm run build` first).
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import { writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-contradoc-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

async function evalRows(name: string, rows: unknown[]) {
  const dump = writeJsonl(tmp.dir, `${name}.jsonl`, rows);
  const out = join(tmp.dir, name);
  const r = await runMari(["eval", SLICE, "--predictions", dump, "--out", out, "--quiet", "--progress", "none", "--bootstrap", "100"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
}

describe("contradoc-160 with known dumps", () => {
  it("a gold-perfect dump (run 0) and an all-negative dump (run 1)", async () => {
    const slice = await readDocumentSlice(SLICE);
    expect(slice.cases.length).toBe(160);
    expect(slice.cases.filter((c) => c.label).length).toBe(80);
    const rows = [
      ...slice.cases.map((c) => ({ case_id: c.id, run: "gold", judgment: c.label, evidence_sentence_ids: c.gold, reasoning: c.label ? `[${c.gold[0]}]` : "" })),
      ...slice.cases.map((c) => ({ case_id: c.id, run: "never", judgment: false })),
    ];
    const report = await evalRows("known", rows);
    expect(report.runs.gold).toMatchObject({
      accuracy: 1,
      macro_f1: 1,
      localization_recall: 1,
      exact_localization: 1,
      localization_precision: 1,
      format_valid_rate: 1,
    });
    // All negative: negative P = 80/160, R = 1 → F1 2/3; positive F1 0; macro 1/3.
    expect(report.runs.never.accuracy).toBe(0.5);
    expect(report.runs.never.macro_f1).toBeCloseTo(1 / 3, 12);
    expect(report.runs.never.localization_recall).toBe(0);
    expect(report.metrics.accuracy).toBe(0.75);
    // The runs agree exactly on the 80 negatives.
    expect(report.setcons).toMatchObject({ judgment: 0.5, evidence: 0.5, unanimous_rate: 0.5, flipped_count: 80 });
    expect(report.majority).toMatchObject({ accuracy: 0.5, tn: 80, fn: 80 });
    expect(report.rejections).toEqual({});
    expect(Object.keys(report.breakdowns.doc_type).sort()).toEqual(["news", "story", "wiki"]);
  });
});
