// The documents case explorer's data: the scored outcomes (of an eval, its run table in memory; of
// a finished report (diff.html), its cases.jsonl through its one reader,
// src/report/document-cases.ts) gone over twice, once to find the failures and choose the cases,
// once to gather the chosen ones; the slice's sentences, and the chosen dump lines: their reasoning
// and, for a format-invalid run, what the model said and why the scorer refused it. Built only when
// report.html (or diff.html) is written.
import { describe, extractPrediction } from "../../io/dump.js";
import { isJsonObject, type JsonObject } from "../../io/records.js";
import { type CaseHeader, type CaseItem, matchedEvidence, readDocumentCases, decideRun, newRunDecision, runLineDecides } from "../../report/document-cases.js";
import { type CaseRanges, readCaseSegments } from "../../report/case-ranges.js";
import { CaseSummary, FACETS, facetsOf, finiteOrNull, OUTCOMES, outcomeIndex, runFails } from "../../report/explorer-summary.js";
import type { DocumentSlice, SliceCase } from "../../io/slice.js";
import {
  countFacets,
  countTags,
  describeSelection,
  EXPLORER_CASE_CAP,
  EXPLORER_DOCUMENT_CHARS,
  EXPLORER_TEXT_CHARS,
  EXPLORER_TEXT_CHARS_EACH,
  emptyCounts,
  explorerCap,
  explorerRunsPerCase,
  pageText,
  selectCases,
  type ExplorerCase,
  type ExplorerCounts,
  type ExplorerData,
  type ExplorerRun,
  type GivenField,
} from "../../report/explorer.js";
import type { CaseChange } from "../../gates/changes.js";
import { forEachDumpLine } from "./dump-texts.js";
import { unoptimized } from "../../io/v8-phases.js";
import type { LineOffsets } from "./line-offsets.js";
import type { PassCaseColumns } from "./range-pass.js";
import type { RunTable } from "./run-table.js";
import { CASE_REASONS, type CaseReason, fixedReasonMessage, scoreCase, type ScoreOptions } from "./score.js";
import type { CompletionEndRule } from "../../core/document/completion-end.js";

/**
 * The per-(case, run) records of a report, in cases.jsonl order (case by case, runs in run order),
 * each given to `visit` with `times`: the number of consecutive runs of the case it stands for (1,
 * or more for absent (case, run) cells that share one record; `recordAt(t)` is the t-th of them).
 * `want` (when given) limits the cases whose records are given.
 */
type CaseRecords = (
  want: ((caseIndex: number) => boolean) | undefined,
  visit: (record: JsonObject, times: number, recordAt: (t: number) => JsonObject) => void,
) => Promise<void>;

/** The records of a cases.jsonl, one by one. */
function fileRecords(casesPath: string): CaseRecords {
  return async (want, visit) => {
    for await (const item of readDocumentCases(casesPath, want ? { want } : {})) {
      if ("record" in item) visit(item.record, 1, () => item.record);
    }
  };
}

/**
 * The records of a cases.jsonl whose case segments were noted when it was read (CaseRanges): the
 * wanted cases' segments only, by positional reads; the whole file when every case is wanted, or
 * when the segments cannot stand for the file (some case's lines scattered, a case_index unclear).
 */
export function segmentRecords(casesPath: string, ranges: CaseRanges): CaseRecords {
  const whole = fileRecords(casesPath);
  return async (want, visit) => {
    if (want === undefined || ranges.scattered || ranges.caseIndices.some((index) => !Number.isInteger(index))) return whole(want, visit);
    const slots = ranges.caseIndices.flatMap((index, slot) => (want(index) ? [slot] : []));
    await readCaseSegments(casesPath, ranges, slots, (item) => {
      if ("record" in item) visit(item.record, 1, () => item.record);
    });
  };
}

/** An eval's scored outcomes in memory: the cases it scored and its run table (cases.jsonl is written from them). */
export interface ScoredTable {
  cases: readonly SliceCase[];
  table: RunTable;
}

/**
 * How the shown cases' runs are read: each into `picker` under its case's position k among the
 * shown ones, case by case, each case's in run order; before a case's runs, `fields` gets its label
 * and gold as its records carry them (gold as read, not yet checked).
 */
type ShownRuns = (shown: ShownCases, picker: RunPicker, fields: (k: number, label: unknown, gold: unknown) => void) => Promise<void>;

/**
 * The most steps (shown cases × runs) of a page's run picking that runs unoptimized. Measured with
 * `mari eval`, default reports, against V8's usual tiering: the GRPO bench (2,000 shown cases × 8
 * runs, its texts unoptimized too) 0.93–0.95× the CPU; one case × 1,000,000 runs (a million steps)
 * 1.13×.
 */
const SHORT_PICK_STEPS = 100_000;

/**
 * The most cases for which the page's per-case work (pageCases: the summary given to the page, from
 * the dense pass's columns, the counts, the selection and the shown cases' views, each pass over
 * every case once) runs unoptimized. Measured
 * with `mari eval`, default reports, against V8's usual tiering: the GRPO bench (37,500 cases)
 * 0.96–0.97× the CPU (41 alternating pairs; the 1M bench's 891 cases, 1.00×). V8 compiled those
 * passes, one of them whole on the fly, for more than they saved.
 */
const SHORT_CASE_WORK = 50_000;

/** The runs of a report's records. */
function recordRuns(records: CaseRecords): ShownRuns {
  return (shown, picker, fields) =>
    records(
      (index) => isShown(shown, index),
      (line, times, recordAt) => {
        const index = line["case_index"];
        if (typeof index !== "number" || !isShown(shown, index)) return;
        const k = shown.slot[index]!;
        fields(k, line["label"], line["gold_sentence_ids"]);
        picker.offer(k, lineFails(line), times, (t) => runOfLine(recordAt(t)));
      },
    );
}

