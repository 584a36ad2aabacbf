// Located evidence (docs/evidence.md): a revision ref, an optional locator and a quote,
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

/** What a validator's own check says of one resolved item: null when the item is valid. */
export type ItemFinding = { kind: EvidenceIssueKind; detail: string } | null;

/**
 * The walk both reference validators share (§3, §4): each item in input order, no de-duplication;
 * visibility by ref key (skipped when `visibleKeys` is null), then resolution, then `check` on the
 * resolved material. The first finding is the item's issue.
 */
export function validateEachItem<T extends { readonly ref: R }, R, M>(
  evidence: readonly T[],
  visibleKeys: ReadonlySet<string> | null,
  refKey: (ref: R) => string,
  resolve: (ref: R) => M | null | undefined,
  check: (item: T, material: M) => ItemFinding,
): EvidenceReport<T> {
  const valid: T[] = [];
  const issues: EvidenceIssue<T>[] = [];
  for (const item of evidence) {
    let finding: ItemFinding;
    if (visibleKeys !== null && !visibleKeys.has(refKey(item.ref))) {
      finding = { kind: "not_visible", detail: NOT_VISIBLE_DETAIL };
    } else {
      const material = resolve(item.ref);
      finding = material === null || material === undefined ? { kind: "unresolved", detail: UNRESOLVED_DETAIL } : check(item, material);
    }
    if (finding === null) valid.push(item);
    else issues.push({ evidence: item, ...finding });
  }
  return evidenceReport(valid, issues);
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

export function validateLocatedEvidence(evidence: readonly LocatedEvidence[], options: ValidateLocatedOptions): EvidenceReport<LocatedEvidence> {
  const locate = options.locate ?? defaultLocate;
  const refKey = (ref: RevisionRef) => keyId(revisionRefKey(ref));
  const visible = options.visibleRefs == null ? null : new Set(options.visibleRefs.map(refKey));
  return validateEachItem(evidence, visible, refKey, options.resolveMaterial, (item, material): ItemFinding => {
    let selected: unknown;
    try {
      selected = locate(material, item.locator);
    } catch (err) {
      const failure = locateFailure(err);
      if (failure === null) throw err;
      return failure;
    }
    if (item.quote !== "" && pythonStr(selected) !== item.quote) {
      return { kind: "quote_mismatch", detail: "resolved material does not match the supplied quote" };
    }
    return null;
  });
}
