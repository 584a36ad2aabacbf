// The one reader of a document eval's cases.jsonl (docs/reports.md, "cases.jsonl of a document
// eval"). mari writes it compact: per case, one case line with the case-level fields, then one run
// line per run with only what the prediction decided; every field the old layout repeated or
// derived (format_valid, judgment_correct, the localization fields, reward_accuracy, reward_format,
// matched_evidence_count, gold_evidence_count, null facets, empty `fields`) is re-derived here. The
// previous layout (one full line per (case, run)) is read as it is, so older reports stay usable
// as --baseline and diff inputs. Every consumer (--baseline, mari diff, mari merge, the case
// explorer) gets the same full per-(case, run) records from this reader.
import { accuracyReward } from "../core/document/rewards.js";
import { localizationFields } from "../core/metrics/case-outcome.js";
import { readLines } from "../io/lines.js";
import { parseJsonLine, type JsonObject } from "../io/records.js";

/** One line of a cases.jsonl as read: a full per-(case, run) record, or why it gave none. */
export type CaseItem =
  | {
      lineNo: number;
      record: JsonObject;
      /** The line the record's case-level fields are on (its case line; the line itself in the previous layout). */
      caseLineNo?: number;
      text?: string;
    }
  | { lineNo: number; error: string; blank: boolean };

/** The case-level fields of a compact case line, as they are needed to expand its run lines. */
export interface CaseHeader {
  case_id: string;
  case_index: number;
  label: boolean;
  gold: number[];
  goldSet: Set<number>;
  sentence_count: number;
  scope: unknown;
  doc_type: unknown;
  contra_type: unknown;
  fields: unknown;
}

function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

function intList(v: unknown): v is number[] {
  return Array.isArray(v) && v.every(isInt);
}

/** A compact case line's header, or why it is not one. */
function caseHeader(r: JsonObject): CaseHeader | string {
  if (typeof r["case_id"] !== "string") return "case_id is not a string";
  const index = r["case_index"];
  if (!isInt(index) || index < 0) return "case_index is not a non-negative integer";
  if (typeof r["label"] !== "boolean") return "label is not a boolean";
  const gold = r["gold_sentence_ids"];
  if (!intList(gold)) return "gold_sentence_ids is not a list of integers";
  if (!isInt(r["sentence_count"])) return "sentence_count is not an integer";
  const fields = r["fields"] ?? {};
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return "fields is not an object";
  return {
    case_id: r["case_id"],
    case_index: index,
    label: r["label"],
    gold,
    goldSet: new Set(gold),
    sentence_count: r["sentence_count"],
    scope: r["scope"] ?? null,
    doc_type: r["doc_type"] ?? null,
    contra_type: r["contra_type"] ?? null,
    fields,
  };
}

/** What a run line's judgment, validity, evidence and coverage decide under its case line (the derived fields). */
export function runLineDecides(
  h: CaseHeader,
  judgment: boolean,
  formatValid: boolean,
  evidence: readonly number[],
  coverage: number,
): { correct: boolean; matched: number; loc: ReturnType<typeof localizationFields>; rewardAccuracy: number } {
  let matched = 0;
  // Distinct ids: a short list (the usual one) is checked against itself, a long one through a Set.
  if (evidence.length <= 8) {
    for (let i = 0; i < evidence.length; i++) if (h.goldSet.has(evidence[i]!) && evidence.indexOf(evidence[i]!) === i) matched++;
  } else for (const id of new Set(evidence)) if (h.goldSet.has(id)) matched++;
  const correct = judgment === h.label;
  const loc = localizationFields({
    label: h.label,
    judgment,
    formatValid,
    predictedCount: evidence.length,
    matched,
    goldCount: h.gold.length,
    referenceCoverage: coverage,
    rewardAccuracy: 0,
    rewardFormat: 0,
  });
  return { correct, matched, loc, rewardAccuracy: accuracyReward(h.label, correct, matched, h.gold.length) };
}

