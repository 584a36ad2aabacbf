// The documents case explorer's data: cases.jsonl (the scored outcomes, read twice through its one
// reader, src/report/document-cases.ts: once to find the failures and choose the cases, once to
// gather the chosen ones), the slice's sentences, and the reasoning of the chosen dump lines.
// Built only when report.html is written.
import type { JsonObject } from "../../io/records.js";
import { readDocumentCases } from "../../report/document-cases.js";
import type { DocumentSlice } from "../../io/slice.js";
import { describeSelection, explorerCap, selectCases, type ExplorerCase, type ExplorerData, type ExplorerRun } from "../../report/explorer.js";
import type { CaseChange } from "../diff/changes.js";
import { readDumpTexts } from "./dump-texts.js";
import type { LineOffsets } from "./line-offsets.js";

export interface DocumentExplorerInput {
  casesPath: string;
  slice: DocumentSlice;
  /** The dump the cases.jsonl lines' `line` numbers point into (texts are skipped when it is null). */
  dumpPath: string | null;
  offsets?: LineOffsets;
  runs: string[];
  seed: number;
  /** Cases that changed against a baseline (tagged and counted as failures). */
  changes?: readonly CaseChange[];
  /** Where every case is, for the page ("cases.jsonl beside this page"). */
  rest?: string;
  cap?: number;
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
        // Several contra_types: one facet value naming them all.
        else if (Array.isArray(v)) view.facets[facet] = v.map(String).join(", ");
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
    if (typeof line["line"] === "number") lineOfRun.push([run, line["line"]]);
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
    facets: FACETS,
    cases,
  };
}
