// The evidence explorer shows each quote inside its section: the section text around the quote,
// from the documents the run read. Offsets in cases.jsonl are code points into the document body.
import { cachedDocumentSections } from "../../core/evidence/facts.js";
import type { KnowledgeDocument } from "../../core/evidence/documents.js";
import type { ExplorerData } from "../../report/explorer.js";

/** Characters of section text kept on each side of a quote. */
const CONTEXT = 400;

type Item = Record<string, unknown>;

/** Adds `context: [before, quote, after]` to every evidence item of the shown cases whose section is known. */
export function attachQuoteContext(explorer: ExplorerData, documents: readonly KnowledgeDocument[]): void {
  const byRevision = new Map(documents.map((d) => [`${d.document_id}\u0000${d.revision}`, d]));
  for (const c of explorer.cases) {
    const facts = c.record?.["facts"];
    if (!Array.isArray(facts)) continue;
    for (const fact of facts as Item[]) {
      const evidence = fact["evidence"];
      if (!Array.isArray(evidence)) continue;
      for (const item of evidence as Item[]) {
        const doc = byRevision.get(`${String(item["document_id"])}\u0000${String(item["revision"])}`);
        const start = item["start"];
        const end = item["end"];
        if (doc === undefined || typeof start !== "number" || typeof end !== "number") continue;
        const section = cachedDocumentSections(doc).find((s) => s.section_id === item["section_id"] && s.start <= start && end <= s.end);
        if (section === undefined) continue;
        const points = Array.from(section.text);
        const from = start - section.start;
        const to = end - section.start;
        const before = points.slice(Math.max(0, from - CONTEXT), from).join("");
        item["context"] = [
          (from > CONTEXT ? "…" : "") + before,
          points.slice(from, to).join(""),
          points.slice(to, to + CONTEXT).join("") + (points.length - to > CONTEXT ? "…" : ""),
        ];
      }
    }
  }
}
