// Resolves and scores the items of one reward request against a loaded slice with exactly the
// functions `mari eval` uses for a dump line: the case id and run key readers of src/io/dump.ts,
// then `scoreCase` (completion end, prediction extraction, validation, rewards). An item is first
// resolved to a case (its case id or label, else the tagged document in its prompt) and, for
// /get_reward, to the response inside its query; an item that cannot be resolved makes the request
// fail with every such item listed, so a trainer never trains on a silent 0.
import { dumpCaseId, dumpRunKey, readFieldTooDeep, runKeyProblem } from "../io/dump.js";
import { isJsonObject, nullAsAbsent, type JsonObject } from "../io/records.js";
import type { ScoringSlice } from "../io/compiled-slice.js";
import { scoreCase, type ScoreOptions } from "../tasks/document/score.js";
import type { DocumentFinder } from "./document-finder.js";
import { responseOfQuery, type QueryCut, type ResponseRule } from "./trainer-query.js";

/** What finds a case from a prompt's document (a DocumentFinder, or one that remembers its answers). */
export type PromptFinder = Pick<DocumentFinder, "find">;

/** Why an item could not be scored at all (the request is answered 422 with each of them). */
export type ItemProblem =
  | "not_an_object"
  | "malformed_json"
  | "bad_case_id"
  | "unknown_case_id"
  | "bad_run_key"
  | "bad_generation_identity"
  | "no_document_in_prompt"
  | "ambiguous_document"
  | "response_not_found";

export interface UnresolvedItem {
  index: number;
  reason: ItemProblem;
  message: string;
}

/** How the case was found: the item's own id (`case_id`, `id` or the label), or its prompt's document. */
export type CaseRule = "case_id" | "document";

export interface ResolvedItem {
  caseIndex: number;
  /** The dump-line shape that is scored: the item itself, or `{case_id, completion}` for a query. */
  record: JsonObject;
  caseRule: CaseRule;
  /** /get_reward only: how the response was cut out of the query. */
  responseRule?: ResponseRule;
  /** /get_reward only: the response's think opener was the prompt's last text (a reasoning template). */
  thinkFromPrompt?: boolean;
  /** The item's own `run`, null when it gives none. */
  run: string | null;
  /** The item's `sample` (else its `generation`) when it gives one and no `run` (the log numbers repeated passes from it). */
  sample: string | null;
  /** Where the trainer generated it, when the item says (docs/serve.md, "Runs"): logged with its line. */
  identity?: GenerationIdentity;
}

/**
 * What identifies a generation across a whole training run, whichever process or server scored it:
 * the phase, the step, which evaluation batch of that step, the prompt's index within the global
 * batch, the generation's index within the prompt's group, and the attempt (a later value for a
 * run resumed from a checkpoint). `mari eval` replays a log's runs from these.
 */
export interface GenerationIdentity {
  phase?: "train" | "eval";
  attempt?: number;
  batch?: number;
  prompt_index?: number;
  generation?: number;
}

/** The identity fields an item may carry, each a non-negative integer but `phase`. */
export const IDENTITY_COUNTS = ["attempt", "batch", "prompt_index", "generation"] as const;

/** One item's rewards: the fields (and values) of a `mari eval --rewards` line. */
export interface ItemRewards {
  accuracy: number;
  reference_coverage: number;
  format: number;
  matched_evidence_count: number;
  gold_evidence_count: number;
  format_valid: boolean;
  reason: string | null;
}

export interface ScoredItem {
  resolved: ResolvedItem;
  caseId: string;
  rewards: ItemRewards;
}

/** The fields of a dump line that carry the prediction (docs/eval.md, "Inputs"). */
const PREDICTION_FIELDS = ["judgment", "evidence_sentence_ids", "evidence", "reasoning", "prediction", "completion"] as const;

type Resolution = Omit<ResolvedItem, "run" | "sample" | "record"> | { reason: ItemProblem; message: string };

