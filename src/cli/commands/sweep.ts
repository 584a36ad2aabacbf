// `mari sweep PAIRS [--grid default|full|FILE] [--costs FILE] [--out DIR] [--workers N]` (docs/pairs.md, "mari sweep PAIRS").
// Flags win over mari.config.json (grid, costs, out, workers, gate, progress, quiet), which wins
// over defaults.
import { lockOutputDir } from "../../io/lock.js";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { collect } from "../flags.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { MAX_WORKERS } from "../../core/limits.js";
import { progressModeFor } from "../progress.js";
import { loadMariConfig, pickOption } from "../../gates/run-config.js";
import { combineGates, parseGateFlag } from "../../gates/spec.js";
import { defaultWorkerCount, runSweep, type SweepOutcome } from "../../tasks/pairs/sweep.js";
import { EXIT_GATE_FAILED, EXIT_OK } from "../exit-codes.js";
import { terminalObserver } from "../observer.js";

interface SweepFlags {
  grid?: string;
  costs?: string;
  out?: string;
  workers?: string;
  gate: string[];
  quiet?: boolean;
  progress?: string;
  config?: string;
}

function parseWorkers(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return boundedInteger("--workers", text, 1, MAX_WORKERS);
}

export function registerSweep(program: Command, wrap: ActionWrapper, summary: string): void {
  program
    .command("sweep")
    .description(summary)
    .argument("<pairs>", "labelled pairs (JSONL or CSV: id, new, old, gold, kind)")
    .option("--grid <grid>", "default (one field at a time), full (cartesian product) or a JSON file of value lists per field (default default)")
    .option("--costs <file>", "JSON unit prices for RevisionCost (downrank_live, lost_corroboration, stale_kept, false_corroboration)")
    .option("--out <dir>", "output directory (default ./mari-sweep)")
    .option("--workers <n>", "worker threads (1 = in-process; default cores − 1)")
    .option(
      "--gate <condition>",
      "METRIC>=VALUE or METRIC<=VALUE every config must pass, in quotes, e.g. --gate 'update_recall>=0.7' (replaces the default gate on that metric; repeatable)",
      collect,
      [],
    )
    .option("--progress <mode>", "auto|bar|plain|none (on stderr)")
    .option("--quiet", "no summary on stdout, no notes, and no progress display unless --progress asks for one")
    .option("--config <file>", "config file (default ./mari.config.json when present)")
    .addHelpText(
      "after",
      `
Writes sweep.json, sweep.csv, report.md, report.html and pareto.svg into --out; they are identical for any
--workers.

Examples:
  mari sweep datasets/memory-pairs/mari-pairs.jsonl --out sweep-out
  mari sweep datasets/memory-pairs/mari-pairs.jsonl --grid full --costs costs.json --workers 2 --out sweep-out

Exit codes: 0 some config passes every gate; 1 none does; 2 usage or input error (unreadable
corpus, bad grid or costs); 3 internal error.`,
    )
    .action(
      wrap(async (pairs: string, flags: SweepFlags) => {
        const config = await loadMariConfig(flags.config, undefined, "pairs");
        const quiet = pickOption(flags.quiet, config.quiet, false);
        const out = pickOption(flags.out, config.out, "mari-sweep");
        lockOutputDir(out);
        const outcome = await runSweep({
          pairs,
          grid: flags.grid ?? config.grid,
          costs: flags.costs ?? config.costs,
          out,
          workers: pickOption(parseWorkers(flags.workers), config.workers, defaultWorkerCount()),
          // Only bound gates apply to a sweep row (no baseline, no invalid-prediction count).
          gates: combineGates(
            flags.gate.map((g) => parseGateFlag(g)),
            config.gates.filter((g) => g.kind === "min" || g.kind === "max"),
          ),
          observer: terminalObserver(progressModeFor(flags.progress ?? config.progress, quiet), quiet),
        });
        printSweepSummary(outcome, quiet);
        return outcome.result.best === null ? EXIT_GATE_FAILED : EXIT_OK;
      }),
    );
}

/** How the sweep ran (stderr), then the headline choices and the files written (stdout); nothing with --quiet. */
function printSweepSummary({ result, files, seconds, threads }: SweepOutcome, quiet: boolean): void {
  const { rows, best } = result;
  const labelled = result.pairs.labelled;
  // A note, silenced by --quiet like every command's notes.
  if (quiet) return;
  process.stderr.write(
    `mari: swept ${rows.length} configs over ${labelled} labelled pairs in ${seconds.toFixed(2)} s (${threads <= 1 ? "in-process" : `${threads} worker threads`})\n`,
  );
  const passing = rows.filter((r) => r.passed).length;
  const lines = [
    `configs: ${rows.length} (${passing} pass all gates), labelled pairs: ${labelled}`,
    best === null ? "best: none (no config passes every gate)" : `best: ${rows[best]!.label} (revision_cost ${rows[best]!.metrics.revision_cost!.toFixed(4)})`,
    `pareto front: ${result.pareto_front.length} config(s)`,
    ...files.map((p) => `wrote ${p}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
