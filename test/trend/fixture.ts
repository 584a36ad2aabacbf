// Checkpoint reports with known numbers for the `mari trend` tests: a constructed slice of N
// documents (even ids contradict themselves in sentence 2, odd ids do not) and, per checkpoint, a
// dump that answers exactly the chosen cases right, scored by the real evaluateDocuments.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evaluateDocuments } from "../../src/index.js";

export const CASES = 40;

const SENTENCES = ["The plant opened in 2001.", "It closed in 1999.", "Workers were paid well."];

export function label(i: number): boolean {
  return i % 2 === 0;
}

/** Writes the slice; returns its path. */
export function writeSlice(dir: string, cases = CASES, prefix = "doc"): string {
  const lines = Array.from({ length: cases }, (_, i) =>
    JSON.stringify({ id: `${prefix}-${i}`, sentences: SENTENCES, label: label(i), gold_sentence_ids: label(i) ? [2] : [] }),
  );
  const path = join(dir, `${prefix}-slice.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * A dump answering case i right exactly when `right(i)`: a right "yes" cites the gold sentence, a
 * wrong "yes" cites sentence 1.
 */
export function writeDump(path: string, right: (i: number) => boolean, cases = CASES, prefix = "doc"): void {
  const lines = Array.from({ length: cases }, (_, i) => {
    const judgment = right(i) ? label(i) : !label(i);
    const evidence = judgment ? (label(i) ? [2] : [1]) : [];
    return JSON.stringify({ case_id: `${prefix}-${i}`, judgment, evidence_sentence_ids: evidence, reasoning: "Compare [1] with [2]." });
  });
  writeFileSync(path, `${lines.join("\n")}\n`);
}

/** Evaluates one checkpoint into `dir/NAME` (report.json + cases.jsonl) and returns that directory. */
export async function checkpoint(dir: string, slicePath: string, name: string, right: (i: number) => boolean, cases = CASES, prefix = "doc"): Promise<string> {
  mkdirSync(join(dir, "dumps"), { recursive: true });
  const dump = join(dir, "dumps", `${name}.jsonl`);
  writeDump(dump, right, cases, prefix);
  const outDir = join(dir, name);
  await evaluateDocuments({ slicePath, dumpPath: dump, outDir, formats: ["json"], workers: 1 });
  return outDir;
}

/**
 * The training run of the tests, by the cases each checkpoint gets wrong: ckpt-100 misses 0-19,
 * ckpt-200 misses 0-1, ckpt-300 none (the best), ckpt-400 misses 0, ckpt-500 misses 0-9 (a
 * regression from the best).
 */
export const RUN: ReadonlyArray<[string, (i: number) => boolean]> = [
  ["ckpt-100", (i) => i >= 20],
  ["ckpt-200", (i) => i >= 2],
  ["ckpt-300", () => true],
  ["ckpt-400", (i) => i >= 1],
  ["ckpt-500", (i) => i >= 10],
];

/** Writes the slice and RUN's five checkpoint reports under `dir/reports`; returns the slice path. */
export async function writeRun(dir: string): Promise<string> {
  const slice = writeSlice(dir);
  for (const [name, right] of RUN) await checkpoint(join(dir, "reports"), slice, name, right);
  return slice;
}
