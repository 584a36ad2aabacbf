// The cases digest: what report.json records of each per-case file written beside it (cases.jsonl;
// `mari evidence --located`'s located.jsonl), and the one check every reader makes with it (kept
// apart from the shard readers so that a plain eval with --baseline does not load their schemas).
//
// It pairs files written together, to catch a run interrupted between them or one file changed
// since; it is no security boundary (whoever can change cases.jsonl can change report.json beside
// it), so it need not be cryptographic. XXH64 hashes a 120 MB cases.jsonl in about a quarter of
// SHA-256's time, once in the writer and again in every reader. The run's inputs keep SHA-256.
import { basename } from "node:path";
import { InputError, located } from "../io/errors.js";
import { readFileChunks } from "../io/hashing.js";
import { assertRegularFile } from "../io/input-file.js";
import { xxh64Hasher } from "../io/xxh64.js";
import { createHash } from "node:crypto";
import { laterSchemaVersion, REPORT_SCHEMA_CASES_XXH64, REPORT_SCHEMA_LOCATED_XXH64, type Report } from "./types.js";

/**
 * The per-case files a report records the digest of, by the name each has beside it: `field`, that
 * of its XXH64 (seed 0) of the bytes, 16 lowercase hex digits, added in schema version `since`;
 * `older`, the field of its SHA-256 (64 lowercase hex digits) in reports written before, which this
 * build no longer writes but still checks. A reader finds the file by its name, which therefore
 * says which fields describe it.
 */
const CASE_FILES: Readonly<Record<CaseFileName, CaseFileDigest>> = {
  "cases.jsonl": { field: "cases_xxh64", since: REPORT_SCHEMA_CASES_XXH64, older: "cases_sha256" },
  "located.jsonl": { field: "located_xxh64", since: REPORT_SCHEMA_LOCATED_XXH64 },
};

/** The name of a per-case file whose digest a report records. */
export type CaseFileName = "cases.jsonl" | "located.jsonl";

type DigestField = "cases_xxh64" | "located_xxh64";
type DigestFields = Pick<Report, DigestField | "cases_sha256">;

interface CaseFileDigest {
  readonly field: DigestField;
  readonly since: string;
  readonly older?: "cases_sha256";
}

/** Which per-case file `path` is, by its name (a path of another name is a programming error). */
function caseFileOf(path: string): CaseFileDigest {
  const name = basename(path);
  if (!Object.hasOwn(CASE_FILES, name))
    throw new Error(`cases digest: ${path} is not a per-case file a report records (${Object.keys(CASE_FILES).join(", ")})`);
  return CASE_FILES[name as CaseFileName];
}

/** A hashing of a file's bytes fed in order. */
export interface CasesHasher {
  update(bytes: Uint8Array): void;
  /** The digest as the report records it. */
  digest(): string;
}

/** The hashing a report's digest of a per-case file is made with. */
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

/** The digest of a per-case file this run has just written (not an input of the run: not noted as one). */
export async function writtenCasesDigest(path: string): Promise<string> {
  const hasher = await casesHasher();
  await readFileChunks(path, (bytes) => hasher.update(bytes));
  return hasher.digest();
}

/** A per-case file a run has just written beside its report (cases.jsonl, located.jsonl). */
export interface WrittenCaseFile {
  path: string;
  /** Its digest when its writer hashed the bytes as it wrote them (`casesHasher`); else the file is read to hash it. */
  digest?: string;
}

/**
 * Records in `report` the digest of each per-case file written beside it, under the file's field;
 * the report then states at least the schema version that added each field.
 */
export async function recordCasesDigests(report: Report, files: readonly WrittenCaseFile[]): Promise<void> {
  for (const file of files) {
    const { field, since } = caseFileOf(file.path);
    report[field] = file.digest ?? (await writtenCasesDigest(file.path));
    report.schema_version = laterSchemaVersion(report.schema_version, since);
  }
}

/** A check of a per-case file beside a report: feed it the file's bytes in order, then `check()`. */
export interface CasesDigestCheck {
  update(bytes: Uint8Array): void;
  /** Throws an InputError naming the file and the field when the bytes fed do not match. */
  check(): void;
}

/**
 * The check of every digest `report` records of the per-case file at `casesPath` (the file's name
 * says which: CASE_FILES), or undefined when it records none (a report written before the field,
 * or by hand). A cases.jsonl whose report has both fields, which no mari writes, has both checked:
 * each states what the file beside it is, and a report one of whose statements is false was not
 * written with that file; honouring only the cheaper field would accept a report that contradicts
 * its cases.
 */
export async function casesDigestCheck(reportPath: string, report: DigestFields, casesPath: string): Promise<CasesDigestCheck | undefined> {
  const { field, older } = caseFileOf(casesPath);
  const checks: Array<{ field: string; recorded: string; hasher: CasesHasher }> = [];
  const xxh64 = report[field];
  if (xxh64 !== undefined) checks.push({ field, recorded: xxh64, hasher: await casesHasher() });
  if (older !== undefined) {
    const sha256 = report[older];
    if (sha256 !== undefined) checks.push({ field: older, recorded: sha256, hasher: sha256Hasher() });
  }
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

/** A report that records a digest of a per-case file must sit beside that very file: reads the file to check. */
export async function checkCasesDigest(reportPath: string, report: DigestFields, casesPath: string): Promise<void> {
  const digests = await casesDigestCheck(reportPath, report, casesPath);
  if (digests === undefined) return;
  await assertRegularFile(casesPath);
  await readFileChunks(casesPath, (bytes) => digests.update(bytes));
  digests.check();
}
