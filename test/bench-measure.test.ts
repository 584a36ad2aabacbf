// The benches measure each child from outside (bench/lib/measure-child.py), so what they time is the
// command as a user runs it. On real child processes: the exit status passes through, the CPU of
// the other threads is told apart from the main thread's, and the child's node runs without flags
// (mari's code cache is made for such a node).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SYNC_CHILD } from "./support/children.js";
import { tempDir } from "./support/cli.js";

const tmp = tempDir("mari-bench-measure-");
afterAll(() => tmp.cleanup());
let scripts = 0;

const MEASURE = join(import.meta.dirname, "../bench/lib/measure-child.py");

/** `node FILE` (FILE holding `script`) under the measurer. */
function measure(script: string) {
  const file = join(tmp.dir, `script-${scripts++}.cjs`);
  writeFileSync(file, script);
  const r = spawnSync("python3", [MEASURE, process.execPath, file], { encoding: "utf8", ...SYNC_CHILD });
  const field = (label: string) => Number(new RegExp(`^${label}: ([\\d.]+)$`, "m").exec(r.stderr)?.[1] ?? Number.NaN);
  return {
    status: r.status,
    stdout: r.stdout,
    elapsed: field("Elapsed \\(seconds\\)"),
    cpu: field("User time \\(seconds\\)") + field("System time \\(seconds\\)"),
    rssKb: field("Maximum resident set size \\(kbytes\\)"),
    mainThread: field("Main thread CPU \\(seconds\\)"),
  };
}

// A fixed amount of arithmetic (about 0.6 s of CPU here; a loaded machine only stretches its wall time).
const SPIN = "let x = 0; for (let i = 0; i < 8e8; i++) x = (x + i) | 0; if (x === 1) console.log(x);";

describe("bench/lib/measure-child.py", () => {
  it("passes the exit status through and reports every field", () => {
    const r = measure(`console.log(JSON.stringify(process.execArgv)); process.exitCode = 7;`);
    expect(r.status).toBe(7);
    expect(r.stdout.trim()).toBe("[]");
    expect(r.elapsed).toBeGreaterThan(0);
    expect(r.cpu).toBeGreaterThan(0);
    expect(r.rssKb).toBeGreaterThan(1000);
    expect(r.mainThread).toBeGreaterThanOrEqual(0);
  });

  it("tells the main thread's CPU from a worker thread's", () => {
    const onWorker = measure(`const { Worker } = require("node:worker_threads"); new Worker(${JSON.stringify(SPIN)}, { eval: true });`);
    const onMain = measure(SPIN);
    expect(onWorker.status).toBe(0);
    expect(onMain.status).toBe(0);
    // The same loop: on a worker thread the process's CPU holds it and the main thread's does not.
    expect(onWorker.cpu - onWorker.mainThread).toBeGreaterThan(0.15);
    expect(onWorker.mainThread).toBeLessThan(onWorker.cpu / 2);
    expect(onMain.mainThread).toBeGreaterThan(onMain.cpu / 2);
    expect(onMain.mainThread).toBeGreaterThan(0.15);
  });
});
