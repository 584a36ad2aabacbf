// Tests read a document eval's cases.jsonl as every consumer does: through its one reader
// (src/report/document-cases.ts), which expands the compact case and run lines into full records.
import { createHash } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readDocumentCases } from "../../src/report/document-cases.js";

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
 * layout, one full line per (case, run), absent ones included; its report's cases_sha256 follows.
 */
export async function asPreviousLayout(dir: string, copy: string): Promise<string> {
  cpSync(dir, copy, { recursive: true });
  const text = (await documentCaseRecords(join(dir, "cases.jsonl"))).map((r) => `${JSON.stringify(r)}\n`).join("");
  writeFileSync(join(copy, "cases.jsonl"), text);
  const report = JSON.parse(readFileSync(join(copy, "report.json"), "utf8"));
  report.cases_sha256 = createHash("sha256").update(text).digest("hex");
  writeFileSync(join(copy, "report.json"), JSON.stringify(report));
  return copy;
}
