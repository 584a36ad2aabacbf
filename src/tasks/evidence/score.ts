// Scores one case of `mari evidence` and accumulates the run's counts. A case is one model output
// (facts) or one set of located citations; a bad citation fails that case only. Every aggregate is
// a count or a sum, so tallies of chunks or shards merge exactly.

import {
  assessDependencies,
  claimState,
  CLAIM_STATES,
  compareCodePoints,
  dependencyId,
  EVIDENCE_ISSUE_KINDS,
  EvidenceValueError,
  evidenceDependencies,
  isMapping,
  keyId,
  locatedEvidence,
  MalformedModelOutput,
  mappingGet,
  normalizeClaim,
  parseFacts,
  PyFloat,
  pyTruthy,
  pythonStr,
  revisionRefKey,
  toPlainJson,
  validateLocatedEvidence,
  type ClaimState,
  type ClaimStateThresholds,
  type DependencyStatus,
  type Evidence,
  type EvidenceIssueKind,
  type FactCandidate,
  type KnowledgeDependency,
  type KnowledgeDocument,
  type LocatedEvidence,
  type RevisionRef,
} from "../../core/evidence/index.js";
import { stripPythonWhitespace } from "../../core/python/whitespace.js";
import { FieldError, locatorFromJson, revisionRefFromJson, type FactsCase, type GoldStates, type LocatedCase } from "./input.js";

/** Error examples kept per code; counts are always complete. */
export const MAX_EXAMPLES_PER_CODE = 5;

export interface CaseError {
  readonly code: string;
  readonly message: string;
}

export interface ScoredFact {
  readonly claim: string;
  readonly grounding: number;
  readonly state: ClaimState;
  readonly evidence: readonly Evidence[];
  readonly qualifiers: Readonly<Record<string, unknown>>;
}

export interface GoldComparison {
  readonly claim: string | null;
  readonly gold: ClaimState;
  readonly predicted: ClaimState;
}

export interface FactsCaseResult {
  readonly caseId: string;
  readonly where: string;
  readonly accepted: boolean;
  readonly error: CaseError | null;
  readonly facts: readonly ScoredFact[];
  /** Claims of a rejected output (none resolvable): counted as insufficient_evidence. */
  readonly unresolvedClaims: number;
  readonly dependencies: readonly KnowledgeDependency[];
  readonly dependencyError: string | null;
  readonly freshness: DependencyStatus | null;
  readonly gold: readonly GoldComparison[];
}

export interface CurrentRevisions {
  readonly documents: ReadonlyMap<string, string>;
  readonly sections: ReadonlyMap<string, string>;
}

function score(holder: unknown, key: string): number | null {
  if (!isMapping(holder)) return null;
  const value = mappingGet(holder, key);
  return value instanceof PyFloat ? value.value : typeof value === "number" ? value : null;
}

/** A fact's state from the caller's scores: an entry's own score, else its row's. */
function factState(fact: FactCandidate, output: unknown, thresholds: ClaimStateThresholds): ClaimState {
  const rows = isMapping(output) ? mappingGet(output, "facts") : undefined;
  const row = Array.isArray(rows) ? rows[fact.row] : undefined;
  const entries = isMapping(row) ? mappingGet(row, "evidence") : undefined;
  const spans = fact.evidence.map((_, i) => {
    const entry = Array.isArray(entries) ? entries[i] : undefined;
    return {
      resolvable: true, // parseFacts resolved every citation of an accepted fact
      entailment: score(entry, "entailment") ?? score(row, "entailment"),
      contradiction: score(entry, "contradiction") ?? score(row, "contradiction"),
    };
  });
  return claimState(spans, thresholds);
}

