// `mari serve SLICE`: the document rewards as an HTTP endpoint for RL trainers (docs/serve.md).
// Parses flags, refuses a public interface without a token, starts the server and stops it on
// SIGTERM/SIGINT (in-flight requests finish), then exits 0.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { addOptions, integerOption } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { InputError } from "../../io/errors.js";
import { EXIT_INPUT_ERROR, EXIT_OK } from "../exit-codes.js";
import { readSecretEnv } from "../secret-env.js";
import { readDocumentSliceStored } from "../../io/slice-store.js";
import { caseCount } from "../../io/compiled-slice.js";
import { outputKind } from "../../io/output-guard.js";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { sentenceRuleOf, sliceCacheDirOf, warnRejectedSliceRecords } from "../slice-flags.js";
import { bearerTokenCheck, isLoopbackHost } from "../../server/auth.js";
import { startRewardsServer } from "../../server/rewards-server.js";
import { DEFAULT_WEIGHTS, parseWeights } from "../../server/weights.js";
import { completionEndFromFlags, type CompletionEndFlags } from "../completion-end-flags.js";

interface ServeFlags extends CompletionEndFlags {
  host?: string;
  port?: string;
  tokenEnv?: string;
  weights?: string;
  maxBody?: string;
  maxItems?: string;
  log?: string;
  logPredictions?: boolean;
  lenientIds?: boolean;
  sentences?: string;
  cache?: boolean;
  cacheDir?: string;
  workers?: string;
}

/**
 * Scoring threads by default: one per core, since the server's own thread mostly waits on sockets
 * while they score; a single core scores on the server's thread (no pool to feed).
 */
export function defaultServeWorkers(): number {
  const cores = availableParallelism();
  return cores <= 1 ? 1 : Math.min(cores, 8);
}

const SIZE_UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, kb: 1024, mb: 1024 ** 2 };

/** `8mb`, `512kb`, `100000`: a byte count ≥ 1. */
export function parseByteSize(text: string, flag: string): number {
  const m = /^\s*(\d+)\s*(b|kb|mb|)\s*$/i.exec(text);
  const bytes = m ? Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]! : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new InputError(`${flag} "${text}": expected a size such as 8mb, 512kb or 100000 (bytes)`);
  return bytes;
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  const { min, max } = OPTIONS.port;
  if (!Number.isInteger(port) || port < min || port > max) throw new InputError(`--port "${text}": expected ${min}..${max} (0 = any free port)`);
  return port;
}

/** --log is appended to: never the slice itself (the output guard knows the inputs read), nor a FIFO, whose open would block start-up. */
async function checkLogTarget(path: string): Promise<void> {
  if ((await outputKind(path)) === "stream" && (await stat(path)).isFIFO()) {
    throw new InputError(`--log ${path}: is a FIFO; the served log must be a regular file (or /dev/null)`);
  }
}

export function registerServe(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program.command("serve").description(summary).argument("<slice>", "document slice: JSONL, CSV or ContraDoc JSON (read once at start)");
  addOptions(command, "serve").addHelpText(
    "after",
    `
Serves rewards for an RL trainer: POST /v1/rewards (mari's items), POST /get_reward (OpenRLHF's
remote reward model), GET /health. Each item is scored exactly as mari eval scores a dump line.
Runs until SIGINT or SIGTERM; requests in flight finish first.

Examples:
  mari serve datasets/contradoc/contradoc-160.jsonl                    # http://127.0.0.1:8000
  mari serve datasets/contradoc/contradoc-160.jsonl --port 0 --log served.jsonl --log-predictions
  MARI_TOKEN=… mari serve datasets/contradoc/contradoc-160.jsonl --host 0.0.0.0 --token-env MARI_TOKEN

Exit codes: 0 stopped by SIGINT or SIGTERM; 2 usage or input error (bad flag, unreadable slice,
port in use, no token for a non-loopback --host, a --log that became unwritable); 3 internal error.`,
  );
  command.action(wrap(async (slicePath: string, flags: ServeFlags) => serveCommand(slicePath, flags)));
}

