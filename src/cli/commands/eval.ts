// `mari eval SLICE [--predictions DUMP] …` (SPEC §4): reads the flags (which win over
// mari.config.json, which wins over defaults), detects the task from the slice, hands over to
// `evaluateDocuments` or `runPairEval`, then prints the summary and chooses the exit code.
import { lockOutputDir } from "../../io/lock.js";
import { availableParallelism } from "node:os";
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { COMMANDS } from "../command-list.js";
import { InputError } from "../../io/errors.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_BOOTSTRAP, MAX_CHUNK_LINES, MAX_SEED, MAX_SHARDS, MAX_WORKERS } from "../../core/limits.js";
import { terminalObserver } from "../observer.js";
import { parseProgressMode } from "../progress.js";
import { finishReportRun } from "../summary.js";
import { loadMariConfig, pickOption } from "../../gates/config.js";
import { combineGates, parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "../../gates/spec.js";
import { sniffSliceTask } from "../../io/slice.js";
import { parseReportFormats } from "../../report/write.js";
import { classifierConfigFromFlags, runPairEval } from "../../tasks/pairs/run.js";
import { evaluateDocuments } from "../../tasks/document/evaluate.js";
import type { Shard } from "../../tasks/document/run.js";

interface EvalFlags {
  predictions?: string;
  out?: string;
  report?: string;
  rewards?: string;
  baseline?: string;
  gate: string[];
  maxDrop: string[];
  maxInvalidRate?: string;
  workers?: string;
  shard?: string;
  seed?: string;
  bootstrap?: string;
  progress?: string;
  strict?: boolean;
  quiet?: boolean;
  lenientIds?: boolean;
  config?: string;
  chunkSize?: string;
  costs?: string;
  classifier: string[];
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function integerFlag(name: string, text: string | undefined, min: number, max: number): number | undefined {
  return text === undefined ? undefined : boundedInteger(name, text, min, max);
}

export function parseShard(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > MAX_SHARDS || Number(m[1]) >= Number(m[2])) {
    throw new InputError(`--shard "${text}": expected I/N with 0 ≤ I < N ≤ ${MAX_SHARDS} (e.g. 0/4)`);
  }
  return { index: Number(m[1]), count: Number(m[2]) };
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 4));
}

export function registerEval(program: Command, wrap: ActionWrapper): void {
  program
    .command("eval")
    .description(COMMANDS.eval.summary)
    .argument("<slice>", "dataset slice: JSONL, CSV or ContraDoc JSON")
    .option("--predictions <dump>", "prediction dump (JSONL: structured, cache or raw-completion lines); without it, the built-in lexical judge (a baseline) produces one")
    .option("--out <dir>", "output directory (default ./mari-report)")
    .option("--report <formats>", "report formats: json,md,html,junit (default all)")
    .option("--rewards <file>", "write one JSONL reward line per scored prediction, in input order")
    .option("--baseline <report>", "a previous report.json (with its cases.jsonl) for --max-drop gates")
    .option("--gate <metric>=<value>", "gate, e.g. accuracy>=0.6 (repeatable)", collect, [])
    .option("--max-drop <metric=delta>", "largest allowed drop vs --baseline, e.g. macro_f1=0.02 (repeatable)", collect, [])
    .option("--max-invalid-rate <r>", "largest share (0.05, 5%) or count (3) of format-invalid predictions")
    .option("--workers <n>", "worker threads (1 = in-process)")
    .option("--shard <i/n>", "score only the cases whose id hashes to shard I of N (0-based)")
    .option("--seed <s>", "bootstrap seed (default 0)")
    .option("--bootstrap <b>", "bootstrap resamples for the macro-F1 interval (default 1000)")
    .option("--progress <mode>", "auto|bar|plain|none (stderr)")
    .option("--strict", "exit 2 when any dump line is rejected or any prediction is format-invalid")
    .option("--quiet", "no summary on stdout")
    .option("--lenient-ids", 'accept "3", "[3]" and 3.0 as evidence sentence IDs')
    .option("--config <file>", "config file (default ./mari.config.json when present)")
    .option("--costs <file>", "pairs: JSON unit prices for RevisionCost (downrank_live, lost_corroboration, stale_kept, false_corroboration)")
    .option("--classifier <key=value>", "pairs: classifier threshold, e.g. residueMax=1 (repeatable)", collect, [])
    .addOption(new Option("--chunk-size <lines>", "lines per worker chunk (testing)").hideHelp())
    .action(wrap(async (slicePath: string, flags: EvalFlags) => evalCommand(slicePath, flags)));
}

