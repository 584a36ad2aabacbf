// parseFacts (docs/evidence.md, mari_kit 327926b, recipe "facts-extract-v3"): turns a
// model's `{"facts": [...]}` answer into fact candidates whose every citation is an exact quote
// bound to the document revision and the unique section that holds it. The library derives the
// offsets (code points) and revisions; any the model supplies are ignored. One bad citation
// raises and aborts the whole parse, as in the reference.

import type { KnowledgeDocument } from "./documents.js";
import { EvidenceValueError, MalformedModelOutput } from "./errors.js";
import { groundingCoverage, groundingOfTokens } from "./grounding.js";
import { codePointLength, containsCodePoints, findCodePoints, isAscii, pythonCasefold, pythonStringRepr, wordRuns } from "../python/text.js";
import { stripPythonWhitespace } from "../python/whitespace.js";
import { isMapping, mappingGet, mappingHas, pyTruthy, pythonStr, type PyMapping } from "../python/values.js";
import { documentSections, type DocumentSection } from "./sections.js";

export const FACTS_RECIPE = "facts-extract-v3";

/** A citation resolved against a document: exact quote, code-point span, bound revisions. */
export interface Evidence {
  readonly document_id: string;
  readonly revision: string;
  readonly quote: string;
  readonly start: number | null;
  readonly end: number | null;
  /** "" when not bound to a section; section_id and section_revision come together. */
  readonly section_id: string;
  readonly section_revision: string;
}

export function evidence(input: {
  document_id: string;
  revision: string;
  quote?: string;
  start?: number | null;
  end?: number | null;
  section_id?: string;
  section_revision?: string;
}): Evidence {
  const start = input.start ?? null;
  const end = input.end ?? null;
  const sectionId = input.section_id ?? "";
  const sectionRevision = input.section_revision ?? "";
  if (input.document_id === "" || input.revision === "") throw new EvidenceValueError("evidence document_id and revision are required");
  if ((start === null) !== (end === null)) throw new EvidenceValueError("evidence start and end must be supplied together");
  if ((sectionId === "") !== (sectionRevision === "")) {
    throw new EvidenceValueError("evidence section ID and section revision must be supplied together");
  }
  if (start !== null && end !== null && (start < 0 || end < start)) throw new EvidenceValueError("evidence span is invalid");
  return Object.freeze({
    document_id: input.document_id,
    revision: input.revision,
    quote: input.quote ?? "",
    start,
    end,
    section_id: sectionId,
    section_revision: sectionRevision,
  });
}

export const QUALIFIER_KEYS = ["atomic_claims", "subject", "relation", "object", "scopes", "valid_from", "valid_to", "conditions"] as const;

const QUALIFIER_NAMES: ReadonlySet<string> = new Set(QUALIFIER_KEYS);

/** A row's qualifiers in QUALIFIER_KEYS order (null values kept). */
function qualifiersOf(row: PyMapping): Record<string, unknown> {
  const qualifiers: Record<string, unknown> = {};
  // Most rows have none: the names are looked up only when one of the row's keys is one.
  for (const key of row instanceof Map ? row.keys() : Object.getOwnPropertyNames(row)) {
    if (!QUALIFIER_NAMES.has(key)) continue;
    for (const name of QUALIFIER_KEYS) if (mappingHas(row, name)) qualifiers[name] = mappingGet(row, name) ?? null;
    break;
  }
  return qualifiers;
}

export interface FactCandidate {
  /** Index of the row in the model's `facts` array that produced this fact (not in the reference). */
  readonly row: number;
  readonly claim: string;
  readonly evidence: readonly Evidence[];
  readonly grounding: number;
  /** Copied verbatim when present in the row (null values included). */
  readonly qualifiers: Readonly<Record<string, unknown>>;
}

/**
 * The de-duplication key of a claim: NFKC, casefold, runs of non-word characters or underscores
 * become one space, trimmed. "" means the claim has no words (such rows are skipped).
 */
export function normalizeClaim(claim: string): string {
  return claimWords(claim).runs.join(" ");
}

/**
 * The runs that normalizeClaim joins, and whether they are also the claim's grounding tokens
 * (`wordTokens(claim)`): they are when NFKC leaves the claim as it is (always for ASCII) and its
 * casefold has no "_" (then the runs with and without "_" are the same). For ASCII, casefolding is
 * lower-casing.
 */
