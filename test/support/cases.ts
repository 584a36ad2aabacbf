// Tests read a document eval's cases.jsonl as every consumer does: through its one reader
// (src/report/document-cases.ts), which expands the compact case and run lines into full records.
import { createHash } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import xxhash from "xxhash-wasm";
import { readDocumentCases } from "../../src/report/document-cases.js";

const { h64Raw } = await xxhash();

/** XXH64 (seed 0) of `bytes` as report.json's cases_xxh64 records it, straight from the package. */
export function xxh64Hex(bytes: string | Uint8Array): string {
  return h64Raw(typeof bytes === "string" ? Buffer.from(bytes) : bytes)
    .toString(16)
    .padStart(16, "0");
}

/** The digest fields `report` carries, recomputed for `bytes` (what a forger, or a writer, would record). */
export function redigest(report: Record<string, unknown>, bytes: string | Uint8Array): void {
  if ("cases_xxh64" in report) report.cases_xxh64 = xxh64Hex(bytes);
  if ("cases_sha256" in report) report.cases_sha256 = createHash("sha256").update(bytes).digest("hex");
}

/** `report` without a digest of its cases (a hand-made report): only the line checks apply to its cases.jsonl. */
export function withoutCasesDigest(report: Record<string, unknown>): void {
  delete report.cases_xxh64;
  delete report.cases_sha256;
}

/**
 * The report directory `dir` made (in place) what a build before cases_xxh64 wrote: cases_sha256,
 * the SHA-256 of its cases.jsonl, in the digest's place, and the schema version before 1.3.0.
 */
export function asOlderReport(dir: string): string {
  const path = join(dir, "report.json");
  const report = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  if (!("cases_xxh64" in report)) throw new Error(`${path} has no cases_xxh64`);
  const sha256 = createHash("sha256")
    .update(readFileSync(join(dir, "cases.jsonl")))
    .digest("hex");
  const older = Object.fromEntries(
    Object.entries(report).map(([key, value]) =>
      key === "cases_xxh64" ? ["cases_sha256", sha256] : key === "schema_version" ? [key, "runs_summary" in report ? "1.2.0" : "1.1.0"] : [key, value],
    ),
  );
  writeFileSync(path, `${JSON.stringify(older, null, 2)}\n`);
  return dir;
}

/** The full per-(case, run) records of a document cases.jsonl; a line that gives none fails the test. */
export async function documentCaseRecords(path: string): Promise<Record<string, any>[]> {
  const records: Record<string, any>[] = [];
  for await (const item of readDocumentCases(path)) {
    if ("record" in item) records.push(item.record);
    else if (!item.blank) throw new Error(`${path}:${item.lineNo}: ${item.error}`);
  }
  return records;
}

/**
 * A copy (at `copy`) of a document report directory whose cases.jsonl is rewritten in the previous
 * layout, one full line per (case, run), absent ones included; its report's cases digest follows.
 */
export async function asPreviousLayout(dir: string, copy: string): Promise<string> {
  cpSync(dir, copy, { recursive: true });
  const text = (await documentCaseRecords(join(dir, "cases.jsonl"))).map((r) => `${JSON.stringify(r)}\n`).join("");
  writeFileSync(join(copy, "cases.jsonl"), text);
  const report = JSON.parse(readFileSync(join(copy, "report.json"), "utf8"));
  redigest(report, text);
  writeFileSync(join(copy, "report.json"), JSON.stringify(report));
  return copy;
}