/** The claims a rejected output was making (rows with a claim, first of each normalised claim). */
function attemptedClaims(output: unknown): string[] {
  const rows = isMapping(output) ? mappingGet(output, "facts") : undefined;
  if (!Array.isArray(rows)) return [];
  const seen = new Set<string>();
  const claims: string[] = [];
  for (const row of rows) {
    if (!isMapping(row)) continue;
    const raw = mappingGet(row, "claim");
    const claim = stripPythonWhitespace(pyTruthy(raw) ? pythonStr(raw) : "");
    const key = normalizeClaim(claim);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    claims.push(claim);
  }
  return claims;
}

function compareGold(gold: GoldStates | null, predictedByClaim: ReadonlyMap<string, ClaimState>): GoldComparison[] {
  if (gold === null) return [];
  if ("all" in gold) {
    if (predictedByClaim.size === 0) return [{ claim: null, gold: gold.all, predicted: "insufficient_evidence" }];
    return [...predictedByClaim].map(([claim, predicted]) => ({ claim, gold: gold.all, predicted }));
  }
  // A gold claim the output does not make (or that failed) had no resolvable evidence.
  return [...gold.byClaim].map(([claim, state]) => ({
    claim,
    gold: state,
    predicted: predictedByClaim.get(stripPythonWhitespace(claim)) ?? "insufficient_evidence",
  }));
}

function caseErrorOf(err: unknown): CaseError {
  if (err instanceof MalformedModelOutput) return { code: err.code, message: err.message };
  if (err instanceof EvidenceValueError) return { code: err.code ?? "invalid_evidence", message: err.message };
  throw err;
}

export function scoreFactsCase(
  input: FactsCase,
  lookup: ReadonlyMap<string, KnowledgeDocument> | readonly KnowledgeDocument[],
  thresholds: ClaimStateThresholds,
  current: CurrentRevisions | null,
): FactsCaseResult {
  let facts: FactCandidate[];
  try {
    facts = parseFacts(lookup, input.output);
  } catch (err) {
    const error = caseErrorOf(err);
    const states = new Map(attemptedClaims(input.output).map((claim) => [claim, "insufficient_evidence" as ClaimState]));
    return {
      caseId: input.caseId,
      where: input.where,
      accepted: false,
      error,
      facts: [],
      unresolvedClaims: states.size,
      dependencies: [],
      dependencyError: null,
      freshness: null,
      gold: compareGold(input.gold, states),
    };
  }
  const scored: ScoredFact[] = facts.map((fact) => ({
    claim: fact.claim,
    grounding: fact.grounding,
    state: factState(fact, input.output, thresholds),
    evidence: fact.evidence,
    qualifiers: fact.qualifiers,
  }));
  let dependencies: KnowledgeDependency[] = [];
  let dependencyError: string | null = null;
  try {
    dependencies = evidenceDependencies(facts.flatMap((fact) => fact.evidence));
  } catch (err) {
    if (!(err instanceof EvidenceValueError)) throw err;
    dependencyError = err.message;
  }
  const freshness =
    current !== null && dependencyError === null && dependencies.length > 0
      ? assessDependencies(dependencies, current.documents, current.sections).status
      : null;
  return {
    caseId: input.caseId,
    where: input.where,
    accepted: true,
    error: null,
    facts: scored,
    unresolvedClaims: 0,
    dependencies,
    dependencyError,
    freshness,
    gold: compareGold(input.gold, new Map(scored.map((fact) => [fact.claim, fact.state]))),
  };
}

const json = JSON.stringify;

/** A finite number as JSON.stringify writes it (non-finite numbers are null). */
function jsonNumber(n: number | null): string {
  return n !== null && Number.isFinite(n) ? String(n) : "null";
}

type SectionFields = Pick<KnowledgeDependency, "document_id" | "revision" | "section_id" | "section_revision">;

/**
 * A value computed from a (document_id, revision, section_id, section_revision) tuple, kept for the
 * last tuple seen with each section revision: citations of one section share these strings, so
 * the check is cheap and a hit skips the work.
 */
