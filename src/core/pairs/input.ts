// One pair record (docs/pairs.md, "Input"): `id, new, old, gold?, kind?` plus fields carried through to cases.
import { isRevisionClass, type RevisionClass } from "./classes.js";

export interface PairRecord {
  id: string;
  newText: string;
  oldText: string;
  /** null when unlabelled (absent, empty, or not one of the three classes). */
  gold: RevisionClass | null;
  /** The raw gold value when it was given but is not a class (reported, never silently ignored). */
  unrecognisedGold?: string;
  kind: string | null;
  /** Every other field of the record, in input order. */
  extra: Record<string, unknown>;
}

export type PairRejection = "bad_id" | "bad_new" | "bad_old" | "bad_kind" | "duplicate_id";

export type PairParse = { pair: PairRecord } | { error: { code: PairRejection; message: string } };

const KNOWN_FIELDS = new Set(["id", "new", "old", "gold", "kind"]);

/** True when a record looks like a pair (the task detection rule of `mari eval`). */
export function isPairRecord(record: Record<string, unknown>): boolean {
  return Object.hasOwn(record, "new") && Object.hasOwn(record, "old");
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * The checks every pair must pass (id, new, old, kind), without building the pair: the first
 * failure, or null (what `mari classify` needs per line, where the pair itself is not kept).
 */
export function pairRecordError(record: Record<string, unknown>): { code: PairRejection; message: string } | null {
  const id = record.id;
  if (typeof id !== "string" || id === "") {
    return { code: "bad_id", message: `"id" must be a non-empty string, got ${describe(id)}` };
  }
  if (typeof record.new !== "string") {
    return { code: "bad_new", message: `pair ${JSON.stringify(id)}: "new" must be a string, got ${describe(record.new)}` };
  }
  if (typeof record.old !== "string") {
    return { code: "bad_old", message: `pair ${JSON.stringify(id)}: "old" must be a string, got ${describe(record.old)}` };
  }
  const kindValue = record.kind;
  if (!isBlank(kindValue) && typeof kindValue !== "string") {
    return { code: "bad_kind", message: `pair ${JSON.stringify(id)}: "kind" must be a string, got ${describe(kindValue)}` };
  }
  return null;
}

/**
 * Validates one record. Gold is matched case-insensitively after trimming (CSV exports often
 * capitalise); any other non-blank gold leaves the pair unlabelled and is reported.
 */
export function parsePairRecord(record: Record<string, unknown>): PairParse {
  const error = pairRecordError(record);
  if (error !== null) return { error };
  const id = record.id as string;
  const kindValue = record.kind;
  const kind = isBlank(kindValue) ? null : (kindValue as string);
  let gold: RevisionClass | null = null;
  let unrecognisedGold: string | undefined;
  if (!isBlank(record.gold)) {
    const normalised = typeof record.gold === "string" ? record.gold.trim().toLowerCase() : undefined;
    if (isRevisionClass(normalised)) gold = normalised;
    else unrecognisedGold = typeof record.gold === "string" ? record.gold : JSON.stringify(record.gold);
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!KNOWN_FIELDS.has(key)) Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const pair: PairRecord = { id, newText: record.new as string, oldText: record.old as string, gold, kind, extra };
  if (unrecognisedGold !== undefined) pair.unrecognisedGold = unrecognisedGold;
  return { pair };
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (field missing)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
