// Every long command shows its phases through the one progress display (`--progress plain`: the
// lines a CI log gets), each ended "done" in the order it runs; `--quiet` silences them all alike;
// a run cut short by Ctrl-C or an error says "stopped" and never "done" for what it did not finish.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { evalShards } from "../support/shards.js";
import { endWithTest } from "../support/children.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const EV = join(ROOT, "datasets/evidence-example");
const tmp = tempDir("mari-phases-");
afterAll(() => tmp.cleanup());

/** The phases that ended "done", in the order their last lines were printed. */
function finished(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.endsWith(" done"))
    .map((line) => line.slice(0, line.indexOf(":")));
}

/** Runs `mari ARGS --progress plain` and returns the phases it finished (the run must succeed or fail a gate). */
async function phasesOf(args: string[]): Promise<string[]> {
  const r = await runMari([...args, "--progress", "plain"]);
  expect([0, 1], `${args.join(" ")}\n${r.stderr}`).toContain(r.code);
  // Every phase ends: no display is left on its way.
  expect(r.stderr).not.toMatch(/ stopped$/m);
  return finished(r.stderr);
}

const out = (name: string): string[] => ["--out", join(tmp.dir, name)];
const REPORT = ["aggregate (case × run)", "bootstrap blocks + SetCons", "report (steps)"];

describe("each command's phases, in order (--progress plain)", () => {
  it("predict (lexical, batch requests, batch results) and eval of the dump", async () => {
    const dump = join(tmp.dir, "lexical.jsonl");
    expect(await phasesOf(["predict", SLICE, "--judge", "lexical", "--out", dump])).toEqual([
      "read slice (records)",
      "judge (cases)",
      "write dump (predictions)",
    ]);
    expect(await phasesOf(["eval", SLICE, "--predictions", dump, ...out("eval")])).toEqual(["read slice (records)", "score (MB)", ...REPORT]);
    // Without a dump, the lexical judge's phases come between the slice and the scoring.
    expect(await phasesOf(["eval", SLICE, ...out("eval-lexical")])).toEqual([
      "read slice (records)",
      "judge (cases)",
      "write dump (predictions)",
      "score (MB)",
      ...REPORT,
    ]);

    const requests = join(tmp.dir, "requests.jsonl");
    expect(await phasesOf(["predict", SLICE, "--judge", "openai", "--model", "m", "--limit", "3", "--batch-requests", requests])).toEqual([
      "read slice (records)",
      "write requests (lines)",
    ]);
    const answers = readFileSync(requests, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => {
        const { custom_id } = JSON.parse(line) as { custom_id: string };
        const content = JSON.stringify({ judgment: false, evidence_sentence_ids: [], reasoning: "No conflict." });
        return JSON.stringify({ custom_id, response: { status_code: 200, body: { choices: [{ message: { content }, finish_reason: "stop" }] } } });
      });
    const output = join(tmp.dir, "output.jsonl");
    writeFileSync(output, `${answers.join("\n")}\n`);
    expect(await phasesOf(["predict", SLICE, "--judge", "openai", "--limit", "3", "--batch-results", output, "--out", join(tmp.dir, "batch.jsonl")])).toEqual([
      "read slice (records)",
      "read batch results (lines)",
      "write dump (predictions)",
    ]);
  });

  it("evidence, classify, sweep and the pair eval", async () => {
    const evidence = ["evidence", join(EV, "docs.jsonl"), "--facts", join(EV, "facts.jsonl"), ...out("evidence")];
    expect(await phasesOf(evidence)).toEqual(["read documents (records)", "evidence (cases)", "report (steps)"]);
    expect(await phasesOf(["classify", PAIRS])).toEqual(["classify (records)"]);
    expect(await phasesOf(["sweep", PAIRS, ...out("sweep"), "--workers", "1"])).toEqual(["read pairs", "sweep", "report (steps)"]);
    expect(await phasesOf(["eval", PAIRS, ...out("pairs")])).toEqual(["pairs", "report (steps)"]);
  });

  it("merge, diff and trend", async () => {
    const [s0, s1] = await evalShards(tmp.dir, "shard", SLICE);
    expect(await phasesOf(["merge", join(s0, "report.json"), join(s1, "report.json"), ...out("merged")])).toEqual([
      "read slice (records)",
      "read shards (case × run)",
      ...REPORT,
    ]);
    const old = join(tmp.dir, "eval");
    const now = join(tmp.dir, "eval-lexical");
    expect(await phasesOf(["diff", old, now, ...out("diff")])).toEqual([
      "read OLD and NEW (reports)",
      "compare (steps)",
      "read slice (records)",
      "case explorer (steps)",
      "report (steps)",
    ]);
    expect(await phasesOf(["trend", old, now, ...out("trend")])).toEqual(["read reports", "report (steps)"]);
  });
});

