// `mari merge REPORT.json … [--out DIR]` (SPEC §4.4): combines the reports of `mari eval --shard I/N`
// runs (each with its cases.jsonl beside it) into exactly the report a single run would write.
import { lockOutputDir } from "../../io/lock.js";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { COMMANDS } from "../command-list.js";
import { InputError } from "../../io/errors.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_WORKERS } from "../../core/limits.js";
import { finishReportRun } from "../summary.js";
import { parseReportFormats } from "../../report/write.js";
import { runDocumentMerge } from "../../tasks/document/merge.js";
import { isPairReportFile, runPairMerge } from "../../tasks/pairs/merge.js";

interface MergeFlags {
  out?: string;
  report?: string;
  slice?: string;
  quiet?: boolean;
  workers?: string;
}

export function registerMerge(program: Command, wrap: ActionWrapper): void {
  program
    .command("merge")
    .description(COMMANDS.merge.summary)
    .argument("<reports...>", "the shards' report.json files (cases.jsonl must sit beside each)")
    .option("--out <dir>", "output directory (default ./mari-report)")
    .option("--report <formats>", "report formats: json,md,html,junit (default all)")
    .option("--slice <path>", "the slice, when it is not at the path recorded in the reports")
    .option("--workers <n>", "worker threads for the aggregation (default 1)")
    .option("--quiet", "no summary on stdout")
    .action(
      wrap(async (reports: string[], flags: MergeFlags) => {
        const outDir = flags.out ?? "mari-report";
        lockOutputDir(outDir);
        await assertCasesBeside(reports);
        const formats = parseReportFormats(flags.report);
        const quiet = flags.quiet ?? false;
        if (reports.length > 0 && (await isPairReportFile(reports[0]!))) {
          return finishReportRun(await runPairMerge({ reportPaths: reports, outDir, formats, ...(flags.slice ? { pairsPath: flags.slice } : {}) }), quiet);
        }
        const workers = flags.workers === undefined ? 1 : boundedInteger("--workers", flags.workers, 1, MAX_WORKERS);
        const outcome = await runDocumentMerge({ reportPaths: reports, outDir, workers, formats, ...(flags.slice ? { slicePath: flags.slice } : {}) });
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
