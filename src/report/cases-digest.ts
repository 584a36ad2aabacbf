// The cases digest: what report.json records of the cases.jsonl written beside it, and the one
// check every reader makes with it (kept apart from the shard readers so that a plain eval with
// --baseline does not load their schemas).
//
// It pairs two files written together, to catch a run interrupted between them or one file changed
// since; it is no security boundary (whoever can change cases.jsonl can change report.json beside
// it), so it need not be cryptographic. XXH64 hashes a 120 MB cases.jsonl in about a quarter of
// SHA-256's time, once in the writer and again in every reader. The run's inputs keep SHA-256.
import { InputError, located } from "../io/errors.js";
import { readFileChunks } from "../io/hashing.js";
import { assertRegularFile } from "../io/input-file.js";
import { xxh64Hasher } from "../io/xxh64.js";
import { createHash } from "node:crypto";
import { laterSchemaVersion, REPORT_SCHEMA_CASES_XXH64, type Report } from "./types.js";

/** The field a report records its cases.jsonl's digest in: XXH64 (seed 0) of the bytes, 16 lowercase hex digits. */
export const CASES_DIGEST_FIELD = "cases_xxh64";
/** The field of reports written before CASES_DIGEST_FIELD: SHA-256 of the bytes, 64 lowercase hex digits. Still checked. */
export const OLDER_CASES_DIGEST_FIELD = "cases_sha256";

type DigestFields = Pick<Report, typeof CASES_DIGEST_FIELD | typeof OLDER_CASES_DIGEST_FIELD>;

/** A hashing of a file's bytes fed in order. */
export interface CasesHasher {
  update(bytes: Uint8Array): void;
  /** The digest as the report records it. */
  digest(): string;
}

/** The hashing a report's CASES_DIGEST_FIELD is made with. */
export function casesHasher(): Promise<CasesHasher> {
  return xxh64Hasher();
}

function sha256Hasher(): CasesHasher {
  const hash = createHash("sha256");
  return {
    update(bytes) {
      hash.update(bytes);
    },
    digest: () => hash.digest("hex"),
  };
}

/** The digest of a cases.jsonl this run has just written (not an input of the run: not noted as one). */
export async function writtenCasesDigest(path: string): Promise<string> {
  const hasher = await casesHasher();
  await readFileChunks(path, (bytes) => hasher.update(bytes));
  return hasher.digest();
}

/**
 * Records `digest` (from `casesHasher`) in `report`, which then states at least the schema
 * version that added the field.
 */
export function recordCasesDigest(report: Report, digest: string): void {
  report[CASES_DIGEST_FIELD] = digest;
  report.schema_version = laterSchemaVersion(report.schema_version, REPORT_SCHEMA_CASES_XXH64);
}

/** A check of the cases.jsonl beside a report: feed it the file's bytes in order, then `check()`. */
export interface CasesDigestCheck {
  update(bytes: Uint8Array): void;
  /** Throws an InputError naming the file and the field when the bytes fed do not match. */
  check(): void;
}

/**
 * The check of every digest `report` records (none: undefined). A report with both fields, which
 * no mari writes, has both checked: each states what the file beside it is, and a report one of
 * whose statements is false was not written with that file; honouring only the cheaper field would
 * accept a report that contradicts its cases.
 */
export async function casesDigestCheck(reportPath: string, report: DigestFields, casesPath: string): Promise<CasesDigestCheck | undefined> {
  const checks: Array<{ field: string; recorded: string; hasher: CasesHasher }> = [];
  const xxh64 = report[CASES_DIGEST_FIELD];
  if (xxh64 !== undefined) checks.push({ field: CASES_DIGEST_FIELD, recorded: xxh64, hasher: await casesHasher() });
  const sha256 = report[OLDER_CASES_DIGEST_FIELD];
  if (sha256 !== undefined) checks.push({ field: OLDER_CASES_DIGEST_FIELD, recorded: sha256, hasher: sha256Hasher() });
  if (checks.length === 0) return undefined;
  return {
    update(bytes) {
      for (const c of checks) c.hasher.update(bytes);
    },
    check() {
      for (const { field, recorded, hasher } of checks) {
        if (hasher.digest() === recorded) continue;
        throw new InputError(
          located(
            casesPath,
            undefined,
            `does not match ${reportPath} (its ${field} differs): the run was interrupted between the two files, or one was changed; rerun it`,
          ),
        );
      }
    },
  };
}

/** A report that records a digest of its cases.jsonl must sit beside that very file: reads the file to check. */
export async function checkCasesDigest(reportPath: string, report: DigestFields, casesPath: string): Promise<void> {
  const digests = await casesDigestCheck(reportPath, report, casesPath);
  if (digests === undefined) return;
  await assertRegularFile(casesPath);
  await readFileChunks(casesPath, (bytes) => digests.update(bytes));
  digests.check();
}
