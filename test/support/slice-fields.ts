// A slice as plain data, for comparing slices made different ways (read from the file, opened from
// its compiled form): a compiled slice's cases make their sentences and `where` when first read
// (accessors, not fields of their own), so each case is compared field by field, those included.
import type { DocumentSlice, SliceCase } from "../../src/io/slice-kept.js";

/** Every field of a case as a plain value; `extra` with its keys, their order and its prototype. */
export function caseFields(c: SliceCase): Record<string, unknown> {
  return {
    index: c.index,
    id: c.id,
    where: c.where,
    sentences: c.sentences,
    sentenceCount: c.sentenceCount,
    label: c.label,
    gold: c.gold,
    scope: c.scope,
    docType: c.docType,
    contraType: c.contraType,
    extra: [Object.keys(c.extra), JSON.stringify(c.extra), Object.getPrototypeOf(c.extra)],
  };
}

/** A slice's fields with its cases as caseFields gives them, its id map as a plain Map of its entries (a compiled slice's fills itself when first read). */
export function sliceFields(slice: DocumentSlice): Record<string, unknown> {
  return {
    path: slice.path,
    format: slice.format,
    sentences: slice.sentences,
    cases: slice.cases.map(caseFields),
    byId: new Map(slice.byId),
    rejected: slice.rejected,
  };
}
