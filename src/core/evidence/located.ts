// Located evidence (reference-semantics §3): a revision ref, an optional locator and a quote,
// checked against exactly the materials the model saw. Items are judged one by one, in order;
// nothing is de-duplicated.

import { defaultLocate, LocateError, type LocateFunction } from "./locate.js";
import { pythonStr } from "../python/values.js";
import { keyId, revisionRefKey, type Locator, type RevisionRef } from "./refs.js";

export interface LocatedEvidence {
  readonly ref: RevisionRef;
  readonly locator: Locator | null;
  readonly quote: string;
}

export function locatedEvidence(input: { ref: RevisionRef; locator?: Locator | null; quote?: string }): LocatedEvidence {
  return Object.freeze({ ref: input.ref, locator: input.locator ?? null, quote: input.quote ?? "" });
}

export const EVIDENCE_ISSUE_KINDS = ["not_visible", "unresolved", "invalid_span", "unsupported_locator", "quote_mismatch"] as const;
export type EvidenceIssueKind = (typeof EVIDENCE_ISSUE_KINDS)[number];

export interface EvidenceIssue<T> {
  readonly evidence: T;
  readonly kind: EvidenceIssueKind;
  readonly detail: string;
}

export interface EvidenceReport<T> {
  readonly valid: readonly T[];
  readonly issues: readonly EvidenceIssue<T>[];
  /** At least one valid item and no issues (so an empty input is not accepted). */
  readonly accepted: boolean;
}

export const NOT_VISIBLE_DETAIL = "artifact revision was not in the supplied material";
export const UNRESOLVED_DETAIL = "artifact revision could not be resolved";

export function evidenceReport<T>(valid: readonly T[], issues: readonly EvidenceIssue<T>[]): EvidenceReport<T> {
  return Object.freeze({ valid: Object.freeze([...valid]), issues: Object.freeze([...issues]), accepted: valid.length > 0 && issues.length === 0 });
}

export interface ValidateLocatedOptions {
  /** Returns the material of a revision, or null/undefined when it cannot be resolved. */
  resolveMaterial: (ref: RevisionRef) => unknown;
  /** The refs the model saw; null/undefined skips the visibility check (admits any ref). */
  visibleRefs?: readonly RevisionRef[] | null;
  /** Replaces the default locator, e.g. to support PageRegion or MediaTimeRange. */
  locate?: LocateFunction;
}

function locateFailure(err: unknown): { kind: EvidenceIssueKind; detail: string } | null {
  if (err instanceof LocateError) {
    if (err.kind === "NotImplementedError") return { kind: "unsupported_locator", detail: `${err.message} requires a caller locator` };
    return { kind: "invalid_span", detail: `locator did not resolve: ${err.message}` };
  }
  // A caller's locate function may throw JavaScript's nearest equivalents of IndexError/TypeError.
  if (err instanceof RangeError || err instanceof TypeError) {
    return { kind: "invalid_span", detail: `locator did not resolve: ${err.message}` };
  }
  return null;
}

export function validateLocatedEvidence(
  evidence: readonly LocatedEvidence[],
  options: ValidateLocatedOptions,
): EvidenceReport<LocatedEvidence> {
  const locate = options.locate ?? defaultLocate;
  const visible = options.visibleRefs == null ? null : new Set(options.visibleRefs.map((ref) => keyId(revisionRefKey(ref))));
  const valid: LocatedEvidence[] = [];
  const issues: EvidenceIssue<LocatedEvidence>[] = [];
  for (const item of evidence) {
    if (visible !== null && !visible.has(keyId(revisionRefKey(item.ref)))) {
      issues.push({ evidence: item, kind: "not_visible", detail: NOT_VISIBLE_DETAIL });
      continue;
    }
    const material = options.resolveMaterial(item.ref);
    if (material === null || material === undefined) {
      issues.push({ evidence: item, kind: "unresolved", detail: UNRESOLVED_DETAIL });
      continue;
    }
    let selected: unknown;
    try {
      selected = locate(material, item.locator);
    } catch (err) {
      const failure = locateFailure(err);
      if (failure === null) throw err;
      issues.push({ evidence: item, ...failure });
      continue;
    }
    if (item.quote !== "" && pythonStr(selected) !== item.quote) {
      issues.push({ evidence: item, kind: "quote_mismatch", detail: "resolved material does not match the supplied quote" });
      continue;
    }
    valid.push(item);
  }
  return evidenceReport(valid, issues);
}