async function evalCommand(slicePath: string, flags: EvalFlags): Promise<number> {
  const started = process.hrtime.bigint();
  const config = await loadMariConfig(flags.config);
  const flagGates: GateSpec[] = [
    ...flags.gate.map((text) => parseGateFlag(text)),
    ...flags.maxDrop.map((text) => parseMaxDropFlag(text)),
    ...(flags.maxInvalidRate !== undefined ? [parseMaxInvalidRate(flags.maxInvalidRate)] : []),
  ];
  const gates = combineGates(flagGates, config.gates);
  const outDir = pickOption(flags.out, config.out, "mari-report");
  const formats = parseReportFormats(flags.report ?? config.report);
  const progressMode = parseProgressMode(flags.progress ?? config.progress);
  const quiet = pickOption(flags.quiet, config.quiet, false);
  const strict = pickOption(flags.strict, config.strict, false);
  const workers = pickOption(integerFlag("--workers", flags.workers, 1, MAX_WORKERS), config.workers, defaultWorkers());

  let task: "documents" | "pairs";
  try {
    task = await sniffSliceTask(slicePath);
  } catch (err) {
    throw new InputError(`${slicePath}: cannot read slice: ${(err as Error).message}`);
  }
  if (task === "pairs") {
    // Pair corpora (SPEC §2) are evaluated by the pair task with the built-in classifier. Flags that
    // only mean something for documents are refused rather than ignored: a silently ignored
    // --predictions would report the classifier's numbers as if they were the user's model's.
    const documentOnly = [
      ["--predictions", flags.predictions],
      ["--rewards", flags.rewards],
      ["--baseline", flags.baseline],
      ["--seed", flags.seed],
      ["--bootstrap", flags.bootstrap],
      ["--lenient-ids", flags.lenientIds],
    ].filter(([, value]) => value !== undefined && value !== false);
    if (documentOnly.length > 0) {
      throw new InputError(
        `${slicePath}: a pair corpus is evaluated by the built-in classifier; ${documentOnly.map(([name]) => name).join(", ")} only apply to document slices`,
      );
    }
    lockOutputDir(outDir);
    const outcome = await runPairEval({
      pairs: slicePath,
      out: outDir,
      costs: flags.costs ?? config.costs,
      classifierConfig: classifierConfigFromFlags(flags.classifier),
      shard: parseShard(flags.shard),
      formats,
      gates,
      strict,
      observer: terminalObserver(progressMode, quiet),
      workers,
      recordConfig: config.path ? { config_file: config.path } : {},
    });
    return finishReportRun(outcome, quiet);
  }
  const seed = pickOption(integerFlag("--seed", flags.seed, 0, MAX_SEED), config.seed, 0);
  const bootstrap = pickOption(integerFlag("--bootstrap", flags.bootstrap, 0, MAX_BOOTSTRAP), config.bootstrap, 1000);
  const shard = parseShard(flags.shard);
  const rewardsPath = flags.rewards ?? config.rewards;
  const baselinePath = flags.baseline ?? config.baseline;
  const chunkLines = integerFlag("--chunk-size", flags.chunkSize, 1, MAX_CHUNK_LINES);

  // After every flag is read: a usage error leaves no output directory behind.
  lockOutputDir(outDir);
  const outcome = await evaluateDocuments({
    slicePath,
    ...(flags.predictions !== undefined ? { dumpPath: flags.predictions } : {}),
    outDir,
    formats,
    strict,
    workers,
    gates,
    seed,
    bootstrap,
    ...(shard ? { shard } : {}),
    lenientIds: pickOption(flags.lenientIds, config.lenient_ids, false),
    ...(rewardsPath !== undefined ? { rewardsPath } : {}),
    ...(baselinePath !== undefined ? { baselinePath } : {}),
    ...(chunkLines !== undefined ? { chunkLines } : {}),
    configPath: config.path,
    observer: terminalObserver(progressMode, quiet),
    started,
  });
  // Rejected dump lines, as `file:line: reason: message`, after the summary (the first ten).
  const notes = outcome.report.rejection_examples.slice(0, 10).map((ex) => `${ex.where}: ${ex.reason}: ${ex.message}`);
  // Orphans too, each at the dump line where its case id first appears.
  const orphans = outcome.report.orphans;
  const dumpName = outcome.report.predictions?.path;
  if (orphans && dumpName) {
    orphans.examples.slice(0, 10).forEach((id, i) => {
      const line = orphans.first_lines?.[i];
      notes.push(`${line !== undefined ? `${dumpName}:${line}` : dumpName}: orphan: case id ${JSON.stringify(id)} is not in the slice (not scored)`);
    });
  }
  return finishReportRun(outcome, quiet, notes);
}
