// Revision dependencies and freshness (docs/evidence.md): what a result depends on, and
// whether each dependency is still current given the present revisions.

import { EvidenceValueError } from "./errors.js";
import type { Evidence } from "./facts.js";
import { compareCodePoints, pythonStringRepr } from "../python/text.js";
import { keyId, objectRefKey, revisionRefKey, type RevisionRef } from "./refs.js";
import { sectionKey } from "./sections.js";

export interface KnowledgeDependency {
  readonly document_id: string;
  readonly revision: string;
  readonly section_id: string;
  readonly section_revision: string;
}

export function knowledgeDependency(input: { document_id: string; revision: string; section_id?: string; section_revision?: string }): KnowledgeDependency {
  const sectionId = input.section_id ?? "";
  const sectionRevision = input.section_revision ?? "";
  if (input.document_id === "" || input.revision === "") throw new EvidenceValueError("dependency document ID and revision are required");
  if ((sectionId === "") !== (sectionRevision === "")) {
    throw new EvidenceValueError("dependency section ID and section revision must be supplied together");
  }
  return Object.freeze({ document_id: input.document_id, revision: input.revision, section_id: sectionId, section_revision: sectionRevision });
}

/** "doc#section", or "doc" for a document-level dependency. */
export function dependencyId(dependency: Pick<KnowledgeDependency, "document_id" | "section_id">): string {
  return dependency.section_id === "" ? dependency.document_id : `${dependency.document_id}#${dependency.section_id}`;
}

function compareDependencies(a: KnowledgeDependency, b: KnowledgeDependency): number {
  return compareCodePoints(a.document_id, b.document_id) || compareCodePoints(a.section_id, b.section_id);
}

/**
 * One dependency per (document_id, section_id), sorted by that pair in code-point order. Identical
 * repeats collapse; a repeat that differs in any field raises "evidence references multiple
 * revisions of '<id>'". Different sections of one document may carry different document revisions.
 */
export function evidenceDependencies(evidence: Iterable<Evidence>): KnowledgeDependency[] {
  const byKey = new Map<string, KnowledgeDependency>();
  for (const item of evidence) {
    const dependency = knowledgeDependency(item);
    // A local key: the id's length makes the concatenation unambiguous.
    const key = `${dependency.document_id.length}:${dependency.document_id}${dependency.section_id}`;
    const existing = byKey.get(key);
    if (existing === undefined) byKey.set(key, dependency);
    else if (existing.revision !== dependency.revision || existing.section_revision !== dependency.section_revision) {
      throw new EvidenceValueError(`evidence references multiple revisions of ${pythonStringRepr(dependencyId(dependency))}`);
    }
  }
  return [...byKey.values()].sort(compareDependencies);
}

export type DependencyStatus = "current" | "stale" | "missing" | "unversioned";

export interface RevisionChange {
  readonly document_id: string;
  readonly expected: string;
  readonly current: string;
  readonly section_id: string;
}