/**
 * The runs of an eval's shown cases read from its run table's columns, as the records its
 * cases.jsonl gives back would show them (the same case line, the run lines' derived fields from
 * matchedEvidence and decideRun as in runLineDecides), without building those records: the shown
 * cases (scored ones all) in slice order, each run in run order, absent cells in streaks; a kept
 * line the reader refuses (no line number, a coverage that is not a number) gives no run. The GRPO
 * bench page's 16,000 runs go through this loop once, mostly before V8 optimizes it, so a run takes
 * few steps: it goes to the picker as it is made (no visitor between), the columns are locals.
 */
function tableRuns(table: RunTable): ShownRuns {
  return async ({ sliceCases }, picker, fields) => {
    const { keys, line, coverage, reason: reasonCode, judgment: judged, evStart, evLength, evidenceIds } = table;
    const R = keys.length;
    const decision = newRunDecision();
    for (let k = 0; k < sliceCases.length; k++) {
      const c = sliceCases[k]!;
      const header = headerOf(c);
      let read = false;
      // The absent runs from … to − 1, as one streak.
      const gap = (from: number, to: number) => {
        const absent = runLineDecides(header, false, false, [], 0);
        const { localization_hit } = absent.loc;
        if (!read) fields(k, c.label, c.gold);
        read = true;
        picker.offer(k, runFails(absent.correct, false, localization_hit), to - from, (t) =>
          pageRun(keys[from + t]!, c.label, false, false, "missing_prediction", [], absent.rewardAccuracy, 0, localization_hit, null),
        );
      };
      let next = 0;
      for (let r = 0; r < R; r++) {
        const e = table.entry(r, c.index);
        if (e < 0) continue;
        if (r > next) gap(next, r);
        next = r + 1;
        if (table.refusedOnReadBack(e)) continue;
        const reason = CASE_REASONS[reasonCode[e]!]!;
        const judgment = judged[e] === 1;
        const from = evStart[e]!;
        const count = evLength[e]!;
        const matched = matchedEvidence(header.goldSet, evidenceIds, from, from + count);
        const decided = decideRun(decision, header, judgment, reason === null, count, matched, coverage[e]!);
        if (!read) fields(k, c.label, c.gold);
        read = true;
        const fails = runFails(decided.correct, reason === null, decided.localizationHit);
        if (!picker.wants(k, fails)) continue;
        picker.take(
          k,
          fails,
          pageRun(
            keys[r]!,
            c.label,
            reason === null,
            judgment,
            reason,
            table.evidenceOf(r, c.index),
            decided.rewardAccuracy,
            coverage[e]!,
            decided.localizationHit,
            line[e]!,
          ),
        );
      }
      if (R > next) gap(next, R);
    }
  };
}

/**
 * The case line an eval writes for a slice case (writeCaseLine), as the reader of cases.jsonl takes it
 * (caseHeader), made from the case's fields without writing and parsing the line: once per scored
 * case, on 37,500 cases that was a fifth of the explorer's time. The extra fields go through JSON
 * as the line's do.
 */
export function headerOf(c: SliceCase): CaseHeader {
  return {
    case_id: c.id,
    case_index: c.index,
    label: c.label,
    gold: c.gold,
    goldSet: new Set(c.gold),
    sentence_count: c.sentenceCount,
    scope: c.scope,
    doc_type: c.docType,
    contra_type: c.contraType,
    fields: Object.keys(c.extra).length > 0 ? JSON.parse(JSON.stringify(c.extra)) : {},
  };
}

/** Each case's slice index and gold count, in a loop of its own (`Int32Array.from(cases, …)` walked the array iterator). */
function indexAndGoldColumns(cases: readonly SliceCase[]): { sliceIndex: Int32Array; goldCount: Int32Array } {
  const sliceIndex = new Int32Array(cases.length);
  const goldCount = new Int32Array(cases.length);
  for (let k = 0; k < cases.length; k++) {
    sliceIndex[k] = cases[k]!.index;
    goldCount[k] = cases[k]!.gold.length;
  }
  return { sliceIndex, goldCount };
}

/**
 * The summary the records of an eval's cases.jsonl give (recordSummary of them), read from its run
 * table's columns: no record built for any run. Each kept line's derived fields come from the same
 * functions its expanded record's come from (runLineDecides is matchedEvidence, then decideRun).
 * Each case gets its runs in run order whichever way the table is read: in the dump's order when
 * each case's kept lines are in run order in it, unless most cells have a kept line and the dump
 * went run by run (then cell by cell, run by run); a table of neither kind, run by run when most
 * cells have a kept line, else case by case through its kept lines; each case's absent runs one
 * streak between them. The dump's order reads the columns front to back, as a GRPO dump (each
 * case's runs together) lays them out.
 *
 * Every summary field of a kept line follows from its judgment, its reason and how many gold
 * sentences it cites (with the case's label and gold): a case's later runs that agree on those
 * three with an earlier one are added as repeats (CaseSummary.addRepeat: its run count and reward
 * sum), as are its absent runs after the first; a case has a few such kinds of run against a
 * thousand runs.
 */
