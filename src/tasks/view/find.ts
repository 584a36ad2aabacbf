// Which files `mari view` lists: every report.json, diff.json and trend.json under the folders
// given, found by a bounded walk (MAX_VIEW_DEPTH levels, MAX_VIEW_REPORTS files) that follows no
// symbolic link to a folder, so a link loop or a huge tree cannot hang it.
import { readdir, stat } from "node:fs/promises";
import type { Dirent, Stats } from "node:fs";
import { basename, join } from "node:path";
import { MAX_VIEW_DEPTH, MAX_VIEW_REPORTS } from "../../core/limits.js";
import { InputError } from "../../io/errors.js";
import { STDIN_REFUSED } from "../../io/input-file.js";
import { naturalCompare } from "../trend/inputs.js";

/** The file names a mari run writes its machine-readable result under. */
export const VIEW_FILE_NAMES: ReadonlySet<string> = new Set(["report.json", "diff.json", "trend.json"]);

/** Folders not searched: hidden ones (.git) and installed packages. */
function skipped(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

export interface FoundFiles {
  files: string[];
  /** Set when the walk stopped at MAX_VIEW_REPORTS. */
  truncatedAt: number | null;
}

export async function findViewFiles(roots: readonly string[], limit = MAX_VIEW_REPORTS): Promise<FoundFiles> {
  const files: string[] = [];
  const seen = new Set<string>();
  let truncatedAt: number | null = null;
  const add = (path: string): boolean => {
    if (files.length >= limit) {
      truncatedAt = limit;
      return false;
    }
    if (!seen.has(path)) {
      seen.add(path);
      files.push(path);
    }
    return true;
  };
  const walk = async (dir: string, depth: number): Promise<boolean> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return true; // a folder we may not read is passed over, like `find` does
    }
    entries.sort((a, b) => naturalCompare(a.name, b.name));
    for (const entry of entries) if (entry.isFile() && VIEW_FILE_NAMES.has(entry.name) && !add(join(dir, entry.name))) return false;
    if (depth >= MAX_VIEW_DEPTH) return true;
    for (const entry of entries) if (entry.isDirectory() && !skipped(entry.name) && !(await walk(join(dir, entry.name), depth + 1))) return false;
    return true;
  };
  for (const root of roots) {
    let info: Stats;
    try {
      info = await stat(root);
    } catch {
      throw new InputError(root === "-" ? `view ${STDIN_REFUSED}` : `view ${root}: no such file or directory`);
    }
    if (info.isDirectory()) {
      if (!(await walk(root, 0))) break;
    } else if (VIEW_FILE_NAMES.has(basename(root))) {
      if (!add(root)) break;
    } else throw new InputError(`view ${root}: not a folder, nor a report.json, diff.json or trend.json`);
  }
  return { files, truncatedAt };
}
