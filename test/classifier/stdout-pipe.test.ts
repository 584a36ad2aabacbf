// `mari classify` writing to a pipe: a reader that stops reading for a while
// still gets every line, in order; a reader that goes away (`| head`) ends the run quietly; a
// directory in place of the pairs file is exit 2. Real child processes and pipes.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { preloadFault } from "../support/fault-preload.js";
import { endWithTest } from "../support/children.js";

const { dir, cleanup } = tempDir("mari-classify-pipe-");
afterAll(cleanup);

// Enough output (about 1.5 MB) to fill a pipe many times over.
const PAIRS = 12_000;
const pairsPath = join(dir, "pairs.jsonl");
writeFileSync(
  pairsPath,
  Array.from({ length: PAIRS }, (_, i) =>
    JSON.stringify({ id: `p${i}`, new: `The limit is now ${i + 1} requests per minute.`, old: `The limit is ${i} requests per minute.` }),
  ).join("\n") + "\n",
);

function classify(
  onStdout: (child: ReturnType<typeof spawn>, stderrText: (wanted: string) => Promise<void>) => Promise<string>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = endWithTest(
    spawn(process.execPath, [...MARI_COMMAND, "classify", pairsPath], {
      cwd: ROOT,
      env: childEnv({ NO_COLOR: "1", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let stderr = "";
  const waiting: { wanted: string; resolve: () => void }[] = [];
  child.stderr!.setEncoding("utf8").on("data", (d) => {
    stderr += d;
    for (const w of waiting.filter((w) => stderr.includes(w.wanted))) w.resolve();
  });
  // Resolves once the child's stderr contains `wanted` (or it has exited).
  const stderrText = (wanted: string) =>
    new Promise<void>((resolve) => {
      if (stderr.includes(wanted)) resolve();
      else waiting.push({ wanted, resolve });
      child.on("close", () => resolve());
    });
  const stdout = onStdout(child, stderrText);
  return new Promise((resolve) => child.on("close", async (code) => resolve({ code, stdout: await stdout, stderr })));
}

describe("mari classify on a pipe", () => {
  it("waits for a slow reader and loses nothing", async () => {
    // Nobody reads until the child reports (through an injected fault) that a write to stdout
    // could not go through: it then has had to wait for the pipe, however fast or slow the machine is.
    const r = await classify(
      async (child, stderrText) => {
        child.stdout!.pause();
        await stderrText("mari-fault: stdout full");
        let text = "";
        child.stdout!.setEncoding("utf8").on("data", (d) => (text += d));
        const ended = new Promise<string>((resolve) => child.stdout!.on("end", () => resolve(text)));
        child.stdout!.resume();
        return ended;
      },
      { NODE_OPTIONS: preloadFault("report-backpressure.mjs") },
    );
    expect(r.stderr).toContain("mari-fault: stdout full");
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual(Array.from({ length: PAIRS }, (_, i) => `p${i}`));
    expect(r.stderr).toContain(`${PAIRS} pairs classified`);
  });

  it("a reader that goes away is a write failure: exit 2 with one line, no stack", async () => {
    const r = await classify(
      (child) =>
        new Promise((resolve) => {
          child.stdout!.once("data", (d: Buffer) => {
            child.stdout!.destroy(); // like `| head -1`
            resolve(d.toString("utf8"));
          });
        }),
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout.startsWith('{"id":"p0",')).toBe(true);
    expect(r.stderr).toContain("mari: stdout: cannot write (EPIPE)");
    expect(r.stderr).not.toContain("internal error");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a directory in place of the pairs file is exit 2", async () => {
    const r = await runMari(["classify", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir}: is a directory, not a regular file`);
  });
});
