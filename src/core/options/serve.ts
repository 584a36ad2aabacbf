// `mari serve`: where it listens, who may call it, how much one request may carry, what it logs.
import type { OptionSpec } from "./option.js";

/** The ports a server of mari may listen on (`mari serve --port`, `mari view --port`); 0 asks the system for a free one. */
export const PORT_RANGE = { min: 0, max: 65_535 } as const;

export const SERVE_OPTIONS = {
  host: {
    flag: "--host",
    value: "<host>",
    help: "interface to listen on (default {default}); anything but loopback needs --token-env",
    default: "127.0.0.1",
    doc: {
      serve: {
        usage: "`--host HOST`",
        meaning:
          "interface to listen on. Anything but loopback (`127.x.x.x`, `::1`, `localhost`) needs `--token-env` or `mari serve` refuses to start (exit 2)",
      },
    },
  },
  port: {
    flag: "--port",
    value: "<port>",
    help: "port (default {default}; 0 = any free port, printed at start)",
    default: "8000",
    ...PORT_RANGE,
    doc: { serve: { usage: "`--port N`", meaning: "port; `0` = any free port (read it from the start line)" } },
  },
  tokenEnv: {
    flag: "--token-env",
    value: "<var>",
    help: "require `Authorization: Bearer <token>`, the token read from this environment variable",
    doc: {
      serve: {
        usage: "`--token-env VAR`",
        default: "—",
        meaning: "every request must carry `Authorization: Bearer <token>`, the token read from the environment variable `VAR` (never printed)",
      },
    },
  },
  weights: {
    flag: "--weights",
    value: "<w>",
    help: "scalar reward of /get_reward",
    defaultText: "accuracy=1,format=1,coverage=1",
    doc: {
      serve: {
        usage: "`--weights W`",
        meaning: "the scalar reward of `/get_reward` (below); names not given keep weight 1",
      },
    },
  },
  maxBody: {
    flag: "--max-body",
    value: "<size>",
    help: "largest request body (default {default}); larger ones get 413",
    default: "8mb",
    doc: { serve: { usage: "`--max-body SIZE`", meaning: "largest request body (`512kb`, `100000`); a larger one gets 413" } },
  },
  maxItems: {
    flag: "--max-items",
    value: "<n>",
    help: "most items (or queries) in one request (default {default}); more get 413",
    default: "100000",
    doc: { serve: { usage: "`--max-items N`", meaning: "most items (or `query` entries) in one request; more get 413 `too_many_items`" } },
  },
  log: {
    flag: "--log",
    value: "<file>",
    help: "append one JSONL line per scored item (request id, case id, run, rewards)",
    doc: { serve: { usage: "`--log FILE`", default: "—", meaning: "append one JSONL line per scored item (a regular file; not the slice, not a FIFO)" } },
  },
  logPredictions: {
    flag: "--log-predictions",
    help: "with --log: also log each prediction (model text), so `mari eval --predictions LOG` can score the log",
    doc: { serve: { usage: "`--log-predictions`", default: "—", meaning: "with `--log`: also log each item's prediction (the model's text)" } },
  },
} as const satisfies Record<string, OptionSpec>;
