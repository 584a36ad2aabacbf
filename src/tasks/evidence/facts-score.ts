// Scores one facts case of `mari evidence`: a model output's facts parsed against exactly the
// documents it saw, each fact's claim state from the caller's scores, its dependencies and their
// freshness, and the comparison with the gold states. A bad citation fails that case only.

import {
  assessDependencies,
  claimState,
  EvidenceValueError,
  evidenceDependencies,
  isMapping,
  MalformedModelOutput,
  mappingGet,
  normalizeClaim,
  parseFacts,
  PyFloat,
  pyTruthy,
  pythonStr,
  toPlainJson,
  type ClaimState,
  type ClaimStateThresholds,
  type DependencyStatus,
  type Evidence,
  type FactCandidate,
  type KnowledgeDependency,
  type KnowledgeDocument,
} from "../../core/evidence/index.js";
import { stripPythonWhitespace } from "../../core/python/whitespace.js";
import type { FactsCase, GoldStates } from "./input.js";

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
    gold: input.gold === null ? [] : compareGold(input.gold, new Map(scored.map((fact) => [fact.claim, fact.state]))),
  };
}

/** A fact's qualifiers as plain JSON, null when it has none (the line then has no "qualifiers"). */
export function factQualifiers(fact: ScoredFact): unknown {
  return Object.keys(fact.qualifiers).length > 0 ? toPlainJson(new Map(Object.entries(fact.qualifiers))) : null;
}
