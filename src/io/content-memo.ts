// A file's sha256, remembered by the file's identity: its device, inode, size, modification and
// change times (nanoseconds). A warm eval hashed its whole slice file only to find the compiled
// slice kept for it (slice-store.ts): on the GRPO bench slice (13 MB), remembering it made a warm
// `--report json` eval 0.95× the CPU (31 alternating pairs). The identity changes with any write of the file: a write
// sets its change time, which no copy, `touch` or rename sets back, and a file made anew has an
// inode or a change time of its own. The one gap, a write within the same tick of the file
// system's clock as the change time recorded, is closed as git closes it for its index: a hash is
// remembered only for a file whose times are SETTLED_NS older than the start of the read that
// hashed it, and whose identity was the same after that read as before it.
import { readFile, stat } from "node:fs/promises";
import type { BigIntStats } from "node:fs";
import { join } from "node:path";
import { sha256File, sha256Text } from "./hashing.js";

/** How long before a read a file must have been written last for its hash to be remembered. */
export const SETTLED_NS = 3_000_000_000n;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A file's identity: the stat fields any write changes. */
export function fileIdentity(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Whether a file with these times was last written SETTLED_NS or more before `nowNs`. */
export function settledBefore(info: BigIntStats, nowNs: bigint): boolean {
  return info.mtimeNs + SETTLED_NS < nowNs && info.ctimeNs + SETTLED_NS < nowNs;
}

/** The name of a file's identity in the memo directory. */
function identity(info: BigIntStats): string {
  return sha256Text(fileIdentity(info));
}

function sameIdentity(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * The sha256 of the regular file at `path` (hex), as sha256File gives it: remembered in `memoDir`
 * under the file's identity, and taken from there while the identity holds. `nowMs` is the clock
 * (the wall clock, whose nanoseconds the file system's times count). Throws what sha256File throws
 * for a file it cannot hash; a memo that cannot be read or written costs speed only.
 */
export async function rememberedSha256(path: string, memoDir: string, nowMs: () => number = Date.now): Promise<string> {
  const before = await stat(path, { bigint: true }).catch(() => undefined);
  // Not a regular file (or gone): sha256File's own checks name it.
  if (before === undefined || !before.isFile()) return sha256File(path);
  const memo = join(memoDir, identity(before));
  const known = await readFile(memo, "latin1").catch(() => undefined);
  if (known !== undefined && SHA256_HEX.test(known)) return known;
  const readStartNs = BigInt(Math.floor(nowMs())) * 1_000_000n;
  const content = await sha256File(path);
  const after = await stat(path, { bigint: true }).catch(() => undefined);
  const settled = settledBefore(before, readStartNs);
  if (after !== undefined && sameIdentity(before, after) && settled) {
    // Loaded only to write: a run that finds its memo needs none of it.
    const { writeFileAtomic } = await import("./atomic-write.js");
    await writeFileAtomic(memo, content).catch(() => undefined);
  }
  return content;
}
