// Identity and locator values (docs/evidence.md): frozen values validated on construction
// with the reference's messages. Keys are tuples of strings; `keyId` turns one into a Map key.

import { EvidenceValueError } from "./errors.js";
import { stripPythonWhitespace } from "../python/whitespace.js";
import { numericValue, type PyNumber } from "../python/values.js";

export interface ScopeRef {
  readonly tenant: string;
  readonly space: string;
}

export interface ObjectRef {
  readonly namespace: string;
  readonly object_id: string;
  readonly scope: ScopeRef | null;
}

export interface RevisionRef {
  readonly object: ObjectRef;
  readonly revision: string;
  readonly unit_id: string;
}

/** A tuple key as one string, for Map/Set membership (tuple equality in the reference). */
export function keyId(key: readonly string[]): string {
  return JSON.stringify(key);
}

/** Both stripped; "default" space. */
export function scopeRef(input: { tenant: string; space?: string }): ScopeRef {
  const tenant = stripPythonWhitespace(input.tenant);
  const space = stripPythonWhitespace(input.space ?? "default");
  if (tenant === "" || space === "") throw new EvidenceValueError("scope tenant and space are required");
  return Object.freeze({ tenant, space });
}

export function objectRef(input: { namespace: string; object_id: string; scope?: ScopeRef | null }): ObjectRef {
  const namespace = stripPythonWhitespace(input.namespace);
  const objectId = stripPythonWhitespace(input.object_id);
  if (namespace === "" || objectId === "") throw new EvidenceValueError("object namespace and ID are required");
  return Object.freeze({ namespace, object_id: objectId, scope: input.scope ?? null });
}

export function revisionRef(input: { object: ObjectRef; revision: string; unit_id?: string }): RevisionRef {
  const revision = stripPythonWhitespace(input.revision);
  if (revision === "") throw new EvidenceValueError("revision is required");
  return Object.freeze({ object: input.object, revision, unit_id: stripPythonWhitespace(input.unit_id ?? "") });
}

/** (tenant, space) of a scope, or ("", "") without one: an unscoped ref never equals a scoped one. */
export function scopeKey(scope: ScopeRef | null): [string, string] {
  return scope === null ? ["", ""] : [scope.tenant, scope.space];
}

/** (tenant, space, namespace, object_id). */
export function objectRefKey(ref: ObjectRef): string[] {
  return [...scopeKey(ref.scope), ref.namespace, ref.object_id];
}

/** object key + (revision, unit_id): six strings. */
export function revisionRefKey(ref: RevisionRef): string[] {
  return [...objectRefKey(ref.object), ref.revision, ref.unit_id];
}

// Locators. `type` is the reference's class name (it appears in messages such as
// "PageRegion requires a caller locator").

/**
 * Half-open [start, end) in code points; empty spans allowed. A PyFloat index (a JSON `3.0`) is
 * kept as such: Python cannot slice with it, so locating it fails as in the reference.
 */
export interface TextSpan {
  readonly type: "TextSpan";
  readonly start: PyNumber;
  readonly end: PyNumber;
}
export interface JsonPointer {
  readonly type: "JsonPointer";
  readonly pointer: string;
}
export interface RecordField {
  readonly type: "RecordField";
  readonly record_id: string;
  readonly field: string;
}
/** 0-based; a PyFloat index fails to locate, as in Python. */
export interface TableCell {
  readonly type: "TableCell";
  readonly row: PyNumber;
  readonly column: PyNumber;
}
/** 1-based page; box (left, top, right, bottom) with the origin top-left. */
export interface PageRegion {
  readonly type: "PageRegion";
  readonly page: number;
  readonly bounding_box: readonly [number, number, number, number];
}
export interface MediaTimeRange {
  readonly type: "MediaTimeRange";
  readonly start_seconds: number;
  readonly end_seconds: number;
}

export type Locator = TextSpan | JsonPointer | RecordField | TableCell | PageRegion | MediaTimeRange;

export const LOCATOR_TYPES = ["TextSpan", "JsonPointer", "RecordField", "TableCell", "PageRegion", "MediaTimeRange"] as const;

// Numeric checks are comparisons only, so NaN passes them, as in the reference.

export function textSpan(start: PyNumber, end: PyNumber): TextSpan {
  if (numericValue(start) < 0 || numericValue(end) < numericValue(start)) throw new EvidenceValueError("text span is invalid");
  return Object.freeze({ type: "TextSpan", start, end });
}

export function jsonPointer(pointer: string): JsonPointer {
  if (pointer !== "" && !pointer.startsWith("/")) throw new EvidenceValueError("JSON pointer must be empty or start with '/'");
  return Object.freeze({ type: "JsonPointer", pointer });
}

/** Checked stripped, stored as given. */
export function recordField(recordId: string, field: string): RecordField {
  if (stripPythonWhitespace(recordId) === "" || stripPythonWhitespace(field) === "") {
    throw new EvidenceValueError("record ID and field are required");
  }
  return Object.freeze({ type: "RecordField", record_id: recordId, field });
}

export function tableCell(row: PyNumber, column: PyNumber): TableCell {
  if (numericValue(row) < 0 || numericValue(column) < 0) throw new EvidenceValueError("table cell coordinates must be non-negative");
  return Object.freeze({ type: "TableCell", row, column });
}

export function pageRegion(page: number, boundingBox: readonly number[]): PageRegion {
  if (page < 1) throw new EvidenceValueError("page must be positive");
  // Python unpacks the box into four names; any other length fails there.
  if (boundingBox.length < 4) {
    throw new EvidenceValueError(`not enough values to unpack (expected 4, got ${boundingBox.length})`);
  }
  if (boundingBox.length > 4) throw new EvidenceValueError("too many values to unpack (expected 4)");
  const [left, top, right, bottom] = boundingBox as [number, number, number, number];
  if (right < left || bottom < top) throw new EvidenceValueError("page region bounding box is invalid");
  return Object.freeze({ type: "PageRegion", page, bounding_box: Object.freeze([left, top, right, bottom] as const) });
}

export function mediaTimeRange(startSeconds: number, endSeconds: number): MediaTimeRange {
  if (startSeconds < 0 || endSeconds < startSeconds) throw new EvidenceValueError("media time range is invalid");
  return Object.freeze({ type: "MediaTimeRange", start_seconds: startSeconds, end_seconds: endSeconds });
}
