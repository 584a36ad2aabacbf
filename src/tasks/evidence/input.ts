// Reads the inputs of `mari evidence`: documents (JSONL/CSV/JSON), facts and located-evidence
// dumps (JSONL) and structured materials (JSONL). JSONL lines are parsed with the Python-faithful
// reader (599.0 stays a float, key order kept), so quotes compare as the reference's str() would.
// Every bad record is counted under a reason with its file:line; none is dropped silently.

import { assertRegularFile } from "../../io/input-file.js";
import { stat } from "node:fs/promises";
import {
  EvidenceValueError,
  isClaimState,
  isMapping,
  keyId,
  knowledgeDocument,
  mappingEntries,
  mappingGet,
  mappingHas,
  objectRef,
  parseDocumentId,
  parsePythonJson,
  PyFloat,
  revisionRef,
  revisionRefKey,
  scopeRef,
  textSpan,
  jsonPointer,
  recordField,
  tableCell,
  pageRegion,
  mediaTimeRange,
  type ClaimState,
  type KnowledgeDocument,
  type Locator,
  type PyMapping,
  type RevisionRef,
} from "../../core/evidence/index.js";
import { readLineBatches, type Line } from "../../io/lines.js";
import { readRecords } from "../../io/records.js";
import { InputError } from "../../io/errors.js";
import type { RejectionExample } from "../../report/types.js";

/** Rejection examples kept in a report; the counts are always complete. */
export const MAX_REJECTION_EXAMPLES = 50;

/** Line- and record-level rejections across all inputs of one run. */
export class RejectionLog {
  readonly counts: Record<string, number> = {};
  readonly examples: RejectionExample[] = [];

  reject(where: string, reason: string, message: string): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
    if (this.examples.length < MAX_REJECTION_EXAMPLES) this.examples.push({ where, reason, message });
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/** A field problem in one record; becomes a rejection (reason `code`) or a case error. */
export class FieldError extends Error {
  constructor(
    message: string,
    readonly code = "bad_field",
  ) {
    super(message);
  }
}

export async function assertReadable(path: string, what: string): Promise<void> {
  await assertRegularFile(path);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path}: ${what} is not a file`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${path}: cannot read ${what}: ${(err as Error).message}`);
  }
}

