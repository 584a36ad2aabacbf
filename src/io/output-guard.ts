// What an output path may be. Outputs are renamed into place from a temp file, which would
// replace whatever the path names: a device (`--out /dev/null` as root would replace /dev/null),
// a FIFO, or an input of the same run (`--rewards d.jsonl --predictions d.jsonl`). So:
// - a missing path or a regular file that is no input of this run: renamed into place;
// - a character device or a FIFO (/dev/stdout, /dev/null, a named pipe): written directly;
// - a regular file that is an input of this run (same device and inode: symlinks and hard links
//   included), a directory, a socket or a block device: refused, exit 2.
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { InputError } from "./errors.js";

/** The inputs this process has opened, by device and inode (filled by src/io/input-file.ts). */
const inputs = new Map<string, string>();

const identity = (info: Stats): string => `${info.dev}:${info.ino}`;

/** Records a regular file as an input of this run. */
export function noteInput(path: string, info: Stats): void {
  if (!inputs.has(identity(info))) inputs.set(identity(info), path);
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
