// What `mari serve` does with one request's body, on a scoring thread (or in-process with one
// worker): parse it, resolve and score its items (score-items.ts), and return the answer's JSON
// text, the request's tally and its log lines cut around their run keys. It is a task module of
// src/pool (`init` + `processChunk`), so the same code runs in-process and in worker threads, which
// map the one compiled slice the main thread shares with them (io/compiled-slice.ts).
import type { CaseReason, ScoreOptions } from "../tasks/document/score.js";
import { reasonIndex } from "../tasks/document/score.js";
import { RequestError } from "./body.js";
import { arrayField, parseBodyObject } from "./body-json.js";
import { openCompiledSlice, type CompiledSlice, type ScoringSlice } from "../io/compiled-slice.js";
import { DocumentFinder, type FindResult } from "./document-finder.js";
import { queryTexts, readGetRewardBody, type GetRewardBody } from "./get-reward-body.js";
import { logLineParts, type ItemLogParts } from "./request-log.js";
import { resolveQuery, resolveQueryCut, resolveRewardsItem, scoreBatch, type PromptFinder, type ScoredItem } from "./score-items.js";
import { responseAfterPrompt, responseOfQuery, type QueryCut } from "./trainer-query.js";
import { rewardBounds, unitScore, weightedReward, type RewardWeights } from "./weights.js";

const UTF8 = new TextEncoder();

/** How many unresolved items a 422 lists (the message counts them all). */
const UNRESOLVED_LISTED = 100;

export interface ScoreTaskConfig {
  weights: RewardWeights;
  /** Most items (or queries) one request may carry; more is a 413. */
  maxItems: number;
  score: ScoreOptions;
  /** Build the --log lines (with each prediction when `logPredictions`). */
  log: boolean;
  logPredictions: boolean;
}

export interface ScoreTaskInit {
  compiled: CompiledSlice;
  config: ScoreTaskConfig;
}

export interface ScoreTaskState {
  slice: ScoringSlice;
  finder: DocumentFinder;
  config: ScoreTaskConfig;
  bounds: { low: number; high: number };
}

export type ScoredRoute = "/v1/rewards" | "/get_reward";

export interface ScoreRequest {
  route: ScoredRoute;
  requestId: string;
  body: Uint8Array;
}

/** What a request's items add to the server's counters (reasons in the order first met). */
export interface RequestTally {
  items: number;
  formatValid: number;
  reasons: Record<string, number>;
}

export type ScoreReply =
  /** `response`: the answer's JSON as UTF-8, encoded here so that the server's thread only sends it. */
  | { ok: true; response: Uint8Array; tally: RequestTally; log: ItemLogParts | undefined }
  | { ok: false; status: number; code: string; message: string; details: Record<string, unknown> };

/**
 * The state over `slice`. Its finder is built on the first item that names no case (it indexes
 * every document, the largest cost of a server's start), so a server starts without it and a
 * trainer that sends case ids never pays for it.
 */
export function scoreTaskState(slice: ScoringSlice, config: ScoreTaskConfig): ScoreTaskState {
  let finder: DocumentFinder | undefined;
  return {
    slice,
    get finder() {
      return (finder ??= new DocumentFinder(slice.cases));
    },
    config,
    bounds: rewardBounds(config.weights),
  };
}

/** A worker's state: the shared compiled slice, mapped and decoded once. */
export function init(data: ScoreTaskInit): ScoreTaskState {
  return scoreTaskState(openCompiledSlice(data.compiled), data.config);
}

// A body of tiny items (`[1,1,1,…]`) would otherwise ask for millions of results from one request.
function checkCount(state: ScoreTaskState, list: unknown[]): unknown[] {
  if (list.length > state.config.maxItems) {
    throw new RequestError(413, "too_many_items", `the request holds ${list.length} items; --max-items is ${state.config.maxItems}`);
  }
  return list;
}

/** Scores a batch, or refuses the whole request (422) naming every item that could not be resolved. */
function scoreOrRefuse(state: ScoreTaskState, count: number, resolve: Parameters<typeof scoreBatch>[2], what: { one: string; many: string }): ScoredItem[] {
  const outcome = scoreBatch(state.slice, count, resolve, state.config.score);
  if ("scored" in outcome) return outcome.scored;
  const list = outcome.unresolved;
  const first = list[0]!;
  throw new RequestError(
    422,
    "unresolved_items",
    `${list.length} of ${count} ${what.many} could not be scored; the first, ${what.one} ${first.index}: ${first.reason}: ${first.message}`,
    { items: list.slice(0, UNRESOLVED_LISTED), unresolved: list.length },
  );
}

function rewards(state: ScoreTaskState, bytes: Uint8Array): { scored: ScoredItem[]; answer: unknown } {
  const body = parseBodyObject(bytes, (plain) => checkCount(state, arrayField(plain, "items")));
  const items = arrayField(body, "items");
  const scored = scoreOrRefuse(state, items.length, (i) => resolveRewardsItem(state.slice, state.finder, items[i]), { one: "item", many: "items" });
  return { scored, answer: { results: scored.map((s) => s.rewards) } };
}

