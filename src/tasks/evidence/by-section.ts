// A value derived from a citation's section (ids and revisions), computed once per section: used by
// the cases.jsonl encoder and by the tally's dependency keys.

import type { KnowledgeDependency } from "../../core/evidence/index.js";

export type SectionFields = Pick<KnowledgeDependency, "document_id" | "revision" | "section_id" | "section_revision">;

/**
 * A value computed from a (document_id, revision, section_id, section_revision) tuple, kept for the
 * last tuple seen with each section revision: citations of one section share these strings, so
 * the check is cheap and a hit skips the work.
 */
export class BySection<T> {
  private readonly last = new Map<string, { fields: SectionFields; value: T }>();

  get(item: SectionFields, make: (item: SectionFields) => T): T {
    const last = this.last.get(item.section_revision);
    if (
      last !== undefined &&
      last.fields.document_id === item.document_id &&
      last.fields.revision === item.revision &&
      last.fields.section_id === item.section_id
    ) {
      return last.value;
    }
    const value = make(item);
    this.last.set(item.section_revision, { fields: item, value });
    return value;
  }
}
