// `mari serve`: the document rewards over HTTP (node:http, no framework). The slice is read once;
// each request's items are scored by src/server/score-items.ts with the same functions as
// `mari eval --rewards`. The server never prints: the caller gets events and decides what to show.
import { createWriteStream, type WriteStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { readLines } from "../io/lines.js";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DocumentSlice } from "../io/slice.js";
import type { ScoreOptions } from "../tasks/document/score.js";
import { sliceHashOf } from "../tasks/document/run.js";
import { MARI_VERSION } from "../version.js";
import { loopbackRequestProblem, type TokenCheck } from "./auth.js";
import { arrayField, parseBodyObject, readBody, RequestError } from "./body.js";
import { DocumentFinder } from "./document-finder.js";
import { LogRunKeys } from "./log-run-keys.js";
import { resolveQuery, resolveRewardsItem, scoreBatch, type ScoredItem } from "./score-items.js";
import { rewardBounds, unitScore, weightedReward, type RewardWeights } from "./weights.js";
import { reasonIndex, type CaseReason } from "../tasks/document/score.js";

export interface RewardsServerOptions {
  slice: DocumentSlice;
  host: string;
  /** 0 = any free port. */
  port: number;
  weights: RewardWeights;
  maxBodyBytes: number;
  /** Most items (or queries) one request may carry; more is a 413. */
  maxItems: number;
  score: ScoreOptions;
  /** When set, every request must carry it (see auth.ts). */
  checkToken?: TokenCheck | undefined;
  /** Appends one JSONL line per scored item. */
  logPath?: string | undefined;
  /** Also log each item's prediction (model text), so that `mari eval --predictions LOG` can score the log. */
  logPredictions?: boolean | undefined;
}

export interface RewardsServer {
  /** Where it listens: `http://host:port`. */
  url: string;
  port: number;
  sliceHash: string;
  /**
   * Stops accepting at once (before it returns), lets in-flight requests finish (connections still open after `graceMs` are
   * cut), closes the log.
   */
  close(graceMs?: number): Promise<void>;
  /** Why the --log could not be written (requests were refused from then on), or undefined. */
  logError(): string | undefined;
}

interface Counters {
  requests: Record<string, number>;
  statuses: Record<string, number>;
  items: number;
  format_valid: number;
  reasons: Record<string, number>;
}

const ROUTES: Readonly<Record<string, string>> = { "/v1/rewards": "POST", "/get_reward": "POST", "/health": "GET" };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 120_000;
const MAX_CONNECTIONS = 1024;
/** How many unresolved items a 422 lists (the message counts them all). */
const UNRESOLVED_LISTED = 100;

/**
 * A log line, with the prediction when asked. A value nested too deeply to serialise (a hostile
 * item) is left out and flagged; a bad run value is kept a non-string, so `mari eval` still rejects it.
 */
function logLine(line: Record<string, unknown>, prediction: Record<string, unknown> | undefined): string {
  try {
    return JSON.stringify(prediction === undefined ? line : { ...line, ...prediction });
  } catch {
    const run = typeof line.run === "string" ? line.run : { not_logged: true };
    return JSON.stringify({ ...line, run, not_logged: "a value nested too deeply to serialise" });
  }
}

function processUsage(): { cpu_seconds: number; rss_mb: number } {
  const cpu = process.cpuUsage();
  return { cpu_seconds: (cpu.user + cpu.system) / 1e6, rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20) };
}

/**
 * Reads a --log that already exists: notes each line's (case, run) as taken and says whether its
 * last line is torn (no final newline). A missing or empty file is "clean".
 */
async function readPreviousLog(path: string, runKeys: LogRunKeys): Promise<"clean" | "torn"> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return "clean";
    size = info.size;
  } catch {
    return "clean";
  }
  if (size === 0) return "clean";
  for await (const line of readLines(path)) {
    if (line.text === null || !line.text.startsWith("{")) continue;
    try {
      const record = JSON.parse(line.text) as Record<string, unknown>;
      if (typeof record.case_id === "string" && typeof record.run === "string") runKeys.take(record.case_id, record.run);
    } catch {
      // A torn or foreign line: mari eval reports it; it takes no run key.
    }
  }
  const handle = await open(path, "r");
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a ? "clean" : "torn";
  } finally {
    await handle.close();
  }
}