describe("--quiet and --progress mean the same in every command", () => {
  it("--quiet alone: no display and no summary on stderr, for the commands that had none to silence before", async () => {
    for (const args of [
      ["predict", SLICE, "--judge", "lexical", "--out", join(tmp.dir, "q.jsonl")],
      ["classify", PAIRS],
      ["diff", join(tmp.dir, "eval"), join(tmp.dir, "eval-lexical"), ...out("q-diff")],
      ["trend", join(tmp.dir, "eval"), join(tmp.dir, "eval-lexical"), ...out("q-trend")],
    ]) {
      const r = await runMari([...args, "--quiet"]);
      expect([0, 1], r.stderr).toContain(r.code);
      expect(r.stderr, args[0]).toBe("");
    }
  });

  it("--quiet --progress plain: the display, because it was asked for", async () => {
    const r = await runMari(["classify", PAIRS, "--quiet", "--progress", "plain"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^classify \(records\): 161 [\d.]+s done\n$/);
  });

  it("an unknown --progress mode is a usage error in every command", async () => {
    for (const args of [
      ["classify", PAIRS],
      ["predict", SLICE, "--judge", "lexical"],
      ["diff", join(tmp.dir, "eval"), join(tmp.dir, "eval-lexical")],
      ["trend", join(tmp.dir, "eval")],
    ]) {
      const r = await runMari([...args, "--progress", "fancy"]);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain('--progress: unknown mode "fancy"');
    }
  });
});

describe("a run cut short says stopped, never done", () => {
  it("an input error in a phase: that phase stopped, above the error, and nothing after it done", async () => {
    const bad = join(tmp.dir, "bad-output.jsonl");
    // Line 1 answers a request of no case of the slice (an orphan, counted); line 2 is not JSON.
    writeFileSync(bad, '{"custom_id": "x", "response": {"status_code": 200, "body": {}}}\n{not json\n');
    const r = await runMari(["predict", SLICE, "--judge", "openai", "--batch-results", bad, "--progress", "plain"]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.at(-2)).toMatch(/^read batch results \(lines\): \d+ [\d.]+s stopped$/);
    expect(lines.at(-1)).toMatch(/^mari: .*bad-output\.jsonl:2: /);
    expect(finished(r.stderr)).toEqual(["read slice (records)"]);
  });

  it("eval interrupted while it scores: exit 130, the scoring stopped, no later phase done", async () => {
    const lines = readFileSync(SLICE, "utf8").split("\n").slice(0, 10);
    const slice = join(tmp.dir, "small-slice.jsonl");
    writeFileSync(slice, `${lines.join("\n")}\n`);
    const id = (JSON.parse(lines[0]!) as { id: string }).id;
    const dump: string[] = [];
    for (let r = 0; r < 150_000; r++) dump.push(JSON.stringify({ case_id: id, run: r, judgment: false, evidence_sentence_ids: [] }));
    writeFileSync(join(tmp.dir, "big-dump.jsonl"), `${dump.join("\n")}\n`);
    const outDir = join(tmp.dir, "interrupted");
    const child = endWithTest(
      spawn(process.execPath, [...MARI_COMMAND, "eval", slice, "--predictions", join(tmp.dir, "big-dump.jsonl"), "--out", outDir, "--progress", "plain"], {
        env: childEnv({ NO_COLOR: "1" }),
        stdio: ["ignore", "ignore", "pipe"],
      }),
    );
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d) => (stderr += d));
    let ended = false;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => ((ended = true), resolve(code))));
    // The slice phase is over (said "done") when the scoring starts: interrupt then (the test's
    // timeout bounds the wait, however loaded the machine).
    while (!stderr.includes("read slice (records)") && !ended) await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    await new Promise((r) => setImmediate(r));
    expect(finished(stderr)).toEqual(["read slice (records)"]);
    expect(stderr).toMatch(/^score \(MB\): \d+\/\d+ \(\d+%\) [\d.]+s stopped$/m);
    expect(existsSync(join(outDir, "report.json"))).toBe(false);
  });
});
