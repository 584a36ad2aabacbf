// How a run is divided: threads, shards, a leading slice of the cases.
import { MAX_CHUNK_LINES, MAX_EXPLORER_CASES, MAX_WORKERS, UNITS_PER_CASE } from "../limits.js";
import type { OptionSpec } from "./option.js";

export const RUN_OPTIONS = {
  workers: {
    flag: "--workers",
    value: "<n>",
    help: {
      eval: "worker threads (1 = in-process; default: chosen from the measured cost of the first 1 MB of the dump)",
      sweep: "worker threads (1 = in-process; default cores − 1)",
      merge: "worker threads for the aggregation (default 1)",
      serve: "scoring threads sharing the slice (default one per core, at most 8; 1 = score on the server's thread)",
    },
    min: 1,
    max: MAX_WORKERS,
    config: { key: "workers", value: "integer" },
    doc: {
      eval: {
        usage: "`--workers N`",
        example: "`--workers 2`",
        meaning:
          "threads scoring and aggregating, the main thread counted as one: N − 1 worker threads start and the main thread takes its share; 1 = in-process (default: chosen per run from the measured cost of scoring the dump's first block: one worker (the main thread one of them) per 24 s of predicted scoring, at most 4 and at most the cores the load average leaves idle, else in-process; `report.json` `system.workers` says which; see Performance)",
      },
      serve: {
        usage: "`--workers N`",
        default: "one per core, at most 8 (1 on a single core)",
        meaning:
          'scoring threads sharing the slice (below, "Scoring threads"); `1` scores on the server\'s own thread. The answers and the `--log` are the same for any `N`',
      },
      sweep: {
        usage: "`--workers N`",
        example: "`--workers 2`",
        meaning:
          "1 = in-process; more = a piscina pool (`src/pool`) running `dist/tasks/pairs/sweep-worker.js`, at most one thread per chunk (so a corpus of up to 256 labelled pairs, one chunk, always runs in-process). Default: cores − 1, at most 8. stderr says what ran: `(in-process)` or `(N worker threads)`",
      },
    },
  },
  shard: {
    flag: "--shard",
    value: "<i/n|auto>",
    help: {
      eval: "score only the cases whose id hashes to shard I of N (0-based); auto: from a Kubernetes Indexed Job or Slurm array",
      evidence: "score only the cases whose id hashes to shard I of N (0-based), then `mari merge`; auto: from a Kubernetes Indexed Job or Slurm array",
    },
    doc: {
      eval: {
        usage: "`--shard I/N`",
        example: "`--shard 0/4`",
        meaning: "score only cases whose id hashes to shard I of N (0-based); `auto`: I and N from a Kubernetes Indexed Job or a Slurm array (below)",
      },
      evidence: {
        usage: "`--shard I/N`",
        example: "`--shard 0/4`, `--shard auto`",
        meaning:
          "score only the cases whose id hashes to shard I of N, as `mari eval --shard` (`auto`: Kubernetes Indexed Job or Slurm array, see [eval.md](eval.md#scale-determinism-sharding))",
      },
      "eval/pairs": {
        usage: "`--shard I/N`",
        example: "`--shard 0/4`",
        meaning: "classify only the pairs whose id hashes to shard I of N (same hash as documents)",
      },
    },
  },
  shardCount: {
    flag: "--shard-count",
    value: "<n>",
    help: {
      eval: "with --shard auto: N (required under Kubernetes, which does not expose the job's completions)",
      evidence: "with --shard auto: N (required under Kubernetes)",
    },
    doc: {
      eval: { usage: "`--shard-count N`", example: "`--shard-count 4`", meaning: "with `--shard auto`: N (required under Kubernetes, optional under Slurm)" },
      evidence: { usage: "`--shard-count N`", example: "`--shard-count 4`", meaning: "with `--shard auto`: N" },
    },
  },
  limit: {
    flag: "--limit",
    value: "<n>",
    help: {
      eval: "score only the first N cases of the slice, in slice order (as mari predict --limit N judges them)",
      predict: "judge only the first N cases of the slice (a smoke test)",
    },
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    doc: {
      eval: {
        usage: "`--limit N`",
        example: "`--limit 5`",
        meaning: "score only the first N cases of the slice, in slice order: the cases `mari predict --limit N` judges (see *Smoke runs* below)",
      },
      predict: { usage: "`--limit N`", default: "all", meaning: "judge only the first N cases of the slice, in slice order (a cheap smoke test)" },
    },
  },
  explorerCases: {
    flag: "--explorer-cases",
    value: "<n>",
    help: {
      eval: `most cases report.html's case explorer carries (default {default}; with ${UNITS_PER_CASE}×N (case, run) entries)`,
      diff: "most cases diff.html's case explorer carries",
    },
    default: 2000,
    min: 1,
    max: MAX_EXPLORER_CASES,
    doc: {
      eval: {
        usage: "`--explorer-cases N`",
        example: "`--explorer-cases 5000`",
        meaning: `the most cases report.html's case explorer carries (default {default}; with ${UNITS_PER_CASE}·N (case, run) entries; [reports.md](reports.md#the-case-explorer))`,
      },
    },
  },
  chunkSize: { flag: "--chunk-size", value: "<lines>", help: "lines per worker chunk (testing)", min: 1, max: MAX_CHUNK_LINES, hidden: true },
} as const satisfies Record<string, OptionSpec>;
