// The run's counts of `mari evidence`: everything report.json says, as counts and sums of the
// scored cases, so tallies of chunks or shards merge exactly.

import {
  CLAIM_STATES,
  compareCodePoints,
  dependencyId,
  EVIDENCE_ISSUE_KINDS,
  keyId,
  type ClaimState,
  type EvidenceIssueKind,
  type KnowledgeDependency,
} from "../../core/evidence/index.js";
import { BySection } from "./by-section.js";
import type { FactsCaseResult } from "./facts-score.js";
import type { LocatedCaseResult } from "./located-score.js";

/** Error examples kept per code; counts are always complete. */
export const MAX_EXAMPLES_PER_CODE = 5;

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
