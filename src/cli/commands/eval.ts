// `mari eval SLICE [--predictions DUMP] …` (SPEC §4): detects the task from the slice (pairs go to
// the pair evaluator), scores a document dump, writes the report files, applies gates and maps the
// outcome onto an exit code. Flags win over mari.config.json, which wins over defaults.
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { COMMANDS } from "../command-list.js";
import { EXIT_GATE_FAILED, EXIT_INPUT_ERROR, EXIT_OK, InputError } from "../errors.js";
import { createProgress, parseProgressMode, type ProgressMode } from "../progress.js";
import { printSummary } from "../summary.js";
import { loadMariConfig, pickOption } from "../../gates/config.js";
import { combineGates, parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "../../gates/spec.js";
import { compareWithBaseline, loadBaseline, readPairedOutcomes } from "../../gates/baseline.js";
import { DOCUMENT_CLASSES } from "../../gates/paired.js";
import { evaluateGates } from "../../gates/evaluate.js";
import { readDocumentSlice, sniffSliceTask } from "../../io/slice.js";
import { LEXICAL_JUDGE_NAME, LEXICAL_JUDGE_NOTE, runLexicalJudge } from "../../judges/lexical.js";
import { writePredictionDump } from "../../judges/dump-writer.js";
import { readDumpMeta } from "../../judges/dump-meta.js";
import { parseReportFormats, writeReportFiles } from "../../report/write.js";
import type { ReportFormat } from "../../report/types.js";
import { classifierConfigFromFlags, runPairEval } from "../../tasks/pairs.js";
import { buildDocumentReport, strictViolations } from "../../tasks/document-report.js";
import { runDocumentEval, type Shard } from "../../tasks/document.js";

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

function integerFlag(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim()) || Number(text) < min) throw new InputError(`${name} "${text}": expected an integer ≥ ${min}`);
  return Number(text);
}

export function parseShard(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) {
    throw new InputError(`--shard "${text}": expected I/N with 0 ≤ I < N (e.g. 0/4)`);
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
    .addHelpText(
      "after",
      `
--predictions takes structured, cache, raw-completion and Batch API / vLLM run_batch output lines
(detected per line). Writes report.json, report.md, report.html, junit.xml and cases.jsonl into --out.

Examples:
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions dump.jsonl --out report
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions batch-output.jsonl --gate accuracy>=0.6
  mari eval datasets/contradoc/contradoc-160.jsonl --out lexical-report     # built-in lexical baseline

Exit codes: 0 every gate passed; 1 a gate failed; 2 usage or input error (unreadable slice or dump,
zero cases scored, --strict violations); 3 internal error.`,
    )
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
  const workers = pickOption(integerFlag("--workers", flags.workers, 1), config.workers, defaultWorkers());

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
    return runPairEval({
      pairs: slicePath,
      out: outDir,
      costs: flags.costs ?? config.costs,
      classifierConfig: classifierConfigFromFlags(flags.classifier),
      shard: parseShard(flags.shard),
      formats,
      gates,
      strict,
      quiet,
      progress: progressMode,
      workers,
      recordConfig: config.path ? { config_file: config.path } : {},
    });
  }

  const settings: DocumentRunSettings = {
    slicePath,
    outDir,
    formats,
    progressMode,
    quiet,
    strict,
    workers,
    gates,
    seed: pickOption(integerFlag("--seed", flags.seed, 0), config.seed, 0),
    bootstrap: pickOption(integerFlag("--bootstrap", flags.bootstrap, 0), config.bootstrap, 1000),
    shard: parseShard(flags.shard),
    lenientIds: pickOption(flags.lenientIds, config.lenient_ids, false),
    rewardsPath: flags.rewards ?? config.rewards,
    baselinePath: flags.baseline ?? config.baseline,
    chunkLines: integerFlag("--chunk-size", flags.chunkSize, 1),
    configPath: config.path,
    started,
  };
  const dumpPath = flags.predictions;
  if (dumpPath === undefined) return evaluateWithLexicalJudge(settings);
  return evaluateDocumentDump(settings, dumpPath, null);
}

/**
 * No dump given: the built-in lexical judge (SPEC §6) produces one next to the report, so a fresh
 * install runs the main job offline. The report names the judge and says it is a baseline.
 */
async function evaluateWithLexicalJudge(settings: DocumentRunSettings): Promise<number> {
  const dumpPath = join(settings.outDir, LEXICAL_DUMP_NAME);
  await asInputErrors(async () => {
    const slice = await readDocumentSlice(settings.slicePath);
    await writePredictionDump(dumpPath, runLexicalJudge(slice.cases));
  });
  if (!settings.quiet) {
    process.stderr.write(`mari: no --predictions given: the built-in lexical judge (a baseline) wrote ${dumpPath}\n`);
  }
  return evaluateDocumentDump(settings, dumpPath, { name: LEXICAL_JUDGE_NAME, note: LEXICAL_JUDGE_NOTE });
}

/** Where `mari eval` without --predictions keeps the lexical judge's dump (inside --out). */
export const LEXICAL_DUMP_NAME = "lexical.predictions.jsonl";

/** File-system failures that are the user's to fix (exit 2), not internal errors. */
const USER_FS_ERRORS = new Set(["EACCES", "EPERM", "ENOTDIR", "EISDIR", "EROFS", "ENOSPC", "ENOENT", "EEXIST"]);