export function tableSummary(cases: readonly SliceCase[], table: RunTable, caseCount: number): CaseSummary {
  const summary = new CaseSummary(caseCount);
  const R = table.keys.length;
  if (R === 0) return summary;
  const ids = table.evidenceIds;
  const decision = newRunDecision();
  // decideRun reads a header's label and gold only: one header, set to each case's in turn, and a
  // case's gold set made when a line of it cites evidence (no object per case for 37,500 cases).
  const header: CaseHeader = {
    case_id: "",
    case_index: 0,
    label: false,
    gold: [],
    goldSet: new Set(),
    sentence_count: 0,
    scope: null,
    doc_type: null,
    contra_type: null,
    fields: {},
  };
  const goldSets: Array<Set<number> | undefined> = new Array(cases.length);
  // What every kept line asks of its case, in columns (not read from 37,500 case objects).
  const { sliceIndex, goldCount } = indexAndGoldColumns(cases);
  const caseHeader = (k: number): CaseHeader => {
    const c = cases[k]!;
    header.label = c.label;
    header.gold = c.gold;
    return header;
  };
  // The facets are asked for on a case's first run only: one function for every case.
  let facetCase = 0;
  const caseFacets = new CaseFacets();
  const facets = () => caseFacets.of(cases[facetCase]!);
  // The reason codes the table's kept lines carry, numbered 0, 1, … in order of appearance. Case
  // k's kinds of kept line are (judgment · reasons + reason's number) · (gold + 1) + matched. The
  // reward of each kind met so far is kept in a slot: one for each kind of each case (case k's from
  // kindStart[k]) while they are no more than the table's cells, else KIND_SLOTS per case, taken by
  // the first kinds it meets (a slot's kind -1: free).
  const reasonNumber = new Int32Array(CASE_REASONS.length).fill(-1);
  let reasons = 0;
  for (let e = 0; e < table.entries; e++) if (reasonNumber[table.reason[e]!]! < 0) reasonNumber[table.reason[e]!] = reasons++;
  const kindStart = new Int32Array(cases.length + 1);
  for (let k = 0; k < cases.length; k++) kindStart[k + 1] = kindStart[k]! + 2 * reasons * (goldCount[k]! + 1);
  const everyKind = kindStart[cases.length]! <= R * cases.length;
  const perCase = Math.min(R - 1, KIND_SLOTS);
  const slotKind = new Int32Array(everyKind ? kindStart[cases.length]! : cases.length * perCase).fill(-1);
  const slotReward = new Float64Array(slotKind.length);
  /** The slot of case k's kind (its own, or the free one for it), -1 when none is left. */
  const slotOf = (k: number, kind: number): number => {
    if (everyKind) return kindStart[k]! + kind;
    const end = (k + 1) * perCase;
    for (let slot = k * perCase; slot < end; slot++) {
      const held = slotKind[slot]!;
      if (held === kind || held === -1) return slot;
    }
    return -1;
  };
  // An absent run's fields are worked out on the case's first one; later ones repeat its reward.
  const absentMet = new Uint8Array(cases.length);
  const absentReward = new Float64Array(cases.length);
  const addAbsent = (k: number, times: number): void => {
    const c = cases[k]!;
    if (absentMet[k]) {
      summary.addRepeat(c.index, finiteOrNull(absentReward[k]!), times);
      return;
    }
    const a = runLineDecides(headerOf(c), false, false, [], 0);
    absentMet[k] = 1;
    absentReward[k] = a.rewardAccuracy;
    facetCase = k;
    summary.addFields(c.index, c.label, false, false, a.correct, a.loc.localization_hit, "missing_prediction", a.rewardAccuracy, times, facets);
  };
  const addKept = (k: number, e: number): void => {
    // A kept line the reader would refuse gives no record there.
    if (table.refusedOnReadBack(e)) return;
    const coverage = table.coverage[e]!;
    const reasonIdx = table.reason[e]!;
    const judgment = table.judgment[e] === 1;
    const from = table.evStart[e]!;
    const count = table.evLength[e]!;
    const gold = goldCount[k]!;
    const matched = count > 0 && gold > 0 ? matchedEvidence((goldSets[k] ??= new Set(cases[k]!.gold)), ids, from, from + count) : 0;
    const kind = ((judgment ? reasons : 0) + reasonNumber[reasonIdx]!) * (gold + 1) + matched;
    const slot = matched <= gold && kind >= 0 ? slotOf(k, kind) : -1;
    if (slot >= 0 && slotKind[slot] === kind) {
      summary.addRepeat(sliceIndex[k]!, finiteOrNull(slotReward[slot]!), 1);
      return;
    }
    const reason = CASE_REASONS[reasonIdx]!;
    const decided = decideRun(decision, caseHeader(k), judgment, reason === null, count, matched, coverage);
    if (slot >= 0) {
      slotKind[slot] = kind;
      slotReward[slot] = decided.rewardAccuracy;
    }
    facetCase = k;
    summary.addFields(
      sliceIndex[k]!,
      cases[k]!.label,
      judgment,
      reason === null,
      decided.correct,
      decided.localizationHit,
      reason,
      decided.rewardAccuracy,
      1,
      facets,
    );
  };
  const order = entryOrder(table);
  const dense = 2 * table.entries >= R * cases.length;
  if (order === "cases" || (order === "runs" && !dense)) {
    // Position in `cases` of each slice case (-1: not scored here), and each case's next run.
    const position = new Int32Array(caseCount).fill(-1);
    for (let k = 0; k < cases.length; k++) position[cases[k]!.index] = k;
    const next = new Int32Array(cases.length);
    for (let e = 0; e < table.entries; e++) {
      const k = position[table.entryCase[e]!]!;
      if (k < 0) continue;
      const r = table.entryRun[e]!;
      if (r > next[k]!) addAbsent(k, r - next[k]!);
      next[k] = r + 1;
      addKept(k, e);
    }
    for (let k = 0; k < cases.length; k++) if (R > next[k]!) addAbsent(k, R - next[k]!);
    return summary;
  }
  if (dense) {
    for (let r = 0; r < R; r++) {
      for (let k = 0; k < cases.length; k++) {
        const e = table.entry(r, cases[k]!.index);
        if (e < 0) addAbsent(k, 1);
        else addKept(k, e);
      }
    }
    return summary;
  }
  const byCase = table.entriesByCase();
  for (let k = 0; k < cases.length; k++) {
    const c = cases[k]!;
    let next = 0;
    for (let x = byCase.start[c.index]!; x < byCase.start[c.index + 1]!; x++) {
      const e = byCase.entries[x]!;
      const r = table.entryRun[e]!;
      if (r > next) addAbsent(k, r - next);
      next = r + 1;
      addKept(k, e);
    }
    if (R > next) addAbsent(k, R - next);
  }
  return summary;
}

/**
 * tableSummary's summary from the columns the dense WebAssembly pass gathered as it summed the
 * cells (range-pass.ts): per case, its facets and its reasons' names; nothing per cell.
 */