function optionalString(record: PyMapping, key: string): string | undefined {
  const value = mappingGet(record, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new FieldError(`"${key}" must be a string`);
  return value;
}

function requiredString(record: PyMapping, key: string): string {
  const value = optionalString(record, key);
  if (value === undefined) throw new FieldError(`"${key}" is required (a string)`);
  return value;
}

/** One document record: `source_id` + `external_id` (or `document_id`), `revision`, `body`, `title`. */
export function documentFromRecord(record: PyMapping): KnowledgeDocument {
  let sourceId = optionalString(record, "source_id");
  let externalId = optionalString(record, "external_id");
  const id = optionalString(record, "document_id");
  if (id !== undefined) {
    const parsed = parseDocumentId(id);
    if ((sourceId !== undefined && sourceId !== parsed.source_id) || (externalId !== undefined && externalId !== parsed.external_id)) {
      throw new FieldError(`"document_id" ${JSON.stringify(id)} does not match source_id/external_id`);
    }
    sourceId = parsed.source_id;
    externalId = parsed.external_id;
  }
  if (sourceId === undefined || externalId === undefined) throw new FieldError('needs "source_id" and "external_id", or "document_id"');
  const contentDigest = optionalString(record, "content_digest");
  return knowledgeDocument({
    source_id: sourceId,
    external_id: externalId,
    title: optionalString(record, "title") ?? "",
    body: requiredString(record, "body"),
    revision: requiredString(record, "revision"),
    ...(contentDigest !== undefined ? { content_digest: contentDigest } : {}),
  });
}

/** All valid documents in file order (conflicting versions of one id included: cases decide). */
export async function readDocuments(path: string, log: RejectionLog): Promise<{ documents: KnowledgeDocument[]; records: number; wheres: string[] }> {
  await assertReadable(path, "documents");
  const documents: KnowledgeDocument[] = [];
  const wheres: string[] = []; // `file:line` of each document
  let records = 0;
  for await (const item of readRecords(path)) {
    records++;
    if (item.error) {
      log.reject(item.where, item.error.code, item.error.message);
      continue;
    }
    try {
      documents.push(documentFromRecord(item.record));
      wheres.push(item.where);
    } catch (err) {
      if (!(err instanceof FieldError || err instanceof EvidenceValueError)) throw err;
      log.reject(item.where, "bad_document", err.message);
    }
  }
  return { documents, records, wheres };
}

export interface JsonlRecord {
  readonly where: string;
  readonly line: number;
  readonly record: PyMapping;
}

/** One JSONL line parsed Python-faithfully into an object record, or null (logged) when it is unreadable. */
export function jsonlRecord(path: string, line: Line, log: RejectionLog, counter: { lines: number }): JsonlRecord | null {
  counter.lines = line.lineNo;
  const where = `${path}:${line.lineNo}`;
  if (line.text === null) {
    log.reject(where, "invalid_utf8", "line is not valid UTF-8");
    return null;
  }
  if (line.text.trim() === "") {
    log.reject(where, "blank_line", "blank line");
    return null;
  }
  let value: unknown;
  try {
    value = parsePythonJson(line.text);
  } catch (err) {
    log.reject(where, "malformed_json", `malformed JSON: ${(err as Error).message}`);
    return null;
  }
  if (!(value instanceof Map)) {
    log.reject(where, "not_an_object", "line is not a JSON object");
    return null;
  }
  return { where, line: line.lineNo, record: value };
}

/** JSONL objects of a file, parsed Python-faithfully; unreadable lines go to the log. */
export async function* readJsonlObjects(path: string, what: string, log: RejectionLog, counter: { lines: number } = { lines: 0 }): AsyncGenerator<JsonlRecord> {
  await assertReadable(path, what);
  for await (const lines of readLineBatches(path)) {
    for (const line of lines) {
      const item = jsonlRecord(path, line, log, counter);
      if (item !== null) yield item;
    }
  }
}

/** `case_id` (or `id`): a non-empty string. */
export function caseIdOf(record: PyMapping): string {
  const value = mappingHas(record, "case_id") ? mappingGet(record, "case_id") : mappingGet(record, "id");
  if (typeof value !== "string" || value === "") throw new FieldError('"case_id" must be a non-empty string', "bad_case_id");
  return value;
}

/** Expected claim states: one state for every claim of the case, or claim text → state. */
export type GoldStates = { readonly all: ClaimState } | { readonly byClaim: ReadonlyMap<string, ClaimState> };

export function goldStatesOf(record: PyMapping): GoldStates | null {
  const value = mappingGet(record, "gold_state");
  if (value === undefined || value === null) return null;
  if (isClaimState(value)) return { all: value };
  if (isMapping(value)) {
    const byClaim = new Map<string, ClaimState>();
    for (const [claim, state] of mappingEntries(value)) {
      if (!isClaimState(state))
        throw new FieldError(`"gold_state" for ${JSON.stringify(claim)} must be supported, contradicted, uncertain or insufficient_evidence`, "bad_gold_state");
      byClaim.set(claim, state);
    }
    return { byClaim };
  }
  throw new FieldError('"gold_state" must be a claim state or an object of claim → state', "bad_gold_state");
}

export interface FactsCase {
  readonly caseId: string;
  readonly where: string;
  readonly line: number;
  /** The document ids the model saw; null = all documents. */
  readonly documents: readonly string[] | null;
  readonly output: unknown;
  readonly gold: GoldStates | null;
}

function scoreValue(holder: unknown, key: string): void {
  if (!isMapping(holder) || !mappingHas(holder, key)) return;
  const value = mappingGet(holder, key);
  if (value === null) return;
  const number = value instanceof PyFloat ? value.value : value;
  if (typeof number !== "number" || !(number >= 0 && number <= 1)) throw new FieldError(`"${key}" scores must be numbers from 0 to 1`, "bad_score");
}

/** Caller scores (entailment/contradiction on a fact row or an evidence entry) must be in [0, 1]. */
function checkScores(output: unknown): void {
  const rows = isMapping(output) ? mappingGet(output, "facts") : undefined;
  if (!Array.isArray(rows)) return;
  for (const row of rows) {
    scoreValue(row, "entailment");
    scoreValue(row, "contradiction");
    const entries = isMapping(row) ? mappingGet(row, "evidence") : undefined;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      scoreValue(entry, "entailment");
      scoreValue(entry, "contradiction");
    }
  }
}

/** Validates one facts line (not the model output itself: that is parseFacts' job). */
export function factsCaseFromRecord(item: JsonlRecord, knownDocuments: { has(id: string): boolean }): FactsCase {
  const caseId = caseIdOf(item.record);
  const listed = mappingGet(item.record, "documents");
  let documents: string[] | null = null;
  if (listed !== undefined && listed !== null) {
    if (!Array.isArray(listed) || !listed.every((id) => typeof id === "string")) {
      throw new FieldError('"documents" must be an array of document ids', "bad_documents_field");
    }
    const unknown = listed.find((id) => !knownDocuments.has(id));
    if (unknown !== undefined)
      throw new FieldError(`"documents" lists ${JSON.stringify(unknown)}, which is not in the documents file`, "unknown_listed_document");
    documents = listed;
  }
  const output = mappingGet(item.record, "output");
  checkScores(output);
  return { caseId, where: item.where, line: item.line, documents, output, gold: goldStatesOf(item.record) };
}

// Structured evidence.

/** A locator index: a JSON `3.0` stays a PyFloat, which Python cannot index with. */
function indexField(record: PyMapping, key: string): number | PyFloat {
  const value = mappingGet(record, key);
  if (value instanceof PyFloat || typeof value === "number") return value;
  throw new FieldError(notANumber(key, value));
}

