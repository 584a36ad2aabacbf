// `mari serve`: the document rewards over HTTP (node:http, no framework). The slice is read once;
// each request's items are scored by src/server/score-task.ts with the same functions as
// `mari eval --rewards`, on this thread or on a pool of scoring threads that share one compiled
// slice, while this thread parses HTTP, keeps the --log in arrival order and answers. The server
// never prints: the caller gets events and decides what to show. Only what answering /health
// needs is done before listening: the scorer (modules and threads) starts after, on the first
// scored request with one worker, at once with threads.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DocumentSlice } from "../io/slice-kept.js";
import type { ChunkPool, TaskModuleRef } from "../pool/pool.js";
import { siblingModuleUrl } from "../pool/module-url.js";
import type { ScoreOptions } from "../tasks/document/score.js";
import { sliceHashOf } from "../io/slice-kept.js";
import { MARI_VERSION } from "../version.js";
import { loopbackRequestProblem, type TokenCheck } from "./auth.js";
import { BodyBuffers, readBody, RequestError } from "./body.js";
import { caseCount, compileSlice } from "../io/compiled-slice.js";
import type { RequestLog } from "./request-log.js";
import type { RequestTally, ScoredRoute, ScoreReply, ScoreRequest, ScoreTaskConfig, ScoreTaskInit, ScoreTaskState } from "./score-task.js";
import { rewardBounds, type RewardWeights } from "./weights.js";

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
  /** Scoring threads sharing one compiled slice; 1 (the default) scores on the server's own thread. */
  workers?: number | undefined;
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

/** What the steps of a running server share. */
interface ServerContext {
  readonly opts: RewardsServerOptions;
  readonly sliceHash: string;
  readonly bounds: { low: number; high: number };
  readonly started: number;
  /** Request ids unique across restarts that append to the same --log file. */
  readonly runPrefix: string;
  readonly counters: Counters;
  readonly scorers: Scorers;
  readonly log: RequestLog | undefined;
  /** Body buffers reused when the bodies are scored on this thread. */
  readonly bodies: BodyBuffers;
  requestSeq: number;
  closing: boolean;
}

/**
 * The pool's task module, named without importing it: with scoring threads this thread never runs
 * it, and loading it (the whole scorer) would only delay the start.
 */
const SCORE_TASK_MODULE: TaskModuleRef = {
  url: siblingModuleUrl(import.meta.url, "score-task"),
  load: () => import("./score-task.js"),
};

function processUsage(): { cpu_seconds: number; rss_mb: number } {
  const cpu = process.cpuUsage();
  return { cpu_seconds: (cpu.user + cpu.system) / 1e6, rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20) };
}

/**
 * The scorer: in-process over the slice as read (one worker), or worker threads that each map the
 * slice compiled once into shared memory.
 */
async function openScoringPool(opts: RewardsServerOptions): Promise<ChunkPool<ScoreRequest, ScoreReply>> {
  const config: ScoreTaskConfig = {
    weights: opts.weights,
    maxItems: opts.maxItems,
    score: opts.score,
    log: Boolean(opts.logPath),
    logPredictions: opts.logPredictions === true,
  };
  const workers = opts.workers ?? 1;
  const { createChunkPool } = await import("../pool/pool.js");
  if (workers === 1) {
    const { scoreTaskState } = (await SCORE_TASK_MODULE.load()) as typeof import("./score-task.js");
    const state = scoreTaskState(opts.slice, config);
    return createChunkPool<ScoreTaskState, ScoreRequest, ScoreReply>({ workers, taskModule: SCORE_TASK_MODULE, initData: undefined, state });
  }
  const initData: ScoreTaskInit = {
    compiled: compileSlice(opts.slice),
    config,
  };
  const pool = await createChunkPool<ScoreTaskState, ScoreRequest, ScoreReply>({ workers, taskModule: SCORE_TASK_MODULE, initData });
  // Each thread loads the scorer and maps the slice on its first task: an empty request per thread,
  // not awaited, has that done before the first real request comes.
  for (let i = 0; i < workers; i++) {
    pool.run({ route: "/v1/rewards", requestId: "warm-up", body: new TextEncoder().encode('{"items":[]}') }).catch(() => {});
  }
  return pool;
}

