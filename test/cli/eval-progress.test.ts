// Plain progress of `mari eval` ends at its total (it stayed at "0/1 (0%)" for dumps under 1 MB).
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const tmp = tempDir("mari-eval-progress-");
afterAll(() => tmp.cleanup());

describe("mari eval --progress plain", () => {
  it("reports the whole dump as read when the run is done", async () => {
    const r = await runMari([
      "eval",
      join(ROOT, "datasets/contradoc/contradoc-160.jsonl"),
      "--out",
      tmp.dir,
      "--progress",
      "plain",
      "--quiet",
      "--workers",
      "1",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^score \(MB\): 1\/1 \(100%\) [\d.]+s done$/m);
    expect(r.stderr).not.toContain("0/1 (0%)");
  });

  it("shows every phase of the run, each once, at its end: the slice, scoring, aggregation, bootstrap, the report", async () => {
    const r = await runMari(["eval", join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "--out", join(tmp.dir, "phases"), "--progress", "plain", "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    const finished = r.stderr
      .split("\n")
      .filter((line) => line.endsWith(" done"))
      .map((line) => line.slice(0, line.indexOf(":")));
    // No --predictions: the lexical judge's phases come between the slice and the scoring.
    expect(finished).toEqual([
      "read slice (records)",
      "judge (cases)",
      "write dump (predictions)",
      "score (MB)",
      "aggregate (case × run)",
      "bootstrap blocks + SetCons",
      "report (steps)",
    ]);
    // A short run off a terminal: one line per phase, nothing on the way.
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(finished.length);
  });
});

describe("--quiet means the same in every command", () => {
  it("eval, evidence and sweep with --quiet (no --progress) print nothing on a clean run", async () => {
    const ev = join(ROOT, "datasets/evidence-example");
    for (const args of [
      ["eval", join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "--out", join(tmp.dir, "q-eval")],
      ["evidence", join(ev, "docs.jsonl"), "--facts", join(ev, "facts.jsonl"), "--out", join(tmp.dir, "q-evidence")],
      ["sweep", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--out", join(tmp.dir, "q-sweep")],
    ]) {
      const r = await runMari([...args, "--quiet"]);
      expect([0, 1], r.stderr).toContain(r.code);
      expect(r.stdout, args[0]).toBe("");
      expect(r.stderr, args[0]).toBe("");
    }
  });
});

describe("mari merge --progress plain", () => {
  it("shows the aggregation phases of a document merge", async () => {
    const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
    for (const i of [0, 1]) {
      // The shards are inputs here: run in this process.
      await runTask({ task: "documents", slicePath: slice }, join(tmp.dir, `shard${i}`), [], { index: i, count: 2 });
    }
    const r = await runMari([
      "merge",
      join(tmp.dir, "shard0", "report.json"),
      join(tmp.dir, "shard1", "report.json"),
      "--out",
      join(tmp.dir, "merged"),
      "--progress",
      "plain",
      "--quiet",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^aggregate \(case × run\): 160\/160 \(100%\) [\d.]+s done$/m);
    expect(r.stderr).toMatch(/^bootstrap blocks \+ SetCons: \d+\/\d+ \(100%\) [\d.]+s done$/m);
  });
});
