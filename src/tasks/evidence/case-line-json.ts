// The lines of cases.jsonl (facts cases) and located.jsonl (located cases), written exactly as
// JSON.stringify would write them.

import type { FactsCaseResult } from "./facts-score.js";
import { factQualifiers } from "./facts-score.js";
import type { LocatedCaseResult } from "./located-score.js";
import { BySection, type SectionFields } from "./by-section.js";

const json = JSON.stringify;

/** A finite number as JSON.stringify writes it (non-finite numbers are null). */
function jsonNumber(n: number | null): string {
  return n !== null && Number.isFinite(n) ? String(n) : "null";
}

interface SectionFragments {
  /** An evidence item's JSON up to its quote, and from its end offset on. */
  readonly head: string;
  readonly tail: string;
  /** The dependency's JSON. */
  readonly dependency: string;
}

/**
 * Writes the cases.jsonl line of a facts case (the issue's shape, plus state, dependencies and gold;
 * without its newline): exactly `JSON.stringify` of { case_id, line, accepted, error, facts: [{ claim,
 * grounding, state, evidence, qualifiers? }], dependencies, dependency_error, freshness?, gold? },
 * with the JSON of the fields each section repeats (ids and revisions) built once per section.
 */
export class FactsCaseLines {
  private readonly sections = new BySection<SectionFragments>();

  private fragments(item: SectionFields): SectionFragments {
    return this.sections.get(item, () => {
      const ids = `{"document_id":${json(item.document_id)},"revision":${json(item.revision)}`;
      const section = `"section_id":${json(item.section_id)},"section_revision":${json(item.section_revision)}}`;
      return { head: `${ids},"quote":`, tail: `,${section}`, dependency: `${ids},${section}` };
    });
  }

  line(result: FactsCaseResult, line: number): string {
    let out = `{"case_id":${json(result.caseId)},"line":${jsonNumber(line)},"accepted":${result.accepted},"error":${result.error === null ? "null" : json(result.error)},"facts":[`;
    for (let f = 0; f < result.facts.length; f++) {
      const fact = result.facts[f]!;
      out += `${f > 0 ? "," : ""}{"claim":${json(fact.claim)},"grounding":${jsonNumber(fact.grounding)},"state":${json(fact.state)},"evidence":[`;
      for (let e = 0; e < fact.evidence.length; e++) {
        const item = fact.evidence[e]!;
        const parts = this.fragments(item);
        out += `${e > 0 ? "," : ""}${parts.head}${json(item.quote)},"start":${jsonNumber(item.start)},"end":${jsonNumber(item.end)}${parts.tail}`;
      }
      out += "]";
      const qualifiers = factQualifiers(fact);
      if (qualifiers !== null) out += `,"qualifiers":${json(qualifiers)}`;
      out += "}";
    }
    out += '],"dependencies":[';
    for (let d = 0; d < result.dependencies.length; d++) out += `${d > 0 ? "," : ""}${this.fragments(result.dependencies[d]!).dependency}`;
    out += `],"dependency_error":${result.dependencyError === null ? "null" : json(result.dependencyError)}`;
    if (result.freshness !== null) out += `,"freshness":${json(result.freshness)}`;
    if (result.gold.length > 0) out += `,"gold":${json(result.gold)}`;
    return `${out}}`;
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