/** The scoring pool, opened once, when first asked for. */
interface Scorers {
  readonly inProcess: boolean;
  pool(): Promise<ChunkPool<ScoreRequest, ScoreReply>>;
  /** Closes the pool if it was opened. */
  close(): Promise<void>;
}

function scorersOf(opts: RewardsServerOptions): Scorers {
  let opened: Promise<ChunkPool<ScoreRequest, ScoreReply>> | undefined;
  return {
    inProcess: (opts.workers ?? 1) === 1,
    pool: () => (opened ??= openScoringPool(opts)),
    close: async () => {
      const pool = await opened?.catch(() => undefined);
      await pool?.close();
    },
  };
}

async function createContext(opts: RewardsServerOptions): Promise<ServerContext> {
  const started = Date.now();
  // Loaded only with --log: the log's module brings the item scorer with it.
  const log = opts.logPath ? await (await import("./request-log.js")).RequestLog.open(opts.logPath) : undefined;
  return {
    opts,
    sliceHash: sliceHashOf(opts.slice),
    bounds: rewardBounds(opts.weights),
    started,
    runPrefix: started.toString(36),
    counters: { requests: {}, statuses: {}, items: 0, format_valid: 0, reasons: {} },
    scorers: scorersOf(opts),
    log,
    bodies: new BodyBuffers(),
    requestSeq: 0,
    closing: false,
  };
}

function count(ctx: ServerContext, tally: RequestTally): void {
  const { counters } = ctx;
  counters.items += tally.items;
  counters.format_valid += tally.formatValid;
  for (const [reason, n] of Object.entries(tally.reasons)) counters.reasons[reason] = (counters.reasons[reason] ?? 0) + n;
}

function send(ctx: ServerContext, res: ServerResponse, status: number, text: string | Uint8Array): void {
  ctx.counters.statuses[status] = (ctx.counters.statuses[status] ?? 0) + 1;
  const length = typeof text === "string" ? Buffer.byteLength(text) : text.byteLength;
  const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": length };
  if (ctx.closing || status === 413) headers.connection = "close";
  res.writeHead(status, headers);
  res.end(text);
}

function health(ctx: ServerContext): unknown {
  const { opts } = ctx;
  return {
    status: ctx.closing ? "stopping" : "ok",
    mari_version: MARI_VERSION,
    slice: { path: opts.slice.path, hash: ctx.sliceHash, cases: caseCount(opts.slice) },
    weights: opts.weights,
    score_bounds: ctx.bounds,
    max_body_bytes: opts.maxBodyBytes,
    max_items: opts.maxItems,
    log_error: ctx.log?.error ?? null,
    uptime_seconds: (Date.now() - ctx.started) / 1000,
    // The server's own CPU time and memory, scoring threads included (the benchmark reads items per CPU-second from these).
    process: processUsage(),
    counters: ctx.counters,
  };
}

/**
 * A scored route: the body is read here and scored by the pool; its log lines are written in the
 * order the bodies arrived (a place taken as soon as the body is read, as scoring on this thread
 * would order them), and only then is the answer's text returned.
 */
async function scoreRequest(ctx: ServerContext, req: IncomingMessage, route: ScoredRoute, requestId: string): Promise<Uint8Array> {
  const inProcess = ctx.scorers.inProcess;
  const body = await readBody(req, ctx.opts.maxBodyBytes, inProcess ? ctx.bodies : undefined);
  const place = ctx.log?.place();
  let reply: ScoreReply;
  let written: Promise<void> | undefined;
  try {
    if (inProcess) {
      // The reply holds no view of the body (its texts are copies): the buffer is free once it is scored.
      try {
        reply = await (await ctx.scorers.pool()).run({ route, requestId, body });
      } finally {
        ctx.bodies.give(body);
      }
    } else {
      // The body owns its buffer (readBody): it is moved to the worker, not copied.
      reply = await (await ctx.scorers.pool()).run({ route, requestId, body }, [body.buffer as ArrayBuffer]);
    }
    if (place !== undefined && ctx.log !== undefined) {
      await place.turn;
      if (reply.ok && reply.log !== undefined) written = ctx.log.write(reply.log);
    }
  } finally {
    place?.release();
  }
  await written;
  if (!reply.ok) throw new RequestError(reply.status, reply.code, reply.message, reply.details);
  count(ctx, reply.tally);
  return reply.response;
}