export function passSummary(cases: readonly SliceCase[], columns: PassCaseColumns, caseCount: number): CaseSummary {
  const summary = new CaseSummary(caseCount);
  const facets = new CaseFacets();
  const none: string[] = [];
  for (let k = 0; k < cases.length; k++) {
    // A list only for a case with reasons (setCase keeps none of an empty one).
    let reasons = none;
    const first = columns.reasons[k]!;
    if (first !== 0) {
      reasons = [];
      for (let packed = first; packed !== 0; packed >>>= 8) reasons.push(CASE_REASONS[packed & 0xff]!);
    }
    const c = cases[k]!;
    summary.setCase(c.index, facets.of(c), columns.failed[k] === 1, columns.bits[k]!, columns.runs, columns.rewardSum[k]!, columns.runs, reasons);
  }
  return summary;
}

/**
 * How the table's entries (its kept lines in dump order) are laid out: "runs" when the dump went run
 * after run, "cases" when each case's lines are in run order otherwise (as a GRPO dump's groups
 * are), "other" when some case's are not.
 */
function entryOrder(table: RunTable): "runs" | "cases" | "other" {
  const lastRun = new Int32Array(table.caseCount).fill(-1);
  let runByRun = true;
  for (let e = 0; e < table.entries; e++) {
    const c = table.entryCase[e]!;
    const r = table.entryRun[e]!;
    if (r <= lastRun[c]!) return "other";
    if (e > 0 && r < table.entryRun[e - 1]!) runByRun = false;
    lastRun[c] = r;
  }
  return runByRun ? "runs" : "cases";
}

/** Kinds of kept line tableSummary remembers per case when it cannot keep every kind (a case has a few against a thousand runs). */
const KIND_SLOTS = 16;

/**
 * Slice cases' facets, as their case lines give them (facetsOf of a header), without the header:
 * one object for all the cases with the same scope, doc_type and contra_type (the GRPO bench's
 * 37,500 cases share one; an object per case was kept, and copied by the young collections, until
 * the page was written), so that countScored counts the facet filters once per object. A case
 * whose contra_type is a list has an object of its own.
 */
class CaseFacets {
  /** scope → doc_type → contra_type → facets (a Map tells null from "null"). */
  private readonly known = new Map<string | null, Map<string | null, Map<string | null, Record<string, string>>>>();

  of(c: SliceCase): Record<string, string> {
    const { scope, docType, contraType } = c;
    if (typeof contraType === "object" && contraType !== null) return this.made(c);
    let byDocType = this.known.get(scope);
    if (byDocType === undefined) this.known.set(scope, (byDocType = new Map()));
    let byContraType = byDocType.get(docType);
    if (byContraType === undefined) byDocType.set(docType, (byContraType = new Map()));
    let facets = byContraType.get(contraType);
    if (facets === undefined) byContraType.set(contraType, (facets = this.made(c)));
    return facets;
  }

  private made(c: SliceCase): Record<string, string> {
    return facetsOf({ scope: c.scope, doc_type: c.docType, contra_type: c.contraType });
  }
}

export interface DocumentExplorerInput {
  /** The scored outcomes: an eval's run table, or a finished report's cases.jsonl (its path, or `segmentRecords` of it). */
  outcomes: ScoredTable | CaseRecords | string;
  /**
   * What a report's records say per case when it is known already (read with the paired side), or
   * how to work it out (called in the page's per-case work); else read from `outcomes`.
   */
  summary?: CaseSummary | (() => CaseSummary);
  slice: DocumentSlice;
  /** The dump the cases.jsonl lines' `line` numbers point into (texts are skipped when it is null). */
  dumpPath: string | null;
  /** How the page names the dump (default: dumpPath), e.g. the path the report records. */
  dumpName?: string;
  offsets?: LineOffsets;
  runs: string[];
  seed: number;
  /** Cases that changed against a baseline (tagged and counted as failures). */
  changes?: readonly CaseChange[];
  /** Where every case is, for the page ("cases.jsonl beside this page"). */
  rest?: string;
  /** `--explorer-cases`: the most cases the page carries (default EXPLORER_CASE_CAP). */
  caseCap?: number;
  /** Characters of document text the page carries in all (default EXPLORER_DOCUMENT_CHARS). */
  documentChars?: number;
  /** As the run was scored (`--lenient-ids`), so a failed run's message is the scorer's. */
  lenientIds?: boolean;
  /** As the run was scored (`--keep-special-tokens`, `--special-token`). */
  completionEnd?: CompletionEndRule;
}

/** The field of a structured prediction each format reason is about (judge failures: `error`). */
const FIELD_OF_REASON: Record<string, string> = {
  bad_prediction_shape: "prediction",
  bad_judgment: "judgment",
  bad_evidence_field: "evidence_sentence_ids",
  non_integer_evidence: "evidence_sentence_ids",
  evidence_out_of_document: "evidence_sentence_ids",
  positive_without_evidence: "evidence_sentence_ids",
  negative_with_evidence: "evidence_sentence_ids",
  bad_reasoning: "reasoning",
  reasoning_reference_out_of_document: "reasoning",
};

const GIVEN_CHARS = 400;

/**
 * The scorer's message for a format-invalid dump line. When `reason` is the scorer's own for this
 * line (an eval's run table) and one message goes with it, that message is the line's unless the
 * prediction could not be extracted (a quoted evidence not in the document says which): only then,
 * or for any other reason, is the line scored again (its reference scan and all). Of the reasons
 * with one message, evidence_out_of_document alone is also one the extraction gives (scoreCase
 * checks the evidence and reasoning only once it succeeded): the line is extracted again for it
 * only (on the 1M bench, extracting each of 7,939 lines again took 18 ms with its compiles).
 */
function failureMessage(c: SliceCase, record: JsonObject, reason: string, options: ScoreOptions, reasonScoredHere: boolean): string | undefined {
  const fixed = reasonScoredHere ? fixedReasonMessage(reason as CaseReason) : undefined;
  if (fixed !== undefined && (reason !== "evidence_out_of_document" || extractPrediction(record, c.sentences, options.lenientIds, options.completionEnd).ok))
    return fixed;
  return scoreCase(c, record, options).message ?? undefined;
}

