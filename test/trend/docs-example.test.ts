// docs/trend.md's sh blocks, run as written (`mari` on PATH as a shim for bin/mari.js) in a
// directory holding the shipped datasets and the checkpoint dumps the example names: the lexical
// judge's answers with more cases set right at each step and fewer again at the last, so the
// documented exit code (1: the last checkpoint dropped from the best) is what happens.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentSlice } from "../../src/io/slice.js";
import { childEnv, ROOT, tempDir, MARI_COMMAND, MARI_SHELL } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-trend-docs-");
const cwd = join(tmp.dir, "work");
const bin = join(tmp.dir, "bin");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
/** Cases set right (beyond the lexical judge's own) per step: rising, then a regression. */
const FIXED: Record<number, number> = { 100: 0, 200: 30, 300: 60, 400: 80, 500: 40 };

function blocks(): string[] {
  const text = readFileSync(join(ROOT, "docs/trend.md"), "utf8");
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  mkdirSync(join(cwd, "dumps"), { recursive: true });
  mkdirSync(bin);
  symlinkSync(join(ROOT, "datasets"), join(cwd, "datasets"));
  writeFileSync(join(bin, "mari"), `#!/bin/sh\nexec ${MARI_SHELL} "$@"\n`);
  chmodSync(join(bin, "mari"), 0o755);
  execFileSync(process.execPath, [...MARI_COMMAND, "predict", SLICE, "--judge", "lexical", "--out", join(tmp.dir, "lexical.jsonl"), "--quiet"], SYNC_CHILD);
  const lexical = readFileSync(join(tmp.dir, "lexical.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const slice = await readDocumentSlice(SLICE);
  for (const [step, fixed] of Object.entries(FIXED)) {
    const lines = lexical.map((line, i) => {
      if (i >= fixed) return JSON.stringify(line);
      const gold = slice.cases[i]!;
      return JSON.stringify({ ...line, judgment: gold.label, evidence_sentence_ids: gold.label ? gold.gold.slice(0, 1) : [] });
    });
    writeFileSync(join(cwd, "dumps", `step-${step}.jsonl`), `${lines.join("\n")}\n`);
  }
});

afterAll(() => tmp.cleanup());

/** A plain progress line (stderr off a terminal): the phases of the run, not a message. */
const PROGRESS_LINE = /^[^:\n]+: \d+(\/\d+ \(\d+%\))? [\d.]+s(, .*| done)\n/gm;

const run = (script: string) => {
  const r = spawnSync("sh", ["-c", script], { ...SYNC_CHILD, cwd, env: childEnv({ NO_COLOR: "1", PATH: `${bin}:${process.env.PATH}` }), encoding: "utf8" });
  return { ...r, stderr: r.stderr.replace(PROGRESS_LINE, "") };
};

describe("docs/trend.md examples run as written", () => {
  it("the training run: five checkpoints, the last regressed, exit 1", () => {
    const [training] = blocks();
    expect(training).toContain("mari trend 'reports/ckpt-*'");
    const r = run(training!);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("mari trend documents: 5 checkpoints (ckpt-100 … ckpt-500), by step");
    expect(r.stdout).toMatch(/FAIL max_drop_from_best macro_f1=0\.02: best ckpt-400, last ckpt-500/);
    expect(r.stdout).toContain("pass accuracy>=0.6");
    const trend = JSON.parse(readFileSync(join(cwd, "trend/trend.json"), "utf8"));
    // Each point is its report's own number.
    for (const p of trend.points) {
      const report = JSON.parse(readFileSync(join(cwd, "reports", p.name, "report.json"), "utf8"));
      expect(p.values.macro_f1).toBe(report.metrics.macro_f1);
      expect(p.values.accuracy).toBe(report.metrics.accuracy);
    }
  });

  it("the other ways to name the reports (exit 0 or a gate's 1, never 2 or 3)", () => {
    const [, others] = blocks();
    for (const line of others!.split("\n").filter((l) => l.trim() !== "")) {
      const r = run(line);
      expect(r.stderr, line).toBe("");
      expect([0, 1], line).toContain(r.status);
    }
    expect(readFileSync(join(cwd, "trend-junit/trend.junit.xml"), "utf8")).toContain("<testsuites");
    expect(JSON.parse(readFileSync(join(cwd, "trend-all/trend.json"), "utf8")).points).toHaveLength(5);
    expect(JSON.parse(readFileSync(join(cwd, "trend-two/trend.json"), "utf8")).points.map((p: { name: string }) => p.name)).toEqual(["ckpt-100", "ckpt-500"]);
  });
});
