// The check that a report and the cases.jsonl beside it belong together (kept apart from the
// shard readers so that a plain eval with --baseline does not load their schemas).
import { InputError, located } from "../io/errors.js";
import { sha256File } from "../io/hashing.js";

/** A report that records the sha256 of its cases.jsonl must sit beside that very file. */
export async function checkCasesHash(reportPath: string, report: { cases_sha256?: string }, casesPath: string): Promise<void> {
  if (report.cases_sha256 === undefined) return;
  checkCasesDigest(reportPath, report, casesPath, await sha256File(casesPath));
}

/** checkCasesHash with the file's sha256 already computed (by a reading that hashed its bytes). */
export function checkCasesDigest(reportPath: string, report: { cases_sha256?: string }, casesPath: string, sha256: string): void {
  if (report.cases_sha256 === undefined || sha256 === report.cases_sha256) return;
  throw new InputError(
    located(
      casesPath,
      undefined,
      `does not match ${reportPath} (its cases_sha256 differs): the run was interrupted between the two files, or one was changed; rerun it`,
    ),
  );
}