/** The queries scored from the body's bytes; undefined when the body must be read by JSON.parse (its errors are that path's). */
function scoreFromBytes(state: ScoreTaskState, body: GetRewardBody): ScoredItem[] | undefined {
  const count = body.query.start.length;
  const labelCount = body.labels?.start.length ?? 0;
  if (count > state.config.maxItems || body.prompts.start.length !== count || (labelCount !== 0 && labelCount !== count)) return undefined;
  const texts = queryTexts(body);
  if (texts === undefined) return undefined;
  // The queries of a prompt's group share its document: it is looked for once, by the prompt's key.
  const found = new Map<number, FindResult>();
  return scoreOrRefuse(
    state,
    count,
    (i) => {
      const key = texts.promptKey[i]!;
      const prompt = texts.prompt[i]!;
      const rest = texts.rest[i]!;
      const finder: PromptFinder = { find: (text) => found.get(key) ?? found.set(key, state.finder.find(text)).get(key)! };
      const cut = (): QueryCut | undefined => (texts.afterPrompt[i] ? responseAfterPrompt(rest, prompt, "prompt_prefix") : responseOfQuery(rest, prompt));
      return resolveQueryCut(state.slice, finder, prompt, texts.label[i], cut);
    },
    QUERIES,
  );
}

/** The queries scored from the body as JSON.parse reads it. */
function scoreParsed(state: ScoreTaskState, bytes: Uint8Array): ScoredItem[] {
  // Lists of text (a label that is a number is refused as not a string either way): no float marks.
  const body = parseBodyObject(bytes, (plain) => checkCount(state, arrayField(plain, "query")), false);
  const queries = arrayField(body, "query");
  const prompts = arrayField(body, "prompts");
  // Labels are optional: without --label_key OpenRLHF sends "" for each; the prompt's document names the case.
  const labels = body.labels === undefined || body.labels === null ? [] : arrayField(body, "labels");
  if (prompts.length !== queries.length || (labels.length !== 0 && labels.length !== queries.length)) {
    throw new RequestError(
      400,
      "length_mismatch",
      `"query" (${queries.length}), "prompts" (${prompts.length}) and "labels" (${labels.length}) must have the same length`,
    );
  }
  return scoreOrRefuse(state, queries.length, (i) => resolveQuery(state.slice, state.finder, queries[i], prompts[i], labels[i]), QUERIES);
}

const QUERIES = { one: "query", many: "queries" };

function getReward(state: ScoreTaskState, bytes: Uint8Array): { scored: ScoredItem[]; answer: unknown } {
  const fast = readGetRewardBody(bytes);
  const scored = (fast && scoreFromBytes(state, fast)) ?? scoreParsed(state, bytes);
  const values = scored.map((s) => weightedReward(s.rewards, state.config.weights));
  const answer = {
    rewards: values,
    scores: values.map((v) => unitScore(v, state.bounds)),
    // Numbers only: OpenRLHF turns each extra_logs entry into a tensor.
    extra_logs: {
      accuracy: scored.map((s) => s.rewards.accuracy),
      reference_coverage: scored.map((s) => s.rewards.reference_coverage),
      format: scored.map((s) => s.rewards.format),
      format_valid: scored.map((s) => (s.rewards.format_valid ? 1 : 0)),
      reason_code: scored.map((s) => reasonIndex(s.rewards.reason as CaseReason | null)),
    },
    reasons: scored.map((s) => s.rewards.reason),
    case_ids: scored.map((s) => s.caseId),
    response_rules: scored.map((s) => s.resolved.responseRule ?? null),
  };
  return { scored, answer };
}

function tallyOf(scored: readonly ScoredItem[]): RequestTally {
  const tally: RequestTally = { items: scored.length, formatValid: 0, reasons: {} };
  for (const s of scored) {
    const reason = s.rewards.reason;
    if (reason === null) tally.formatValid++;
    else tally.reasons[reason] = (tally.reasons[reason] ?? 0) + 1;
  }
  return tally;
}

/** The answer's bytes are moved to the server's thread, not copied (TextEncoder gives each its own buffer). */
export function transferablesOf(reply: ScoreReply): readonly ArrayBuffer[] {
  return reply.ok ? [reply.response.buffer as ArrayBuffer] : [];
}

/** One request: its answer, or the refusal a client's input earns (anything else is a bug: it throws). */
export function processChunk(state: ScoreTaskState, request: ScoreRequest): ScoreReply {
  try {
    const { scored, answer } = request.route === "/v1/rewards" ? rewards(state, request.body) : getReward(state, request.body);
    return {
      ok: true,
      response: UTF8.encode(JSON.stringify(answer)),
      tally: tallyOf(scored),
      log: state.config.log ? logLineParts(request.requestId, scored, state.config.logPredictions) : undefined,
    };
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details };
  }
}