function claimWords(claim: string): { runs: string[]; areTokens: boolean } {
  const ascii = isAscii(claim);
  // ASCII is its own NFKC form.
  const normal = ascii ? claim : claim.normalize("NFKC");
  const folded = ascii ? claim.toLowerCase() : pythonCasefold(normal);
  return { runs: wordRuns(folded, false), areTokens: normal === claim && !folded.includes("_") };
}

function sameDocument(a: KnowledgeDocument, b: KnowledgeDocument): boolean {
  return (Object.keys(a) as (keyof KnowledgeDocument)[]).every((key) => a[key] === b[key]);
}

/**
 * The allowed documents by document_id. Equal duplicates collapse; two different documents with
 * one id raise ValueError before any parsing.
 */
export function documentLookup(documents: Iterable<KnowledgeDocument>): Map<string, KnowledgeDocument> {
  const byId = new Map<string, KnowledgeDocument>();
  let index = -1;
  for (const document of documents) {
    index++;
    const existing = byId.get(document.document_id);
    if (existing !== undefined && !sameDocument(existing, document)) {
      // `documentIndex`: which of `documents` conflicts, so a reader can name its line.
      throw Object.assign(
        new EvidenceValueError(
          `conflicting documents share document_id ${pythonStringRepr(document.document_id)} (revisions ${pythonStringRepr(existing.revision)} and ${pythonStringRepr(document.revision)}); provide one consistent document per document_id or namespace the documents`,
          "conflicting_documents",
        ),
        { documentIndex: index },
      );
    }
    if (existing === undefined) byId.set(document.document_id, document);
  }
  return byId;
}

// Sections depend only on a document's body and title; documents are frozen, so cache per object.
// With each section, the UTF-16 indices of its surrogate pairs (to turn a match index into code points).
const sectionCache = new WeakMap<KnowledgeDocument, { sections: readonly DocumentSection[]; pairs: readonly Int32Array[] }>();

function sectionIndex(document: KnowledgeDocument): { sections: readonly DocumentSection[]; pairs: readonly Int32Array[] } {
  let index = sectionCache.get(document);
  if (index === undefined) {
    const sections = documentSections(document);
    index = { sections, pairs: sections.map((section) => surrogatePairs(section.text)) };
    sectionCache.set(document, index);
  }
  return index;
}

/** The document's sections, computed once per document object. */
export function cachedDocumentSections(document: KnowledgeDocument): readonly DocumentSection[] {
  return sectionIndex(document).sections;
}

function surrogatePairs(text: string): Int32Array {
  const at: number[] = [];
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) at.push(i++);
    }
  }
  return Int32Array.from(at);
}

/** Code-point index of UTF-16 index `utf16` (not inside a pair), given the text's pair indices. */
function codePointIndex(pairs: Int32Array, utf16: number): number {
  let lo = 0;
  let hi = pairs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pairs[mid]! < utf16) lo = mid + 1;
    else hi = mid;
  }
  return utf16 - lo;
}

/** str(value or "") in Python. */
function textOrEmpty(value: unknown): string {
  return pyTruthy(value) ? pythonStr(value) : "";
}

