// Shared fixtures for the adversarial-input tests: small real inputs cut from the
// datasets, written to a temp directory, and the assertion every hostile run must meet.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { childEnv, ROOT, type CliResult, MARI_COMMAND } from "../support/cli.js";
import { endWithTest } from "../support/children.js";

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

/**
 * Runs mari with one output stream on `/dev/full` or on a pipe closed before anything is read; the
 * other stream is captured.
 */
export function runWithBrokenStream(
  args: string[],
  stream: "stdout" | "stderr",
  mode: "full" | "closed",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const fd = mode === "full" ? openSync("/dev/full", "w") : "pipe";
    const stdio: ["ignore", number | "pipe", number | "pipe"] = stream === "stdout" ? ["ignore", fd, "pipe"] : ["ignore", "pipe", fd];
    const child = endWithTest(spawn(process.execPath, [...MARI_COMMAND, ...args], { stdio, env: childEnv({ NO_COLOR: "1" }) }));
    if (typeof fd === "number") closeSync(fd);
    else child[stream]!.destroy();
    const captured = { stdout: "", stderr: "" };
    for (const name of ["stdout", "stderr"] as const) {
      if (name !== stream) child[name]!.setEncoding("utf8").on("data", (d) => (captured[name] += d));
    }
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, ...captured }));
  });
}
