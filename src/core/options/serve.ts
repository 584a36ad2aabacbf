// `mari serve`: where it listens, who may call it, how much one request may carry, what it logs.
import type { OptionSpec } from "./option.js";

export const SERVE_OPTIONS = {
  host: {
    flag: "--host",
    value: "<host>",
    help: "interface to listen on (default {default}); anything but loopback needs --token-env",
    default: "127.0.0.1",
  },
  port: { flag: "--port", value: "<port>", help: "port (default {default}; 0 = any free port, printed at start)", default: "8000" },
  tokenEnv: {
    flag: "--token-env",
    value: "<var>",
    help: "require `Authorization: Bearer <token>`, the token read from this environment variable",
  },
  weights: { flag: "--weights", value: "<w>", help: "scalar reward of /get_reward", defaultText: "accuracy=1,format=1,coverage=1" },
  maxBody: { flag: "--max-body", value: "<size>", help: "largest request body (default {default}); larger ones get 413", default: "8mb" },
  maxItems: {
    flag: "--max-items",
    value: "<n>",
    help: "most items (or queries) in one request (default {default}); more get 413",
    default: "100000",
  },
  log: { flag: "--log", value: "<file>", help: "append one JSONL line per scored item (request id, case id, run, rewards)" },
  logPredictions: {
    flag: "--log-predictions",
    help: "with --log: also log each prediction (model text), so `mari eval --predictions LOG` can score the log",
  },
} as const satisfies Record<string, OptionSpec>;
