// The documents case explorer's data: cases.jsonl (the scored outcomes, read twice through its one
// reader, src/report/document-cases.ts: once to find the failures and choose the cases, once to
// gather the chosen ones), the slice's sentences, and the chosen dump lines: their reasoning and,
// for a format-invalid run, what the model said and why the scorer refused it. Built only when
// report.html (or diff.html) is written.
import { describe } from "../../io/dump.js";
import { isJsonObject, type JsonObject } from "../../io/records.js";
import { readDocumentCases } from "../../report/document-cases.js";
import type { DocumentSlice, SliceCase } from "../../io/slice.js";
import { describeSelection, explorerCap, selectCases, type ExplorerCase, type ExplorerData, type ExplorerRun, type GivenField } from "../../report/explorer.js";
import type { CaseChange } from "../diff/changes.js";
import { readDumpTexts } from "./dump-texts.js";
import type { LineOffsets } from "./line-offsets.js";
import { scoreCase } from "./score.js";

export interface DocumentExplorerInput {
  casesPath: string;
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
  cap?: number;
  /** As the run was scored (`--lenient-ids`), so a failed run's message is the scorer's. */
  lenientIds?: boolean;
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
function explainFailure(c: SliceCase, record: JsonObject, reason: string, lenientIds: boolean): { message: string | undefined; given: GivenField[] } {
  const message = scoreCase(c, record, { lenientIds }).message ?? undefined;
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

const FACETS = ["scope", "doc_type", "contra_type"];

function outcomeOf(label: unknown, valid: boolean, judgment: unknown): string {
  if (!valid || typeof judgment !== "boolean") return "invalid";
  if (label === true) return judgment ? "tp" : "fn";
  return judgment ? "fp" : "tn";
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A line fails when its judgment is wrong, it is format-invalid or it missed the gold sentences. */
function lineFails(line: JsonObject): boolean {
  return line["judgment_correct"] !== true || line["format_valid"] !== true || line["localization_hit"] === false;
}

export async function buildDocumentExplorer(input: DocumentExplorerInput): Promise<ExplorerData> {
  const n = input.slice.cases.length;
  const changed = new Map((input.changes ?? []).map((c) => [c.case_id, c]));
  const indexOfId = new Map(input.slice.cases.map((c) => [c.id, c.index]));
  const present = new Uint8Array(n);
  const failed = new Uint8Array(n);
  for await (const item of readDocumentCases(input.casesPath)) {
    const index = "record" in item ? item.record["case_index"] : undefined;
    if (typeof index !== "number" || index < 0 || index >= n) continue;
    present[index] = 1;
    if (lineFails((item as { record: JsonObject }).record)) failed[index] = 1;
  }
  for (const id of changed.keys()) {
    const index = indexOfId.get(id);
    if (index !== undefined) failed[index] = 1;
  }
  // Only the cases this report scored (a shard's), in slice order.
  const scored: number[] = [];
  for (let i = 0; i < n; i++) if (present[i]) scored.push(i);
  const cap = input.cap ?? explorerCap(input.runs.length);
  const selection = selectCases(
    Uint8Array.from(scored, (i) => failed[i]!),
    cap,
    input.seed,
  );
  const slot = new Int32Array(n).fill(-1);
  const cases: ExplorerCase[] = selection.chosen.map((k, position) => {
    const c = input.slice.cases[scored[k]!]!;
    slot[c.index] = position;
    return { id: c.id, tags: [], facets: {}, score: null, doc: { label: null, sentences: c.sentences, gold: [], runs: [] } };
  });
  const lineOfRun: Array<[ExplorerRun, number]> = [];
  const caseOfRun = new Map<ExplorerRun, number>();
  // Only the chosen cases' run lines are parsed.
  const chosen = (index: number) => index >= 0 && index < n && slot[index]! >= 0;
  for await (const item of readDocumentCases(input.casesPath, { want: chosen })) {
    if (!("record" in item)) continue;
    const line = item.record;
    const index = line["case_index"];
    if (typeof index !== "number" || !chosen(index)) continue;
    const view = cases[slot[index]!]!;
    const doc = view.doc!;
    if (doc.runs.length === 0) {
      doc.label = typeof line["label"] === "boolean" ? line["label"] : null;
      doc.gold = numbers(line["gold_sentence_ids"]);
      for (const facet of FACETS) {
        const v = line[facet];
        if (typeof v === "string" || typeof v === "number") view.facets[facet] = String(v);
      }
    }
    const valid = line["format_valid"] === true;
    const run: ExplorerRun = {
      run: String(line["run"] ?? "0"),
      judgment: valid && typeof line["judgment"] === "boolean" ? line["judgment"] : null,
      outcome: outcomeOf(line["label"], valid, line["judgment"]),
      reason: typeof line["reason"] === "string" ? line["reason"] : null,
      evidence: numbers(line["evidence_sentence_ids"]),
      reward: num(line["reward_accuracy"]),
      coverage: num(line["reference_coverage"]),
      localization_hit: typeof line["localization_hit"] === "boolean" ? line["localization_hit"] : null,
    };
    doc.runs.push(run);
    if (typeof line["line"] === "number") {
      run.line = line["line"];
      lineOfRun.push([run, line["line"]]);
    } else if (run.reason === "missing_prediction") {
      run.message = "no prediction for this case in this run";
    }
    caseOfRun.set(run, index);
  }
  if (input.dumpPath !== null) {
    const texts = await readDumpTexts(
      input.dumpPath,
      lineOfRun.map(([, lineNo]) => lineNo),
      input.offsets,
    );
    for (const [run, lineNo] of lineOfRun) {
      const t = texts.get(lineNo);
      if (t?.reasoning !== undefined) run.reasoning = t.reasoning;
      if (t?.raw !== undefined) run.raw = t.raw;
      if (run.reason !== null && t?.record !== undefined) {
        const failure = explainFailure(input.slice.cases[caseOfRun.get(run)!]!, t.record, run.reason, input.lenientIds ?? false);
        if (failure.message !== undefined) run.message = failure.message;
        if (failure.given.length > 0) run.given = failure.given;
      }
    }
  }
  for (const view of cases) {
    const runs = view.doc!.runs;
    const tags = new Set<string>();
    for (const r of runs) {
      tags.add(r.outcome);
      if (r.reason !== null) tags.add(`invalid:${r.reason}`);
      if (r.localization_hit === false) tags.add("loc_miss");
    }
    const judgments = new Set(runs.filter((r) => r.judgment !== null).map((r) => r.judgment));
    if (judgments.size > 1) tags.add("flipped");
    const change = changed.get(view.id);
    if (change !== undefined) {
      tags.add(change.status);
      view.change = { status: change.status, old: change.old, new: change.new };
    }
    if (
      runs.some((r) => r.outcome === "fp" || r.outcome === "fn" || r.outcome === "invalid" || r.localization_hit === false) ||
      change?.status === "regressed" ||
      change?.status === "mixed"
    )
      tags.add("failure");
    view.tags = [...tags];
    const rewards = runs.map((r) => r.reward).filter((v): v is number => v !== null);
    view.score = rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : null;
  }
  return {
    kind: "documents",
    total: scored.length,
    shown: cases.length,
    selection: describeSelection(scored.length, selection, cap, input.seed),
    rest: input.rest ?? "cases.jsonl beside this page",
    runs: input.runs,
    ...(input.dumpPath !== null ? { dump: input.dumpName ?? input.dumpPath } : {}),
    facets: FACETS,
    cases,
  };
}
