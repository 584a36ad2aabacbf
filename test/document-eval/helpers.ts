// Small fixtures for the document eval CLI tests: real files in a temp dir.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeJsonl(dir: string, name: string, rows: readonly unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return path;
}

/** Three cases: A (positive, gold [1]), B (negative), C (positive, gold [2]). */
export const TINY_SLICE = [
  { id: "A", sentences: ["a1.", "a2.", "a3."], label: true, gold_sentence_ids: [1], scope: "local", doc_type: "news" },
  { id: "B", sentences: ["b1.", "b2."], label: false, doc_type: "news" },
  { id: "C", sentences: ["c1.", "c2.", "c3.", "c4."], label: "contradictory", gold_sentence_ids: [2], scope: ["global"], doc_type: "wiki", extra_field: 7 },
];

/** Run 0 perfect; run 1 over-calls and misses C; run 2 misses A. */
export const TINY_DUMP = [
  { case_id: "A", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "[1]" },
  { case_id: "B", run: 0, judgment: false, evidence_sentence_ids: [], reasoning: "" },
  { case_id: "C", run: 0, judgment: true, evidence_sentence_ids: [2, 3], reasoning: "[2]-[3]" },
  { case_id: "A", run: 1, judgment: "yes", evidence_sentence_ids: [1, 2] },
  { case_id: "B", run: "1", judgment: true, evidence_sentence_ids: [1] },
  { case_id: "A", run: 2, judgment: false },
  { case_id: "B", sample: 2, prediction: { judgment: "no" } },
  { case_id: "C", run: 2, judgment: true, evidence_sentence_ids: [2] },
];