/**
 * What a format-invalid dump line said, field by field as written (the field its reason is about
 * marked), and the scorer's message for it (failureMessage).
 */
function explainFailure(
  c: SliceCase,
  record: JsonObject,
  reason: string,
  options: ScoreOptions,
  reasonScoredHere: boolean,
): { message: string | undefined; given: GivenField[] } {
  const message = failureMessage(c, record, reason, options, reasonScoredHere);
  // One array made in one place for every line, so that V8 sees one shape of answer.
  const given: GivenField[] = [];
  const nested = record["prediction"];
  if (nested !== undefined && !isJsonObject(nested)) {
    given.push({ field: "prediction", value: describe(nested, GIVEN_CHARS), bad: true });
    return { message, given };
  }
  const source = isJsonObject(nested) ? nested : record;
  // A completion's fields are inside its text, shown whole as the raw completion.
  if (!Object.hasOwn(source, "judgment") && typeof source["completion"] === "string") return { message, given };
  const bad = FIELD_OF_REASON[reason] ?? "error";
  const fields = ["judgment", Object.hasOwn(source, "evidence_sentence_ids") ? "evidence_sentence_ids" : "evidence", "error"];
  // The reasoning is shown in full below the table when it is text; here only when it is the problem and not text.
  if (bad === "reasoning" && typeof source["reasoning"] !== "string") fields.push("reasoning");
  for (const field of fields) {
    if (!Object.hasOwn(source, field) && field !== bad) continue;
    given.push({ field, value: describe(source[field], GIVEN_CHARS), bad: field === bad || (bad === "evidence_sentence_ids" && field === "evidence") });
  }
  return { message, given };
}

function outcomeOf(label: unknown, valid: boolean, judgment: unknown): string {
  return OUTCOMES[outcomeIndex(label, valid, judgment)]!;
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
}

/** A line fails when its judgment is wrong, it is format-invalid or it missed the gold sentences. */
function lineFails(line: JsonObject): boolean {
  return runFails(line["judgment_correct"], line["format_valid"], line["localization_hit"]);
}

/**
 * The runs a case carries on the page: while its run lines are read, at most `cap` failing and `cap`
 * passing ones are kept; the page gets the failing ones first, then passing ones, in run order.
 */
class RunPicker {
  /** Per case, the runs kept in the order they were offered, and whether each fails. */
  private readonly kept: ExplorerRun[][];
  private readonly keptFails: boolean[][];
  /** Per case, how many of its kept runs fail and how many pass. */
  private readonly failing: Int32Array;
  private readonly passing: Int32Array;
  constructor(
    cases: number,
    private readonly cap: number,
  ) {
    this.kept = Array.from({ length: cases }, () => []);
    this.keptFails = Array.from({ length: cases }, () => []);
    this.failing = new Int32Array(cases);
    this.passing = new Int32Array(cases);
  }
  /** Offers `times` runs of case k that all fail or all pass (the t-th is `runAt(t)`, made only when kept). */
  offer(k: number, fails: boolean, times: number, runAt: (t: number) => ExplorerRun): void {
    for (let t = 0; t < times && this.wants(k, fails); t++) this.take(k, fails, runAt(t));
  }
  /** Whether a run of case k that fails (or passes) is kept when offered. */
  wants(k: number, fails: boolean): boolean {
    return (fails ? this.failing : this.passing)[k]! < this.cap;
  }
  /** Keeps a run of case k that `wants` said it keeps. */
  take(k: number, fails: boolean, run: ExplorerRun): void {
    this.kept[k]!.push(run);
    this.keptFails[k]!.push(fails);
    (fails ? this.failing : this.passing)[k]!++;
  }
  runs(k: number): ExplorerRun[] {
    const passingKept = Math.max(0, this.cap - this.failing[k]!);
    const kept = this.kept[k]!;
    // Usually every passing run kept fits beside the failing ones: the list is the page's as it is.
    if (this.passing[k]! <= passingKept) return kept;
    const keptFails = this.keptFails[k]!;
    const runs: ExplorerRun[] = [];
    let passing = 0;
    for (let i = 0; i < kept.length; i++) if (keptFails[i] || passing++ < passingKept) runs.push(kept[i]!);
    return runs;
  }
}

/**
 * Adds each run's texts from the dump (reasoning, raw text; for a format-invalid run, what it said
 * and the scorer's message), within the page's text budget, spent in the runs' order; `caseOf[i]`
 * is run i's slice case (undefined: no message). `reasonsScoredHere`: the runs' reasons are this
 * process's scoring of those very lines (an eval). The lines are read in the dump's order and each
 * is done with as it is read (its parsed line is not kept); its texts wait, in columns, for the budget.
 */
