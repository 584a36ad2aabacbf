// Every child process a test starts is ended whatever the test's outcome. `endWithTest` registers a
// child; test/support/end-children.ts (a setup file of every test file) ends, after each test, the
// children started during it, and after the file, those started in its beforeAll hooks. A test that
// fails or times out therefore never leaves a CLI run or a `mari serve` behind.
import type { ChildProcess } from "node:child_process";
import { scaled } from "./time-limits.js";

const duringTest = new Set<ChildProcess>();
const duringFile = new Set<ChildProcess>();
/** Children started `detached` as the leader of their own process group: the whole group is ended. */
const groupLeaders = new WeakSet<ChildProcess>();
let inTest = false;

/** Marks whether a test (its beforeEach hooks included) is running; set by the setup file. */
export function setInTest(running: boolean): void {
  inTest = running;
}

/**
 * Registers `child` to be ended after the current test (or, started outside a test, after the file).
 * `group`: the child was spawned `detached` and leads its own process group, which is ended with it
 * (a launcher such as torchrun, whose workers would outlive a killed launcher).
 */
export function endWithTest<T extends ChildProcess>(child: T, options: { group?: boolean } = {}): T {
  const set = inTest ? duringTest : duringFile;
  set.add(child);
  if (options.group) groupLeaders.add(child);
  child.once("exit", () => set.delete(child));
  return child;
}

/** SIGKILL to `child`, or to its whole process group when it leads one; false when nothing was signalled. */
export function killChild(child: ChildProcess): boolean {
  if (groupLeaders.has(child) && child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
      return true;
    } catch {
      return false;
    }
  }
  return child.kill("SIGKILL");
}

async function endAll(set: Set<ChildProcess>): Promise<void> {
  const running = [...set].filter((child) => child.exitCode === null && child.signalCode === null);
  set.clear();
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          if (!killChild(child)) resolve();
        }),
    ),
  );
}

/** Ends the children the finished test started. */
export function endTestChildren(): Promise<void> {
  return endAll(duringTest);
}

/** Ends the children the finished file's beforeAll hooks started. */
export function endFileChildren(): Promise<void> {
  return endAll(duringFile);
}

/**
 * Options every synchronous child of a test carries (spawnSync, execFileSync): a test's timeout
 * cannot interrupt a synchronous call, so the child has its own limit, sized for a loaded machine,
 * and is killed when it passes it; the test then fails instead of hanging the run.
 */
export const SYNC_CHILD = { timeout: scaled(300_000), killSignal: "SIGKILL" } as const;
