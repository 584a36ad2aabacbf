// Shared fixtures for the adversarial-input tests: small real inputs cut from the
// datasets, written to a temp directory, and the assertion every hostile run must meet.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT, type CliResult } from "../support/cli.js";

export const DOC_SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
export const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
export const EVIDENCE_DOCS = join(ROOT, "datasets/evidence-example/docs.jsonl");
export const EVIDENCE_FACTS = join(ROOT, "datasets/evidence-example/facts.jsonl");

/** `[` × n + `]` × n: a value nested n levels deep. */
export const deep = (n = 100_000): string => "[".repeat(n) + "]".repeat(n);

/** The first `n` lines of a dataset file. */
export function firstLines(path: string, n: number): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, n);
}

export function write(dir: string, name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A structured dump line for a slice record: a negative verdict with no evidence. */
export function dumpLine(record: { id: string }, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ case_id: record.id, judgment: "no", evidence_sentence_ids: [], ...extra });
}

/** What no run may show whatever its input: an internal error or a stack trace. */
export function expectNoCrash(r: CliResult): void {
  expect(r.code, r.stderr).not.toBe(3);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)?/);
}

/** The one-line input error of exit 2. */
export function expectInputError(r: CliResult, pattern: RegExp): void {
  expectNoCrash(r);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(pattern);
}