function hasNoId(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/** The case of an item: its id when it names a slice case, else the document in `prompt`. */
function resolveCase(slice: ScoringSlice, finder: PromptFinder, id: unknown, prompt: unknown, idName: string, fallBack: boolean): Resolution {
  if (typeof id === "string" && id !== "") {
    const index = slice.byId.get(id);
    if (index !== undefined) return { caseIndex: index, caseRule: "case_id" };
    if (!fallBack || typeof prompt !== "string")
      return { reason: "unknown_case_id", message: `${idName} ${JSON.stringify(id.slice(0, 80))} is not a case of the slice` };
  } else if (!hasNoId(id)) {
    return { reason: "bad_case_id", message: `${idName} is not a string` };
  }
  if (typeof prompt !== "string") return { reason: "bad_case_id", message: `no ${idName}, and no prompt text to find the document in` };
  const found = finder.find(prompt);
  return "index" in found ? { caseIndex: found.index, caseRule: "document" } : { reason: found.problem, message: found.message };
}

/** The item's generation identity (empty when it gives none), or why a field of it is refused. */
function identityOf(item: JsonObject): GenerationIdentity | { reason: ItemProblem; message: string } {
  const identity: GenerationIdentity = {};
  const phase = item.phase;
  if (phase !== undefined && phase !== null) {
    if (phase !== "train" && phase !== "eval") return { reason: "bad_generation_identity", message: 'phase is neither "train" nor "eval"' };
    identity.phase = phase;
  }
  for (const field of IDENTITY_COUNTS) {
    const value = item[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      return { reason: "bad_generation_identity", message: `${field} is not a non-negative integer` };
    }
    identity[field] = value;
  }
  return identity;
}

/** The item's own `run`, else its `sample` or `generation` (validated as a dump's run key is); null for what it does not give. */
function runOf(item: JsonObject, identity: GenerationIdentity): { run: string | null; sample: string | null } | { reason: ItemProblem; message: string } {
  const key = dumpRunKey(item);
  if (key === undefined) return { reason: "bad_run_key", message: runKeyProblem(item) };
  if (item.run !== undefined && item.run !== null) return { run: key, sample: null };
  if (item.sample !== undefined && item.sample !== null) return { run: null, sample: key };
  return { run: null, sample: identity.generation !== undefined ? String(identity.generation) : null };
}

/**
 * A /v1/rewards item: a dump line's shape (structured, cache or raw completion) with `case_id` (or
 * `id`); without one, a `prompt` string whose tagged document names the case.
 */
export function resolveRewardsItem(slice: ScoringSlice, finder: DocumentFinder, given: unknown): ResolvedItem | { reason: ItemProblem; message: string } {
  if (!isJsonObject(given)) return { reason: "not_an_object", message: "the item is not a JSON object" };
  // The null rule of every dump line (io/records.ts), so an item scores as its line does.
  const item = nullAsAbsent(given);
  // The bound a dump line has: an item with a field mari reads nested too deeply is refused as that line would be.
  if (readFieldTooDeep(item)) return { reason: "malformed_json", message: "a field of the item is nested too deeply" };
  const id = Object.hasOwn(item, "case_id") && item.case_id !== undefined ? item.case_id : item.id;
  if (!hasNoId(id) && dumpCaseId(item) === undefined) return { reason: "bad_case_id", message: "case_id (or id) is not a string" };
  const found = resolveCase(slice, finder, id, item.prompt, "case_id", false);
  if ("reason" in found) return found;
  const identity = identityOf(item);
  if ("reason" in identity) return identity;
  const run = runOf(item, identity);
  if ("reason" in run) return run;
  return { ...found, ...run, record: item, ...(Object.keys(identity).length > 0 ? { identity } : {}) };
}

/**
 * An OpenRLHF query: the response is `query` after its prompt (trainer-query.ts); the case is the
 * label when it names one, else the document in the prompt.
 */
export function resolveQuery(
  slice: ScoringSlice,
  finder: PromptFinder,
  query: unknown,
  prompt: unknown,
  label: unknown,
): ResolvedItem | { reason: ItemProblem; message: string } {
  if (typeof query !== "string") return { reason: "not_an_object", message: "the query is not a string" };
  if (typeof prompt !== "string") return { reason: "response_not_found", message: "the prompt is not a string" };
  return resolveQueryCut(slice, finder, prompt, label, () => responseOfQuery(query, prompt));
}

/** `resolveQuery` once both texts are known to be strings, with `cut` giving the response (score-task.ts cuts it from the body's bytes). */
export function resolveQueryCut(
  slice: ScoringSlice,
  finder: PromptFinder,
  prompt: string,
  label: unknown,
  cut: () => QueryCut | undefined,
): ResolvedItem | { reason: ItemProblem; message: string } {
  const found = resolveCase(slice, finder, label, prompt, "label", true);
  if ("reason" in found) return found;
  const response = cut();
  if (response === undefined) {
    return {
      reason: "response_not_found",
      message: "the query does not start with its prompt (not even as a tokenizer's space clean-up prints it) and holds no assistant-turn header",
    };
  }
  const caseId = slice.cases[found.caseIndex]!.id;
  // Built field by field: spreading objects into a literal cost about 2.5 µs an item.
  const resolved: ResolvedItem = {
    caseIndex: found.caseIndex,
    caseRule: found.caseRule,
    responseRule: response.rule,
    run: null,
    sample: null,
    record: { case_id: caseId, completion: response.response },
  };
  if (response.thinkFromPrompt) resolved.thinkFromPrompt = true;
  return resolved;
}

/** The prediction fields an item carries (what `--log-predictions` logs). */
export function predictionOf(resolved: ResolvedItem): Record<string, unknown> {
  const prediction: Record<string, unknown> = {};
  for (const field of PREDICTION_FIELDS) if (Object.hasOwn(resolved.record, field)) prediction[field] = resolved.record[field];
  return prediction;
}

/** Scores a resolved item as `mari eval` scores the same dump line. */
export function scoreResolved(slice: ScoringSlice, resolved: ResolvedItem, options: ScoreOptions): ScoredItem {
  const c = slice.cases[resolved.caseIndex]!;
  const scored = scoreCase(c, resolved.record, options);
  const valid = scored.reason === null;
  return {
    resolved,
    caseId: c.id,
    rewards: {
      accuracy: scored.rewardAccuracy,
      reference_coverage: scored.referenceCoverage,
      format: valid ? 1 : 0,
      matched_evidence_count: scored.matched,
      gold_evidence_count: c.gold.length,
      format_valid: valid,
      reason: scored.reason,
    },
  };
}

/**
 * Resolves every entry with `resolve`, then scores them all, or returns the unresolved ones. The
 * validator's rejections are expected data: no stack traces are built for them.
 */
export function scoreBatch(
  slice: ScoringSlice,
  count: number,
  resolve: (i: number) => ResolvedItem | { reason: ItemProblem; message: string },
  options: ScoreOptions,
): { scored: ScoredItem[] } | { unresolved: UnresolvedItem[] } {
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const resolved: ResolvedItem[] = [];
    const unresolved: UnresolvedItem[] = [];
    for (let i = 0; i < count; i++) {
      const r = resolve(i);
      if ("reason" in r) unresolved.push({ index: i, ...r });
      else resolved.push(r);
    }
    if (unresolved.length > 0) return { unresolved };
    return { scored: resolved.map((r) => scoreResolved(slice, r, options)) };
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}
