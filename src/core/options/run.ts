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
  },
  shard: {
    flag: "--shard",
    value: "<i/n|auto>",
    help: {
      eval: "score only the cases whose id hashes to shard I of N (0-based); auto: from a Kubernetes Indexed Job or Slurm array",
      evidence: "score only the cases whose id hashes to shard I of N (0-based), then `mari merge`; auto: from a Kubernetes Indexed Job or Slurm array",
    },
  },
  shardCount: {
    flag: "--shard-count",
    value: "<n>",
    help: {
      eval: "with --shard auto: N (required under Kubernetes, which does not expose the job's completions)",
      evidence: "with --shard auto: N (required under Kubernetes)",
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
  },
  chunkSize: { flag: "--chunk-size", value: "<lines>", help: "lines per worker chunk (testing)", min: 1, max: MAX_CHUNK_LINES, hidden: true },
} as const satisfies Record<string, OptionSpec>;
