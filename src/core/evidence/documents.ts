// Knowledge documents (docs/evidence.md): identity from two percent-encoded ids, the caller's
// opaque revision, and a content digest recomputed from the body.

import { EvidenceValueError } from "./errors.js";
import { pythonStringRepr } from "../python/text.js";
import { stripPythonWhitespace } from "../python/whitespace.js";
import { encodeUtf8Strict, sha256OfText } from "./sha256.js";
import { objectRef, revisionRef, type RevisionRef, type ScopeRef } from "./refs.js";

export interface KnowledgeDocumentInput {
  source_id: string;
  external_id: string;
  title?: string;
  body: string;
  revision: string;
  /** Defaults to `revision`. */
  provider_revision?: string;
  /** Optional; when given it must equal the digest of the body. */
  content_digest?: string;
}

export interface KnowledgeDocument {
  readonly document_id: string;
  readonly source_id: string;
  readonly external_id: string;
  readonly title: string;
  readonly body: string;
  /** Stored as given (not stripped), as the reference does. */
  readonly revision: string;
  readonly provider_revision: string;
  readonly content_digest: string;
}

// quote(text, safe=":@"): ASCII letters, digits, "_.-~" and ":@" stay; everything else, "/"
// included, becomes %XX of its UTF-8 bytes (encodeURIComponent keeps !*'() and escapes ":@").
const UNRESERVED = /^[A-Za-z0-9_.\-~:@]$/;

/** Percent-encodes one id part as the reference does. Raises on a lone surrogate. */
export function percentEncodeIdPart(text: string): string {
  let out = "";
  for (const ch of text) {
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of encodeUtf8Strict(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `quote(source_id) + "/" + quote(external_id)`: e.g. ("notion", "page:1") → "notion/page:1". */
export function documentId(sourceId: string, externalId: string): string {
  return `${percentEncodeIdPart(sourceId)}/${percentEncodeIdPart(externalId)}`;
}

function percentDecode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * Splits a document_id into (source_id, external_id). It must contain exactly one "/" and each part
 * must be the canonical encoding of its decoded value (so "a%2fb" or "a b" are rejected).
 */
export function parseDocumentId(id: string): { source_id: string; external_id: string } {
  const parts = id.split("/");
  const decoded = parts.length === 2 ? parts.map(percentDecode) : [];
  if (decoded.length !== 2 || decoded.some((part, i) => part === null || part === "" || percentEncodeIdPart(part) !== parts[i])) {
    throw new EvidenceValueError(`invalid document_id ${pythonStringRepr(id)}`);
  }
  return { source_id: decoded[0]!, external_id: decoded[1]! };
}

/** "sha256:" + lowercase hex SHA-256 of the UTF-8 body (the section revision has no prefix). */
export function contentDigest(body: string): string {
  return `sha256:${sha256OfText(body)}`;
}

/** Builds and validates a document; messages for blank ids/revision are this port's (UNSURE). */
export function knowledgeDocument(input: KnowledgeDocumentInput): KnowledgeDocument {
  if (stripPythonWhitespace(input.source_id) === "" || stripPythonWhitespace(input.external_id) === "") {
    throw new EvidenceValueError("document source_id and external_id are required");
  }
  if (stripPythonWhitespace(input.revision) === "") throw new EvidenceValueError("document revision is required");
  const digest = contentDigest(input.body);
  if (input.content_digest !== undefined && input.content_digest !== digest) {
    throw new EvidenceValueError("document content_digest does not match body");
  }
  return Object.freeze({
    document_id: documentId(input.source_id, input.external_id),
    source_id: input.source_id,
    external_id: input.external_id,
    title: input.title ?? "",
    body: input.body,
    revision: input.revision,
    provider_revision: input.provider_revision ?? input.revision,
    content_digest: digest,
  });
}

/**
 * The document as a revision ref: object (namespace = source_id, object_id = external_id), the
 * document revision, optionally in a scope (the reference's `ref` and `ref_in(scope)`).
 */
export function documentRef(document: KnowledgeDocument, scope: ScopeRef | null = null): RevisionRef {
  return revisionRef({ object: objectRef({ namespace: document.source_id, object_id: document.external_id, scope }), revision: document.revision });
}
