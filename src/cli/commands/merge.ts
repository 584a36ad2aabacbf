// `mari merge REPORT.json … [--out DIR]` (docs/eval.md, "Scale, determinism, sharding"): combines the reports of `mari eval --shard I/N`
// runs (each with its cases.jsonl beside it) into exactly the report a single run would write.
import { lockOutputDir } from "../../io/lock.js";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { addOptions } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { InputError } from "../../io/errors.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_WORKERS } from "../../core/limits.js";
import { finishReportRun } from "../summary.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";
import { gatesFromFlags, type GateFlags } from "../gate-flags.js";
import { loadMariConfig } from "../../gates/run-config.js";
import { combineGates } from "../../gates/spec.js";
import { parseReportFormats } from "../../report/write.js";
import { reportTaskOf } from "../../tasks/shard-reports.js";
import { inOneStep } from "../../io/observer.js";

/** The one phase of a pair or evidence merge: the shards read, their tallies added, the report written. */
const MERGE_PHASE = "merge (steps)";

interface MergeFlags extends GateFlags {
  baseline?: string;
  config?: string;
  out?: string;
  report?: string;
  slice?: string;
  quiet?: boolean;
  workers?: string;
  progress?: string;
}

export function registerMerge(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program.command("merge").description(summary).argument("<reports...>", "the shards' report.json files (cases.jsonl must sit beside each)");
  addOptions(command, "merge");
  command.addHelpText(
    "after",
    `
Merges the reports of \`mari eval --shard i/n\` runs (each with its cases.jsonl beside it) into the
report a single unsharded run gives, gated as that run would be (the shards' gates, or the gate
flags and config given here).

Examples:
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions dump.jsonl --shard 0/2 --out s0
  mari eval datasets/contradoc/contradoc-160.jsonl --predictions dump.jsonl --shard 1/2 --out s1
  mari merge s0/report.json s1/report.json --out merged --gate 'accuracy>=0.6'

Exit codes: 0 every gate passed; 1 a gate failed; 2 usage or input error (missing, unreadable or
mismatched shards, shards with different gates); 3 internal error.`,
  );
  command.action(
    wrap(async (reports: string[], flags: MergeFlags) => {
      // The merged report is gated as the single run: the shards' recorded gates, overridden by
      // these flags and then by the config (flags > config > shards).
      const task = reports.length > 0 ? await reportTaskOf(reports[0]!) : undefined;
      const evidence = task === "evidence";
      const pairs = task === "pairs";
      // Evidence shards may hold located.jsonl only; their merge checks the files it needs.
      if (!evidence) await assertCasesBeside(reports);
      const config = await loadMariConfig(flags.config, undefined, evidence ? "evidence" : pairs ? "pairs" : "documents");
      const gates = combineGates(gatesFromFlags(flags), config.gates);
      const outDir = flags.out ?? config.out ?? OPTIONS.out.default;
      lockOutputDir(outDir);
      const formats = parseReportFormats(flags.report ?? config.report);
      const quiet = flags.quiet ?? config.quiet ?? false;
      const observer = terminalObserver(progressModeFor(flags.progress ?? config.progress, quiet), quiet);
      // Pair and evidence shards merge their tallies in one step; document shards show their phases.
      if (evidence) {
        if (flags.baseline !== undefined) throw new InputError("--baseline: evidence reports are not compared with a baseline");
        const { runEvidenceMerge } = await import("../../tasks/evidence/merge.js");
        return finishReportRun(await inOneStep(observer, MERGE_PHASE, () => runEvidenceMerge({ reportPaths: reports, outDir, formats, gates })), quiet);
      }
      if (pairs) {
        if (flags.baseline !== undefined) throw new InputError("--baseline: pair reports are not compared with a baseline");
        const { runPairMerge } = await import("../../tasks/pairs/merge.js");
        const pairsPath = flags.slice ? { pairsPath: flags.slice } : {};
        return finishReportRun(
          await inOneStep(observer, MERGE_PHASE, () => runPairMerge({ reportPaths: reports, outDir, formats, gates, ...pairsPath })),
          quiet,
        );
      }
      const baselinePath = flags.baseline ?? config.baseline;
      const workers = flags.workers === undefined ? 1 : boundedInteger("--workers", flags.workers, 1, MAX_WORKERS);
      const { runDocumentMerge } = await import("../../tasks/document/merge.js");
      const outcome = await runDocumentMerge({
        reportPaths: reports,
        outDir,
        workers,
        formats,
        gates,
        ...(baselinePath !== undefined ? { baselinePath } : {}),
        ...(flags.slice ? { slicePath: flags.slice } : {}),
        observer,
      });
      return finishReportRun(outcome, quiet);
    }),
  );
}

/** Each shard's cases.jsonl must be a readable file beside its report (an input error otherwise, exit 2). */
async function assertCasesBeside(reports: readonly string[]): Promise<void> {
  for (const report of reports) {
    const casesPath = join(dirname(report), "cases.jsonl");
    let isFile: boolean;
    try {
      isFile = (await stat(casesPath)).isFile();
    } catch (err) {
      throw new InputError(`${report}: cannot read the shard's cases ${casesPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!isFile) throw new InputError(`${report}: the shard's cases ${casesPath} is not a file`);
  }
}