async function attachTexts(
  runs: readonly ExplorerRun[],
  caseOf: ReadonlyArray<SliceCase | undefined>,
  dumpPath: string,
  offsets: LineOffsets | undefined,
  options: ScoreOptions,
  budget: { chars: number; leftOut: number },
  reasonsScoredHere: boolean,
): Promise<void> {
  // The runs of each line: the first in `firstRun`, each one's next in `nextRun` (-1: none).
  const firstRun = new Map<number, number>();
  const nextRun = new Int32Array(runs.length).fill(-1);
  for (let i = runs.length - 1; i >= 0; i--) {
    const line = runs[i]!.line;
    if (line === undefined) continue;
    const later = firstRun.get(line);
    if (later !== undefined) nextRun[i] = later;
    firstRun.set(line, i);
  }
  // A typed array sorts numbers without a comparison function.
  const wanted = Float64Array.from(firstRun.keys()).sort();
  const read = new Uint8Array(runs.length);
  const reasoning: Array<string | undefined> = new Array(runs.length);
  const raw: Array<string | undefined> = new Array(runs.length);
  const messages: Array<string | undefined> = new Array(runs.length);
  const given: Array<GivenField[] | undefined> = new Array(runs.length);
  // A line's parsed record explains a run of it that failed; a line of passing runs only gives texts.
  const explained = (i: number): boolean => runs[i]!.reason !== null && caseOf[i] !== undefined;
  const recordWanted = (index: number): boolean => {
    for (let i = firstRun.get(wanted[index]!)!; i >= 0; i = nextRun[i]!) if (explained(i)) return true;
    return false;
  };
  await forEachDumpLine(
    dumpPath,
    wanted,
    offsets,
    (index, t) => {
      for (let i = firstRun.get(wanted[index]!)!; i >= 0; i = nextRun[i]!) {
        read[i] = 1;
        reasoning[i] = t.reasoning;
        raw[i] = t.raw;
        if (!explained(i) || t.record === undefined) continue;
        // Explained before the budget is spent (whether the run's texts fit is known only in the runs' order).
        const failure = explainFailure(caseOf[i]!, t.record, runs[i]!.reason!, options, reasonsScoredHere);
        messages[i] = failure.message;
        if (failure.given.length > 0) given[i] = failure.given;
      }
    },
    recordWanted,
  );
  for (let i = 0; i < runs.length; i++) {
    if (read[i] === 0) continue;
    const size = (reasoning[i]?.length ?? 0) + (raw[i]?.length ?? 0);
    if (size > 0 && budget.chars <= 0) {
      budget.leftOut++;
      continue;
    }
    budget.chars -= Math.min(size, 2 * EXPLORER_TEXT_CHARS_EACH);
    const run = runs[i]!;
    if (reasoning[i] !== undefined) run.reasoning = pageText(reasoning[i]!);
    if (raw[i] !== undefined) run.raw = pageText(raw[i]!);
    if (messages[i] !== undefined) run.message = messages[i]!;
    if (given[i] !== undefined) run.given = given[i]!;
  }
}

export async function buildDocumentExplorer(input: DocumentExplorerInput): Promise<ExplorerData> {
  const { outcomes } = input;
  const records = typeof outcomes === "string" ? fileRecords(outcomes) : outcomes;
  const work = () => pageCases(input, records);
  // Only with the summary given is the work one pass or a few over the cases: a summary read from a
  // run table or a report's records passes over every (case, run), which V8's compiler does pay for.
  const short = input.summary !== undefined && input.slice.cases.length <= SHORT_CASE_WORK;
  const { scored, counts, cap, selection, runCap, shown } = short ? await unoptimized(work) : await work();
  const fromTable = typeof records !== "function";
  const attach = () => attachRuns(input, fromTable ? tableRuns(records.table) : recordRuns(records), shown, runCap, fromTable);
  // A short pick (each shown case's runs looked at once) runs unoptimized (v8-phases.ts), unless
  // its texts come from a second pass over a converted dump (a Parquet file's pages decoded again).
  const steps = shown.cases.length * (fromTable ? records.table.keys.length : runCap);
  const shortPick = steps <= SHORT_PICK_STEPS && (input.dumpPath === null || input.offsets !== undefined);
  const textsLeftOut = shortPick ? await unoptimized(attach) : await attach();
  const cases = shown.cases;
  const cut = cases.filter((c) => c.runs_total !== undefined).length;
  const notes = [
    cut > 0 ? `${cut} of them carry ${runCap} of their runs (failing runs first).` : "",
    textsLeftOut > 0 ? `The texts of ${textsLeftOut} runs are left out to keep the page small (they are in the dump).` : "",
    shown.textsOmitted > 0 ? `The text of ${shown.textsOmitted} documents is left out to keep the page small (it is in the slice).` : "",
  ].filter((note) => note !== "");
  return {
    kind: "documents",
    total: scored.length,
    shown: cases.length,
    selection: [describeSelection(scored.length, selection, cap, input.seed), ...notes].join(" "),
    rest: input.rest ?? "cases.jsonl beside this page",
    runs: input.runs.length,
    ...(input.dumpPath !== null ? { dump: input.dumpName ?? input.dumpPath } : {}),
    facets: FACETS,
    counts,
    cases,
  };
}

/**
 * The page's work on every case: the summary, the counts, which cases it shows and their views (a
 * few passes over every scored case, each once).
 */
async function pageCases(input: DocumentExplorerInput, records: ScoredTable | CaseRecords) {
  const changed = new Map((input.changes ?? []).map((c) => [c.case_id, c]));
  const given = input.summary;
  const summary =
    given !== undefined
      ? typeof given === "function"
        ? given()
        : given
      : typeof records === "function"
        ? await recordSummary(input.slice.cases.length, records)
        : tableSummary(records.cases, records.table, input.slice.cases.length);
  if (changed.size > 0) {
    const indexOfId = new Map(input.slice.cases.map((c) => [c.id, c.index]));
    for (const id of changed.keys()) {
      const index = indexOfId.get(id);
      if (index !== undefined) summary.markFailed(index);
    }
  }
  const changeOf = (i: number) => (changed.size > 0 ? changed.get(input.slice.cases[i]!.id)?.status : undefined);
  const tagsOf = (i: number) => summary.tags(i, changeOf(i));
  // Only the cases this report scored (a shard's), in slice order, and which of them failed.
  const scored = presentCases(summary.present, input.slice.cases.length);
  const failed = failedOf(summary.failed, scored);
  const counts = countScored(summary, scored, changeOf);
  const caseCap = input.caseCap ?? EXPLORER_CASE_CAP;
  const cap = explorerCap(input.runs.length, caseCap);
  const selection = selectCases(failed, cap, input.seed);
  const runCap = explorerRunsPerCase(selection.chosen.length, caseCap);
  const shown = caseViews(input, summary, scored, selection.chosen, runCap, changed, tagsOf);
  return { scored, counts, cap, selection, runCap, shown };
}

/** Cases grouped by a key: each key's first case and number of cases, in order of first cases. */
class CaseKinds<Key> {
  private readonly kindOf = new Map<Key, number>();
  readonly first: number[] = [];
  readonly size: number[] = [];