async function serveCommand(slicePath: string, flags: ServeFlags): Promise<number> {
  const port = parsePort(flags.port ?? OPTIONS.port.default);
  const maxBodyBytes = parseByteSize(flags.maxBody ?? OPTIONS.maxBody.default, "--max-body");
  const maxItemsText = flags.maxItems ?? OPTIONS.maxItems.default;
  const maxItems = /^\d+$/.test(maxItemsText.trim()) ? Number(maxItemsText) : 0;
  if (!Number.isSafeInteger(maxItems) || maxItems < 1) throw new InputError(`--max-items "${maxItemsText}": expected an integer ≥ 1`);
  const weights = flags.weights === undefined ? { ...DEFAULT_WEIGHTS } : parseWeights(flags.weights);
  if ("error" in weights) throw new InputError(weights.error);
  if (flags.logPredictions && !flags.log) throw new InputError("--log-predictions needs --log FILE");
  const host = (flags.host ?? OPTIONS.host.default).trim();
  if (!isLoopbackHost(host) && flags.tokenEnv === undefined) {
    throw new InputError(`--host ${host} is not a loopback interface: refusing to serve it without a bearer token (--token-env VAR)`);
  }
  const token = flags.tokenEnv === undefined ? undefined : readSecretEnv(flags.tokenEnv, "--token-env");
  // `Authorization: Bearer <token>` cannot carry white space: such a token could never be matched.
  if (token !== undefined && /\s/.test(token)) throw new InputError(`the token in ${flags.tokenEnv} contains white space, which a Bearer token cannot carry`);
  const workers = integerOption("workers", flags.workers) ?? defaultServeWorkers();
  const completionEnd = completionEndFromFlags(flags);
  // The cases are decoded by the scorer: not before the listening line (with scoring threads, each
  // decodes its own, and this thread never does).
  const slice = await readDocumentSliceStored(slicePath, { sentences: sentenceRuleOf(flags), casesLater: true }, sliceCacheDirOf(flags));
  warnRejectedSliceRecords(slice);
  if (flags.log) await checkLogTarget(flags.log);
  let server: Awaited<ReturnType<typeof startRewardsServer>>;
  try {
    server = await startRewardsServer({
      slice,
      host,
      port,
      weights,
      maxBodyBytes,
      maxItems,
      score: { lenientIds: flags.lenientIds === true, ...(completionEnd ? { completionEnd } : {}) },
      checkToken: token === undefined ? undefined : bearerTokenCheck(token),
      logPath: flags.log,
      logPredictions: flags.logPredictions === true,
      workers,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
      throw new InputError(`cannot listen on ${host}:${port} (${code})`);
    }
    if (flags.log && (code === "ENOENT" || code === "EISDIR")) throw new InputError(`${flags.log}: cannot open --log file (${code})`);
    throw err;
  }
  // Start and stop lines go to stderr (the start line carries the port, needed with --port 0).
  const say = (text: string): void => {
    process.stderr.write(`mari serve: ${text}\n`);
  };
  // The first signal stops the server gracefully; a second one (no handler left) ends the process.
  // The handlers are in before the start line is out: a client that stops the server as soon as it
  // reads that line must not meet the default action.
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (name: NodeJS.Signals): void => {
      process.removeListener("SIGTERM", stop);
      process.removeListener("SIGINT", stop);
      resolve(name);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  say(`listening on ${server.url} (${caseCount(slice)} cases, slice ${server.sliceHash.slice(0, 12)}, token ${token === undefined ? "off" : "on"})`);
  const signal = await signalled;
  // close() stops listening before its first await, so by the time this line is out no new
  // connection can be accepted.
  const stopped = server.close();
  say(`${signal}: stopping (finishing requests in flight)`);
  await stopped;
  const logError = server.logError();
  if (logError !== undefined) {
    // Requests were refused (503) from the failed write on, so no answered item is missing from the log.
    say(`stopped; ${logError}: requests after it were refused`);
    return EXIT_INPUT_ERROR;
  }
  say("stopped");
  return EXIT_OK;
}
