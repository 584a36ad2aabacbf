// The commands `mari` knows, with their one-line summaries. main.ts loads only the module of the
// command being run (each pulls in a whole task), which keeps `mari --help` fast (docs/eval.md, "Performance").
import { setFlagsFromString } from "node:v8";
import type { Register } from "./command.js";
import { COMMAND_OPTIONS, type OptionCommand } from "./options/command-options.js";

export interface CommandEntry {
  summary: string;
  load: () => Promise<Register>;
}

export const COMMANDS = {
  eval: {
    summary: "score a prediction dump against a slice and write reports (documents or pairs, detected from the slice)",
    load: async () => (await import("./commands/eval.js")).registerEval,
  },
  predict: {
    summary: "run a judge over a document slice and write a prediction dump (JSONL) for `mari eval`",
    load: async () => (await import("./commands/predict.js")).registerPredict,
  },
  classify: {
    summary: "classify (new, old) memory-text pairs as distinct / restatement / update; JSONL verdicts on stdout",
    load: async () => {
      // Every pair leaves a few KB of short-lived objects, for which V8 would keep doubling its young
      // generation; loading this command's modules alone takes it from 2 to 4 MB, so the growth is
      // stopped before they load. With the small chunks of tasks/pairs/classify.ts (READ_CHUNK_BYTES):
      // about 2 MB less peak RSS, for twice the young collections (about 2 % more CPU).
      setFlagsFromString("--semi-space-growth-factor=1");
      return (await import("./commands/classify.js")).registerClassify;
    },
  },
  sweep: {
    summary: "evaluate the contradiction classifier over a grid of configs on labelled pairs",
    load: async () => (await import("./commands/sweep.js")).registerSweep,
  },
  evidence: {
    summary: "validate model citations (facts or located evidence) against the documents and materials the model saw",
    load: async () => (await import("./commands/evidence.js")).registerEvidence,
  },
  serve: {
    summary: "serve the document rewards over HTTP for RL trainers (POST /v1/rewards, POST /get_reward, GET /health)",
    load: async () => (await import("./commands/serve.js")).registerServe,
  },
  merge: {
    summary: "combine shard reports (mari eval --shard I/N) into the single-run report",
    load: async () => (await import("./commands/merge.js")).registerMerge,
  },
  diff: {
    summary: "compare two finished reports (report.json or its directory) without re-scoring: deltas, regressed and fixed cases, --max-drop gates",
    load: async () => (await import("./commands/diff.js")).registerDiff,
  },
  trend: {
    summary: "a training run's checkpoint reports on one page: each metric over the steps, its best point, the checkpoint to keep, gates on the last",
    load: async () => (await import("./commands/trend.js")).registerTrend,
  },
  view: {
    summary: "every report under the folders given on one offline page, newest first: model, slice, headline metrics, gates; filter and sort in the page",
    load: async () => (await import("./commands/view.js")).registerView,
  },
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

// Every command lists the options it takes, and only commands do (a type error otherwise).
COMMANDS satisfies Record<OptionCommand, CommandEntry>;
COMMAND_OPTIONS satisfies Record<CommandName, unknown>;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}