function resolveEntry(entry: unknown, documents: ReadonlyMap<string, KnowledgeDocument>, recipe: string): Evidence {
  let documentId: string;
  let quote: string;
  let requestedSection: string;
  if (typeof entry === "string") {
    // A bare quote: the document is filled in only when exactly one allowed body contains it, and
    // only for a non-empty quote (as the reference: a bare "" names no document, so unknown_document).
    quote = stripPythonWhitespace(entry);
    const holders = quote === "" ? [] : [...documents.values()].filter((document) => containsCodePoints(document.body, quote));
    documentId = holders.length === 1 ? holders[0]!.document_id : "";
    requestedSection = "";
  } else if (isMapping(entry)) {
    documentId = textOrEmpty(mappingGet(entry, "document_id"));
    quote = stripPythonWhitespace(textOrEmpty(mappingGet(entry, "quote")));
    requestedSection = stripPythonWhitespace(textOrEmpty(mappingGet(entry, "section_id")));
  } else {
    throw new MalformedModelOutput("bad_evidence_entry", `${recipe} evidence entries must be objects`);
  }

  if (!documents.has(documentId) && quote !== "" && documents.size === 1) {
    // Single-document rescue: with one document, a wrong or missing id is replaced by its id.
    const only = documents.values().next().value!;
    if (containsCodePoints(only.body, quote)) documentId = only.document_id;
  }
  const document = documents.get(documentId);
  if (document === undefined) throw new MalformedModelOutput("unknown_document", `${recipe} references an unknown document`);
  if (quote === "") throw new MalformedModelOutput("empty_quote", `${recipe} evidence quote is required`);
  const { sections, pairs } = sectionIndex(document);
  let found = -1;
  let at = -1;
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i]!;
    if (requestedSection !== "" && section.section_id !== requestedSection) continue;
    const match = findCodePoints(section.text, quote);
    if (match === -1) continue;
    if (found !== -1) throw new MalformedModelOutput("ambiguous_section", `${recipe} repeated evidence quote requires section_id`);
    found = i;
    at = match;
  }
  if (found === -1) {
    // A quote in a section is in the body, so the body is searched only now (a match in a second
    // section, ambiguous_section above, also implies it).
    if (!containsCodePoints(document.body, quote)) {
      throw new MalformedModelOutput("quote_not_in_document", `${recipe} evidence quote is not present in the document`);
    }
    // Also when the quote crosses a heading boundary: it is in the body but in no one section.
    throw new MalformedModelOutput("quote_not_in_section", `${recipe} evidence quote is not present in the requested section`);
  }
  const section = sections[found]!;
  const start = section.start + codePointIndex(pairs[found]!, at);
  return evidence({
    document_id: document.document_id,
    revision: document.revision,
    quote,
    start,
    end: start + codePointLength(quote),
    section_id: section.section_id,
    section_revision: section.revision,
  });
}

function resolveEvidence(row: PyMapping, documents: ReadonlyMap<string, KnowledgeDocument>, recipe: string): Evidence[] {
  const entries = mappingGet(row, "evidence");
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new MalformedModelOutput("no_evidence", `${recipe} evidence must be a non-empty array`);
  }
  // Not de-duplicated: a repeated citation counts again toward citation credit.
  return entries.map((entry) => resolveEntry(entry, documents, recipe));
}

export interface ParseFactsOptions {
  /** The label that prefixes messages (default "facts-extract-v3"). */
  recipe?: string;
}

/**
 * Validates a model's facts against exactly the documents it saw. Throws MalformedModelOutput for
 * a contract violation and EvidenceValueError for conflicting documents.
 */
export function parseFacts(
  documents: Iterable<KnowledgeDocument> | ReadonlyMap<string, KnowledgeDocument>,
  modelOutput: unknown,
  options: ParseFactsOptions = {},
): FactCandidate[] {
  const recipe = options.recipe ?? FACTS_RECIPE;
  // A Map is taken to be a lookup already built (and checked) by documentLookup.
  const allowed = documents instanceof Map ? (documents as ReadonlyMap<string, KnowledgeDocument>) : documentLookup(documents as Iterable<KnowledgeDocument>);
  if (!isMapping(modelOutput)) throw new MalformedModelOutput("bad_envelope", `${recipe} must return a JSON object`);
  const rows = mappingGet(modelOutput, "facts");
  if (!Array.isArray(rows) || !rows.every(isMapping)) {
    throw new MalformedModelOutput("bad_envelope", `${recipe}.facts must be a JSON array of objects`);
  }
  const seen = new Set<string>();
  const facts: FactCandidate[] = [];
  for (const [index, row] of (rows as PyMapping[]).entries()) {
    const claim = stripPythonWhitespace(textOrEmpty(mappingGet(row, "claim")));
    if (claim === "") throw new MalformedModelOutput("missing_claim", "fact claim is required");
    // Duplicates (by normalised claim) are skipped before their evidence is looked at.
    const { runs, areTokens } = claimWords(claim);
    // No words: the key is "". With one row there is nothing to de-duplicate against.
    if (runs.length === 0) continue;
    if (rows.length > 1) {
      const key = runs.join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const cited = resolveEvidence(row, allowed, recipe);
    const qualifiers = qualifiersOf(row);
    facts.push(
      Object.freeze({
        row: index,
        claim,
        evidence: Object.freeze(cited),
        grounding: areTokens ? groundingOfTokens(new Set(runs), cited) : groundingCoverage(claim, cited),
        qualifiers: Object.freeze(qualifiers),
      }),
    );
  }
  return facts;
}