  /** The kind of the last case added, and its key (cases of a kind often come one after the other). */
  private lastKind = -1;
  private lastKey: Key | undefined;

  add(key: Key, index: number): void {
    if (key === this.lastKey && this.lastKind >= 0) {
      this.size[this.lastKind]!++;
      return;
    }
    let kind = this.kindOf.get(key);
    if (kind !== undefined) this.size[kind]!++;
    else {
      kind = this.first.length;
      this.kindOf.set(key, kind);
      this.first.push(index);
      this.size.push(1);
    }
    this.lastKind = kind;
    this.lastKey = key;
  }
}

/**
 * The filter and facet counts over the scored cases (slice indices, in slice order), as countCase
 * of each in turn gives them, keys in order of first appearance, counted per kind of case: the
 * cases with the same summary bits, reasons and change have the same tags, and the cases with one
 * facets object (CaseFacets shares them) the same facet values. Each kind's first case is counted,
 * as many times as the kind has cases; a case brings no key that its kind's first case did not
 * bring before it, so the keys come in the same order. (The GRPO bench's 37,500 cases are 7 kinds
 * of tags and one of facets.)
 */
// The two loops over every case, each in a function that is all loop: in buildDocumentExplorer,
// V8 compiled that whole function on the fly for them (16 ms of its compiler's time, --trace-opt,
// on the GRPO bench's 37,500 cases).

/** The cases `present` marks, in slice order. */
function presentCases(present: Uint8Array, caseCount: number): number[] {
  const scored: number[] = [];
  for (let i = 0; i < caseCount; i++) if (present[i]) scored.push(i);
  return scored;
}

/** Whether each of the `scored` cases failed (`failed` is by slice index). */
function failedOf(failed: Uint8Array, scored: readonly number[]): Uint8Array {
  const of = new Uint8Array(scored.length);
  for (let k = 0; k < scored.length; k++) of[k] = failed[scored[k]!]!;
  return of;
}

function countScored(summary: CaseSummary, scored: readonly number[], changeOf: (index: number) => string | undefined): ExplorerCounts {
  const tagKinds = new CaseKinds<number | string>();
  const facetKinds = new CaseKinds<Record<string, string>>();
  const anyReasons = summary.reasonsOf.size > 0;
  for (let k = 0; k < scored.length; k++) {
    const i = scored[k]!;
    const reasons = anyReasons ? summary.reasonsOf.get(i) : undefined;
    const change = changeOf(i);
    // Most cases' tags are their summary bits' alone.
    tagKinds.add(reasons === undefined && change === undefined ? summary.bits[i]! : JSON.stringify([summary.bits[i], reasons, change]), i);
    facetKinds.add(summary.facetsOf[i]!, i);
  }
  const counts = emptyCounts();
  const tags: string[] = [];
  tagKinds.first.forEach((i, kind) => {
    tags.length = 0;
    countTags(counts, summary.tagsInto(i, changeOf(i), tags), tagKinds.size[kind]!);
  });
  facetKinds.first.forEach((i, kind) => countFacets(counts, summary.facetsOf[i]!, facetKinds.size[kind]!));
  return counts;
}

/** The first pass over every record: each case's summary. */
export async function recordSummary(caseCount: number, records: CaseRecords): Promise<CaseSummary> {
  const summary = new CaseSummary(caseCount);
  await records(undefined, (line, times) => summary.add(line["case_index"], line, times, () => facetsOf(line)));
  return summary;
}

/** The chosen cases' views (no runs yet) and their slice cases (in slice order), each slice case's position among them (-1: not shown), and how many documents' texts were left out. */
interface ShownCases {
  cases: ExplorerCase[];
  sliceCases: SliceCase[];
  slot: Int32Array;
  textsOmitted: number;
}

function caseViews(
  input: DocumentExplorerInput,
  summary: CaseSummary,
  scored: readonly number[],
  chosen: readonly number[],
  runCap: number,
  changed: ReadonlyMap<string, CaseChange>,
  tagsOf: (index: number) => string[],
): ShownCases {
  const slot = new Int32Array(input.slice.cases.length).fill(-1);
  // Documents' text within EXPLORER_DOCUMENT_CHARS in all; past it, a case says its text was left out.
  let documentChars = input.documentChars ?? EXPLORER_DOCUMENT_CHARS;
  let textsOmitted = 0;
  const sliceCases = chosen.map((k) => input.slice.cases[scored[k]!]!);
  const cases: ExplorerCase[] = sliceCases.map((c, position) => {
    slot[c.index] = position;
    const size = c.sentences.reduce((sum, s) => sum + s.length, 0);
    const fits = size <= documentChars;
    if (fits) documentChars -= size;
    else textsOmitted++;
    const view: ExplorerCase = {
      id: c.id,
      tags: tagsOf(c.index),
      facets: summary.facetsOf[c.index]!,
      score: summary.score(c.index),
      doc: { label: null, sentences: fits ? c.sentences : [], gold: [], runs: [], ...(fits ? {} : { text_left_out: c.sentenceCount }) },
    };
    const change = changed.get(c.id);
    if (change !== undefined) view.change = { status: change.status, old: change.old, new: change.new };
    if (summary.runCount[c.index]! > runCap) view.runs_total = summary.runCount[c.index]!;
    return view;
  });
  return { cases, sliceCases, slot, textsOmitted };
}

/** Whether slice case `index` is one of the shown ones. */
function isShown({ slot }: ShownCases, index: number): boolean {
  return index >= 0 && index < slot.length && slot[index]! >= 0;
}

/**
 * The second pass, over the shown cases' records only: their label, gold and runs, then the runs'
 * texts from the dump (`fromTable`: the runs are an eval's, scored in this process). Returns how
 * many runs' texts were left out.
 */
