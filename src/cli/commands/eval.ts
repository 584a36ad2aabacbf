// `mari eval SLICE [--predictions DUMP] …` (docs/reports.md): reads the flags (which win over
// mari.config.json, which wins over defaults), detects the task from the slice, hands over to
// `evaluateDocuments` or `runPairEval`, then prints the summary and chooses the exit code.
import { lockOutputDir } from "../../io/lock.js";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { collect, integerFlag } from "../flags.js";
import { MAX_BOOTSTRAP, MAX_CHUNK_LINES, MAX_SEED, MAX_WORKERS } from "../../core/limits.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";
import { finishReportRun } from "../summary.js";
import { listRejections } from "../../report/format.js";
import { loadMariConfig, pickOption } from "../../gates/run-config.js";
import { combineGates } from "../../gates/spec.js";
import { addGateOptions, gatesFromFlags } from "../gate-flags.js";
import { sentenceRuleOf, sentencesOption, sliceCacheDirOf, addSliceCacheOptions } from "../slice-flags.js";
import { resolveShard } from "../shard.js";
import { refuseStdinSlice, sniffSliceTask } from "../../io/slice.js";
import { addCompletionEndOptions, completionEndFromFlags, type CompletionEndFlags } from "../completion-end-flags.js";
import { parseReportFormats, staleReportFiles } from "../../report/write.js";
import type { Report } from "../../report/types.js";
import { EXPLORER_CASE_CAP, MAX_EXPLORER_CASES, UNITS_PER_CASE } from "../../report/explorer.js";
import type { Shard } from "../../tasks/document/score-dump.js";
import { REPLAY_PHASES, type ReplayPhase } from "../../tasks/document/serve-replay.js";

interface EvalFlags extends CompletionEndFlags {
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
  shardCount?: string;
  seed?: string;
  bootstrap?: string;
  progress?: string;
  strict?: boolean;
  quiet?: boolean;
  lenientIds?: boolean;
  limit?: string;
  idField?: string;
  phase?: string;
  config?: string;
  chunkSize?: string;
  costs?: string;
  classifier: string[];
  sentences?: string;
  cache?: boolean;
  cacheDir?: string;
  explorerCases?: string;
}

/** `--shard I/N` (see ../shard.ts for `auto`). */
export function parseShard(text: string | undefined): Shard | undefined {
  return resolveShard(text, undefined, {});
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 4));
}

export function registerEval(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("eval")
    .description(summary)
    .argument("<slice>", "dataset slice: JSONL, CSV or ContraDoc JSON")
    .option(
      "--predictions <dump>",
      "prediction dump (JSONL: structured, cache or raw-completion lines); without it, the built-in lexical judge (a baseline) produces one",
    )
    .option("--out <dir>", "output directory (default ./mari-report)")
    .option("--report <formats>", "report formats: json,md,html,junit (default all)")
    .option("--rewards <file>", "write one JSONL reward line per scored prediction, in input order")
    .option("--baseline <report>", "a previous report.json (with its cases.jsonl) for --max-drop gates")
    .option("--workers <n>", "worker threads (1 = in-process; default: chosen from the measured cost of the first 1 MB of the dump)")
    .option("--shard <i/n|auto>", "score only the cases whose id hashes to shard I of N (0-based); auto: from a Kubernetes Indexed Job or Slurm array")
    .option("--shard-count <n>", "with --shard auto: N (required under Kubernetes, which does not expose the job's completions)")
    .option("--seed <s>", "bootstrap seed (default 0)")
    .option("--bootstrap <b>", "bootstrap resamples for the macro-F1 interval (default 1000)")
    .option("--progress <mode>", "auto|bar|plain|none (stderr)")
    .option("--strict", "exit 2 when any slice record or dump line is rejected or any prediction is format-invalid")
    .option("--quiet", "no summary on stdout, no notes, and no progress display unless --progress asks for one")
    .option("--lenient-ids", 'accept "3", "[3]" and 3.0 as evidence sentence IDs')
    .option("--id-field <name>", "an inspect_ai or promptfoo log as --predictions: the sample metadata field or test var holding the case id")
    .option("--phase <phase>", "a mari serve --log whose items carry their generation identity: replay the train (default) or eval phase")
    .option("--limit <n>", "score only the first N cases of the slice, in slice order (as mari predict --limit N judges them)")
    .option(
      "--explorer-cases <n>",
      `most cases report.html's case explorer carries (default ${EXPLORER_CASE_CAP}; with ${UNITS_PER_CASE}×N (case, run) entries)`,
    )
    .option("--config <file>", "config file (default ./mari.config.json when present)")
    .option("--costs <file>", "pairs: JSON unit prices for RevisionCost (downrank_live, lost_corroboration, stale_kept, false_corroboration)")
    .option("--classifier <key=value>", "pairs: classifier threshold, e.g. residueMax=1 (repeatable)", collect, [])
    .addOption(new Option("--chunk-size <lines>", "lines per worker chunk (testing)").hideHelp());
  addCompletionEndOptions(command);
  command.addOption(sentencesOption());
  addSliceCacheOptions(command);
  addGateOptions(command, { maxDrop: true, example: "accuracy>=0.6", invalid: "largest share (0.05, 5%) or count (3) of format-invalid predictions" });
  command.addHelpText(
    "after",
    `
--predictions takes structured, cache, raw-completion and Batch API / vLLM run_batch output lines
(detected per line), as JSONL or Parquet, or an inspect_ai log (.eval, .json) or a promptfoo output
(results.json, results.jsonl), detected from the content. Writes report.json, report.md,
report.html, report.junit.xml and cases.jsonl into --out.

Examples:
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions dump.jsonl --out report
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions batch-output.jsonl --gate 'accuracy>=0.6'
  mari eval datasets/contradoc/contradoc-160.jsonl --out lexical-report     # built-in lexical baseline

Exit codes: 0 every gate passed; 1 a gate failed; 2 usage or input error (unreadable slice or dump,
a gate naming no metric, zero cases scored, --strict violations); 3 internal error.`,
  );
  command.action(wrap(async (slicePath: string, flags: EvalFlags) => evalCommand(slicePath, flags)));
}