/** The full record of a compact run line under its case line (the previous layout's keys, in its order), or why there is none. */
function expandRunLine(h: CaseHeader, r: JsonObject): JsonObject | string {
  const run = r["run"];
  if (typeof run !== "string" && !isInt(run)) return "run is not a string or an integer";
  const line = r["line"] ?? null;
  if (line !== null && (!isInt(line) || line < 1)) return "line is not a positive integer";
  const judgment = r["judgment"];
  if (typeof judgment !== "boolean") return "judgment is not a boolean";
  const reason = r["reason"] ?? null;
  if (reason !== null && typeof reason !== "string") return "reason is not a string";
  const evidence = r["evidence_sentence_ids"];
  if (!intList(evidence)) return "evidence_sentence_ids is not a list of integers";
  const coverage = r["reference_coverage"];
  if (typeof coverage !== "number" || !Number.isFinite(coverage)) return "reference_coverage is not a number";
  const formatValid = reason === null;
  const { correct, matched, loc, rewardAccuracy } = runLineDecides(h, judgment, formatValid, evidence, coverage);
  return {
    case_id: h.case_id,
    case_index: h.case_index,
    label: h.label,
    run,
    line,
    judgment,
    format_valid: formatValid,
    reason,
    evidence_sentence_ids: evidence,
    judgment_correct: correct,
    localization_hit: loc.localization_hit,
    exact_localization: loc.exact_localization,
    evidence_precision: loc.evidence_precision,
    evidence_recall: loc.evidence_recall,
    reward_accuracy: rewardAccuracy,
    reference_coverage: coverage,
    reward_format: formatValid ? 1 : 0,
    matched_evidence_count: matched,
    gold_sentence_ids: h.gold,
    sentence_count: h.sentence_count,
    gold_evidence_count: h.gold.length,
    scope: h.scope,
    doc_type: h.doc_type,
    contra_type: h.contra_type,
    fields: h.fields,
  } as JsonObject;
}

export interface ReadDocumentCasesOptions {
  /** Only cases for which this is true get their run lines parsed and expanded (compact layout). */
  want?: (caseIndex: number) => boolean;
}

/**
 * The line-by-line state of readDocumentCases: the case line the following run lines belong to.
 * A reader with a faster way to take some run lines (src/gates/document-side.ts) hands every other
 * line to `decode`, so that both read a file alike.
 */
export class DocumentCasesDecoder {
  /** The valid case line the next run lines belong to, if any. */
  header: CaseHeader | null = null;
  headerLine = 0;
  /** Whether the current case's run lines are wanted (`opts.want`). */
  wanted = true;

  constructor(private readonly opts: ReadDocumentCasesOptions = {}) {}

  /** The item of one line, or undefined when it gives none (a case line, a run line not wanted). */
  decode(lineNo: number, text: string | null): CaseItem | undefined {
    // A run line of a case not wanted is skipped unparsed (a run line starts with its `run` key).
    if (!this.wanted && this.header !== null && text !== null && text.startsWith('{"run":')) return undefined;
    const parsed = parseJsonLine(text);
    if ("error" in parsed) return { lineNo, error: parsed.error.message, blank: parsed.error.code === "blank_line" };
    const r = parsed.record;
    const hasCase = "case_id" in r;
    if (hasCase && "run" in r) return { lineNo, record: r, caseLineNo: lineNo };
    if (hasCase) {
      const h = caseHeader(r);
      if (typeof h === "string") {
        this.header = null;
        return { lineNo, error: `not a valid case line: ${h}`, blank: false };
      }
      this.header = h;
      this.headerLine = lineNo;
      this.wanted = this.opts.want === undefined || this.opts.want(h.case_index);
      return undefined;
    }
    if (!("run" in r)) {
      this.header = null;
      return { lineNo, error: "neither a case line (case_id) nor a run line (run)", blank: false };
    }
    if (this.header === null) return { lineNo, error: "a run line without a valid case line before it", blank: false };
    if (!this.wanted) return undefined;
    const full = expandRunLine(this.header, r);
    if (typeof full === "string") return { lineNo, error: `not a valid run line: ${full}`, blank: false };
    return { lineNo, record: full, caseLineNo: this.headerLine };
  }
}

/**
 * The full per-(case, run) records of a document cases.jsonl, in file order, whichever layout it
 * has: a line with `case_id` and `run` is a previous-layout line, taken as it is; a line with
 * `case_id` and no `run` is a case line; a line with `run` and no `case_id` is a run line of the
 * case line before it. Lines that give no record are items with the reason (a blank line is
 * marked `blank`). A run line after a case line that is not valid has no case and is one of
 * those; after a line that is not JSON at all it stays with the case line before, and had that line
 * been a case line, its runs repeat (case, run) units of the case before, which every reader
 * refuses (a report's cases_sha256 catches any change first).
 */
export async function* readDocumentCases(casesPath: string, opts: ReadDocumentCasesOptions = {}): AsyncGenerator<CaseItem> {
  const decoder = new DocumentCasesDecoder(opts);
  for await (const raw of readLines(casesPath)) {
    const item = decoder.decode(raw.lineNo, raw.text);
    if (item !== undefined) yield item;
  }
}

/** The lines of any other cases.jsonl (pairs, evidence) as items: one JSON object per line. */
export async function* readCaseLineItems(casesPath: string): AsyncGenerator<CaseItem> {
  for await (const raw of readLines(casesPath)) {
    const parsed = parseJsonLine(raw.text);
    if ("error" in parsed) yield { lineNo: raw.lineNo, error: parsed.error.message, blank: parsed.error.code === "blank_line" };
    else yield { lineNo: raw.lineNo, record: parsed.record, text: raw.text! };
  }
}
