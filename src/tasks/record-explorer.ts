// The case explorer's data for tasks whose cases.jsonl line already holds everything the page shows
// (pairs: both texts, the verdict, the classifier's reason and cost; evidence: the facts, quotes,
// error code and claim states): the chosen lines go into the page as they are.
import type { JsonObject } from "../io/records.js";
import { readCaseLineItems } from "../report/document-cases.js";
import { countCase, describeSelection, emptyCounts, explorerCap, selectCases, type ExplorerCase, type ExplorerData } from "../report/explorer.js";
import type { CaseChange } from "../gates/changes.js";

export interface RecordExplorerKind {
  kind: "pairs" | "evidence";
  facets: string[];
  id(line: JsonObject): string | null;
  failed(line: JsonObject): boolean;
  tags(line: JsonObject): string[];
  score(line: JsonObject): number | null;
}

/** The JSON object lines of a cases.jsonl file (others are skipped: the task wrote the file). */
export async function* readCaseRecords(path: string): AsyncGenerator<JsonObject> {
  for await (const item of readCaseLineItems(path)) if ("record" in item) yield item.record;
}

export const PAIR_EXPLORER: RecordExplorerKind = {
  kind: "pairs",
  facets: ["gold", "class", "kind", "domain"],
  id: (line) => (typeof line["id"] === "string" ? line["id"] : null),
  failed: (line) => typeof line["gold"] === "string" && line["gold"] !== line["class"],
  tags: (line) =>
    typeof line["gold"] !== "string"
      ? ["unlabelled"]
      : line["gold"] === line["class"]
        ? ["correct"]
        : ["wrong", `wrong:${line["gold"]}→${String(line["class"])}`],
  // "Sort by reward" for pairs: a lower RevisionCost is better.
  score: (line) => (typeof line["cost"] === "number" ? -line["cost"] : null),
};

/**
 * An evidence line's tags: accepted or rejected, its error code, and each distinct `field` value of
 * its `list` entries (facts: `state:supported`; located issues: `issue:quote_mismatch`).
 */
function acceptanceTags(line: JsonObject, list: "facts" | "issues", field: "state" | "kind"): string[] {
  const tags = [line["accepted"] === true ? "accepted" : "rejected"];
  const error = line["error"] as JsonObject | null | undefined;
  if (error && typeof error["code"] === "string") tags.push(`error:${error["code"]}`);
  const entries = Array.isArray(line[list]) ? (line[list] as JsonObject[]) : [];
  const prefix = list === "facts" ? "state" : "issue";
  for (const value of new Set(entries.map((e) => e[field]).filter((v) => typeof v === "string"))) tags.push(`${prefix}:${value}`);
  return tags;
}

export const EVIDENCE_EXPLORER: RecordExplorerKind = {
  kind: "evidence",
  facets: ["freshness"],
  id: (line) => (typeof line["case_id"] === "string" ? line["case_id"] : null),
  failed: (line) =>
    line["accepted"] !== true || (Array.isArray(line["gold"]) && line["gold"].some((g) => (g as JsonObject)["gold"] !== (g as JsonObject)["predicted"])),
  tags: (line) => acceptanceTags(line, "facts", "state"),
  score: (line) => {
    const facts = Array.isArray(line["facts"]) ? (line["facts"] as JsonObject[]) : [];
    const grounding = facts.map((f) => f["grounding"]).filter((g): g is number => typeof g === "number");
    return grounding.length ? grounding.reduce((a, b) => a + b, 0) / grounding.length : null;
  },
};

/** A case line's tags (its outcome, "failure", its change against the older report) and facet values. */
function tagsAndFacets(spec: RecordExplorerKind, line: JsonObject, change: CaseChange | undefined): { tags: string[]; facets: Record<string, string> } {
  const tags = spec.tags(line);
  if (spec.failed(line)) tags.push("failure");
  if (change !== undefined) tags.push(change.status);
  const facets: Record<string, string> = {};
  for (const facet of spec.facets) {
    const v = line[facet];
    if (typeof v === "string" || typeof v === "number") facets[facet] = String(v);
  }
  return { tags, facets };
}

