// The one reader of a document eval's cases.jsonl (docs/reports.md, "cases.jsonl of a document
// eval"). mari writes it compact: per case, one case line with the case-level fields, then one run
// line per run with only what the prediction decided; every field the old layout repeated or
// derived (format_valid, judgment_correct, the localization fields, reward_accuracy, reward_format,
// matched_evidence_count, gold_evidence_count, null facets, empty `fields`) is re-derived here. The
// previous layout (one full line per (case, run)) is read as it is, so older reports stay usable
// as --baseline and diff inputs. Every consumer (--baseline, mari diff, mari merge, the case
// explorer) gets the same full per-(case, run) records from this reader, the absent (case, run)
// cells of a sparse file (no run line; listed by its runs line) included.
import { accuracyReward } from "../core/document/rewards.js";
import { type CaseOutcome, emptyCaseOutcome, exactLocalization, localizationFields, localizationHit } from "../core/metrics/case-outcome.js";
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
export function caseHeader(r: JsonObject): CaseHeader | string {
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

/** How many distinct ids of `ids[from .. to)` are gold ids. */
export function matchedEvidence(goldSet: ReadonlySet<number>, ids: ArrayLike<number>, from: number, to: number): number {
  let matched = 0;
  // A short list (the usual one) is checked against itself, a long one through a Set.
  if (to - from <= 8) {
    for (let i = from; i < to; i++) {
      const id = ids[i]!;
      if (!goldSet.has(id)) continue;
      let first = true;
      for (let j = from; first && j < i; j++) first = ids[j] !== id;
      if (first) matched++;
    }
    return matched;
  }
  const seen = new Set<number>();
  for (let i = from; i < to; i++) seen.add(ids[i]!);
  for (const id of seen) if (goldSet.has(id)) matched++;
  return matched;
}

/**
 * What a run line decides under its case line (decideRun), without the fields only a full record
 * carries (evidence precision and recall): one object that a reader of a million lines reuses.
 */
export interface RunDecision {
  correct: boolean;
  /** Null on gold-negative cases, as in localizationFields. */
  localizationHit: boolean | null;
  exactLocalization: boolean | null;
  rewardAccuracy: number;
  /** The run as the metrics read it (a full record's localization fields come from it). */
  readonly outcome: CaseOutcome;
}

export function newRunDecision(): RunDecision {
  return {
    correct: false,
    localizationHit: null,
    exactLocalization: null,
    rewardAccuracy: 0,
    outcome: emptyCaseOutcome(),
  };
}

/** What a run line's judgment and validity, its evidence's count and gold matches and its coverage decide under its case line, into `out`. */
export function decideRun(
  out: RunDecision,
  h: CaseHeader,
  judgment: boolean,
  formatValid: boolean,
  predictedCount: number,
  matched: number,
  coverage: number,
): RunDecision {
  const o = out.outcome;
  o.label = h.label;
  o.judgment = judgment;
  o.formatValid = formatValid;
  o.predictedCount = predictedCount;
  o.matched = matched;
  o.goldCount = h.gold.length;
  o.referenceCoverage = coverage;
  out.correct = judgment === h.label;
  out.localizationHit = h.label ? localizationHit(o) : null;
  out.exactLocalization = h.label ? exactLocalization(o) : null;
  out.rewardAccuracy = accuracyReward(h.label, out.correct, matched, o.goldCount);
  return out;
}

/** What a run line's judgment, validity, evidence and coverage decide under its case line (the derived fields). */
export function runLineDecides(
  h: CaseHeader,
  judgment: boolean,
  formatValid: boolean,
  evidence: readonly number[],
  coverage: number,
): { correct: boolean; matched: number; loc: ReturnType<typeof localizationFields>; rewardAccuracy: number } {
  const matched = matchedEvidence(h.goldSet, evidence, 0, evidence.length);
  const decided = decideRun(newRunDecision(), h, judgment, formatValid, evidence.length, matched, coverage);
  return { correct: decided.correct, matched, loc: localizationFields(decided.outcome), rewardAccuracy: decided.rewardAccuracy };
}

/** The full record of a compact run line under its case line (the previous layout's keys, in its order), or why there is none. */
export function expandRunLine(h: CaseHeader, r: JsonObject): JsonObject | string {
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

/** The compact run line an absent (case, run) of the sparse layout stands for: the case's missing prediction. */
export function absentRunLine(run: unknown): JsonObject {
  return { run, judgment: false, reason: "missing_prediction", evidence_sentence_ids: [], reference_coverage: 0 } as JsonObject;
}

/** The run keys of a runs line (the sparse layout's first line), or why it is not one. */
function runsOf(r: JsonObject): unknown[] | string {
  const runs = r["runs"];
  if (!Array.isArray(runs) || !runs.every((run) => typeof run === "string" || isInt(run))) return "runs is not a list of strings or integers";
  if (Object.keys(r).length !== 1) return "a runs line has no other key";
  return runs;
}

/**
 * The line-by-line state of readDocumentCases: the case line the following run lines belong to and,
 * in the sparse layout, the runs not yet given for that case. A reader with a faster way to take some
 * run lines (src/gates/side-reader.ts) hands every other line to `decode`, so that both read a file
 * alike; it takes none of a sparse file's lines itself (`sparse`), since their absent runs come from here.
 */
export class DocumentCasesDecoder {
  /** The valid case line the next run lines belong to, if any. */
  header: CaseHeader | null = null;
  headerLine = 0;
  /** Whether the current case's run lines are wanted (`opts.want`). */
  wanted = true;
  /** Sparse layout: every run in order (from the runs line), a run's position by its JSON, the next run not yet given for the case. */
  private runs: unknown[] | null = null;
  private position: Map<string, number> | null = null;
  private next = 0;

  constructor(private readonly opts: ReadDocumentCasesOptions = {}) {}

  /** Whether the file has the sparse layout (its first line was a runs line). */
  get sparse(): boolean {
    return this.runs !== null;
  }

  /** Emits the items of one line (none for a case line or a run line not wanted; absent runs before a sparse run line). */
  decode(lineNo: number, text: string | null, emit: (item: CaseItem) => void): void {
    // A run line of a case not wanted is skipped unparsed (a run line starts with its `run` key); a
    // case not wanted yields no absent runs either.
    if (!this.wanted && this.header !== null && text !== null && text.startsWith('{"run":')) return;
    const parsed = parseJsonLine(text);
    if ("error" in parsed) {
      emit({ lineNo, error: parsed.error.message, blank: parsed.error.code === "blank_line" });
      return;
    }
    const r = parsed.record;
    const hasCase = "case_id" in r;
    if (hasCase && "run" in r) {
      emit({ lineNo, record: r, caseLineNo: lineNo });
      return;
    }
    if (hasCase) {
      this.absentUpTo(this.runs?.length ?? 0, emit);
      const h = caseHeader(r);
      if (typeof h === "string") {
        this.header = null;
        emit({ lineNo, error: `not a valid case line: ${h}`, blank: false });
        return;
      }
      this.header = h;
      this.headerLine = lineNo;
      this.wanted = this.opts.want === undefined || this.opts.want(h.case_index);
      this.next = 0;
      return;
    }
    if (!("run" in r)) {
      if ("runs" in r && lineNo === 1) {
        const list = runsOf(r);
        if (typeof list === "string") {
          emit({ lineNo, error: `not a valid runs line: ${list}`, blank: false });
          return;
        }
        this.runs = list;
        this.position = new Map(list.map((run, at) => [JSON.stringify(run), at]));
        return;
      }
      this.absentUpTo(this.runs?.length ?? 0, emit);
      this.header = null;
      emit({ lineNo, error: "neither a case line (case_id) nor a run line (run)", blank: false });
      return;
    }
    if (this.header === null) {
      emit({ lineNo, error: "a run line without a valid case line before it", blank: false });
      return;
    }
    if (this.position !== null) {
      const at = this.position.get(JSON.stringify(r["run"]));
      if (at === undefined) {
        emit({ lineNo, error: "not a valid run line: its run is not in the runs line", blank: false });
        return;
      }
      if (at >= this.next) {
        this.absentUpTo(at, emit);
        this.next = at + 1;
      }
    }
    if (!this.wanted) return;
    const full = expandRunLine(this.header, r);
    if (typeof full === "string") {
      emit({ lineNo, error: `not a valid run line: ${full}`, blank: false });
      return;
    }
    emit({ lineNo, record: full, caseLineNo: this.headerLine });
  }

  /** Emits the absent (case, run) records the last case still owes (sparse layout; nothing otherwise). */
  finish(emit: (item: CaseItem) => void): void {
    this.absentUpTo(this.runs?.length ?? 0, emit);
  }

  /** The current case's runs next … to − 1 as missing predictions, with the case line's line number. */
  private absentUpTo(to: number, emit: (item: CaseItem) => void): void {
    const runs = this.runs;
    const header = this.header;
    if (runs === null || header === null || !this.wanted) return;
    for (; this.next < to; this.next++) {
      emit({ lineNo: this.headerLine, record: expandRunLine(header, absentRunLine(runs[this.next])) as JsonObject, caseLineNo: this.headerLine });
    }
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
 * refuses (a report's cases digest catches any change first).
 *
 * Sparse layout: a file whose first line is a runs line (`{"runs":[…]}`, every run in order) has
 * run lines for kept lines only; each run of that list without a run line under a case is an
 * absent (case, run), yielded here, in run order among the others, as the record of a missing
 * prediction (what the dense layout writes as a `missing_prediction` run line), with the case
 * line's line number. A run line naming a run not in the list is an error item; one that comes
 * out of run order is yielded as it is (a repeated or misplaced (case, run), which readers refuse).
 */
export async function* readDocumentCases(casesPath: string, opts: ReadDocumentCasesOptions = {}): AsyncGenerator<CaseItem> {
  const decoder = new DocumentCasesDecoder(opts);
  const items: CaseItem[] = [];
  const emit = (item: CaseItem): void => {
    items.push(item);
  };
  for await (const raw of readLines(casesPath)) {
    decoder.decode(raw.lineNo, raw.text, emit);
    if (items.length > 0) {
      yield* items;
      items.length = 0;
    }
  }
  decoder.finish(emit);
  yield* items;
}

/** The lines of any other cases.jsonl (pairs, evidence) as items: one JSON object per line. */
export async function* readCaseLineItems(casesPath: string): AsyncGenerator<CaseItem> {
  for await (const raw of readLines(casesPath)) {
    const parsed = parseJsonLine(raw.text);
    if ("error" in parsed) yield { lineNo: raw.lineNo, error: parsed.error.message, blank: parsed.error.code === "blank_line" };
    else yield { lineNo: raw.lineNo, record: parsed.record, text: raw.text! };
  }
}
