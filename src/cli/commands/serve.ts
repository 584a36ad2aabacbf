// `mari serve SLICE`: the document rewards as an HTTP endpoint for RL trainers (docs/serve.md).
// Parses flags, refuses a public interface without a token, starts the server and stops it on
// SIGTERM/SIGINT (in-flight requests finish), then exits 0.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { EXIT_OK } from "../exit-codes.js";
import { readSecretEnv } from "../secret-env.js";
import { readDocumentSlice } from "../../io/slice.js";
import { bearerTokenCheck, isLoopbackHost } from "../../server/auth.js";
import { startRewardsServer } from "../../server/rewards-server.js";
import { DEFAULT_WEIGHTS, parseWeights } from "../../server/weights.js";

interface ServeFlags {
  host: string;
  port: string;
  tokenEnv?: string;
  weights?: string;
  maxBody: string;
  maxItems: string;
  log?: string;
  logPredictions?: boolean;
  lenientIds?: boolean;
}

export const DEFAULT_MAX_BODY = "8mb";
export const DEFAULT_MAX_ITEMS = "100000";
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
  if (!Number.isInteger(port) || port > 65535) throw new InputError(`--port "${text}": expected 0..65535 (0 = any free port)`);
  return port;
}

export function registerServe(program: Command, wrap: ActionWrapper, summary: string): void {
  program
    .command("serve")
    .description(summary)
    .argument("<slice>", "document slice: JSONL, CSV or ContraDoc JSON (read once at start)")
    .option("--host <host>", "interface to listen on; anything but loopback needs --token-env", "127.0.0.1")
    .option("--port <port>", "port (0 = any free port, printed at start)", "8000")
    .option("--token-env <var>", "require `Authorization: Bearer <token>`, the token read from this environment variable")
    .option("--weights <w>", "scalar reward of /get_reward: accuracy=1,format=1,coverage=1 (the default)")
    .option("--max-body <size>", "largest request body; larger ones get 413", DEFAULT_MAX_BODY)
    .option("--max-items <n>", "most items (or queries) in one request; more get 413", DEFAULT_MAX_ITEMS)
    .option("--log <file>", "append one JSONL line per scored item (request id, case id, run, rewards)")
    .option("--log-predictions", "with --log: also log each prediction (model text), so `mari eval --predictions LOG` can score the log")
    .option("--lenient-ids", 'accept "3", "[3]" and 3.0 as evidence sentence IDs (as mari eval --lenient-ids)')
    .action(wrap(async (slicePath: string, flags: ServeFlags) => serveCommand(slicePath, flags)));
}

async function serveCommand(slicePath: string, flags: ServeFlags): Promise<number> {
  const port = parsePort(flags.port);
  const maxBodyBytes = parseByteSize(flags.maxBody, "--max-body");
  const maxItems = /^\d+$/.test(flags.maxItems.trim()) ? Number(flags.maxItems) : 0;
  if (!Number.isSafeInteger(maxItems) || maxItems < 1) throw new InputError(`--max-items "${flags.maxItems}": expected an integer ≥ 1`);
  const weights = flags.weights === undefined ? { ...DEFAULT_WEIGHTS } : parseWeights(flags.weights);
  if ("error" in weights) throw new InputError(weights.error);
  if (flags.logPredictions && !flags.log) throw new InputError("--log-predictions needs --log FILE");
  const host = flags.host.trim();
  if (!isLoopbackHost(host) && flags.tokenEnv === undefined) {
    throw new InputError(`--host ${host} is not a loopback interface: refusing to serve it without a bearer token (--token-env VAR)`);
  }
  const token = flags.tokenEnv === undefined ? undefined : readSecretEnv(flags.tokenEnv, "--token-env");
  const slice = await readDocumentSlice(slicePath);
  let server: Awaited<ReturnType<typeof startRewardsServer>>;
  try {
    server = await startRewardsServer({
      slice,
      host,
      port,
      weights,
      maxBodyBytes,
      maxItems,
      score: { lenientIds: flags.lenientIds === true },
      checkToken: token === undefined ? undefined : bearerTokenCheck(token),
      logPath: flags.log,
      logPredictions: flags.logPredictions === true,
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
  say(`listening on ${server.url} (${slice.cases.length} cases, slice ${server.sliceHash.slice(0, 12)}, token ${token === undefined ? "off" : "on"})`);
  // The first signal stops the server gracefully; a second one (no handler left) ends the process.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (name: NodeJS.Signals): void => {
      process.removeListener("SIGTERM", stop);
      process.removeListener("SIGINT", stop);
      resolve(name);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  // close() stops listening before its first await, so by the time this line is out no new
  // connection can be accepted.
  const stopped = server.close();
  say(`${signal}: stopping (finishing requests in flight)`);
  await stopped;
  say("stopped");
  return EXIT_OK;
}
