// Scores one located case of `mari evidence`: its structured citations checked against the
// materials the case could see. A bad entry fails that case only.

import {
  EvidenceValueError,
  isMapping,
  keyId,
  locatedEvidence,
  mappingGet,
  revisionRefKey,
  validateLocatedEvidence,
  type EvidenceIssueKind,
  type LocatedEvidence,
  type RevisionRef,
} from "../../core/evidence/index.js";
import type { CaseError } from "./facts-score.js";
import { FieldError, locatorFromJson, revisionRefFromJson, type LocatedCase } from "./input.js";

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