export interface DependencyAssessment {
  readonly status: DependencyStatus;
  /** True only when current. */
  readonly reusable: boolean;
  readonly dependencies: readonly KnowledgeDependency[];
  /** Sorted by dependency id, unique. */
  readonly changes: readonly RevisionChange[];
  readonly missing_dependency_ids: readonly string[];
  readonly unversioned_dependency_ids: readonly string[];
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

/**
 * Compares dependencies with the present revisions: document_id → revision, and optionally
 * (document_id, section_id) → section revision keyed by `sectionKey`. With a section map, a section
 * dependency is judged by its section revision alone (a document revision change is ignored).
 * Status priority: missing > unversioned > stale > current.
 */
export function assessDependencies(
  dependencies: readonly KnowledgeDependency[],
  currentRevisions: ReadonlyMap<string, string>,
  currentSectionRevisions: ReadonlyMap<string, string> | null = null,
): DependencyAssessment {
  const missing: string[] = [];
  const unversioned: string[] = [];
  const changes = new Map<string, RevisionChange>();
  for (const dependency of dependencies) {
    const currentDocument = currentRevisions.get(dependency.document_id);
    if (currentDocument === undefined) {
      missing.push(dependency.document_id);
      continue;
    }
    let expected = dependency.revision;
    let current = currentDocument;
    if (dependency.section_id !== "" && currentSectionRevisions !== null) {
      const currentSection = currentSectionRevisions.get(sectionKey(dependency.document_id, dependency.section_id));
      if (currentSection === undefined) {
        missing.push(dependencyId(dependency));
        continue;
      }
      expected = dependency.section_revision;
      current = currentSection;
    }
    if (expected === "" || current === "") unversioned.push(dependencyId(dependency));
    else if (expected !== current) {
      const change = { document_id: dependency.document_id, expected, current, section_id: dependency.section_id };
      changes.set(keyId([dependencyId(dependency), expected, current]), Object.freeze(change));
    }
  }
  const sortedChanges = [...changes.values()].sort((a, b) => compareCodePoints(dependencyId(a), dependencyId(b)));
  const status: DependencyStatus = missing.length > 0 ? "missing" : unversioned.length > 0 ? "unversioned" : sortedChanges.length > 0 ? "stale" : "current";
  return Object.freeze({
    status,
    reusable: status === "current",
    dependencies: Object.freeze([...dependencies]),
    changes: Object.freeze(sortedChanges),
    missing_dependency_ids: Object.freeze(sortedUnique(missing)),
    unversioned_dependency_ids: Object.freeze(sortedUnique(unversioned)),
  });
}

/** The reference's assess_freshness: evidenceDependencies, then assessDependencies. */
export function assessFreshness(
  evidence: Iterable<Evidence>,
  currentRevisions: ReadonlyMap<string, string>,
  currentSectionRevisions: ReadonlyMap<string, string> | null = null,
): DependencyAssessment {
  return assessDependencies(evidenceDependencies(evidence), currentRevisions, currentSectionRevisions);
}

/**
 * The artifacts whose evidence is no longer reusable (stale, missing or unversioned), with their
 * assessments, sorted by artifact id in code-point order (the reference's impacted_artifacts).
 */
export function impactedArtifacts(
  evidenceByArtifact: ReadonlyMap<string, Iterable<Evidence>>,
  currentRevisions: ReadonlyMap<string, string>,
  currentSectionRevisions: ReadonlyMap<string, string> | null = null,
): { artifact_id: string; assessment: DependencyAssessment }[] {
  return [...evidenceByArtifact]
    .map(([artifactId, evidence]) => ({ artifact_id: artifactId, assessment: assessFreshness(evidence, currentRevisions, currentSectionRevisions) }))
    .filter((entry) => !entry.assessment.reusable)
    .sort((a, b) => compareCodePoints(a.artifact_id, b.artifact_id));
}

export type RevisionRefStatus = "current" | "stale" | "missing";

/**
 * mari_kit's assess_revision_refs: each expected ref against the present ref of its object;
 * missing when absent, stale when the revision or unit_id differs. Priority missing > stale.
 */
export function assessRevisionRefs(
  expected: readonly RevisionRef[],
  current: readonly RevisionRef[],
): { status: RevisionRefStatus; missing: RevisionRef[]; stale: RevisionRef[] } {
  const byObject = new Map(current.map((ref) => [keyId(objectRefKey(ref.object)), ref] as const));
  const missing: RevisionRef[] = [];
  const stale: RevisionRef[] = [];
  for (const ref of expected) {
    const present = byObject.get(keyId(objectRefKey(ref.object)));
    if (present === undefined) missing.push(ref);
    else if (keyId(revisionRefKey(present)) !== keyId(revisionRefKey(ref))) stale.push(ref);
  }
  return { status: missing.length > 0 ? "missing" : stale.length > 0 ? "stale" : "current", missing, stale };
}