/** Refuses a request that may not be served: unknown route, token, loopback Host/Origin, method, content type. */
function checkRequest(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, path: string, method: string | undefined): void {
  if (method === undefined) throw new RequestError(404, "not_found", `no route ${JSON.stringify(path)}; try POST /v1/rewards, POST /get_reward or GET /health`);
  const { checkToken } = ctx.opts;
  if (checkToken && !checkToken(req)) {
    res.setHeader("www-authenticate", "Bearer");
    throw new RequestError(401, "unauthorized", "missing or wrong bearer token (Authorization: Bearer …)");
  }
  if (!checkToken) {
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
}

async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?", 1)[0]!;
  const method = ROUTES[path];
  const route = path in ROUTES ? path : "other";
  ctx.counters.requests[route] = (ctx.counters.requests[route] ?? 0) + 1;
  const header = req.headers["x-request-id"];
  const requestId = typeof header === "string" && REQUEST_ID.test(header) ? header : `${ctx.runPrefix}-${++ctx.requestSeq}`;
  res.setHeader("x-request-id", requestId);
  try {
    checkRequest(ctx, req, res, path, method);
    const text = path === "/health" ? JSON.stringify(health(ctx)) : await scoreRequest(ctx, req, path as ScoredRoute, requestId);
    send(ctx, res, 200, text);
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    send(ctx, res, err.status, JSON.stringify({ error: { code: err.code, message: err.message, ...err.details } }));
    // The rest of a refused body is not read; the connection is closed after the answer.
    if (!req.complete) req.resume();
  }
}

async function listen(ctx: ServerContext): Promise<Server> {
  // A client that trickles its headers or body is cut after HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS
  // (node's defaults hold a slow body for 5 minutes), and at most MAX_CONNECTIONS are open at once.
  const server: Server = createServer({ keepAliveTimeout: 5000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, (req, res) => {
    handle(ctx, req, res).catch((err: unknown) => {
      // A bug of ours, not the client's input: answer 500 and keep serving.
      if (!res.headersSent) send(ctx, res, 500, JSON.stringify({ error: { code: "internal_error", message: String((err as Error)?.message ?? err) } }));
      else res.destroy();
    });
  });
  // A client that sends garbage instead of HTTP gets a 400 from node; it never reaches the handler.
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.listen(ctx.opts.port, ctx.opts.host);
  await once(server, "listening");
  return server;
}

/** Stops accepting at once, lets requests in flight finish (cut after `graceMs`), then stops the scorers and closes the log. */
async function stop(ctx: ServerContext, server: Server, graceMs: number): Promise<void> {
  ctx.closing = true;
  const done = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  await done;
  clearTimeout(cut);
  await ctx.scorers.close();
  await ctx.log?.close();
}

export async function startRewardsServer(opts: RewardsServerOptions): Promise<RewardsServer> {
  const ctx = await createContext(opts);
  let server: Server;
  try {
    server = await listen(ctx);
  } catch (err) {
    await ctx.log?.close();
    throw err;
  }
  // Threads start once the caller has had the listening event (its start line out first).
  if (!ctx.scorers.inProcess) setImmediate(() => void ctx.scorers.pool().catch(() => undefined));
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${hostInUrl}:${port}`,
    port,
    sliceHash: ctx.sliceHash,
    close: (graceMs = 30_000) => (closed ??= stop(ctx, server, graceMs)),
    logError: () => ctx.log?.error,
  };
}