/** An integer beyond 2^53 is a number, just not one mari can index or compute with exactly. */
function notANumber(key: string, value: unknown): string {
  return typeof value === "bigint" ? `"${key}" is an integer beyond 2^53 (9007199254740992)` : `"${key}" must be a number`;
}

function numberField(record: PyMapping, key: string): number {
  const value = mappingGet(record, key);
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "number") return value;
  throw new FieldError(notANumber(key, value));
}

/** `{"namespace", "object_id", "revision", "unit_id"?, "scope"?: {"tenant", "space"?}}`. */
export function revisionRefFromJson(value: unknown, what = "ref"): RevisionRef {
  if (!isMapping(value)) throw new FieldError(`"${what}" must be an object`);
  const scopeValue = mappingGet(value, "scope");
  let scope = null;
  if (scopeValue !== undefined && scopeValue !== null) {
    if (!isMapping(scopeValue)) throw new FieldError(`"${what}.scope" must be an object`);
    const space = optionalString(scopeValue, "space");
    scope = scopeRef({ tenant: requiredString(scopeValue, "tenant"), ...(space !== undefined ? { space } : {}) });
  }
  const object = objectRef({ namespace: requiredString(value, "namespace"), object_id: requiredString(value, "object_id"), scope });
  return revisionRef({ object, revision: requiredString(value, "revision"), unit_id: optionalString(value, "unit_id") ?? "" });
}

/** `{"type": "TextSpan", "start", "end"}` and the other five locator shapes; null = no locator. */
export function locatorFromJson(value: unknown): Locator | null {
  if (value === undefined || value === null) return null;
  if (!isMapping(value)) throw new FieldError('"locator" must be an object or null');
  const type = mappingGet(value, "type");
  switch (type) {
    case "TextSpan":
      return textSpan(indexField(value, "start"), indexField(value, "end"));
    case "JsonPointer":
      return jsonPointer(requiredString(value, "pointer"));
    case "RecordField":
      return recordField(requiredString(value, "record_id"), requiredString(value, "field"));
    case "TableCell":
      return tableCell(indexField(value, "row"), indexField(value, "column"));
    case "PageRegion": {
      const box = mappingGet(value, "bounding_box");
      if (!Array.isArray(box)) throw new FieldError('"bounding_box" must be an array of four numbers');
      const numbers = box.map((n) => (n instanceof PyFloat ? n.value : n));
      if (!numbers.every((n) => typeof n === "number")) throw new FieldError('"bounding_box" must be an array of four numbers');
      return pageRegion(numberField(value, "page"), numbers as number[]);
    }
    case "MediaTimeRange":
      return mediaTimeRange(numberField(value, "start_seconds"), numberField(value, "end_seconds"));
    default:
      throw new FieldError(`"locator.type" must be one of TextSpan, JsonPointer, RecordField, TableCell, PageRegion, MediaTimeRange`);
  }
}

export interface LocatedCase {
  readonly caseId: string;
  readonly where: string;
  readonly line: number;
  /** Refs the model saw: absent = every material; null = no visibility check (the reference's None). */
  readonly visible: readonly RevisionRef[] | null | undefined;
  /** The raw evidence array; entries are built per case so one bad entry fails only its case. */
  readonly evidence: unknown;
}

export function locatedCaseFromRecord(item: JsonlRecord): LocatedCase {
  const caseId = caseIdOf(item.record);
  let visible: RevisionRef[] | null | undefined;
  if (mappingHas(item.record, "visible")) {
    const listed = mappingGet(item.record, "visible");
    if (listed === null) visible = null;
    else if (!Array.isArray(listed)) throw new FieldError('"visible" must be an array of refs or null', "bad_visible_refs");
    else {
      try {
        visible = listed.map((ref, i) => revisionRefFromJson(ref, `visible[${i}]`));
      } catch (err) {
        if (err instanceof EvidenceValueError || err instanceof FieldError) throw new FieldError(`"visible": ${err.message}`, "bad_visible_refs");
        throw err;
      }
    }
  }
  return { caseId, where: item.where, line: item.line, visible, evidence: mappingGet(item.record, "evidence") };
}

/** Materials by ref: `{"ref": {...}, "material": <any JSON>}` per line. */
export async function readMaterials(path: string, log: RejectionLog): Promise<{ refs: RevisionRef[]; byKey: Map<string, unknown> }> {
  const refs: RevisionRef[] = [];
  const byKey = new Map<string, unknown>();
  for await (const item of readJsonlObjects(path, "materials", log)) {
    try {
      const ref = revisionRefFromJson(mappingGet(item.record, "ref"));
      if (!mappingHas(item.record, "material")) throw new FieldError('"material" is required');
      const key = keyId(revisionRefKey(ref));
      if (byKey.has(key)) {
        log.reject(item.where, "duplicate_material", "a material for this ref was given earlier; the first is kept");
        continue;
      }
      refs.push(ref);
      byKey.set(key, mappingGet(item.record, "material"));
    } catch (err) {
      if (!(err instanceof FieldError || err instanceof EvidenceValueError)) throw err;
      log.reject(item.where, "bad_material", err.message);
    }
  }
  return { refs, byKey };
}