class BySection<T> {
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

/** A fact's qualifiers as plain JSON, null when it has none (the line then has no "qualifiers"). */
export function factQualifiers(fact: ScoredFact): unknown {
  return Object.keys(fact.qualifiers).length > 0 ? toPlainJson(new Map(Object.entries(fact.qualifiers))) : null;
}

export interface LocatedIssueOut {
  readonly index: number;
  readonly kind: EvidenceIssueKind;
  readonly detail: string;
}

export interface LocatedCaseResult {
  readonly caseId: string;
  readonly where: string;
  readonly accepted: boolean;
  readonly error: CaseError | null;
  readonly items: number;
  readonly valid: number;
  readonly issues: readonly LocatedIssueOut[];
}

function locatedEntries(raw: unknown): LocatedEvidence[] {
  if (!Array.isArray(raw)) throw new FieldError('"evidence" must be an array');
  return raw.map((entry, i) => {
    if (!isMapping(entry)) throw new FieldError(`evidence[${i}] must be an object`);
    const quote = mappingGet(entry, "quote");
    if (quote !== undefined && quote !== null && typeof quote !== "string") throw new FieldError(`evidence[${i}].quote must be a string`);
    try {
      return locatedEvidence({
        ref: revisionRefFromJson(mappingGet(entry, "ref"), `evidence[${i}].ref`),
        locator: locatorFromJson(mappingGet(entry, "locator")),
        quote: quote ?? "",
      });
    } catch (err) {
      if (err instanceof FieldError || err instanceof EvidenceValueError) throw new FieldError(`evidence[${i}]: ${err.message}`);
      throw err;
    }
  });
}

export interface Materials {
  readonly refs: readonly RevisionRef[];
  readonly byKey: ReadonlyMap<string, unknown>;
}

export function scoreLocatedCase(input: LocatedCase, materials: Materials): LocatedCaseResult {
  let items: LocatedEvidence[];
  try {
    items = locatedEntries(input.evidence);
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    return {
      caseId: input.caseId,
      where: input.where,
      accepted: false,
      error: { code: "bad_located_entry", message: err.message },
      items: 0,
      valid: 0,
      issues: [],
    };
  }
  const report = validateLocatedEvidence(items, {
    resolveMaterial: (ref) => materials.byKey.get(keyId(revisionRefKey(ref))),
    visibleRefs: input.visible === undefined ? materials.refs : input.visible,
  });
  const issues = report.issues.map((issue) => ({ index: items.indexOf(issue.evidence), kind: issue.kind, detail: issue.detail }));
  return { caseId: input.caseId, where: input.where, accepted: report.accepted, error: null, items: items.length, valid: report.valid.length, issues };
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

interface ErrorExample {
  case_id: string;
  where: string;
  message: string;
}

function countInto(counts: Record<string, number>, key: string, n = 1): void {
  counts[key] = (counts[key] ?? 0) + n;
}

/** Per tally, its dependency keys (kept outside the tally, whose own fields are its JSON: tallyToJson). */
const DEPENDENCY_KEYS = new WeakMap<EvidenceTally, BySection<string>>();

/** Everything report.json says about a run, as mergeable counts and sums. */
export class EvidenceTally {
  cases = 0;
  accepted = 0;
  readonly errors: Record<string, number> = {};
  readonly errorExamples: Record<string, ErrorExample[]> = {};
  facts = 0;
  citations = 0;
  groundingSum = 0;
  readonly states: Record<ClaimState, number> = Object.fromEntries(CLAIM_STATES.map((s) => [s, 0])) as Record<ClaimState, number>;
  goldCompared = 0;
  goldCorrect = 0;
  /** gold state → predicted state → count. */
  readonly goldConfusion: Record<string, Record<string, number>> = {};
  /** keyId of the dependency's four fields → dependency and the number of cases citing it. */
  readonly dependencies = new Map<string, { dependency: KnowledgeDependency; cases: number }>();
  dependencyConflicts = 0;
  readonly dependencyConflictExamples: ErrorExample[] = [];
  readonly freshness: Record<string, number> = {};
  locatedCases = 0;
  locatedAccepted = 0;
  locatedItems = 0;
  locatedValid = 0;
  readonly locatedIssues: Record<EvidenceIssueKind, number> = Object.fromEntries(EVIDENCE_ISSUE_KINDS.map((k) => [k, 0])) as Record<EvidenceIssueKind, number>;
  readonly locatedErrors: Record<string, number> = {};
  readonly locatedExamples: (ErrorExample & { kind: string })[] = [];

  /** keyId of the dependency's four fields. */
  private dependencyKey(dependency: KnowledgeDependency): string {
    let keys = DEPENDENCY_KEYS.get(this);
    if (keys === undefined) DEPENDENCY_KEYS.set(this, (keys = new BySection()));
    return keys.get(dependency, (d) => keyId([d.document_id, d.revision, d.section_id, d.section_revision]));
  }

  private example(list: ErrorExample[], item: ErrorExample): void {
    if (list.length < MAX_EXAMPLES_PER_CODE) list.push(item);
  }

  addFacts(result: FactsCaseResult): void {
    this.cases++;
    if (result.accepted) this.accepted++;
    if (result.error !== null) {
      countInto(this.errors, result.error.code);
      this.errorExamples[result.error.code] ??= [];
      this.example(this.errorExamples[result.error.code]!, { case_id: result.caseId, where: result.where, message: result.error.message });
    }
    for (const fact of result.facts) {
      this.facts++;
      this.citations += fact.evidence.length;
      this.groundingSum += fact.grounding;
      this.states[fact.state]++;
    }
    // The claims of a rejected output have no resolvable evidence.
    this.states.insufficient_evidence += result.unresolvedClaims;
    for (const comparison of result.gold) {
      this.goldCompared++;
      if (comparison.gold === comparison.predicted) this.goldCorrect++;
      this.goldConfusion[comparison.gold] ??= {};
      countInto(this.goldConfusion[comparison.gold]!, comparison.predicted);
    }
    for (const dependency of result.dependencies) {
      const key = this.dependencyKey(dependency);
      const entry = this.dependencies.get(key);
      if (entry) entry.cases++;
      else this.dependencies.set(key, { dependency, cases: 1 });
    }
    if (result.dependencyError !== null) {
      this.dependencyConflicts++;
      if (this.dependencyConflictExamples.length < MAX_EXAMPLES_PER_CODE * 4) {
        this.dependencyConflictExamples.push({ case_id: result.caseId, where: result.where, message: result.dependencyError });
      }
    }
    if (result.freshness !== null) countInto(this.freshness, result.freshness);
  }

  addLocated(result: LocatedCaseResult): void {
    this.locatedCases++;
    if (result.accepted) this.locatedAccepted++;
    this.locatedItems += result.items;
    this.locatedValid += result.valid;
    if (result.error !== null) countInto(this.locatedErrors, result.error.code);
    for (const issue of result.issues) this.locatedIssues[issue.kind]++;
    const first = result.error ?? result.issues[0];
    if (first !== undefined && this.locatedExamples.length < MAX_EXAMPLES_PER_CODE * 4) {
      const kind = "code" in first ? first.code : first.kind;
      const message = "code" in first ? first.message : `evidence[${first.index}]: ${first.detail}`;
      this.locatedExamples.push({ case_id: result.caseId, where: result.where, kind, message });
    }
  }

  /** Every distinct dependency with the number of cases citing it, by dependency id (code points). */
  dependencyList(): { document_id: string; revision: string; section_id: string; section_revision: string; dependency_id: string; cases: number }[] {
    return [...this.dependencies.values()]
      .map(({ dependency, cases }) => ({ ...dependency, dependency_id: dependencyId(dependency), cases }))
      .sort(
        (a, b) =>
          compareCodePoints(a.dependency_id, b.dependency_id) ||
          compareCodePoints(a.revision, b.revision) ||
          compareCodePoints(a.section_revision, b.section_revision),
      );
  }
}
