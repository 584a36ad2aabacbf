// Temp files beside an output (`.NAME.<pid>.<ms>.tmp`, see atomic-write.ts) must not pile up:
// this process removes its own on SIGINT/SIGTERM (and on exit), and before writing into a
// directory it removes the stale ones left there by processes that no longer exist (a SIGKILL
// cannot be caught; the next run cleans up after it).
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const own = new Set<string>();
const cleanups: Array<() => void> = [];
let handlersInstalled = false;

function removeOwn(): void {
  for (const path of own) rmSync(path, { force: true });
  own.clear();
  for (const cleanup of cleanups.splice(0)) cleanup();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", removeOwn);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      removeOwn();
      // A command with its own handler (predict says how to resume) exits itself; else exit here.
      if (process.listenerCount(signal) === 0) process.exit(code);
    });
  }
}

/**
 * Runs `cleanup` once when this process exits or is stopped by SIGINT/SIGTERM (which then exit
 * 130/143 as the shell would): the output lock goes even when Ctrl-C comes before any temp file.
 */
export function onProcessEnd(cleanup: () => void): void {
  installHandlers();
  cleanups.push(cleanup);
}

/** Notes a temp file of this process, removed on SIGINT/SIGTERM/exit unless released first. */
export function trackTemp(path: string): void {
  installHandlers();
  own.add(path);
}

/** The temp file was renamed into place or removed: nothing left to clean. */
export function releaseTemp(path: string): void {
  own.delete(path);
}

const TEMP_NAME = /^\..+\.(\d+)\.\d+\.tmp$/;

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

const swept = new Set<string>();

/** Removes, once per directory per process, temp files in `dir` whose writing process is gone. */
export function removeStaleTemps(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}
