// Silent loss: a second run into an --out held by a live run is refused (exit 2); temp
// files left by dead processes are removed by the next run; a run stopped by SIGINT/SIGTERM
// removes its own temp files.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { preloadFault } from "../support/fault-preload.js";
import { DOC_SLICE, expectInputError, firstLines, write } from "./helpers.js";
import { endWithTest, SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-lock-temps-");
afterAll(() => tmp.cleanup());
const slice = write(tmp.dir, "slice.jsonl", `${firstLines(DOC_SLICE, 6).join("\n")}\n`);
const q = ["--quiet", "--progress", "none", "--workers", "1"];

/** The pid of a process that has exited (so no process has it, barring reuse in this instant). */
const deadPid = (): number => spawnSync(process.execPath, ["-e", ""], SYNC_CHILD).pid!;

describe("the output directory lock", () => {
  it("a lock held by a live process: exit 2 naming the holder; the lock is left alone", async () => {
    const out = join(tmp.dir, "held");
    mkdirSync(out);
    writeFileSync(join(out, ".mari.lock"), `${process.pid}\n`);
    expectInputError(
      await runMari(["eval", slice, "--out", out, ...q]),
      new RegExp(`another mari run \\(pid ${process.pid}\\) is writing this output directory`),
    );
    expect(existsSync(join(out, ".mari.lock"))).toBe(true);
    expect(existsSync(join(out, "report.json"))).toBe(false);
  });

  it("a lock left by a dead process is taken over, and released at the end", async () => {
    const out = join(tmp.dir, "stale");
    mkdirSync(out);
    writeFileSync(join(out, ".mari.lock"), `${deadPid()}\n`);
    const r = await runMari(["eval", slice, "--out", out, ...q]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, "report.json"))).toBe(true);
    expect(existsSync(join(out, ".mari.lock"))).toBe(false);
  });
});

describe("temp files", () => {
  it("stale temp files of dead processes are removed; a live process's are kept", async () => {
    const out = join(tmp.dir, "temps");
    mkdirSync(out);
    const stale = `.cases.jsonl.${deadPid()}.1700000000000.tmp`;
    const live = `.cases.jsonl.${process.pid}.1700000000000.tmp`;
    writeFileSync(join(out, stale), "partial");
    writeFileSync(join(out, live), "partial");
    const r = await runMari(["eval", slice, "--out", out, ...q]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).not.toContain(stale);
    expect(readdirSync(out)).toContain(live);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("%s during a write removes the run's own temp file", async (signal) => {
    // An injected fault holds predict's batch-file writer after its first line, temp file on disk,
    // and says so; the signal is sent then, however fast or slow the machine is.
    const out = join(tmp.dir, `sig-${signal}`);
    mkdirSync(out);
    const args = ["predict", DOC_SLICE, "--judge", "openai", "--model", "m", "--batch-requests", join(out, "requests.jsonl"), "--quiet"];
    const child = endWithTest(
      spawn(process.execPath, [...MARI_COMMAND, ...args], {
        cwd: ROOT,
        env: childEnv({ NODE_OPTIONS: preloadFault("hold-temp-write.mjs") }),
        stdio: ["ignore", "ignore", "pipe"],
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    let stderr = "";
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
        if (stderr.includes("mari-fault: holding ")) resolve();
      });
      void exited.then(() => resolve());
    });
    const temps = readdirSync(out).filter((name) => name.endsWith(".tmp"));
    expect(temps, stderr).toHaveLength(1);
    expect(stderr).toContain(`mari-fault: holding ${join(out, temps[0]!)}`);
    child.kill(signal);
    const code = await exited;
    expect(readdirSync(out).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(code).toBe(signal === "SIGINT" ? 130 : 143);
  });
});
