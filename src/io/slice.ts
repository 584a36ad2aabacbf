// Reads a document self-contradiction slice (docs/eval.md, "Inputs", docs/comparable-reports.md) from JSONL, CSV or
// ContraDoc JSON: field aliases, label coercions, scope flattening, sentence splitting and gold
// alignment. Slice errors are fatal (exit 2) and name the file and line: a slice is the ground
// truth, so a half-read slice would make every number in the report wrong.
import { dict } from "../core/dict.js";
import { parseBoundedJson } from "./depth.js";
import { alignEvidence, splitSentences } from "../core/document/index.js";
import { InputError, located } from "./errors.js";
import { detectRecordFormat, readRecords, type JsonObject, type RecordFormat } from "./records.js";

export interface SliceCase {
  /** 0-based position in the slice (the order of every per-case output). */
  index: number;
  id: string;
  /** Where the record was read: `file:line` or `file#pos/ID`. */
  where: string;
  sentences: string[];
  label: boolean;
  /** Sorted, unique, 1-based gold sentence IDs; empty for negatives. */
  gold: number[];
  scope: string | null;
  docType: string | null;
  contraType: string | null;
  /** Unknown fields, passed through to per-case output. */
  extra: JsonObject;
}

export interface DocumentSlice {
  path: string;
  format: RecordFormat;
  cases: SliceCase[];
  byId: Map<string, number>;
}

const ID_FIELDS = ["id", "case_id", "unique id"] as const;
const LABEL_FIELDS = ["label", "is_self_contradictory"] as const;
const KNOWN_FIELDS = new Set<string>([...ID_FIELDS, ...LABEL_FIELDS, "text", "sentences", "evidence", "gold_sentence_ids", "scope", "doc_type", "contra_type"]);

const LABEL_STRINGS: Readonly<Record<string, boolean>> = {
  contradictory: true,
  non_contradictory: false,
  true: true,
  false: false,
  "1": true,
  "0": false,
};

/** The first field present (not undefined) among aliases. */
function pick(record: JsonObject, names: readonly string[]): unknown {
  for (const name of names) if (Object.hasOwn(record, name) && record[name] !== undefined) return record[name];
  return undefined;
}

function coerceLabel(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") return LABEL_STRINGS[value.trim().toLowerCase()];
  return undefined;
}

/** CSV cells are strings: a cell that holds a JSON array (e.g. `[1, 2]`) is read as one. */
function maybeJsonArray(value: unknown): unknown {
  if (typeof value !== "string" || !value.trim().startsWith("[")) return value;
  try {
    const parsed: unknown = parseBoundedJson(value);
    return Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Breakdown fields: a string, or a one-element list (flattened); empty → absent. */
function categorical(value: unknown, field: string, fail: (msg: string) => never): string | null {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    if (v.length === 1 && (typeof v[0] === "string" || typeof v[0] === "number")) return String(v[0]);
  }
  return fail(`${field} must be a string or a one-element list`);
}

function evidenceStrings(value: unknown, fail: (msg: string) => never): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  return fail("evidence must be a string or a list of strings");
}

function readSentences(value: unknown, fail: (msg: string) => never): string[] | undefined {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return undefined;
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === "string")) {
    return fail("sentences must be a non-empty list of strings");
  }
  return v as string[];
}

function readGoldIds(value: unknown, sentenceCount: number, fail: (msg: string) => never): number[] | undefined {
  const v = maybeJsonArray(value);
  if (v === undefined || v === null || v === "") return undefined;
  if (!Array.isArray(v)) return fail("gold_sentence_ids must be a list of integers");
  for (const id of v) {
    if (typeof id !== "number" || !Number.isInteger(id)) return fail("gold_sentence_ids must be a list of integers");
    if (id < 1 || id > sentenceCount) {
      return fail(`gold_sentence_ids entry ${id} is outside the document (1..${sentenceCount})`);
    }
  }
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

/** Turns one slice record into a case, or throws InputError naming its location. */
export function sliceCaseFromRecord(record: JsonObject, index: number, where: string): SliceCase {
  const fail = (message: string): never => {
    throw new InputError(`${where}: slice error: ${message}`);
  };
  const id = pick(record, ID_FIELDS);
  if (typeof id !== "string" || id.length === 0) fail("missing id (a non-empty string in `id`, `case_id` or `unique id`)");
  const sentences = readSentences(record.sentences, fail) ?? (typeof record.text === "string" ? splitSentences(record.text) : undefined);
  if (sentences === undefined) fail("missing text (a string `text` or a list `sentences`)");
  const rawLabel = pick(record, LABEL_FIELDS);
  const label = coerceLabel(rawLabel);
  if (label === undefined) fail(`unusable label ${JSON.stringify(rawLabel) ?? "(missing)"}`);
  let gold: number[] = [];
  if (label) {
    gold = readGoldIds(record.gold_sentence_ids, sentences!.length, fail) ?? alignEvidence(sentences!, evidenceStrings(maybeJsonArray(record.evidence), fail));
    if (gold.length === 0) fail("a positive case needs gold evidence (non-empty `evidence` or `gold_sentence_ids`)");
  }
  const extra: JsonObject = dict();
  for (const key of Object.keys(record)) {
    if (!KNOWN_FIELDS.has(key)) extra[key] = record[key];
  }
  return {
    index,
    id: id as string,
    where,
    sentences: sentences!,
    label: label!,
    gold,
    scope: categorical(record.scope, "scope", fail),
    docType: categorical(record.doc_type, "doc_type", fail),
    contraType: categorical(record.contra_type, "contra_type", fail),
    extra,
  };
}

/** Reads a whole slice; throws InputError (exit 2) on any slice error. */
export async function readDocumentSlice(path: string, format?: RecordFormat): Promise<DocumentSlice> {
  const cases: SliceCase[] = [];
  const byId = new Map<string, number>();
  let detected: RecordFormat;
  try {
    detected = format ?? (await detectRecordFormat(path));
    for await (const item of readRecords(path, detected)) {
      if (item.error) {
        // A blank line carries no record; anything else unreadable makes the slice unusable.
        if (item.error.code === "blank_line") continue;
        throw new InputError(`${item.where}: slice error: ${item.error.message}`);
      }
      const c = sliceCaseFromRecord(item.record, cases.length, item.where);
      const previous = byId.get(c.id);
      if (previous !== undefined) {
        throw new InputError(`${item.where}: slice error: duplicate id ${JSON.stringify(c.id)} (first at ${cases[previous]!.where})`);
      }
      byId.set(c.id, c.index);
      cases.push(c);
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") {
      throw new InputError(located(path, undefined, `cannot read slice (${code})`));
    }
    throw err;
  }
  if (cases.length === 0) throw new InputError(located(path, undefined, "slice error: the slice has no cases"));
  return { path, format: detected, cases, byId };
}

/** Which task a slice belongs to, from its first record: pairs (`new`/`old`) or documents. */
const SNIFF_RECORDS = 100;

export async function sniffSliceTask(path: string): Promise<"documents" | "pairs"> {
  // Decided by the first SNIFF_RECORDS usable records, not the first alone: a first pair missing
  // `new` or `old` is one rejected pair, not a reason to read the corpus as documents.
  let pairs = 0;
  let documents = 0;
  let seen = 0;
  for await (const item of readRecords(path)) {
    if (item.error) continue;
    if ("new" in item.record && "old" in item.record) pairs++;
    else if ("text" in item.record) documents++;
    if (++seen >= SNIFF_RECORDS) break;
  }
  return pairs > documents ? "pairs" : "documents";
}
