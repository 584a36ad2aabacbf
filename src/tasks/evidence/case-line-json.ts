// The lines of cases.jsonl (facts cases) and located.jsonl (located cases), written exactly as
// JSON.stringify would write them.

import type { FactsCaseResult } from "./facts-score.js";
import { factQualifiers } from "./facts-score.js";
import type { LocatedCaseResult } from "./located-score.js";
import { BySection, type SectionFields } from "./by-section.js";
import type { LineBlocks } from "./case-lines.js";

const json = JSON.stringify;

/** A finite number as JSON.stringify writes it (non-finite numbers are null). */
function jsonNumber(n: number | null): string {
  return n !== null && Number.isFinite(n) ? String(n) : "null";
}

interface SectionFragments {
  /** An evidence item's JSON up to its quote, and from its end offset on (UTF-8). */
  readonly head: Buffer;
  readonly tail: Buffer;
  /** The dependency's JSON (UTF-8). */
  readonly dependency: Buffer;
}

/**
 * Writes the cases.jsonl line of a facts case (the issue's shape, plus state, dependencies and gold):
 * exactly `JSON.stringify` of { case_id, line, accepted, error, facts: [{ claim, grounding, state,
 * evidence, qualifiers? }], dependencies, dependency_error, freshness?, gold? }, written piece by
 * piece into the output block, with the JSON of the fields each section repeats (ids and
 * revisions) encoded once per section.
 */
export class FactsCaseLines {
  private readonly sections = new BySection<SectionFragments>();

  private fragments(item: SectionFields): SectionFragments {
    return this.sections.get(item, () => {
      const ids = `{"document_id":${json(item.document_id)},"revision":${json(item.revision)}`;
      const section = `"section_id":${json(item.section_id)},"section_revision":${json(item.section_revision)}}`;
      return { head: Buffer.from(`${ids},"quote":`), tail: Buffer.from(`,${section}`), dependency: Buffer.from(`${ids},${section}`) };
    });
  }

  /** Writes the line and its newline; returns a promise only when a full block is being written. */
  write(result: FactsCaseResult, line: number, out: LineBlocks): Promise<void> | undefined {
    out.begin();
    out.ascii('{"case_id":');
    out.jsonString(result.caseId);
    out.ascii(`,"line":${jsonNumber(line)},"accepted":${result.accepted},"error":`);
    if (result.error === null) out.ascii("null");
    else {
      out.ascii('{"code":');
      out.jsonString(result.error.code);
      out.ascii(',"message":');
      out.jsonString(result.error.message);
      out.ascii("}");
    }
    out.ascii(',"facts":[');
    for (let f = 0; f < result.facts.length; f++) {
      const fact = result.facts[f]!;
      out.ascii(f > 0 ? ',{"claim":' : '{"claim":');
      out.jsonString(fact.claim);
      out.ascii(`,"grounding":${jsonNumber(fact.grounding)},"state":`);
      out.jsonString(fact.state);
      out.ascii(',"evidence":[');
      for (let e = 0; e < fact.evidence.length; e++) {
        const item = fact.evidence[e]!;
        const parts = this.fragments(item);
        if (e > 0) out.ascii(",");
        out.raw(parts.head);
        out.jsonString(item.quote);
        out.ascii(`,"start":${jsonNumber(item.start)},"end":${jsonNumber(item.end)}`);
        out.raw(parts.tail);
      }
      out.ascii("]");
      const qualifiers = factQualifiers(fact);
      if (qualifiers !== null) {
        out.ascii(',"qualifiers":');
        out.json(qualifiers);
      }
      out.ascii("}");
    }
    out.ascii('],"dependencies":[');
    for (let d = 0; d < result.dependencies.length; d++) {
      if (d > 0) out.ascii(",");
      out.raw(this.fragments(result.dependencies[d]!).dependency);
    }
    out.ascii('],"dependency_error":');
    if (result.dependencyError === null) out.ascii("null");
    else out.jsonString(result.dependencyError);
    if (result.freshness !== null) {
      out.ascii(',"freshness":');
      out.jsonString(result.freshness);
    }
    for (let g = 0; g < result.gold.length; g++) {
      const { claim, gold, predicted } = result.gold[g]!;
      out.ascii(g > 0 ? ',{"claim":' : ',"gold":[{"claim":');
      if (claim === null) out.ascii("null");
      else out.jsonString(claim);
      out.ascii(`,"gold":"${gold}","predicted":"${predicted}"}`);
    }
    if (result.gold.length > 0) out.ascii("]");
    out.ascii("}");
    return out.end();
  }
}

/** The located.jsonl line of a located case (without its newline). */
export function locatedCaseLine(result: LocatedCaseResult, line: number): string {
  return JSON.stringify({
    case_id: result.caseId,
    line,
    accepted: result.accepted,
    error: result.error,
    items: result.items,
    valid: result.valid,
    issues: result.issues,
  });
}
