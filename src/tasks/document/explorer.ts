// The documents case explorer's data: the scored outcomes (of an eval, its run table in memory; of
// a finished report (diff.html), its cases.jsonl through its one reader,
// src/report/document-cases.ts) gone over twice, once to find the failures and choose the cases,
// once to gather the chosen ones; the slice's sentences, and the chosen dump lines: their reasoning
// and, for a format-invalid run, what the model said and why the scorer refused it. Built only when
// report.html (or diff.html) is written.
import { describe } from "../../io/dump.js";
import { isJsonObject, type JsonObject } from "../../io/records.js";
import {
  absentRunLine,
  type CaseHeader,
  type CaseItem,
  expandRunLine,
  matchedEvidence,
  readDocumentCases,
  decideRun,
  newRunDecision,
  runLineDecides,
} from "../../report/document-cases.js";
import { type CaseRanges, readCaseSegments } from "../../report/case-ranges.js";
import { CaseSummary, FACETS, facetsOf, finiteOrNull, OUTCOMES, outcomeIndex, runFails } from "../../report/explorer-summary.js";
import type { DocumentSlice, SliceCase } from "../../io/slice.js";
import {
  countCase,
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
  type ExplorerData,
  type ExplorerRun,
  type GivenField,
} from "../../report/explorer.js";
import type { CaseChange } from "../../gates/changes.js";
import { readDumpTexts } from "./dump-texts.js";
import type { LineOffsets } from "./line-offsets.js";
import type { RunTable } from "./run-table.js";
import { CASE_REASONS, scoreCase, type ScoreOptions } from "./score.js";
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

/**
 * The records of an eval's run table, equal to those its cases.jsonl gives back (the same case line
 * and run line expanded by the same reader functions), without reading the file: the scored cases
 * in slice order, each run in run order, absent cells in streaks. A wanted case's runs are read
 * from the table's cells, run by run: no grouping of every kept line by case for the few cases the
 * page shows.
 */
