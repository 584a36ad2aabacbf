// Tests read a document eval's cases.jsonl as every consumer does: through its one reader
// (src/report/document-cases.ts), which expands the compact case and run lines into full records.
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