export async function startRewardsServer(opts: RewardsServerOptions): Promise<RewardsServer> {
  const { slice, weights } = opts;
  const sliceHash = sliceHashOf(slice);
  const finder = new DocumentFinder(slice.cases);
  const bounds = rewardBounds(weights);
  const started = Date.now();
  const counters: Counters = { requests: {}, statuses: {}, items: 0, format_valid: 0, reasons: {} };
  let log: WriteStream | undefined;
  // A log that cannot be written (disk full, say): nothing more is scored, rather than scored unlogged.
  let logError: string | undefined;
  const runKeys = new LogRunKeys();
  if (opts.logPath) {
    // A log this server appends to: the run keys already in it are taken, and a torn last line (a
    // killed server) is left on a line of its own, where `mari eval` counts it as malformed.
    const tail = await readPreviousLog(opts.logPath, runKeys);
    log = createWriteStream(opts.logPath, { flags: "a" });
    await once(log, "open");
    log.on("error", (err: NodeJS.ErrnoException) => {
      logError = `cannot write --log ${opts.logPath} (${err.code ?? err.message})`;
    });
    if (tail === "torn") log.write("\n");
  }
  // Request ids unique across restarts that append to the same --log file.
  const runPrefix = started.toString(36);
  let requestSeq = 0;
  let closing = false;

  const count = (scored: readonly ScoredItem[]): void => {
    counters.items += scored.length;
    for (const s of scored) {
      const reason = s.rewards.reason;
      if (reason === null) counters.format_valid++;
      else counters.reasons[reason] = (counters.reasons[reason] ?? 0) + 1;
    }
  };

  /** Appends the request's lines and resolves once they are written: an item is answered only after it is logged. */
  const writeLog = async (requestId: string, scored: readonly ScoredItem[]): Promise<void> => {
    if (!log) return;
    if (logError) throw new RequestError(503, "log_unwritable", logError);
    let text = "";
    for (let i = 0; i < scored.length; i++) {
      const s = scored[i]!;
      const r = s.resolved;
      const line: Record<string, unknown> = { request: requestId, item: i, case_id: s.caseId, run: runKeys.next(s.caseId, r.run, r.sample) };
      if (r.sample !== null) line.sample = r.sample;
      // A trainer's own step number, when its items carry one (the TRL example sends global_step).
      const step = r.record.step;
      if (typeof step === "number" || typeof step === "string") line.step = step;
      if (r.caseRule !== "case_id") line.case_from = r.caseRule;
      if (r.responseRule !== undefined && r.responseRule !== "prompt_prefix") line.response_from = r.responseRule;
      if (r.thinkFromPrompt) line.think_from_prompt = true;
      text += logLine({ ...line, ...s.rewards }, opts.logPredictions ? s.prediction : undefined) + "\n";
    }
    const stream = log;
    const failed = await new Promise<Error | null | undefined>((resolve) => stream.write(text, resolve));
    if (failed) {
      logError ??= `cannot write --log ${opts.logPath} (${(failed as NodeJS.ErrnoException).code ?? failed.message})`;
      throw new RequestError(503, "log_unwritable", logError);
    }
  };

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    counters.statuses[status] = (counters.statuses[status] ?? 0) + 1;
    const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
    if (closing || status === 413) headers.connection = "close";
    res.writeHead(status, headers);
    res.end(text);
  };

  const health = () => ({
    status: closing ? "stopping" : "ok",
    mari_version: MARI_VERSION,
    slice: { path: slice.path, hash: sliceHash, cases: slice.cases.length },
    weights,
    score_bounds: bounds,
    max_body_bytes: opts.maxBodyBytes,
    max_items: opts.maxItems,
    log_error: logError ?? null,
    uptime_seconds: (Date.now() - started) / 1000,
    // The server's own CPU time and memory (the benchmark reads items per CPU-second from these).
    process: processUsage(),
    counters,
  });

  // A body of tiny items (`[1,1,1,…]`) would otherwise ask for millions of results from one request.
  const checkCount = (list: unknown[]): unknown[] => {
    if (list.length > opts.maxItems) {
      throw new RequestError(413, "too_many_items", `the request holds ${list.length} items; --max-items is ${opts.maxItems}`);
    }
    return list;
  };

  /** Scores a batch, or refuses the whole request (422) naming every item that could not be resolved. */
  const scoreOrRefuse = (count: number, resolve: Parameters<typeof scoreBatch>[2], what: { one: string; many: string }): ScoredItem[] => {
    const outcome = scoreBatch(slice, count, resolve, opts.score);
    if ("scored" in outcome) return outcome.scored;
    const list = outcome.unresolved;
    const first = list[0]!;
    throw new RequestError(
      422,
      "unresolved_items",
      `${list.length} of ${count} ${what.many} could not be scored; the first, ${what.one} ${first.index}: ${first.reason}: ${first.message}`,
      { items: list.slice(0, UNRESOLVED_LISTED), unresolved: list.length },
    );
  };

  const rewards = async (req: IncomingMessage, requestId: string) => {
    const body = parseBodyObject(await readBody(req, opts.maxBodyBytes), (plain) => checkCount(arrayField(plain, "items")));
    const items = arrayField(body, "items");
    const scored = scoreOrRefuse(items.length, (i) => resolveRewardsItem(slice, finder, items[i]), { one: "item", many: "items" });
    await writeLog(requestId, scored);
    count(scored);
    return { results: scored.map((s) => s.rewards) };
  };

  const getReward = async (req: IncomingMessage, requestId: string) => {
    const body = parseBodyObject(await readBody(req, opts.maxBodyBytes), (plain) => checkCount(arrayField(plain, "query")));
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
    const scored = scoreOrRefuse(queries.length, (i) => resolveQuery(slice, finder, queries[i], prompts[i], labels[i]), { one: "query", many: "queries" });
    await writeLog(requestId, scored);
    count(scored);
    const values = scored.map((s) => weightedReward(s.rewards, weights));
    return {
      rewards: values,
      scores: values.map((v) => unitScore(v, bounds)),
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
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?", 1)[0]!;
    const method = ROUTES[path];
    counters.requests[path in ROUTES ? path : "other"] = (counters.requests[path in ROUTES ? path : "other"] ?? 0) + 1;
    const header = req.headers["x-request-id"];
    const requestId = typeof header === "string" && REQUEST_ID.test(header) ? header : `${runPrefix}-${++requestSeq}`;
    res.setHeader("x-request-id", requestId);
    try {
      if (method === undefined)
        throw new RequestError(404, "not_found", `no route ${JSON.stringify(path)}; try POST /v1/rewards, POST /get_reward or GET /health`);
      if (opts.checkToken && !opts.checkToken(req)) {
        res.setHeader("www-authenticate", "Bearer");
        throw new RequestError(401, "unauthorized", "missing or wrong bearer token (Authorization: Bearer …)");
      }
      if (!opts.checkToken) {
        const problem = loopbackRequestProblem(req);
        if (problem !== undefined) throw new RequestError(403, "forbidden", problem);
      }
      if (req.method !== method) {
        res.setHeader("allow", method);
        throw new RequestError(405, "method_not_allowed", `${path} takes ${method}`);
      }
      // A web page can post text/plain without asking first; it cannot post application/json.
      if (method === "POST" && !/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
        throw new RequestError(415, "unsupported_media_type", `${path} takes Content-Type: application/json`);
      }
      const result = path === "/health" ? health() : path === "/v1/rewards" ? await rewards(req, requestId) : await getReward(req, requestId);
      send(res, 200, result);
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      send(res, err.status, { error: { code: err.code, message: err.message, ...err.details } });
      // The rest of a refused body is not read; the connection is closed after the answer.
      if (!req.complete) req.resume();
    }
  };

  // A client that trickles its headers or body is cut after HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS
  // (node's defaults hold a slow body for 5 minutes), and at most MAX_CONNECTIONS are open at once.
  const server: Server = createServer({ keepAliveTimeout: 5000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug of ours, not the client's input: answer 500 and keep serving.
      if (!res.headersSent) send(res, 500, { error: { code: "internal_error", message: String((err as Error)?.message ?? err) } });
      else res.destroy();
    });
  });
  // A client that sends garbage instead of HTTP gets a 400 from node; it never reaches the handler.
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.listen(opts.port, opts.host);
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = opts.host.includes(":") ? `[${opts.host}]` : opts.host;

  let closed: Promise<void> | undefined;
  const close = (graceMs = 30_000): Promise<void> =>
    (closed ??= (async () => {
      closing = true;
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      await done;
      clearTimeout(cut);
      if (log && !logError) {
        log.end();
        await Promise.race([once(log, "finish"), once(log, "error")]);
      }
    })());

  return { url: `http://${hostInUrl}:${port}`, port, sliceHash, close, logError: () => logError };
}