export function tableRecords(cases: readonly SliceCase[], table: RunTable): CaseRecords {
  return async (want, visit) => {
    const R = table.keys.length;
    for (const c of cases) {
      if (want !== undefined && !want(c.index)) continue;
      const header = headerOf(c);
      const absent = (r: number) => expandRunLine(header, absentRunLine(table.keys[r]!)) as JsonObject;
      // The absent runs from … to − 1, as one streak.
      const gap = (from: number, to: number) => {
        if (to > from) visit(absent(from), to - from, (t) => absent(from + t));
      };
      let next = 0;
      for (let r = 0; r < R; r++) {
        const e = table.entry(r, c.index);
        if (e < 0) continue;
        gap(next, r);
        const reason = CASE_REASONS[table.reason[e]!]!;
        // The run line's fields set one by one (a conditional spread per run cost more than the rest of it).
        const runLine: JsonObject = { run: table.keys[r]!, line: table.line[e]!, judgment: table.judgment[e] === 1 };
        if (reason !== null) runLine["reason"] = reason;
        runLine["evidence_sentence_ids"] = table.evidenceOf(r, c.index);
        runLine["reference_coverage"] = table.coverage[e]!;
        const record = expandRunLine(header, runLine) as JsonObject;
        visit(record, 1, () => record);
        next = r + 1;
      }
      gap(next, R);
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
    sentence_count: c.sentences.length,
    scope: c.scope,
    doc_type: c.docType,
    contra_type: c.contraType,
    fields: Object.keys(c.extra).length > 0 ? JSON.parse(JSON.stringify(c.extra)) : {},
  };
}

/**
 * The summary `tableRecords` gives (recordSummary of its records), read from the run table's
 * columns: no record built for any run. Each kept line's derived fields come from the same
 * functions its expanded record's come from (runLineDecides is matchedEvidence, then decideRun).
 * Each case gets its runs in run order either way: a table with a kept line in most cells is read
 * run by run (the order a dump written run after run lays its columns out in), a sparse one case
 * by case through its kept lines, each case's absent runs one streak between them.
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
  const headers = cases.map(headerOf);
  const facets = headers.map((header) => () => facetsOf(header as unknown as Record<string, unknown>));
  const absent = headers.map((header) => runLineDecides(header, false, false, [], 0));
  // Case k's kinds of kept line are kindStart[k] + (judgment · REASONS + reason) · (gold + 1) + matched;
  // the reward of each kind met so far (NaN: not met yet), and whether an absent run was met.
  // Kept only while the table is no larger than the cells it serves (a few runs a case: none).
  const REASONS = CASE_REASONS.length;
  const kindStart = new Int32Array(cases.length + 1);
  cases.forEach((c, k) => (kindStart[k + 1] = kindStart[k]! + 2 * REASONS * (c.gold.length + 1)));
  const remember = kindStart[cases.length]! <= R * cases.length;
  const kindReward = new Float64Array(remember ? kindStart[cases.length]! : 0).fill(Number.NaN);
  const absentMet = new Uint8Array(cases.length);
  const addAbsent = (k: number, times: number): void => {
    const a = absent[k]!;
    if (absentMet[k]) {
      summary.addRepeat(cases[k]!.index, finiteOrNull(a.rewardAccuracy), times);
      return;
    }
    absentMet[k] = 1;
    summary.addFields(
      cases[k]!.index,
      headers[k]!.label,
      false,
      false,
      a.correct,
      a.loc.localization_hit,
      "missing_prediction",
      a.rewardAccuracy,
      times,
      facets[k]!,
    );
  };
  const addKept = (k: number, e: number): void => {
    const coverage = table.coverage[e]!;
    // A kept line the reader would refuse (no line number, a coverage that is not a number) gives no record there.
    if (table.line[e]! < 1 || !Number.isFinite(coverage)) return;
    const header = headers[k]!;
    const reasonIdx = table.reason[e]!;
    const judgment = table.judgment[e] === 1;
    const from = table.evStart[e]!;
    const count = table.evLength[e]!;
    const matched = matchedEvidence(header.goldSet, ids, from, from + count);
    const kind = kindStart[k]! + ((judgment ? REASONS : 0) + reasonIdx) * (header.gold.length + 1) + matched;
    const met = remember && matched <= header.gold.length && kind < kindStart[k + 1]!;
    if (met && !Number.isNaN(kindReward[kind]!)) {
      summary.addRepeat(cases[k]!.index, kindReward[kind]!, 1);
      return;
    }
    const reason = CASE_REASONS[reasonIdx]!;
    const decided = decideRun(decision, header, judgment, reason === null, count, matched, coverage);
    if (met && Number.isFinite(decided.rewardAccuracy)) kindReward[kind] = decided.rewardAccuracy;
    summary.addFields(
      cases[k]!.index,
      header.label,
      judgment,
      reason === null,
      decided.correct,
      decided.localizationHit,
      reason,
      decided.rewardAccuracy,
      1,
      facets[k]!,
    );
  };
  if (2 * table.entries >= R * cases.length) {
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
  cases.forEach((c, k) => {
    let next = 0;
    for (let x = byCase.start[c.index]!; x < byCase.start[c.index + 1]!; x++) {
      const e = byCase.entries[x]!;
      const r = table.entryRun[e]!;
      if (r > next) addAbsent(k, r - next);
      next = r + 1;
      addKept(k, e);
    }
    if (R > next) addAbsent(k, R - next);
  });
  return summary;
}

export interface DocumentExplorerInput {
  /** The scored records: `tableRecords` of an eval, or the cases.jsonl of a finished report. */
  records: CaseRecords | string;
  /** What the records say per case when it is known already (`tableSummary`, or read with the paired side); else read from `records`. */
  summary?: CaseSummary;
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
 * What a format-invalid dump line said, field by field as written (the field its reason is about
 * marked), and the scorer's message for it, found by scoring the line again with the same function.
 */
function explainFailure(c: SliceCase, record: JsonObject, reason: string, options: ScoreOptions): { message: string | undefined; given: GivenField[] } {
  const message = scoreCase(c, record, options).message ?? undefined;
  const nested = record["prediction"];
  if (nested !== undefined && !isJsonObject(nested)) return { message, given: [{ field: "prediction", value: describe(nested, GIVEN_CHARS), bad: true }] };
  const source = isJsonObject(nested) ? nested : record;
  // A completion's fields are inside its text, shown whole as the raw completion.
  if (!Object.hasOwn(source, "judgment") && typeof source["completion"] === "string") return { message, given: [] };
  const bad = FIELD_OF_REASON[reason] ?? "error";
  const fields = ["judgment", Object.hasOwn(source, "evidence_sentence_ids") ? "evidence_sentence_ids" : "evidence", "error"];
  // The reasoning is shown in full below the table when it is text; here only when it is the problem and not text.
  if (bad === "reasoning" && typeof source["reasoning"] !== "string") fields.push("reasoning");
  const given = fields
    .filter((field) => Object.hasOwn(source, field) || field === bad)
    .map((field) => ({ field, value: describe(source[field], GIVEN_CHARS), bad: field === bad || (bad === "evidence_sentence_ids" && field === "evidence") }));
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
  private readonly kept: Array<{ failing: ExplorerRun[]; passing: ExplorerRun[] }>;
  private readonly order = new Map<ExplorerRun, number>();
  constructor(
    cases: number,
    private readonly cap: number,
  ) {
    this.kept = Array.from({ length: cases }, () => ({ failing: [], passing: [] }));
  }
  /** Offers `times` runs that share the outcome of `line` (the t-th's record is `recordAt(t)`). */
  offer(k: number, line: JsonObject, times = 1, recordAt: (t: number) => JsonObject = () => line): void {
    const into = this.kept[k]!;
    const list = lineFails(line) ? into.failing : into.passing;
    for (let t = 0; t < times && list.length < this.cap; t++) {
      const run = runOfLine(recordAt(t));
      list.push(run);
      this.order.set(run, this.order.size);
    }
  }
  runs(k: number): ExplorerRun[] {
    const { failing, passing } = this.kept[k]!;
    const passingKept = Math.max(0, this.cap - failing.length);
    // Both lists are in the order their runs were offered: merged, not sorted (a sort asked the
    // order Map twice a comparison).
    const runs: ExplorerRun[] = [];
    let f = 0;
    let p = 0;
    while (f < failing.length && p < passingKept && p < passing.length) {
      runs.push(this.order.get(failing[f]!)! < this.order.get(passing[p]!)! ? failing[f++]! : passing[p++]!);
    }
    while (f < failing.length) runs.push(failing[f++]!);
    while (p < passingKept && p < passing.length) runs.push(passing[p++]!);
    return runs;
  }
}

/**
 * Adds each run's texts from the dump (reasoning, raw text; for a format-invalid run, what it said
 * and the scorer's message), within the page's text budget; `sliceCase` undefined: no message.
 */
async function attachTexts(
  runs: ReadonlyArray<readonly [ExplorerRun, SliceCase | undefined]>,
  dumpPath: string,
  offsets: LineOffsets | undefined,
  options: ScoreOptions,
  budget: { chars: number; leftOut: number },
): Promise<void> {
  const texts = await readDumpTexts(
    dumpPath,
    runs.flatMap(([run]) => (run.line !== undefined ? [run.line] : [])),
    offsets,
  );
  for (const [run, sliceCase] of runs) {
    const t = run.line !== undefined ? texts.get(run.line) : undefined;
    if (t === undefined) continue;
    const size = (t.reasoning?.length ?? 0) + (t.raw?.length ?? 0);
    if (size > 0 && budget.chars <= 0) {
      budget.leftOut++;
      continue;
    }
    budget.chars -= Math.min(size, 2 * EXPLORER_TEXT_CHARS_EACH);
    if (t.reasoning !== undefined) run.reasoning = pageText(t.reasoning);
    if (t.raw !== undefined) run.raw = pageText(t.raw);
    if (run.reason !== null && t.record !== undefined && sliceCase !== undefined) {
      const failure = explainFailure(sliceCase, t.record, run.reason, options);
      if (failure.message !== undefined) run.message = failure.message;
      if (failure.given.length > 0) run.given = failure.given;
    }
  }
}

export async function buildDocumentExplorer(input: DocumentExplorerInput): Promise<ExplorerData> {
  const changed = new Map((input.changes ?? []).map((c) => [c.case_id, c]));
  const records = typeof input.records === "string" ? fileRecords(input.records) : input.records;
  const summary = input.summary ?? (await recordSummary(input.slice.cases.length, records));
  const indexOfId = new Map(input.slice.cases.map((c) => [c.id, c.index]));
  for (const id of changed.keys()) {
    const index = indexOfId.get(id);
    if (index !== undefined) summary.markFailed(index);
  }
  const tagsOf = (i: number) => summary.tags(i, changed.get(input.slice.cases[i]!.id)?.status);
  // Only the cases this report scored (a shard's), in slice order; every one counted for the filters.
  const scored: number[] = [];
  const counts = emptyCounts();
  for (let i = 0; i < input.slice.cases.length; i++) {
    if (!summary.present[i]) continue;
    scored.push(i);
    countCase(counts, tagsOf(i), summary.facetsOf[i]!);
  }
  const caseCap = input.caseCap ?? EXPLORER_CASE_CAP;
  const cap = explorerCap(input.runs.length, caseCap);
  const selection = selectCases(
    Uint8Array.from(scored, (i) => summary.failed[i]!),
    cap,
    input.seed,
  );
  const runCap = explorerRunsPerCase(selection.chosen.length, caseCap);
  const shown = caseViews(input, summary, scored, selection.chosen, runCap, changed, tagsOf);
  const textsLeftOut = await attachRuns(input, records, shown, runCap, indexOfId);
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

/** The first pass over every record: each case's summary. */
export async function recordSummary(caseCount: number, records: CaseRecords): Promise<CaseSummary> {
  const summary = new CaseSummary(caseCount);
  await records(undefined, (line, times) => summary.add(line["case_index"], line, times, () => facetsOf(line)));
  return summary;
}

/** The chosen cases' views (no runs yet), each slice case's position among them (-1: not shown), and how many documents' texts were left out. */
interface ShownCases {
  cases: ExplorerCase[];
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
  const cases: ExplorerCase[] = chosen.map((k, position) => {
    const c = input.slice.cases[scored[k]!]!;
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
      doc: { label: null, sentences: fits ? c.sentences : [], gold: [], runs: [], ...(fits ? {} : { text_left_out: c.sentences.length }) },
    };
    const change = changed.get(c.id);
    if (change !== undefined) view.change = { status: change.status, old: change.old, new: change.new };
    if (summary.runCount[c.index]! > runCap) view.runs_total = summary.runCount[c.index]!;
    return view;
  });
  return { cases, slot, textsOmitted };
}

/** The second pass, over the shown cases' records only: their label, gold and runs, then the runs' texts from the dump. Returns how many runs' texts were left out. */
async function attachRuns(
  input: DocumentExplorerInput,
  records: CaseRecords,
  shown: ShownCases,
  runCap: number,
  indexOfId: ReadonlyMap<string, number>,
): Promise<number> {
  const { cases, slot } = shown;
  const caseCount = input.slice.cases.length;
  const picker = new RunPicker(cases.length, runCap);
  const chosen = (index: number) => index >= 0 && index < caseCount && slot[index]! >= 0;
  await records(chosen, (line, times, recordAt) => {
    const index = line["case_index"];
    if (typeof index !== "number" || !chosen(index)) return;
    const doc = cases[slot[index]!]!.doc!;
    doc.label = typeof line["label"] === "boolean" ? line["label"] : null;
    doc.gold = numbers(line["gold_sentence_ids"]);
    picker.offer(slot[index]!, line, times, recordAt);
  });
  const withCase: Array<[ExplorerRun, SliceCase]> = [];
  cases.forEach((view, k) => {
    view.doc!.runs = picker.runs(k);
    for (const run of view.doc!.runs) withCase.push([run, input.slice.cases[indexOfId.get(view.id)!]!]);
  });
  const budget = { chars: EXPLORER_TEXT_CHARS, leftOut: 0 };
  if (input.dumpPath !== null) await attachTexts(withCase, input.dumpPath, input.offsets, scoreOptionsOf(input), budget);
  return budget.leftOut;
}

/** One run of a case as the page shows it (texts and the failure's explanation are added from the dump). */
function runOfLine(line: JsonObject): ExplorerRun {
  const valid = line["format_valid"] === true;
  const run: ExplorerRun = {
    run: String(line["run"] ?? "0"),
    judgment: valid && typeof line["judgment"] === "boolean" ? line["judgment"] : null,
    outcome: outcomeOf(line["label"], valid, line["judgment"]),
    reason: typeof line["reason"] === "string" ? line["reason"] : null,
    evidence: numbers(line["evidence_sentence_ids"]),
    reward: finiteOrNull(line["reward_accuracy"]),
    coverage: finiteOrNull(line["reference_coverage"]),
    localization_hit: typeof line["localization_hit"] === "boolean" ? line["localization_hit"] : null,
  };
  if (typeof line["line"] === "number") run.line = line["line"];
  else if (run.reason === "missing_prediction") run.message = "no prediction for this case in this run";
  return run;
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
    picker.offer(k, item.record);
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
  const withCase: Array<[ExplorerRun, SliceCase | undefined]> = [];
  changedCases.forEach((c, k) => {
    const runs = picker.runs(k);
    c.doc!.old_runs = runs;
    if (totals[k]! > runs.length) c.doc!.old_runs_total = totals[k]!;
    for (const run of runs) withCase.push([run, indexOfId?.get(c.id)]);
  });
  if (old.dumpPath !== null) {
    data.old_dump = old.dumpName ?? old.dumpPath;
    const used = data.cases.reduce((sum, c) => sum + (c.doc?.runs ?? []).reduce((s, r) => s + (r.reasoning?.length ?? 0) + (r.raw?.length ?? 0), 0), 0);
    await attachTexts(withCase, old.dumpPath, undefined, scoreOptionsOf(old), { chars: EXPLORER_TEXT_CHARS - used, leftOut: 0 });
  }
}
