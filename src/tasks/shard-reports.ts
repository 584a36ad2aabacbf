// Reading the shard reports `mari merge` is given: shared by the pair and evidence merges.
import { InputError } from "../io/errors.js";
import { readJsonFile } from "../io/json-file.js";
import { readCheckedReport } from "../report/shard-input.js";
import type { Report } from "../report/types.js";

/** The reports, in argument order; at least one (an input error otherwise). */
export async function readShardReports(paths: readonly string[]): Promise<{ reports: Report[]; first: Report }> {
  const reports: Report[] = [];
  // Untrusted input: each report is checked against the published schema (file named on failure).
  for (const path of paths) reports.push(await readCheckedReport(path, "shard report"));
  const first = reports[0];
  if (first === undefined) throw new InputError("merge: give the shard reports to merge");
  return { reports, first };
}

/** The task a report file belongs to (`mari merge` dispatches on it); unreadable → undefined. */
export async function reportTaskOf(path: string): Promise<unknown> {
  try {
    return ((await readJsonFile(path, "report")) as { task?: unknown } | null)?.task;
  } catch {
    return undefined;
  }
}