async function evalCommand(slicePath: string, flags: EvalFlags): Promise<number> {
  const started = process.hrtime.bigint();
  let task: "documents" | "pairs";
  // Before the try: its message is whole as it is, not one to wrap in "cannot read slice".
  refuseStdinSlice(slicePath);
  try {
    task = await sniffSliceTask(slicePath);
  } catch (err) {
    throw new InputError(`${slicePath}: cannot read slice: ${(err as Error).message}`);
  }
  // The config's top-level settings and the section of this task (a documents gate never gates pairs).
  const config = await loadMariConfig(flags.config, undefined, task);
  const common = commonSettings(flags, config);
  if (task === "pairs") return evalPairs(slicePath, flags, config, common);
  return evalDocuments(slicePath, flags, config, common, started);
}

type EvalConfig = Awaited<ReturnType<typeof loadMariConfig>>;

/** What both tasks take from the flags and the config, checked in this order. */
function commonSettings(flags: EvalFlags, config: EvalConfig) {
  const gates = combineGates(gatesFromFlags(flags), config.gates);
  const shard = resolveShard(flags.shard, flags.shardCount);
  const outDir = pickOption(flags.out, config.out, "mari-report");
  const formats = parseReportFormats(flags.report ?? config.report);
  const quiet = pickOption(flags.quiet, config.quiet, false);
  const progressMode = progressModeFor(flags.progress ?? config.progress, quiet);
  const strict = pickOption(flags.strict, config.strict, false);
  const workersAsked = pickOption(integerFlag("--workers", flags.workers, 1, MAX_WORKERS), config.workers, undefined);
  const explorerCases = integerFlag("--explorer-cases", flags.explorerCases, 1, MAX_EXPLORER_CASES);
  return { gates, shard, outDir, formats, quiet, progressMode, strict, workersAsked, explorerCases };
}

type CommonSettings = ReturnType<typeof commonSettings>;

function replayPhaseOf(value: string): ReplayPhase {
  const phase = REPLAY_PHASES.find((p) => p === value);
  if (phase === undefined) throw new InputError(`--phase ${JSON.stringify(value)}: give ${REPLAY_PHASES.join(" or ")}`);
  return phase;
}

/**
 * Pair corpora (docs/pairs.md) are evaluated by the pair task with the built-in classifier. Flags that
 * only mean something for documents are refused rather than ignored: a silently ignored
 * --predictions would report the classifier's numbers as if they were the user's model's.
 */
async function evalPairs(slicePath: string, flags: EvalFlags, config: EvalConfig, common: CommonSettings): Promise<number> {
  const { shard, outDir, formats, gates, strict, quiet, progressMode, explorerCases } = common;
  const workers = common.workersAsked ?? defaultWorkers();
  const documentOnly = [
    ["--predictions", flags.predictions],
    ["--rewards", flags.rewards],
    ["--baseline", flags.baseline],
    ["--seed", flags.seed],
    ["--bootstrap", flags.bootstrap],
    ["--lenient-ids", flags.lenientIds],
    ["--keep-special-tokens", flags.keepSpecialTokens],
    ["--special-token", flags.specialToken?.length ? flags.specialToken : undefined],
    ["--sentences", flags.sentences],
    ["--limit", flags.limit],
    ["--id-field", flags.idField],
    ["--phase", flags.phase],
  ].filter(([, value]) => value !== undefined && value !== false);
  if (documentOnly.length > 0) {
    throw new InputError(
      `${slicePath}: a pair corpus is evaluated by the built-in classifier; ${documentOnly.map(([name]) => name).join(", ")} only apply to document slices`,
    );
  }
  lockOutputDir(outDir);
  // Files of formats not asked for that mari did not write: refused now, not after the run.
  await staleReportFiles(outDir, formats);
  // Each task's modules are loaded only when the slice is of that task (start-up time).
  const { classifierConfigFromFlags, runPairEval } = await import("../../tasks/pairs/run.js");
  const outcome = await runPairEval({
    pairs: slicePath,
    out: outDir,
    costs: flags.costs ?? config.costs,
    classifierConfig: classifierConfigFromFlags(flags.classifier),
    shard,
    formats,
    gates,
    strict,
    observer: terminalObserver(progressMode, quiet),
    workers,
    recordConfig: config.path ? { config_file: config.path } : {},
    ...(explorerCases !== undefined ? { explorerCases } : {}),
  });
  return finishReportRun(outcome, quiet);
}