/** Runs `action`, reporting an unwritable output location as an input error naming the path. */
async function asInputErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (!(err instanceof InputError) && e.code !== undefined && USER_FS_ERRORS.has(e.code)) {
      throw new InputError(`${e.path ?? "output"}: cannot write (${e.message})`);
    }
    throw err;
  }
}

/** Everything `mari eval` resolved from flags and config for a document slice. */
export interface DocumentRunSettings {
  slicePath: string;
  outDir: string;
  formats: ReportFormat[];
  progressMode: ProgressMode;
  quiet: boolean;
  strict: boolean;
  workers: number;
  gates: GateSpec[];
  seed: number;
  bootstrap: number;
  shard: Shard | undefined;
  lenientIds: boolean;
  rewardsPath: string | undefined;
  baselinePath: string | undefined;
  chunkLines: number | undefined;
  configPath: string | null;
  /** process.hrtime.bigint() when the command started (for elapsed_seconds). */
  started: bigint;
}

/**
 * Scores a document dump and writes the reports: the one call after a dump exists, whether the
 * user gave it or a built-in judge produced it (`judge` then names it in the report). Returns the
 * exit code.
 */
export async function evaluateDocumentDump(
  settings: DocumentRunSettings,
  dumpPath: string,
  judge: { name: string; note?: string } | null,
): Promise<number> {
  return asInputErrors(() => evaluate(settings, dumpPath, judge));
}

async function evaluate(settings: DocumentRunSettings, dumpPath: string, judge: { name: string; note?: string } | null): Promise<number> {
  const { slicePath, outDir, formats, progressMode, quiet, strict, workers, gates, seed, bootstrap, shard, lenientIds, rewardsPath, baselinePath } = settings;
  // Loaded before the run: a bad baseline should fail fast, not after a long evaluation.
  const baseline = baselinePath !== undefined ? await loadBaseline(baselinePath) : undefined;

  let dumpBytes: number;
  try {
    const info = await stat(dumpPath);
    if (!info.isFile()) throw new Error("not a file");
    dumpBytes = info.size;
  } catch (err) {
    throw new InputError(`--predictions ${dumpPath}: cannot read the dump (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const totalMb = Math.max(1, Math.ceil(dumpBytes / 1e6));
  const progress = createProgress({ mode: progressMode, label: "eval (MB)", total: totalMb });
  let reportedMb = 0;
  const result = await runDocumentEval({
    slicePath,
    dumpPath,
    outDir,
    workers,
    chunkLines: settings.chunkLines,
    seed,
    bootstrap,
    lenientIds,
    ...(shard ? { shard } : {}),
    ...(rewardsPath !== undefined ? { rewardsPath } : {}),
    onProgress: (done) => {
      const mb = Math.floor(done / 1e6);
      if (mb > reportedMb) {
        progress.tick(mb - reportedMb);
        reportedMb = mb;
      }
    },
  });
  // Ticks count whole megabytes read; the last part of a megabyte (all of a small dump) ends here.
  if (totalMb > reportedMb) progress.tick(totalMb - reportedMb);
  progress.done();

  const report = await buildDocumentReport(result, {
    slicePath,
    dumpPath,
    seed,
    bootstrap,
    workers,
    shard,
    judge: judge?.name ?? null,
    ...(judge?.note !== undefined ? { judgeNote: judge.note } : {}),
    config: {
      slice: resolve(slicePath),
      predictions: resolve(dumpPath),
      bootstrap,
      lenient_ids: lenientIds,
      strict,
      shard: shard ? `${shard.index}/${shard.count}` : null,
      config_file: settings.configPath,
    },
    elapsedSeconds: 0,
  });
  if (baseline) {
    const { outcomes } = await readPairedOutcomes(result.casesPath);
    report.baseline = compareWithBaseline(outcomes, baseline, {
      seed,
      resamples: bootstrap,
      classes: DOCUMENT_CLASSES,
      currentSliceHash: result.sliceHash,
    });
  }
  const judgeRun = await readDumpMeta(dumpPath, (message) => process.stderr.write(`mari: warning: ${message}\n`));
  if (judgeRun !== undefined) report.system.judge_run = judgeRun;
  report.gates = evaluateGates(report, gates);
  report.elapsed_seconds = Number(process.hrtime.bigint() - settings.started) / 1e9;

  const inputErrors: string[] = [];
  const scored = result.aggregate.casesScored;
  // A shard that holds no slice case has nothing to score; that is not an input error (small
  // slices over many shards), and `mari merge` accepts its empty report.
  const emptyShard = shard !== undefined && result.cases.length === 0;
  if (scored === 0 && !emptyShard) inputErrors.push(`${dumpPath}: zero cases scored (no dump line matched a slice case)`);
  if (emptyShard) process.stderr.write(`mari: shard ${shard!.index}/${shard!.count} holds no case of this slice\n`);
  const violations = strict ? strictViolations(report) : [];
  if (violations.length > 0) inputErrors.push(`--strict: ${violations.join(", ")}`);
  const files = await writeReportFiles(outDir, report, formats, { inputErrors });
  printSummary(report, { quiet, outDir, files });
  for (const ex of report.rejection_examples.slice(0, 10)) process.stderr.write(`${ex.where}: ${ex.reason}: ${ex.message}\n`);
  if (inputErrors.length > 0) {
    for (const message of inputErrors) process.stderr.write(`mari: ${message}\n`);
    return EXIT_INPUT_ERROR;
  }
  return report.gates.every((g) => g.passed) ? EXIT_OK : EXIT_GATE_FAILED;
}