async function attachRuns(input: DocumentExplorerInput, shownRuns: ShownRuns, shown: ShownCases, runCap: number, fromTable: boolean): Promise<number> {
  const { cases, sliceCases } = shown;
  const picker = new RunPicker(cases.length, runCap);
  // Each shown case's gold as its last record gives it, checked once the runs are read.
  const golds: unknown[] = new Array(cases.length);
  await shownRuns(shown, picker, (k, label, gold) => {
    cases[k]!.doc!.label = typeof label === "boolean" ? label : null;
    golds[k] = gold;
  });
  const runs: ExplorerRun[] = [];
  const caseOf: SliceCase[] = [];
  for (let k = 0; k < cases.length; k++) {
    const doc = cases[k]!.doc!;
    if (golds[k] !== undefined) doc.gold = numbers(golds[k]);
    doc.runs = picker.runs(k);
    for (let i = 0; i < doc.runs.length; i++) {
      runs.push(doc.runs[i]!);
      caseOf.push(sliceCases[k]!);
    }
  }
  const budget = { chars: EXPLORER_TEXT_CHARS, leftOut: 0 };
  if (input.dumpPath !== null) {
    const texts = () => attachTexts(runs, caseOf, input.dumpPath!, input.offsets, scoreOptionsOf(input), budget, fromTable);
    // Read by their offsets, the texts are one line per picked run, at most the page's runs: unoptimized.
    await (input.offsets !== undefined ? unoptimized(texts) : texts());
  }
  return budget.leftOut;
}

/** One run of a case as the page shows it, from a record (texts and the failure's explanation are added from the dump). */
function runOfLine(line: JsonObject): ExplorerRun {
  return pageRun(
    String(line["run"] ?? "0"),
    line["label"],
    line["format_valid"] === true,
    line["judgment"],
    line["reason"],
    numbers(line["evidence_sentence_ids"]),
    line["reward_accuracy"],
    line["reference_coverage"],
    line["localization_hit"],
    line["line"],
  );
}

/** One run of a case as the page shows it, from the fields of its record. */
function pageRun(
  run: string,
  label: unknown,
  valid: boolean,
  judgment: unknown,
  reason: unknown,
  evidence: number[],
  reward: unknown,
  coverage: unknown,
  localizationHit: unknown,
  line: unknown,
): ExplorerRun {
  const page: ExplorerRun = {
    run,
    judgment: valid && typeof judgment === "boolean" ? judgment : null,
    outcome: outcomeOf(label, valid, judgment),
    reason: typeof reason === "string" ? reason : null,
    evidence,
    reward: finiteOrNull(reward),
    coverage: finiteOrNull(coverage),
    localization_hit: typeof localizationHit === "boolean" ? localizationHit : null,
  };
  if (typeof line === "number") page.line = line;
  else if (page.reason === "missing_prediction") page.message = "no prediction for this case in this run";
  return page;
}

export interface OldSideInput {
  /** OLD's cases.jsonl. */
  casesPath: string;
  /** Where its cases' lines are, when noted as it was read (only the changed cases are then read again). */
  ranges?: CaseRanges;
  /** OLD's dump, when it is still readable (texts are skipped otherwise), and how the page names it. */
  dumpPath: string | null;
  dumpName?: string;
  /** The slice both sides were scored on (null for different slices: no failure messages for OLD). */
  slice: DocumentSlice | null;
  lenientIds?: boolean;
  completionEnd?: CompletionEndRule;
  caseCap?: number;
}

/** The scorer's options a run was scored with, for re-scoring a failed line's message. */
function scoreOptionsOf(input: { lenientIds?: boolean; completionEnd?: CompletionEndRule }): ScoreOptions {
  return { lenientIds: input.lenientIds ?? false, ...(input.completionEnd ? { completionEnd: input.completionEnd } : {}) };
}

/**
 * diff.html: OLD's runs of each changed case the page carries, shown beside NEW's (the same share of
 * runs per case, failing runs first; texts from OLD's dump within what is left of the text budget).
 */
export async function attachOldRuns(data: ExplorerData, old: OldSideInput): Promise<void> {
  const slotOf = new Map<string, number>();
  const changedCases = data.cases.filter((c) => c.change !== undefined && c.doc !== undefined);
  changedCases.forEach((c, k) => slotOf.set(c.id, k));
  if (changedCases.length === 0) return;
  const picker = new RunPicker(changedCases.length, explorerRunsPerCase(data.shown, old.caseCap ?? EXPLORER_CASE_CAP));
  const totals = new Int32Array(changedCases.length);
  const take = (item: CaseItem): void => {
    if (!("record" in item)) return;
    const k = slotOf.get(String(item.record["case_id"]));
    if (k === undefined) return;
    totals[k]!++;
    const record = item.record;
    picker.offer(k, lineFails(record), 1, () => runOfLine(record));
  };
  const ranges = old.ranges;
  if (ranges !== undefined && !ranges.scattered) {
    const slots = changedCases.flatMap((c) => {
      const slot = ranges.slot(c.id);
      return slot !== undefined ? [slot] : [];
    });
    await readCaseSegments(old.casesPath, ranges, slots, take);
  } else for await (const item of readDocumentCases(old.casesPath)) take(item);
  const indexOfId = old.slice ? new Map(old.slice.cases.map((c) => [c.id, c])) : undefined;
  const oldRuns: ExplorerRun[] = [];
  const caseOf: Array<SliceCase | undefined> = [];
  changedCases.forEach((c, k) => {
    const runs = picker.runs(k);
    c.doc!.old_runs = runs;
    if (totals[k]! > runs.length) c.doc!.old_runs_total = totals[k]!;
    for (const run of runs) {
      oldRuns.push(run);
      caseOf.push(indexOfId?.get(c.id));
    }
  });
  if (old.dumpPath !== null) {
    data.old_dump = old.dumpName ?? old.dumpPath;
    const used = data.cases.reduce((sum, c) => sum + (c.doc?.runs ?? []).reduce((s, r) => s + (r.reasoning?.length ?? 0) + (r.raw?.length ?? 0), 0), 0);
    await attachTexts(oldRuns, caseOf, old.dumpPath, undefined, scoreOptionsOf(old), { chars: EXPLORER_TEXT_CHARS - used, leftOut: 0 }, false);
  }
}
