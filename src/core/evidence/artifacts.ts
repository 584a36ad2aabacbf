// Artifact evidence (docs/evidence.md): a quote and/or a code-point span in a text artifact
// revision, checked against the text the caller resolves.

import type { Evidence } from "./facts.js";
import { EvidenceValueError } from "./errors.js";
import { validateEachItem, type EvidenceReport, type ItemFinding } from "./located.js";
import { codePointLength, containsCodePoints, sliceCodePoints } from "../python/text.js";
import { stripPythonWhitespace } from "../python/whitespace.js";
import { keyId, objectRef, revisionRef, scopeKey, type RevisionRef, type ScopeRef } from "./refs.js";

export interface ArtifactRef {
  /** Not stripped (unlike ObjectRef); must not be blank. */
  readonly artifact_id: string;
  readonly revision: string;
  readonly unit_id: string;
  readonly namespace: string;
  readonly scope: ScopeRef | null;
}

export function artifactRef(input: { artifact_id: string; revision: string; unit_id?: string; namespace?: string; scope?: ScopeRef | null }): ArtifactRef {
  if (stripPythonWhitespace(input.artifact_id) === "" || stripPythonWhitespace(input.revision) === "") {
    throw new EvidenceValueError("artifact ID and revision are required");
  }
  return Object.freeze({
    artifact_id: input.artifact_id,
    revision: input.revision,
    unit_id: input.unit_id ?? "",
    namespace: input.namespace ?? "",
    scope: input.scope ?? null,
  });
}

/** (tenant, space, namespace, artifact_id, revision, unit_id), the mari_kit key. */
export function artifactRefKey(ref: ArtifactRef): string[] {
  return [...scopeKey(ref.scope), ref.namespace, ref.artifact_id, ref.revision, ref.unit_id];
}

/** The equivalent RevisionRef; an empty namespace becomes "artifact". */
export function artifactToRevisionRef(ref: ArtifactRef): RevisionRef {
  return revisionRef({
    object: objectRef({ namespace: ref.namespace === "" ? "artifact" : ref.namespace, object_id: ref.artifact_id, scope: ref.scope }),
    revision: ref.revision,
    unit_id: ref.unit_id,
  });
}

export interface ArtifactEvidence {
  readonly ref: ArtifactRef;
  readonly quote: string;
  /** Code points; both or neither. */
  readonly start: number | null;
  readonly end: number | null;
  readonly metadata: Readonly<Record<string, string>>;
}

export function artifactEvidence(input: {
  ref: ArtifactRef;
  quote?: string;
  start?: number | null;
  end?: number | null;
  metadata?: Record<string, string>;
}): ArtifactEvidence {
  const start = input.start ?? null;
  const end = input.end ?? null;
  if ((start === null) !== (end === null)) throw new EvidenceValueError("evidence start and end must be supplied together");
  if (start !== null && end !== null && (start < 0 || end < start)) throw new EvidenceValueError("evidence span is invalid");
  return Object.freeze({ ref: input.ref, quote: input.quote ?? "", start, end, metadata: Object.freeze({ ...(input.metadata ?? {}) }) });
}

/** Document evidence as an artifact reference (namespace "document", unit = section). */
export function documentEvidenceRef(evidence: Evidence, scope: ScopeRef | null = null): ArtifactEvidence {
  return artifactEvidence({
    ref: artifactRef({
      artifact_id: evidence.document_id,
      revision: evidence.revision,
      unit_id: evidence.section_id,
      namespace: "document",
      scope,
    }),
    quote: evidence.quote,
    start: evidence.start,
    end: evidence.end,
    metadata: evidence.section_revision === "" ? {} : { unit_revision: evidence.section_revision },
  });
}

export interface ValidateArtifactOptions {
  /** The text of a revision, or null/undefined when it cannot be resolved. */
  resolveText: (ref: ArtifactRef) => string | null | undefined;
  /** The refs the model saw; null/undefined skips the check. */
  visibleRefs?: readonly ArtifactRef[] | null;
}

export function validateArtifactEvidence(evidence: readonly ArtifactEvidence[], options: ValidateArtifactOptions): EvidenceReport<ArtifactEvidence> {
  const refKey = (ref: ArtifactRef) => keyId(artifactRefKey(ref));
  const visible = options.visibleRefs == null ? null : new Set(options.visibleRefs.map(refKey));
  return validateEachItem(evidence, visible, refKey, options.resolveText, (item, text): ItemFinding => {
    if (item.start !== null && item.end !== null) {
      const length = codePointLength(text);
      if (item.end > length) return { kind: "invalid_span", detail: `span is outside material length ${length}` };
      if (item.quote !== "" && sliceCodePoints(text, item.start, item.end) !== item.quote) {
        return { kind: "quote_mismatch", detail: "quote does not match the supplied span" };
      }
    } else if (item.quote !== "" && !containsCodePoints(text, item.quote)) {
      return { kind: "quote_mismatch", detail: "quote does not occur in the supplied material" };
    }
    return null;
  });
}
