// Stderr that cannot be written (2>/dev/full, a pipe whose reader has gone) loses
// only the messages. The command still runs and its exit code still says how it ended; before, the
// stream's unhandled `error` event ended every command with exit 1, the gate-failed code.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/cli.js";
import { DOC_SLICE, PAIRS, runWithBrokenStream } from "./helpers.js";

const tmp = tempDir("mari-stderr-");
afterAll(() => tmp.cleanup());

const modes = [...(existsSync("/dev/full") ? (["full"] as const) : []), "closed"] as const;

describe.each(modes)("stderr %s", (mode) => {
  it("classify: exit 0 and every verdict on stdout", async () => {
    const r = await runWithBrokenStream(["classify", PAIRS], "stderr", mode);
    expect(r.code).toBe(0);
    const lines = readFileSync(PAIRS, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    expect(r.stdout.trim().split("\n")).toHaveLength(lines);
  });

  it("eval: exit 0 and report.json written", async () => {
    const out = join(tmp.dir, `eval-${mode}`);
    const dump = join(tmp.dir, `dump-${mode}.jsonl`);
    const p = await runWithBrokenStream(["predict", DOC_SLICE, "--judge", "lexical", "--out", dump], "stderr", mode);
    expect(p.code).toBe(0);
    const r = await runWithBrokenStream(["eval", DOC_SLICE, "--predictions", dump, "--out", out, "--progress", "plain"], "stderr", mode);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).task).toBeDefined();
  });

  it("an input error is still exit 2", async () => {
    const r = await runWithBrokenStream(["eval", join(tmp.dir, "missing.jsonl")], "stderr", mode);
    expect(r.code).toBe(2);
  });
});
