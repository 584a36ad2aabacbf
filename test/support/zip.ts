// Writes zip archives in tests (an inspect_ai `.eval` log is one); the writer itself is shared
// with the fuzz bench (bench/lib/zip-writer.mjs). zstd members need the zstd program: tests that
// write them skip without it.
import { writeFileSync } from "node:fs";
import { zipBytes as bytesOfZip } from "../../bench/lib/zip-writer.mjs";

export type ZipMethod = 0 | 8 | 93;

/** A zip archive's bytes: the members in order, then the central directory and its end record. */
export function zipBytes(members: { name: string; text: string }[], method: ZipMethod): Buffer {
  return bytesOfZip(members, method);
}

export function writeZip(path: string, members: { name: string; text: string }[], method: ZipMethod): void {
  writeFileSync(path, zipBytes(members, method));
}
