// `mari serve`: the document rewards over HTTP (node:http, no framework). The slice is read once;
// each request's items are scored by src/server/score-items.ts with the same functions as
// `mari eval --rewards`. The server never prints: the caller gets events and decides what to show.
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DocumentSlice } from "../io/slice.js";
import type { ScoreOptions } from "../tasks/document/score.js";
import { sliceHashOf } from "../tasks/document/run.js";
import { MARI_VERSION } from "../version.js";
import type { TokenCheck } from "./auth.js";
import { arrayField, parseBodyObject, readBody, RequestError } from "./body.js";
import { completionItem, scoreItems, type ScoredItem } from "./score-items.js";
import { weightedReward, type RewardWeights } from "./weights.js";

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
  checkToken?: TokenCheck;
  /** Appends one JSONL line per scored item. */
  logPath?: string;
  /** Also log each item's prediction (model text), so that `mari eval --predictions LOG` can score the log. */
  logPredictions?: boolean;
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

export async function startRewardsServer(opts: RewardsServerOptions): Promise<RewardsServer> {
  const { slice, weights } = opts;
  const sliceHash = sliceHashOf(slice);
  const started = Date.now();
  const counters: Counters = { requests: {}, statuses: {}, items: 0, format_valid: 0, reasons: {} };
  let log: WriteStream | undefined;
  // A log that cannot be written (disk full, say): nothing more is scored, rather than scored unlogged.
  let logError: string | undefined;
  if (opts.logPath) {
    log = createWriteStream(opts.logPath, { flags: "a" });
    await once(log, "open");
    log.on("error", (err: NodeJS.ErrnoException) => {
      logError = `cannot write --log ${opts.logPath} (${err.code ?? err.message})`;
    });
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

  const writeLog = (requestId: string, scored: readonly ScoredItem[]): void => {
    if (!log) return;
    if (logError) throw new RequestError(503, "log_unwritable", logError);
    let text = "";
    for (let i = 0; i < scored.length; i++) {
      const s = scored[i]!;
      const run = s.badRun !== undefined ? s.badRun : (s.run ?? requestId);
      const line = { request: requestId, item: i, case_id: s.caseId, run, ...s.rewards };
      text += logLine(line, opts.logPredictions ? s.prediction : undefined) + "\n";
    }
    log.write(text);
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

  const rewards = async (req: IncomingMessage, requestId: string) => {
    const body = parseBodyObject(await readBody(req, opts.maxBodyBytes));
    const scored = scoreItems(slice, checkCount(arrayField(body, "items")), opts.score);
    writeLog(requestId, scored);
    count(scored);
    return { results: scored.map((s) => s.rewards) };
  };

  const getReward = async (req: IncomingMessage, requestId: string) => {
    const body = parseBodyObject(await readBody(req, opts.maxBodyBytes));
    const queries = checkCount(arrayField(body, "query"));
    const prompts = arrayField(body, "prompts");
    const labels = arrayField(body, "labels");
    if (prompts.length !== queries.length || labels.length !== queries.length) {
      throw new RequestError(
        400,
        "length_mismatch",
        `"query" (${queries.length}), "prompts" (${prompts.length}) and "labels" (${labels.length}) must have the same length`,
      );
    }
    // Items whose query does not start with their prompt are rejected before scoring; the rest are
    // scored as one batch and put back in place.
    const items: unknown[] = [];
    const placed: Array<ScoredItem | number> = queries.map((query, i) => {
      const made = completionItem(query, prompts[i], labels[i]);
      if ("rejected" in made) return made.rejected;
      items.push(made.item);
      return items.length - 1;
    });
    const scoredItems = scoreItems(slice, items, opts.score);
    const scored = placed.map((p) => (typeof p === "number" ? scoredItems[p]! : p));
    writeLog(requestId, scored);
    count(scored);
    const values = scored.map((s) => weightedReward(s.rewards, weights));
    return {
      rewards: values,
      scores: values,
      extra_logs: {
        accuracy: scored.map((s) => s.rewards.accuracy),
        reference_coverage: scored.map((s) => s.rewards.reference_coverage),
        format: scored.map((s) => s.rewards.format),
      },
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
      if (req.method !== method) {
        res.setHeader("allow", method);
        throw new RequestError(405, "method_not_allowed", `${path} takes ${method}`);
      }
      const result = path === "/health" ? health() : path === "/v1/rewards" ? await rewards(req, requestId) : await getReward(req, requestId);
      send(res, 200, result);
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      send(res, err.status, { error: { code: err.code, message: err.message } });
      // The rest of a refused body is not read; the connection is closed after the answer.
      if (!req.complete) req.resume();
    }
  };

  const server: Server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
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

  return { url: `http://${hostInUrl}:${port}`, port, sliceHash, close };
}
