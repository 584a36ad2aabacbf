// One run at a time per output directory: `OUT/.mari.lock` holds the writer's pid. A second run
// while the holder is alive is refused (exit 2); a lock left by a dead process is taken over.
// The lock is removed when this process exits, Ctrl-C and SIGTERM included.
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { InputError } from "./errors.js";
import { refusePseudoFileSystem } from "./output-guard.js";
import { onProcessEnd, processAlive } from "./temp-files.js";

export const LOCK_NAME = ".mari.lock";

/** Takes the lock of `outDir` (creating the directory) or throws an InputError naming the holder. */
export function lockOutputDir(outDir: string): void {
  const path = join(outDir, LOCK_NAME);
  let created: string | undefined;
  refusePseudoFileSystem(outDir);
  try {
    created = mkdirSync(outDir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file where the folder (or one of its parents) should be: say so, not EEXIST / ENOTDIR.
    if (code === "EEXIST" || code === "ENOTDIR")
      throw new InputError(`--out ${outDir}: a file is in the way (--out names a folder for the reports); remove it or choose another --out`);
    return; // the write itself reports an unwritable --out
  }
  // The signal handlers go in before the lock file exists: a Ctrl-C right after the file is
  // written (a test interrupts as soon as it sees it) must find them, not the default action that
  // kills the process and leaves the lock behind.
  let taken = false;
  onProcessEnd(() => {
    if (!taken) return;
    rmSync(path, { force: true });
    // A directory this run created and left empty (it failed before writing) goes too.
    if (created !== undefined) removeEmpty(outDir, created);
  });
  let holder: number | undefined;
  try {
    holder = claimPidFile(path, false);
  } catch {
    return; // the write itself reports an unwritable --out
  }
  if (holder !== undefined) {
    throw new InputError(`${outDir}: another mari run (pid ${holder}) is writing this output directory (${path}); wait for it, or choose another --out`);
  }
  taken = true;
}

/**
 * Writes this process's pid into `path`, which must not exist, unless a live process's pid is
 * there: then returns that pid. A file whose process is gone (a killed run) is taken over, and so
 * is one with this process's own pid unless `ownIsHeld`. Other file errors are thrown.
 */
export function claimPidFile(path: string, ownIsHeld: boolean): number | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      return undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    } catch {
      // removed meanwhile: try again
    }
    const own = pid === process.pid;
    if (Number.isSafeInteger(pid) && pid > 0 && (own ? ownIsHeld : processAlive(pid))) return pid;
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new Error(`${path}: taken again each time it was freed`);
}

/** Removes `dir` and its parents up to `top` (the first directory mkdir created) while they are empty. */
function removeEmpty(dir: string, top: string): void {
  let current = resolve(dir);
  const last = resolve(top);
  // Only inside what mkdir created: never a directory that was there before this run.
  while (current === last || current.startsWith(`${last}${sep}`)) {
    try {
      rmdirSync(current);
    } catch {
      return; // not empty (or gone): leave it
    }
    current = dirname(current);
  }
}
