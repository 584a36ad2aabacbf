// What an output path may be. Outputs are renamed into place from a temp file, which would
// replace whatever the path names: a device (`--out /dev/null` as root would replace /dev/null),
// a FIFO, or an input of the same run (`--rewards d.jsonl --predictions d.jsonl`). So:
// - a missing path or a regular file that is no input of this run: renamed into place;
// - a character device or a FIFO (/dev/stdout, /dev/null, a named pipe): written directly;
// - a regular file that is an input of this run (same device and inode: symlinks and hard links
//   included), a directory, a socket or a block device: refused, exit 2.
import { type Stats, statfsSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InputError } from "./errors.js";

/**
 * Kernel pseudo file systems, by statfs magic number. Nothing can be created in them, and Node 20's
 * recursive mkdir loops forever on one (`--out /proc/x` hung with no output), so an output whose
 * nearest existing directory is on one is refused before anything is created.
 */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x73636673, "securityfs"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x1cd1, "devpts"],
  [0x6165676c, "pstore"],
  [0xcafe4a11, "bpf"],
  [0x62656570, "configfs"],
  [0xde5e81e4, "efivarfs"],
  [0x42494e4d, "binfmt_misc"],
  [0x65735543, "fusectl"],
  [0x19800202, "mqueue"],
]);

/**
 * Throws an InputError when `target` (an output file or directory still to be created) lies on a
 * pseudo file system. A target that exists as a device or FIFO (`/proc/self/fd/1`) is written
 * directly and passes.
 */
export function refusePseudoFileSystem(target: string): void {
  let current = resolve(target);
  for (;;) {
    let info: Stats | undefined;
    try {
      info = statSync(current);
    } catch {
      info = undefined;
    }
    if (info !== undefined) {
      if (current === resolve(target) && (info.isCharacterDevice() || info.isFIFO())) return;
      let type: number;
      try {
        type = statfsSync(current).type;
      } catch {
        return; // the write itself will say why
      }
      const name = PSEUDO_FILE_SYSTEMS.get(type);
      if (name !== undefined)
        throw new InputError(`${target}: is on the ${name} pseudo file system, where outputs cannot be created; choose a path on a real file system`);
      return;
    }
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * The inputs the runs in progress have opened, by device and inode (filled by
 * src/io/input-file.ts). Each task's entry point is built with `oneRunEach`; when the last run in
 * progress ends the map is emptied, so in a process that runs many evaluations one after another (a
 * library user's training loop) a file one run read is not an input of the next. Runs that overlap
 * share the map: none may write what another is reading. (A counter, not AsyncLocalStorage, whose
 * promise hooks cost ≈ 8% of a 300k-prediction eval on Node 20.)
 */
const inputs = new Map<string, string>();
let runsInProgress = 0;

const identity = (info: Stats): string => `${info.dev}:${info.ino}`;

/**
 * `task` made one run per call (each task's entry point is built with this): the inputs a call
 * opens are what its outputs are checked against.
 */
export function oneRunEach<A, R>(task: (options: A) => Promise<R>): (options: A) => Promise<R> {
  return async (options) => {
    runsInProgress++;
    try {
      return await task(options);
    } finally {
      if (--runsInProgress === 0) inputs.clear();
    }
  };
}

/** Records a regular file as an input of this run. */
export function noteInput(path: string, info: Stats): void {
  // The latest path wins: an entry whose file was deleted may have passed its inode on.
  inputs.set(identity(info), path);
}

async function sameFile(path: string, info: Stats): Promise<boolean> {
  try {
    return identity(await stat(path)) === identity(info);
  } catch {
    return false;
  }
}

export type OutputKind = "file" | "stream";

/** How `target` is to be written: renamed into place ("file") or written directly ("stream"); throws when it may not be. */
export async function outputKind(target: string): Promise<OutputKind> {
  let info: Stats;
  try {
    info = await stat(target);
  } catch {
    return "file"; // missing (or unreachable: the write itself will say why)
  }
  if (info.isFile()) {
    const input = inputs.get(identity(info));
    // An input deleted since (a library process running many evaluations) may have passed its inode on.
    if (input !== undefined && !(await sameFile(input, info))) inputs.delete(identity(info));
    else if (input !== undefined) {
      throw new InputError(`${target}: is also an input of this run (${input}); writing it would destroy the input: choose another output path`);
    }
    return "file";
  }
  if (info.isCharacterDevice() || info.isFIFO()) return "stream";
  if (info.isDirectory()) throw new InputError(`${target}: cannot write (EISDIR: is a directory)`);
  const kind = info.isSocket() ? "a socket" : "a block device";
  throw new InputError(`${target}: cannot write (is ${kind}; an output must be a regular file, a character device or a FIFO)`);
}
