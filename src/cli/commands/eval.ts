// `mari eval SLICE [--predictions DUMP] …` (docs/reports.md): reads the flags (which win over
// mari.config.json, which wins over defaults), detects the task from the slice, hands over to
// `evaluateDocuments` or `runPairEval`, then prints the summary and chooses the exit code.
import { lockOutputDir } from "../../io/lock.js";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { InputError } from "../../io/errors.js";
import { terminalObserver } from "../observer.js";
import { finishReportRun } from "../summary.js";
import { listRejections } from "../../report/format.js";
import { loadMariConfig, type MariConfig } from "../../gates/run-config.js";
import { resolveShard } from "../shard.js";
import { refuseStdinSlice, sniffSliceTask } from "../../io/slice.js";
import { staleReportFiles } from "../../report/write.js";
import { sliceCacheDirOf } from "../slice-flags.js";
import type { Report } from "../../report/types.js";
import type { Shard } from "../../tasks/document/score-dump.js";
import { addOptions } from "../options/add-options.js";
import { commonEvalSettings, documentEvalSettings, refuseDocumentOnlyFlags, type CommonEvalSettings, type EvalFlags } from "./eval-settings.js";

/** `--shard I/N` (see ../shard.ts for `auto`). */
export function parseShard(text: string | undefined): Shard | undefined {
  return resolveShard(text, undefined, {});
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 4));
}

export function registerEval(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program.command("eval").description(summary).argument("<slice>", "dataset slice: JSONL, CSV or ContraDoc JSON");
  addOptions(command, "eval");
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
  const common = commonEvalSettings(flags, config, process.env);
  if (task === "pairs") return evalPairs(slicePath, flags, config, common);
  return evalDocuments(slicePath, flags, config, common, started);
}

/** Pair corpora (docs/pairs.md) are evaluated by the pair task with the built-in classifier. */
async function evalPairs(slicePath: string, flags: EvalFlags, config: MariConfig, common: CommonEvalSettings): Promise<number> {
  const { shard, outDir, formats, gates, strict, quiet, progressMode, explorerCases } = common;
  const workers = common.workersAsked ?? defaultWorkers();
  refuseDocumentOnlyFlags(slicePath, flags);
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

async function evalDocuments(slicePath: string, flags: EvalFlags, config: MariConfig, common: CommonEvalSettings, started: bigint): Promise<number> {
  const settings = documentEvalSettings(slicePath, flags, config, common);
  const { checkDocumentGatesEarly, checkLimitAndShard, evaluateDocuments } = await import("../../tasks/document/evaluate.js");
  checkLimitAndShard(settings.limit, settings.shard);
  checkDocumentGatesEarly(settings);
  // After every flag and gate is checked: a usage error leaves no output directory behind.
  lockOutputDir(settings.outDir);
  // Files of formats not asked for that mari did not write: refused now, not after the run.
  await staleReportFiles(settings.outDir, common.formats);
  const outcome = await evaluateDocuments({
    ...settings,
    sliceCacheDir: sliceCacheDirOf(flags),
    observer: terminalObserver(common.progressMode, common.quiet),
    started,
  });
  // The main job (the built-in judge on a slice): say how to put one's own model in its place.
  const next =
    flags.predictions === undefined
      ? `evaluate your own model: mari predict ${slicePath} --judge openai --base-url URL --model NAME --out dump.jsonl, then mari eval ${slicePath} --predictions dump.jsonl`
      : undefined;
  return finishReportRun(outcome, common.quiet, rejectionNotes(outcome.report, outcome.outDir), next);
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
