// Issue 25, item 3: stderr that cannot be written (2>/dev/full, a pipe whose reader has gone) loses
// only the messages. The command still runs and its exit code still says how it ended; before, the
// stream's unhandled `error` event ended every command with exit 1, the gate-failed code.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, MARI_BIN, tempDir } from "../support/cli.js";
import { DOC_SLICE, PAIRS } from "./helpers.js";

const tmp = tempDir("mari-stderr-");
afterAll(() => tmp.cleanup());

/** Runs mari with stderr on `/dev/full` or on a pipe closed before anything is read. */
function runWithStderr(args: string[], stderr: "full" | "closed"): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const fd = stderr === "full" ? openSync("/dev/full", "w") : undefined;
    const child = spawn(process.execPath, [MARI_BIN, ...args], { stdio: ["ignore", "pipe", fd ?? "pipe"], env: childEnv({ NO_COLOR: "1" }) });
    if (fd !== undefined) closeSync(fd);
    else child.stderr!.destroy();
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const modes = [...(existsSync("/dev/full") ? (["full"] as const) : []), "closed"] as const;

describe.each(modes)("stderr %s", (mode) => {
  it("classify: exit 0 and every verdict on stdout", async () => {
    const r = await runWithStderr(["classify", PAIRS], mode);
    expect(r.code).toBe(0);
    const lines = readFileSync(PAIRS, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    expect(r.stdout.trim().split("\n")).toHaveLength(lines);
  });

  it("eval: exit 0 and report.json written", async () => {
    const out = join(tmp.dir, `eval-${mode}`);
    const dump = join(tmp.dir, `dump-${mode}.jsonl`);
    const p = await runWithStderr(["predict", DOC_SLICE, "--judge", "lexical", "--out", dump], mode);
    expect(p.code).toBe(0);
    const r = await runWithStderr(["eval", DOC_SLICE, "--predictions", dump, "--out", out, "--progress", "plain"], mode);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).task).toBeDefined();
  });

  it("an input error is still exit 2", async () => {
    const r = await runWithStderr(["eval", join(tmp.dir, "missing.jsonl")], mode);
    expect(r.code).toBe(2);
  });
});