async function evalDocuments(slicePath: string, flags: EvalFlags, config: EvalConfig, common: CommonSettings, started: bigint): Promise<number> {
  const { shard, outDir, formats, gates, strict, quiet, progressMode, workersAsked, explorerCases } = common;
  const seed = pickOption(integerFlag("--seed", flags.seed, 0, MAX_SEED), config.seed, 0);
  const bootstrap = pickOption(integerFlag("--bootstrap", flags.bootstrap, 0, MAX_BOOTSTRAP), config.bootstrap, 1000);
  const rewardsPath = flags.rewards ?? config.rewards;
  const baselinePath = flags.baseline ?? config.baseline;
  const chunkLines = integerFlag("--chunk-size", flags.chunkSize, 1, MAX_CHUNK_LINES);
  const completionEnd = completionEndFromFlags(flags);
  const limit = integerFlag("--limit", flags.limit, 1, Number.MAX_SAFE_INTEGER);

  const { checkDocumentGatesEarly, checkLimitAndShard, evaluateDocuments } = await import("../../tasks/document/evaluate.js");
  checkLimitAndShard(limit, shard);
  checkDocumentGatesEarly({ gates, bootstrap, ...(baselinePath !== undefined ? { baselinePath } : {}) });
  // After every flag and gate is checked: a usage error leaves no output directory behind.
  lockOutputDir(outDir);
  // Files of formats not asked for that mari did not write: refused now, not after the run.
  await staleReportFiles(outDir, formats);
  const outcome = await evaluateDocuments({
    slicePath,
    ...(flags.predictions !== undefined ? { dumpPath: flags.predictions } : {}),
    outDir,
    formats,
    strict,
    sentences: pickOption(flags.sentences === undefined ? undefined : sentenceRuleOf(flags), config.sentences, "mari"),
    sliceCacheDir: sliceCacheDirOf(flags),
    // Unset: chosen from the measured cost of scoring the dump's first block.
    workers: workersAsked ?? "auto",
    gates,
    seed,
    bootstrap,
    ...(shard ? { shard } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(flags.idField !== undefined ? { idField: flags.idField } : {}),
    ...(flags.phase !== undefined ? { phase: replayPhaseOf(flags.phase) } : {}),
    lenientIds: pickOption(flags.lenientIds, config.lenient_ids, false),
    ...(completionEnd ? { completionEnd } : {}),
    ...(rewardsPath !== undefined ? { rewardsPath } : {}),
    ...(baselinePath !== undefined ? { baselinePath } : {}),
    ...(chunkLines !== undefined ? { chunkLines } : {}),
    ...(explorerCases !== undefined ? { explorerCases } : {}),
    configPath: config.path,
    observer: terminalObserver(progressMode, quiet),
    started,
  });
  // The main job (the built-in judge on a slice): say how to put one's own model in its place.
  const next =
    flags.predictions === undefined
      ? `evaluate your own model: mari predict ${slicePath} --judge openai --base-url URL --model NAME --out dump.jsonl, then mari eval ${slicePath} --predictions dump.jsonl`
      : undefined;
  return finishReportRun(outcome, quiet, rejectionNotes(outcome.report, outcome.outDir), next);
}

/** Rejected dump lines, printed before the summary, by the one listing rule (the first ten, then how many more), and the orphans. */
function rejectionNotes(report: Report, outDir: string): string[] {
  const listed = report.rejection_examples.filter((ex) => ex.reason !== "missing_prediction");
  const total = Object.entries(report.rejections).reduce((sum, [reason, n]) => (reason === "missing_prediction" ? sum : sum + n), 0);
  const notes = listRejections(listed, total, join(outDir, "report.json"));
  // Orphans too, each at the dump line where its case id first appears.
  const orphans = report.orphans;
  const dumpName = report.predictions?.path;
  if (orphans && dumpName) {
    orphans.examples.slice(0, 10).forEach((id, i) => {
      const line = orphans.first_lines?.[i];
      notes.push(`${line !== undefined ? `${dumpName}:${line}` : dumpName}: orphan: case id ${JSON.stringify(id)} is not in the slice (not scored)`);
    });
  }
  return notes;
}
