// A file that changes while it is read (a dump still being written by a judge) gives numbers that
// match neither its old nor its new content. Its size and mtime are taken when the read starts and
// compared at the end; a difference is a warning in the summary and in report.json.
import { stat } from "node:fs/promises";

export interface FileSnapshot {
  readonly size: number;
  readonly mtimeMs: number;
}

export async function snapshotFile(path: string): Promise<FileSnapshot | undefined> {
  try {
    const info = await stat(path);
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The warning to give when `path` is no longer as it was in `before`, else undefined. */
export async function changedWhileRead(path: string, what: string, before: FileSnapshot | undefined): Promise<string | undefined> {
  if (before === undefined) return undefined;
  const after = await snapshotFile(path);
  if (after !== undefined && after.size === before.size && after.mtimeMs === before.mtimeMs) return undefined;
  const size = after === undefined ? "it is gone" : `${before.size} → ${after.size} bytes`;
  return `${what} ${path} changed while it was read (${size}); the report may match neither version: rerun once it is complete`;
}