/**
 * Which cases fail and the filter counts, gathered one case line at a time (every case, including
 * those the page will not carry); `add` takes the line, or the fields of it that `spec` reads.
 */
export class RecordExplorerTally {
  readonly failed: number[] = [];
  readonly counts = emptyCounts();
  private readonly changed: Map<string, CaseChange>;
  constructor(
    private readonly spec: RecordExplorerKind,
    changes: readonly CaseChange[] = [],
  ) {
    this.changed = new Map(changes.map((c) => [c.case_id, c]));
  }
  add(line: JsonObject, id: string): void {
    const change = this.changed.get(id);
    this.failed.push(this.spec.failed(line) || change?.status === "regressed" ? 1 : 0);
    const { tags, facets } = tagsAndFacets(this.spec, line, change);
    countCase(this.counts, tags, facets);
  }
}

/** `mari evidence --located`: each located.jsonl line (a case's citations and the issues found with them). */
export const LOCATED_EXPLORER: RecordExplorerKind = {
  kind: "evidence",
  facets: [],
  id: (line) => (typeof line["case_id"] === "string" ? line["case_id"] : null),
  failed: (line) => line["accepted"] !== true,
  tags: (line) => acceptanceTags(line, "issues", "kind"),
  // "Sort by reward": the share of the case's citations that hold.
  score: (line) => (typeof line["items"] === "number" && line["items"] > 0 && typeof line["valid"] === "number" ? line["valid"] / line["items"] : null),
};

export async function buildRecordExplorer(
  spec: RecordExplorerKind,
  casesPath: string,
  opts: { seed: number; changes?: readonly CaseChange[]; rest?: string; caseCap?: number },
): Promise<ExplorerData> {
  const tally = new RecordExplorerTally(spec, opts.changes);
  for await (const line of readCaseRecords(casesPath)) {
    const id = spec.id(line);
    if (id !== null) tally.add(line, id);
  }
  return recordExplorerOf(spec, tally, opts, async function* (chosen) {
    let position = 0;
    for await (const line of readCaseRecords(casesPath)) {
      if (spec.id(line) !== null && chosen.has(position++)) yield line;
    }
  });
}

/**
 * The explorer of cases already tallied (the i-th line with an id is case i): `chosenLines` yields
 * the lines at the chosen positions, in order.
 */
export async function recordExplorerOf(
  spec: RecordExplorerKind,
  tally: RecordExplorerTally,
  opts: { seed: number; changes?: readonly CaseChange[]; rest?: string; caseCap?: number },
  chosenLines: (chosen: ReadonlySet<number>) => AsyncIterable<JsonObject>,
): Promise<ExplorerData> {
  const changed = new Map((opts.changes ?? []).map((c) => [c.case_id, c]));
  const cap = explorerCap(1, opts.caseCap);
  const failed = Uint8Array.from(tally.failed);
  const selection = selectCases(failed, cap, opts.seed);
  const cases: ExplorerCase[] = [];
  for await (const line of chosenLines(new Set(selection.chosen))) {
    const id = spec.id(line)!;
    const change = changed.get(id);
    const { tags, facets } = tagsAndFacets(spec, line, change);
    const view: ExplorerCase = { id, tags, facets, score: spec.score(line), record: line };
    if (change !== undefined) view.change = { status: change.status, old: change.old, new: change.new };
    cases.push(view);
  }
  return {
    kind: spec.kind,
    total: failed.length,
    shown: cases.length,
    selection: describeSelection(failed.length, selection, cap, opts.seed),
    rest: opts.rest ?? "cases.jsonl beside this page",
    runs: 1,
    facets: spec.facets,
    counts: tally.counts,
    cases,
  };
}
