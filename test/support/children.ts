// Every child process a test starts is ended whatever the test's outcome. `endWithTest` registers a
// child; test/support/end-children.ts (a setup file of every test file) ends, after each test, the
// children started during it, and after the file, those started in its beforeAll hooks. A test that
// fails or times out therefore never leaves a CLI run or a `mari serve` behind.
import type { ChildProcess } from "node:child_process";

const duringTest = new Set<ChildProcess>();
const duringFile = new Set<ChildProcess>();
let inTest = false;

/** Marks whether a test (its beforeEach hooks included) is running; set by the setup file. */
export function setInTest(running: boolean): void {
  inTest = running;
}

/** Registers `child` to be ended after the current test (or, started outside a test, after the file). */
export function endWithTest<T extends ChildProcess>(child: T): T {
  const set = inTest ? duringTest : duringFile;
  set.add(child);
  child.once("exit", () => set.delete(child));
  return child;
}

async function endAll(set: Set<ChildProcess>): Promise<void> {
  const running = [...set].filter((child) => child.exitCode === null && child.signalCode === null);
  set.clear();
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          if (!child.kill("SIGKILL")) resolve();
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
